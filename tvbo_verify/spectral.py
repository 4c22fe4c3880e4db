"""Spectral densities of unit-variance temporal correlation functions (``bolt`` §1.5).

Convention: ordinary frequency, ``S(ξ) = ∫ k(τ) exp(-2πiξτ) dτ`` so that ``∫ S = k(0) = 1``; the power
spectral distribution is ``F(x) = 2 ∫_0^x S(z) dz`` and ``1 - F(1/(2c))`` is the spectral mass above the
Nyquist frequency of sampling period ``c`` (``bolt`` eqs. (27)–(28), (58)–(59)).

Closed forms (``bolt`` §1.5): SE ``l√(2π) exp(-2π² l² ξ²)``; Matérn-ν
``2√π Γ(ν+½)(2ν)^ν / (Γ(ν) l^{2ν}) · (2ν/l² + 4π²ξ²)^{-(ν+½)}``; rational quadratic as the Gamma scale
mixture of SE, ``l√(2π) α^α/Γ(α) · 2 (c/α)^{(α-½)/2} K_{α-½}(2√(αc))`` with ``c = 2π² l² ξ²``.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import integrate, special

from .kernels import Matern, RationalQuadratic, Sinc, SquaredExponential, StationaryKernel

__all__ = [
    "spectral_density", "spectral_cdf", "spectral_survival", "mass_above_nyquist", "se_gaussian_ratio",
    "se_gaussian_eigenvalues", "se_gaussian_tail", "log_spectral_survival", "log_spectral_density",
    "log_aliased_spectral_density", "aliased_spectral_density",
]


def _lengthscale(kernel: StationaryKernel) -> float:
    if np.ndim(kernel.lengthscale) != 0:
        raise ValueError("spectral densities need a scalar (isotropic, 1-D) lengthscale")
    return float(kernel.lengthscale)


def _frequency(x: float) -> float:
    x = float(x)
    if not x >= 0:
        raise ValueError(f"x must be >= 0, got {x!r}")
    return x


def spectral_density(kernel: StationaryKernel, xi: np.ndarray | float) -> np.ndarray:
    """Return ``S(ξ)`` of the unit-variance correlation ``kernel.rho`` (times ``kernel.variance``)."""
    ell = _lengthscale(kernel)
    xi = np.abs(np.asarray(xi, dtype=float))
    if isinstance(kernel, SquaredExponential):
        s = ell * math.sqrt(2 * math.pi) * np.exp(-2 * math.pi**2 * ell**2 * xi**2)
    elif isinstance(kernel, Matern):
        nu = kernel.nu
        const = 2 * math.sqrt(math.pi) * math.gamma(nu + 0.5) * (2 * nu) ** nu / (math.gamma(nu) * ell ** (2 * nu))
        s = const * np.power(2 * nu / ell**2 + 4 * math.pi**2 * xi**2, -(nu + 0.5))
    elif isinstance(kernel, RationalQuadratic):
        s = _rq_density(kernel.alpha, ell, xi)
    elif isinstance(kernel, Sinc):
        s = np.where(xi <= 1.0 / (2.0 * ell), ell, 0.0)
    else:
        raise ValueError(f"no closed-form spectral density for {type(kernel).__name__}")
    return kernel.variance * s


def _rq_density(alpha: float, ell: float, xi: np.ndarray) -> np.ndarray:
    c = 2 * math.pi**2 * ell**2 * xi**2
    pref = ell * math.sqrt(2 * math.pi) * alpha**alpha / math.gamma(alpha)
    nu = alpha - 0.5
    out = np.empty_like(xi)
    zero = c == 0
    with np.errstate(over="ignore", invalid="ignore"):
        z = 2 * np.sqrt(alpha * c[~zero])
        # log-space evaluation of 2 (c/α)^{ν/2} K_ν(z) using the exponentially scaled Bessel function
        logk = np.log(special.kve(nu, z)) - z
        out[~zero] = pref * 2 * np.exp(0.5 * nu * np.log(c[~zero] / alpha) + logk)
    if np.any(zero):
        out[zero] = (ell * math.sqrt(2 * math.pi * alpha) * math.gamma(alpha - 0.5) / math.gamma(alpha)
                     if alpha > 0.5 else np.inf)
    return out


def spectral_cdf(kernel: StationaryKernel, x: float) -> float:
    """Return ``F(x) = 2 ∫_0^x S(z) dz / variance`` (power spectral distribution, ``bolt`` §1.5)."""
    ell, x = _lengthscale(kernel), _frequency(x)
    if isinstance(kernel, SquaredExponential):
        return float(special.erf(math.sqrt(2) * math.pi * ell * x))
    if isinstance(kernel, Matern) and kernel.nu == 0.5:
        return float(2 / math.pi * math.atan(2 * math.pi * ell * x))
    if isinstance(kernel, Sinc):
        return min(2.0 * ell * x, 1.0)
    if math.isinf(x):
        return 1.0
    value, _ = integrate.quad(lambda z: float(spectral_density(kernel, z)), 0.0, x, limit=200, epsabs=1e-13)
    return 2.0 * value / kernel.variance


def spectral_survival(kernel: StationaryKernel, x: float) -> float:
    """Return ``1 - F(x) = 2 ∫_x^∞ S(z) dz / variance`` without cancellation.

    Evaluated directly (``erfc`` for SE, ``(2/π) arctan(1/(2πlx))`` for Matérn-1/2, quadrature of the tail
    otherwise), so that tiny tail masses (``bolt`` ε_c, §9.4) do not round to zero.
    """
    ell, x = _lengthscale(kernel), _frequency(x)
    if isinstance(kernel, SquaredExponential):
        return float(special.erfc(math.sqrt(2) * math.pi * ell * x))
    if isinstance(kernel, Matern) and kernel.nu == 0.5:
        y = 2 * math.pi * ell * x
        if y < 1e-300:  # 1/y would overflow (or y underflowed to 0): 1 - (2/π) atan(y) is 1 in float64
            return 1.0
        return float(2 / math.pi * math.atan(1.0 / y))
    if isinstance(kernel, Sinc):
        return max(1.0 - 2.0 * ell * x, 0.0)
    if math.isinf(x):
        return 0.0
    value, _ = integrate.quad(lambda z: float(spectral_density(kernel, z)), x, np.inf, limit=200, epsabs=0.0)
    return 2.0 * value / kernel.variance


def mass_above_nyquist(kernel: StationaryKernel, period: float) -> float:
    """Return ``1 - F(1/(2c))``: the spectral mass above the Nyquist frequency of sampling period ``c``."""
    if not period > 0:
        raise ValueError(f"period must be > 0, got {period!r}")
    return spectral_survival(kernel, 1.0 / (2.0 * period))


# --------------------------------------------------------------------------------------------------
# SE kernel under a Gaussian measure: Mercer eigenvalues (Rasmussen & Williams §4.3.1, sparq §4.0)
# --------------------------------------------------------------------------------------------------
def se_gaussian_ratio(lengthscale: float, std: float) -> float:
    """``B = b/(a + b + c)`` with ``a = 1/(4 s²)``, ``b = 1/(2ℓ²)``, ``c = √(a² + 2ab)``: the ratio of
    consecutive eigenvalues of the SE kernel's integral operator under ``N(0, s²)`` (per dimension)."""
    from .validation import check_positive

    ell, s = check_positive("lengthscale", lengthscale), check_positive("std", std)
    a, b = 1.0 / (4.0 * s * s), 1.0 / (2.0 * ell * ell)
    return b / (a + b + math.sqrt(a * a + 2.0 * a * b))


def se_gaussian_eigenvalues(signal_variance: float, lengthscale: float, std: float, n: int, d: int = 1) -> np.ndarray:
    """The ``n`` largest eigenvalues of ``(K_q g)(x) = ∫ k(x, x') g(x') q(x') dx'`` for the product SE kernel
    ``M² exp(−‖x − x'‖²/(2ℓ²))`` and ``q = N(0, s² I_d)``: ``M² (1 − B)^d B^{j_1 + … + j_d}`` over
    multi-indices ``j ≥ 0`` (the d = 1 form ``M² √(2a/A) B^{j−1}`` of Rasmussen & Williams, since
    ``√(2a/A) = 1 − B``), sorted decreasingly."""
    from .validation import check_int, check_positive

    m2 = check_positive("signal_variance", signal_variance)
    n, d = check_int("n", n, 1), check_int("d", d, 1)
    B = se_gaussian_ratio(lengthscale, std)
    out: list[float] = []
    s = 0
    while len(out) < n:  # degree s has C(s + d - 1, d - 1) equal eigenvalues; only the first n are listed
        out.extend([m2 * (1 - B) ** d * B**s] * min(math.comb(s + d - 1, d - 1), n - len(out)))
        s += 1
    return np.asarray(out)


def se_gaussian_tail(signal_variance: float, lengthscale: float, std: float, Q: int, d: int = 1) -> float:
    """``Σ_{j>Q} λ_j`` of :func:`se_gaussian_eigenvalues` summed directly (never as ``M² − Σ_{j<=Q} λ_j``);
    in one dimension it equals ``M² B^Q``.

    The degrees ``s`` after the one the ``Q``-th eigenvalue falls in sum in closed form: the eigenvalues of
    degree ``s`` are ``M²`` times the probability ``C(s + d − 1, d − 1) (1 − B)^d B^s`` of a negative binomial
    count of ``B``-failures before the ``d``-th success, so the degrees from ``s`` on add up to ``M² I_B(s, d)``
    (regularised incomplete beta). The degree itself is found by bisection, so the cost is logarithmic in
    ``Q`` and independent of ``B`` (a term-by-term sum would need ``~ log(10¹⁷)/(1 − B)`` terms).

    Examples
    --------
    >>> round(se_gaussian_tail(1.0, 1.0, 1.0, 3) / se_gaussian_ratio(1.0, 1.0) ** 3, 12)
    1.0
    """
    from .validation import check_int, check_positive

    m2 = check_positive("signal_variance", signal_variance)
    Q, d = check_int("Q", Q, 0), check_int("d", d, 1)
    B = se_gaussian_ratio(lengthscale, std)

    def below(s: int) -> int:  # the number of multi-indices of degree < s
        return math.comb(s + d - 1, d)

    # s, the degree of the (Q + 1)-th eigenvalue, is the least with below(s + 1) > Q: bracketed by doubling,
    # then bisected with the invariant below(lo + 1) <= Q < below(hi + 1) (below(0) = 0)
    lo, hi = -1, 1
    while below(hi + 1) <= Q:
        hi *= 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if below(mid + 1) <= Q else (lo, mid)
    s = hi
    partial = (below(s + 1) - Q) * m2 * (1 - B) ** d * B**s  # degree s's eigenvalues that are not among the Q
    return float(partial + m2 * special.betainc(s + 1, d, B))


def log_spectral_survival(kernel: StationaryKernel, x: float) -> float:
    """``log(1 − F(x))`` without underflow for SE (``log 2 + log Φ(−2π l x)``) and Matérn-1/2 (closed form);
    otherwise ``log`` of :func:`spectral_survival`."""
    ell, x = _lengthscale(kernel), _frequency(x)
    if isinstance(kernel, SquaredExponential):
        return math.log(2.0) + float(special.log_ndtr(-2.0 * math.pi * ell * x))
    value = spectral_survival(kernel, x)
    return math.log(value) if value > 0 else -math.inf


def log_spectral_density(kernel: StationaryKernel, xi: np.ndarray | float) -> np.ndarray:
    """``log S(ξ)`` in closed form, without the underflow of :func:`spectral_density` (SE at ``ξ >> 1/l``);
    ``-inf`` outside the band of a :class:`~tvbo_verify.kernels.Sinc` kernel."""
    ell = _lengthscale(kernel)
    xi = np.abs(np.asarray(xi, dtype=float))
    logv = math.log(kernel.variance)
    if isinstance(kernel, SquaredExponential):
        return logv + math.log(ell * math.sqrt(2 * math.pi)) - 2 * math.pi**2 * ell**2 * xi**2
    if isinstance(kernel, Matern):
        nu = kernel.nu
        log_const = (math.log(2 * math.sqrt(math.pi)) + math.lgamma(nu + 0.5) + nu * math.log(2 * nu)
                     - math.lgamma(nu) - 2 * nu * math.log(ell))
        return logv + log_const - (nu + 0.5) * np.log(2 * nu / ell**2 + 4 * math.pi**2 * xi**2)
    if isinstance(kernel, RationalQuadratic):
        a, nu = kernel.alpha, kernel.alpha - 0.5
        c = 2 * math.pi**2 * ell**2 * xi**2
        out = np.full(xi.shape, logv + float(np.log(_rq_density(a, ell, np.zeros(1))[0])))
        pos = c > 0
        z = 2 * np.sqrt(a * c[pos])
        log_pref = math.log(ell * math.sqrt(2 * math.pi)) + a * math.log(a) - math.lgamma(a) + math.log(2)
        with np.errstate(divide="ignore"):
            out[pos] = logv + log_pref + 0.5 * nu * np.log(c[pos] / a) + np.log(special.kve(nu, z)) - z
        return out
    if isinstance(kernel, Sinc):
        with np.errstate(divide="ignore"):
            return np.where(xi <= 1.0 / (2.0 * ell), logv + math.log(ell), -np.inf)
    raise ValueError(f"no closed-form spectral density for {type(kernel).__name__}")


def log_aliased_spectral_density(kernel: StationaryKernel, period: float, xi: np.ndarray | float,
                                 *, terms: int = 20000) -> np.ndarray:
    """``log[(1/c) Σ_{m∈Z} S(ξ + m/c)]``: the spectral density of the sampled sequence ``k(c l)`` (Poisson
    summation; ``bolt`` App. B and ``papers/bolt/READING.md`` §5.4, the aliasing that eq. (28) drops).

    The terms ``|m| <= terms`` are summed in log space; the rest is the midpoint (Euler–Maclaurin) tail
    ``[(1 − F)(ξ + (M + ½)/c) + (1 − F)((M + ½)/c − ξ)] / 2`` (``|ξ| <= 1/(2c)`` assumed for the tail).
    """
    if not period > 0:
        raise ValueError(f"period must be > 0, got {period!r}")
    terms = int(terms)
    if terms < 1:
        raise ValueError(f"terms must be >= 1, got {terms}")
    xi = np.asarray(xi, dtype=float)
    m = np.arange(-terms, terms + 1, dtype=float)
    logs = log_spectral_density(kernel, xi[..., None] + m / period)
    head = special.logsumexp(logs, axis=-1) - math.log(period)
    edge = (terms + 0.5) / period
    flat = np.ravel(xi)
    with np.errstate(divide="ignore"):
        tail = np.log([_upper_integral(kernel, edge + abs(x)) + _upper_integral(kernel, edge - abs(x))
                       for x in flat]).reshape(xi.shape)
    return np.logaddexp(head, tail)


def _upper_integral(kernel: StationaryKernel, x: float) -> float:
    """``∫_x^∞ S(z) dz``; for Matérn far in the tail (``x >= 10/l``) from its two leading power-law terms
    (``S(z) = A (4π²z²)^{−ν−½} (1 + b/z²)^{−ν−½}``, ``b = 2ν/(4π² l²)``; relative error ``O(b²/x⁴)``)."""
    ell = _lengthscale(kernel)
    if isinstance(kernel, Matern) and x * ell >= 10.0:
        nu = kernel.nu
        A = kernel.variance * 2 * math.sqrt(math.pi) * math.gamma(nu + 0.5) * (2 * nu) ** nu / (
            math.gamma(nu) * ell ** (2 * nu))
        b = 2 * nu / (4 * math.pi**2 * ell**2)
        lead = A * (2 * math.pi) ** (-(2 * nu + 1))
        return lead * (x ** (-2 * nu) / (2 * nu) - (nu + 0.5) * b * x ** (-2 * nu - 2) / (2 * nu + 2))
    return 0.5 * spectral_survival(kernel, x) * kernel.variance


def aliased_spectral_density(kernel: StationaryKernel, period: float, xi: np.ndarray | float,
                             *, terms: int = 20000) -> np.ndarray:
    """``(1/c) Σ_m S(ξ + m/c)`` (see :func:`log_aliased_spectral_density`)."""
    return np.exp(log_aliased_spectral_density(kernel, period, xi, terms=terms))
