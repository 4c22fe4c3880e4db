"""The ``calc regret-bound`` table: a regret bound of :data:`~tvbo_verify.theory.rates.REGRET_BOUNDS` at one
horizon, set against the trivial bound of the paper's setting.

The bounds are orders (``O(·)``/``Ω(·)``) evaluated with constant 1. An upper bound says something only
below the regret no policy can exceed; that trivial bound comes from the paper's assumptions:

* ``wsparq``, ``sparq``, ``wgpucb``: ``‖f_t‖_k <= B`` and ``k(x, x) <= 1`` give ``|f_t(x)| <= B`` (reproducing
  property, Cauchy–Schwarz), so every round costs at most ``2B`` and ``R_T <= 2BT`` (``B`` from
  ``rkhs_bound``; for a kernel of variance ``M_k²`` read ``B`` as ``B M_k``).
* ``tvgpucb``: ``f_t`` is a sample of a unit-variance GP; no round is bounded surely, and the expected
  regret of a round is at most the expected range of ``f_t``, a constant the paper does not state. The
  trivial bound is the linear order ``T`` (constant 1).

An upper bound above the trivial bound is *vacuous* at constant 1; one whose power of ``T`` is at
least 1 is no better than the trivial bound in order, whatever its constant.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, ClassVar

import numpy as np

from ..validation import check_choice, check_int, check_interval, check_open_interval, check_positive
from . import rates as Ra
from .calculators import check_float_horizon

__all__ = [
    "VACUOUS", "REGRET_PARAMETERS", "RKHS_PAPERS", "PAPERS", "TrivialBound", "RegretBoundTable",
    "trivial_regret_bound", "regret_bound_parameters", "regret_bound_table", "regret_bound_curve",
]

VACUOUS = "vacuous"


def _alpha(v: float) -> float:
    return check_positive("alpha", v)


def _dimension(v: float) -> float:
    return float(check_int("d", v, minimum=1))


#: Allowed values of every parameter of :data:`tvbo_verify.theory.rates.REGRET_BOUNDS`.
REGRET_PARAMETERS: dict[str, Callable[[float], float]] = {
    "alpha": _alpha,
    "alpha_tilde": lambda v: check_open_interval("alpha_tilde", v, 0.0, 1.0 / 3.0, label="(0, 1/3)"),
    "d": _dimension,
    "delta": lambda v: check_open_interval("delta", v, 0.0, 1.0),
    "epsilon": lambda v: check_open_interval("epsilon", v, 0.0, 1.0),
    "nu": lambda v: check_positive("nu", v),
    "gamma_dot": lambda v: check_positive("gamma_dot", v),
    "B_T": lambda v: check_positive("B_T", v),
    "epsilon_c": lambda v: check_interval("epsilon_c", v, 0.0, math.inf, closed_high=False),
}
#: Papers whose objective lies in an RKHS ball ``‖f_t‖_k <= B`` with ``k(x, x) <= 1``.
RKHS_PAPERS: tuple[str, ...] = ("wsparq", "sparq", "wgpucb")
#: the papers with a trivial bound: the RKHS papers and the GP-sample papers
PAPERS: tuple[str, ...] = (*RKHS_PAPERS, "tvgpucb", "bolt")


@dataclass(frozen=True)
class TrivialBound:
    """The largest regret any policy can incur under the paper's assumptions, and why."""

    value: float
    formula: str
    reason: str

    FIELDS: ClassVar[dict[str, str]] = {
        "value": "the trivial bound at this horizon",
        "formula": "its formula",
        "reason": "the assumptions it follows from",
    }


@dataclass(frozen=True)
class RegretBoundTable:
    """One regret bound of :data:`~tvbo_verify.theory.rates.REGRET_BOUNDS` at horizon ``T``."""

    bound: str
    ref: str
    formula: str
    kind: str
    horizon: int
    params: dict[str, float]
    value: float
    exponent_of_T: float
    trivial: TrivialBound
    status: str
    note: str = "order-level curve, constant 1"
    non_vacuity_horizon: int | None = None
    non_vacuity: str | None = None

    FIELDS: ClassVar[dict[str, str]] = {
        "bound": "name of the bound (tvbo-verify calc regret-bound --list)",
        "ref": "where the paper states it",
        "formula": "the bound as a function of T (log = natural log), constant 1",
        "kind": "upper (on the regret of the paper's algorithm) or lower (for every policy)",
        "horizon": "horizon T, in steps",
        "params": "the parameters given with -p",
        "value": "the formula at T with constant 1 (same units as f: regret summed over T rounds)",
        "exponent_of_T": "power of T in the bound, log factors left out",
        "trivial": "the regret no policy can exceed under the paper's assumptions",
        "status": "upper bounds: ok, or vacuous when the bound at constant 1 exceeds the trivial bound; a power "
                  "of T >= 1 is no better than the trivial bound in order",
        "note": "how the value is to be read",
        "non_vacuity_horizon": "upper bounds: the smallest T from which the bound at constant 1 stays below the "
                               "trivial bound up to T = 1e12 (absent when it does not)",
        "non_vacuity": "upper bounds: from which T the bound says something, or up to which T it is vacuous",
    }


def trivial_regret_bound(paper: str, horizon: int, rkhs_bound: float = 1.0) -> TrivialBound:
    """``2BT`` for the RKHS papers, the linear order ``T`` for ``tvgpucb`` and ``bolt`` (module docstring).

    Examples
    --------
    >>> tb = trivial_regret_bound("sparq", 1000, rkhs_bound=2.0)
    >>> tb.value, tb.formula
    (4000.0, '2 B T with B = 2')
    >>> trivial_regret_bound("tvgpucb", 1000).value
    1000.0
    >>> trivial_regret_bound("tvgpucb", -5)
    Traceback (most recent call last):
    ...
    ValueError: horizon must be an integer >= 1, got -5
    """
    check_choice("paper", paper, PAPERS)
    T = float(check_float_horizon("horizon", horizon))
    if paper in RKHS_PAPERS:
        B = check_positive("rkhs_bound", rkhs_bound)
        return TrivialBound(2.0 * B * T, f"2 B T with B = {B:g}",
                            "||f_t||_k <= B and k(x, x) <= 1 give |f_t| <= B, so each round costs at most 2B")
    return TrivialBound(T, "T (constant 1)", "f_t is a unit-variance GP sample: a round costs at most the range of "
                        "f_t, whose expectation is a constant the paper does not state; linear regret at constant 1")


def regret_bound_parameters(name: str, params: dict[str, float]) -> dict[str, float]:
    """Check ``params`` for bound ``name``: every parameter it needs, none it does not know, each in range."""
    b = Ra.regret_bound(name)
    unknown = sorted(set(params) - set(b.params))
    if unknown:
        raise ValueError(f"regret bound {name} has no parameter {unknown[0]!r}; its parameters: "
                         f"{', '.join(b.params) or 'none'}")
    missing = [p for p in b.params if p not in params]
    if missing:
        raise ValueError(f"regret bound {name} needs parameter(s) {', '.join(missing)} (give -p {missing[0]}=VALUE)")
    return {k: REGRET_PARAMETERS[k](v) for k, v in params.items()}


def _status(kind: str, value: float, exponent: float, trivial: TrivialBound) -> str:
    if kind != "upper":
        return "lower bound (holds for every policy; nothing to compare with the trivial upper bound)"
    if value > trivial.value:
        return (f"{VACUOUS}: at constant 1 the bound ({value:.6g}) exceeds the trivial bound {trivial.value:.6g} "
                f"({trivial.formula})")
    if exponent >= 1:
        return f"ok at this T, but T^{exponent:g} is no better than the trivial bound in order (not sublinear)"
    return "ok: below the trivial bound at constant 1"


def regret_bound_table(name: str, horizon: int, params: dict[str, float], *,
                       rkhs_bound: float = 1.0) -> RegretBoundTable:
    """Value and exponent of ``T`` of bound ``name`` against the trivial bound; refuses values that overflow.

    Examples
    --------
    At constant 1, ``wgpucb`` Corollary 5 lies below the trivial ``2BT``; ``sparq`` Theorem 3.1 does not yet:

    >>> r = regret_bound_table("wgpucb:cor-5-known", 1000, {"gamma_dot": 10.0, "B_T": 1.0})
    >>> round(r.value, 4), r.exponent_of_T, r.trivial.value, r.status
    (1333.5214, 0.75, 2000.0, 'ok: below the trivial bound at constant 1')
    >>> s = regret_bound_table("sparq:thm-3.1", 1000, {"d": 1, "delta": 0.1})
    >>> round(s.value, 1), s.exponent_of_T, s.status.split(":")[0]
    (42023.0, 0.5, 'vacuous')
    >>> regret_bound_table("sparq:thm-3.1", 1000, {"d": 1})
    Traceback (most recent call last):
    ...
    ValueError: regret bound sparq:thm-3.1 needs parameter(s) delta (give -p delta=VALUE)
    """
    horizon = check_float_horizon("horizon", horizon, minimum=2)
    b = Ra.regret_bound(name)
    kv = regret_bound_parameters(name, params)
    with np.errstate(all="ignore"):
        value = float(b(float(horizon), **kv))
        exponent = b.exponent_of_T(**kv)
    if not (math.isfinite(value) and math.isfinite(exponent)):
        shown = ", ".join(f"{k} = {v!r}" for k, v in kv.items())
        raise ValueError(f"regret bound {name} overflows float64 at horizon = {horizon} with {shown}; "
                         "use smaller parameters")
    trivial = trivial_regret_bound(name.partition(":")[0], horizon, rkhs_bound)
    return RegretBoundTable(name, b.ref, b.formula, b.kind, horizon, kv, value, exponent, trivial,
                            _status(b.kind, value, exponent, trivial))


def regret_bound_curve(name: str, horizon: int, params: dict[str, float],
                       points: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """``(T, bound)`` on ``points`` horizons from 2 to ``max(3, horizon)``."""
    kv = regret_bound_parameters(name, params)
    T = np.geomspace(2, max(3, horizon), points)
    with np.errstate(all="ignore"):
        return T, Ra.regret_bound(name)(T, **kv)
