"""The ``calc lower-bound`` tables of the three papers with lower bounds, as dataclasses.

* :func:`bolt_floor_table` — ``bolt`` Theorem 3.6: ``F_T(1/2c)``, ``σ_c²`` and ``ε_c`` (eqs. (4)–(5)),
  printed and corrected.
* :func:`wsparq_lower_bound_table` — ``wsparq`` §5: ``C₂``, the main information, ``L*`` and ``T₀``
  (printed and derived), ``V_T``, ``S_τ`` for a budget, ``M(γ)`` of (36) and the Fano bound.
* :func:`tvgpucb_genie_table` — ``tvgpucb`` Theorem 4.1 (``Ω(Tε)``) with the App. F genie.

A result that says nothing is marked: a Fano bound ``<= 0`` or ``M(γ) < 2`` bump functions is
*vacuous* (Fano needs at least two hypotheses and bounds a probability from below). Every table
defines its fields (units, log bases) in ``FIELDS``; logarithms are natural unless a field says
``log10``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..validation import check_int, check_nonnegative, check_open_interval, check_positive
from . import lower_bounds as LB
from .calculators import check_float_horizon

__all__ = [
    "VACUOUS", "CELLS_LIMIT", "SAMPLES_LIMIT", "SUM_LIMIT", "FloorValues", "BoltFloorTable", "bolt_floor_table",
    "bolt_floor_curve", "BumpValues", "FanoValues", "WsparqLowerBoundTable", "wsparq_lower_bound_table",
    "window_objective_curve", "GenieValues", "TvgpucbLowerBoundTable", "tvgpucb_genie_table",
]

VACUOUS = "vacuous"
#: Most bump functions of the Fano bound: the family is evaluated on ``20 M`` grid points (``M`` arrays of them).
CELLS_LIMIT = 500
#: Most Monte Carlo samples of the genie (two ``201 x samples`` Gaussian draws are held in memory).
SAMPLES_LIMIT = 50_000
#: The main information is a sum over every step; beyond this horizon it is left out (it is <= C2 for alpha > 1).
SUM_LIMIT = 10**7


@dataclass(frozen=True)
class FloorValues:
    """``σ_c²``, ``ε_c`` and ``log ε_c`` under one reading of ``bolt`` eqs. (4)–(5)."""

    sigma_c2: float
    epsilon_c: float
    ln_epsilon_c: float
    log10_epsilon_c: float

    FIELDS: ClassVar[dict[str, str]] = {
        "sigma_c2": "sigma_c^2 of eq. (5), in units of f squared",
        "epsilon_c": "eps_c = sigma_c phi(-z) - L sqrt(d) Phi(-z), z = L sqrt(d)/sigma_c (eq. (4)): expected regret "
                     "per iteration (units of f); 0 once it underflows float64",
        "ln_epsilon_c": "natural log of eps_c (finite where eps_c underflows; -inf below -1.7e308 or at sigma_c = 0)",
        "log10_epsilon_c": "log10 of eps_c (the axis of --plot)",
    }


@dataclass(frozen=True)
class BoltFloorTable:
    """``bolt`` Theorem 3.6 regret floor ``ε_c`` (``E[R_T] ∈ Ω(ε_c T)``) for one sampling period ``c``."""

    paper: str
    period: float
    frequency: float
    spectral_mass_below_nyquist: float
    printed: FloorValues
    corrected: FloorValues
    note: str = "corrected: 2 lambda (1 - k_S(sqrt d))(1 - F_T(1/2c)) at separation sqrt(d); 0 at separation 0"

    FIELDS: ClassVar[dict[str, str]] = {
        "paper": "paper of the bound",
        "period": "sampling period c = R(0), seconds per observation",
        "frequency": "sampling frequency 1/c, in Hz",
        "spectral_mass_below_nyquist": "F_T(1/2c) = 2 int_0^{1/2c} S_T (unit-variance temporal kernel, frequency "
                                       "in Hz)",
        "printed": "eqs. (4)-(5) as printed: sigma_c^2 = 2 lambda (1 + k_S(sqrt d))(1 - F_T(1/2c))",
        "corrected": "sign-corrected sigma_c^2 = 2 lambda (1 - k_S(sqrt d))(1 - F_T(1/2c)) (section 8 A1)",
        "note": "how the corrected reading is taken",
    }


def bolt_floor_table(temporal: str = "matern12", temporal_lengthscale: float = 1.0, period: float = 1.0, *,
                     lipschitz: float = 1.0, d: int = 1, signal_variance: float = 1.0,
                     spatial_lengthscale: float = 1.0) -> BoltFloorTable:
    """The floor under both readings (``theory.lower_bounds.bolt_regret_floor``).

    Examples
    --------
    One observation per second (Matérn-1/2 temporal kernel, lengthscale 1 s); the sign correction lowers the
    floor:

    >>> bf = bolt_floor_table()
    >>> round(bf.spectral_mass_below_nyquist, 4), round(bf.printed.sigma_c2, 4), round(bf.corrected.sigma_c2, 4)
    (0.8038, 0.6304, 0.1544)
    >>> f"{bf.printed.epsilon_c:.4g}", f"{bf.corrected.epsilon_c:.4g}"
    ('0.03937', '0.0006843')

    Sampling ten times faster, the floor falls by orders of magnitude:

    >>> fast = bolt_floor_table(period=0.1)
    >>> round(fast.printed.log10_epsilon_c, 2), round(fast.corrected.log10_epsilon_c, 2)
    (-5.59, -16.74)
    """
    from ..kernels import SquaredExponential, temporal_kernel

    kt = temporal_kernel(temporal, temporal_lengthscale)
    ks = SquaredExponential(1.0, spatial_lengthscale)
    period = check_positive("period", period)
    values = {}
    for reading in ("printed", "corrected"):
        f = LB.bolt_regret_floor(kt, period, lipschitz=lipschitz, d=d, signal_variance=signal_variance, spatial=ks,
                                 reading=reading)
        values[reading] = FloorValues(f.sigma_c2, f.epsilon_c, f.log_epsilon_c, f.log_epsilon_c / math.log(10.0))
    return BoltFloorTable("bolt", period, 1.0 / period, LB.spectral_mass_below_nyquist(kt, period),
                          values["printed"], values["corrected"])


def bolt_floor_curve(table_args: dict, reading: str, frequencies: np.ndarray) -> np.ndarray:
    """``log10 ε_c`` at sampling frequencies ``1/c`` (the ``--plot`` curve)."""
    out = []
    for f in frequencies:
        t = bolt_floor_table(**{**table_args, "period": 1.0 / float(f)})
        out.append(getattr(t, reading).log10_epsilon_c)
    return np.asarray(out)


@dataclass(frozen=True)
class BumpValues:
    """``M(γ)`` of ``wsparq`` eq. (36) and its ingredients; ``M < 2`` is vacuous for Fano."""

    M: int
    h0: float
    zeta: float
    log_argument: float
    status: str

    FIELDS: ClassVar[dict[str, str]] = {
        "M": "M(gamma) of eq. (36): bump functions that fit with RKHS norm <= B",
        "h0": "h(0), the peak of the inverse Fourier transform of the bump (section 5.0 I4)",
        "zeta": "half-maximum radius zeta of h (eq. (36))",
        "log_argument": "log(B (2 pi l^2)^(d/4) h(0)/(2 gamma)) of eq. (36), natural log (M = 0 when <= 0)",
        "status": "vacuous when M < 2 (Fano needs two hypotheses), else ok",
    }


@dataclass(frozen=True)
class FanoValues:
    """``wsparq`` Proposition 5.1 with bounded side queries; a bound ``<= 0`` is vacuous."""

    M: int
    K: float
    information: float
    p_err_lower_bound: float
    rkhs_norm: float
    status: str

    FIELDS: ClassVar[dict[str, str]] = {
        "M": "number M of hypotheses (bump functions, --cells)",
        "K": "max_x sum_{i != j} (f^i(x) - f^j(x))^2 / 2 over a grid of [0, 1] (20 points per cell or more)",
        "information": "C2 + N_T / sigma^2, the bound (39) on sum_t 1/sigma_t^2 (1/variance units)",
        "p_err_lower_bound": "1 - ((1/M^2) K information + log 2)/log M (eq. (37), natural log)",
        "rkhs_norm": "exact RKHS norm of each bump of the family on [0, 1] (SE kernel, --lengthscale; section 5.0 I4)",
        "status": "vacuous when the bound is <= 0 (it bounds a probability from below) or when the bumps' RKHS "
                  "norm exceeds B (the family leaves the class the bound is about), else ok",
    }


@dataclass(frozen=True)
class WsparqLowerBoundTable:
    """``wsparq`` §5 lower-bound ingredients at one ``(α, T)``."""

    paper: str
    alpha: float
    horizon: int
    C2: float
    main_information: float | None
    L_star_printed: float
    L_star_derived: float
    L_star_integer_argmin: int
    T0_printed: float
    T0_derived: float
    F_at_L_star: float
    threshold: float
    threshold_applies: bool
    V_T: float
    V_T_asymptotic_printed: float
    V_T_asymptotic_derived: float
    budget: float | None = None
    S_tau_bound: float | None = None
    bump: BumpValues | None = None
    fano: FanoValues | None = None
    warnings: tuple[str, ...] = ()

    FIELDS: ClassVar[dict[str, str]] = {
        "paper": "paper of the bound",
        "alpha": "UI exponent alpha (observation variance sigma^2 (1 + age^alpha))",
        "horizon": "horizon T, in steps",
        "C2": "C2 = sigma^-2 sum_{k>=0} 1/(1 + k^alpha) (eq. (39)); inf for alpha <= 1 (1/variance units)",
        "main_information": "sum_{t<=T} 1/(sigma^2 (1 + (T-t)^alpha)), the main-query part of (39) (<= C2); left "
                            "out beyond T = 10^7",
        "L_star_printed": "L* as printed, (alpha/8)^(1/(alpha+1)) T^(1/(alpha+1)) (steps)",
        "L_star_derived": "L* derived, (alpha T/4)^(1/(alpha+1)): the root of F'(L) = 0, the minimiser of F (steps)",
        "L_star_integer_argmin": "integer argmin of F(L) over 1 <= L <= T/2",
        "T0_printed": "T0 as printed, 2^(1-2/alpha) alpha^(1/alpha)",
        "T0_derived": "T0 derived, 2^(1-1/alpha) alpha^(1/alpha): L* <= T/2 from this horizon on",
        "F_at_L_star": "F(L*) = L*^(-alpha) + 4 L*/T (Proof 5.4)",
        "threshold": "T^(alpha/(alpha+1)), the Theorem 5.3 budget threshold (constant 1)",
        "threshold_applies": "whether alpha > 1, the hypothesis of Theorem 5.3",
        "V_T": "V_T = sum_t sigma^2 (1 + (T-t)^alpha), exactly (Euler-Maclaurin beyond 10^6 terms), variance units",
        "V_T_asymptotic_printed": "sigma^2 T^(alpha+1), the leading term as printed (section 2.2.2)",
        "V_T_asymptotic_derived": "sigma^2 T^(alpha+1)/(alpha+1), the derived leading term",
        "budget": "query budget N_T given with --budget",
        "S_tau_bound": "N_T F(L*) / sigma^2, the bound on the side-query information S_tau (eq. (40))",
        "bump": "M(gamma) of eq. (36) for --gamma",
        "fano": "Fano bound of Proposition 5.1 with --cells hypotheses",
        "warnings": "inputs the result ignores because of a default",
    }


def _finite_or_refuse(alpha: float, horizon: int, **values: float) -> None:
    for name, v in values.items():
        if isinstance(v, float) and (math.isnan(v) or (math.isinf(v) and name != "C2")):
            raise ValueError(f"alpha = {alpha!r} with horizon = {horizon} makes {name} overflow float64; "
                             "use a smaller alpha or horizon")


def wsparq_lower_bound_table(alpha: float = 2.0, horizon: int = 1000, *, noise_var: float = 1.0,
                             budget: float | None = None, bump_gamma: float | None = None, B: float = 5.0,
                             lengthscale: float = 0.1, d: int = 1, cells: int | None = None) -> WsparqLowerBoundTable:
    """``C₂``, ``L*``, ``T₀``, ``V_T`` and, with a budget, ``S_τ <= N_T F(L*)/σ²``; ``M(γ)`` with ``bump_gamma``;
    the Fano bound with ``cells`` (needs ``bump_gamma``). Values that overflow float64 are refused.

    Examples
    --------
    >>> t = wsparq_lower_bound_table(2.0, 1000)
    >>> round(t.C2, 4), round(t.L_star_printed, 4), round(t.L_star_derived, 4), t.L_star_integer_argmin
    (2.0767, 6.2996, 7.937, 8)
    >>> round(t.T0_printed, 4), round(t.T0_derived, 4), round(t.threshold, 4), t.threshold_applies
    (1.4142, 2.0, 100.0, True)

    A budget of ``N_T = 100`` side queries bounds their information by ``N_T F(L*)/σ²``; for ``α <= 1``
    the main information ``C₂`` diverges and Theorem 5.3 does not apply:

    >>> round(wsparq_lower_bound_table(2.0, 1000, budget=100).S_tau_bound, 4)
    4.7622
    >>> t = wsparq_lower_bound_table(0.5, 1000)
    >>> t.C2, t.threshold_applies
    (inf, False)
    >>> wsparq_lower_bound_table(cells=4)
    Traceback (most recent call last):
    ...
    ValueError: cells needs bump_gamma (the bump amplitude of the Fano construction)
    """
    alpha = check_positive("alpha", alpha)
    horizon = check_float_horizon("horizon", horizon, minimum=2)
    noise_var = check_positive("noise_var", noise_var)
    if budget is not None:
        budget = check_nonnegative("budget", budget)
    warnings: list[str] = []
    if cells is not None and budget is None:
        warnings.append("--budget not given: the Fano bound assumes N_T = 0 side queries; supply --budget N_T")
    if cells is not None and bump_gamma is None:
        raise ValueError("cells needs bump_gamma (the bump amplitude of the Fano construction)")
    if cells is not None:
        cells = check_int("cells", cells, minimum=2, maximum=CELLS_LIMIT,
                          reason="the family is evaluated on 20 grid points per cell")
    try:
        with np.errstate(over="ignore", invalid="ignore"):
            w = LB.window_lengths(alpha, horizon)
            c2 = LB.c2_constant(alpha, noise_var)
            values = dict(
                C2=c2,
                main_information=LB.main_information(horizon, alpha, noise_var) if horizon <= SUM_LIMIT else None,
                V_T=LB.cumulative_variance(horizon, alpha, noise_var),
                V_T_asymptotic_printed=LB.cumulative_variance_asymptotic(horizon, alpha, noise_var, reading="printed"),
                V_T_asymptotic_derived=LB.cumulative_variance_asymptotic(horizon, alpha, noise_var, reading="derived"),
            )
    except OverflowError:
        raise ValueError(f"alpha = {alpha!r} with horizon = {horizon} overflows float64; "
                         "use a smaller alpha or horizon") from None
    _finite_or_refuse(alpha, horizon, L_star_derived=w.l_star_derived, F_at_L_star=w.f_at_l_star, **values)
    bump = fano = None
    if bump_gamma is not None:
        bc = LB.bump_count(bump_gamma, B, lengthscale, d)
        bump = BumpValues(bc.M, bc.h0, bc.zeta, bc.log_argument,
                          f"{VACUOUS}: M < 2 bump functions, Fano needs at least two" if bc.M < 2 else "ok")
    if cells is not None:
        fb = LB.fano_bounded_queries(cells, bump_gamma, alpha, budget or 0.0, noise_var,
                                     grid_size=max(2001, 20 * cells + 1), table_size=max(400, 8 * cells))
        from ..kernels import SquaredExponential

        # eq. (36) is only sufficient for norm <= B: the family's own exact norm decides whether it is in the class
        norm = LB.bump_rkhs_norm(cells, bump_gamma, SquaredExponential(1.0, lengthscale))
        if not norm <= B:
            status = (f"{VACUOUS}: the {cells} bumps have RKHS norm {norm:.4g} > B = {B:g}; the family leaves the "
                      "class the bound is about")
        elif not fb.p_err_lower_bound > 0:
            status = f"{VACUOUS}: a lower bound <= 0 on a probability says nothing"
        else:
            status = "ok"
        fano = FanoValues(fb.M, fb.kl_per_unit_information, fb.information, fb.p_err_lower_bound, norm, status)
    return WsparqLowerBoundTable(
        paper="wsparq", alpha=alpha, horizon=horizon, C2=values["C2"], main_information=values["main_information"],
        L_star_printed=w.l_star_printed, L_star_derived=w.l_star_derived, L_star_integer_argmin=w.l_star_integer,
        T0_printed=w.t0_printed, T0_derived=w.t0_derived, F_at_L_star=w.f_at_l_star, threshold=w.threshold,
        threshold_applies=alpha > 1, V_T=values["V_T"], V_T_asymptotic_printed=values["V_T_asymptotic_printed"],
        V_T_asymptotic_derived=values["V_T_asymptotic_derived"], budget=budget,
        S_tau_bound=None if budget is None else budget / noise_var * w.f_at_l_star, bump=bump, fano=fano,
        warnings=tuple(warnings),
    )


def window_objective_curve(alpha: float, horizon: int, points: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """``(L, F(L) = L^{-α} + 4L/T)`` on integers ``1 <= L <= T/2`` (``wsparq`` Proof 5.4)."""
    Ls = np.unique(np.geomspace(1, max(2, horizon // 2), points).astype(int)).astype(float)
    return Ls, np.array([LB.window_objective(L, alpha, horizon) for L in Ls])


@dataclass(frozen=True)
class GenieValues:
    """Monte Carlo genie regret of ``tvgpucb`` App. F and the lower bound ``(T-1) E[r_t]`` it gives."""

    genie_mean_regret: float
    genie_stderr: float
    genie_ratio: float
    genie_lower_bound_on_R_T: float

    FIELDS: ClassVar[dict[str, str]] = {
        "genie_mean_regret": "Monte Carlo mean of the genie's one-step regret E[r_t] (units of f)",
        "genie_stderr": "standard error of that mean",
        "genie_ratio": "E[r_t] / epsilon (about constant in epsilon if Omega(T eps) is tight)",
        "genie_lower_bound_on_R_T": "(T - 1) E[r_t], the genie lower bound on E[R_T]",
    }


@dataclass(frozen=True)
class TvgpucbLowerBoundTable:
    """``tvgpucb`` Theorem 4.1: ``E[R_T] = Ω(T ε)``; with samples, the genie estimate."""

    paper: str
    epsilon: float
    horizon: int
    order: str
    T_times_epsilon: float
    genie: GenieValues | None = None

    FIELDS: ClassVar[dict[str, str]] = {
        "paper": "paper of the bound",
        "epsilon": "forgetting rate epsilon in (0, 1)",
        "horizon": "horizon T, in steps",
        "order": "the order Theorem 4.1 states",
        "T_times_epsilon": "T epsilon, the order with constant 1",
        "genie": "Monte Carlo genie of App. F on an SE process on 201 points of [0, 1] (with --samples)",
    }


def tvgpucb_genie_table(epsilon: float = 0.01, horizon: int = 1000, *, samples: int = 0, lengthscale: float = 0.1,
                        seed: int = 0) -> TvgpucbLowerBoundTable:
    """``T ε`` and (``samples >= 2``) the genie regret on an SE process on 201 points of ``[0, 1]``.

    Examples
    --------
    The order ``T ε`` alone; with samples, the Monte Carlo genie regret ``E[r_t]`` (of order ``ε``: its
    value depends on the draws) and the lower bound ``(T - 1) E[r_t]`` it gives:

    >>> tvgpucb_genie_table(0.01, 1000).T_times_epsilon
    10.0
    >>> g = tvgpucb_genie_table(0.01, 1000, samples=200).genie
    >>> g.genie_mean_regret > 0, g.genie_lower_bound_on_R_T == 999 * g.genie_mean_regret
    (True, True)
    >>> tvgpucb_genie_table(epsilon=1.0)
    Traceback (most recent call last):
    ...
    ValueError: epsilon must be in (0, 1), got 1.0
    """
    epsilon = check_open_interval("epsilon", epsilon, 0.0, 1.0)
    horizon = check_float_horizon("horizon", horizon)
    samples = check_int("samples", samples, minimum=0, maximum=SAMPLES_LIMIT,
                        reason="each is a pair of GP draws on 201 points")
    if samples == 1:
        raise ValueError("samples must be 0 (no genie) or >= 2 (the genie's standard error needs two), got 1")
    genie = None
    if samples:
        from ..kernels import SquaredExponential

        g = LB.genie_regret(SquaredExponential(1.0, check_positive("lengthscale", lengthscale)),
                            np.linspace(0.0, 1.0, 201), epsilon, samples,
                            np.random.default_rng(check_int("seed", seed, minimum=0)))
        genie = GenieValues(g.mean_regret, g.stderr, g.ratio, (horizon - 1) * g.mean_regret)
    return TvgpucbLowerBoundTable("tvgpucb", epsilon, horizon,
                                  "E[R_T] = Omega(T eps) (Theorem 4.1); constant not explicit",
                                  horizon * epsilon, genie)
