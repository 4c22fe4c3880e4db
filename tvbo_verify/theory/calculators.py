"""The tables of ``tvbo-verify calc`` as functions returning dataclasses (block, discount, β_t, γ_T,
regret bounds).

Each function validates its inputs (``ValueError`` naming the parameter) and returns a frozen
dataclass whose fields are the rows of the table; :func:`tvbo_verify.jsonify.to_jsonable` turns it
into the ``--json`` output. The command line only parses and renders. The other calculators live
next to their theory: :mod:`.schedule_summaries` (windows, query budgets), :mod:`.response` (``n*``)
and :mod:`.lower_bound_tables` (bolt, wsparq and tvgpucb lower bounds).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .. import confidence as conf
from ..information_rates import gamma_rate_bound, gamma_rate_exponents
from ..validation import check_choice, check_int, check_interval, check_open_interval, check_positive
from . import rates as Ra
from . import schedules as S

# --------------------------------------------------------------------------------------------------
# tvgpucb block lengths and the block bound (21)
# --------------------------------------------------------------------------------------------------
BLOCK_SCAN_LIMIT = 10**7


@dataclass(frozen=True)
class BoundMinimum:
    """The block length minimising a bound, and the bound there."""

    block: int
    bound: float


@dataclass(frozen=True)
class BlockTable:
    """R-GP-UCB block length and TV-GP-UCB analysis block (``tvgpucb`` Corollary 4.1) with the minimum of
    the ``γ̃_T`` block bound (21), printed and corrected (order-level ``γ_N``, constant 1)."""

    epsilon: float
    horizon: int
    kernel: str
    c: float | None
    r_gp_ucb_block_theory: int
    r_gp_ucb_block_experiments: int
    tv_analysis_block: int
    tv_analysis_block_corrected: int
    block_exponent_r: float
    block_exponent_tv: float
    eq21_printed_min: BoundMinimum
    eq21_corrected_min: BoundMinimum
    gamma_N: str = "order-level gamma_N (Srinivas et al.), constant 1"


def _block_gamma(kernel: str, d: int, nu: float) -> Callable[[np.ndarray], np.ndarray]:
    """``N -> γ_N`` on arrays, the order-level rate of :func:`tvbo_verify.theory.rates.gamma_rate` (``γ_1``
    uses ``log 2``) in closed form, so that a scan over ``10^7`` block lengths costs array arithmetic only."""
    a, b = gamma_rate_exponents(kernel, d, nu if kernel == "matern" else None, "srinivas")

    def gamma_of(N: np.ndarray) -> np.ndarray:
        n = np.maximum(np.asarray(N, dtype=float), 2.0)
        return n**a * np.log(n) ** b

    return gamma_of


def block_table(epsilon: float, horizon: int, kernel: str = "se", *, nu: float = 2.5, d: int = 1,
                noise_var: float = 0.01) -> BlockTable:
    """:func:`~tvbo_verify.theory.schedules.block_lengths` and the minima of (21) over the block length
    (which scans every block length ``1..T``: horizons up to ``10^7``)."""
    if check_int("horizon", horizon, minimum=1) > BLOCK_SCAN_LIMIT:
        raise ValueError(f"horizon must be <= {BLOCK_SCAN_LIMIT} for the block-bound minimum (it scans every "
                         f"block length), got {horizon}")
    bl = S.block_lengths(epsilon, horizon, kernel, nu=nu, d=d)
    gamma_of = _block_gamma(kernel, d, nu)
    minima = {reading: BoundMinimum(*Ra.block_bound_minimum(horizon, epsilon, gamma_of, noise_var=noise_var,
                                                            reading=reading))
              for reading in ("printed", "corrected")}
    return BlockTable(
        epsilon=bl.epsilon, horizon=bl.horizon, kernel=kernel, c=bl.c,
        r_gp_ucb_block_theory=bl.r_gp_ucb_theory, r_gp_ucb_block_experiments=bl.r_gp_ucb_experiments,
        tv_analysis_block=bl.tv_analysis, tv_analysis_block_corrected=bl.tv_analysis_corrected,
        block_exponent_r=-bl.r_exponent, block_exponent_tv=-bl.tv_exponent,
        eq21_printed_min=minima["printed"], eq21_corrected_min=minima["corrected"],
    )


def block_bound_curve(epsilon: float, horizon: int, kernel: str = "se", *, nu: float = 2.5, d: int = 1,
                      noise_var: float = 0.01, reading: str = "printed",
                      points: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """``(N, bound (21) at block length N)`` on up to ``points`` block lengths in ``[1, T]``."""
    horizon = check_int("horizon", horizon, minimum=1)
    N = np.unique(np.round(np.geomspace(1, horizon, min(points, horizon))).astype(np.int64)).astype(float)
    return N, Ra.block_bound(horizon, N, epsilon, _block_gamma(kernel, d, nu)(N), noise_var=noise_var, reading=reading)


# --------------------------------------------------------------------------------------------------
# wgpucb discount
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DiscountTable:
    """WGP-UCB discount ``γ``, window ``c`` and QFF size ``m̄`` (``wgpucb`` Corollary 5, rounded up)."""

    horizon: int
    gamma_dot: float
    variation_budget: float | None
    known_budget: bool
    discount: float
    one_minus_discount: float
    c: int
    c_exact: float
    m_bar: int
    m_bar_exact: float
    regret_order: float


def discount_table(horizon: int, *, gamma_dot: float | None = None, variation_budget: float | None = None,
                   d: int = 1) -> DiscountTable:
    """Corollary 5 of ``wgpucb``; ``gamma_dot`` defaults to the SE rate ``log^{d+1} T``."""
    horizon = check_int("horizon", horizon, minimum=2)
    g = gamma_dot if gamma_dot is not None else gamma_rate_bound("se", horizon, d)
    ch = S.wgpucb_discount(horizon, g, variation_budget)
    return DiscountTable(horizon, ch.gamma_dot, variation_budget, ch.known_budget, ch.discount, 1.0 - ch.discount,
                         ch.c, ch.c_exact, ch.m_bar, ch.m_bar_exact, ch.regret_order)


# --------------------------------------------------------------------------------------------------
# beta_t
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BetaValue:
    """One ``β_t``, its UCB convention and the multiplier of ``σ`` it implies (``None`` if undefined)."""

    beta: float
    convention: str
    sigma_multiplier: float | None


@dataclass(frozen=True)
class BetaTable:
    """Confidence widths ``β_t`` of one paper, as printed and corrected (:mod:`tvbo_verify.confidence`)."""

    paper: str
    t: int
    delta: float
    betas: dict[str, BetaValue]


BETA_PAPERS: tuple[str, ...] = ("wsparq", "sparq", "tvgpucb", "bolt", "wgpucb")


def beta_table(paper: str, *, t: int = 100, delta: float = 0.1, B: float = 1.0, log_det_ratio: float = 0.0,
               d: int = 1, r: float = 1.0, a: float = 1.0, b: float = 1.0, c1: float = 0.8, c2: float = 4.0,
               lipschitz: float = 1.0, ig: float = 0.0, noise_R: float = 1.0, lam: float = 1.0) -> BetaTable:
    """Every ``β_t`` of ``paper`` with its convention (``tvbo_verify.confidence.CONVENTIONS``)."""
    check_choice("paper", paper, BETA_PAPERS)
    t = check_int("t", t, minimum=1)
    calls: dict[str, Callable[[], float]] = {
        "wsparq": {"beta_wsparq_from_log_det_ratio": lambda: conf.beta_wsparq_from_log_det_ratio(log_det_ratio,
                                                                                                 delta, B)},
        "sparq": {"beta_sparq_from_log_det_ratio": lambda: conf.beta_sparq_from_log_det_ratio(log_det_ratio, delta,
                                                                                              B)},
        "tvgpucb": {
            "beta_tvgpucb": lambda: conf.beta_tvgpucb(t, d, r, a, b, delta),
            "beta_tvgpucb_tau_as_printed": lambda: conf.beta_tvgpucb_tau_as_printed(t, d, r, a, b, delta),
            "beta_rgpucb": lambda: conf.beta_rgpucb(t, d, r, a, b, delta),
            "beta_tvgpucb_practical": lambda: conf.beta_tvgpucb_practical(t, c1, c2),
        },
        "bolt": {
            "beta_bolt_as_printed": lambda: conf.beta_bolt_as_printed(t, d, lipschitz, delta),
            "beta_bolt_corrected": lambda: conf.beta_bolt_corrected(t, d, lipschitz, delta),
        },
        "wgpucb": {
            "beta_wgpucb": lambda: conf.beta_wgpucb(ig, delta, B, noise_R, lam),
            "beta_wgpucb_as_printed_appendix": lambda: conf.beta_wgpucb_as_printed_appendix(ig, delta, B, noise_R,
                                                                                             lam),
        },
    }[paper]
    values: dict[str, BetaValue] = {}
    for name, fn in calls.items():
        beta = float(fn())
        if not math.isfinite(beta):
            raise ValueError(f"beta_t of {paper} overflows float64 for these parameters ({name} = {beta!r})")
        convention = conf.CONVENTIONS[name]
        defined = convention is conf.Convention.MULTIPLIES_SIGMA or beta >= 0
        values[name] = BetaValue(beta, convention.value, conf.ucb_multiplier(beta, convention) if defined else None)
    return BetaTable(paper, t, float(delta), values)


# --------------------------------------------------------------------------------------------------
# gamma_T
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GammaTable:
    """Order-level ``γ_T = O(T^a log^b T)`` (constants unknown)."""

    kernel: str
    horizon: int
    d: int
    nu: float | None
    source: str
    exponent_T: float
    exponent_log: float
    gamma_T: float


def gamma_table(kernel: str, horizon: int, *, d: int = 1, nu: float | None = None,
                source: str = "vakili") -> GammaTable:
    """:func:`tvbo_verify.information.gamma_rate_exponents` and :func:`~tvbo_verify.information.gamma_rate_bound`."""
    a, b = gamma_rate_exponents(kernel, d, nu, source)
    try:
        value = gamma_rate_bound(kernel, horizon, d, nu=nu, source=source)
    except OverflowError:
        value = math.inf
    if not math.isfinite(value):
        raise ValueError(f"gamma_T overflows float64 at horizon = {horizon} with d = {d}; use a smaller d or horizon")
    return GammaTable(kernel, horizon, d, nu, source, a, b, value)


# --------------------------------------------------------------------------------------------------
# Regret bounds as functions of T
# --------------------------------------------------------------------------------------------------
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
    note: str = "order-level curve, constant 1"


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


def regret_bound_table(name: str, horizon: int, params: dict[str, float]) -> RegretBoundTable:
    """Value and exponent of ``T`` of bound ``name``; refuses values that overflow float64."""
    horizon = check_int("horizon", horizon, minimum=2)
    b = Ra.regret_bound(name)
    kv = regret_bound_parameters(name, params)
    with np.errstate(all="ignore"):
        value = float(b(float(horizon), **kv))
        exponent = b.exponent_of_T(**kv)
    if not (math.isfinite(value) and math.isfinite(exponent)):
        shown = ", ".join(f"{k} = {v!r}" for k, v in kv.items())
        raise ValueError(f"regret bound {name} overflows float64 at horizon = {horizon} with {shown}; "
                         "use smaller parameters")
    return RegretBoundTable(name, b.ref, b.formula, b.kind, horizon, kv, value, exponent)


def regret_bound_curve(name: str, horizon: int, params: dict[str, float],
                       points: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """``(T, bound)`` on ``points`` horizons from 2 to ``max(3, horizon)``."""
    kv = regret_bound_parameters(name, params)
    T = np.geomspace(2, max(3, horizon), points)
    with np.errstate(all="ignore"):
        return T, Ra.regret_bound(name)(T, **kv)
