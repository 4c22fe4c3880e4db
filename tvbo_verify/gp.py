"""Gaussian-process posteriors: exact batch, weighted (WGP-UCB), time-varying (TV-GP-UCB) and incremental.

Formulas implemented:

* exact heteroscedastic posterior, ``wsparq`` eqs. (9)–(10), ``sparq`` eqs. (11)–(12), ``tvgpucb`` eqs. (5)–(6)
  (index-corrected), ``bolt`` eqs. (1)–(3):
  ``μ(x) = k(x)ᵀ(K + Σ)⁻¹y``, ``σ²(x) = k(x,x) − k(x)ᵀ(K + Σ)⁻¹k(x)``, ``Σ = diag(noise_var)``;
* weighted GP regression, ``wgpucb`` eqs. (2)–(3) and its overflow-free relative-weight form (§1.5);
* the TV-GP-UCB posterior of ``f_{t+1}`` given ``t`` observations, ``tvgpucb`` eqs. (7)–(8) (§1.5,
  index-corrected);
* :class:`IncrementalPosterior`: the same posteriors on a fixed candidate grid, maintained in ``O(t·G)``
  per appended observation.

Numerical policy: Cholesky only (:func:`tvbo_verify.linalg.stable_cholesky`), the jitter used is
reported on the result, :class:`~tvbo_verify.errors.NumericalError` past the ladder.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
from scipy.linalg import qr_delete
from scipy.linalg.blas import drot
from scipy.linalg.lapack import dpotrs, dtrtrs

from .kernels import ForgettingKernel, Kernel
from .linalg import stable_cholesky
from .nystrom import gram_mp
from .validation import (
    as_noise,
    as_points,
    as_vector,
    check_choice,
    check_interval,
    check_positive,
)

__all__ = [
    "Posterior", "posterior_from_gram", "posterior_full", "posterior", "tv_posterior", "markov_kalman_posterior",
    "tv_posterior_mp", "markov_kalman_posterior_mp", "tv_log_marginal_likelihood",
    "tv_log_marginal_likelihood_grad", "tv_log_marginal_likelihood_kron", "fit_forgetting", "WeightedPosterior",
    "weighted_posterior", "weighted_posterior_mp", "pooled_posterior_mp", "WeightedFeatureRegression",
    "DiscountedFeatureRegression", "IncrementalPosterior", "WindowPosterior", "MarginalLikelihood",
    "log_marginal_likelihood",
]


@dataclass(frozen=True)
class Posterior:
    """Posterior at the test points: ``mean``, marginal ``var``, optional full ``cov``, the ``jitter`` used and
    ``log_det = log|K + Σ + jitter·I|`` of the factor (so a width such as ``wsparq`` eq. (12) shares it)."""

    mean: np.ndarray
    var: np.ndarray
    cov: np.ndarray | None
    jitter: float
    log_det: float = 0.0


def posterior_from_gram(
    K: np.ndarray,
    K_star: np.ndarray,
    prior_var_star: np.ndarray,
    y: np.ndarray,
    noise_var: np.ndarray,
    *,
    K_star_star: np.ndarray | None = None,
) -> Posterior:
    """Gaussian conditioning from Gram blocks: the common core of every posterior in this module.

    ``K`` (n×n) is the prior covariance of the observed latent values, ``K_star`` (n×m) their
    covariance with the test values, ``prior_var_star`` (m) the test prior variances, ``noise_var`` (n)
    the diagonal of Σ. If ``K_star_star`` (m×m) is given the full posterior covariance is returned.
    """
    n = K.shape[0]
    if n == 0:
        cov = None if K_star_star is None else np.array(K_star_star, dtype=float)
        return Posterior(np.zeros(K_star.shape[1]), np.array(prior_var_star, dtype=float), cov, 0.0)
    factor = stable_cholesky(K + np.diag(noise_var), name="K + Sigma")
    A = factor.half_solve(K_star)  # L⁻¹ k(x)
    z = factor.half_solve(y)  # L⁻¹ y
    mean = A.T @ z
    var = np.maximum(prior_var_star - np.einsum("ij,ij->j", A, A), 0.0)
    cov = None
    if K_star_star is not None:
        cov = K_star_star - A.T @ A
        cov = 0.5 * (cov + cov.T)
    return Posterior(mean, var, cov, factor.jitter, factor.logdet())


def _observations(X: Any, y: Any, noise_var: Any, Xstar: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                       np.ndarray]:
    """Validated ``(X, y, per-observation noise, Xstar)`` of a posterior call."""
    X = as_points("X", X)
    Xstar = as_points("Xstar", Xstar, X.shape[1] if X.shape[0] else None)
    t = X.shape[0]
    return X, as_vector("y", y, t), as_noise("noise_var", noise_var, t), Xstar


def posterior_full(
    kernel: Kernel,
    X: np.ndarray,
    y: np.ndarray,
    noise_var: float | np.ndarray,
    Xstar: np.ndarray,
    *,
    full_cov: bool = False,
) -> Posterior:
    """Exact GP posterior at ``Xstar`` (``wsparq`` eqs. (9)–(10)); ``noise_var`` scalar or per observation."""
    X, y, noise, Xstar = _observations(X, y, noise_var, Xstar)
    return posterior_from_gram(
        kernel(X),
        kernel(X, Xstar),
        kernel.diag(Xstar),
        y,
        noise,
        K_star_star=kernel(Xstar) if full_cov else None,
    )


def posterior(
    kernel: Kernel,
    X: np.ndarray,
    y: np.ndarray,
    noise_var: float | np.ndarray,
    Xstar: np.ndarray,
    *,
    full_cov: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(mean, var)`` — or ``(mean, cov)`` with ``full_cov=True`` — of the exact GP posterior.

    ``noise_var`` is a scalar or one variance per observation (uncertainty injection gives
    ``σ²(1 + age^α)``, ``wsparq`` §1.3). See :func:`posterior_full` for the jitter actually used.

    Examples
    --------
    >>> from tvbo_verify.gp import posterior
    >>> from tvbo_verify.kernels import SquaredExponential
    >>> k = SquaredExponential(lengthscale=0.5)
    >>> mean, var = posterior(k, [[0.0]], [1.0], 0.01, [[0.0], [3.0]])  # one observation y(0) = 1
    >>> [round(float(m), 4) for m in mean], [round(float(v), 4) for v in var]  # at the datum, and far away
    ([0.9901, 0.0], [0.0099, 1.0])
    >>> posterior(k, [[0.0]], [1.0, 2.0], 0.01, [[0.0]])
    Traceback (most recent call last):
    ...
    ValueError: y must have length 1, got length 2
    """
    result = posterior_full(kernel, X, y, noise_var, Xstar, full_cov=full_cov)
    return result.mean, (result.cov if full_cov else result.var)


# --------------------------------------------------------------------------------------------------
# TV-GP-UCB (tvgpucb §1.5)
# --------------------------------------------------------------------------------------------------


def tv_posterior(
    kernel: Kernel,
    X: np.ndarray,
    y: np.ndarray,
    noise_var: float,
    Xstar: np.ndarray,
    epsilon: float,
) -> Posterior:
    """Posterior of ``f_{t+1}`` given ``t`` observations ``(x_i, y_i)`` made at times ``i = 1..t``.

    ``tvgpucb`` eqs. (7)–(8), index-corrected (§1.5): ``K̃ = K ∘ D`` with ``D_ij = (1-ε)^{|i-j|/2}`` and
    ``k̃(x) = k(x) ∘ d`` with ``d_i = (1-ε)^{(t+1-i)/2}``. ``ε = 0`` is the static posterior, ``ε = 1`` the prior.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.gp import markov_kalman_posterior, posterior_full, tv_posterior
    >>> from tvbo_verify.kernels import SquaredExponential
    >>> k, X, y = SquaredExponential(lengthscale=0.5), np.linspace(0, 1, 4)[:, None], [0.3, -0.2, 0.5, 0.1]
    >>> tv = tv_posterior(k, X, y, 0.1, [[0.5]], epsilon=0.1)
    >>> round(float(tv.mean[0]), 4), round(float(tv.var[0]), 4)
    (0.1592, 0.2528)

    The same law by a Kalman filter on the Markov model; ``ε = 0`` is the static posterior, ``ε = 1`` the prior:

    >>> kf = markov_kalman_posterior(k, X, y, 0.1, [[0.5]], epsilon=0.1)
    >>> bool(np.allclose([tv.mean, tv.var], [kf.mean, kf.var]))
    True
    >>> tv0, st = tv_posterior(k, X, y, 0.1, [[0.5]], epsilon=0.0), posterior_full(k, X, y, 0.1, [[0.5]])
    >>> bool(np.allclose([tv0.mean, tv0.var], [st.mean, st.var]))
    True
    >>> tv1 = tv_posterior(k, X, y, 0.1, [[0.5]], epsilon=1.0)
    >>> float(tv1.mean[0]), float(tv1.var[0])
    (0.0, 1.0)
    """
    forgetting = ForgettingKernel(epsilon)
    X, y, noise, Xstar = _observations(X, y, noise_var, Xstar)
    t = X.shape[0]
    times = np.arange(1, t + 1, dtype=float)
    D = forgetting.of_lag(times[:, None] - times[None, :])
    d = forgetting.of_lag(t + 1 - times)
    return posterior_from_gram(kernel(X) * D, kernel(X, Xstar) * d[:, None], kernel.diag(Xstar), y, noise)


def markov_kalman_posterior(
    kernel: Kernel,
    X: np.ndarray,
    y: np.ndarray,
    noise_var: float,
    Xstar: np.ndarray,
    epsilon: float,
) -> Posterior:
    """Law of ``f_{t+1}`` at ``Xstar`` given ``y_i = f_i(x_i) + N(0, σ²)``, ``i = 1..t``, by a Kalman filter.

    The state is ``f_t`` on the finite set ``X ∪ Xstar`` and follows the Markov model itself
    (``tvgpucb`` eqs. (3)–(4)): prior ``N(0, K)``; measurement ``y_i = e_{x_i}ᵀ f_i + z_i``; prediction
    ``m ← √(1−ε) m``, ``P ← (1−ε) P + ε K``. It never uses the covariance (22) or the formulas (7)–(8),
    which makes it an independent reference for :func:`tv_posterior` (``papers/tvgpucb/READING.md`` §tvgpucb:eq-7-8).
    """
    rate = check_interval("epsilon", epsilon, 0.0, 1.0)
    X, y, noise, Xstar = _observations(X, y, noise_var, Xstar)
    t = X.shape[0]
    Z = np.vstack([X, Xstar]) if t else Xstar
    K = kernel(Z)
    m = np.zeros(Z.shape[0])
    P = K.copy()
    keep = np.sqrt(1.0 - rate)
    for i in range(t):
        gain = P[:, i] / (P[i, i] + noise[i])
        m = m + gain * (y[i] - m[i])
        P = P - np.outer(gain, P[i, :])
        P = 0.5 * (P + P.T)
        m = keep * m
        P = (1.0 - rate) * P + rate * K
    var = np.maximum(np.diag(P)[t:], 0.0)
    return Posterior(m[t:], var, None, 0.0)


def tv_posterior_mp(kernel: Kernel, X: np.ndarray, y: np.ndarray, noise_var: float, xstar: np.ndarray,
                    epsilon: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    """mpmath twin of :func:`tv_posterior` at one test point (current ``mpmath.mp.dps``): ``(mean, var)``
    of (7)–(8) with ``K̃ = K ∘ [ρ^{|i−j|}]``, ``k̃ = k ∘ [ρ^{t+1−i}]``, ``ρ = √(1−ε)`` (``0^0 = 1``)."""
    X = as_points("X", X)
    pts = np.vstack([X, as_points("xstar", xstar, X.shape[1])[:1]])
    t = X.shape[0]
    G = gram_mp(kernel, pts, dps=mpmath.mp.dps)
    rho = mpmath.sqrt(1 - mpmath.mpf(epsilon))

    def power(lag: int) -> mpmath.mpf:
        return mpmath.mpf(1) if lag == 0 else rho**lag

    s2 = mpmath.mpf(noise_var)
    if t == 0:
        return mpmath.mpf(0), G[0, 0]
    K = mpmath.matrix([[G[i, j] * power(abs(i - j)) + (s2 if i == j else 0) for j in range(t)] for i in range(t)])
    k = mpmath.matrix([G[i, t] * power(t - i) for i in range(t)])
    yv = mpmath.matrix([mpmath.mpf(v) for v in as_vector("y", y, t)])
    mean = mpmath.fsum(a * b for a, b in zip(k, mpmath.lu_solve(K, yv)))
    var = G[t, t] - mpmath.fsum(a * b for a, b in zip(k, mpmath.lu_solve(K, k)))
    return mean, var


def markov_kalman_posterior_mp(kernel: Kernel, X: np.ndarray, y: np.ndarray, noise_var: float, xstar: np.ndarray,
                               epsilon: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    """mpmath twin of :func:`markov_kalman_posterior` at one test point: ``(mean, var)`` of ``f_{t+1}(x*)``."""
    X = as_points("X", X)
    pts = np.vstack([X, as_points("xstar", xstar, X.shape[1])[:1]])
    t, n = X.shape[0], pts.shape[0]
    K = mpmath.matrix(gram_mp(kernel, pts, dps=mpmath.mp.dps).tolist())
    eps, s2 = mpmath.mpf(epsilon), mpmath.mpf(noise_var)
    keep = mpmath.sqrt(1 - eps)
    m = mpmath.matrix(n, 1)
    P = K.copy()
    for i, yi in enumerate(as_vector("y", y, t)):
        gain = P[:, i] / (P[i, i] + s2)
        m = m + gain * (mpmath.mpf(yi) - m[i])
        P = P - gain * P[i, :]
        m = keep * m
        P = (1 - eps) * P + eps * K
    return m[n - 1], P[n - 1, n - 1]


# --------------------------------------------------------------------------------------------------
# Marginal likelihood of the forgetting factor (tvgpucb App. B)
# --------------------------------------------------------------------------------------------------
def _forgetting_gram(kernel: Kernel, X: np.ndarray, times: np.ndarray, epsilon: float) -> tuple[np.ndarray, np.ndarray]:
    """``K̄ ∘ D̄`` and ``K̄ ∘ D̄'`` of ``tvgpucb`` (24)–(25): ``D̄_ij = (1−ε)^v``, ``D̄'_ij = −v(1−ε)^{v−1}``,
    ``v = |t_i − t_j|/2`` (entries with ``v = 0`` have derivative 0)."""
    eps = check_interval("epsilon", epsilon, 0.0, 1.0)
    Kbar = kernel(X)
    v = 0.5 * np.abs(times[:, None] - times[None, :])
    D = ForgettingKernel(eps).of_lag(2.0 * v)
    with np.errstate(divide="ignore", invalid="ignore"):
        dD = np.where(v > 0, -v * np.power(1.0 - eps, v - 1.0), 0.0)
    return Kbar * D, Kbar * dD


def _likelihood_inputs(X: np.ndarray, times: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    X = as_points("X", X)
    times = as_vector("times", times, X.shape[0])
    return X, times, as_vector("y", y, X.shape[0])


def tv_log_marginal_likelihood(kernel: Kernel, X: np.ndarray, times: np.ndarray, y: np.ndarray, noise_var: float,
                               epsilon: float) -> float:
    """``log p(ȳ | θ, σ, ε)`` of ``tvgpucb`` eq. (24): observation ``i`` at location ``X[i]`` and time
    ``times[i]`` (several entries may share a time), covariance ``K̄ ∘ D̄ + σ² I`` (dense Cholesky)."""
    X, times, y = _likelihood_inputs(X, times, y)
    C, _ = _forgetting_gram(kernel, X, times, epsilon)
    return log_marginal_likelihood(C, y, check_positive("noise_var", noise_var)).value


def tv_log_marginal_likelihood_grad(kernel: Kernel, X: np.ndarray, times: np.ndarray, y: np.ndarray,
                                    noise_var: float, epsilon: float) -> float:
    """``∂ log p / ∂ε = ½ tr((α αᵀ − (K̄ ∘ D̄ + σ²I)⁻¹)(K̄ ∘ D̄'))`` of ``tvgpucb`` eq. (25), ``ε ∈ [0, 1)``."""
    X, times, y = _likelihood_inputs(X, times, y)
    check_interval("epsilon", epsilon, 0.0, 1.0)
    if epsilon >= 1.0:
        raise ValueError(f"epsilon must be < 1 for the gradient (25) (singular at 1), got {epsilon!r}")
    C, dC = _forgetting_gram(kernel, X, times, epsilon)
    return float(log_marginal_likelihood(C, y, check_positive("noise_var", noise_var), [dC]).gradient[0])


def tv_log_marginal_likelihood_kron(kernel: Kernel, X: np.ndarray, Y: np.ndarray, noise_var: float,
                                    epsilon: float) -> float:
    """(24) for a full space–time grid: ``Y[s, i]`` observed at time ``s + 1`` and location ``X[i]``; ordered
    time-major, ``K̄ ∘ D̄ = D_time ⊗ K_space``, so both eigendecompositions give (24) in
    ``O(S³ + n³)`` instead of ``O((S n)³)`` (``papers/tvgpucb/READING.md`` §tvgpucb:eq-24-25)."""
    X = as_points("X", X)
    Y = np.asarray(Y, dtype=float)
    if Y.ndim != 2 or Y.shape[1] != X.shape[0]:
        raise ValueError(f"Y must have shape (times, {X.shape[0]}), got {Y.shape}")
    s2 = check_positive("noise_var", noise_var)
    S = Y.shape[0]
    lam_t, U_t = np.linalg.eigh(ForgettingKernel(epsilon)(np.arange(1, S + 1, dtype=float)[:, None]))
    lam_x, U_x = np.linalg.eigh(kernel(X))
    eig = np.maximum(np.outer(lam_t, lam_x), 0.0) + s2  # eigenvalues of D ⊗ K + σ²I
    rotated = U_t.T @ Y @ U_x  # (U_t ⊗ U_x)ᵀ vec(Y) for time-major vec
    n = Y.size
    return float(-0.5 * np.sum(rotated**2 / eig) - 0.5 * np.sum(np.log(eig)) - 0.5 * n * np.log(2.0 * np.pi))


def fit_forgetting(kernel: Kernel, X: np.ndarray, times: np.ndarray, y: np.ndarray, noise_var: float, *,
                   start: float = 0.05, bounds: tuple[float, float] = (1e-6, 0.999)) -> float:
    """Maximum-likelihood ε of ``tvgpucb`` App. B: L-BFGS-B on −(24) with the gradient (25), ε in ``bounds``."""
    from scipy import optimize

    lo, hi = bounds
    if not 0.0 <= lo < hi < 1.0:
        raise ValueError(f"bounds must satisfy 0 <= low < high < 1, got {bounds!r}")

    def objective(e: np.ndarray) -> tuple[float, np.ndarray]:
        eps = float(e[0])
        return (-tv_log_marginal_likelihood(kernel, X, times, y, noise_var, eps),
                np.array([-tv_log_marginal_likelihood_grad(kernel, X, times, y, noise_var, eps)]))

    res = optimize.minimize(objective, np.array([min(max(start, lo), hi)]), jac=True, method="L-BFGS-B",
                            bounds=[bounds], options={"ftol": 1e-14, "gtol": 1e-10})
    return float(res.x[0])


# --------------------------------------------------------------------------------------------------
# Weighted GP regression (wgpucb §1.5)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WeightedPosterior:
    """WGP-UCB posterior: mean ``μ̃_t`` (eq. (2)), variance ``σ̂²_t`` (eq. (3)) and loose variance ``σ̃²_t``."""

    mean: np.ndarray
    var: np.ndarray
    loose_var: np.ndarray
    jitter: float


def weighted_posterior(
    kernel: Kernel,
    X: np.ndarray,
    y: np.ndarray,
    Xstar: np.ndarray,
    *,
    lam: float,
    discount: float | None = None,
    weights: np.ndarray | None = None,
    form: str = "relative",
) -> WeightedPosterior:
    """Weighted GP regression of ``wgpucb`` §1.5 on data ``1..t``.

    Either ``discount`` γ ∈ (0, 1] (weights ``w_s = γ^{-s}``, the analysis choice) or explicit positive
    ``weights`` ``w_1..w_t``. ``form="direct"`` evaluates eqs. (2)–(3) literally with ``W = diag(√w)``,
    ``K̃ = W K W``, ``λ_t = λ w_t`` (overflows once ``t log(1/γ) > 709``); ``form="relative"`` uses the
    equivalent heteroscedastic form with noise ``λ w_t / w_s`` (never overflows). The loose variance is
    ``σ̃² = σ̂² − λ uᵀ(Λ − I)u`` with ``u = (K + λΛ)⁻¹k(x)``, ``Λ = diag(w_t/w_s)``.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.gp import posterior, weighted_posterior
    >>> from tvbo_verify.kernels import SquaredExponential
    >>> k, X, y = SquaredExponential(lengthscale=0.5), np.linspace(0, 1, 4)[:, None], [0.3, -0.2, 0.5, 0.1]
    >>> w = weighted_posterior(k, X, y, [[0.5]], lam=0.1, discount=0.9)
    >>> round(float(w.mean[0]), 4), round(float(w.var[0]), 4), round(float(w.loose_var[0]), 4)
    (0.1653, 0.0665, 0.0586)
    >>> d = weighted_posterior(k, X, y, [[0.5]], lam=0.1, discount=0.9, form="direct")  # eqs. (2)-(3) literally
    >>> bool(np.allclose([w.mean, w.var, w.loose_var], [d.mean, d.var, d.loose_var]))
    True

    Without discounting (``γ = 1``) it is the ordinary posterior with noise variance ``λ``:

    >>> w1, (mean, var) = weighted_posterior(k, X, y, [[0.5]], lam=0.1, discount=1.0), posterior(k, X, y, 0.1, [[0.5]])
    >>> bool(np.allclose([w1.mean, w1.var, w1.loose_var], [mean, var, var]))
    True
    >>> weighted_posterior(k, X, y, [[0.5]], lam=0.1)
    Traceback (most recent call last):
    ...
    ValueError: exactly one of discount and weights must be given
    """
    lam = check_positive("lam", lam)
    check_choice("form", form, ("relative", "direct"))
    X = as_points("X", X)
    Xstar = as_points("Xstar", Xstar, X.shape[1] if X.shape[0] else None)
    t = X.shape[0]
    y = as_vector("y", y, t)
    log_rel = _log_relative_weights(t, discount, weights)  # log(w_t / w_s)
    K, Ks, kss = kernel(X), kernel(X, Xstar), kernel.diag(Xstar)
    if t == 0:
        return WeightedPosterior(np.zeros(len(kss)), kss.copy(), kss.copy(), 0.0)
    if form == "direct":
        w = _absolute_weights(t, discount, weights)
        sw = np.sqrt(w)
        factor = stable_cholesky(sw[:, None] * K * sw[None, :] + lam * w[-1] * np.eye(t), name="K~ + lambda_t I")
        Kt_s = sw[:, None] * Ks
        mean = Kt_s.T @ factor.solve(sw * y)
        var = np.maximum(kss - np.einsum("ij,ij->j", Kt_s, factor.solve(Kt_s)), 0.0)
        # u = (K + λΛ)⁻¹ k = W (K̃ + λ_t I)⁻¹ W k
        u = sw[:, None] * factor.solve(Kt_s)
    else:
        # An observation whose relative noise exceeds e^600·λ carries no information in float64;
        # clamping keeps the factorisation finite without changing the result.
        noise = lam * np.exp(np.minimum(log_rel, 600.0))
        factor = stable_cholesky(K + np.diag(noise), name="K + lambda Lambda")
        mean = Ks.T @ factor.solve(y)
        u = factor.solve(Ks)
        var = np.maximum(kss - np.einsum("ij,ij->j", Ks, u), 0.0)
    # λ uᵀ(Λ − I)u = λ Σ_s (u_s √Λ_s)² (1 − 1/Λ_s), evaluated in log space so that no Λ_s overflows.
    with np.errstate(divide="ignore"):
        scaled_sq = np.exp(2.0 * np.log(np.abs(u)) + log_rel[:, None])
    loose = np.maximum(var - lam * np.einsum("ij,i->j", scaled_sq, -np.expm1(-log_rel)), 0.0)
    return WeightedPosterior(mean, var, loose, factor.jitter)


def weighted_posterior_mp(
    K: mpmath.matrix,
    K_star: mpmath.matrix,
    prior_var_star: list,
    y: list,
    *,
    lam: float,
    weights: list,
    form: str = "relative",
) -> tuple[list, list, list]:
    """mpmath twin of :func:`weighted_posterior` from Gram blocks at the current ``mpmath.mp.dps``.

    ``K`` (t×t) and ``K_star`` (t×m) are ``mpmath.matrix`` Gram blocks (e.g. from
    :func:`tvbo_verify.nystrom.gram_mp`), ``prior_var_star`` the ``m`` prior variances, ``y`` and
    ``weights`` the data (floats are taken exactly). ``form="direct"`` is eqs. (2)–(3) literally
    (``W K W + λ w_t I``), ``"relative"`` the heteroscedastic form with noise ``λ w_t / w_s``. Returns
    the lists ``(mean, var, loose_var)`` over the test points.
    """
    check_choice("form", form, ("relative", "direct"))
    t, m = K.rows, K_star.cols
    lam_mp = mpmath.mpf(lam)
    w = [mpmath.mpf(v) for v in weights]
    yv = mpmath.matrix([mpmath.mpf(v) for v in y])
    rel = [w[-1] / ws for ws in w]  # Λ_s = w_t / w_s
    if form == "direct":
        sw = [mpmath.sqrt(v) for v in w]
        A = mpmath.matrix([[sw[i] * K[i, j] * sw[j] + (lam_mp * w[-1] if i == j else 0) for j in range(t)]
                           for i in range(t)])
    else:
        A = mpmath.matrix([[K[i, j] + (lam_mp * rel[i] if i == j else 0) for j in range(t)] for i in range(t)])
    means, variances, loose = [], [], []
    for c in range(m):
        if form == "direct":
            kx = mpmath.matrix([sw[i] * K_star[i, c] for i in range(t)])
            v = mpmath.lu_solve(A, kx)
            mean = mpmath.fsum(v[i] * sw[i] * yv[i] for i in range(t))
            u = [sw[i] * v[i] for i in range(t)]
        else:
            kx = mpmath.matrix([K_star[i, c] for i in range(t)])
            v = mpmath.lu_solve(A, kx)
            mean = mpmath.fsum(v[i] * yv[i] for i in range(t))
            u = [v[i] for i in range(t)]
        var = mpmath.mpf(prior_var_star[c]) - mpmath.fsum(v[i] * kx[i] for i in range(t))
        means.append(mean)
        variances.append(var)
        loose.append(var - lam_mp * mpmath.fsum(u[i] ** 2 * (rel[i] - 1) for i in range(t)))
    return means, variances, loose


def pooled_posterior_mp(K: mpmath.matrix, K_star: mpmath.matrix, prior_var_star: list, *, lam: float,
                        single: list, double: list) -> tuple[list, list]:
    """``(σ̂², σ̃²)`` of :func:`weighted_posterior_mp` (relative form) when the data repeat a few distinct points.

    Row ``P`` of ``K`` (p×p Gram of the distinct data points) stands for every observation at that point, with
    its pooled relative weights ``single[P] = Σ_{s: x_s = P} w_s/w_t`` and ``double[P] = Σ_{s: x_s = P} (w_s/w_t)²``,
    so the cost is that of p points whatever the number of observations. In feature form
    ``V = Σ_P single_P φ_Pφ_Pᵀ + λI`` and ``Ṽ = Σ_P double_P φ_Pφ_Pᵀ + λI`` (``wgpucb`` App. C); with
    ``M = K + λ diag(1/single)`` and ``v = M⁻¹k_x`` (Woodbury): ``σ̂² = k(x, x) − k_xᵀv`` and
    ``σ̃² = σ̂² − λ Σ_P v_P² (single_P − double_P)/single_P²``. With one observation per row
    (``double = single²``) these are :func:`weighted_posterior_mp`'s ``var`` and ``loose_var``.

    Examples
    --------
    >>> import mpmath
    >>> K, Ks = mpmath.matrix([[1, 0.5], [0.5, 1]]), mpmath.matrix([[0.3], [0.9]])
    >>> g = mpmath.mpf("0.8")  # x_1 = x_2 = P_0, x_3 = P_1, at t = 3
    >>> var, loose = pooled_posterior_mp(K, Ks, [1], lam=0.5, single=[g**2 + g, 1], double=[g**4 + g**2, 1])
    >>> full = mpmath.matrix([[1, 1, 0.5], [1, 1, 0.5], [0.5, 0.5, 1]])
    >>> _, v, lv = weighted_posterior_mp(full, mpmath.matrix([[0.3], [0.3], [0.9]]), [1], [0, 0, 0], lam=0.5,
    ...                                  weights=[g**-1, g**-2, g**-3])
    >>> bool(abs(var[0] - v[0]) < 1e-12 and abs(loose[0] - lv[0]) < 1e-12)
    True
    """
    p, lam_mp = K.rows, mpmath.mpf(lam)
    a, a2 = [mpmath.mpf(v) for v in single], [mpmath.mpf(v) for v in double]
    M = mpmath.matrix([[K[i, j] + (lam_mp / a[i] if i == j else 0) for j in range(p)] for i in range(p)])
    variances, loose = [], []
    for c in range(K_star.cols):
        kx = mpmath.matrix([K_star[i, c] for i in range(p)])
        v = mpmath.lu_solve(M, kx)
        var = mpmath.mpf(prior_var_star[c]) - mpmath.fsum(v[i] * kx[i] for i in range(p))
        variances.append(var)
        loose.append(var - lam_mp * mpmath.fsum(v[i] ** 2 * (a[i] - a2[i]) / a[i] ** 2 for i in range(p)))
    return variances, loose


class WeightedFeatureRegression:
    """Feature-space objects of weighted regression (``wgpucb`` §1.6, analysis only), normalised by ``w_t``.

    ``F`` holds the feature vectors ``φ(x_1..x_t)`` of the data as rows (e.g.
    :attr:`tvbo_verify.information.GridMercer.features`), ``weights`` the positive ``w_1..w_t``. With the
    relative weights ``r_s = w_s / w_t`` (``wgpucb`` App. C):

    * ``V = V_t / w_t = Σ_s r_s φ_s φ_sᵀ + λ I`` (weighted Gram, regulariser ``λ_t = λ w_t``);
    * ``Ṽ = Ṽ_t / w_t² = Σ_s r_s² φ_s φ_sᵀ + λ I`` (double-weighted Gram, ``α_t = λ w_t²``).

    Every quantity of the paper is invariant under this normalisation: ``σ̂² = λ_t‖φ‖²_{V_t⁻¹} = λ φᵀV⁻¹φ``
    (Lemma 12), ``σ̃² = λ‖φ‖²_{V_t⁻¹Ṽ_tV_t⁻¹} = λ aᵀṼa`` with ``a = V⁻¹φ`` and ``θ̂_t = V⁻¹ Σ_s r_s φ_s y_s``
    (Lemma 9). Dense solves: this is a referee of the kernel forms on small feature dimensions.
    """

    def __init__(self, F: np.ndarray, weights: np.ndarray, lam: float) -> None:
        F = np.asarray(F, dtype=float)
        if F.ndim != 2:
            raise ValueError(f"F must be a 2-D array of feature rows, got shape {F.shape}")
        w = as_vector("weights", weights, F.shape[0])
        if F.shape[0] == 0 or np.any(w <= 0):
            raise ValueError(f"weights must be a non-empty vector of positive values, got {w.tolist()!r}")
        self.lam = check_positive("lam", lam)
        self.F = F
        self.relative = w / w[-1]
        r = self.relative
        eye = np.eye(F.shape[1])
        self.V = F.T @ (r[:, None] * F) + self.lam * eye
        self.V_double = F.T @ ((r**2)[:, None] * F) + self.lam * eye

    def variance(self, phi: np.ndarray) -> float:
        """``σ̂²(x) = λ_t ‖φ(x)‖²_{V_t⁻¹}`` (Lemma 12, the feature form of eq. (3))."""
        phi = np.asarray(phi, dtype=float)
        return float(self.lam * phi @ np.linalg.solve(self.V, phi))

    def loose_variance(self, phi: np.ndarray) -> float:
        """``σ̃²(x) = λ ‖φ(x)‖²_{V_t⁻¹ Ṽ_t V_t⁻¹}`` (the loose variance of Theorem 2)."""
        a = np.linalg.solve(self.V, np.asarray(phi, dtype=float))
        return float(self.lam * a @ self.V_double @ a)

    def theta(self, y: np.ndarray) -> np.ndarray:
        """``θ̂_t = V_t⁻¹ Σ_s w_s φ(x_s) y_s`` (Lemma 9)."""
        y = as_vector("y", y, self.F.shape[0])
        return np.linalg.solve(self.V, self.F.T @ (self.relative * y))

    @property
    def condition(self) -> float:
        """Condition number of ``V`` (for tolerances)."""
        return float(np.linalg.cond(self.V))


class DiscountedFeatureRegression:
    """WGP-UCB's regression with ``w_s = γ^{-s}`` in a finite feature space, ``O(r²)`` per observation.

    ``features`` is the ``(G, r)`` array of feature rows ``φ(x)`` of a candidate grid (e.g. the exact
    Mercer features of a grid, :attr:`tvbo_verify.information.GridMercer.features`). Everything is kept
    normalised by ``w_t`` (``wgpucb`` App. C), so nothing overflows however long the run:

    * ``V = Σ_s γ^{t-s} φ_s φ_sᵀ + λI`` (``V_t/w_t``), ``Ṽ = Σ_s γ^{2(t-s)} φ_s φ_sᵀ + λI`` (``Ṽ_t/w_t²``);
    * ``b = Σ_s γ^{t-s} φ_s y_s`` and ``S = Σ_s γ^{t-s} φ_s ε_s`` (``S_t/w_t``, when the noise is passed).

    Appending ``(x_{t+1}, y_{t+1})`` maps ``V -> γ(V − λI) + φφᵀ + λI``, ``Ṽ -> γ²(Ṽ − λI) + φφᵀ + λI``,
    ``b -> γb + φy``. Then on the grid (``wgpucb`` eqs. (2)–(3), Lemmas 9, 10, 12):
    ``μ̃ = Φ V⁻¹ b``, ``σ̂² = λ diag(Φ V⁻¹ Φᵀ)``, ``σ̃² = λ diag(Φ V⁻¹ Ṽ V⁻¹ Φᵀ)``,
    ``‖S_t‖²_{Ṽ_t⁻¹} = Sᵀ Ṽ⁻¹ S`` and ``log det(I + α_t⁻¹ K̄_t) = log det(Ṽ/λ)`` (Sylvester).
    """

    def __init__(self, features: np.ndarray, lam: float, disc: float) -> None:
        F = np.asarray(features, dtype=float)
        if F.ndim != 2 or F.shape[0] == 0:
            raise ValueError(f"features must be a non-empty (G, r) array, got shape {F.shape}")
        self.F = F
        self.lam = check_positive("lam", lam)
        self.disc = check_interval("disc", disc, 0.0, 1.0, closed_low=False)
        r = F.shape[1]
        self.V = self.lam * np.eye(r)
        self.V_double = self.lam * np.eye(r)
        self.b = np.zeros(r)
        self.S = np.zeros(r)
        self.t = 0

    def append(self, index: int, y: float, noise: float = 0.0) -> None:
        """Add the observation ``y`` at grid row ``index`` (``noise`` is its ε, for :meth:`noise_norm`)."""
        phi = self.F[int(index)]
        g, lam, eye = self.disc, self.lam, np.eye(self.F.shape[1])
        outer = np.outer(phi, phi)
        self.V = g * (self.V - lam * eye) + outer + lam * eye
        self.V_double = g * g * (self.V_double - lam * eye) + outer + lam * eye
        self.b = g * self.b + phi * float(y)
        self.S = g * self.S + phi * float(noise)
        self.t += 1

    def append_run(self, index: int, count: int, y: float = 0.0) -> None:
        """Add ``count`` observations ``y`` (noise 0) at grid row ``index`` in one step, ``O(r²)`` whatever ``count``.

        The same as ``count`` calls of :meth:`append`, in closed form: with ``n = count``,
        ``V -> γⁿ(V − λI) + (Σ_{j<n} γ^j) φφᵀ + λI``, ``Ṽ -> γ²ⁿ(Ṽ − λI) + (Σ_{j<n} γ^{2j}) φφᵀ + λI``,
        ``b -> γⁿb + (Σ_{j<n} γ^j) φy``, ``S -> γⁿS``.

        Examples
        --------
        >>> import numpy as np
        >>> F = np.array([[1.0, 0.0], [0.6, 0.8]])
        >>> a, b = DiscountedFeatureRegression(F, 0.5, 0.9), DiscountedFeatureRegression(F, 0.5, 0.9)
        >>> for _ in range(7):
        ...     a.append(1, 0.3)
        >>> b.append_run(1, 7, 0.3)
        >>> bool(np.allclose(a.V, b.V) and np.allclose(a.V_double, b.V_double) and np.allclose(a.b, b.b))
        True
        """
        n = int(count)
        if n < 0:
            raise ValueError(f"count must be >= 0, got {count!r}")
        phi = self.F[int(index)]
        g, lam, eye = self.disc, self.lam, np.eye(self.F.shape[1])
        outer = np.outer(phi, phi)
        single, double = (1.0 - g**n) / (1.0 - g), (1.0 - g ** (2 * n)) / (1.0 - g * g)
        self.V = g**n * (self.V - lam * eye) + single * outer + lam * eye
        self.V_double = g ** (2 * n) * (self.V_double - lam * eye) + double * outer + lam * eye
        self.b = g**n * self.b + single * phi * float(y)
        self.S = g**n * self.S
        self.t += n

    def _solve_grid(self) -> np.ndarray:
        return np.linalg.solve(self.V, self.F.T)  # V⁻¹ Φᵀ, (r, G)

    def mean(self) -> np.ndarray:
        """``μ̃_t`` on the grid (eq. (2))."""
        return self.F @ np.linalg.solve(self.V, self.b)

    def variances(self) -> tuple[np.ndarray, np.ndarray]:
        """``(σ̂_t², σ̃_t²)`` on the grid: eq. (3) and the loose variance of Theorem 2."""
        A = self._solve_grid()
        var = self.lam * np.einsum("ij,ij->j", self.F.T, A)
        loose = self.lam * np.einsum("ij,ij->j", A, self.V_double @ A)
        return np.maximum(var, 0.0), np.maximum(loose, 0.0)

    def noise_norm(self) -> float:
        """``‖S_t‖_{Ṽ_t⁻¹}`` (the left side of Lemma 10)."""
        return float(np.sqrt(max(self.S @ np.linalg.solve(self.V_double, self.S), 0.0)))

    def log_det_double(self) -> float:
        """``log det(I + α_t⁻¹ W² Φ_t Φ_tᵀ W²) = log det(Ṽ/λ)``, twice the realised double-weighted gain."""
        return float(np.linalg.slogdet(self.V_double / self.lam)[1])

    def log_det_single(self) -> float:
        """``log det(I + λ_t⁻¹ W Φ_t Φ_tᵀ W) = log det(V/λ)``, twice the realised single-weighted gain
        (``γ̃_t`` at the data; ``γ̌_t`` when the features are quadrature Fourier features)."""
        return float(np.linalg.slogdet(self.V / self.lam)[1])


def _log_relative_weights(t: int, discount: float | None, weights: np.ndarray | None) -> np.ndarray:
    """Return ``log(w_t / w_s)`` for ``s = 1..t``."""
    if (discount is None) == (weights is None):
        raise ValueError("exactly one of discount and weights must be given")
    if discount is not None:
        g = check_interval("discount", discount, 0.0, 1.0, closed_low=False)
        return (t - np.arange(1, t + 1)) * (-np.log(g))
    w = as_vector("weights", weights, t)
    if np.any(w <= 0):
        raise ValueError(f"weights must be > 0, got {float(w[np.argmax(w <= 0)])!r}")
    return np.log(w[-1]) - np.log(w) if t else np.zeros(0)


def _absolute_weights(t: int, discount: float | None, weights: np.ndarray | None) -> np.ndarray:
    if discount is not None:
        with np.errstate(over="raise"):
            try:
                return np.power(float(discount), -np.arange(1, t + 1, dtype=float))
            except FloatingPointError:
                raise ValueError(
                    f"discount={discount!r} overflows the direct form at t={t}; use form='relative'"
                ) from None
    return as_vector("weights", weights, t)


# --------------------------------------------------------------------------------------------------
# Incremental posterior on a fixed grid
# --------------------------------------------------------------------------------------------------


class _GridPosteriorState:
    """What every incremental grid posterior stores besides its factor: the observations in insertion order
    (grid index, value, noise variance, time), their count ``n``, the append ``clock``, and the posterior
    mean and variance on the grid, with the public read-only views."""

    def _init_observations(self, kernel: Kernel, grid: np.ndarray, capacity: int) -> int:
        self.kernel = kernel
        self.grid = as_points("grid", grid)
        self.G = self.grid.shape[0]
        self.prior_var = kernel.diag(self.grid)
        cap = max(int(capacity), 1)
        self._idx = np.zeros(cap, dtype=np.int64)
        self._y = np.zeros(cap)
        self._noise = np.zeros(cap)
        self._time = np.zeros(cap)
        self.n = 0
        self.clock = 0  # number of appends so far: the time index of the next observation minus one
        self.jitter = 0.0
        self._var = self.prior_var.copy()
        self._mean = np.zeros(self.G)
        return cap

    def _grow_observations(self, new: int) -> None:
        extra = new - self._y.size
        for name in ("_y", "_noise", "_time"):
            setattr(self, name, np.concatenate([getattr(self, name), np.zeros(extra)]))
        self._idx = np.concatenate([self._idx, np.zeros(extra, dtype=np.int64)])

    @property
    def indices(self) -> np.ndarray:
        return self._idx[: self.n].copy()

    @property
    def y(self) -> np.ndarray:
        return self._y[: self.n].copy()

    @property
    def noise_var(self) -> np.ndarray:
        return self._noise[: self.n].copy()

    @property
    def times(self) -> np.ndarray:
        return self._time[: self.n].copy()

    @property
    def mean(self) -> np.ndarray:
        """Posterior mean on the grid (maintained by the updates)."""
        return self._mean.copy()

    @property
    def var(self) -> np.ndarray:
        """Posterior variance on the grid."""
        return self._var.copy()

    def _check_index(self, index: int) -> int:
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < self.G:
            raise ValueError(f"index must be an integer in [0, {self.G - 1}], got {index!r}")
        return int(index)

    def _admit(self, index: int, y: float, noise_var: float) -> tuple[int, float, float]:
        """Validate an appended observation, make room for it and advance the clock."""
        index = self._check_index(index)
        y = float(as_vector("y", y, 1)[0])
        noise = check_positive("noise_var", noise_var)
        self._ensure_capacity(self.n + 1)
        self.clock += 1
        return index, y, noise


class IncrementalPosterior(_GridPosteriorState):
    """Exact GP posterior on a fixed candidate grid, updated in ``O(t·G)`` per observation.

    State: the Cholesky factor ``L`` of ``K̃ + Σ`` over the ``t`` stored observations, ``A = L⁻¹ k̃(grid)``
    (t×G) and ``z = L⁻¹ y``; then ``mean = Aᵀz`` and ``var = k(x,x) − colsum(A²)``.

    * :meth:`append` extends ``L`` by one row (``O(t)``, read from ``A``) and ``A`` by one row (``O(t·G)``);
      with ``keep_factor=False`` only the diagonal of ``L`` is kept (no ``t×t`` array; :meth:`remove` is then
      unavailable), which is what GP-UCB, R-GP-UCB and TV-GP-UCB need.
    * :meth:`remove` deletes observation ``i`` with a rank-one Cholesky update of the trailing block done
      by Givens rotations that are applied to the trailing rows of ``A`` and ``z`` as well (``O(t·G)``).
    * :meth:`refresh` refactors from scratch with a new noise vector (uncertainty injection changes every
      noise variance at every step; ``wsparq`` §1.4): ``O(t³ + t²·G)``.
    * ``forgetting=ε`` turns it into the TV-GP-UCB posterior of ``f_{t+1}`` (``tvgpucb`` eqs. (7)–(8)): the
      observation made at the ``s``-th append has time ``s``; each append multiplies ``k̃(grid)`` by
      ``√(1-ε)``, i.e. scales ``A`` (and hence the mean) uniformly — the separable temporal factor. The
      scaling is kept as one scalar (``A = scale · Â``), so an append still touches ``A`` once (the
      product with the new row), not twice; ``Â`` is rescaled only when ``scale`` nears underflow.

    Observations are referred to by their grid index; ``.indices``, ``.y``, ``.noise_var`` and ``.times``
    list the stored observations in order.

    Examples
    --------
    Appending and removing give what a refit from scratch gives:

    >>> import numpy as np
    >>> from tvbo_verify.gp import IncrementalPosterior, posterior, tv_posterior
    >>> from tvbo_verify.kernels import SquaredExponential
    >>> k, grid = SquaredExponential(lengthscale=0.5), np.linspace(0, 1, 11)[:, None]
    >>> inc = IncrementalPosterior(k, grid)
    >>> for i, yi in [(0, 0.3), (5, -0.2), (10, 0.5)]: inc.append(i, yi, 0.1)
    >>> mean, var = posterior(k, grid[[0, 5, 10]], [0.3, -0.2, 0.5], 0.1, grid)
    >>> bool(np.allclose(inc.mean, mean) and np.allclose(inc.var, var))
    True
    >>> inc.remove(0)
    >>> mean, var = posterior(k, grid[[5, 10]], [-0.2, 0.5], 0.1, grid)
    >>> inc.indices.tolist(), bool(np.allclose(inc.mean, mean) and np.allclose(inc.var, var))
    ([5, 10], True)

    With ``forgetting=ε`` it is the TV-GP-UCB posterior of :func:`tv_posterior`:

    >>> tvi = IncrementalPosterior(k, grid, forgetting=0.1)
    >>> for i, yi in [(0, 0.3), (5, -0.2), (10, 0.5)]: tvi.append(i, yi, 0.1)
    >>> ref = tv_posterior(k, grid[[0, 5, 10]], [0.3, -0.2, 0.5], 0.1, grid, epsilon=0.1)
    >>> bool(np.allclose(tvi.mean, ref.mean) and np.allclose(tvi.var, ref.var))
    True
    >>> tvi.append(11, 0.0, 0.1)
    Traceback (most recent call last):
    ...
    ValueError: index must be an integer in [0, 10], got 11
    """

    ROW_CACHE = 256  # kernel rows k(x, grid) kept for revisited grid points
    _RESCALE_BELOW = 1e-150  # fold the temporal scale into the rows before it can underflow

    def __init__(self, kernel: Kernel, grid: np.ndarray, *, forgetting: float | None = None,
                 capacity: int = 64, keep_factor: bool = True) -> None:
        cap = self._init_observations(kernel, grid, capacity)
        self._temporal = None if forgetting is None else ForgettingKernel(forgetting)
        self._rho = 1.0 if self._temporal is None else float(np.sqrt(1.0 - self._temporal.epsilon))
        # An append reads L⁻¹b from A, never L: only remove() needs the t×t factor, so a posterior that never
        # removes keeps its diagonal alone (the log-det), not t² numbers.
        self._L = np.zeros((cap, cap)) if keep_factor else None
        self._Ldiag = np.zeros(cap)
        self._A = np.zeros((cap, self.G))
        self._z = np.zeros(cap)
        self._rows: dict[int, np.ndarray] = {}
        self._scale = 1.0  # A = _scale · _A (the temporal factor accumulated since the last rescale)

    # -- updates ----------------------------------------------------------------------------------
    def append(self, index: int, y: float, noise_var: float) -> None:
        """Add the observation ``y`` at grid point ``index`` with noise variance ``noise_var``."""
        index, y, noise = self._admit(index, y, noise_var)
        n = self.n
        time = float(self.clock)
        # A = L⁻¹ k̃(X, grid) with target time ``time``, so its column ``index`` is L⁻¹ b for the new point's
        # covariances b = k̃(X, x_new): no triangular solve is needed (the class invariant gives it).
        row = self._A[:n, index] * self._scale
        if self._temporal is not None and n:
            # k̃(grid) of every stored observation moves one step further back: A ← ρA, kept in the scalar
            if self._scale * self._rho < self._RESCALE_BELOW:
                self._A[:n] *= self._scale * self._rho
                self._scale = 1.0
            else:
                self._scale *= self._rho
            self._mean *= self._rho
        kx = self._kernel_row(index)  # k(x_new, grid)
        if self._temporal is not None:
            kx = kx * self._rho  # target time is clock + 1
        c = float(self.prior_var[index]) + noise
        d2 = c - float(row @ row)
        if not d2 > 1e-12 * c:
            self._idx[n], self._y[n], self._noise[n], self._time[n] = index, y, noise, time
            self.n += 1
            self.refresh(self._noise[: self.n])
            return
        d = np.sqrt(d2)
        self._Ldiag[n] = d
        if self._L is not None:
            self._L[n, :n] = row
            self._L[n, n] = d
            self._L[:n, n] = 0.0
        a = self._A[n]
        np.dot(row, self._A[:n], out=a)  # the one O(n·G) product of the update
        if self._scale != 1.0:
            a *= self._scale
        np.subtract(kx, a, out=a)
        a /= d
        self._z[n] = (y - float(row @ self._z[:n])) / d
        self._mean += self._z[n] * a
        self._idx[n], self._y[n], self._noise[n], self._time[n] = index, y, noise, time
        self.n += 1
        # colsum(A²) gained a*a and, with forgetting, its old part was scaled by ρ²: var' = prior − explained'.
        if self._rho != 1.0:
            self._var = self.prior_var - (self.prior_var - self._var) * (self._rho**2)
        self._var -= a * a
        np.maximum(self._var, 0.0, out=self._var)
        if self._scale != 1.0:
            a /= self._scale  # stored as Â = A / scale

    def _kernel_row(self, index: int) -> np.ndarray:
        """``k(x_index, grid)``, cached for the most recently used grid points (UCB revisits them)."""
        row = self._rows.pop(index, None)
        if row is None:
            row = self.kernel(self.grid[index : index + 1], self.grid)[0]
            if len(self._rows) >= self.ROW_CACHE:
                self._rows.pop(next(iter(self._rows)))
        self._rows[index] = row  # most recent last
        return row

    def remove(self, position: int) -> None:
        """Delete the ``position``-th stored observation (0-based, in insertion order)."""
        n = self.n
        if not (isinstance(position, (int, np.integer)) and 0 <= position < n):
            raise ValueError(f"position must be an integer in [0, {n - 1}], got {position!r}")
        p = int(position)
        if self._L is None:
            raise ValueError("remove needs the Cholesky factor: build the posterior with keep_factor=True")
        L, A, z = self._L, self._A, self._z
        # Trailing block: L33' L33'ᵀ = L33 L33ᵀ + l32 l32ᵀ, done with Givens rotations that also carry
        # the rows of A and z (L33 A3 + l32 a2 = [L33', 0] Qᵀ [A3; a2]).
        v = L[p + 1 : n, p].copy()
        a_extra = A[p].copy()
        z_extra = z[p]
        for j in range(p + 1, n):
            k = j - (p + 1)
            ljj = L[j, j]
            vk = v[k]
            r = np.hypot(ljj, vk)
            c, s = ljj / r, vk / r
            col = L[j:n, j].copy()
            vv = v[k:].copy()
            L[j:n, j] = c * col + s * vv
            v[k:] = -s * col + c * vv
            drot(A[j], a_extra, c, s, overwrite_x=True, overwrite_y=True)  # in place: (c a + s e, c e − s a)
            zj = z[j]
            z[j] = c * zj + s * z_extra
            z_extra = -s * zj + c * z_extra
        # The rotations are orthogonal on each pair (A[j], extra) and (z[j], extra): colsum(A²) and Aᵀz over
        # the kept rows are the old sums less the part left in the extra row.
        a_extra *= self._scale  # the rotations are linear: they act on Â, the removed part is scale · â
        explained = (self.prior_var - self._var) - a_extra * a_extra
        self._mean -= a_extra * z_extra
        if p == 0:
            L[: n - 1, : n - 1] = L[1:n, 1:n]
        else:
            keep = np.r_[0:p, p + 1 : n]
            L[: n - 1, : n - 1] = L[np.ix_(keep, keep)]
        L[n - 1, :] = 0.0
        L[:, n - 1] = 0.0
        self._Ldiag[: n - 1] = np.diag(L)[: n - 1]
        A[p : n - 1] = A[p + 1 : n]
        z[p : n - 1] = z[p + 1 : n]
        for arr in (self._idx, self._y, self._noise, self._time):
            arr[p : n - 1] = arr[p + 1 : n]
        self.n = n - 1
        self._var = np.maximum(self.prior_var - explained, 0.0)

    def refresh(self, noise_var: float | np.ndarray | None = None) -> None:
        """Refactor from scratch, optionally with new noise variances for every stored observation."""
        n = self.n
        if noise_var is not None:
            self._noise[:n] = as_noise("noise_var", noise_var, n)
        if n == 0:
            self._var = self.prior_var.copy()
            self._mean = np.zeros(self.G)
            return
        idx = self._idx[:n]
        Kg = self.kernel(self.grid[idx], self.grid)
        K = Kg[:, idx]
        if self._temporal is not None:
            times = self._time[:n]
            K = K * self._temporal.of_lag(times[:, None] - times[None, :])
            Kg = Kg * self._temporal.of_lag(self.clock + 1 - times)[:, None]
        factor = stable_cholesky(K + np.diag(self._noise[:n]), name="K + Sigma")
        self.jitter = max(self.jitter, factor.jitter)
        if self._L is not None:
            self._L[:n, :n] = factor.L
        self._Ldiag[:n] = np.diag(factor.L)
        self._A[:n] = factor.half_solve(Kg)
        self._scale = 1.0
        self._z[:n] = factor.half_solve(self._y[:n])
        self._var = np.maximum(self.prior_var - np.einsum("ij,ij->j", self._A[:n], self._A[:n]), 0.0)
        self._mean = self._A[:n].T @ self._z[:n]

    def set_model(self, kernel: Kernel, *, forgetting: float | None = None,
                  noise_var: float | np.ndarray | None = None) -> None:
        """Adopt a new kernel (and forgetting ``ε``, noise variances) for the stored observations and refactor
        (``O(t³ + t²·G)``): used after hyperparameters are refitted. Observation times are kept."""
        self.kernel = kernel
        self.prior_var = kernel.diag(self.grid)
        self._rows = {}
        self._temporal = None if forgetting is None else ForgettingKernel(forgetting)
        self._rho = 1.0 if self._temporal is None else float(np.sqrt(1.0 - self._temporal.epsilon))
        self.refresh(noise_var)

    def log_det_ratio(self) -> float:
        """``log(|K̃ + Σ| / |Σ|)`` of the stored observations from the maintained factor (``O(t)``): the
        information term of the ``kk`` width (``wsparq`` eq. (12)) without a second factorisation."""
        n = self.n
        return float(2.0 * np.sum(np.log(self._Ldiag[:n])) - np.sum(np.log(self._noise[:n])))

    # -- helpers ----------------------------------------------------------------------------------

    def _ensure_capacity(self, size: int) -> None:
        cap = self._A.shape[0]
        if size <= cap:
            return
        new = max(size, 2 * cap)
        if self._L is not None:
            L = np.zeros((new, new))
            L[:cap, :cap] = self._L
            self._L = L
        self._A = np.vstack([self._A, np.zeros((new - cap, self.G))])
        self._z = np.concatenate([self._z, np.zeros(new - cap)])
        self._Ldiag = np.concatenate([self._Ldiag, np.zeros(new - cap)])
        self._grow_observations(new)


class WindowPosterior(_GridPosteriorState):
    """Exact GP posterior on a fixed grid for a data set that loses observations as often as it gains them.

    A sliding window (SW-GP-UCB) drops one observation per round. Removing an observation from the
    factor of :class:`IncrementalPosterior` rotates every later row of its ``t×G`` matrix ``A`` one Givens
    rotation at a time; here nothing ``t×G`` is rotated. State: the kernel rows ``k(x_i, grid)`` of the
    stored observations (written once, in slots reused after removals), the upper factor ``R`` with
    ``RᵀR = K + Σ`` (``t×t``), and the posterior ``mean`` and ``var`` on the grid. With
    ``P = (K + Σ)⁻¹``, ``α = P y`` and ``V = P k(X, grid)``:

    * :meth:`append` of ``(x, y)``: ``l = R⁻ᵀ b``, ``u = R⁻¹ l`` (``b = k(X, x)``), ``d² = k(x,x) + σ² − lᵀl``,
      ``a = (k(x, grid) − k(X, grid)ᵀ u)/d``; then ``var −= a²``, ``mean += a (y − μ(x))/d`` and ``R`` gains
      the column ``(l, d)`` — one ``t×G`` product and two ``t×t`` triangular solves;
    * :meth:`remove` of observation ``i``: ``p = P e_i`` (two triangular solves), ``v = k(X, grid)ᵀ p``,
      ``var += v² / P_ii`` (the Schur downdate, as in ``bolt`` eq. (12)'s criterion); column ``i`` is deleted
      from ``R`` by :func:`scipy.linalg.qr_delete` (``O(t²)``) and the mean is recomputed as
      ``k(X', grid)ᵀ α'`` in the same pass over the kernel rows as ``v`` (a refit's mean, no drift).

    A round of a window of ``W`` observations costs two ``W×G`` products and ``O(W²)``. The same public
    interface as :class:`IncrementalPosterior` (no temporal forgetting).

    Examples
    --------
    A window slides (append one, drop the oldest) and stays equal to a refit on the kept observations:

    >>> import numpy as np
    >>> from tvbo_verify.gp import WindowPosterior, posterior
    >>> from tvbo_verify.information import log_det_ratio
    >>> from tvbo_verify.kernels import SquaredExponential
    >>> k, grid = SquaredExponential(lengthscale=0.5), np.linspace(0, 1, 11)[:, None]
    >>> win = WindowPosterior(k, grid)
    >>> for i, yi in [(0, 0.3), (5, -0.2), (10, 0.5), (3, 0.0)]: win.append(i, yi, 0.1)
    >>> win.remove(0)
    >>> mean, var = posterior(k, grid[[5, 10, 3]], [-0.2, 0.5, 0.0], 0.1, grid)
    >>> win.indices.tolist(), bool(np.allclose(win.mean, mean) and np.allclose(win.var, var))
    ([5, 10, 3], True)
    >>> round(win.log_det_ratio(), 4), round(log_det_ratio(k, grid[[5, 10, 3]], 0.1), 4)
    (5.5385, 5.5385)
    """

    def __init__(self, kernel: Kernel, grid: np.ndarray, *, capacity: int = 64) -> None:
        cap = self._init_observations(kernel, grid, capacity)
        self._KX = np.zeros((cap, self.G))  # kernel rows, by slot
        self._coef = np.zeros((2, cap))  # coefficient rows by slot (zeros in free slots)
        self._slot = np.zeros(cap, dtype=np.int64)  # slot of the observation at each position
        self._free = list(range(cap - 1, -1, -1))
        self._R = np.zeros((0, 0), order="F")

    def log_det_ratio(self) -> float:
        """``log(|K + Σ| / |Σ|)`` of the stored observations from the maintained factor (``O(t)``)."""
        n = self.n
        return float(2.0 * np.sum(np.log(np.abs(np.diag(self._R)))) - np.sum(np.log(self._noise[:n])))

    # -- updates ----------------------------------------------------------------------------------
    def _products(self, coef: np.ndarray, slots: np.ndarray) -> np.ndarray:
        """``coef @ k(X, grid)`` for coefficient rows over the observations in ``slots``: the one pass over
        the stored kernel rows that an update makes."""
        full = self._coef[: coef.shape[0]]
        full[:, slots] = coef
        out = full @ self._KX
        full[:, slots] = 0.0
        return out

    def append(self, index: int, y: float, noise_var: float) -> None:
        """Add the observation ``y`` at grid point ``index`` with noise variance ``noise_var``."""
        index, y, noise = self._admit(index, y, noise_var)
        n = self.n
        slot = self._free.pop()
        kx = self._KX[slot]
        kx[:] = self.kernel(self.grid[index : index + 1], self.grid)[0]
        c = float(self.prior_var[index]) + noise
        if n:
            b = self._KX[self._slot[:n], index]
            l_vec = dtrtrs(self._R, b, lower=0, trans=1)[0]  # Rᵀ l = b
            d2 = c - float(l_vec @ l_vec)
        else:
            l_vec, d2 = np.zeros(0), c
        self._idx[n], self._y[n], self._noise[n], self._time[n], self._slot[n] = index, y, noise, self.clock, slot
        if not d2 > 1e-12 * c:
            self.n += 1
            self.refresh()
            return
        d = float(np.sqrt(d2))
        a = kx - self._products(dtrtrs(self._R, l_vec, lower=0, trans=0)[0][None, :], self._slot[:n])[0] if n \
            else kx.copy()
        a /= d
        self._mean += a * ((y - self._mean[index]) / d)
        self._var -= a * a
        np.maximum(self._var, 0.0, out=self._var)
        R = np.zeros((n + 1, n + 1), order="F")
        R[:n, :n] = self._R
        R[:n, n] = l_vec
        R[n, n] = d
        self._R = R
        self.n += 1

    def remove(self, position: int) -> None:
        """Delete the ``position``-th stored observation (0-based, in insertion order)."""
        n = self.n
        if not (isinstance(position, (int, np.integer)) and 0 <= position < n):
            raise ValueError(f"position must be an integer in [0, {n - 1}], got {position!r}")
        p = int(position)
        e = np.zeros(n)
        e[p] = 1.0
        coef = np.zeros((2, n))
        coef[0] = dpotrs(self._R, e, lower=0)[0]  # P e_p
        slots = self._slot[:n].copy()
        self._R = np.asfortranarray(qr_delete(np.eye(n), self._R, p, 1, "col", check_finite=False)[1][: n - 1])
        self._free.append(int(slots[p]))
        for arr in (self._idx, self._y, self._noise, self._time, self._slot):
            arr[p : n - 1] = arr[p + 1 : n]
        self.n = n - 1
        if n > 1:  # α' = P' y' of the kept observations, at their old positions (0 at p)
            coef[1, np.r_[0:p, p + 1 : n]] = dpotrs(self._R, self._y[: n - 1], lower=0)[0]
        # One pass over the kernel rows gives v = k(X, grid)ᵀ P e_p (the variance downdate) and the mean
        # k(X', grid)ᵀ α' afresh (no drift of the mean over many updates).
        v, self._mean = self._products(coef, slots)
        self._var += v * v / coef[0, p]

    def refresh(self, noise_var: float | np.ndarray | None = None) -> None:
        """Refactor from scratch, optionally with new noise variances for every stored observation."""
        n = self.n
        if noise_var is not None:
            self._noise[:n] = as_noise("noise_var", noise_var, n)
        if n == 0:
            self._R = np.zeros((0, 0), order="F")
            self._var = self.prior_var.copy()
            self._mean = np.zeros(self.G)
            return
        KX = self._KX[self._slot[:n]]
        factor = stable_cholesky(KX[:, self._idx[:n]] + np.diag(self._noise[:n]), name="K + Sigma")
        self.jitter = max(self.jitter, factor.jitter)
        self._R = np.asfortranarray(factor.L.T)
        A = factor.half_solve(KX)
        self._var = np.maximum(self.prior_var - np.einsum("ij,ij->j", A, A), 0.0)
        self._mean = A.T @ factor.half_solve(self._y[:n])

    def set_model(self, kernel: Kernel, *, forgetting: float | None = None,
                  noise_var: float | np.ndarray | None = None) -> None:
        """Adopt a new kernel (and noise variances) for the stored observations and refactor."""
        if forgetting is not None:
            raise ValueError(f"forgetting must be None for a window posterior, got {forgetting!r}")
        self.kernel = kernel
        self.prior_var = kernel.diag(self.grid)
        for pos in range(self.n):
            self._KX[self._slot[pos]] = kernel(self.grid[self._idx[pos] : self._idx[pos] + 1], self.grid)[0]
        self.refresh(noise_var)

    def _ensure_capacity(self, size: int) -> None:
        cap = self._KX.shape[0]
        if size <= cap:
            return
        new = max(size, 2 * cap)
        self._KX = np.vstack([self._KX, np.zeros((new - cap, self.G))])
        self._coef = np.zeros((2, new))
        self._free.extend(range(new - 1, cap - 1, -1))
        self._slot = np.concatenate([self._slot, np.zeros(new - cap, dtype=np.int64)])
        self._grow_observations(new)


# --------------------------------------------------------------------------------------------------
# Log marginal likelihood (hyperparameter fitting; tvgpucb App. B eqs. (24)-(25))
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MarginalLikelihood:
    """``log p(y)`` of a zero-mean GP and its gradient with respect to the given Gram derivatives."""

    value: float
    gradient: np.ndarray
    jitter: float


def log_marginal_likelihood(
    K: np.ndarray,
    y: np.ndarray,
    noise_var: float | np.ndarray,
    dC: list[np.ndarray] | tuple[np.ndarray, ...] = (),
) -> MarginalLikelihood:
    """Exact ``log p(y) = −½ yᵀC⁻¹y − ½ log|C| − (n/2) log 2π`` with ``C = K + diag(noise_var)``
    (``tvgpucb`` eq. (24); Rasmussen & Williams eq. (5.8)) and, for each ``dC_j = ∂C/∂θ_j``,
    ``∂ log p/∂θ_j = ½ tr((ααᵀ − C⁻¹) dC_j)`` with ``α = C⁻¹y`` (``tvgpucb`` eq. (25), R&W eq. (5.9)).

    ``y`` may be an ``n × m`` matrix of ``m`` independent draws sharing ``C`` (e.g. training days treated as
    independent, ``tvgpucb`` §6): the value and gradient are then summed over the columns.

    Examples
    --------
    With ``C = 2I`` and ``y = (0.5, −1)``: ``−½·1.25/2 − ½ log 4 − log 2π``; the gradient along ``dC = I``
    is ``½(‖α‖² − tr C⁻¹)``:

    >>> import numpy as np
    >>> from tvbo_verify.gp import log_marginal_likelihood
    >>> lml = log_marginal_likelihood(np.eye(2), [0.5, -1.0], 1.0, [np.eye(2)])
    >>> round(float(lml.value), 4), round(float(-0.3125 - np.log(2) - np.log(2 * np.pi)), 4)
    (-2.8435, -2.8435)
    >>> lml.gradient.round(4).tolist(), lml.jitter
    ([-0.3437], 0.0)
    """
    K = np.asarray(K, dtype=float)
    n = K.shape[0]
    Y = np.asarray(y, dtype=float)
    Y2 = Y.reshape(n, -1)
    m = Y2.shape[1]
    noise = as_noise("noise_var", noise_var, n)
    factor = stable_cholesky(K + np.diag(noise), name="K + Sigma")
    alpha = factor.solve(Y2)
    value = float(-0.5 * np.sum(Y2 * alpha) - 0.5 * m * factor.logdet() - 0.5 * m * n * np.log(2.0 * np.pi))
    grad = np.zeros(len(dC))
    if len(dC):
        Cinv = factor.solve(np.eye(n))
        W = alpha @ alpha.T - m * Cinv  # Σ_columns (α αᵀ − C⁻¹)
        for j, D in enumerate(dC):
            grad[j] = 0.5 * float(np.sum(W * D))  # tr(W D) for symmetric D
    return MarginalLikelihood(value, grad, factor.jitter)
