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
    """A curve g(t) drawn over the regret of one arm: a bound with its constants, or an order whose constant the
    statement does not give.

    A ``"bound"`` is drawn as it is (dotted, "bound with constants"); an ``"order"`` is drawn with its constant
    fitted on the first half of the horizon (dashed, labelled "order only"), never rescaled to end at the
    measured mean.

    Attributes
    ----------
    label : str
        The arm label it is drawn for.
    curve : callable
        ``g``: the rounds ``t`` (a float array) to the curve's cumulative values.
    kind : {"bound", "order"}
        Whether the curve has its constants.
    text : str
        Its legend text (e.g. the formula).

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import Overlay
    >>> ov = Overlay("GP-UCB", lambda t: np.sqrt(t), "order", "O(√t)")
    >>> ov.curve(np.array([1.0, 4.0])).tolist(), ov.kind
    ([1.0, 2.0], 'order')
    """

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
    """Draw every arm of ``result`` (mean ± 1 sd over repetitions) on ``ax``, with its overlays.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    result : SweepResult
        The runs.
    metric : {"cumulative", "average"}, optional
        ``R_t`` or ``R_t / t``.
    labels : sequence of str or None, optional
        The arms drawn (default: every arm).
    overlays : sequence of Overlay, optional
        Curves drawn over the arms they name.
    T : int or None, optional
        The horizon drawn (default: the sweep's largest).
    title : str, optional
        The panel title.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from tvbo_verify.authoring import Arm, RunCache, Sweep, regret_axes, run_sweep
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> result = run_sweep(sweep, cache=RunCache(None))
    >>> fig, ax = plt.subplots()
    >>> regret_axes(ax, result, metric="average")
    >>> ax.get_ylabel()
    'average regret $R_t/t$'
    >>> plt.close(fig)
    """
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
    """One panel: every arm's mean ± 1 sd regret, legend outside the data, a one-line title.

    Parameters
    ----------
    result : SweepResult
        The runs.
    metric : {"cumulative", "average"}, optional
        ``R_t`` or ``R_t / t``.
    labels : sequence of str or None, optional
        The arms drawn (default: every arm).
    overlays : sequence of Overlay, optional
        Curves drawn over the arms they name.
    title : str, optional
        A one-line title (:func:`one_line`).

    Returns
    -------
    matplotlib.figure.Figure
        The figure, of the report's width (:data:`FIGURE_WIDTH`).

    Raises
    ------
    ValueError
        If ``title`` is not one line (:func:`one_line`).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> from tvbo_verify.authoring import Arm, Overlay, RunCache, Sweep, regret_figure, run_sweep
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> result = run_sweep(sweep, cache=RunCache(None))
    >>> fig = regret_figure(result, overlays=[Overlay("random", lambda t: t, "order", "O(t)")], title="doc")
    >>> len(fig.axes)
    1
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(WIDTH, 3.8), layout="constrained")
    regret_axes(ax, result, metric=metric, labels=labels, overlays=overlays, title=one_line(title))
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="shaded: ± 1 sd", title_fontsize=7)
    return fig


def panel_figure(results: dict[str, SweepResult], *, metric: str = "cumulative", ncols: int = 3,
                 overlays: dict[str, Sequence[Overlay]] | None = None, title: str = "") -> Figure:
    """Several sweeps side by side (e.g. one per ε), sharing the legend; each panel names its runs.

    Parameters
    ----------
    results : dict
        The sweep results by panel title, in panel order.
    metric : {"cumulative", "average"}, optional
        ``R_t`` or ``R_t / t``.
    ncols : int, optional
        The most panels in a row.
    overlays : dict or None, optional
        :class:`Overlay` curves by panel title.
    title : str, optional
        A one-line title over all panels (:func:`one_line`).

    Returns
    -------
    matplotlib.figure.Figure
        The figure, of the report's width.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from tvbo_verify.authoring import Arm, RunCache, Sweep, panel_figure, run_sweep
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> result = run_sweep(sweep, cache=RunCache(None))
    >>> fig = panel_figure({"a": result, "b": result}, ncols=2)
    >>> [ax.get_title() for ax in fig.axes]
    ['a (2 runs)', 'b (2 runs)']
    >>> plt.close(fig)
    """
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
    (a finding is written in the figure's caption, not inside the figure).

    Parameters
    ----------
    text : str
        The title.
    limit : int, optional
        The most characters allowed.

    Returns
    -------
    str
        ``text`` unchanged.

    Raises
    ------
    ValueError
        If ``text`` contains a line break or is longer than ``limit``.

    Examples
    --------
    >>> from tvbo_verify.authoring import one_line
    >>> one_line("regret against t")
    'regret against t'
    >>> one_line("x" * 200)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: a figure title must be one line of at most 110 characters, got 200 characters: 'xxx...
    """
    if "\n" in text or len(text) > limit:
        raise ValueError(f"a figure title must be one line of at most {limit} characters, got {len(text)} "
                         f"characters: {text[:60]!r}...")
    return text
