"""High-precision building blocks for the mpmath referee of the claim checks.

A check re-evaluates a suspected violation at ``policy.mp_digits`` digits (inside ``mpmath.workdps``);
these helpers give it matrices, log-determinants, solves and the Gaussian divergences it needs, and
the mpmath twins of closed-form bounds whose float versions live in :mod:`tvbo_verify.theory`. They
work at the current ``mpmath.mp.dps`` and never round to float64.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import mpmath
import numpy as np

from .validation import check_choice

__all__ = [
    "mpmat", "sub", "logdet_spd", "trace", "solve", "diag", "nystrom", "kl_zero_mean", "expected_titsias_kl",
    "expected_subset_kl_fresh", "expected_subset_kl_repeated", "posterior_mp", "beta_wsparq_mp",
    "elementary_symmetric", "posterior_mean_var", "explicit_titsias_elbo", "expected_subset_kl_shared",
    "kernel_of_distance_mp", "response_mp", "u2_mp", "conditional_covariance", "spectral_density_mp",
    "aliased_density_mp", "szego_prediction_variance_mp", "one_step_prediction_mp",
    "wgpucb_corollary8_polynomial_mp", "wgpucb_corollary8_exponential_mp",
]


def mpmat(A: Any) -> mpmath.matrix:
    """An ``mpmath.matrix`` from a float or object array (entries taken exactly)."""
    arr = np.asarray(A, dtype=object)
    if arr.ndim == 1:
        return mpmath.matrix([mpmath.mpf(v) for v in arr])
    return mpmath.matrix([[mpmath.mpf(v) for v in row] for row in arr])


def sub(M: mpmath.matrix, rows: Sequence[int], cols: Sequence[int]) -> mpmath.matrix:
    return mpmath.matrix([[M[i, j] for j in cols] for i in rows])


def logdet_spd(M: mpmath.matrix) -> Any:
    """log det of a symmetric positive-definite matrix (mpmath Cholesky)."""
    L = mpmath.cholesky(M)
    return 2 * mpmath.fsum(mpmath.log(L[i, i]) for i in range(M.rows))


def trace(M: mpmath.matrix) -> Any:
    return mpmath.fsum(M[i, i] for i in range(M.rows))


def solve(A: mpmath.matrix, B: mpmath.matrix) -> mpmath.matrix:
    """``A⁻¹ B`` column by column (LU)."""
    if B.cols == 1:
        return mpmath.lu_solve(A, B)
    cols = [mpmath.lu_solve(A, B.column(j)) for j in range(B.cols)]
    return mpmath.matrix([[cols[j][i] for j in range(B.cols)] for i in range(A.rows)])


def diag(values: Sequence[Any]) -> mpmath.matrix:
    n = len(values)
    return mpmath.matrix([[values[i] if i == j else 0 for j in range(n)] for i in range(n)])


def nystrom(K: mpmath.matrix, S: Sequence[int]) -> mpmath.matrix:
    """``U = K_{:S} K_SS⁻¹ K_{S:}`` (``S`` must give a nonsingular ``K_SS`` at this precision)."""
    n = K.rows
    if not len(S):
        return mpmath.zeros(n, n)
    KXS = sub(K, range(n), S)
    return KXS * solve(sub(K, S, S), KXS.T)


def kl_zero_mean(C0: mpmath.matrix, C1: mpmath.matrix) -> Any:
    """``KL(N(0, C0) ‖ N(0, C1))``."""
    n = C0.rows
    return (trace(solve(C1, C0)) - n + logdet_spd(C1) - logdet_spd(C0)) / 2


def expected_titsias_kl(K: mpmath.matrix, noise: Sequence[Any], S: Sequence[int]) -> Any:
    """``E_y KL[Q_var ‖ P] = KL(N(0, K+Σ) ‖ N(0, U+Σ)) + ½ tr(Σ⁻¹(K − U))``."""
    U = nystrom(K, S)
    Sig = diag(noise)
    resid = mpmath.fsum((K[i, i] - U[i, i]) / noise[i] for i in range(K.rows))
    return kl_zero_mean(K + Sig, U + Sig) + resid / 2


def expected_subset_kl_fresh(K: mpmath.matrix, noise: Sequence[Any], S: Sequence[int]) -> Any:
    """``E KL[P_S ‖ P]`` for the latent values at the ``N`` points: ``P`` the exact posterior on outputs
    ``y ~ N(0, K + Σ)``, ``P_S`` the subset-of-data posterior on fresh outputs ``y'_S`` at ``S``
    (independent noise, same variances)."""
    n = K.rows
    Sig = diag(noise)
    A = solve(K + Sig, K).T  # m_v = A y with A = K (K+Σ)⁻¹ (symmetric pieces)
    Cv = K - A * K
    KSS = sub(K, S, S) + diag([noise[i] for i in S])
    KXS = sub(K, range(n), S)
    B = solve(KSS, KXS.T).T  # m_s = B y'_S
    Cs = K - B * KXS.T
    # E (A y − B y')(A y − B y')ᵀ with Cov(y) = K+Σ, Cov(y') = K_SS+Σ_S, Cov(y, y') = K_{:S}
    E = A * (K + Sig) * A.T - A * KXS * B.T - B * KXS.T * A.T + B * KSS * B.T
    quad = trace(solve(Cv, E))
    return (trace(solve(Cv, Cs)) - n + quad + logdet_spd(Cv) - logdet_spd(Cs)) / 2


def expected_subset_kl_repeated(Ku: mpmath.matrix, rows: Sequence[int], noise: Sequence[Any], S: Sequence[int],
                                *, shared: bool = False) -> Any:
    """``E KL[P_S ‖ P]`` when inputs may repeat exactly: ``Ku`` is the Gram matrix of the ``m`` distinct
    inputs and observation ``i`` sees distinct input ``rows[i]``; ``S`` indexes observations. Both
    posteriors are taken on the ``m`` distinct latent values (the process KL), where they are
    nonsingular. ``shared``: the subset posterior uses the observations ``y_S`` themselves (the twin of
    ``divergences.expected_subset_kl(outputs="shared")``); otherwise fresh ones at ``S``
    (:func:`expected_subset_kl_fresh`)."""
    m, n = Ku.rows, len(rows)
    P = mpmath.zeros(n, m)
    for i, r in enumerate(rows):
        P[i, int(r)] = 1
    PS = sub(P, S, range(m))
    Ky = P * Ku * P.T + diag(noise)
    KyS = sub(Ky, S, S)
    A = solve(Ky, P * Ku).T  # m_v = A y
    B = solve(KyS, PS * Ku).T  # m_s = B y'_S
    Cv = Ku - A * P * Ku
    Cs = Ku - B * PS * Ku
    cross = sub(Ky, range(n), S) if shared else P * Ku * PS.T  # Cov(y, y'_S)
    E = A * Ky * A.T - A * cross * B.T - B * cross.T * A.T + B * KyS * B.T
    return (trace(solve(Cv, Cs)) - m + trace(solve(Cv, E)) + logdet_spd(Cv) - logdet_spd(Cs)) / 2


def posterior_mp(K: mpmath.matrix, k_star: mpmath.matrix, prior_star: Any, y: Sequence[Any],
                 noise: Sequence[Any]) -> tuple[Any, Any]:
    """GP posterior mean and variance at one test point (``wsparq`` eqs. (9)–(10)), the twin of
    ``gp.posterior_from_gram``: ``k*ᵀ(K+Σ)⁻¹y`` and ``k(x,x) − k*ᵀ(K+Σ)⁻¹k*`` (``k_star`` a column)."""
    A = K + diag(noise)
    w = solve(A, k_star)
    mean = mpmath.fsum(w[i] * y[i] for i in range(K.rows))
    return mean, prior_star - (k_star.T * w)[0, 0]


def beta_wsparq_mp(K: mpmath.matrix, noise: Sequence[Any], delta: Any, B: Any) -> Any:
    """``wsparq`` eq. (12), ``sqrt(2 log(2/δ) + log det(Σ + K) − log det Σ) + B``; twin of
    ``confidence.beta_wsparq_log_det``."""
    ratio = logdet_spd(K + diag(noise)) - mpmath.fsum(mpmath.log(v) for v in noise) if K.rows else 0
    return mpmath.sqrt(2 * mpmath.log(2 / mpmath.mpf(delta)) + ratio) + B


def elementary_symmetric(lam: Sequence[Any], k: int) -> list[Any]:
    """``[e_0, …, e_k]`` of the values ``lam`` (the standard recursion, current precision)."""
    e = [mpmath.mpf(1)] + [mpmath.mpf(0)] * k
    for v in lam:
        for j in range(k, 0, -1):
            e[j] += v * e[j - 1]
    return e


def posterior_mean_var(K: mpmath.matrix, k_star: mpmath.matrix, k_star_star: Any, y: Sequence[Any],
                       noise: Sequence[Any]) -> tuple[Any, Any]:
    """Exact GP posterior mean and variance at one test point: ``k*ᵀ(K+Σ)⁻¹y`` and ``k** − k*ᵀ(K+Σ)⁻¹k*``
    (``sparq`` eqs. (11)–(12)); ``k_star`` is a column, ``noise`` the diagonal of ``Σ``."""
    if K.rows == 0:
        return mpmath.mpf(0), mpmath.mpf(k_star_star)
    A = K + diag(noise)
    w = solve(A, k_star)
    mean = mpmath.fsum(w[i] * y[i] for i in range(K.rows))
    return mean, k_star_star - mpmath.fsum(w[i] * k_star[i] for i in range(K.rows))


def explicit_titsias_elbo(K: mpmath.matrix, y: Sequence[Any], noise: Sequence[Any], S: Sequence[int]) -> Any:
    """The ELBO ``E_q[log p(y|f)] − KL(q(u) ‖ p(u))`` with the optimal ``q(u) = N(m, S_u)`` written out
    (``sparq`` Proposition 5): ``A = K_uu + K_uX Σ⁻¹ K_Xu``, ``S_u = K_uu A⁻¹ K_uu``,
    ``m = K_uu A⁻¹ K_uX Σ⁻¹ y``; ``q(f_i)`` has mean ``(K_Xu K_uu⁻¹ m)_i`` and variance
    ``K_ii − Q_ii + (K_Xu K_uu⁻¹ S_u K_uu⁻¹ K_uX)_ii``. Independent of the collapsed form (35)."""
    n, k = K.rows, len(S)
    Kuu = sub(K, S, S)
    KXu = sub(K, range(n), S)
    SigInvKXu = mpmath.matrix([[KXu[i, j] / noise[i] for j in range(k)] for i in range(n)])
    A = Kuu + KXu.T * SigInvKXu
    Su = Kuu * solve(A, Kuu)
    m = Kuu * solve(A, SigInvKXu.T * mpmath.matrix(list(y)))
    P = solve(Kuu, KXu.T).T
    mf = P * m
    V = P * Su * P.T
    Q = P * KXu.T
    loglik = mpmath.fsum(-mpmath.log(2 * mpmath.pi * noise[i]) / 2
                         - ((y[i] - mf[i]) ** 2 + K[i, i] - Q[i, i] + V[i, i]) / (2 * noise[i]) for i in range(n))
    kl = (trace(solve(Kuu, Su)) + (m.T * solve(Kuu, m))[0, 0] - k + logdet_spd(Kuu) - logdet_spd(Su)) / 2
    return loglik - kl


def expected_subset_kl_shared(Kd: mpmath.matrix, loc: Sequence[int], noise: Sequence[Any], S: Sequence[int]) -> Any:
    """``E_y KL[P_S ‖ P]`` for ``y ~ N(0, H Kd Hᵀ + Σ)``: observations ``y_i`` of the latent value at the
    distinct location ``loc[i]`` (``Kd`` the Gram matrix of the distinct locations, nonsingular), ``P``
    the posterior given every output, ``P_S`` the posterior given the outputs ``y_S`` (expert answers
    coupled to the virtual data, papers/sparq/READING.md §3.5). Repeated inputs are allowed: the KL is taken between
    the posteriors of the distinct latent values, which is the process KL."""
    m, n = Kd.rows, len(loc)
    H = mpmath.matrix([[1 if loc[i] == j else 0 for j in range(m)] for i in range(n)])

    def conditional(rows: Sequence[int]) -> tuple[mpmath.matrix, mpmath.matrix]:
        Hr = sub(H, rows, range(m))
        G = Hr * Kd * Hr.T + diag([noise[i] for i in rows])
        W = solve(G, Hr * Kd).T  # Kd Hrᵀ G⁻¹ : mean = W y_rows
        return W, Kd - W * Hr * Kd

    Wv, Cv = conditional(list(range(n)))
    Ws, Cs = conditional(list(S))
    D = Wv - Ws * sub(mpmath.eye(n), S, range(n))  # mean difference δ = D y
    cov_y = H * Kd * H.T + diag(noise)
    quad = trace(solve(Cv, D * cov_y * D.T))
    return (trace(solve(Cv, Cs)) - m + quad + logdet_spd(Cv) - logdet_spd(Cs)) / 2


# --------------------------------------------------------------------------------------------------
# bolt: ||u_n||², response times and Gaussian conditioning
# --------------------------------------------------------------------------------------------------
def kernel_of_distance_mp(kernel: Any, tau: Any) -> Any:
    """``k(τ)`` of an isotropic stationary kernel at the mpmath distance ``τ`` (its ``rho_mp`` profile)."""
    r = mpmath.mpf(tau) / mpmath.mpf(float(kernel.lengthscale))
    return mpmath.mpf(kernel.variance) * kernel.rho_mp(r * r)


def response_mp(model: Any, n: int) -> Any:
    """``R(n)`` of a :class:`~tvbo_verify.theory.response.ResponseModel` evaluated by sympy at the current
    mpmath precision (the expression's float coefficients are taken as the binary numbers they hold)."""
    import sympy as sp

    from .theory.response import N_SYMBOL

    value = model.expr.evalf(mpmath.mp.dps + 5, subs={N_SYMBOL: sp.Integer(int(n))})
    return mpmath.mpf(str(value))


def u2_mp(model: Any, kernel: Any, n: int) -> Any:
    """``||u_n||² = Σ_{i<=n} k_T²(i R(n))`` (``bolt`` eq. (8)) in mpmath; the twin of
    :func:`tvbo_verify.theory.response.u2`."""
    if n <= 0:
        return mpmath.mpf(0)
    rn = response_mp(model, n)
    return mpmath.fsum(kernel_of_distance_mp(kernel, i * rn) ** 2 for i in range(1, n + 1))


def conditional_covariance(K: mpmath.matrix, k_star: mpmath.matrix, prior: mpmath.matrix) -> mpmath.matrix:
    """``prior − k_starᵀ K⁻¹ k_star`` (Gaussian conditioning; ``k_star`` has one column per query)."""
    return prior - k_star.T * solve(K, k_star)


def spectral_density_mp(kernel: Any, xi: Any) -> Any:
    """``S(ξ)`` of an SE or Matérn kernel in mpmath (the twin of :func:`tvbo_verify.spectral.spectral_density`)."""
    from .kernels import Matern, SquaredExponential

    ell, xi = mpmath.mpf(float(kernel.lengthscale)), abs(mpmath.mpf(xi))
    var = mpmath.mpf(kernel.variance)
    if isinstance(kernel, SquaredExponential):
        return var * ell * mpmath.sqrt(2 * mpmath.pi) * mpmath.exp(-2 * mpmath.pi**2 * ell**2 * xi**2)
    if isinstance(kernel, Matern):
        nu = mpmath.mpf(kernel.nu)
        const = (2 * mpmath.sqrt(mpmath.pi) * mpmath.gamma(nu + 0.5) * (2 * nu) ** nu
                 / (mpmath.gamma(nu) * ell ** (2 * nu)))
        return var * const * (2 * nu / ell**2 + 4 * mpmath.pi**2 * xi**2) ** (-(nu + mpmath.mpf(0.5)))
    raise ValueError(f"no mpmath spectral density for {type(kernel).__name__}")


def aliased_density_mp(kernel: Any, period: Any, xi: Any) -> Any:
    """``(1/c) Σ_m S(ξ + m/c)`` in mpmath to the working precision: a finite sum for SE (super-exponential decay
    in m); for Matérn, whose half-integer densities are rational in m, ``mpmath.nsum`` with its convergence
    acceleration over all integers."""
    from .kernels import Matern, SquaredExponential

    c, xi = mpmath.mpf(period), mpmath.mpf(xi)
    ell = float(kernel.lengthscale)
    digits = mpmath.mp.dps + 10
    if isinstance(kernel, SquaredExponential):
        M = int(float(period) * math.sqrt(digits * math.log(10) / (2 * math.pi**2 * ell**2))) + 3
        return mpmath.fsum(spectral_density_mp(kernel, xi + m / c) for m in range(-M, M + 1)) / c
    if isinstance(kernel, Matern):
        return mpmath.nsum(lambda m: spectral_density_mp(kernel, xi + m / c), [-mpmath.inf, mpmath.inf]) / c
    raise ValueError(f"no mpmath aliased density for {type(kernel).__name__}")


def szego_prediction_variance_mp(kernel: Any, period: Any, *, degree: int = 3) -> Any:
    """``exp(2 ∫_0^{1/2} log f_d(ν) dν)`` with ``f_d(ν) = aliased_density_mp(kernel, c, ν/c)`` (Gauss–Legendre);
    the twin of :func:`tvbo_verify.theory.circulant.szego_prediction_variance`."""
    c = mpmath.mpf(period)
    value = mpmath.quad(lambda nu: mpmath.log(aliased_density_mp(kernel, c, nu / c)), [0, mpmath.mpf(1) / 4,
                                                                                       mpmath.mpf(1) / 2],
                        method="gauss-legendre", maxdegree=degree)
    return mpmath.exp(2 * value)


def one_step_prediction_mp(kernel: Any, period: Any, n: int) -> tuple[mpmath.matrix, Any]:
    """Weights ``w = K_T⁻¹ k_T(t_n)`` (``w_j`` for ``t_j``, ``j < n``) and ``1 − q_n`` in mpmath by the
    Durbin–Levinson recursion on ``r_l = k_T(l c)`` (``O(n²)``); the twin of
    :func:`tvbo_verify.theory.circulant.one_step_prediction`."""
    c = mpmath.mpf(period)
    r = [kernel_of_distance_mp(kernel, lag * c) for lag in range(n + 1)]
    phi: list[Any] = []
    v = r[0]
    for k in range(1, n + 1):
        kk = (r[k] - mpmath.fsum(phi[j] * r[k - 1 - j] for j in range(k - 1))) / v
        phi = [phi[j] - kk * phi[k - 2 - j] for j in range(k - 1)] + [kk]
        v = v * (1 - kk * kk)
    # phi[j] multiplies the observation j + 1 steps back, i.e. t_{n-1-j}
    return mpmath.matrix([phi[n - 1 - j] for j in range(n)]), v


def wgpucb_corollary8_polynomial_mp(
    discount: float, C_p: float, beta_p: float, psi: float, *, lam: float = 1.0, kbar: float = 1.0,
    reading: str = "printed"
) -> mpmath.mpf:
    """mpmath twin of :func:`tvbo_verify.theory.rates.wgpucb_corollary8_polynomial` (``wgpucb`` Corollary 8 (1))
    at the current precision, inputs taken exactly."""
    check_choice("reading", reading, ("printed", "corrected"))
    g, bp, cp, lam_mp = mpmath.mpf(discount), mpmath.mpf(beta_p), mpmath.mpf(C_p), mpmath.mpf(lam)
    if reading == "corrected":
        cp = cp / (bp - 1)
    q = 1 - g * g
    lg = mpmath.log1p(mpmath.mpf(kbar) / (lam_mp * q))
    return ((cp * mpmath.mpf(psi) ** 2 / (lam_mp * q)) ** (1 / bp) * lg ** (-1 / bp) + 1) * lg


def wgpucb_corollary8_exponential_mp(
    discount: float, C_e1: float, C_e2: float, psi: float, *, lam: float = 1.0, kbar: float = 1.0
) -> mpmath.mpf:
    """mpmath twin of :func:`tvbo_verify.theory.rates.wgpucb_corollary8_exponential` (``wgpucb`` Corollary 8 (2))
    at the current precision, inputs taken exactly."""
    g, ce2, lam_mp = mpmath.mpf(discount), mpmath.mpf(C_e2), mpmath.mpf(lam)
    q = 1 - g * g
    cb = mpmath.log(mpmath.mpf(C_e1) * mpmath.mpf(psi) ** 2 / (lam_mp * ce2))
    return ((mpmath.log(1 / q) + cb) / ce2 + 1) * mpmath.log1p(mpmath.mpf(kbar) / (lam_mp * q))
