"""The ``calc lower-bound`` tables of the three papers with lower bounds, as dataclasses.

* :func:`bolt_floor_table` — ``bolt`` Theorem 3.6: ``F_T(1/2c)``, ``σ_c²`` and ``ε_c`` (eqs. (4)–(5)),
  printed and corrected.
* :func:`wsparq_lower_bound_table` — ``wsparq`` §5: ``C₂``, the main information, ``L*`` and ``T₀``
  (printed and derived), ``V_T``, ``S_τ`` for a budget, ``M(γ)`` of (36) and the Fano bound.
* :func:`tvgpucb_genie_table` — ``tvgpucb`` Theorem 4.1 (``Ω(Tε)``) with the App. F genie.

A result that says nothing is marked: a Fano bound ``<= 0`` or ``M(γ) < 2`` bump functions is
*vacuous* (Fano needs at least two hypotheses and bounds a probability from below).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..kernels import SquaredExponential, temporal_kernel
from ..validation import check_int, check_open_interval, check_positive
from . import lower_bounds as LB

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
    log_epsilon_c: float


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


def bolt_floor_table(temporal: str = "matern12", temporal_lengthscale: float = 1.0, period: float = 1.0, *,
                     lipschitz: float = 1.0, d: int = 1, signal_variance: float = 1.0,
                     spatial_lengthscale: float = 1.0) -> BoltFloorTable:
    """The floor under both readings (``theory.lower_bounds.bolt_regret_floor``)."""
    kt = temporal_kernel(temporal, temporal_lengthscale)
    ks = SquaredExponential(1.0, spatial_lengthscale)
    period = check_positive("period", period)
    values = {}
    for reading in ("printed", "corrected"):
        f = LB.bolt_regret_floor(kt, period, lipschitz=lipschitz, d=d, signal_variance=signal_variance, spatial=ks,
                                 reading=reading)
        values[reading] = FloorValues(f.sigma_c2, f.epsilon_c, f.log_epsilon_c)
    return BoltFloorTable("bolt", period, 1.0 / period, LB.spectral_mass_below_nyquist(kt, period),
                          values["printed"], values["corrected"])


def bolt_floor_curve(table_args: dict, reading: str, frequencies: np.ndarray) -> np.ndarray:
    """``log10 ε_c`` at sampling frequencies ``1/c`` (the ``--plot`` curve)."""
    out = []
    for f in frequencies:
        t = bolt_floor_table(**{**table_args, "period": 1.0 / float(f)})
        out.append(getattr(t, reading).log_epsilon_c / math.log(10))
    return np.asarray(out)


@dataclass(frozen=True)
class BumpValues:
    """``M(γ)`` of ``wsparq`` eq. (36) and its ingredients; ``M < 2`` is vacuous for Fano."""

    M: int
    h0: float
    zeta: float
    log_argument: float
    status: str


@dataclass(frozen=True)
class FanoValues:
    """``wsparq`` Proposition 5.1 with bounded side queries; a bound ``<= 0`` is vacuous."""

    M: int
    K: float
    information: float
    p_err_lower_bound: float
    status: str


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


def _finite_or_refuse(alpha: float, horizon: int, **values: float) -> None:
    for name, v in values.items():
        if isinstance(v, float) and (math.isnan(v) or (math.isinf(v) and name != "C2")):
            raise ValueError(f"alpha = {alpha!r} with horizon = {horizon} makes {name} overflow float64; "
                             "use a smaller alpha or horizon")


def wsparq_lower_bound_table(alpha: float = 2.0, horizon: int = 1000, *, noise_var: float = 1.0,
                             budget: float | None = None, bump_gamma: float | None = None, B: float = 5.0,
                             lengthscale: float = 0.1, d: int = 1, cells: int | None = None) -> WsparqLowerBoundTable:
    """``C₂``, ``L*``, ``T₀``, ``V_T`` and, with a budget, ``S_τ <= N_T F(L*)/σ²``; ``M(γ)`` with ``bump_gamma``;
    the Fano bound with ``cells`` (needs ``bump_gamma``). Values that overflow float64 are refused."""
    alpha = check_positive("alpha", alpha)
    horizon = check_int("horizon", horizon, minimum=2)
    noise_var = check_positive("noise_var", noise_var)
    if cells is not None and bump_gamma is None:
        raise ValueError("cells needs gamma (the bump amplitude of the Fano construction)")
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
        fano = FanoValues(fb.M, fb.kl_per_unit_information, fb.information, fb.p_err_lower_bound,
                          f"{VACUOUS}: a lower bound <= 0 on a probability says nothing"
                          if not fb.p_err_lower_bound > 0 else "ok")
    return WsparqLowerBoundTable(
        paper="wsparq", alpha=alpha, horizon=horizon, C2=values["C2"], main_information=values["main_information"],
        L_star_printed=w.l_star_printed, L_star_derived=w.l_star_derived, L_star_integer_argmin=w.l_star_integer,
        T0_printed=w.t0_printed, T0_derived=w.t0_derived, F_at_L_star=w.f_at_l_star, threshold=w.threshold,
        threshold_applies=alpha > 1, V_T=values["V_T"], V_T_asymptotic_printed=values["V_T_asymptotic_printed"],
        V_T_asymptotic_derived=values["V_T_asymptotic_derived"], budget=budget,
        S_tau_bound=None if budget is None else budget / noise_var * w.f_at_l_star, bump=bump, fano=fano,
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


@dataclass(frozen=True)
class TvgpucbLowerBoundTable:
    """``tvgpucb`` Theorem 4.1: ``E[R_T] = Ω(T ε)``; with samples, the genie estimate."""

    paper: str
    epsilon: float
    horizon: int
    order: str
    T_times_epsilon: float
    genie: GenieValues | None = None


def tvgpucb_genie_table(epsilon: float = 0.01, horizon: int = 1000, *, samples: int = 0, lengthscale: float = 0.1,
                        seed: int = 0) -> TvgpucbLowerBoundTable:
    """``T ε`` and (``samples >= 2``) the genie regret on an SE process on 201 points of ``[0, 1]``."""
    epsilon = check_open_interval("epsilon", epsilon, 0.0, 1.0)
    horizon = check_int("horizon", horizon, minimum=1)
    samples = check_int("samples", samples, minimum=0, maximum=SAMPLES_LIMIT,
                        reason="each is a pair of GP draws on 201 points")
    genie = None
    if samples:
        g = LB.genie_regret(SquaredExponential(1.0, check_positive("lengthscale", lengthscale)),
                            np.linspace(0.0, 1.0, 201), epsilon, samples,
                            np.random.default_rng(check_int("seed", seed, minimum=0)))
        genie = GenieValues(g.mean_regret, g.stderr, g.ratio, (horizon - 1) * g.mean_regret)
    return TvgpucbLowerBoundTable("tvgpucb", epsilon, horizon,
                                  "E[R_T] = Omega(T eps) (Theorem 4.1); constant not explicit",
                                  horizon * epsilon, genie)
