"""The non-vacuity horizon of a regret bound: from which ``T`` the bound is below the trivial bound of its setting.

A regret bound ``B(T)`` says something about a run only where it is below the most regret any policy could incur,
the trivial bound of its setting (``2BT`` in an RKHS ball of radius ``B``; the summed range of the objective on a
GP sample). A bound is given as named terms (:class:`BoundCurve`): summands (``form="sum"``, the bound is their
sum) or factors (``form="product"``, the bound is ``√(Π factors) + offset``, the shape of the GP-UCB bounds
``√(C T β_T γ_T)``). Where a term needs ``γ_T`` or ``β_T`` beyond what a computation reaches, a check must give an
**upper** bound (a lower one would make the horizon too early, in the flattering direction); :class:`Horizon`
records how each approximation errs (``errs``).

The search (:func:`non_vacuity_horizon`) is on a logarithmic grid of horizons up to ``T_max`` (``10^12`` by
default), refined by bisection on integers at the first crossing; a bound that crosses back above the trivial
bound later is reported with the last horizon at which it is below (``until``). Pure numerics (numpy only): the
calculators use it as well as the claims, whose figures and evidence are drawn by
:mod:`tvbo_verify.verify.builders.horizon`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import numpy as np

__all__ = ["T_MAX", "BoundCurve", "Horizon", "non_vacuity_horizon", "earliest_horizon", "cost_to_reach"]

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

    @property
    def smallest(self) -> tuple[float, float]:
        """``(T, bound / trivial)`` where the ratio is smallest on the search grid (``(nan, inf)`` without a grid):
        how close a vacuous bound comes to saying something."""
        finite = [(T, r) for T, r in self.grid if not math.isnan(r)]
        return min(finite, key=lambda p: p[1]) if finite else (math.nan, math.inf)

    def earliness(self) -> tuple[bool, int, float]:
        """The order of :func:`earliest_horizon`: a horizon before none, an earlier one first (equal horizons keep
        the order searched), and among vacuous curves the one whose ratio comes closest to 1."""
        return self.horizon is None, self.horizon or 0, self.smallest[1] if self.horizon is None else 0.0

    def to_dict(self) -> dict[str, Any]:
        T, r = self.smallest
        return {"curve": self.curve, "horizon": self.horizon, "until": self.until, "searched_to": self.searched_to,
                "dominant": self.dominant, "ratio_at_horizon": self.ratio_at_horizon, "smallest_ratio": r,
                "smallest_ratio_at": T, "instance": self.instance, "errs": self.errs, "text": self.text()}


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
    best = min(found, key=Horizon.earliness)
    return best, found


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
