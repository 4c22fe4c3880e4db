"""The tables of ``tvbo-verify calc`` as functions returning dataclasses (block, discount, β_t).

Each function validates its inputs (``ValueError`` naming the parameter) and returns a frozen
dataclass whose fields are the rows of the table; :func:`tvbo_verify.jsonify.to_jsonable` turns it
into the ``--json`` output. Every table class defines each of its fields, with units and log bases,
in ``FIELDS``, and a table whose result ignores an input because of a default says so in its
``warnings``. The command line only parses and renders. The other calculators live next to their
theory: :mod:`.schedule_summaries` (windows, query budgets), :mod:`.nstar_table` (``n*``),
:mod:`.lower_bound_tables` (bolt, wsparq and tvgpucb lower bounds), :mod:`.gamma_table` (``γ_T``) and
:mod:`.regret_table` (regret bounds). Logarithms are natural unless a field says ``log10``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, ClassVar

import numpy as np

from ..information_rates import gamma_rate_bound, gamma_rate_exponents
from ..validation import check_choice, check_int, check_nonnegative
from . import rates as Ra
from . import schedules as S

__all__ = [
    "FLOAT_HORIZON_LIMIT", "check_float_horizon", "BLOCK_SCAN_LIMIT", "BoundMinimum", "BlockTable", "block_table",
    "block_bound_curve", "DiscountTable", "discount_table", "BetaValue", "BetaTable", "BETA_INPUTS", "BETA_PAPERS",
    "beta_table",
]

#: Largest horizon (or iteration) of the calculators that compute with ``T`` as a float64.
FLOAT_HORIZON_LIMIT = 10**300


def check_float_horizon(name: str, value: int, minimum: int = 1) -> int:
    """``value`` as an integer in ``[minimum, 10^300]`` (the calculators evaluate powers of it in float64)."""
    return check_int(name, value, minimum, maximum=FLOAT_HORIZON_LIMIT, reason="it is used as a float64")

# --------------------------------------------------------------------------------------------------
# tvgpucb block lengths and the block bound (21)
# --------------------------------------------------------------------------------------------------
BLOCK_SCAN_LIMIT = 10**7


@dataclass(frozen=True)
class BoundMinimum:
    """The block length minimising a bound, and the bound there."""

    block: int
    bound: float

    FIELDS: ClassVar[dict[str, str]] = {
        "block": "block length N (in steps) at which the bound (21) is smallest over N = 1..T",
        "bound": "value of the bound (21) on gamma~_T there (nats, 1/2 log det convention; constant of gamma_N 1)",
    }


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

    FIELDS: ClassVar[dict[str, str]] = {
        "epsilon": "forgetting rate epsilon of the time-varying model f_t = sqrt(1-eps) f_{t-1} + sqrt(eps) g_t",
        "horizon": "horizon T, in steps",
        "kernel": "spatial kernel of the gamma rates (se or matern)",
        "c": "Matern exponent c = d(d+1)/(2 nu + d(d+1)) of gamma_N (Srinivas et al.); empty for SE",
        "r_gp_ucb_block_theory": "R-GP-UCB reset period N of Corollary 4.1 (steps)",
        "r_gp_ucb_block_experiments": "R-GP-UCB reset period of the experiments (tvgpucb section 9 item 10), steps",
        "tv_analysis_block": "block length N~ of the TV-GP-UCB analysis in Corollary 4.1 as printed (steps)",
        "tv_analysis_block_corrected": "that block length with the corrected N~^(5/2) eps term (steps)",
        "block_exponent_r": "power of epsilon in the R-GP-UCB block length",
        "block_exponent_tv": "power of epsilon in the TV-GP-UCB analysis block",
        "eq21_printed_min": "minimum over N of (21) as printed, (T/N + 1)(gamma_N + N^3 eps)",
        "eq21_corrected_min": "minimum over N of the corrected (21), (T/N + 1)(gamma_N + (N/2) log(1 + N^(3/2) eps "
                              "/ sigma^2)), natural log",
        "gamma_N": "what gamma_N means in these bounds",
    }


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
    (which scans every block length ``1..T``: horizons up to ``10^7``).

    Examples
    --------
    Block lengths for a forgetting rate of 1% over 1000 steps (SE kernel), and the minimiser of (21):

    >>> bt = block_table(0.01, 1000)
    >>> bt.r_gp_ucb_block_theory, bt.r_gp_ucb_block_experiments, bt.tv_analysis_block, bt.tv_analysis_block_corrected
    (3, 38, 5, 6)
    >>> bt.eq21_printed_min.block, round(bt.eq21_printed_min.bound, 4)
    (2, 280.787)
    >>> block_table(0.01, 10**8)
    Traceback (most recent call last):
    ...
    ValueError: horizon must be an integer 1 <= horizon <= 10000000 (the minimum of (21) scans every block length), ...
    """
    check_int("horizon", horizon, minimum=1, maximum=BLOCK_SCAN_LIMIT,
              reason="the minimum of (21) scans every block length")
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

    FIELDS: ClassVar[dict[str, str]] = {
        "horizon": "horizon T, in steps",
        "gamma_dot": "a-priori bound on the weighted information gain gamma_dot_T (nats); default log^(d+1) T, "
                     "the SE rate with constant 1 (natural log)",
        "variation_budget": "variation budget B_T = sum_t ||f_{t+1} - f_t||_H, if given",
        "known_budget": "whether B_T was given (Corollary 5 with known B_T) or not (unknown B_T)",
        "discount": "discount gamma = 1 - gamma_dot^(-1/4) B_T^(1/2) T^(-1/2) (known B_T) or "
                    "1 - gamma_dot^(-1/4) T^(-1/2) (unknown)",
        "one_minus_discount": "1 - gamma",
        "c": "window c = ceil(log T / (1 - gamma)) in steps (natural log)",
        "c_exact": "log T / (1 - gamma) before rounding up",
        "m_bar": "QFF size m-bar = ceil(log_{4/e}(T^3 gamma_dot^(3/2))) (log base 4/e)",
        "m_bar_exact": "log_{4/e}(T^3 gamma_dot^(3/2)) before rounding up",
        "regret_order": "gamma_dot^(7/8) B_T^(1/4) T^(3/4) (known B_T) or gamma_dot^(7/8) T^(3/4), constant 1",
    }


def discount_table(horizon: int, *, gamma_dot: float | None = None, variation_budget: float | None = None,
                   d: int = 1) -> DiscountTable:
    """Corollary 5 of ``wgpucb``; ``gamma_dot`` defaults to the SE rate ``log^{d+1} T`` (constant 1).

    Examples
    --------
    Unknown variation budget, ``gamma_dot = log^2 1000``; then a known budget ``B_T = 2`` (a shorter window):

    >>> dt = discount_table(1000)
    >>> round(dt.gamma_dot, 4), round(dt.discount, 4), dt.c, dt.m_bar
    (47.7171, 0.988, 575, 69)
    >>> dk = discount_table(1000, variation_budget=2.0)
    >>> dk.known_budget, round(dk.discount, 4), dk.c
    (True, 0.983, 406)
    >>> discount_table(1000, gamma_dot=4.0, variation_budget=5000.0)
    Traceback (most recent call last):
    ...
    ValueError: variation_budget must be < sqrt(gamma_dot) * T = 2000 so that the discount lies in (0, 1), got 5000.0
    """
    horizon = check_float_horizon("horizon", horizon, minimum=2)
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

    FIELDS: ClassVar[dict[str, str]] = {
        "beta": "beta_t as the paper defines it (natural logs)",
        "convention": "how beta enters the UCB: multiplies_sigma (mu + beta sigma) or sqrt (mu + sqrt(beta) sigma)",
        "sigma_multiplier": "the factor of sigma in the UCB (beta or sqrt(beta)); empty when sqrt(beta) is undefined "
                            "(beta < 0)",
    }


@dataclass(frozen=True)
class BetaTable:
    """Confidence widths ``β_t`` of one paper, as printed and corrected (:mod:`tvbo_verify.confidence`)."""

    paper: str
    t: int
    delta: float
    betas: dict[str, BetaValue]
    warnings: tuple[str, ...] = ()

    FIELDS: ClassVar[dict[str, str]] = {
        "paper": "paper whose beta_t is computed",
        "t": "iteration t (horizon T for the papers that state beta_T)",
        "delta": "failure probability delta",
        "betas": "every beta_t of the paper, by name (below)",
        "betas.beta_wsparq_from_log_det_ratio": "wsparq eq. (12): sqrt(2 log(2/delta) + log(|S+K|/|S|)) + B",
        "betas.beta_sparq_from_log_det_ratio": "sparq eq. (26): sqrt(2 log(2/delta) + log(|S+K|/|S|)) + B",
        "betas.beta_tvgpucb": "tvgpucb eq. (19) (Theorem 4.3, TV-GP-UCB) as printed",
        "betas.beta_tvgpucb_tau_as_printed": "tvgpucb (34) with tau_t as printed in (33) (2 instead of 3)",
        "betas.beta_rgpucb": "tvgpucb eq. (16) (Theorem 4.2, R-GP-UCB) as printed",
        "betas.beta_tvgpucb_practical": "practical beta_t = c1 log(c2 t) of the tvgpucb experiments",
        "betas.beta_bolt_as_printed": "bolt eq. (63): 2d log(L d t^2/(6 delta)) + 4 log(pi t)",
        "betas.beta_bolt_corrected": "bolt Lemma D.1 proof (65): 2 log(tau^d pi^2 t^2/(6 delta)), tau = ceil(L d t^2)",
        "betas.beta_wgpucb": "wgpucb Algorithm 1: B + (R/sqrt(lambda)) sqrt(2 log(1/delta) + 2 IG_t)",
        "betas.beta_wgpucb_as_printed_appendix": "wgpucb App. A as printed: B + (R/sqrt(lambda)) sqrt(2 log(1/delta)) "
                                                 "+ 2 IG_t",
        "warnings": "inputs the result ignores because of a default",
    }


#: The inputs each paper's beta_t depends on (the others are ignored).
BETA_INPUTS: dict[str, tuple[str, ...]] = {
    "wsparq": ("delta", "B", "log_det_ratio"),
    "sparq": ("delta", "B", "log_det_ratio"),
    "tvgpucb": ("t", "delta", "d", "r", "a", "b", "c1", "c2"),
    "bolt": ("t", "delta", "d", "lipschitz"),
    "wgpucb": ("delta", "B", "ig", "noise_R", "lam"),
}
#: The papers whose beta_t this calculator computes (those with formulas above, not every registered paper).
BETA_PAPERS: tuple[str, ...] = tuple(BETA_INPUTS)
_DATA_DEPENDENT = {
    "wsparq": ("log_det_ratio", "--log-det-ratio", "log(|S_t + K_t|/|S_t|) of the observed points, at most twice "
               "the upper gamma_t of `tvbo-verify calc gamma --grid N -T t`"),
    "sparq": ("log_det_ratio", "--log-det-ratio", "log(|S^s_t + K^s_t|/|S^s_t|) of the sparse set, at most twice "
              "the upper gamma_t of `tvbo-verify calc gamma --grid N -T t`"),
    "wgpucb": ("ig", "--ig", "the weighted information gain IG_t (wgpucb Theorem 7, or its Hadamard bound "
               "kbar/(2 lambda (1 - gamma^2)))"),
}


def beta_table(paper: str, *, t: int = 100, delta: float = 0.1, B: float = 1.0, log_det_ratio: float | None = None,
               d: int = 1, r: float = 1.0, a: float = 1.0, b: float = 1.0, c1: float = 0.8, c2: float = 4.0,
               lipschitz: float = 1.0, ig: float | None = None, noise_R: float = 1.0, lam: float = 1.0) -> BetaTable:
    """Every ``β_t`` of ``paper`` with its convention (``tvbo_verify.confidence.CONVENTIONS``).

    ``β_t`` of wsparq and sparq depends on ``t`` only through the log-determinant ratio of the observed
    points, and that of wgpucb only through ``IG_t``; these are data, not formulas of ``t``. Left out
    (``None``) they are taken as 0 (the value at ``t = 0``) and the table warns that ``t`` is ignored.

    Examples
    --------
    ``tvgpucb`` has four ``β_t``; each enters the UCB as ``sqrt(β_t) σ``:

    >>> tab = beta_table("tvgpucb", t=100)
    >>> sorted(tab.betas)
    ['beta_rgpucb', 'beta_tvgpucb', 'beta_tvgpucb_practical', 'beta_tvgpucb_tau_as_printed']
    >>> v = tab.betas["beta_tvgpucb"]
    >>> v.convention, round(v.beta, 4), round(v.sigma_multiplier, 4)
    ('sqrt', 47.2125, 6.8711)

    Without the data-dependent log-determinant ratio, the wsparq ``β_t`` is its value before any
    observation, and the table warns:

    >>> w = beta_table("wsparq")
    >>> round(w.betas["beta_wsparq_from_log_det_ratio"].beta, 4), len(w.warnings)
    (3.4477, 1)
    >>> w3 = beta_table("wsparq", log_det_ratio=3.0)
    >>> round(w3.betas["beta_wsparq_from_log_det_ratio"].beta, 4), w3.warnings
    (3.9986, ())
    >>> beta_table("gpucb")
    Traceback (most recent call last):
    ...
    ValueError: paper must be one of {wsparq, sparq, tvgpucb, bolt, wgpucb}, got gpucb
    """
    from .. import confidence as conf

    check_choice("paper", paper, BETA_PAPERS)
    t = check_float_horizon("t", t)
    warnings: list[str] = []
    if paper in _DATA_DEPENDENT:
        name, option, what = _DATA_DEPENDENT[paper]
        if (log_det_ratio if name == "log_det_ratio" else ig) is None:
            warnings.append(f"{option} not given: beta_t of {paper} uses {name} = 0 (its value before any "
                            f"observation), so it is the same for every t; supply {option}: {what}")
    log_det_ratio = 0.0 if log_det_ratio is None else check_nonnegative("log_det_ratio", log_det_ratio)
    ig = 0.0 if ig is None else check_nonnegative("ig", ig)
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
    return BetaTable(paper, t, float(delta), values, tuple(warnings))
