"""k-determinantal point processes: exact law, exact spectral sampler, MCMC swap chain.

The k-DPP (``wsparq`` Definition 3.1, ``sparq`` Definition 1) on the PSD matrix ``K`` (N×N) gives a
size-k subset ``Z`` the probability ``det K_ZZ / e_k(λ(K))``, where ``e_k`` is the k-th elementary
symmetric polynomial of the eigenvalues.

* :func:`kdpp_probability`, :func:`log_normaliser` — the exact law.
* :func:`expected_residual_trace` — ``E_{Z∼k-DPP} tr(K − U_Z) = (k+1) e_{k+1}(λ)/e_k(λ)``
  (Guruswami–Sinop 2012; the volume-sampling identity behind ``sparq`` Proposition 8 /
  Burt et al. Cor. 8, whose bound ``(k+1) Σ_{m>k} λ_m`` follows from it).
* :func:`sample_kdpp` with ``method="exact"`` — the spectral sampler of Kulesza & Taskar (2012,
  Alg. 8 for choosing k eigenvectors, then Alg. 1 phase 2 for the projection DPP), with the
  elementary-symmetric-polynomial recursion carried out in log space so that N = 2000, k = 50 does
  not overflow.
* :func:`sample_kdpp` with ``method="mcmc"`` — the swap chain of ``sparq`` Algorithm 2 (Burt et al.
  2020, Alg. 1) started from the greedy determinant maximiser of ``sparq`` Algorithm 3
  (:func:`greedy_init`, pivoted Cholesky).

Number of MCMC iterations (default of :func:`mcmc_iterations`)
-----------------------------------------------------------------
The chain is the lazy (factor ½) Metropolis bases-exchange walk. The k-DPP is a homogeneous strongly
Rayleigh law, for which Anari, Oveis Gharan & Rezaei (2016; the result Burt et al. 2020 invoke for
their Algorithm 1) bound the total-variation mixing time from a start ``Z₀`` by

    τ_{Z₀}(ε) ≤ N · k · log(1 / (ε · π(Z₀))).

``π(Z₀) = det K_{Z₀Z₀} / e_k(λ)`` is computed exactly: the eigenvalues are already at hand from the
PSD validation of ``K``. The greedy start makes ``det K_{Z₀Z₀}`` large (within ``(k!)²`` of the
maximum, Çivril & Magdon-Ismail 2009), so ``log(1/π(Z₀)) ≤ 2 log k! + log C(N, k)``. The default
number of iterations is the bound evaluated on the instance,

    n_iter = ⌈ N k (log(1/ε) + log e_k(λ) − log det K_{Z₀Z₀}) ⌉,  ε = 0.01 by default,

i.e. the number of steps after which the law of the returned subset is within TV ε of the k-DPP by
that theorem. It is conservative: on the N = 10, k = 3 instance of ``benchmarks/bench_sparse.py`` the
exact TV (from the transition matrix, :func:`swap_chain_transition_matrix`) falls below 0.01 after
44 steps, the bound asks for 253.

Implementation: the chain keeps ``A = K_ZZ⁻¹`` (k×k, refreshed from a Cholesky factor every
``_REFRESH`` accepted swaps). The swap ratio ``det K_{Z'}/det K_Z`` for replacing position ``p`` by
``j`` is ``(A b)_p² + A_pp (K_jj − bᵀAb)`` with ``b = K_{Z,j}``; runs of rejected proposals are
evaluated in vectorised chunks and an accepted swap costs ``O(k²)``. ``size=m`` runs ``m``
independent chains in lock-step (vectorised over chains); with the same generator state a single
chain and ``size=1`` follow the same path.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from .validation import as_index_set, check_choice, check_int, check_open_interval, check_psd, psd_tolerance

__all__ = [
    "log_elementary_symmetric", "log_normaliser", "kdpp_probability", "expected_residual_trace",
    "schur_complements", "greedy_init", "mcmc_iterations", "start_log_inv_probability", "swap_acceptance",
    "swap_chain_transition_matrix", "ExactKDPP", "sample_kdpp",
]

#: Accepted swaps between two recomputations of ``K_ZZ⁻¹`` from scratch (bounds rounding drift).
_REFRESH = 64


# --------------------------------------------------------------------------------------------------
# elementary symmetric polynomials and the exact law
# --------------------------------------------------------------------------------------------------


def log_elementary_symmetric(lam: Any, k: int) -> np.ndarray:
    """``log e_l(λ)`` for ``l = 0..k`` (``-inf`` where ``e_l = 0``), via the log-space recursion.

    ``e_l(λ_1..λ_n) = e_l(λ_1..λ_{n-1}) + λ_n e_{l-1}(λ_1..λ_{n-1})``; every eigenvalue must be ≥ 0.
    """
    lam = np.asarray(lam, dtype=float).reshape(-1)
    k = check_int("k", k, 0)
    if np.any(lam < 0) or not np.all(np.isfinite(lam)):
        raise ValueError(f"lam must be finite and >= 0, got {float(np.min(lam))!r}")
    return _log_esp_table(lam, k)[:, -1]


def _log_esp_table(lam: np.ndarray, k: int) -> np.ndarray:
    """``T[l, n] = log e_l(λ_1..λ_n)`` for ``l ≤ k``, ``n ≤ N`` (Kulesza & Taskar Alg. 7, in log space)."""
    n = lam.size
    T = np.full((k + 1, n + 1), -np.inf)
    T[0, :] = 0.0
    with np.errstate(divide="ignore"):
        loglam = np.log(lam)
    for m in range(1, n + 1):
        T[1:, m] = np.logaddexp(T[1:, m - 1], loglam[m - 1] + T[:-1, m - 1])
    return T


def _spectrum(K: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Validated ``K``, its eigenvalues (clipped at 0), eigenvectors and numerical rank."""
    K, (w, V) = check_psd("K", K, vectors=True)
    tol = psd_tolerance(w, K.shape[0])
    rank = int(np.sum(w > tol))
    return K, np.where(w > tol, w, 0.0), V, rank


def _check_k(k: Any, n: int, rank: int) -> int:
    k = check_int("k", k, 1)
    if k > n:
        raise ValueError(f"k must be <= N = {n} (the number of items), got {k}")
    if k > rank:
        raise ValueError(f"k must be <= rank(K) = {rank} (no size-k subset has positive determinant), got {k}")
    return k


def log_normaliser(K: Any, k: int) -> float:
    """``log e_k(λ(K)) = log Σ_{|Z|=k} det K_ZZ`` (``wsparq`` D3.1)."""
    K, w, _, rank = _spectrum(K)
    k = _check_k(k, K.shape[0], rank)
    return float(_log_esp_table(w, k)[k, -1])


def kdpp_probability(K: Any, S: Any) -> float:
    """Exact k-DPP probability ``det K_SS / e_k(λ)`` of the subset ``S`` with ``k = |S|``.

    Subsets whose determinant is not positive (e.g. repeated inputs) get probability 0.
    """
    K, w, _, rank = _spectrum(K)
    S = as_index_set("S", S, K.shape[0])
    k = _check_k(S.size, K.shape[0], rank)
    sign, logdet = np.linalg.slogdet(K[np.ix_(S, S)])
    if sign <= 0:
        return 0.0
    return float(np.exp(logdet - _log_esp_table(w, k)[k, -1]))


def expected_residual_trace(K: Any, k: int) -> float:
    """``E_{Z∼k-DPP}[tr(K − U_Z)] = (k+1) e_{k+1}(λ)/e_k(λ)`` (closed form; 0 when ``k = N``)."""
    K, w, _, rank = _spectrum(K)
    k = _check_k(k, K.shape[0], rank)
    if k >= K.shape[0]:
        return 0.0
    T = _log_esp_table(w, k + 1)[:, -1]
    return float((k + 1) * np.exp(T[k + 1] - T[k]))


def schur_complements(K: Any, order: Any) -> np.ndarray:
    """``S_m = k(c_m, c_m) − k(c_m, C_{m-1}) K_{C_{m-1}}⁻¹ k(C_{m-1}, c_m)`` along ``order`` (``sparq`` eq. (33)).

    Their product is ``det K_CC``. Computed by the pivoted-Cholesky recursion (no inverse).
    """
    K, _ = check_psd("K", K)
    C = as_index_set("order", order, K.shape[0])
    resid = np.diag(K).astype(float).copy()
    F = np.zeros((K.shape[0], C.size))
    out = np.zeros(C.size)
    for m, c in enumerate(C):
        out[m] = resid[c]
        if out[m] <= 0:
            out[m:] = 0.0
            break
        col = (K[:, c] - F[:, :m] @ F[c, :m]) / math.sqrt(out[m])
        F[:, m] = col
        resid = resid - col * col
    return out


# --------------------------------------------------------------------------------------------------
# greedy initialisation (sparq Algorithm 3)
# --------------------------------------------------------------------------------------------------


def greedy_init(K: Any, k: int) -> np.ndarray:
    """``sparq`` Algorithm 3: k greedy determinant-maximising picks (pivoted Cholesky).

    Step m picks ``argmax_x S(x, Z)`` with ``S(x, Z) = k(x,x) − k(x,Z)K_ZZ⁻¹k(Z,x)`` (eq. (33)); ties are
    broken by the smallest index (the paper leaves this open). Returns the picks in order.
    """
    K, _ = check_psd("K", K)
    k = check_int("k", k, 1)
    if k > K.shape[0]:
        raise ValueError(f"k must be <= N = {K.shape[0]} (the number of items), got {k}")
    return _greedy(K, k)


def _greedy(K: np.ndarray, k: int) -> np.ndarray:
    n = K.shape[0]
    resid = np.diag(K).astype(float).copy()
    F = np.zeros((n, k))
    picks = np.zeros(k, dtype=int)
    tol = psd_tolerance(np.diag(K), n)
    for m in range(k):
        c = int(np.argmax(resid))
        if resid[c] <= tol:
            raise ValueError(f"k must be <= rank(K) (greedy found only {m} independent items), got {k}")
        picks[m] = c
        col = (K[:, c] - F[:, :m] @ F[c, :m]) / math.sqrt(resid[c])
        F[:, m] = col
        resid = resid - col * col
        resid[picks[: m + 1]] = -np.inf
    return picks


# --------------------------------------------------------------------------------------------------
# MCMC swap chain (sparq Algorithm 2)
# --------------------------------------------------------------------------------------------------


def mcmc_iterations(n: int, k: int, log_inv_pi0: float, eps: float = 0.01) -> int:
    """Default chain length ``⌈N k (log(1/ε) + log(1/π(Z₀)))⌉``: the Anari et al. (2016) mixing bound
    for the start ``Z₀`` (see the module docstring). ``log_inv_pi0 = log e_k(λ) − log det K_{Z₀Z₀}``."""
    n = check_int("n", n, 1)
    k = check_int("k", k, 1)
    eps = check_open_interval("eps", eps, 0.0, 1.0)
    if not np.isfinite(log_inv_pi0) or log_inv_pi0 < -1e-9:
        raise ValueError(f"log_inv_pi0 must be finite and >= 0, got {log_inv_pi0!r}")
    return int(math.ceil(n * k * (math.log(1.0 / eps) + max(float(log_inv_pi0), 0.0))))


def start_log_inv_probability(K: Any, Z0: Any) -> float:
    """``log(1/π(Z₀)) = log e_k(λ(K)) − log det K_{Z₀Z₀}`` for the k-DPP on ``K`` with ``k = |Z₀|``."""
    K, w = check_psd("K", K)
    Z0 = as_index_set("Z0", Z0, K.shape[0])
    return _log_inv_pi(K, np.where(w > psd_tolerance(w, K.shape[0]), w, 0.0), Z0)


def _log_inv_pi(K: np.ndarray, w: np.ndarray, Z0: np.ndarray) -> float:
    sign, logdet = np.linalg.slogdet(K[np.ix_(Z0, Z0)])
    if sign <= 0:
        return math.inf
    return float(_log_esp_table(w, Z0.size)[Z0.size, -1] - logdet)


def swap_acceptance(K: Any, Z: Any, i: int, j: int) -> float:
    """Acceptance probability ``½ min{1, det K_{Z'}/det K_Z}`` of replacing ``i ∈ Z`` by ``j ∉ Z`` (Alg. 2)."""
    K, _ = check_psd("K", K)
    Z = as_index_set("Z", Z, K.shape[0])
    if int(i) not in set(Z.tolist()):
        raise ValueError(f"i must be a member of Z, got {i}")
    j = int(as_index_set("j", [j], K.shape[0])[0])
    if j in set(Z.tolist()):
        raise ValueError(f"j must not be a member of Z, got {j}")
    Zp = np.where(Z == int(i), j, Z)
    d0 = np.linalg.det(K[np.ix_(Z, Z)])
    d1 = np.linalg.det(K[np.ix_(Zp, Zp)])
    return 0.5 * min(1.0, max(d1, 0.0) / d0)


def _inverse_from_cholesky(KZ: np.ndarray) -> np.ndarray:
    """``K_ZZ⁻¹`` for a (batch of) PD matrices from Cholesky factors (used only to refresh the chain)."""
    L = np.linalg.cholesky(KZ)
    eye = np.broadcast_to(np.eye(KZ.shape[-1]), KZ.shape)
    Linv = np.linalg.solve(L, eye)
    return np.swapaxes(Linv, -1, -2) @ Linv


def _draws(rng: np.random.Generator, n_iter: int, k: int, n_out: int, m: int | None):
    shape = n_iter if m is None else (n_iter, m)
    pos = rng.integers(0, k, size=shape)
    jr = rng.integers(0, n_out, size=shape)
    u = rng.random(shape)
    return pos, jr, u


def _chain_single(K: np.ndarray, Z: np.ndarray, n_iter: int, rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """One chain; returns the final subset and the number of accepted swaps.

    Keeps ``A = K_ZZ⁻¹``. Proposals are evaluated in vectorised chunks until the first acceptance
    (ratio ``(A b)_p² + A_pp (K_jj − bᵀAb)`` for ``b = K_{Z,j}``); an accepted swap updates ``A`` in
    ``O(k²)`` by :func:`_replace_inverse`'s formulas. The test ``2u < min(1, ratio)`` is the same event
    as ``u < ½ min(1, ratio)`` (doubling is exact), so the batch chain takes the same decisions.
    """
    n, k = K.shape[0], Z.size
    Z = Z.copy()
    member = np.zeros(n, dtype=bool)
    member[Z] = True
    out = np.flatnonzero(~member)
    if out.size == 0 or n_iter == 0:
        return Z, 0
    pos, jr, u = _draws(rng, n_iter, k, out.size, None)
    u2 = 2.0 * u
    diagK = np.diag(K).copy()
    Zc = Z[:, None]  # a view: follows the in-place updates of Z
    A = _inverse_from_cholesky(K[np.ix_(Z, Z)])
    cols = np.arange(4096)
    t, accepted, since_refresh, chunk = 0, 0, 0, 64
    while t < n_iter:
        stop = min(n_iter, t + chunk)
        p = pos[t:stop]
        j = out[jr[t:stop]]
        b = K[Zc, j]
        Ab = A @ b
        ratio = Ab[p, cols[: stop - t]] ** 2 + A[p, p] * (diagK[j] - np.einsum("ij,ij->j", b, Ab))
        hit = np.flatnonzero(u2[t:stop] < np.minimum(1.0, ratio))
        if hit.size == 0:
            t = stop
            chunk = min(2 * chunk, 4096)
            continue
        h = int(hit[0])
        pp, jj = int(p[h]), int(j[h])
        A = _replace_inverse(A, pp, b[:, h], diagK[jj])
        out[jr[t + h]] = Z[pp]
        Z[pp] = jj
        accepted += 1
        since_refresh += 1
        if since_refresh >= _REFRESH:
            A = _inverse_from_cholesky(K[np.ix_(Z, Z)])
            since_refresh = 0
        chunk = max(16, min(4096, 2 * (h + 1)))
        t += h + 1
    return Z, accepted


def _replace_inverse(A: np.ndarray, p: int, b: np.ndarray, c: float) -> np.ndarray:
    """Inverse of ``K_ZZ`` after replacing the item at position ``p`` (new column ``b``, diagonal ``c``)."""
    a = A[:, p]
    A1 = A - np.outer(a, a) / a[p]  # inverse of K_{Z∖p}, embedded with a zero row/column p
    g = A1 @ b
    g[p] = 0.0
    s = c - b @ g
    A2 = A1 + np.outer(g, g) / s
    A2[:, p] = -g / s
    A2[p, :] = -g / s
    A2[p, p] = 1.0 / s
    return A2


def _chain_batch(K: np.ndarray, Z0: np.ndarray, m: int, n_iter: int, rng: np.random.Generator) -> np.ndarray:
    """``m`` independent chains from the same start, vectorised over chains (same path as the single
    chain for ``m = 1`` and the same generator state)."""
    n, k = K.shape[0], Z0.size
    Z = np.tile(Z0, (m, 1))
    member = np.zeros(n, dtype=bool)
    member[Z0] = True
    out = np.tile(np.flatnonzero(~member), (m, 1))
    if out.shape[1] == 0 or n_iter == 0:
        return Z
    pos, jr, u = _draws(rng, n_iter, k, out.shape[1], m)
    A = np.tile(_inverse_from_cholesky(K[np.ix_(Z0, Z0)]), (m, 1, 1))
    diagK = np.diag(K)
    rows = np.arange(m)
    accepted = 0
    for t in range(n_iter):
        p = pos[t]
        j = out[rows, jr[t]]
        b = K[Z, j[:, None]]  # (m, k)
        Ab = np.einsum("mkl,ml->mk", A, b)
        s = diagK[j] - np.einsum("mk,mk->m", b, Ab)
        app = A[rows, p, p]
        ratio = Ab[rows, p] ** 2 + app * s
        acc = np.flatnonzero(u[t] < 0.5 * np.minimum(1.0, ratio))
        if acc.size == 0:
            continue
        pa, ja = p[acc], j[acc]
        Aa = A[acc]
        a = Aa[np.arange(acc.size), :, pa]  # (r, k)
        A1 = Aa - a[:, :, None] * a[:, None, :] / a[np.arange(acc.size), pa][:, None, None]
        ba = K[Z[acc], ja[:, None]]
        g = np.einsum("rkl,rl->rk", A1, ba)
        g[np.arange(acc.size), pa] = 0.0
        sa = diagK[ja] - np.einsum("rk,rk->r", ba, g)
        A2 = A1 + g[:, :, None] * g[:, None, :] / sa[:, None, None]
        idx = np.arange(acc.size)
        A2[idx, :, pa] = -g / sa[:, None]
        A2[idx, pa, :] = -g / sa[:, None]
        A2[idx, pa, pa] = 1.0 / sa
        A[acc] = A2
        out[acc, jr[t][acc]] = Z[acc, pa]
        Z[acc, pa] = ja
        accepted += acc.size
        if accepted >= _REFRESH * m:
            A = _inverse_from_cholesky(K[Z[:, :, None], Z[:, None, :]])
            accepted = 0
    return Z


def swap_chain_transition_matrix(K: Any, k: int) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """Exact transition matrix of the ``sparq`` Algorithm 2 chain over all size-k subsets (small N).

    Returns ``(subsets, P)`` with ``P[a, b]`` the probability of moving from ``subsets[a]`` to
    ``subsets[b]`` in one iteration: a swap ``(i, j)`` is proposed with probability
    ``1/(k (N−k))`` and accepted with probability ``½ min{1, det K_{Z'}/det K_Z}``. Used to compute
    the exact total-variation distance to the k-DPP after ``t`` steps (``δ_{Z₀} Pᵗ``).
    """
    K, w = check_psd("K", K)
    n = K.shape[0]
    k = _check_k(k, n, int(np.sum(w > psd_tolerance(w, n))))
    if math.comb(n, k) > 5000:
        raise ValueError(f"C(N, k) must be <= 5000 for an explicit transition matrix, got {math.comb(n, k)}")
    subsets = list(itertools.combinations(range(n), k))
    index = {s: a for a, s in enumerate(subsets)}
    dets = np.array([max(np.linalg.det(K[np.ix_(s, s)]), 0.0) for s in subsets])
    P = np.zeros((len(subsets), len(subsets)))
    q = 1.0 / (k * (n - k))
    for a, s in enumerate(subsets):
        if dets[a] <= 0:
            P[a, a] = 1.0
            continue
        members = set(s)
        for i in s:
            for j in range(n):
                if j in members:
                    continue
                b = index[tuple(sorted((members - {i}) | {j}))]
                P[a, b] += q * 0.5 * min(1.0, dets[b] / dets[a])
        P[a, a] = 1.0 - P[a].sum() + P[a, a]
    return subsets, P


# --------------------------------------------------------------------------------------------------
# exact spectral sampler (Kulesza & Taskar 2012, Alg. 8 + Alg. 1 phase 2)
# --------------------------------------------------------------------------------------------------


def _exact_one(w: np.ndarray, V: np.ndarray, T: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    n = w.size
    with np.errstate(divide="ignore"):
        loglam = np.log(w)
    chosen = []
    remaining = k
    for m in range(n, 0, -1):
        if remaining == 0:
            break
        if m == remaining:  # every remaining eigenvector must be taken
            chosen.extend(range(m - 1, -1, -1))
            break
        logp = loglam[m - 1] + T[remaining - 1, m - 1] - T[remaining, m]
        if math.log(rng.random() + 1e-300) < logp:
            chosen.append(m - 1)
            remaining -= 1
    Vs = V[:, chosen]
    # projection DPP with kernel Vs Vsᵀ, sampled by the chain rule (pivoted-Cholesky form)
    d = np.einsum("ij,ij->i", Vs, Vs)
    F = np.zeros((n, k))
    picks = np.zeros(k, dtype=int)
    for t in range(k):
        prob = np.maximum(d, 0.0)
        prob[picks[:t]] = 0.0
        cdf = np.cumsum(prob)
        i = min(int(np.searchsorted(cdf, rng.random() * cdf[-1], side="right")), n - 1)
        picks[t] = i
        col = (Vs @ Vs[i] - F[:, :t] @ F[i, :t]) / math.sqrt(prob[i])
        F[:, t] = col
        d = d - col * col
    return np.sort(picks)


class ExactKDPP:
    """The exact spectral k-DPP sampler of ``sample_kdpp(method="exact")`` on one PSD matrix ``K``,
    validated and diagonalised once, for callers that draw from the same ``K`` many times (SparQ-GP-UCB
    draws its expert queries from the Gram of the distinct past inputs, which rarely changes)."""

    def __init__(self, K: Any) -> None:
        self.K, self.eigenvalues, self.eigenvectors, self.rank = _spectrum(K)
        self._tables: dict[int, np.ndarray] = {}  # log e_l tables by k (the spectrum is fixed)

    def sample(self, k: int, rng: np.random.Generator, *, size: int | None = None) -> np.ndarray:
        """``k`` sorted distinct indices (``size=m``: an ``(m, k)`` array of independent draws). Raises
        ``ValueError`` if ``k > N`` or ``k > rank(K)``."""
        n = self.K.shape[0]
        k = _check_k(k, n, self.rank)
        if k == n:  # the only subset of size N: no randomness to draw
            whole = np.arange(k)
            return whole if size is None else np.tile(whole, (size, 1))
        T = self._tables.get(k)
        if T is None:
            T = self._tables[k] = _log_esp_table(self.eigenvalues, k)
        draws = [_exact_one(self.eigenvalues, self.eigenvectors, T, k, rng) for _ in range(1 if size is None else size)]
        return draws[0] if size is None else np.vstack(draws)


def sample_kdpp(
    K: Any,
    k: int,
    rng: np.random.Generator,
    method: str = "exact",
    *,
    size: int | None = None,
    n_iter: int | None = None,
    eps: float = 0.01,
    init: Any = None,
) -> np.ndarray:
    """Draw a k-DPP sample on the PSD matrix ``K``: ``k`` sorted distinct indices.

    ``method="exact"``: spectral sampler (exact law). ``method="mcmc"``: ``sparq`` Algorithm 2 swap
    chain from ``init`` (default: the greedy start of Algorithm 3) for ``n_iter`` steps (default:
    :func:`mcmc_iterations` at total-variation target ``eps``). ``size=m`` returns an ``(m, k)`` array of
    independent draws (independent chains for MCMC). Raises ``ValueError`` if ``k > N`` or
    ``k > rank(K)``, if ``K`` is not PSD, or if ``init`` is not ``k`` distinct indices.
    """
    method = check_choice("method", method, ("exact", "mcmc"))
    m = None if size is None else check_int("size", size, 1)
    eps = check_open_interval("eps", eps, 0.0, 1.0)
    if method == "exact":
        return ExactKDPP(K).sample(k, rng, size=m)
    K, wK = check_psd("K", K)
    n = K.shape[0]
    k = check_int("k", k, 1)
    if k > n:
        raise ValueError(f"k must be <= N = {n} (the number of items), got {k}")
    rank = int(np.sum(wK > psd_tolerance(wK, n)))
    if k > rank:
        raise ValueError(f"k must be <= rank(K) = {rank} (no size-k subset has positive determinant), got {k}")
    if init is None:
        Z0 = _greedy(K, k)
    else:
        Z0 = as_index_set("init", init, n)
        if Z0.size != k:
            raise ValueError(f"init must contain k = {k} indices, got {Z0.size}")
        sign, _ = np.linalg.slogdet(K[np.ix_(Z0, Z0)])
        if sign <= 0:
            raise ValueError("init must have a positive determinant det K[init, init], got a singular subset")
    if n_iter is None:
        w = np.where(wK > psd_tolerance(wK, n), wK, 0.0)
        n_iter = mcmc_iterations(n, k, _log_inv_pi(K, w, Z0), eps)
    n_iter = check_int("n_iter", n_iter, 0)
    if m is None:
        Z, _ = _chain_single(K, Z0, n_iter, rng)
        return np.sort(Z)
    return np.sort(_chain_batch(K, Z0, m, n_iter, rng), axis=1)
