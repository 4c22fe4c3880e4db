"""The printed statement of every claim as a formula (``statements.csv``), rendered offline to inline SVG.

``statements.csv`` has one row per claim id of the claim list: ``printed`` is the statement as the
paper prints it (for a ``+corrected`` row: the printed statement its correction replaces) and
``corrected`` the corrected statement (errata and their ``+corrected`` twins; empty elsewhere).
Formulas are matplotlib mathtext (a TeX subset), rendered with glyphs as paths so that the page
needs no font and no network.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .figures import unique_ids

_HEAD = re.compile(r"^.*?(?=<svg)", re.S)
_META = re.compile(r"<metadata>.*?</metadata>", re.S)
_BACKGROUND = re.compile(r'<g id="patch_1">.*?</g>', re.S)
_COUNTER = itertools.count()

FONT_SIZE = 15.0


@dataclass(frozen=True)
class Formula:
    id: str
    printed: str
    corrected: str = ""


@lru_cache(maxsize=1)
def formulas() -> dict[str, Formula]:
    """Every row of ``statements.csv`` by claim id."""
    text = resources.files(__package__).joinpath("statements.csv").read_text(encoding="utf-8")
    out = {}
    for raw in csv.DictReader(io.StringIO(text)):
        row = Formula(**{k: (raw.get(k) or "").strip() for k in Formula.__dataclass_fields__})
        if row.id in out:
            raise ValueError(f"statements.csv lists {row.id!r} twice")
        out[row.id] = row
    return out


def formula(claim_id: str) -> Formula | None:
    """The formulas of ``claim_id`` (None when statements.csv has no row for it)."""
    return formulas().get(claim_id)


def parse(tex: str) -> None:
    """Raise ``ValueError`` when mathtext cannot typeset ``tex`` (without drawing it)."""
    from matplotlib.mathtext import MathTextParser

    MathTextParser("path").parse(f"${tex}$", dpi=72)


@lru_cache(maxsize=512)
def _svg(tex: str) -> str:
    import matplotlib
    from matplotlib import mathtext
    from matplotlib.font_manager import FontProperties

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "path", "mathtext.fontset": "cm", "svg.hashsalt": "tvbo"}):
        mathtext.math_to_image(f"${tex}$", buf, prop=FontProperties(size=FONT_SIZE), format="svg")
    svg = _META.sub("", _HEAD.sub("", buf.getvalue(), count=1))
    return _BACKGROUND.sub("", svg, count=1)


def formula_svg(tex: str, label: str = "") -> str:
    """``tex`` typeset as an inline ``<svg>`` (element ids made unique in the page, ``label`` as its title)."""
    prefix = f"m{next(_COUNTER)}-"
    svg = unique_ids(_svg(tex), prefix)
    title = f"<title>{_escape(label or tex)}</title>"
    return svg.replace(">", ">" + title, 1).replace("<svg ", '<svg role="img" class="formula" ', 1)


def _escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
