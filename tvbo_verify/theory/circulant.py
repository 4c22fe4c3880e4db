"""Toeplitz and circulant temporal Gram matrices of ``bolt`` App. B and the oracle quantities of Lemma C.4.

Sampling a unit-variance temporal kernel ``k_T`` at ``t_j = jc`` gives the symmetric Toeplitz matrix
``T_n = (k_T(|i − j| c))`` (eq. (19) with B.2). Gray's circulant ``C_n`` has first row
``c_0 = k_T(0)``, ``c_j = k_T(cj) + k_T(c(n − j))`` (eq. (23), second line; papers/bolt/READING.md §5.9) and eigenvalues
the centred DFT (22) of that row. The oracle of Lemma C.1 predicts ``t_n`` from ``t_0, …, t_{n−1}`` with
weights ``w = K_T⁻¹ k_T`` and explained variance ``q_n = k_Tᵀ K_T⁻¹ k_T`` (eqs. (41), (46), (56)); its
one-step prediction variance ``1 − q_n`` tends to the Szegő–Kolmogorov limit
``exp ∫_{−1/2}^{1/2} log f_d(ν) dν`` with the aliased density ``f_d(ν) = (1/c) Σ_m S_T((ν + m)/c)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import linalg, special

from ..kernels import Matern, SquaredExponential, StationaryKernel
from ..linalg import stable_cholesky
from ..spectral import log_aliased_spectral_density, log_spectral_density
from ..validation import check_int, check_positive

__all__ = [
    "sampled_correlations", "toeplitz_gram", "circulant_first_row", "circulant_matrix", "centred_dft_eigenvalues",
    "centred_frequencies", "gray_norm", "mean_sorted_eigenvalue_gap", "OneStepPrediction", "one_step_prediction",
    "log_sampled_density", "szego_prediction_variance",
]


def sampled_correlations(kernel: StationaryKernel, period: float, n: int) -> np.ndarray:
    """``(k_T(0), k_T(c), …, k_T((n − 1)c))``."""
    period = check_positive("period", period)
    n = check_int("n", n, 1)
    return kernel.of_distance(np.arange(n, dtype=float) * period)


def toeplitz_gram(kernel: StationaryKernel, period: float, n: int) -> np.ndarray:
    """``T_n = (k_T(|i − j| c))_{i, j < n}`` (``bolt`` B.2)."""
    return linalg.toeplitz(sampled_correlations(kernel, period, n))


def circulant_first_row(kernel: StationaryKernel, period: float, n: int) -> np.ndarray:
    """Gray's construction: ``c_0 = k_T(0)``, ``c_j = k_T(cj) + k_T(c(n − j))`` for ``0 < j < n`` (eq. (23))."""
    row = sampled_correlations(kernel, period, n).copy()
    j = np.arange(1, n, dtype=float)
    row[1:] += kernel.of_distance((n - j) * period)
    return row


def circulant_matrix(first_row: np.ndarray) -> np.ndarray:
    """``C_{ij} = c_{(j − i) mod n}``: each row the previous one shifted right (App. B)."""
    return linalg.circulant(np.asarray(first_row, float)).T


def centred_dft_eigenvalues(first_row: np.ndarray) -> np.ndarray:
    """``λ_j = Σ_l c_l exp(−2πi (j − n/2) l / n)``, ``j = 0, …, n − 1`` (eq. (22)); complex. Computed as the
    FFT of ``c_l e^{iπl} = (−1)^l c_l`` (the shift by ``n/2`` is that phase, for every ``n``)."""
    c = np.asarray(first_row, float)
    return np.fft.fft(c * (-1.0) ** np.arange(c.size))


def centred_frequencies(period: float, n: int) -> np.ndarray:
    """``ξ_j = (j − n/2)/(nc)``, the frequency eq. (28) assigns to eigenvalue ``j``."""
    period = check_positive("period", period)
    n = check_int("n", n, 1)
    return (np.arange(n, dtype=float) - n / 2) / (n * period)


def gray_norm(A: np.ndarray, B: np.ndarray) -> float:
    """Gray's normalised Hilbert–Schmidt norm ``|A − B| = (n⁻¹ Σ_{k,j} |a_kj − b_kj|²)^{1/2}`` (App. B)."""
    D = np.asarray(A, float) - np.asarray(B, float)
    return float(np.sqrt(np.sum(D * D) / D.shape[0]))


def mean_sorted_eigenvalue_gap(A: np.ndarray, B: np.ndarray) -> float:
    """``n⁻¹ Σ_i |λ_i↓(A) − λ_i↓(B)|`` for symmetric ``A, B`` (papers/bolt/READING.md §bolt:appendix-b, part gap)."""
    return float(np.mean(np.abs(np.linalg.eigvalsh(A) - np.linalg.eigvalsh(B))))


@dataclass(frozen=True)
class OneStepPrediction:
    """The oracle's temporal prediction of ``t_n`` from ``t_0, …, t_{n−1}`` (Lemma C.1, eqs. (41), (56))."""

    weights: np.ndarray
    explained: float  # q_n = k_Tᵀ K_T⁻¹ k_T
    variance: float  # 1 − q_n, from the Cholesky factor of the (n + 1)-point Gram matrix

    @property
    def weight_sum(self) -> float:
        return float(np.sum(self.weights))

    @property
    def weight_l1(self) -> float:
        return float(np.sum(np.abs(self.weights)))


def one_step_prediction(kernel: StationaryKernel, period: float, n: int) -> OneStepPrediction:
    """``w = K_T⁻¹ k_T(t_n, D)``, ``q_n`` and ``1 − q_n`` for ``t_j = jc`` (unit-variance ``k_T``)."""
    n = check_int("n", n, 1)
    K = toeplitz_gram(kernel, period, n + 1)
    L = stable_cholesky(K, name="temporal Gram matrix")
    w = stable_cholesky(K[:n, :n], name="temporal Gram matrix").solve(K[:n, n])
    return OneStepPrediction(w, float(K[:n, n] @ w), float(L.L[n, n] ** 2))


def log_sampled_density(kernel: StationaryKernel, period: float, nu: np.ndarray) -> np.ndarray:
    """``log f_d(ν)``, ``f_d(ν) = Σ_l k_T(c|l|) e^{−2πiνl} = (1/c) Σ_m S_T((ν + m)/c)`` for ``ν ∈ [0, 1/2]``:
    the Fourier series for Matérn (exponential decay in ``l``), the aliased sum for SE (super-exponential
    decay in ``m``), :func:`~tvbo_verify.spectral.log_aliased_spectral_density` otherwise."""
    period = check_positive("period", period)
    nu = np.asarray(nu, dtype=float)
    ell = float(kernel.lengthscale)
    if isinstance(kernel, Matern):
        L = int(math.ceil(60.0 * ell / (math.sqrt(2.0 * kernel.nu) * period))) + 20
        lags = np.arange(1, L + 1, dtype=float)
        k = kernel.of_distance(lags * period)
        f = kernel.variance + 2.0 * np.cos(2.0 * math.pi * nu[..., None] * lags) @ k
        return np.log(f)
    if isinstance(kernel, SquaredExponential):
        M = int(math.ceil(period * math.sqrt(40.0 / (2.0 * math.pi**2 * ell**2)))) + 3
        m = np.arange(-M, M + 1, dtype=float)
        return special.logsumexp(log_spectral_density(kernel, (nu[..., None] + m) / period), axis=-1) - math.log(period)
    return log_aliased_spectral_density(kernel, period, nu / period, terms=2000)


def szego_prediction_variance(kernel: StationaryKernel, period: float, *, nodes: int = 128) -> float:
    """``lim_n (1 − q_n) = exp ∫_{−1/2}^{1/2} log f_d(ν) dν`` (Szegő–Kolmogorov; papers/bolt/READING.md §5.3), with
    ``f_d(ν) = (1/c) Σ_m S_T((ν + m)/c)`` the aliased density of the sampled correlations
    (:func:`log_sampled_density`), integrated by Gauss–Legendre on ``[0, 1/2]`` (``f_d`` is even)."""
    period = check_positive("period", period)
    x, w = np.polynomial.legendre.leggauss(int(nodes))
    nu = 0.25 * (x + 1.0)
    return math.exp(2.0 * 0.25 * float(w @ log_sampled_density(kernel, period, nu)))
