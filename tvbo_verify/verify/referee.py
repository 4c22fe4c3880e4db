"""High-precision building blocks for the mpmath referee of the claim checks.

A check re-evaluates a suspected violation at ``policy.mp_digits`` digits (inside ``mpmath.workdps``);
these helpers give it matrices, log-determinants, solves and the Gaussian divergences it needs, and
the mpmath twins of closed-form bounds whose float versions live in :mod:`tvbo_verify.theory`. They
work at the current ``mpmath.mp.dps`` and never round to float64.
"""

from __future__ import annotations

from typing import Any, Sequence

import mpmath
import numpy as np

from ..validation import check_choice


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
    coupled to the virtual data, ``sparq`` §5 A3). Repeated inputs are allowed: the KL is taken between
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
