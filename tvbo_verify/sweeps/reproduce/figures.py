"""Multi-algorithm figures in a paper's metric: mean ± 1 sd over repetitions, bounds overlaid honestly.

An overlay is either a bound *with its constants* (drawn as it is) or an *order only* (the constant
fitted on the first half of the horizon, never at T, and labelled so) — never an order rescaled to
end at the empirical mean, and never labelled a bound. Titles are one line: what a figure found is
written in the caption the report shows under it, not inside the figure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np

from ...style import FIGURE_WIDTH as WIDTH
from ..results import SweepResult

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure



@dataclass(frozen=True)
class Overlay:
    """A curve g(t) for arm ``label``: ``kind`` is "bound" (with its constants) or "order" (constant unknown)."""

    label: str
    curve: Callable[[np.ndarray], np.ndarray]
    kind: str
    text: str


#: what an order curve with a fitted constant is called in a legend (it is not a bound)
ORDER_ONLY = "order only, constant fitted on the first half"


def fit_order(measured: np.ndarray, shape: np.ndarray) -> np.ndarray:
    """``c · shape`` with ``c`` fitted (geometric mean of measured/shape) on the first half of the points: the
    order of a bound drawn against measurements whose constant the statement does not give."""
    measured, shape = np.asarray(measured, float), np.asarray(shape, float)
    head = slice(0, max(1, shape.size // 2))
    c = float(np.exp(np.mean(np.log(np.maximum(measured[head], 1e-12)) - np.log(np.maximum(shape[head], 1e-300)))))
    return c * shape


def _metric(R: np.ndarray, t: np.ndarray, metric: str) -> np.ndarray:
    return R / t[None, :] if metric == "average" else R


def regret_axes(ax: Axes, result: SweepResult, *, metric: str = "cumulative", labels: Sequence[str] | None = None,
                overlays: Sequence[Overlay] = (), T: int | None = None, title: str = "") -> None:
    """Draw every arm of ``result`` (mean ± 1 sd) on ``ax``."""
    labels = list(labels or [a.label for a in result.sweep.arms])
    for lab in labels:
        R = result.series(lab, T=T)
        t = np.arange(1, R.shape[1] + 1, dtype=float)
        Y = _metric(R, t, metric)
        m, s = Y.mean(axis=0), Y.std(axis=0)
        line, = ax.plot(t, m, lw=1.4, label=f"{lab} (mean of {R.shape[0]})")
        ax.fill_between(t, m - s, m + s, color=line.get_color(), alpha=0.18, lw=0)
        for ov in overlays:
            if ov.label != lab:
                continue
            g = np.asarray(ov.curve(t), float)
            g = _metric(g[None, :], t, metric)[0]
            if ov.kind == "order":
                ax.plot(t, fit_order(m, g), ls="--", color=line.get_color(), lw=1,
                        label=f"{lab}: {ov.text} ({ORDER_ONLY})")
            else:
                ax.plot(t, g, ls=":", color=line.get_color(), lw=1.2, label=f"{lab}: {ov.text} (bound with constants)")
    ax.set_xlim(1, t[-1])
    ax.set_xlabel("round t")
    ax.set_ylabel("average regret $R_t/t$" if metric == "average" else "cumulative regret $R_t$")
    if title:
        ax.set_title(title, fontsize=9)


def regret_figure(result: SweepResult, *, metric: str = "cumulative", labels: Sequence[str] | None = None,
                  overlays: Sequence[Overlay] = (), title: str = "") -> Figure:
    """One panel: every arm's mean ± 1 sd regret, legend outside the data, a one-line title."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(WIDTH, 3.8), layout="constrained")
    regret_axes(ax, result, metric=metric, labels=labels, overlays=overlays, title=one_line(title))
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="shaded: ± 1 sd", title_fontsize=7)
    return fig


def panel_figure(results: dict[str, SweepResult], *, metric: str = "cumulative", ncols: int = 3,
                 overlays: dict[str, Sequence[Overlay]] | None = None, title: str = "") -> Figure:
    """Several sweeps side by side (e.g. one per ε), sharing the legend; each panel names its runs."""
    import matplotlib.pyplot as plt

    n = len(results)
    ncols = min(ncols, n)
    nrows = -(-n // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(WIDTH, 2.6 * nrows + 0.6), layout="constrained", squeeze=False)
    for ax, (name, res) in zip(axes.flat, results.items()):
        regret_axes(ax, res, metric=metric, overlays=(overlays or {}).get(name, ()),
                    title=f"{name} ({res.sweep.reps} runs)")
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=7, loc="outside lower center", ncol=min(4, len(labels)),
               title="shaded: ± 1 sd", title_fontsize=7)
    if title:
        fig.suptitle(one_line(title), fontsize=8)
    return fig


#: the longest figure title drawn; details belong in the caption
TITLE_CHARS = 110


def one_line(text: str, limit: int = TITLE_CHARS) -> str:
    """``text`` as a one-line figure title: ValueError when it spans lines or exceeds ``limit`` characters
    (a finding is written in the figure's caption, not inside the figure)."""
    if "\n" in text or len(text) > limit:
        raise ValueError(f"a figure title must be one line of at most {limit} characters, got {len(text)} "
                         f"characters: {text[:60]!r}...")
    return text
