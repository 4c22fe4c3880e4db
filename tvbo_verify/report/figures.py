"""Figures as inline SVG (matplotlib, Agg backend, text kept as text, no metadata links)."""

from __future__ import annotations

import io
import re
from typing import Any, Callable

_META = re.compile(r"<metadata>.*?</metadata>", re.S)
_HEAD = re.compile(r"^.*?(?=<svg)", re.S)


def to_svg(factory: Callable[[], Any]) -> str:
    """Call ``factory`` (returning a matplotlib figure) and return the figure as an ``<svg>`` string."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"svg.fonttype": "none", "font.family": "sans-serif", "figure.dpi": 72}):
        fig = factory()
        buf = io.StringIO()
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
        plt.close(fig)
    svg = _META.sub("", _HEAD.sub("", buf.getvalue(), count=1))
    return svg
