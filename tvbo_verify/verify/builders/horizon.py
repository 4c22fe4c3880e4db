"""From which horizon a regret bound says something: the non-vacuity horizon of a bound on its best instance.

A regret bound ``B(T)`` says something about a run only where it is below the most regret any policy could incur,
the trivial bound of its setting (``2BT`` in an RKHS ball of radius ``B``; the summed range of the objective on a
GP sample). A check that finds its bound vacuous at the horizons it runs says so; this module says from which
horizon the bound would speak, on which admissible instance that happens earliest, which term dominates the bound
there, and draws ``B(T) / trivial(T)`` against ``T`` with the horizons the runs reach marked.

A bound is given as named terms (:class:`BoundCurve`): summands (``form="sum"``, the bound is their sum) or factors
(``form="product"``, the bound is ``√(Π factors) + offset``, the shape of the GP-UCB bounds ``√(C T β_T γ_T)``).
Where a term needs ``γ_T`` or ``β_T`` beyond what a computation reaches, the check must give an **upper** bound
(a lower one would make the horizon too early, in the flattering direction); :class:`Horizon` records how each
approximation errs (``errs``).

The search is on a logarithmic grid of horizons up to ``T_max`` (``10^12`` by default), refined by bisection on
integers at the first crossing; a bound that crosses back above the trivial bound later is reported with the last
horizon at which it is below (``until``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

import numpy as np

from ..evidence import Evidence, Verdict

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["T_MAX", "BoundCurve", "Horizon", "non_vacuity_horizon", "earliest_horizon", "horizon_figure",
           "cost_to_reach", "horizon_record", "SampleRange", "sample_range", "searched_instance_evidence"]

#: the largest horizon searched
T_MAX = 1e12


@dataclass(frozen=True)
class BoundCurve:
    """A regret bound as named terms of the horizon, and the trivial bound of its setting.

    Parameters
    ----------
    name
        What the bound is (e.g. ``"Theorem 4.3, eq. (20)"``).
    terms
        ``T -> {term: value}``: the summands (``form="sum"``) or the factors under the root (``form="product"``).
    trivial
        ``T -> `` the most regret any policy could incur in ``T`` rounds of the setting.
    form
        ``"sum"`` (the bound is the sum of the terms) or ``"product"`` (``√(Π terms) + offset``).
    offset
        Added to the root in the product form (e.g. the ``+ 2`` of eq. (20)).
    instance
        The admissible instance the curve is evaluated on (shown with the horizon).
    errs
        How each approximation the terms make errs (``{"gamma_T": "upper bound: the horizon errs late"}``).

    Examples
    --------
    >>> from tvbo_verify.authoring import BoundCurve, non_vacuity_horizon
    >>> curve = BoundCurve("√(100 T)", lambda T: {"T": T, "constant": 100.0}, trivial=lambda T: 2.0 * T,
    ...                    form="product", instance={"B": 1})
    >>> curve.bound(4.0), curve.ratio(100.0), curve.dominant(100.0)
    (20.0, 0.5, 'T')
    """

    name: str
    terms: Callable[[float], dict[str, float]]
    trivial: Callable[[float], float]
    form: str = "sum"
    offset: float = 0.0
    instance: dict[str, Any] = field(default_factory=dict)
    errs: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.form not in ("sum", "product"):
            raise ValueError(f"form must be 'sum' or 'product', got {self.form!r}")

    def bound(self, T: float) -> float:
        t = self.terms(T)
        if self.form == "sum":
            return float(sum(t.values()))
        return math.sqrt(max(math.prod(t.values()), 0.0)) + self.offset

    def ratio(self, T: float) -> float:
        """``bound(T) / trivial(T)`` (below 1: the bound says something)."""
        return self.bound(T) / self.trivial(T)

    def dominant(self, T: float) -> str:
        """The term that dominates the bound at ``T``: the largest summand, or the factor with the largest value
        relative to its value at ``T = 1`` (what grows the root most)."""
        t = self.terms(T)
        if self.form == "sum":
            return max(t, key=t.get)
        base = self.terms(1.0)
        return max(t, key=lambda k: t[k] / base[k] if base.get(k) else t[k])


@dataclass(frozen=True)
class Horizon:
    """The non-vacuity horizon of a :class:`BoundCurve`: the smallest ``T`` from which the bound is below the
    trivial bound (None: not up to ``searched_to``), the term dominating there, and how the computation errs.

    Made by :func:`non_vacuity_horizon`; :meth:`text` says it in one sentence, :meth:`to_dict` for the evidence.

    Attributes
    ----------
    curve : str
        The bound's name.
    horizon : int or None
        The smallest horizon from which the bound is below the trivial bound; None when it is vacuous up to
        ``searched_to``.
    until : int or None
        The last horizon at which it is still below, when it crosses back above later; None otherwise.
    searched_to : float
        The largest horizon searched.
    dominant : str
        The term that dominates the bound at ``horizon`` (at ``searched_to`` when vacuous).
    ratio_at_horizon : float or None
        ``bound / trivial`` at ``horizon``.
    instance : dict
        The admissible instance of the curve.
    errs : dict
        How each approximation errs.
    grid : tuple of (float, float)
        ``(T, bound(T) / trivial(T))`` on the search grid (what :func:`horizon_figure` draws).

    Examples
    --------
    >>> from tvbo_verify.authoring import BoundCurve, non_vacuity_horizon
    >>> curve = BoundCurve("√(100 T)", lambda T: {"T": T, "constant": 100.0}, trivial=lambda T: 2.0 * T,
    ...                    form="product", instance={"B": 1})
    >>> h = non_vacuity_horizon(curve)
    >>> h.horizon, h.until, h.dominant
    (26, None, 'T')
    >>> h.text()
    '√(100 T) says something from T = 26 on B = 1; there the term that dominates it is T'
    """

    curve: str
    horizon: int | None
    until: int | None
    searched_to: float
    dominant: str
    ratio_at_horizon: float | None
    instance: dict[str, Any]
    errs: dict[str, str]
    grid: tuple[tuple[float, float], ...] = ()

    def text(self) -> str:
        where = ", ".join(f"{k} = {v}" for k, v in self.instance.items())
        if self.horizon is None:
            return (f"{self.curve} is vacuous up to T = {self.searched_to:.3g} on {where or 'this instance'}; "
                    f"the term that dominates it there: {self.dominant}")
        window = f" (and again vacuous from T = {self.until + 1})" if self.until is not None else ""
        return (f"{self.curve} says something from T = {self.horizon} on {where or 'this instance'}{window}; "
                f"there the term that dominates it is {self.dominant}")

    def to_dict(self) -> dict[str, Any]:
        return {"curve": self.curve, "horizon": self.horizon, "until": self.until, "searched_to": self.searched_to,
                "dominant": self.dominant, "ratio_at_horizon": self.ratio_at_horizon, "instance": self.instance,
                "errs": self.errs, "text": self.text()}


def non_vacuity_horizon(curve: BoundCurve, *, T_min: int = 1, T_max: float = T_MAX, points: int = 241) -> Horizon:
    """The smallest integer ``T >= T_min`` with ``bound(T) < trivial(T)``: searched on a logarithmic grid up to
    ``T_max``, refined by bisection on integers at the first crossing (and at a crossing back, ``until``).

    Parameters
    ----------
    curve : BoundCurve
        The bound on one admissible instance.
    T_min : int, optional
        The smallest horizon considered.
    T_max : float, optional
        The largest horizon searched.
    points : int, optional
        The number of points of the logarithmic grid.

    Returns
    -------
    Horizon
        The horizon (None when the bound is vacuous on the whole grid), its dominant term and the grid.

    Examples
    --------
    >>> from tvbo_verify.authoring import BoundCurve, non_vacuity_horizon
    >>> c = BoundCurve("√(100 T)", lambda T: {"T": T, "constant": 100.0}, trivial=lambda T: 2.0 * T,
    ...                form="product")
    >>> non_vacuity_horizon(c).horizon
    26
    """
    grid = np.unique(np.round(np.geomspace(max(T_min, 1), T_max, points)))
    ratios = [curve.ratio(float(T)) for T in grid]
    below = [r < 1.0 for r in ratios]
    pairs = tuple((float(T), float(r)) for T, r in zip(grid, ratios))
    if not any(below):
        return Horizon(curve.name, None, None, float(T_max), curve.dominant(float(grid[-1])), None,
                       dict(curve.instance), dict(curve.errs), pairs)
    k = below.index(True)
    lo, hi = (int(grid[k - 1]), int(grid[k])) if k > 0 else (int(grid[0]) - 1, int(grid[0]))
    while hi - lo > 1:  # bisect on integers: ratio(lo) >= 1 > ratio(hi)
        mid = (lo + hi) // 2
        if curve.ratio(float(mid)) < 1.0:
            hi = mid
        else:
            lo = mid
    T_star = max(hi, T_min)
    until = None
    if not all(below[k:]):
        j = k + below[k:].index(False)
        lo2, hi2 = int(grid[j - 1]), int(grid[j])
        while hi2 - lo2 > 1:
            mid = (lo2 + hi2) // 2
            if curve.ratio(float(mid)) < 1.0:
                lo2 = mid
            else:
                hi2 = mid
        until = lo2
    return Horizon(curve.name, T_star, until, float(T_max), curve.dominant(float(T_star)), curve.ratio(float(T_star)),
                   dict(curve.instance), dict(curve.errs), pairs)


def earliest_horizon(curves: Iterable[BoundCurve], **kwargs: Any) -> tuple[Horizon, list[Horizon]]:
    """The horizon of every curve (one per admissible instance searched) and the earliest of them (a vacuous
    curve counts as infinitely late).

    Parameters
    ----------
    curves : iterable of BoundCurve
        The bound on each admissible instance.
    **kwargs
        Passed to :func:`non_vacuity_horizon` (``T_min``, ``T_max``, ``points``).

    Returns
    -------
    earliest : Horizon
        The earliest horizon.
    all : list of Horizon
        Every curve's horizon, in the order of ``curves``.

    Raises
    ------
    ValueError
        If ``curves`` is empty.

    Examples
    --------
    >>> from tvbo_verify.authoring import BoundCurve, earliest_horizon
    >>> curves = [BoundCurve("√(c T)", lambda T, c=c: {"T": T, "c": c}, trivial=lambda T: 2.0 * T, form="product",
    ...                      instance={"c": c}) for c in (100.0, 400.0)]
    >>> best, every = earliest_horizon(curves)
    >>> best.instance, [h.horizon for h in every]
    ({'c': 100.0}, [26, 101])
    """
    found = [non_vacuity_horizon(c, **kwargs) for c in curves]
    if not found:
        raise ValueError("curves must hold at least one bound curve")
    best = min(found, key=lambda h: (h.horizon is None, h.horizon or 0))
    return best, found


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


def cost_to_reach(seconds: float, at: float, horizon: float | None, exponent: float) -> float | None:
    """CPU seconds one run would take at ``horizon``, from ``seconds`` measured at horizon ``at`` and a cost growing
    like ``T^exponent`` (None when there is no horizon).

    Parameters
    ----------
    seconds : float
        The measured CPU seconds of one run.
    at : float
        The horizon it was measured at.
    horizon : float or None
        The horizon to reach (e.g. ``Horizon.horizon``).
    exponent : float
        The growth of a run's cost in ``T`` (the exponent of ``seconds ∝ T^exponent``, e.g. fitted on two horizons).

    Returns
    -------
    float or None
        ``seconds · (horizon / at)^exponent``; None when ``horizon`` is None.

    Examples
    --------
    >>> from tvbo_verify.authoring import cost_to_reach
    >>> cost_to_reach(2.0, 100, 1000, 2.0)
    200.0
    >>> cost_to_reach(2.0, 100, None, 2.0) is None
    True
    """
    if horizon is None:
        return None
    return float(seconds) * (float(horizon) / float(at)) ** float(exponent)


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
    earliest = sorted(found, key=lambda h: (h.horizon is None, h.horizon or 0))[:shown]
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
