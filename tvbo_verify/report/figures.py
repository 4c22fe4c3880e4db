"""Figures as SVG files (matplotlib, Agg backend, text kept as text, no metadata links) that the page
loads lazily, their sizes, and the figure the report draws for a violated claim whose check attaches none."""

from __future__ import annotations

import io
import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence
from urllib.parse import quote

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_META = re.compile(r"<metadata>.*?</metadata>", re.S)
_HEAD = re.compile(r"^.*?(?=<svg)", re.S)
_IDS = re.compile(r'(id="|href="#|url\(#)([^")]+)')
_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([\d.]+)(pt|px)?"[^>]*?\bheight="([\d.]+)(pt|px)?"', re.S)
#: CSS pixels per unit of an SVG length
_PX = {"pt": 4.0 / 3.0, "px": 1.0, None: 1.0}


#: the longest title a figure draws (its details belong in the caption under it)
TITLE_CHARS = 110


def text_problems(fig: Any) -> list[str]:
    """The titles and free texts of ``fig`` that are not one short line (paragraphs drawn inside a figure
    squeeze its plot; they belong in the caption)."""
    texts = [fig.get_suptitle()] + [t.get_text() for t in fig.texts]
    texts += [ax.get_title(loc) for ax in fig.axes for loc in ("left", "center", "right")]
    problems = []
    for text in texts:
        lines = text.count("\n") + 1
        if lines > 1 or len(text) > TITLE_CHARS:
            problems.append(f"a title of {lines} lines and {len(text)} characters: {text[:60]!r}…")
    return problems


def to_svg(factory: Callable[[], Any], problems: list[str] | None = None) -> str:
    """Call ``factory`` (returning a matplotlib figure) and return the figure as an ``<svg>`` string; the
    figure's :func:`text_problems` are appended to ``problems`` when it is given."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"svg.fonttype": "none", "font.family": "sans-serif", "figure.dpi": 72}):
        fig = factory()
        if problems is not None:
            problems.extend(text_problems(fig))
        buf = io.StringIO()
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
        plt.close(fig)
    svg = _META.sub("", _HEAD.sub("", buf.getvalue(), count=1))
    return svg


def svg_size(path: Path) -> tuple[int, int] | None:
    """The width and height (CSS pixels) an SVG file declares on its root element, read from its head (None
    when it declares none or cannot be read): the page reserves that box before the image loads."""
    try:
        with open(path, encoding="utf-8") as fh:
            head = fh.read(4096)
    except (OSError, UnicodeDecodeError):
        return None
    m = _SIZE.search(head)
    if not m:
        return None
    return round(float(m.group(1)) * _PX[m.group(2)]), round(float(m.group(3)) * _PX[m.group(4)])


def figure_view(out: Path, folder: str, file: str, title: str) -> dict[str, Any]:
    """An image file of the report folder as the page shows it: its address relative to the page and the
    box it reserves, or the reason it cannot be shown."""
    path = Path(out) / folder / file
    if not path.is_file():
        return {"title": title, "src": None, "problem": f"figure file {path.name} is missing"}
    size = svg_size(path) if path.suffix == ".svg" else None
    return {"title": title, "src": quote(f"{folder}/{file}"), "width": size[0] if size else None,
            "height": size[1] if size else None, "problem": ""}


def unique_ids(svg: str, prefix: str) -> str:
    """``svg`` with every element id (and reference to it) prefixed, so that several inline SVGs of
    one page never share an id."""
    return _IDS.sub(lambda m: m.group(1) + prefix + m.group(2), svg)


def instance_margins_figure(rows: Sequence[dict[str, Any]], *, title: str = "") -> Figure:
    """The margin of every row of an instance table (relative margin where the rows have one), in table
    order, breaks in red and the shrunk counterexample starred; for violated claims whose check draws
    no figure of its own."""
    from ..verify.builders.figures import margin_figure

    key = "relative margin" if any(_finite(r.get("relative margin")) for r in rows) else "margin"
    kept = [(i, r) for i, r in enumerate(rows) if _finite(r.get(key))]
    if not kept:
        raise ValueError("the instance table has no finite margins to draw")
    xs = [i for i, _ in kept]
    margins = [float(r[key]) for _, r in kept]
    ce = next(((i, float(r[key])) for i, r in kept if str(r.get("note", "")).endswith("counterexample")), None)
    label = "property" if any("property" in r for _, r in kept) else "instance"
    fig = margin_figure(xs, margins, [m < 0 for m in margins], None, xlabel=f"{label} (row of the table above)",
                        counterexample=ce, title=title)
    ax = fig.axes[0]
    if key == "margin":
        ax.set_ylabel("margin (stated − measured side; < 0: broken)")
    ax.set_xlim(-0.5, len(rows) - 0.5)  # rows are categories: whole markers, nothing beyond the last row
    if label == "property":
        ax.set_xticks(range(len(rows)), [str(r.get("property", i)) for i, r in enumerate(rows)], rotation=15,
                      fontsize=7, ha="right")
    else:
        ax.set_xticks(range(len(rows)))
    ax.set_ymargin(0.12)
    ax.autoscale_view(scalex=False)
    return fig


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
