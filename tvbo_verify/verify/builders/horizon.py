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

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["T_MAX", "BoundCurve", "Horizon", "non_vacuity_horizon", "earliest_horizon", "horizon_figure",
           "cost_to_reach"]

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
    trivial bound (None: not up to ``searched_to``), the term dominating there, and how the computation errs."""

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
    """The smallest integer ``T >= T_min`` with ``bound(T) < trivial(T)`` (module docstring).

    Examples
    --------
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
    curve counts as infinitely late)."""
    found = [non_vacuity_horizon(c, **kwargs) for c in curves]
    if not found:
        raise ValueError("curves must hold at least one bound curve")
    best = min(found, key=lambda h: (h.horizon is None, h.horizon or 0))
    return best, found


def horizon_figure(horizons: Sequence[Horizon], reached: Sequence[float] = (), title: str = "") -> "Figure":
    """``bound(T) / trivial(T)`` against ``T`` (log–log) for each instance, the line 1 where the bound starts to
    say something, and the horizons the runs reach marked."""
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
    like ``T^exponent`` (None when there is no horizon)."""
    if horizon is None:
        return None
    return float(seconds) * (float(horizon) / float(at)) ** float(exponent)
