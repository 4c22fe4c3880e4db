"""Computable ingredients of the papers' lower bounds.

``bolt`` (Theorem 3.6, eqs. (4)–(5); papers/bolt/READING.md §5.1): the regret floor ``ε_c`` and ``σ_c²`` as printed
(with the ``(1 + k_S(√d))`` factor) and sign-corrected (``(1 - k_S(r))`` at a separation ``r``); the spectral mass
``F_T(1/2c)`` through :mod:`tvbo_verify.spectral`; Theorem 3.8's upper bound (7).

``wsparq`` §5 (Proposition 5.1, Theorem 5.3): Fano's bound (37), Gaussian KL sums (38), the split (39)
with ``C₂``, the bump family's ``h(0)`` and ``ζ`` by mpmath quadrature and ``M(γ)`` of (36), the
information sum ``S_τ`` (40), ``F(L)``, ``L*`` and ``T₀`` as printed and as derived, ``V_T`` exactly
and asymptotically (§2.2.2).

``tvgpucb`` App. F (Theorem 4.1): the genie's choice and regret on a grid, the Taylor bound (100) and the
optimal step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import mpmath
import numpy as np

from ..validation import (
    as_points,
    as_vector,
    check_choice,
    check_int,
    check_nonnegative,
    check_open_interval,
    check_positive,
)
from .power_sums import power_sum

if TYPE_CHECKING:  # scipy, sympy and the kernels are imported by the functions that use them
    from ..kernels import Kernel, StationaryKernel

__all__ = [
    "SIGMA_C_READINGS", "ASYMPTOTIC_Z", "spectral_mass_below_nyquist", "sigma_c_squared", "log_epsilon_c",
    "epsilon_c", "BoltFloor", "bolt_regret_floor", "bolt_upper_bound", "fano_error_bound", "KLSums",
    "gaussian_kl_sum", "c2_constant", "main_information", "information_sums", "window_objective",
    "window_objective_mp", "WindowLengths", "window_lengths", "sliding_window_counts", "cumulative_variance",
    "cumulative_variance_asymptotic", "bump_h", "bump_zeta", "BumpCount", "bump_count", "bump_family",
    "bump_rkhs_norm", "FanoBound", "fano_bounded_queries", "taylor_regret_bound", "genie_step", "GenieEstimate",
    "genie_regret",
]

SIGMA_C_READINGS: tuple[str, ...] = ("printed", "corrected")
#: Beyond this ``z = L√d/σ_c`` the floor ``ε_c`` is evaluated by its Mills-ratio expansion.
ASYMPTOTIC_Z = 10**4


# --------------------------------------------------------------------------------------------------
# bolt: eps_c, sigma_c^2 (eqs. (4)-(5)), Theorem 3.8
# --------------------------------------------------------------------------------------------------
def spectral_mass_below_nyquist(temporal: StationaryKernel, period: float) -> float:
    """``F_T(1/2c) = 2 ∫_0^{1/2c} S_T`` (``bolt`` eqs. (58)–(59)) for the unit-variance temporal kernel."""
    from ..spectral import spectral_cdf

    period = check_positive("period", period)
    return float(spectral_cdf(temporal, 1.0 / (2.0 * period)))


def sigma_c_squared(
    temporal: StationaryKernel,
    period: float,
    *,
    signal_variance: float = 1.0,
    spatial: StationaryKernel | None = None,
    d: int = 1,
    reading: str = "printed",
    separation: float | None = None,
) -> float:
    """``σ_c²`` of ``bolt`` eq. (5).

    * ``"printed"``: ``2λ(1 + k_S(√d))(1 - F_T(1/2c))``.
    * ``"corrected"``: ``2λ(1 - k_S(r))(1 - F_T(1/2c))`` — the variance of a difference has ``-2 Cov``
      (``papers/bolt/READING.md`` §5.1); ``r`` defaults to the diameter ``√d``. At ``r = 0`` it is 0, so the worst case
      over separations gives no floor.
    ``spatial`` defaults to a unit SE kernel with lengthscale 1 (Figure 1 does not state ``k_S``).
    """
    lam = check_positive("signal_variance", signal_variance)
    d = check_int("d", d, minimum=1)
    check_choice("reading", reading, SIGMA_C_READINGS)
    from ..kernels import SquaredExponential
    from ..spectral import mass_above_nyquist

    ks = spatial if spatial is not None else SquaredExponential(1.0, 1.0)
    r = math.sqrt(d) if separation is None else check_nonnegative("separation", separation)
    k_val = float(ks.of_distance(r)) / ks.variance
    mass_above = mass_above_nyquist(temporal, check_positive("period", period))  # no 1 - F cancellation
    spatial_factor = 1.0 + k_val if reading == "printed" else 1.0 - k_val
    return 2.0 * lam * spatial_factor * max(mass_above, 0.0)


def log_epsilon_c(sigma_c: float, lipschitz: float, d: int) -> float:
    """``log ε_c`` with ``ε_c = σ_c φ(-z) - L√d Φ(-z)``, ``z = L√d/σ_c`` (``bolt`` eq. (4)), evaluated in
    mpmath at 50 digits (``ε_c`` underflows float64 for smooth kernels, ``bolt`` §9.4). ``-inf`` at σ_c = 0."""
    s = check_nonnegative("sigma_c", sigma_c)
    L = check_positive("lipschitz", lipschitz)
    d = check_int("d", d, minimum=1)
    if s == 0:
        return -math.inf
    with mpmath.workdps(50):
        a = mpmath.mpf(L) * mpmath.sqrt(d)
        z = a / s
        if z > ASYMPTOTIC_Z:  # Mills-ratio expansion in log form (relative error < 945/z^8 < 1e-29); the direct
            series = 1 - 3 / z**2 + 15 / z**4 - 105 / z**6  # form cancels, and erfc overflows for z > ~1e15
            log_val = mpmath.log(s) - z**2 / 2 - mpmath.log(2 * mpmath.pi) / 2 - 2 * mpmath.log(z) + mpmath.log(series)
            return float(log_val) if log_val > -mpmath.mpf("1.7e308") else -math.inf
        pdf = mpmath.npdf(z)
        val = s * pdf - a * mpmath.ncdf(-z)
        if val <= 0:  # cancellation beyond 50 digits: use the asymptotic Mills-ratio expansion
            val = s * pdf * (1 / z**2 - 3 / z**4 + 15 / z**6 - 105 / z**8)
        return float(mpmath.log(val))


def epsilon_c(sigma_c: float, lipschitz: float, d: int) -> float:
    """``ε_c = E[max(0, X)]``, ``X ~ N(-L√d, σ_c²)`` (``bolt`` eq. (4)); 0.0 once it underflows."""
    lg = log_epsilon_c(sigma_c, lipschitz, d)
    return 0.0 if lg == -math.inf else math.exp(lg) if lg > -745 else 0.0


@dataclass(frozen=True)
class BoltFloor:
    """``bolt`` Theorem 3.6 ingredients for one sampling period ``c``."""

    period: float
    spectral_mass: float
    sigma_c2: float
    epsilon_c: float
    log_epsilon_c: float
    reading: str


def bolt_regret_floor(
    temporal: StationaryKernel,
    period: float,
    *,
    lipschitz: float = 1.0,
    d: int = 1,
    signal_variance: float = 1.0,
    spatial: StationaryKernel | None = None,
    reading: str = "printed",
    separation: float | None = None,
) -> BoltFloor:
    """``F_T(1/2c)``, ``σ_c²`` and ``ε_c`` (``bolt`` Theorem 3.6; ``E[R_T] ∈ Ω(ε_c T)``)."""
    s2 = sigma_c_squared(
        temporal, period, signal_variance=signal_variance, spatial=spatial, d=d, reading=reading, separation=separation
    )
    lg = log_epsilon_c(math.sqrt(s2), lipschitz, d)
    return BoltFloor(
        period=float(period),
        spectral_mass=spectral_mass_below_nyquist(temporal, period),
        sigma_c2=s2,
        epsilon_c=0.0 if lg < -745 else math.exp(lg),
        log_epsilon_c=lg,
        reading=reading,
    )


def bolt_upper_bound(
    horizon: int,
    u2_value: float,
    *,
    d: int = 1,
    lipschitz: float = 1.0,
    delta: float = 0.1,
    signal_variance: float = 1.0,
    noise_var: float = 0.01,
    ks_diameter: float = 1.0,
    beta: str = "printed",
) -> float:
    """``bolt`` Theorem 3.8, eq. (7): ``2 + sqrt(4 λ β_T T (T - λ k_S²(√d) ||u_n||² / (λ + σ_0²)))``.

    ``β_T`` is eq. (63) as printed (``beta="printed"``) or the corrected Lemma D.1 value
    (``"corrected"``), from :mod:`tvbo_verify.confidence`. ``ks_diameter`` is ``k_S(√d)``.
    """
    from ..confidence import beta_bolt_as_printed, beta_bolt_corrected

    T = check_int("horizon", horizon, minimum=1)
    u2v = check_nonnegative("u2", u2_value)
    lam = check_positive("signal_variance", signal_variance)
    s0 = check_nonnegative("noise_var", noise_var)
    ksd = check_nonnegative("ks_diameter", ks_diameter)
    check_choice("beta", beta, ("printed", "corrected"))
    b = (beta_bolt_as_printed(T, d, lipschitz, delta) if beta == "printed"
         else beta_bolt_corrected(T, d, lipschitz, delta))
    inner = T - lam * ksd**2 * u2v / (lam + s0)
    return 2.0 + math.sqrt(4.0 * lam * b * T * max(inner, 0.0))


# --------------------------------------------------------------------------------------------------
# wsparq §5: Fano, KL sums, bump family, S_tau, L*, T0, V_T
# --------------------------------------------------------------------------------------------------
def fano_error_bound(kl_offdiag_sum: float, M: int) -> float:
    """``P_err >= 1 - ((1/M²) Σ_{i≠j} KL(P_i||P_j) + log 2) / log M`` (``wsparq`` eq. (37))."""
    kl = check_nonnegative("kl_offdiag_sum", kl_offdiag_sum)
    M = check_int("M", M, minimum=2)
    return 1.0 - (kl / M**2 + math.log(2.0)) / math.log(M)


@dataclass(frozen=True)
class KLSums:
    """``Σ_{i≠j} KL(P_i||P_j)`` exactly and through the identity/bound of Proof 5.2 step 5."""

    exact: float
    identity: float
    bound: float


def gaussian_kl_sum(values: np.ndarray, variances: np.ndarray) -> KLSums:
    """KL sums for ``M`` hypotheses observed at ``n`` points with Gaussian noise (``wsparq`` Proof 5.2).

    ``values[m, t] = f^m(x_t)``; ``KL(P_i||P_j) = Σ_t (f^i(x_t) - f^j(x_t))² / (2σ_t²)``. ``identity`` uses
    ``Σ_{i,j}(f^i - f^j)² = 2M Σ_i f_i² - 2(Σ_i f_i)²``; ``bound`` drops the second term (eq. (38) before
    Lemma 5 of Scarlett et al.).
    """
    F = np.asarray(values, dtype=float)
    if F.ndim != 2:
        raise ValueError(f"values must have shape (M, n), got {F.shape}")
    var = as_vector("variances", variances, F.shape[1])
    if np.any(var <= 0):
        raise ValueError("variances must be > 0")
    M = F.shape[0]
    diff = F[:, None, :] - F[None, :, :]
    exact = float(np.sum(diff**2 / (2.0 * var)))
    s2 = np.sum(F**2, axis=0)
    s1 = np.sum(F, axis=0)
    identity = float(np.sum((2 * M * s2 - 2 * s1**2) / (2.0 * var)))
    bound = float(np.sum(2 * M * s2 / (2.0 * var)))
    return KLSums(exact, identity, bound)


def c2_constant(alpha: float, noise_var: float = 1.0) -> float:
    """``C₂ = σ^{-2} Σ_{k>=0} 1/(1 + k^α)`` (``wsparq`` eq. (39), read as in §2); ``inf`` for ``α <= 1``.

    The series converges like ``k^{1-α}``, too slowly to sum directly; for ``k >= 2``,
    ``1/(1+k^α) = Σ_{j>=1} (-1)^{j+1} k^{-jα}``, so ``Σ_{k>=2} 1/(1+k^α) = Σ_{j>=1} (-1)^{j+1}(ζ(jα) - 1)``
    (terms ``~ 2^{-jα}``), evaluated with mpmath. The ``k = 0`` term is 1 (``0^α = 0``), ``k = 1`` gives 1/2.
    """
    a = check_positive("alpha", alpha)
    s2 = check_positive("noise_var", noise_var)
    if a <= 1:
        return math.inf
    with mpmath.workdps(40):
        total = mpmath.mpf(1) + mpmath.mpf(1) / 2
        j = 1
        while True:
            term = mpmath.zeta(j * mpmath.mpf(a)) - 1
            total += term if j % 2 else -term
            if term < mpmath.mpf(10) ** -30:
                break
            j += 1
    return float(total) / s2


def main_information(horizon: int, alpha: float, noise_var: float = 1.0) -> float:
    """``Σ_{t=1}^T 1/(σ²(1 + (T-t)^α))`` — the main-query part of (39), ``<= C₂`` for ``α > 1``."""
    T = check_int("horizon", horizon, minimum=1)
    a = check_positive("alpha", alpha)
    s2 = check_positive("noise_var", noise_var)
    k = np.arange(T, dtype=float)
    return float(np.sum(1.0 / (1.0 + k**a)) / s2)


def information_sums(n_t: np.ndarray, alpha: float, noise_var: float = 1.0) -> np.ndarray:
    """``S_τ = Σ_{t<=τ} n_t / (σ²(1 + (τ-t)^α))`` for every ``τ = 1..T`` (``wsparq`` eq. (40)).

    Direct convolution for ``T <= 4096``, FFT convolution above (non-negative terms, so relative error
    stays at the float level).
    """
    n = as_vector("n_t", n_t)
    if np.any(n < 0):
        raise ValueError("n_t must be >= 0")
    a = check_positive("alpha", alpha)
    s2 = check_positive("noise_var", noise_var)
    T = n.size
    kern = 1.0 / (1.0 + np.arange(T, dtype=float) ** a)
    if T <= 4096:
        conv = np.convolve(n, kern)[:T]
    else:
        from scipy import signal

        conv = signal.fftconvolve(n, kern)[:T]
    return np.maximum(conv, 0.0) / s2


def window_objective(L: float, alpha: float, horizon: float) -> float:
    """``F(L) = L^{-α} + 4L/T`` (``wsparq`` Proof 5.4 step 3)."""
    return check_positive("L", L) ** -check_positive("alpha", alpha) + 4.0 * L / check_positive("horizon", horizon)


def window_objective_mp(L: Any, alpha: Any, horizon: Any) -> Any:
    """:func:`window_objective` at the current mpmath precision (the referee's twin)."""
    L, a, T = mpmath.mpf(L), mpmath.mpf(alpha), mpmath.mpf(horizon)
    return L ** (-a) + 4 * L / T


@dataclass(frozen=True)
class WindowLengths:
    """``L*`` and ``T₀`` of Proof 5.4 as printed, as derived from ``F`` and the integer argmin of ``F``."""

    alpha: float
    horizon: int
    l_star_printed: float
    l_star_derived: float
    l_star_integer: int
    t0_printed: float
    t0_derived: float
    f_at_l_star: float
    threshold: float


def window_lengths(alpha: float, horizon: int) -> WindowLengths:
    """``L*`` (printed ``(α/8)^{1/(α+1)} T^{1/(α+1)}``), ``T₀`` (printed ``2^{1-2/α} α^{1/α}``), their
    derived values, ``argmin_{1<=L<=T/2} F(L)`` over integers, and the threshold ``T^{α/(α+1)}``
    (``wsparq`` Proof 5.4, ``papers/wsparq/READING.md`` §5.11).

    Derived from the objective ``F(L) = L^{-α} + 4L/T`` (convex for ``L > 0``): ``F'(L) = -α L^{-α-1} + 4/T``
    vanishes at ``(α+1) log L* = log(αT/4)``, and ``L*(T) <= T/2`` from ``α log T₀ = log α + (α-1) log 2``;
    both in logarithms, so no power overflows. They equal the sympy derivations ``wsparq-L-star`` and
    ``wsparq-T0`` of :mod:`tvbo_verify.theory.derivations` (checked in the tests), which are not imported
    here: sympy takes longer to load than the whole table takes to compute.
    """
    a = check_positive("alpha", alpha)
    T = check_int("horizon", horizon, minimum=2)
    derived = math.exp((math.log(a) + math.log(T) - math.log(4.0)) / (a + 1.0))
    L_hi = max(1, T // 2)
    cand = {1, L_hi, max(1, min(L_hi, math.floor(derived))), max(1, min(L_hi, math.ceil(derived)))}
    best = min(cand, key=lambda L: (window_objective(L, a, T), L))
    return WindowLengths(
        alpha=a,
        horizon=T,
        l_star_printed=(a / 8.0) ** (1.0 / (a + 1.0)) * T ** (1.0 / (a + 1.0)),
        l_star_derived=derived,
        l_star_integer=int(best),
        t0_printed=2.0 ** (1.0 - 2.0 / a) * a ** (1.0 / a),
        t0_derived=math.exp((math.log(a) + (a - 1.0) * math.log(2.0)) / a),
        f_at_l_star=window_objective(derived, a, T),
        threshold=float(T) ** (a / (a + 1.0)),
    )


def sliding_window_counts(n_t: np.ndarray, L: int) -> tuple[np.ndarray, int]:
    """Window sums ``w_j = Σ_{t=j+1}^{j+L} n_t`` and how many satisfy ``w_j <= 4 L N_T / T`` (Proof 5.4 step 2)."""
    n = as_vector("n_t", n_t)
    T = n.size
    L = check_int("L", L, minimum=1)
    if L > T:
        raise ValueError(f"L must be <= T = {T}, got {L}")
    w = np.convolve(n, np.ones(L), mode="valid")
    return w, int(np.sum(w <= 4.0 * L * n.sum() / T + 1e-12))


def cumulative_variance(horizon: int, alpha: float, noise_var: float = 1.0, *, zero_power: str = "one") -> float:
    """``V_T = Σ_{t=1}^T σ²(1 + (T-t)^α)`` exactly (``wsparq`` §2.2.2).

    ``zero_power`` is the convention for ``0^α`` at age 0 (``"one"``: ``0^0 = 1``, giving ``V_T = 2σ²T``
    at ``α = 0``; ``"zero"``: age-0 variance ``σ²``, papers/wsparq/READING.md §3.1). ``Σ_{k=1}^{T-1} k^α`` is summed
    term by term up to ``10^6`` terms and by Euler–Maclaurin with an explicit remainder bound beyond
    (:func:`tvbo_verify.theory.power_sums.power_sum`), so any ``T`` costs the same. Raises
    ``OverflowError`` when ``V_T`` exceeds float64.
    """
    T = check_int("horizon", horizon, minimum=1)
    a = check_nonnegative("alpha", alpha)
    s2 = check_positive("noise_var", noise_var)
    check_choice("zero_power", zero_power, ("one", "zero"))
    zero_term = 1.0 if (a == 0 and zero_power == "one") else 0.0
    s = power_sum(T - 1, a).value + zero_term
    return s2 * (T + s)


def cumulative_variance_asymptotic(horizon: float, alpha: float, noise_var: float = 1.0, *,
                                   reading: str = "derived") -> float:
    """Leading term of ``V_T``: printed ``σ² T^{α+1}``; derived ``σ² T^{α+1}/(α+1)`` (``α > 0``)."""
    T = check_positive("horizon", horizon)
    a = check_positive("alpha", alpha)
    s2 = check_positive("noise_var", noise_var)
    check_choice("reading", reading, ("printed", "derived"))
    return s2 * T ** (a + 1) / (1.0 if reading == "printed" else a + 1.0)


# bump family (wsparq Proof 5.2, I4 of §5.0) ---------------------------------------------------------
def _bump(xi):
    return mpmath.exp(-1 / (1 - xi**2)) if abs(xi) < 1 else mpmath.mpf(0)


@lru_cache(maxsize=4096)
def bump_h(x: float, d: int = 1, dps: int = 30) -> float:
    """``h = F^{-1}H`` of the bump ``H(ξ) = exp(-1/(1-||ξ||²))`` on the unit ball, radially:
    ``h(r) = (2π)^{-d/2} r^{1-d/2} ∫_0^1 H(ρ) J_{d/2-1}(rρ) ρ^{d/2} dρ``; for ``d = 1`` this is
    ``(1/π) ∫_0^1 H(ξ) cos(ξ x) dξ`` (``papers/wsparq/READING.md`` §wsparq:eq-36). Computed by mpmath quadrature."""
    d = check_int("d", d, minimum=1)
    r = abs(float(x))
    with mpmath.workdps(dps):
        if r == 0:
            # limit: (2π)^{-d/2} (1/2)^{d/2-1}/Γ(d/2) ∫ H ρ^{d-1} dρ
            val = (2 * mpmath.pi) ** (-mpmath.mpf(d) / 2) * mpmath.mpf(2) ** (1 - mpmath.mpf(d) / 2) / mpmath.gamma(
                mpmath.mpf(d) / 2
            ) * mpmath.quad(lambda p: _bump(p) * p ** (d - 1), [0, 1])
        elif d == 1:
            val = mpmath.quad(lambda p: _bump(p) * mpmath.cos(p * r), [0, 1]) / mpmath.pi
        else:
            nu = mpmath.mpf(d) / 2 - 1
            val = (2 * mpmath.pi) ** (-mpmath.mpf(d) / 2) * r ** (-nu) * mpmath.quad(
                lambda p: _bump(p) * mpmath.besselj(nu, r * p) * p ** (nu + 1), [0, 1]
            )
        return float(val)


@lru_cache(maxsize=16)
def bump_zeta(d: int = 1) -> float:
    """``ζ``: ``||x|| > ζ ⇒ h(x) < h(0)/2`` (``wsparq`` eq. (36)); the half-maximum radius of ``h``,
    with a scan confirming that ``|h| < h(0)/2`` beyond it (to radius 100)."""
    d = check_int("d", d, minimum=1)
    h0 = bump_h(0.0, d)
    def f(r):
        return bump_h(r, d, dps=20) - h0 / 2
    lo, hi = 0.0, 1.0
    while f(hi) > 0:
        lo, hi = hi, 2 * hi
    with mpmath.workdps(20):
        zeta = float(mpmath.findroot(lambda r: f(float(r)), (lo, hi), solver="bisect", tol=1e-12))
    scan = np.linspace(zeta * 1.01, 100.0, 100)
    if any(bump_h(r, d, dps=15) >= h0 / 2 for r in scan):
        raise ArithmeticError("h exceeds h(0)/2 beyond its first half-maximum radius")
    return zeta


@dataclass(frozen=True)
class BumpCount:
    """``M(γ)`` of ``wsparq`` eq. (36) and its ingredients."""

    M: int
    h0: float
    zeta: float
    log_argument: float


def bump_count(gamma: float, B: float, lengthscale: float, d: int = 1) -> BumpCount:
    """``M = ⌊(sqrt(log(B (2π l²)^{d/4} h(0) / (2γ))) / (l π ζ))^d⌋`` (``wsparq`` eq. (36)); ``M = 0``
    when the logarithm is not positive."""
    g = check_positive("gamma", gamma)
    B = check_positive("B", B)
    ell = check_positive("lengthscale", lengthscale)
    d = check_int("d", d, minimum=1)
    h0 = bump_h(0.0, d)
    zeta = bump_zeta(d)
    log_arg = math.log(B * (2 * math.pi * ell * ell) ** (d / 4.0) * h0 / (2.0 * g))
    M = 0 if log_arg <= 0 else int(math.floor((math.sqrt(log_arg) / (ell * math.pi * zeta)) ** d))
    return BumpCount(M, h0, zeta, log_arg)


def bump_family(M: int, gamma: float, grid: np.ndarray, *, table_size: int = 400) -> np.ndarray:
    """Values ``f^m(x)`` of the ``d = 1`` bump family on ``[0, 1]`` (``wsparq`` Proof 5.2, papers/wsparq/READING.md
    §wsparq:eq-36): ``f^m(x) = (2γ/h(0)) h((x - c_m)/w)`` with cell centres ``c_m = (m + 1/2)/M`` and width
    ``w = 1/(2Mζ)`` [reading], so that ``f^m >= γ`` exactly on the middle of its own cell and every other
    member is ``< γ`` there (γ-optimal sets are disjoint). ``h`` is tabulated by quadrature and
    interpolated. Returns an array of shape ``(M, len(grid))``."""
    M = check_int("M", M, minimum=2)
    g = check_positive("gamma", gamma)
    x = as_vector("grid", grid)
    zeta = bump_zeta(1)
    h0 = bump_h(0.0)
    w = 1.0 / (2.0 * M * zeta)
    centres = (np.arange(M) + 0.5) / M
    r = np.abs(x[None, :] - centres[:, None]) / w
    radii = np.linspace(0.0, float(r.max()) + 1e-9, table_size)
    table = _bump_h_float(radii)
    return 2.0 * g / h0 * np.interp(r, radii, table)


def bump_rkhs_norm(M: int, gamma: float, kernel: StationaryKernel, *, dps: int = 30) -> float:
    """Exact RKHS norm of a :func:`bump_family` member for a 1-D stationary ``kernel`` (papers/wsparq/READING.md §3.13).

    ``f^m(x) = (2γ/h(0)) h((x − c_m)/w)`` with ``w = 1/(2Mζ)`` has Fourier transform
    ``(2γ/h(0)) w H(2πwξ) e^{−2πiξc_m}`` (ordinary frequency; ``h`` is the inverse Fourier transform of the
    bump ``H`` on ``|u| < 1``), so ``‖f^m‖²_k = ∫ |f̂|²/S = (2γ/h(0))² (w/π) ∫_0^1 H(u)²/S(u/(2πw)) du`` with
    ``S`` the kernel's spectral density (:func:`tvbo_verify.spectral.spectral_density`). The integrand is
    evaluated in log space with mpmath (``1/S`` grows like ``e^{ℓ²u²/(2w²)}``), so large norms are exact."""
    from ..kernels import SquaredExponential, StationaryKernel
    from ..spectral import spectral_density

    M = check_int("M", M, minimum=2)
    g = check_positive("gamma", gamma)
    if not isinstance(kernel, StationaryKernel):
        raise ValueError(f"kernel must be a stationary kernel, got {type(kernel).__name__}")
    zeta, h0 = bump_zeta(1), bump_h(0.0)
    w = 1.0 / (2.0 * M * zeta)
    with mpmath.workdps(dps):
        def integrand(u):
            if u >= 1:
                return mpmath.mpf(0)
            xi = float(u) / (2 * math.pi * w)
            density = float(spectral_density(kernel, xi))
            if density > 0:
                log_s = mpmath.log(density)
            elif isinstance(kernel, SquaredExponential):  # underflow in float64: the closed form in log space
                ell = float(kernel.lengthscale)
                log_s = mpmath.log(kernel.variance * ell * mpmath.sqrt(2 * mpmath.pi)) - 2 * (mpmath.pi * ell * xi) ** 2
            else:
                raise ArithmeticError(f"spectral density of {kernel!r} underflows at frequency {xi:g}")
            return mpmath.exp(-2 / (1 - u * u) - log_s)

        integral = mpmath.quad(integrand, [0, 0.5, 0.9, 1])
        norm2 = (2 * g / h0) ** 2 * (w / mpmath.pi) * integral
        return float(mpmath.sqrt(norm2))


def _bump_h_float(radii: np.ndarray) -> np.ndarray:
    """``h(r)`` for ``d = 1`` in float64 (QUADPACK with a cosine weight), for dense tables; the
    constants ``h(0)`` and ``ζ`` themselves come from the mpmath :func:`bump_h`."""
    from scipy import integrate

    def H(xi):
        return math.exp(-1.0 / (1.0 - xi * xi)) if abs(xi) < 1 else 0.0
    return np.array([integrate.quad(H, 0.0, 1.0, weight="cos", wvar=float(q))[0] / math.pi for q in radii])


@dataclass(frozen=True)
class FanoBound:
    """Design-free Fano bound with bounded side queries (papers/wsparq/READING.md §wsparq:proposition-5.1+corrected)."""

    M: int
    gamma: float
    kl_per_unit_information: float
    information: float
    p_err_lower_bound: float


def fano_bounded_queries(
    M: int, gamma: float, alpha: float, budget: float, noise_var: float = 1.0, *, grid_size: int = 2001,
    table_size: int = 400,
) -> FanoBound:
    """``P_err >= 1 - ((1/M²) K (C₂ + N_T/σ²) + log 2)/log M`` with ``K = max_x Σ_{i≠j}(f^i - f^j)²/2``
    computed on a grid of ``[0, 1]`` (so ``Σ_{i≠j} KL <= K Σ_t 1/σ_t²`` and eq. (39) bounds the sum).
    Independent of ``T``; needs ``α > 1`` for ``C₂ < ∞``. ``table_size`` is the number of radii at which
    ``h`` is tabulated (:func:`bump_family`); many cells need finer grids and tables."""
    check_int("grid_size", grid_size, minimum=3)
    F = bump_family(M, gamma, np.linspace(0.0, 1.0, grid_size), table_size=check_int("table_size", table_size, 2))
    Mi = F.shape[0]
    per_x = Mi * np.sum(F**2, axis=0) - np.sum(F, axis=0) ** 2  # = Σ_{i≠j}(f^i - f^j)² / 2
    K = float(np.max(per_x))
    info = c2_constant(alpha, noise_var) + check_nonnegative("budget", budget) / check_positive("noise_var", noise_var)
    p = 1.0 - (K * info / Mi**2 + math.log(2.0)) / math.log(Mi) if math.isfinite(info) else -math.inf
    return FanoBound(Mi, float(gamma), K, info, p)


# --------------------------------------------------------------------------------------------------
# tvgpucb App. F: genie
# --------------------------------------------------------------------------------------------------
def taylor_regret_bound(epsilon: float, grad_norm_sq: float, curvature: float, d: int = 1) -> float:
    """``r_t >= ε ||∇g_t(x_t)||² / (4 L d)`` (``tvgpucb`` eq. (100))."""
    e = check_open_interval("epsilon", epsilon, 0.0, 1.0)
    return e * check_nonnegative("grad_norm_sq", grad_norm_sq) / (4.0 * check_positive("curvature", curvature) * d)


def genie_step(epsilon: float, grad_norm: float, curvature: float, d: int = 1) -> float:
    """Optimal Taylor step ``δ = √ε ||∇g|| / (2 L d)`` (``tvgpucb`` App. F step 5)."""
    e = check_open_interval("epsilon", epsilon, 0.0, 1.0)
    return math.sqrt(e) * check_nonnegative("grad_norm", grad_norm) / (2.0 * check_positive("curvature", curvature) * d)


@dataclass(frozen=True)
class GenieEstimate:
    """Monte Carlo genie regret ``E[r_t]`` for the Markov model (``tvgpucb`` App. F step 1)."""

    epsilon: float
    mean_regret: float
    stderr: float
    n_samples: int

    @property
    def ratio(self) -> float:
        """``E[r_t]/ε`` (roughly constant in ε if ``E[R_T] = Ω(Tε)`` is tight)."""
        return self.mean_regret / self.epsilon


def genie_regret(
    kernel: Kernel, grid: np.ndarray, epsilon: float, n_samples: int, rng: np.random.Generator
) -> GenieEstimate:
    """Genie of ``tvgpucb`` Theorem 4.1: ``f_{t-1} ~ GP(0,k)``, ``f_t = √(1-ε) f_{t-1} + √ε g_t``; the genie
    plays ``argmax f_{t-1}`` and suffers ``max f_t - f_t(x_t)``. Samples on a finite grid (Cholesky with
    the jitter ladder)."""
    from ..linalg import stable_cholesky

    e = check_open_interval("epsilon", epsilon, 0.0, 1.0)
    n_samples = check_int("n_samples", n_samples, minimum=2)
    X = as_points("grid", grid)
    fac = stable_cholesky(kernel(X), name="grid Gram matrix")
    Z1 = fac.L @ rng.standard_normal((X.shape[0], n_samples))
    Z2 = fac.L @ rng.standard_normal((X.shape[0], n_samples))
    f_prev = Z1
    f_now = math.sqrt(1.0 - e) * f_prev + math.sqrt(e) * Z2
    choice = np.argmax(f_prev, axis=0)
    r = np.max(f_now, axis=0) - f_now[choice, np.arange(n_samples)]
    return GenieEstimate(e, float(np.mean(r)), float(np.std(r, ddof=1) / math.sqrt(n_samples)), n_samples)
