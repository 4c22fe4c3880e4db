"""Sums ``Σ_{i=1}^n k_T²(i r)`` of a squared temporal correlation at any scale (``bolt`` eq. (8)).

``||u_n||² = Σ_{i≤n} k_T²(i R(n))`` needs this sum for ``n`` and ``r/l_T`` over many orders of
magnitude (``l_T`` up to ``10^30`` and beyond). In units ``x = τ / l_T`` the squared correlation
``q(x) = k_T²(l_T x) / variance²`` is one of

* SE: ``e^{-x²}``; Matérn ν = 1/2, 3/2, 5/2: ``p(s)² e^{-2s}`` with ``s = √(2ν) x`` and
  ``p = 1, 1 + s, 1 + s + s²/3``; RQ(α): ``(1 + x²/(2α))^{-2α}`` (``α > 1/4``, else the sum diverges).

Its integral ``F(X) = ∫_0^X q`` has a closed form (``erf``, regularised incomplete gamma, incomplete
beta), so no numerical quadrature (and no ``IntegrationWarning``) is needed. A partial sum is
evaluated

* directly (log-sum-exp of every term) when ``n <= DIRECT_TERMS`` — identical to the plain sum;
* otherwise by Euler–Maclaurin with the ``B_2`` and ``B_4`` terms: from ``x = 0`` when the spacing
  ``h = r / l_T <= 0.01`` (remainder ``< 4e-5 h^5 ∫|q^{(6)}|``, relative error below ``1e-13``), else
  directly up to where ``q`` is negligible or smooth on the scale ``h`` and by Euler–Maclaurin beyond.

:func:`log_tail_bound` is a rigorous upper bound on the infinite sum (``q`` decreases, so
``Σ_{i>M} q(ih) <= ∫_{Mh}^∞ q / h``); it certifies that no larger ``n`` can beat a given value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np
import sympy as sp
from scipy import special

from ..kernels import Matern, RationalQuadratic, SquaredExponential, StationaryKernel

__all__ = [
    "DIRECT_TERMS", "SMOOTH_SPACING", "SquaredCorrelation", "squared_correlation", "log_partial_sum",
    "log_tail_bound", "relaxed_objective",
]

#: Partial sums with at most this many terms are summed term by term.
DIRECT_TERMS = 4096
#: Spacing ``h = r / l_T`` below which Euler–Maclaurin starts at ``x = 0``.
SMOOTH_SPACING = 0.01
_X = sp.Symbol("x", nonnegative=True)


@dataclass(frozen=True)
class SquaredCorrelation:
    """``q(x) = k_T²(l_T x) / variance²`` of one temporal kernel, with its integral and derivatives."""

    name: str
    log_q: Callable[[np.ndarray], np.ndarray]
    integral: Callable[[float], float]  # F(X) = ∫_0^X q
    integral_beyond: Callable[[float], float]  # ∫_X^∞ q
    derivative_1: Callable[[float], float]
    derivative_3: Callable[[float], float]
    negligible_from: float  # beyond this x the terms are negligible or smooth on any spacing

    @property
    def total(self) -> float:
        """``∫_0^∞ q``."""
        return self.integral_beyond(0.0)

    def q(self, x: float) -> float:
        return math.exp(float(self.log_q(np.asarray([x]))[0]))


def _derivatives(expr: sp.Expr) -> tuple[Callable[[float], float], Callable[[float], float]]:
    d1 = sp.lambdify(_X, sp.diff(expr, _X, 1), "math")
    d3 = sp.lambdify(_X, sp.diff(expr, _X, 3), "math")

    def safe(f: Callable[[float], float]) -> Callable[[float], float]:
        def call(x: float) -> float:
            try:
                return float(f(float(x)))
            except OverflowError:  # e^{-huge} underflows to 0, polynomial factors may overflow first
                return 0.0
        return call

    return safe(d1), safe(d3)


@lru_cache(maxsize=16)
def _matern(nu: float) -> SquaredCorrelation:
    c = math.sqrt(2.0 * nu)
    p = {0.5: [1.0], 1.5: [1.0, 1.0], 2.5: [1.0, 1.0, 1.0 / 3.0]}[nu]
    a = np.polynomial.polynomial.polymul(p, p)  # coefficients of p(s)^2, all >= 0
    weights = np.array([a[k] * math.factorial(k) / 2.0 ** (k + 1) for k in range(a.size)])
    orders = np.arange(1, a.size + 1, dtype=float)

    def log_q(x: np.ndarray) -> np.ndarray:
        s = c * np.minimum(np.asarray(x, dtype=float), 1e100)  # q(1e100) = 0 in float64 already
        return 2.0 * np.log(np.polynomial.polynomial.polyval(s, p)) - 2.0 * s

    def integral(X: float) -> float:
        return float(np.sum(weights * special.gammainc(orders, 2.0 * c * X)) / c)

    def beyond(X: float) -> float:
        return float(np.sum(weights * special.gammaincc(orders, 2.0 * c * X)) / c)

    s = c * _X
    poly = sum(sp.Rational(coef).limit_denominator(10) * s**k for k, coef in enumerate(p))
    d1, d3 = _derivatives(poly**2 * sp.exp(-2 * s))
    return SquaredCorrelation(f"matern{nu}", log_q, integral, beyond, d1, d3, negligible_from=30.0)


@lru_cache(maxsize=1)
def _squared_exponential() -> SquaredCorrelation:
    root_pi = math.sqrt(math.pi) / 2.0
    d1, d3 = _derivatives(sp.exp(-(_X**2)))
    return SquaredCorrelation(
        "se", lambda x: -np.square(np.asarray(x, dtype=float)), lambda X: root_pi * math.erf(X),
        lambda X: root_pi * math.erfc(X), d1, d3, negligible_from=8.0)


@lru_cache(maxsize=16)
def _rational_quadratic(alpha: float) -> SquaredCorrelation:
    m = 2.0 * alpha  # q = (1 + z^2)^{-m} with x = sqrt(2 alpha) z
    if not m > 0.5:
        raise ValueError(f"the RQ kernel needs alpha > 1/4 for a finite sum of k_T^2, got alpha = {alpha!r}")
    scale = math.sqrt(2.0 * alpha) * 0.5 * special.beta(0.5, m - 0.5)

    def t_of(X: float) -> float:
        z2 = X * X / (2.0 * alpha)
        return z2 / (1.0 + z2) if math.isfinite(z2) else 1.0

    def integral(X: float) -> float:
        z2 = X * X / (2.0 * alpha)
        if z2 < 1e-10:  # t = z²/(1+z²) would lose z² to rounding: ∫_0^Z (1+z²)^{-m} = Z (1 - m Z²/3 + O(Z⁴))
            return X * (1.0 - m * z2 / 3.0)
        return scale * float(special.betainc(0.5, m - 0.5, t_of(X)))

    d1, d3 = _derivatives((1 + _X**2 / (2 * sp.Float(alpha))) ** (-2 * sp.Float(alpha)))
    return SquaredCorrelation(
        f"rq{alpha}", lambda x: -m * np.log1p(np.square(np.minimum(np.asarray(x, dtype=float), 1e150)) / (2.0 * alpha)),
        integral,
        lambda X: scale * float(special.betaincc(0.5, m - 0.5, t_of(X))), d1, d3, negligible_from=50.0)


def squared_correlation(kernel: StationaryKernel) -> SquaredCorrelation:
    """The :class:`SquaredCorrelation` of a temporal kernel (SE, Matérn 1/2, 3/2, 5/2 or RQ)."""
    if isinstance(kernel, SquaredExponential):
        return _squared_exponential()
    if isinstance(kernel, Matern):
        return _matern(float(kernel.nu))
    if isinstance(kernel, RationalQuadratic):
        return _rational_quadratic(float(kernel.alpha))
    raise ValueError(f"temporal kernel must be SE, Matern or RQ for n*, got {type(kernel).__name__}")


def _log_direct(profile: SquaredCorrelation, n: int, h: float, start: int = 1) -> float:
    with np.errstate(over="ignore", under="ignore"):  # lags beyond 1e308 are infinitely far: q = 0
        return float(special.logsumexp(profile.log_q(np.arange(start, n + 1, dtype=float) * h)))


def _euler_maclaurin(profile: SquaredCorrelation, m: int, n: int, h: float) -> float:
    """``Σ_{i=m+1}^{n} q(i h)`` by Euler–Maclaurin with the ``B_2`` and ``B_4`` corrections."""
    a, b = m * h, n * h
    if a >= profile.negligible_from:
        area = (profile.integral_beyond(a) - profile.integral_beyond(b)) / h
    else:
        area = (profile.integral(b) - profile.integral(a)) / h
    ends = 0.5 * (profile.q(b) - profile.q(a))
    first = h / 12.0 * (profile.derivative_1(b) - profile.derivative_1(a))
    # the derivative first: for a huge spacing h it vanishes, and h**3 alone would overflow
    third = -(profile.derivative_3(b) - profile.derivative_3(a)) * h / 720.0 * h * h
    return area + ends + first + third


def log_partial_sum(profile: SquaredCorrelation, n: int, h: float) -> float:
    """``log Σ_{i=1}^n q(i h)`` (``-inf`` for ``n = 0``)."""
    if n <= 0:
        return -math.inf
    if n * h <= 1e-18:  # q(0) = 1 and |q'| <= 5 for every profile: each term is 1 to float precision (and
        return math.log(n)  # the closed-form integrals lose a subnormal spacing h to 0)
    if n <= DIRECT_TERMS:
        return _log_direct(profile, n, h)
    if h <= SMOOTH_SPACING:
        return math.log(_euler_maclaurin(profile, 0, n, h))
    m = int(min(n, max(math.ceil(profile.negligible_from / h), 256), 20 * DIRECT_TERMS))
    head = _log_direct(profile, m, h)
    if m == n:
        return head
    tail = _euler_maclaurin(profile, m, n, h)
    return float(np.logaddexp(head, math.log(tail))) if tail > 0 else head


def log_tail_bound(profile: SquaredCorrelation, h: float, head_terms: int = 256) -> float:
    """Rigorous ``log`` of an upper bound on ``Σ_{i>=1} q(i h)`` (partial sum + integral of the rest)."""
    if h <= 0.0:
        return math.inf
    head = _log_direct(profile, head_terms, h)
    beyond = profile.integral_beyond(head_terms * h)
    return float(np.logaddexp(head, math.log(beyond) - math.log(h))) if beyond > 0 else head


def relaxed_objective(profile: SquaredCorrelation, x: float, h: float) -> float:
    """``∫_1^x q(s h) ds = (F(x h) - F(h)) / h`` (``bolt`` §3.4, relaxed ``||u_x||²`` in units of variance²)."""
    if x <= 1.0:
        return 0.0
    if h >= profile.negligible_from:
        return (profile.integral_beyond(h) - profile.integral_beyond(x * h)) / h
    return (profile.integral(x * h) - profile.integral(h)) / h
