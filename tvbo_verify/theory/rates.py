"""Rates and bounds as functions of ``T`` and the problem parameters.

* ``tvgpucb``: the block bound on ``γ̃_T`` (eq. (21)/(46)) as printed and corrected (§3.3), its minimum
  over ``Ñ``, Theorem 4.3's regret bound (20) and Theorem 4.2's (17)–(18) with the safe constants (§3.2).
* ``wgpucb``: Theorem 4 (explicit App. C.5 form), the five terms of Corollary 5 (Lemmas 22–23),
  Theorem 6 (universal), Theorem 7 (weight-dependent, ``1-γ²`` for ``γ̄``, ``1-γ`` for
  ``γ̃``/``γ̌``, papers/wgpucb/READING.md §wgpucb:theorem-7), Corollary 8 (polynomial decay printed and with
  the ``1/(β_p-1)`` factor, papers/wgpucb/READING.md §5.2; exponential decay).
* :data:`REGRET_BOUNDS`: every regret bound of the five papers as an order-level curve ``g(T)``
  (constants unknown; for overlays on regret plots), with its reference and exponent.
* :data:`TABLE_1`, :data:`TABLE_2`, :data:`CONSOLIDATED_REGIMES`: the regime tables of ``wsparq`` §3 as
  data, and :func:`query_regime` to place a budget ``N_T`` in Table 2's columns.

γ_T rates come from :func:`tvbo_verify.information_rates.gamma_rate_bound` (not re-implemented here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..information_rates import gamma_rate_bound
from ..validation import (
    as_vector,
    check_choice,
    check_int,
    check_nonnegative,
    check_open_interval,
    check_positive,
)

__all__ = [
    "BLOCK_READINGS", "block_bound", "block_bound_minimum", "gamma_rate", "c1_constant", "tvgpucb_regret_bound",
    "rgpucb_regret_bound", "eigen_tail", "wgpucb_theorem6", "wgpucb_theorem7", "wgpucb_corollary8_polynomial",
    "wgpucb_corollary8_exponential", "wgpucb_theorem4_bound", "wgpucb_corollary5_terms", "RegretBound",
    "REGRET_BOUNDS", "regret_bound", "TABLE_1", "TABLE_2", "CONSOLIDATED_REGIMES", "QueryRegime", "query_regime",
]

BLOCK_READINGS: tuple[str, ...] = ("printed", "corrected", "corrected-linear")


# --------------------------------------------------------------------------------------------------
# tvgpucb (21)/(46)
# --------------------------------------------------------------------------------------------------
def block_bound(
    horizon: int,
    block: int | np.ndarray,
    epsilon: float,
    gamma_block: float | np.ndarray,
    *,
    noise_var: float = 1.0,
    reading: str = "printed",
) -> np.ndarray:
    """Upper bound on ``γ̃_T`` by blocks of length ``Ñ`` (``tvgpucb`` Theorem 4.3, eq. (21)/(46)).

    * ``"printed"``: ``(T/Ñ + 1)(γ_Ñ + Ñ³ε)`` — false for small ``σ²`` (papers/tvgpucb/READING.md §5.2);
    * ``"corrected"``: ``(T/Ñ + 1)(γ_Ñ + (Ñ/2) log(1 + σ^{-2} Ñ^{3/2} ε))`` (§3.3);
    * ``"corrected-linear"``: ``(T/Ñ + 1)(γ_Ñ + σ^{-2} Ñ^{5/2} ε / 2)``.
    ``γ_Ñ`` uses the ``½ log det`` convention of (12)–(13).
    """
    T = check_int("horizon", horizon, minimum=1)
    e = check_nonnegative("epsilon", epsilon)
    if e > 1:
        raise ValueError(f"epsilon must be in [0, 1], got {epsilon!r}")
    s2 = check_positive("noise_var", noise_var)
    check_choice("reading", reading, BLOCK_READINGS)
    N = np.asarray(block, dtype=float)
    if np.any(N < 1) or np.any(N > T):
        raise ValueError(f"block must be in [1, T = {T}]")
    g = np.asarray(gamma_block, dtype=float)
    if reading == "printed":
        extra = N**3 * e
    elif reading == "corrected":
        extra = N / 2.0 * np.log1p(N**1.5 * e / s2)
    else:
        extra = N**2.5 * e / (2.0 * s2)
    return (T / N + 1.0) * (g + extra)


def block_bound_minimum(
    horizon: int,
    epsilon: float,
    gamma_of_block: Callable[[np.ndarray], np.ndarray],
    *,
    noise_var: float = 1.0,
    reading: str = "printed",
    chunk: int = 2**20,
) -> tuple[int, float]:
    """``min_{Ñ ∈ {1..T}}`` of :func:`block_bound` (the smallest minimiser); ``gamma_of_block`` maps an array of
    ``Ñ`` to ``γ_Ñ``. Block lengths are scanned ``chunk`` at a time (memory independent of ``T``)."""
    T = check_int("horizon", horizon, minimum=1)
    best_block, best_value = 1, math.inf
    for start in range(1, T + 1, chunk):
        N = np.arange(start, min(start + chunk, T + 1), dtype=float)
        vals = block_bound(T, N, epsilon, gamma_of_block(N), noise_var=noise_var, reading=reading)
        i = int(np.argmin(vals))
        if vals[i] < best_value:
            best_block, best_value = int(N[i]), float(vals[i])
    return best_block, best_value


def gamma_rate(kernel_name: str, n: int, d: int, nu: float | None = None, source: str = "srinivas") -> float:
    """Order-level ``γ_n`` (via :func:`tvbo_verify.information.gamma_rate_bound`); ``γ_1`` uses ``log 2``."""
    n = check_int("n", n, minimum=1)
    return gamma_rate_bound(kernel_name, max(n, 2), d, nu=nu, source=source)


def c1_constant(noise_var: float) -> float:
    """``C₁ = 8 / log(1 + σ^{-2})`` (``tvgpucb`` Theorems 4.2–4.3)."""
    return 8.0 / math.log1p(1.0 / check_positive("noise_var", noise_var))


def tvgpucb_regret_bound(horizon: int, beta_T: float, gamma_tilde_T: float, noise_var: float) -> float:
    """``R_T <= sqrt(C₁ T β_T γ̃_T) + 2`` (``tvgpucb`` eq. (20))."""
    T = check_int("horizon", horizon, minimum=1)
    return (
        math.sqrt(
            c1_constant(noise_var)
            * T
            * check_nonnegative("beta_T", beta_T)
            * check_nonnegative("gamma_tilde_T", gamma_tilde_T)
        )
        + 2.0
    )


def rgpucb_regret_bound(
    horizon: int,
    block: int,
    epsilon: float,
    beta_T: float,
    gamma_block: float,
    noise_var: float,
    *,
    a0: float = 1.0,
    b0: float = 1.0,
    delta: float = 0.1,
    reading: str = "printed",
) -> float:
    """``tvgpucb`` Theorem 4.2, eqs. (17)–(18) (``"printed"``) or the safe version of §3.2 (``"safe"``:
    factor 2 on both ψ terms and ``L̃_T = 2 max(b₀, √2σ) sqrt(log(2(1+a₀)π²T²/(3δ)))``)."""
    T = check_int("horizon", horizon, minimum=1)
    N = check_int("block", block, minimum=1)
    e = check_nonnegative("epsilon", epsilon)
    s2 = check_positive("noise_var", noise_var)
    b = check_nonnegative("beta_T", beta_T)
    check_open_interval("delta", delta, 0.0, 1.0)
    check_choice("reading", reading, ("printed", "safe"))
    log_term = math.sqrt(math.log(2.0 * (1.0 + a0) * math.pi**2 * T**2 / (3.0 * delta)))
    first = math.sqrt(c1_constant(s2) * T * b * (T / N + 1.0) * check_nonnegative("gamma_block", gamma_block)) + 2.0
    inv, inv2 = 1.0 / s2, 1.0 / s2**2
    if reading == "printed":
        psi = math.sqrt(b * (3 * inv + inv2) * N**3 * e) + (inv + inv2) * N**3 * e * (2.0 + b0) * log_term
    else:
        lt = 2.0 * max(b0, math.sqrt(2.0 * s2)) * log_term
        psi = 2.0 * math.sqrt(b * (3 * inv + inv2) * N**3 * e) + 2.0 * (inv + inv2) * N**3 * e * lt
    return first + T * psi


# --------------------------------------------------------------------------------------------------
# wgpucb Theorems 6-7, Corollary 8
# --------------------------------------------------------------------------------------------------
def eigen_tail(eigenvalues: np.ndarray, psi: float, N: int) -> float:
    """``δ_N = ψ² Σ_{m>N} c_m`` (``wgpucb`` Assumption 1) for decreasing Mercer eigenvalues ``c_m``."""
    c = np.sort(as_vector("eigenvalues", eigenvalues))[::-1]
    N = check_int("N", N, minimum=0)
    return float(check_positive("psi", psi) ** 2 * np.sum(c[N:]))


def wgpucb_theorem6(horizon: int, N: int, delta_N: float, *, lam: float = 1.0, kbar: float = 1.0) -> float:
    """``γ̇_T <= (N/2) log(1 + k̄T/(λN)) + T δ_N / (2λ)`` (``wgpucb`` Theorem 6)."""
    T = check_int("horizon", horizon, minimum=1)
    N = check_int("N", N, minimum=1)
    lam = check_positive("lam", lam)
    return N / 2.0 * math.log1p(check_positive("kbar", kbar) * T / (lam * N)) + T * check_nonnegative(
        "delta_N", delta_N
    ) / (2.0 * lam)


def wgpucb_theorem7(
    discount: float, N: int, delta_N: float, *, lam: float = 1.0, kbar: float = 1.0, kind: str = "bar"
) -> float:
    """``γ̄_T <= (N/2) log(1 + k̄/(λN(1-γ²))) + δ_N/(2λ(1-γ²))`` (``wgpucb`` Theorem 7); ``kind="tilde"``
    uses ``1-γ`` (single-weighted gain, papers/wgpucb/READING.md §wgpucb:theorem-7). Independent of ``T``."""
    g = check_open_interval("discount", discount, 0.0, 1.0)
    N = check_int("N", N, minimum=1)
    lam = check_positive("lam", lam)
    check_choice("kind", kind, ("bar", "tilde"))
    q = 1.0 - (g * g if kind == "bar" else g)
    return N / 2.0 * math.log1p(check_positive("kbar", kbar) / (lam * N * q)) + check_nonnegative(
        "delta_N", delta_N
    ) / (2.0 * lam * q)


def wgpucb_corollary8_polynomial(
    discount: float,
    C_p: float,
    beta_p: float,
    psi: float,
    *,
    lam: float = 1.0,
    kbar: float = 1.0,
    reading: str = "printed",
) -> float:
    """``wgpucb`` Corollary 8 (1), polynomial decay ``c_m <= C_p m^{-β_p}``. ``"printed"`` as stated;
    ``"corrected"`` replaces ``C_p`` by ``C_p/(β_p-1)`` in the tail bound (papers/wgpucb/READING.md §5.2), which
    needs ``β_p > 1``."""
    g = check_open_interval("discount", discount, 0.0, 1.0)
    bp = check_positive("beta_p", beta_p)
    check_choice("reading", reading, ("printed", "corrected"))
    cp = check_positive("C_p", C_p)
    if reading == "corrected":
        if bp <= 1:
            raise ValueError(f"beta_p must be > 1 for the corrected tail bound, got {beta_p!r}")
        cp = cp / (bp - 1.0)
    q = 1.0 - g * g
    lg = math.log1p(check_positive("kbar", kbar) / (check_positive("lam", lam) * q))
    return ((cp * check_positive("psi", psi) ** 2 / (lam * q)) ** (1.0 / bp) * lg ** (-1.0 / bp) + 1.0) * lg


def wgpucb_corollary8_exponential(
    discount: float, C_e1: float, C_e2: float, psi: float, *, lam: float = 1.0, kbar: float = 1.0
) -> float:
    """``wgpucb`` Corollary 8 (2), ``c_m <= C_{e,1} exp(-C_{e,2} m)``:
    ``((log(1/(1-γ²)) + log(C_{e,1}ψ²/(λC_{e,2})))/C_{e,2} + 1) log(1 + k̄/(λ(1-γ²)))``."""
    g = check_open_interval("discount", discount, 0.0, 1.0)
    ce2 = check_positive("C_e2", C_e2)
    lam = check_positive("lam", lam)
    q = 1.0 - g * g
    cb = math.log(check_positive("C_e1", C_e1) * check_positive("psi", psi) ** 2 / (lam * ce2))
    return ((math.log(1.0 / q) + cb) / ce2 + 1.0) * math.log1p(check_positive("kbar", kbar) / (lam * q))


def wgpucb_theorem4_bound(
    horizon: int,
    beta_T: float,
    gamma_check_T: float,
    discount: float,
    c: int,
    m: int,
    eps_sigma: float,
    *,
    B: float = 1.0,
    B_T: float = 1.0,
    lam: float = 1.0,
) -> float:
    """Explicit ``wgpucb`` Theorem 4 bound (App. C.5), with ``√ε_m/(1-γ)`` replaced by ``eps_sigma``
    (the explicit Lemma 15 quantity, papers/wgpucb/READING.md §wgpucb:theorem-4):

    ``2β_T sqrt(4λTγ̌_T + 2λmT² log(1/γ)) + (2/λ) c^{3/2} B_T sqrt(4λγ̌_T + 2λmc log(1/γ))
    + 4Bγ^c T/(λ(1-γ)) + (2/λ) B_T c² eps_sigma + 2β_T T eps_sigma``."""
    T = check_int("horizon", horizon, minimum=1)
    g = check_open_interval("discount", discount, 0.0, 1.0)
    c = check_int("c", c, minimum=1)
    m = check_int("m", m, minimum=1)
    lam = check_positive("lam", lam)
    bt = check_nonnegative("beta_T", beta_T)
    gc = check_nonnegative("gamma_check_T", gamma_check_T)
    e = check_nonnegative("eps_sigma", eps_sigma)
    lg = math.log(1.0 / g)
    return (
        2 * bt * math.sqrt(4 * lam * T * gc + 2 * lam * m * T * T * lg)
        + 2 / lam * c**1.5 * check_nonnegative("B_T", B_T) * math.sqrt(4 * lam * gc + 2 * lam * m * c * lg)
        + 4 * check_nonnegative("B", B) * g**c * T / (lam * (1 - g))
        + 2 / lam * B_T * c * c * e
        + 2 * bt * T * e
    )


def wgpucb_corollary5_terms(
    horizon: float, gamma_dot: float, variation_budget: float, *, known: bool = True
) -> np.ndarray:
    """The five terms of Theorem 4 under Corollary 5's choices, log factors and ``m`` dropped
    (``wgpucb`` Lemmas 22–23, table under Corollary 5), with ``X = 1 - γ``:
    ``γ̇ T X^{1/2}``, ``γ̇^{1/2} B_T X^{-3/2}``, ``X^{-1}``, ``γ̇^{-3/4} B_T T^{-3/2} X^{-3}``,
    ``γ̇^{-1/4} T^{-1/2} X^{-1}``; ``X = γ̇^{-1/4} B_T^{1/2} T^{-1/2}`` (known) or ``γ̇^{-1/4} T^{-1/2}``."""
    T = check_positive("horizon", horizon)
    g = check_positive("gamma_dot", gamma_dot)
    bt = check_positive("variation_budget", variation_budget)
    X = g**-0.25 * (math.sqrt(bt) if known else 1.0) * T**-0.5
    return np.array(
        [
            g * T * math.sqrt(X),
            math.sqrt(g) * bt * X**-1.5,
            1.0 / X,
            g**-0.75 * bt * T**-1.5 * X**-3,
            g**-0.25 * T**-0.5 / X,
        ]
    )


# --------------------------------------------------------------------------------------------------
# Regret bounds as functions of T (orders; constants unknown)
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RegretBound:
    """An order-level regret bound ``g(T; params)`` for overlaying on regret curves."""

    name: str
    ref: str
    formula: str
    kind: str  # "upper" or "lower"
    params: tuple[str, ...]
    func: Callable[..., np.ndarray]
    exponent: Callable[..., float]

    def __call__(self, T: np.ndarray | float, **params: float) -> np.ndarray:
        missing = [p for p in self.params if p not in params]
        if missing:
            raise ValueError(f"regret bound {self.name} needs parameter(s) {', '.join(missing)}")
        T_arr = np.asarray(T, dtype=float)
        if np.any(T_arr < 2):
            raise ValueError("T must be >= 2 for regret-bound curves (log T > 0)")
        return np.asarray(self.func(T_arr, **{k: float(v) for k, v in params.items() if k in self.params}), dtype=float)

    def exponent_of_T(self, **params: float) -> float:
        """Power of ``T`` (log factors excluded)."""
        return float(self.exponent(**{k: float(v) for k, v in params.items() if k in self.params}))


def _lg(T: np.ndarray) -> np.ndarray:
    return np.log(T)


REGRET_BOUNDS: dict[str, RegretBound] = {
    b.name: b
    for b in (
        RegretBound(
            "wsparq:prop-2.2",
            "wsparq Prop. 2.2 eq. (13)",
            "sqrt(d^2 T^(3a+1) log^(2(d+1)) T)",
            "upper",
            ("alpha", "d"),
            lambda T, alpha, d: np.sqrt(d * d * T ** (3 * alpha + 1) * _lg(T) ** (2 * (d + 1))),
            lambda alpha, d: (3 * alpha + 1) / 2,
        ),
        RegretBound(
            "wsparq:gp-ucb-derived",
            "wsparq §2 [P2.2] derived",
            "T^((1+a)/2) log^(d+1) T",
            "upper",
            ("alpha", "d"),
            lambda T, alpha, d: T ** ((1 + alpha) / 2) * _lg(T) ** (d + 1),
            lambda alpha, d: (1 + alpha) / 2,
        ),
        RegretBound(
            "wsparq:prop-2.6",
            "wsparq Prop. 2.6 eqs. (17)-(18)",
            "sqrt(T^(a+1)) if a < 1 else T",
            "lower",
            ("alpha",),
            lambda T, alpha: T ** ((alpha + 1) / 2) if alpha < 1 else T,
            lambda alpha: (alpha + 1) / 2 if alpha < 1 else 1.0,
        ),
        RegretBound(
            "wsparq:thm-3.3",
            "wsparq Thm 3.3 eq. (23)",
            "sqrt((log(1/delta) + d log^(d+1)(d log T)) T d log^(d+1) T)",
            "upper",
            ("d", "delta"),
            lambda T, d, delta: np.sqrt(
                (math.log(1 / delta) + d * np.log(d * _lg(T)).clip(min=0) ** (d + 1)) * T * d * _lg(T) ** (d + 1)
            ),
            lambda d, delta: 0.5,
        ),
        RegretBound(
            "wsparq:thm-3.10",
            "wsparq Thm 3.10, square-root reading (Table 2)",
            "sqrt(d^2 T^(3at+1) log^(2(d+1)) T)",
            "upper",
            ("alpha_tilde", "d"),
            lambda T, alpha_tilde, d: np.sqrt(d * d * T ** (3 * alpha_tilde + 1) * _lg(T) ** (2 * (d + 1))),
            lambda alpha_tilde, d: (3 * alpha_tilde + 1) / 2,
        ),
        RegretBound(
            "wsparq:thm-3.10-printed",
            "wsparq Thm 3.10 eq. (34) as printed (no root)",
            "T^(2at+1) d log^(d+1) T (log(1/delta) + d T^at log^(d+1) T)",
            "upper",
            ("alpha_tilde", "d", "delta"),
            lambda T, alpha_tilde, d, delta: (
                T ** (2 * alpha_tilde + 1)
                * d
                * _lg(T) ** (d + 1)
                * (math.log(1 / delta) + d * T**alpha_tilde * _lg(T) ** (d + 1))
            ),
            lambda alpha_tilde, d, delta: 3 * alpha_tilde + 1,
        ),
        RegretBound(
            "sparq:thm-3.1",
            "sparq Thm 3.1 eq. (19)",
            "sqrt(T d log^(d+5) T) sqrt(log(1/delta) + d log^(d+3)(d log T))",
            "upper",
            ("d", "delta"),
            lambda T, d, delta: (
                np.sqrt(T * d * _lg(T) ** (d + 5))
                * np.sqrt(math.log(1 / delta) + d * np.log(d * _lg(T)).clip(min=0) ** (d + 3))
            ),
            lambda d, delta: 0.5,
        ),
        RegretBound(
            "tvgpucb:cor-4.1-r-se",
            "tvgpucb Cor. 4.1 (R-GP-UCB, SE)",
            "max(sqrt T, T eps^(1/8))",
            "upper",
            ("epsilon",),
            lambda T, epsilon: np.maximum(np.sqrt(T), T * epsilon ** (1 / 8)),
            lambda epsilon: 1.0,
        ),
        RegretBound(
            "tvgpucb:cor-4.1-tv-se",
            "tvgpucb Cor. 4.1 (TV-GP-UCB, SE)",
            "max(sqrt T, T eps^(1/6))",
            "upper",
            ("epsilon",),
            lambda T, epsilon: np.maximum(np.sqrt(T), T * epsilon ** (1 / 6)),
            lambda epsilon: 1.0,
        ),
        RegretBound(
            "tvgpucb:cor-4.1-r-matern",
            "tvgpucb Cor. 4.1 (R-GP-UCB, Matern)",
            "max(T^((1+c)/2), T eps^((1-c)/(2(4-c))))",
            "upper",
            ("epsilon", "nu", "d"),
            lambda T, epsilon, nu, d: (
                lambda c: np.maximum(T ** ((1 + c) / 2), T * epsilon ** ((1 - c) / (2 * (4 - c))))
            )(d * (d + 1) / (2 * nu + d * (d + 1))),
            lambda epsilon, nu, d: 1.0,
        ),
        RegretBound(
            "tvgpucb:cor-4.1-tv-matern",
            "tvgpucb Cor. 4.1 (TV-GP-UCB, Matern)",
            "max(T^((1+c)/2), T eps^((1-c)/(2(3-c))))",
            "upper",
            ("epsilon", "nu", "d"),
            lambda T, epsilon, nu, d: (
                lambda c: np.maximum(T ** ((1 + c) / 2), T * epsilon ** ((1 - c) / (2 * (3 - c))))
            )(d * (d + 1) / (2 * nu + d * (d + 1))),
            lambda epsilon, nu, d: 1.0,
        ),
        RegretBound(
            "tvgpucb:thm-4.1",
            "tvgpucb Thm 4.1",
            "T eps",
            "lower",
            ("epsilon",),
            lambda T, epsilon: T * epsilon,
            lambda epsilon: 1.0,
        ),
        RegretBound(
            "wgpucb:cor-5-known",
            "wgpucb Cor. 5 (known B_T)",
            "gammadot^(7/8) B_T^(1/4) T^(3/4)",
            "upper",
            ("gamma_dot", "B_T"),
            lambda T, gamma_dot, B_T: gamma_dot**0.875 * B_T**0.25 * T**0.75,
            lambda gamma_dot, B_T: 0.75,
        ),
        RegretBound(
            "wgpucb:cor-5-unknown",
            "wgpucb Cor. 5 (unknown B_T)",
            "gammadot^(7/8) B_T T^(3/4)",
            "upper",
            ("gamma_dot", "B_T"),
            lambda T, gamma_dot, B_T: gamma_dot**0.875 * B_T * T**0.75,
            lambda gamma_dot, B_T: 0.75,
        ),
        RegretBound(
            "bolt:thm-3.6",
            "bolt Thm 3.6",
            "eps_c T",
            "lower",
            ("epsilon_c",),
            lambda T, epsilon_c: epsilon_c * T,
            lambda epsilon_c: 1.0,
        ),
    )
}


def regret_bound(name: str) -> RegretBound:
    """One entry of :data:`REGRET_BOUNDS` by name."""
    check_choice("bound", name, tuple(REGRET_BOUNDS))
    return REGRET_BOUNDS[name]


# --------------------------------------------------------------------------------------------------
# Regime tables of wsparq §3 as data
# --------------------------------------------------------------------------------------------------
TABLE_1: tuple[dict, ...] = (
    {
        "regime": "alpha >= 1",
        "upper": "O(sqrt(d^2 T^(3a+1) log^(2(d+1)) T)) (Prop. 2.2)",
        "upper_vs_T": ">> T",
        "lower": "Omega(T) (Prop. 2.6)",
    },
    {
        "regime": "1/3 <= alpha < 1",
        "upper": "O(sqrt(d^2 T^(3a+1) log^(2(d+1)) T)) (Prop. 2.2)",
        "upper_vs_T": ">= T",
        "lower": "Omega(sqrt(T^(a+1))) [15]",
    },
    {
        "regime": "alpha < 1/3",
        "upper": "O(sqrt(d^2 T^(3a+1) log^(2(d+1)) T)) (Prop. 2.2)",
        "upper_vs_T": "o(T)",
        "lower": "Omega(sqrt(T)) [27] (Prop. 2.6 gives the stronger Omega(sqrt(T^(a+1))))",
    },
)

TABLE_2: tuple[dict, ...] = (
    {"block": "lower", "regime": "alpha > 1", "a": "Omega(T) (Thm 5.3)", "b": "open question", "c": "open question"},
    {
        "block": "lower",
        "regime": "1/3 <= alpha <= 1",
        "a": "Omega(sqrt(T^(a+1))) [15]",
        "b": "Omega(sqrt(T^(a+1))) [15]",
        "c": "Omega(sqrt(T)) [27]",
    },
    {
        "block": "upper (W-SparQ)",
        "regime": "alpha > 1",
        "a": "sublinearity unachievable (Thm 5.3)",
        "b": "open question",
        "c": "O(sqrt(d^2 T^(3at+1) log^(2(d+1)) T)) (Thm 3.10)",
    },
    {
        "block": "upper (W-SparQ)",
        "regime": "1/3 <= alpha <= 1",
        "a": "open question",
        "b": "open question",
        "c": "O(sqrt(d^2 T^(3at+1) log^(2(d+1)) T)) (Thm 3.10)",
    },
)
"""``wsparq`` Table 2 in the catalog's reading (§3.2): columns (a) ``N_T = O(T^{α/(α+1)})``, (b) between,
(c) ``N_T >= C T^{1-α̃/α} log^d T``; the Thm 3.10 cell spans both rows of column (c)."""

CONSOLIDATED_REGIMES: tuple[dict, ...] = (
    {"method": "GP-UCB", "alpha": "0", "regret": "O(sqrt(d^2 T log^(2(d+1)) T))", "queries": "0"},
    {"method": "GP-UCB", "alpha": "0 < alpha < 1/3", "regret": "O(T^((3a+1)/2) polylog), sublinear", "queries": "0"},
    {
        "method": "GP-UCB",
        "alpha": "1/3 <= alpha",
        "regret": "bound >= T (vacuous); derived O(T^((1+a)/2) polylog) for alpha < 1",
        "queries": "0",
    },
    {"method": "bandit lower bound", "alpha": "0 <= alpha < 1", "regret": "Omega(T^((a+1)/2))", "queries": "0"},
    {"method": "bandit lower bound", "alpha": "alpha >= 1", "regret": "Omega(T)", "queries": "0"},
    {"method": "SparQ", "alpha": "any", "regret": "O~(sqrt T)", "queries": "O(T log^d T)"},
    {
        "method": "W-SparQ",
        "alpha": "alpha >= 1/3",
        "regret": "O(T^((3at+1)/2) polylog)",
        "queries": "O(T^(1-at/a) log^d T); N_T/T = O(T^(-at/a) log^d T)",
    },
    {
        "method": "necessary N_T",
        "alpha": "alpha > 1",
        "regret": "Omega(T) if N_T = O(T^(a/(a+1))) (Thm 5.3)",
        "queries": "sufficient: O(T^(1-at/a) log^d T) (W-SparQ)",
    },
    {
        "method": "necessary N_T",
        "alpha": "alpha <= 1",
        "regret": "none proven (Prop. 5.1, Thm 5.3 need alpha > 1)",
        "queries": "GP-UCB with N_T = 0 is no-regret for alpha < 1/3",
    },
)


@dataclass(frozen=True)
class QueryRegime:
    """Where a query budget ``N_T`` falls in ``wsparq`` Table 2 and what the theory says about it."""

    budget: float
    threshold: float
    sufficient_budget: float
    column: str
    can_be_sufficient: bool | None
    verdict: str


def query_regime(
    budget: float, horizon: int, alpha: float, alpha_tilde: float, sufficient_budget: float
) -> QueryRegime:
    """Place ``N_T = budget`` relative to ``T^{α/(α+1)}`` (Thm 5.3) and a W-SparQ budget known to suffice
    (Thm 3.10, ``sufficient_budget``; constants of both are unknown, the comparison is with constant 1).

    ``can_be_sufficient``: ``False`` when Theorem 5.3 rules the budget out (``α > 1`` and
    ``N_T <= T^{α/(α+1)}``), ``True`` when it reaches the W-SparQ budget, ``None`` in between (open question).
    """
    N_T = check_nonnegative("budget", budget)
    T = check_int("horizon", horizon, minimum=2)
    a = check_positive("alpha", alpha)
    check_open_interval("alpha_tilde", alpha_tilde, 0.0, 1.0 / 3.0, label="(0, 1/3)")
    thr = float(T) ** (a / (a + 1.0))
    if a < 1.0 / 3.0:
        return QueryRegime(
            N_T,
            thr,
            sufficient_budget,
            "-",
            True,
            "alpha < 1/3: GP-UCB without queries is no-regret (Prop. 2.2); any budget suffices",
        )
    if N_T >= sufficient_budget:
        return QueryRegime(
            N_T,
            thr,
            sufficient_budget,
            "c",
            True,
            "budget reaches the W-SparQ budget: sublinear regret (Thm 3.10, up to constants)",
        )
    if a > 1 and N_T <= thr:
        return QueryRegime(
            N_T,
            thr,
            sufficient_budget,
            "a",
            False,
            "alpha > 1 and N_T <= T^(alpha/(alpha+1)): no algorithm is no-regret (Thm 5.3, up to constants)",
        )
    if a <= 1:
        return QueryRegime(
            N_T,
            thr,
            sufficient_budget,
            "a/b",
            None,
            "alpha <= 1: no lower bound on N_T is proven (Thm 5.3 needs alpha > 1); open question",
        )
    return QueryRegime(
        N_T,
        thr,
        sufficient_budget,
        "b",
        None,
        "between T^(alpha/(alpha+1)) and the W-SparQ budget: open question (Table 2, column b)",
    )
