"""Multi-algorithm figures in a paper's metric: mean ± 1 sd over repetitions, bounds overlaid honestly.

An overlay is either a bound *with its constants* (drawn as it is) or an *order only* (the constant
fitted on the first half of the horizon, never at T, and labelled so) — never an order rescaled to
end at the empirical mean.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ..results import SweepResult

WIDTH = 7.5


@dataclass(frozen=True)
class Overlay:
    """A curve g(t) for arm ``label``: ``kind`` is "bound" (with its constants) or "order" (constant unknown)."""

    label: str
    curve: Callable[[np.ndarray], np.ndarray]
    kind: str
    text: str


def _metric(R: np.ndarray, t: np.ndarray, metric: str) -> np.ndarray:
    return R / t[None, :] if metric == "average" else R


def regret_axes(ax, result: SweepResult, *, metric: str = "cumulative", labels: Sequence[str] | None = None,
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
                half = slice(0, max(2, t.size // 2))
                c = float(np.exp(np.mean(np.log(np.maximum(m[half], 1e-12)) - np.log(np.maximum(g[half], 1e-300)))))
                ax.plot(t, c * g, ls="--", color=line.get_color(), lw=1,
                        label=f"{lab}: {ov.text} (order only, constant fitted on first half)")
            else:
                ax.plot(t, g, ls=":", color=line.get_color(), lw=1.2, label=f"{lab}: {ov.text} (bound with constants)")
    ax.set_xlim(1, t[-1])
    ax.set_xlabel("round t")
    ax.set_ylabel("average regret $R_t/t$" if metric == "average" else "cumulative regret $R_t$")
    if title:
        ax.set_title(title, fontsize=9)


def regret_figure(result: SweepResult, *, metric: str = "cumulative", labels: Sequence[str] | None = None,
                  overlays: Sequence[Overlay] = (), title: str = "", note: str = ""):
    """One panel: every arm's mean ± 1 sd regret, legend outside the data, the measured ordering below."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(WIDTH, 3.8), layout="constrained")
    regret_axes(ax, result, metric=metric, labels=labels, overlays=overlays, title=title)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="shaded: ± 1 sd", title_fontsize=7)
    if note:
        fig.text(0.01, -0.02, textwrap.fill(note, 130), fontsize=7, va="top")
    return fig


def panel_figure(results: dict[str, SweepResult], *, metric: str = "cumulative", ncols: int = 3,
                 overlays: dict[str, Sequence[Overlay]] | None = None, note: str = ""):
    """Several sweeps side by side (e.g. one per ε), sharing the legend."""
    import matplotlib.pyplot as plt

    n = len(results)
    ncols = min(ncols, n)
    nrows = -(-n // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(WIDTH, 2.6 * nrows + 0.6), layout="constrained", squeeze=False)
    for ax, (name, res) in zip(axes.flat, results.items()):
        regret_axes(ax, res, metric=metric, overlays=(overlays or {}).get(name, ()), title=name)
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=7, loc="outside lower center", ncol=min(4, len(labels)),
               title="shaded: ± 1 sd", title_fontsize=7)
    if note:
        fig.suptitle(textwrap.fill(note, 130), fontsize=8)
    return fig
