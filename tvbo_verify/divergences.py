"""KL and Wasserstein-2 divergences between Gaussian / GP posteriors; sparse posteriors.

* :func:`gaussian_kl` — ``KL(N(m0,S0) ‖ N(m1,S1))`` by Cholesky (``wsparq`` §5.0 formula).
  :func:`gaussian_kl_1d` — the same for univariate marginals, elementwise.
* :func:`posterior_kl` — KL between two exact GP posteriors with the same prior. Evaluated on the
  union of their data inputs, it is the process KL (``wsparq`` §5.0: conditional on f at those
  inputs both posteriors coincide); evaluated on a grid it is the KL of the grid marginals.
* Sparse posteriors on the ``N`` data points, from the Gram matrix ``K`` and a diagonal noise ``Σ``:
  :func:`titsias_posterior` (variational, ``sparq`` Proposition 5: all outputs, inducing inputs ``S``)
  and :func:`subset_posterior` (subset of data: the exact posterior given only the outputs at ``S``,
  what SparQ/W-SparQ compute, ``wsparq`` eqs. (20)–(21)). Their KLs to the exact posterior:
  :func:`titsias_kl` / :func:`expected_titsias_kl` (``sparq`` eq. (42) and (48)) and
  :func:`subset_kl` / :func:`expected_subset_kl`, all closed form and stable (every factored matrix
  contains the noise). :func:`trace_bound` is ``tr(K − U)/λ_min(Σ)`` (``sparq`` (51), ``wsparq``
  Proof 3.11 step 1); the bound holds for the Titsias posterior and can fail by orders of magnitude
  for the subset-of-data posterior (``papers/wsparq/READING.md`` §5.6).
* :func:`located_posterior_kl` — ``KL[Q ‖ P]`` between exact posteriors whose data sit at some of ``m`` points
  (repeats allowed, neither data set a subset of the other), from the Gram of the ``m`` points: each data set
  acts through its summed precision per point, and no ``K⁻¹`` is formed, so clustered points are harmless.
* :func:`transfer_bounds` — Burt et al. Proposition 1 (``sparq`` Proposition 3, ``wsparq``
  Proposition 3.4): mean and variance closeness implied by ``2 KL ≤ η ≤ 1/5``.
* Integrated 2-Wasserstein distance (``bolt`` Theorem 3.10, eqs. (86)–(87), the W-DBO criterion):
  for univariate Gaussians ``W₂² = (μ₁−μ₂)² + (σ₁−σ₂)²`` exactly, and
  ``W₂(GP₁, GP₂)² = ∫ [(μ₁−μ₂)² + (σ₁−σ₂)²] dx`` over the domain, approximated by a quadrature on a
  grid (:func:`integrated_w2`). :func:`removal_w2` evaluates ``W₂(GP_D, GP_{D∖i})`` for every
  observation ``i`` from one Cholesky factorisation (``bolt`` Recommendation 2, eq. (12); Algorithm 1
  line 9), :func:`removal_criterion` returns the argmin.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import linalg as sla

from .gp import posterior, posterior_from_gram
from .kernels import Kernel
from .linalg import stable_cholesky
from .nystrom import _nystrom_factor, residual_trace
from .validation import (
    as_index_set,
    as_noise,
    as_points,
    as_vector,
    check_choice,
    check_open_interval,
    check_psd,
    check_square_psd_shape,
)

__all__ = [
    "gaussian_kl", "gaussian_kl_1d", "posterior_kl", "exact_posterior", "subset_posterior", "titsias_posterior",
    "titsias_elbo", "titsias_kl", "expected_titsias_kl", "trace_bound", "subset_kl", "expected_subset_kl",
    "located_posterior_kl",
    "TransferCheck", "transfer_bounds", "w2_squared_pointwise", "integrated_w2", "removal_w2",
    "removal_w2_bruteforce", "removal_criterion",
]

# --------------------------------------------------------------------------------------------------
# Gaussian KL
# --------------------------------------------------------------------------------------------------


def gaussian_kl(mean0: Any, cov0: Any, mean1: Any, cov1: Any) -> float:
    """``KL(N(mean0, cov0) ‖ N(mean1, cov1)) = ½[tr(S1⁻¹S0) − n + Δᵀ S1⁻¹ Δ + log|S1| − log|S0|]``.

    Both covariances are factored by Cholesky with the project's jitter ladder (no inverse is formed).
    The result is clipped at 0 (it is ≥ 0 in exact arithmetic).
    """
    S0 = check_square_psd_shape("cov0", cov0)
    S1 = check_square_psd_shape("cov1", cov1)
    n = S0.shape[0]
    if S1.shape[0] != n:
        raise ValueError(f"cov1 must have shape {S0.shape} like cov0, got {S1.shape}")
    m0 = as_vector("mean0", mean0, n)
    m1 = as_vector("mean1", mean1, n)
    if n == 0:
        return 0.0
    F0 = stable_cholesky(S0, name="cov0")
    F1 = stable_cholesky(S1, name="cov1")
    M = F1.half_solve(F0.L)  # L1⁻¹ L0 : tr(S1⁻¹ S0) = ||M||²_F
    d = F1.half_solve(m1 - m0)
    kl = 0.5 * (float(np.sum(M * M)) - n + float(d @ d) + F1.logdet() - F0.logdet())
    return max(kl, 0.0)


def gaussian_kl_1d(mean0: Any, var0: Any, mean1: Any, var1: Any) -> np.ndarray:
    """Elementwise ``KL(N(mean0, var0) ‖ N(mean1, var1))`` of univariate Gaussians (variances > 0)."""
    m0, v0, m1, v1 = (np.asarray(a, dtype=float) for a in (mean0, var0, mean1, var1))
    for name, v in (("var0", v0), ("var1", v1)):
        if np.any(~(v > 0)):
            raise ValueError(f"{name} must be > 0, got {float(np.min(v))!r}")
    r = v0 / v1
    return 0.5 * (r - 1.0 - np.log(r) + (m1 - m0) ** 2 / v1)


def posterior_kl(
    kernel: Kernel,
    X_q: Any,
    y_q: Any,
    noise_q: Any,
    X_p: Any,
    y_p: Any,
    noise_p: Any,
    *,
    points: Any = None,
) -> float:
    """``KL(Q ‖ P)`` for the exact GP posteriors ``Q`` (data ``X_q, y_q``) and ``P`` (``X_p, y_p``).

    With ``points=None`` the marginals are taken on the unique union of the data inputs, which gives the
    KL between the processes (``wsparq`` §5.0). With ``points`` (a grid) it is the KL of the marginals on
    the grid (≤ the process KL). Noise: scalar or per observation.
    """
    Xq = as_points("X_q", X_q)
    Xp = as_points("X_p", X_p, Xq.shape[1])
    if points is None:
        A = np.unique(np.vstack([Xq, Xp]), axis=0)
    else:
        A = as_points("points", points, Xq.shape[1])
    mq, Cq = posterior(kernel, Xq, y_q, noise_q, A, full_cov=True)
    mp, Cp = posterior(kernel, Xp, y_p, noise_p, A, full_cov=True)
    return gaussian_kl(mq, Cq, mp, Cp)


# --------------------------------------------------------------------------------------------------
# sparse posteriors on the data points (matrix level)
# --------------------------------------------------------------------------------------------------


def _setup(K: Any, noise_var: Any, idx: Any, idx_name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    K, _ = check_psd("K", K)
    noise = as_noise("noise_var", noise_var, K.shape[0])
    S = as_index_set(idx_name, idx, K.shape[0])
    return K, noise, S


def _nystrom_of(K: np.ndarray, S: np.ndarray) -> np.ndarray:
    W = _nystrom_factor(K, S, None)
    U = W @ W.T
    return 0.5 * (U + U.T)


def exact_posterior(K: Any, y: Any, noise_var: Any) -> tuple[np.ndarray, np.ndarray]:
    """Exact posterior ``(mean, cov)`` of the latent values at the ``N`` data points: ``K(K+Σ)⁻¹y``,
    ``K − K(K+Σ)⁻¹K``."""
    K, _ = check_psd("K", K)
    noise = as_noise("noise_var", noise_var, K.shape[0])
    y = as_vector("y", y, K.shape[0])
    F = stable_cholesky(K + np.diag(noise), name="K + Sigma")
    Z = F.half_solve(K)
    cov = K - Z.T @ Z
    return K @ F.solve(y), 0.5 * (cov + cov.T)


def subset_posterior(K: Any, y: Any, noise_var: Any, subset: Any) -> tuple[np.ndarray, np.ndarray]:
    """Subset-of-data posterior at the ``N`` points: exact GP posterior given only ``y[subset]``
    (``wsparq`` eqs. (20)–(21))."""
    K, noise, S = _setup(K, noise_var, subset, "subset")
    y = as_vector("y", y, K.shape[0])
    if S.size == 0:
        return np.zeros(K.shape[0]), K.copy()
    F = stable_cholesky(K[np.ix_(S, S)] + np.diag(noise[S]), name="K_SS + Sigma_S")
    Z = F.half_solve(K[S, :])
    cov = K - Z.T @ Z
    return K[:, S] @ F.solve(y[S]), 0.5 * (cov + cov.T)


def titsias_posterior(K: Any, y: Any, noise_var: Any, inducing: Any) -> tuple[np.ndarray, np.ndarray]:
    """Optimal variational (Titsias) posterior at the ``N`` points with inducing inputs ``inducing``
    and heteroscedastic diagonal noise (``sparq`` Proposition 5).

    With ``M = K_uu + K_uX Σ⁻¹ K_Xu``: mean ``K_Xu M⁻¹ K_uX Σ⁻¹ y``, covariance
    ``K − U + K_Xu M⁻¹ K_uX`` where ``U = K_Xu K_uu⁺ K_uX`` (Nyström).
    """
    K, noise, S = _setup(K, noise_var, inducing, "inducing")
    y = as_vector("y", y, K.shape[0])
    U = _nystrom_of(K, S)
    if S.size == 0:
        return np.zeros(K.shape[0]), K.copy()
    KXu = K[:, S]
    M = K[np.ix_(S, S)] + (KXu / noise[:, None]).T @ KXu
    F = stable_cholesky(M, name="K_uu + K_uX Sigma^-1 K_Xu")
    mean = KXu @ F.solve(KXu.T @ (y / noise))
    Z = F.half_solve(KXu.T)
    cov = K - U + Z.T @ Z
    return mean, 0.5 * (cov + cov.T)


def _log_normal_pdf_zero_mean(y: np.ndarray, C: np.ndarray, name: str) -> float:
    F = stable_cholesky(C, name=name)
    z = F.half_solve(y)
    return -0.5 * (float(z @ z) + F.logdet() + y.size * np.log(2 * np.pi))


def _kl_zero_mean(C0: np.ndarray, C1: np.ndarray) -> float:
    return gaussian_kl(np.zeros(C0.shape[0]), C0, np.zeros(C0.shape[0]), C1)


def titsias_elbo(K: Any, y: Any, noise_var: Any, inducing: Any) -> float:
    """Collapsed bound ``L = log N(y | 0, Σ + U) − ½ tr(Σ⁻¹(K − U))`` (``sparq`` eq. (35))."""
    K, noise, S = _setup(K, noise_var, inducing, "inducing")
    y = as_vector("y", y, K.shape[0])
    U = _nystrom_of(K, S)
    resid = np.maximum(np.diag(K) - np.diag(U), 0.0)
    return _log_normal_pdf_zero_mean(y, U + np.diag(noise), "U + Sigma") - 0.5 * float(np.sum(resid / noise))


def titsias_kl(K: Any, y: Any, noise_var: Any, inducing: Any) -> float:
    """``KL[Q_var ‖ P] = log N(y|0,K+Σ) − log N(y|0,U+Σ) + ½ tr(Σ⁻¹(K−U))`` (``sparq`` eq. (42))."""
    K, noise, S = _setup(K, noise_var, inducing, "inducing")
    y = as_vector("y", y, K.shape[0])
    log_evidence = _log_normal_pdf_zero_mean(y, K + np.diag(noise), "K + Sigma")
    return max(log_evidence - titsias_elbo(K, y, noise, S), 0.0)


def expected_titsias_kl(K: Any, noise_var: Any, inducing: Any) -> float:
    """``E_{y∼N(0,K+Σ)} KL[Q_var ‖ P] = KL(N(0,K+Σ) ‖ N(0,U+Σ)) + ½ tr(Σ⁻¹(K−U))`` (``sparq`` (48))."""
    K, noise, S = _setup(K, noise_var, inducing, "inducing")
    U = _nystrom_of(K, S)
    resid = np.maximum(np.diag(K) - np.diag(U), 0.0)
    return _kl_zero_mean(K + np.diag(noise), U + np.diag(noise)) + 0.5 * float(np.sum(resid / noise))


def trace_bound(K: Any, noise_var: Any, landmarks: Any) -> float:
    """``tr(K − U)/λ_min(Σ)`` — the right-hand side of ``sparq`` (51) / ``wsparq`` Proof 3.11 step 1."""
    K, noise, S = _setup(K, noise_var, landmarks, "landmarks")
    return residual_trace(K, S) / float(np.min(noise))


def _subset_pieces(K: np.ndarray, noise: np.ndarray, S: np.ndarray):
    """Pieces of ``KL(P_S ‖ P)`` that do not depend on ``y``.

    Posterior precisions on the latent values: ``P⁻¹ = K⁻¹ + Σ⁻¹`` and ``P_S⁻¹ = K⁻¹ + E_S Σ_S⁻¹ E_Sᵀ``.
    Hence (no ``K⁻¹`` is ever needed):
    ``tr(P⁻¹ C_S) = N − tr((K_SS+Σ_S)⁻¹K_SS) + tr(Σ⁻¹ C_S)``,
    ``log|P| − log|C_S| = log|Σ| − log|K+Σ| − log|Σ_S| + log|K_SS+Σ_S|``,
    and with ``m − m_S = K δ``: ``Δᵀ P⁻¹ Δ = δᵀKδ + ‖Σ^{-1/2}Kδ‖²``.
    """
    n = K.shape[0]
    F = stable_cholesky(K + np.diag(noise), name="K + Sigma")
    if S.size:
        FS = stable_cholesky(K[np.ix_(S, S)] + np.diag(noise[S]), name="K_SS + Sigma_S")
        Z = FS.half_solve(K[S, :])
        cS_diag = np.diag(K) - np.einsum("ij,ij->j", Z, Z)
        tr_term = n - float(np.trace(FS.solve(K[np.ix_(S, S)]))) + float(np.sum(cS_diag / noise))
        logdet_term = float(np.sum(np.log(noise))) - F.logdet() - float(np.sum(np.log(noise[S]))) + FS.logdet()
    else:
        FS = None
        tr_term = n + float(np.sum(np.diag(K) / noise))
        logdet_term = float(np.sum(np.log(noise))) - F.logdet()
    return F, FS, tr_term, logdet_term


def _quad(K: np.ndarray, noise: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """``δᵀKδ + ‖Σ^{-1/2}Kδ‖²`` for each column of ``delta``."""
    Kd = K @ delta
    return np.einsum("i...,i...->...", delta, Kd) + np.einsum(
        "i...,i...->...", Kd, Kd / noise.reshape((-1,) + (1,) * (Kd.ndim - 1))
    )


def subset_kl(K: Any, y: Any, noise_var: Any, subset: Any) -> float:
    """``KL[P_S ‖ P]`` between the subset-of-data and the exact posterior of the latent values at the
    ``N`` data points (= the process KL), closed form via posterior precisions (see
    :func:`_subset_pieces`)."""
    K, noise, S = _setup(K, noise_var, subset, "subset")
    y = as_vector("y", y, K.shape[0])
    n = K.shape[0]
    F, FS, tr_term, logdet_term = _subset_pieces(K, noise, S)
    delta = F.solve(y)
    if S.size:
        delta[S] -= FS.solve(y[S])
    return max(0.5 * (tr_term - n + float(_quad(K, noise, delta)) + logdet_term), 0.0)


def expected_subset_kl(K: Any, noise_var: Any, subset: Any, *, outputs: str = "shared") -> float:
    """``E_y KL[P_S ‖ P]`` for ``y ∼ N(0, K + Σ)`` (Bayesian expectation, as in Burt et al.).

    ``outputs="shared"``: the subset posterior uses the same observations ``y[S]``.
    ``outputs="fresh"``: it uses fresh observations at ``S`` (the expert re-queries of SparQ,
    ``wsparq`` Algorithm 1 line 6), independent noise with the same variances.
    The mean difference is linear in the outputs, ``δ = D y``; its second moment is exact.
    """
    K, noise, S = _setup(K, noise_var, subset, "subset")
    outputs = check_choice("outputs", outputs, ("shared", "fresh"))
    n = K.shape[0]
    F, FS, tr_term, logdet_term = _subset_pieces(K, noise, S)
    # joint outputs w = (y, y'_S): covariance C; δ = D_full w
    Cy = K + np.diag(noise)
    if outputs == "shared" or S.size == 0:
        # δ = [(K+Σ)⁻¹ − E_S (K_SS+Σ_S)⁻¹ E_Sᵀ] y ; use y = L_y ξ with ξ standard
        Ly = F.L
        Dl = F.solve(Ly)
        if S.size:
            Dl[S, :] -= FS.solve(Ly[S, :])
    else:
        m = S.size
        C = np.zeros((n + m, n + m))
        C[:n, :n] = Cy
        C[:n, n:] = K[:, S]
        C[n:, :n] = K[S, :]
        C[n:, n:] = K[np.ix_(S, S)] + np.diag(noise[S])
        Lc = stable_cholesky(C, name="joint output covariance").L
        Dl = F.solve(Lc[:n, :])
        Dl[S, :] -= FS.solve(Lc[n:, :])
    quad = float(np.sum(_quad(K, noise, Dl)))
    return max(0.5 * (tr_term - n + quad + logdet_term), 0.0)


def _located_pieces(K: np.ndarray, loc: np.ndarray, y: np.ndarray, noise: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Per-point precision ``a``, the posterior mean's weights ``α`` (``μ = Kα``), the posterior variances and
    ``log|I + A^{1/2} K A^{1/2}|`` of the exact posterior given observations ``y`` at points ``loc``."""
    m = K.shape[0]
    a = np.zeros(m)
    s = np.zeros(m)
    np.add.at(a, loc, 1.0 / noise)
    np.add.at(s, loc, y / noise)
    obs = np.flatnonzero(a > 0)
    alpha = np.zeros(m)
    if obs.size == 0:
        return a, alpha, np.diag(K).copy(), 0.0
    F = stable_cholesky(K[np.ix_(obs, obs)] + np.diag(1.0 / a[obs]), name="K_OO + A_O^-1")
    alpha[obs] = F.solve(s[obs] / a[obs])
    Z = F.half_solve(K[obs, :])
    var = np.diag(K) - np.einsum("ij,ij->j", Z, Z)
    D = np.sqrt(a[obs])
    G = stable_cholesky(np.eye(obs.size) + D[:, None] * K[np.ix_(obs, obs)] * D[None, :], name="I + A^1/2 K A^1/2")
    return a, alpha, var, G.logdet()


def located_posterior_kl(K: Any, loc_q: Any, y_q: Any, noise_q: Any, loc_p: Any, y_p: Any, noise_p: Any) -> float:
    """``KL[Q ‖ P]`` between the exact GP posteriors ``Q`` (observations ``y_q`` at points ``loc_q``, noise variances
    ``noise_q``) and ``P`` (``y_p`` at ``loc_p``) with the same prior, on the latent values at the ``m`` points of
    the Gram ``K`` (indices ``loc``, repeats allowed) — the process KL when every data input is one of them.

    With per-point precisions ``A = diag(Σ_{i at u} 1/ν_i)`` the posterior precisions are ``K⁻¹ + A``, so
    ``KL = ½[Σ_u (a^P_u − a^Q_u) Var_Q(u) + δᵀKδ + ‖A_P^{1/2}Kδ‖² + log|I + A_Q^{1/2}KA_Q^{1/2}| −
    log|I + A_P^{1/2}KA_P^{1/2}|]`` with ``μ_P − μ_Q = Kδ``; no ``K⁻¹`` is formed, so a near-singular ``K`` (close
    points) is harmless. Neither data set need be a subset of the other."""
    K, _ = check_psd("K", K)
    m = K.shape[0]
    pieces = []
    for name, loc, y, noise in (("q", loc_q, y_q, noise_q), ("p", loc_p, y_p, noise_p)):
        loc = np.asarray(loc, dtype=np.int64).reshape(-1)
        if loc.size and (loc.min() < 0 or loc.max() >= m):
            raise ValueError(f"loc_{name} must be indices in [0, {m - 1}], got {int(loc.min())}..{int(loc.max())}")
        y = as_vector(f"y_{name}", y, loc.size)
        noise = as_noise(f"noise_{name}", noise, loc.size)
        pieces.append(_located_pieces(K, loc, y, noise))
    (aq, alq, vq, ldq), (ap, alp, _, ldp) = pieces
    d = alp - alq
    Kd = K @ d
    kl = 0.5 * (float(np.sum((ap - aq) * vq)) + float(d @ Kd) + float(np.sum(ap * Kd * Kd)) + ldq - ldp)
    return max(kl, 0.0)


# --------------------------------------------------------------------------------------------------
# Burt et al. Proposition 1 (sparq Prop. 3, wsparq Prop. 3.4)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TransferCheck:
    """Pointwise margins of Burt et al. Proposition 1 (positive margin = inequality holds).

    ``mean_gap = |μ_p − μ_q|``; ``bound_p = σ_p √η``; ``bound_q = σ_q √η / √(1 − √(3η))``;
    ``var_gap = |1 − σ_q²/σ_p²|``; ``var_bound = √(3η)``; ``holds`` is the conjunction of the three
    inequalities (the variance one strict).
    """

    mean_gap: np.ndarray
    bound_p: np.ndarray
    bound_q: np.ndarray
    var_gap: np.ndarray
    var_bound: float
    holds: np.ndarray


def transfer_bounds(mean_p: Any, var_p: Any, mean_q: Any, var_q: Any, eta: float) -> TransferCheck:
    """Evaluate Burt et al. Prop. 1: if ``2 KL[Q ‖ P] ≤ η ≤ 1/5`` then ``|μ_p − μ_q| ≤ σ_p√η ≤
    σ_q√η/√(1−√(3η))`` and ``|1 − σ_q²/σ_p²| < √(3η)``, pointwise (``P`` exact, ``Q`` approximate).

    The function only evaluates the inequalities; checking the hypotheses ``2 KL ≤ η`` and ``η ≤ 1/5``
    is the caller's (e.g. with :func:`gaussian_kl_1d` on the marginals), so that the statement can also
    be probed beyond its admissible range. ``eta`` must lie in ``(0, 1/3)`` (where ``√(3η) < 1``).
    """
    eta = check_open_interval("eta", eta, 0.0, 1.0 / 3.0, "(0, 1/3)")
    mp, vp, mq, vq = (np.asarray(a, dtype=float) for a in (mean_p, var_p, mean_q, var_q))
    for name, v in (("var_p", vp), ("var_q", vq)):
        if np.any(~(v > 0)):
            raise ValueError(f"{name} must be > 0, got {float(np.min(v))!r}")
    mean_gap = np.abs(mp - mq)
    bound_p = np.sqrt(vp * eta)
    bound_q = np.sqrt(vq * eta) / np.sqrt(1.0 - np.sqrt(3.0 * eta))
    var_gap = np.abs(1.0 - vq / vp)
    var_bound = float(np.sqrt(3.0 * eta))
    holds = (mean_gap <= bound_p) & (bound_p <= bound_q) & (var_gap < var_bound)
    return TransferCheck(mean_gap, bound_p, bound_q, var_gap, var_bound, holds)


# --------------------------------------------------------------------------------------------------
# integrated 2-Wasserstein distance (bolt Theorem 3.10, Recommendation 2)
# --------------------------------------------------------------------------------------------------


def w2_squared_pointwise(mean1: Any, var1: Any, mean2: Any, var2: Any) -> np.ndarray:
    """``W₂²(N(μ₁,σ₁²), N(μ₂,σ₂²)) = (μ₁−μ₂)² + (σ₁−σ₂)²`` elementwise (exact for univariate Gaussians)."""
    m1, v1, m2, v2 = (np.asarray(a, dtype=float) for a in (mean1, var1, mean2, var2))
    for name, v in (("var1", v1), ("var2", v2)):
        if np.any(v < 0):
            raise ValueError(f"{name} must be >= 0, got {float(np.min(v))!r}")
    return (m1 - m2) ** 2 + (np.sqrt(v1) - np.sqrt(v2)) ** 2


def _weights(weights: Any, g: int) -> np.ndarray:
    if weights is None:
        return np.full(g, 1.0 / g)
    w = as_vector("weights", weights, g)
    if np.any(w < 0):
        raise ValueError(f"weights must be >= 0, got {float(np.min(w))!r}")
    return w


def integrated_w2(mean1: Any, var1: Any, mean2: Any, var2: Any, weights: Any = None) -> float:
    """``W₂(GP₁, GP₂) = (Σ_g w_g [(μ₁−μ₂)² + (σ₁−σ₂)²])^{1/2}`` (``bolt`` eqs. (86)–(87)).

    The grid values are the posterior marginals on quadrature nodes; ``weights`` are the quadrature
    weights (default ``1/G`` each: the integral over a domain of unit volume, or the domain average).
    """
    pw = w2_squared_pointwise(mean1, var1, mean2, var2).reshape(-1)
    return float(np.sqrt(np.sum(_weights(weights, pw.size) * pw)))


def removal_w2(
    K: Any,
    K_grid: Any,
    prior_var_grid: Any,
    y: Any,
    noise_var: Any,
    weights: Any = None,
) -> np.ndarray:
    """``W₂(GP_D, GP_{D∖i})`` for every observation ``i`` from one Cholesky factorisation.

    ``K`` (n×n) is the prior covariance of the observed latent values, ``K_grid`` (G×n) its covariance
    with the grid, ``prior_var_grid`` (G) the grid prior variances. With ``P = (K+Σ)⁻¹``,
    ``α = P y`` and ``V = K_grid P``, deleting observation ``i`` (the Schur downdate of ``P``) gives

        μ_{D∖i}(x) = μ_D(x) − V_{x,i} α_i / P_ii,     σ²_{D∖i}(x) = σ²_D(x) + V_{x,i}² / P_ii,

    so every candidate costs ``O(G)`` after an ``O(n³ + G n²)`` factorisation (no ``n`` refits).
    """
    K, _ = check_psd("K", K)
    n = K.shape[0]
    Kg = np.asarray(K_grid, dtype=float)
    if Kg.ndim != 2 or Kg.shape[1] != n:
        raise ValueError(f"K_grid must have shape (G, {n}), got {Kg.shape}")
    G = Kg.shape[0]
    pv = as_vector("prior_var_grid", prior_var_grid, G)
    y = as_vector("y", y, n)
    noise = as_noise("noise_var", noise_var, n)
    w = _weights(weights, G)
    if n == 0:
        return np.zeros(0)
    F = stable_cholesky(K + np.diag(noise), name="K + Sigma")
    Linv = sla.solve_triangular(F.L, np.eye(n), lower=True, check_finite=False)
    Pdiag = np.einsum("ij,ij->j", Linv, Linv)
    alpha = F.solve(y)
    V = F.solve(Kg.T).T  # (G, n)
    var = np.maximum(pv - np.einsum("gi,gi->g", Kg, V), 0.0)
    sd = np.sqrt(var)
    dmu2 = (V * (alpha / Pdiag)) ** 2
    sd_minus = np.sqrt(var[:, None] + V * V / Pdiag)
    per_point = dmu2 + (sd_minus - sd[:, None]) ** 2
    return np.sqrt(w @ per_point)


def removal_w2_bruteforce(
    K: Any, K_grid: Any, prior_var_grid: Any, y: Any, noise_var: Any, weights: Any = None
) -> np.ndarray:
    """Reference for :func:`removal_w2`: refit the posterior without each observation (``n`` refits)."""
    K, _ = check_psd("K", K)
    n = K.shape[0]
    Kg = np.asarray(K_grid, dtype=float)
    pv = as_vector("prior_var_grid", prior_var_grid, Kg.shape[0])
    y = as_vector("y", y, n)
    noise = as_noise("noise_var", noise_var, n)
    full = posterior_from_gram(K, Kg.T, pv, y, noise)
    out = np.zeros(n)
    for i in range(n):
        keep = np.delete(np.arange(n), i)
        part = posterior_from_gram(K[np.ix_(keep, keep)], Kg[:, keep].T, pv, y[keep], noise[keep])
        out[i] = integrated_w2(full.mean, full.var, part.mean, part.var, weights)
    return out


def removal_criterion(
    kernel: Kernel, X: Any, y: Any, noise_var: Any, grid: Any, weights: Any = None
) -> tuple[int, np.ndarray]:
    """``bolt`` eq. (12) / Algorithm 1 line 9: ``(argminᵢ W₂(GP_D, GP_{D∖i}), all W₂ values)``.

    ``X`` (n×d) are the observed inputs (for BOLT, space and time with time in the last column),
    ``grid`` the quadrature nodes of the integration domain, ``weights`` the quadrature weights.
    """
    X = as_points("X", X)
    grid = as_points("grid", grid, X.shape[1])
    w2 = removal_w2(kernel(X), kernel(grid, X), kernel.diag(grid), y, noise_var, weights)
    return int(np.argmin(w2)), w2
