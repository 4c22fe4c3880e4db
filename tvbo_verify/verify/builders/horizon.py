"""Where a regret bound says something, in a claim's evidence: the figure, the record and the searched instance.

The non-vacuity horizon itself (:class:`BoundCurve`, :class:`Horizon`, :func:`non_vacuity_horizon`,
:func:`earliest_horizon`, :func:`cost_to_reach`) is pure numerics in :mod:`tvbo_verify.theory.horizon`, re-exported
here and by the authoring API. This module adds what a claim needs around it: the log–log figure of
``B(T) / trivial(T)`` with the horizons the runs reach marked (:func:`horizon_figure`), the record and figure of the
earliest horizon over the searched instances (:func:`horizon_record`), attaching both to the evidence
(:func:`with_horizon`), a claim decided at the searched instance (:func:`searched_instance_evidence`), and the
expected range of a GP sample a trivial bound is evaluated with (:func:`sample_range`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from ...theory.horizon import T_MAX, BoundCurve, Horizon, cost_to_reach, earliest_horizon, non_vacuity_horizon
from ..evidence import Evidence, Verdict

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["T_MAX", "BoundCurve", "Horizon", "non_vacuity_horizon", "earliest_horizon", "horizon_figure",
           "cost_to_reach", "horizon_record", "SampleRange", "sample_range", "searched_instance_evidence",
           "with_horizon"]


def horizon_figure(horizons: Sequence[Horizon], reached: Sequence[float] = (), title: str = "") -> "Figure":
    """``bound(T) / trivial(T)`` against ``T`` (log–log) for each instance, the line 1 where the bound starts to
    say something, and the horizons the runs reach marked.

    Parameters
    ----------
    horizons : sequence of Horizon
        One per instance (:func:`earliest_horizon`); each drawn from its ``grid``, its horizon marked.
    reached : sequence of float, optional
        The horizons the runs reach (dotted vertical lines).
    title : str, optional
        The title (default: what the figure shows).

    Returns
    -------
    matplotlib.figure.Figure
        The figure, of the report's width.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from tvbo_verify.authoring import BoundCurve, non_vacuity_horizon
    >>> curve = BoundCurve("√(100 T)", lambda T: {"T": T, "constant": 100.0}, trivial=lambda T: 2.0 * T,
    ...                    form="product", instance={"B": 1})
    >>> fig = horizon_figure([non_vacuity_horizon(curve)], reached=[10, 100])
    >>> fig.axes[0].get_ylabel()
    'bound / trivial bound'
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt

    from ...style import FIGURE_WIDTH

    fig, ax = plt.subplots(figsize=(FIGURE_WIDTH, 3.4), layout="constrained")
    for h in horizons:
        T, r = np.array(h.grid).T if h.grid else (np.array([]), np.array([]))
        label = ", ".join(f"{k}={v}" for k, v in h.instance.items()) or h.curve
        ax.loglog(T, r, label=label)
        if h.horizon is not None:
            ax.plot([h.horizon], [1.0], "o", color=ax.lines[-1].get_color())
    ax.axhline(1.0, color="k", lw=1)
    for T in reached:
        ax.axvline(T, color="0.6", ls=":", lw=1)
    ax.set_xlabel("horizon T")
    ax.set_ylabel("bound / trivial bound")
    ax.set_title(title or "where the bound says something (below 1); dotted: horizons the runs reach", fontsize=9)
    if len(horizons) <= 8:
        ax.legend(fontsize=7)
    return fig


def horizon_record(curves: Sequence[BoundCurve], runs_reach: float, seconds: float | None, exponent: float,
                   title: str = "", *, T_max: float = T_MAX, points: int = 120,
                   shown: int = 6) -> tuple[dict[str, Any], Callable[[], "Figure"]]:
    """The earliest non-vacuity horizon over the admissible instances ``curves``, as the record and figure factory
    :func:`with_horizon` attaches to a claim's evidence.

    Parameters
    ----------
    curves : sequence of BoundCurve
        The bound on each admissible instance searched.
    runs_reach : float
        The largest horizon the claim's runs reach (marked on the figure).
    seconds : float or None
        The CPU seconds one run took at ``runs_reach`` (None: not measured, no cost projected).
    exponent : float
        The growth of a run's cost in ``T`` (:func:`cost_to_reach`).
    title : str, optional
        The figure's title.
    T_max, points : optional
        The search of :func:`non_vacuity_horizon`.
    shown : int, optional
        How many instances the figure draws (the earliest ones).

    Returns
    -------
    record : dict
        :meth:`Horizon.to_dict` of the earliest horizon, with ``cpu_seconds_to_reach`` (one run at the horizon),
        ``runs_reach`` and ``searched instances``.
    figure : callable
        ``() -> Figure``: :func:`horizon_figure` of the earliest ``shown`` instances.

    Examples
    --------
    >>> from tvbo_verify.authoring import BoundCurve, horizon_record
    >>> curves = [BoundCurve("√(c T)", lambda T, c=c: {"T": T, "c": c}, trivial=lambda T: 2.0 * T, form="product",
    ...                      instance={"c": c}) for c in (100.0, 400.0)]
    >>> record, figure = horizon_record(curves, runs_reach=10, seconds=1.0, exponent=1.0)
    >>> record["horizon"], record["instance"], record["cpu_seconds_to_reach"], record["searched instances"]
    (26, {'c': 100.0}, 2.6, 2)
    """
    best, found = earliest_horizon(curves, T_max=T_max, points=points)
    record = best.to_dict()
    record["cpu_seconds_to_reach"] = None if seconds is None else cost_to_reach(seconds, runs_reach, best.horizon,
                                                                                exponent)
    record["runs_reach"] = runs_reach
    record["searched instances"] = len(found)
    earliest = sorted(found, key=Horizon.earliness)[:shown]
    return record, lambda: horizon_figure(earliest, [runs_reach], title)


@dataclass(frozen=True)
class SampleRange:
    """Monte Carlo estimate of ``E[max_x f(x) − min_x f(x)]`` for a GP sample ``f`` on a finite domain: the mean, its
    standard error, and ``lower`` = mean − 3 standard errors (the value a trivial bound ``T · E[range]`` is evaluated
    with: it errs low, so a horizon computed with it errs late). Built by :func:`sample_range`.

    Parameters
    ----------
    mean : float
        The mean range over the draws.
    se : float
        Its standard error.
    lower : float
        ``mean − 3 se``: the range a trivial bound is evaluated with.
    samples : int
        The number of draws.

    Examples
    --------
    >>> from tvbo_verify.authoring import SampleRange
    >>> r = SampleRange(mean=1.2, se=0.01, lower=1.17, samples=4000)
    >>> r.lower < r.mean
    True
    """

    mean: float
    se: float
    lower: float
    samples: int


def sample_range(factors: Sequence[np.ndarray], *, samples: int = 4000, seed: int = 0,
                 variance: float = 1.0) -> SampleRange:
    """The expected range of ``f ~ GP(0, variance · K)`` on a product grid with ``K = ⊗ factors`` (one Gram matrix
    per axis; a single factor for any grid), from ``samples`` seeded draws.

    Parameters
    ----------
    factors : sequence of numpy.ndarray
        One Gram matrix per axis of the grid (the kernel is their Kronecker product).
    samples : int
        The number of draws of ``f``.
    seed : int
        The seed of the draws.
    variance : float
        The prior variance of ``f``.

    Returns
    -------
    SampleRange
        The mean range, its standard error and the low estimate ``mean − 3 se``.

    Examples
    --------
    >>> r = sample_range([np.eye(2)], samples=20000)  # two independent N(0, 1): E|X − Y| = 2/√π
    >>> abs(r.mean - 2 / math.sqrt(math.pi)) < 4 * r.se and r.lower < r.mean
    True
    """
    rng = np.random.default_rng(seed)
    roots = []
    for K in factors:
        lam, U = np.linalg.eigh(np.asarray(K, float))
        roots.append(U * np.sqrt(np.maximum(lam, 0.0)))
    shape = [R.shape[0] for R in roots]
    ranges = np.empty(samples)
    for s0 in range(0, samples, 500):
        n = min(500, samples - s0)
        Z = rng.standard_normal((n, *shape))
        for axis, R in enumerate(roots):  # apply R along each axis: f = (⊗ R) z
            Z = np.moveaxis(np.tensordot(Z, R, axes=([axis + 1], [1])), -1, axis + 1)
        flat = Z.reshape(n, -1) * math.sqrt(variance)
        ranges[s0:s0 + n] = flat.max(axis=1) - flat.min(axis=1)
    mean, se = float(ranges.mean()), float(ranges.std(ddof=1) / math.sqrt(samples))
    return SampleRange(mean, se, mean - 3.0 * se, samples)


def searched_instance_evidence(searched: Evidence, setup: Evidence, where: str) -> Evidence:
    """A regret-bound claim decided at the searched instance where its bound says something (``searched``: the
    events and negative controls run there), with the set-up it is otherwise run on (``setup``) still able to
    refute it: violated when either is violated, else the searched instance's verdict (a set-up whose bound no
    run could break decides nothing). The searched instance's power and controls are the evidence's; the
    set-up's rows follow its rows, marked ``"set-up": "paper"``.

    Parameters
    ----------
    searched : Evidence
        The evidence of the runs at the searched instance (events and negative controls).
    setup : Evidence
        The evidence on the set-up the claim is otherwise run on.
    where : str
        The searched instance, as the summary names it.

    Returns
    -------
    Evidence
        Violated when either is violated, else the searched instance's verdict.

    Examples
    --------
    >>> a, b = Evidence(Verdict.CONFIRMED, "holds."), Evidence(Verdict.INCONCLUSIVE, "vacuous.")
    >>> e = searched_instance_evidence(a, b, "l = 0.05")
    >>> e.verdict.value
    'confirmed'
    >>> print(e.summary)
    Decided at the searched instance (l = 0.05): holds. On the paper's set-up: vacuous.
    """
    verdict = Verdict.VIOLATED if Verdict.VIOLATED in (searched.verdict, setup.verdict) else searched.verdict
    summary = f"Decided at the searched instance ({where}): {searched.summary} On the paper's set-up: {setup.summary}"
    rows = [{"set-up": "searched", **r} for r in searched.instances] + \
        [{"set-up": "paper", **r} for r in setup.instances]
    margin = searched.margin if setup.margin is None or searched.margin is None else min(searched.margin,
                                                                                         setup.margin)
    counterexample = searched.counterexample if searched.verdict is Verdict.VIOLATED else setup.counterexample
    stats = {**setup.stats, **searched.stats, "decided at": where,
             "paper set-up": {"verdict": setup.verdict.value, "summary": setup.summary}}
    return Evidence(verdict, summary, instances=rows, margin=margin, counterexample=counterexample, stats=stats,
                    power=searched.power, figures=[*searched.figures, *setup.figures], controls=list(searched.controls))


def with_horizon(ev: Evidence, bound: str, record: dict[str, Any], figure: Any) -> Evidence:
    """Attach a bound's non-vacuity horizon to its claim's evidence, where the report's theory-versus-practice
    panel reads it.

    Parameters
    ----------
    ev : Evidence
        The claim's evidence (changed in place and returned).
    bound : str
        How the bound is named in the figure's title (e.g. ``"(17)"``).
    record : dict
        The horizon's record (:meth:`Horizon.to_dict`, with a ``"text"`` entry).
    figure : callable
        The figure factory (:func:`horizon_figure` behind a ``lambda``).

    Returns
    -------
    Evidence
        ``ev``, with ``record`` as ``stats["non_vacuity_horizon"]``, the figure, and for an inconclusive verdict
        the horizon in its summary.

    Examples
    --------
    >>> from tvbo_verify.authoring import Evidence, Verdict, with_horizon
    >>> ev = Evidence(Verdict.INCONCLUSIVE, "vacuous at the horizons run.")
    >>> ev = with_horizon(ev, "(7)", {"text": "(7) says something from T = 5000"}, lambda: None)
    >>> ev.summary
    'vacuous at the horizons run. Non-vacuity horizon: (7) says something from T = 5000.'
    """
    ev.stats["non_vacuity_horizon"] = record
    ev.figures.append((f"Where {bound} says something: bound / trivial bound against T", figure))
    if ev.verdict is Verdict.INCONCLUSIVE:
        ev.summary += f" Non-vacuity horizon: {record['text']}."
    return ev
