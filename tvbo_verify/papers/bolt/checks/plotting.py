"""The layout every ``bolt`` claim figure shares: labelled axes, limits where the data end, legend outside."""

from __future__ import annotations

from typing import Any

#: the report's content width in inches
WIDTH = 7.5


def new_axes(height: float = 3.4) -> tuple[Any, Any]:
    """A figure of the report's width with one set of axes (constrained layout)."""
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(WIDTH, height), layout="constrained")


def finish(ax: Any, *, xlabel: str, ylabel: str, xlim: tuple[float, float] | None = None, title: str = "") -> None:
    """Label the axes, end the x axis at ``xlim``, add a small title and put the legend outside the data."""
    if xlim is not None:
        ax.set_xlim(*xlim)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
