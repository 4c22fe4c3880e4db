"""Information gain: evaluation for given points, greedy brackets on finite sets, analytic rates.

Two conventions, never mixed (each function names its own):

* **Srinivas convention** (``tvgpucb`` eq. (12), ``wgpucb`` §1.4):
  ``I = ½ log det(I + Σ⁻¹ K)`` — :func:`information_gain`, :func:`information_gain_from_gram`.
* **Determinant-ratio convention** (``wsparq`` §1.6 and eq. (15), ``sparq`` §1.7):
  ``log(|Σ + K| / |Σ|) = log det(I + Σ⁻¹ K)`` *without* the ½ — :func:`log_det_ratio`,
  :func:`log_det_ratio_from_gram`. It is exactly twice the Srinivas value.

``Σ`` is the diagonal noise matrix: a scalar noise variance (homoscedastic) or one variance per
observation (heteroscedastic, e.g. uncertainty injection ``σ²(1 + age^α)``). Every log-determinant is
computed from the Cholesky factor of the symmetric matrix ``I + Σ^{-1/2} K Σ^{-1/2}``, whose
eigenvalues are ``>= 1`` (:func:`tvbo_verify.linalg.stable_cholesky`).

Maximum information gain on a finite candidate set
--------------------------------------------------
``γ_T = max_{x_1..x_T} ½ log det(I + σ⁻² K_T)`` (``tvgpucb`` eq. (13)) is maximised over *sequences with
repetition* (the points are any elements of the candidate set; repeating a point is allowed and
useful, since every repetition is a fresh noisy observation). It is bracketed by the greedy value:

* homoscedastic noise, :func:`max_information_gain`: ``G_T <= γ_T <= G_T / (1 - 1/e)``. Reason
  (Nemhauser, Wolsey & Fisher 1978): the information gain is a monotone submodular function of the
  set of observations (Krause & Guestrin 2005) on the ground set *candidates × {1..T} copies*, each
  copy carrying its own independent noise; a multiset of size ``T`` of candidates is a subset of
  size ``T`` of that ground set, and the greedy rule there is "take the candidate of largest posterior
  variance", repetitions included. With noise ``> 0`` a repeated point still has positive marginal gain
  ``½ log(1 + σ²_{t-1}(x)/σ²)``, and diminishing returns hold for copies as for distinct points.
* position-dependent problems (heteroscedastic schedules, the time-varying ``γ̃_T`` of ``tvgpucb``,
  the weighted gains of ``wgpucb``): the objective is a monotone submodular function of
  (slot, point) pairs under a partition-matroid constraint (one point per slot). Filling the slots one
  after the other, each with its best point, is a ½-approximation (Fisher, Nemhauser & Wolsey 1978),
  so ``G <= max <= 2 G`` (``papers/tvgpucb/READING.md`` §3.3 for ``γ̃_T``).

The greedy steps use a variance-only incremental update of the candidate posterior: appending one
observation costs ``O(t·G)`` (one kernel column and one matrix–vector product against the stored
update vectors), never a refit.

Analytic rates
--------------
:func:`gamma_rate_bound` and :func:`gamma_rate_exponents` give the order of ``γ_T`` for SE and Matérn
kernels (Srinivas et al. 2010, Thm 5; Vakili et al. 2021). These are rates *up to constants*: the
value returned is ``constant · T^a · (log T)^b``. They are defined in :mod:`tvbo_verify.information_rates`
(no kernels, no linear algebra) and re-exported here.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Callable

import mpmath
import numpy as np

from .information_rates import RateExponents, gamma_rate_bound, gamma_rate_exponents
from .kernels import ForgettingKernel, Kernel
from .linalg import stable_cholesky
from .nystrom import gram_mp
from .validation import (
    as_noise,
    as_points,
    check_choice,
    check_int,
    check_interval,
    check_nonnegative,
    check_open_interval,
    check_positive,
    check_square_psd_shape,
)

__all__ = [
    "GreedyGainResult",
    "RateExponents",
    "information_gain",
    "information_gain_from_gram",
    "log_det_ratio",
    "log_det_ratio_from_gram",
    "max_information_gain",
    "GridGainBound",
    "grid_gain_bound",
    "ui_noise_schedule",
    "tv_information_gain",
    "tv_chain_gains",
    "max_tv_information_gain",
    "ExactGainResult",
    "exact_max_information_gain",
    "exact_max_information_gain_mp",
    "exact_max_tv_information_gain",
    "tv_information_gain_mp",
    "weighted_information_gain",
    "weighted_chain_gains",
    "max_weighted_information_gain",
    "weighted_gain_hadamard_bound",
    "weighted_gain_limit_bound",
    "weighted_gain_from_gram_mp",
    "GridMercer",
    "GridMercerMp",
    "mercer_on_grid",
    "mercer_on_grid_mp",
    "gram_with_spectrum",
    "gamma_rate_exponents",
    "gamma_rate_bound",
    "GREEDY_FACTOR_CARDINALITY",
    "GREEDY_FACTOR_PARTITION",
]

#: Approximation factor of greedy for a monotone submodular function under a cardinality constraint.
GREEDY_FACTOR_CARDINALITY: float = 1.0 - 1.0 / math.e
#: Approximation factor of slot-by-slot greedy under a partition-matroid constraint.
GREEDY_FACTOR_PARTITION: float = 0.5

WEIGHTED_KINDS: tuple[str, ...] = ("bar", "tilde")


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GreedyGainResult:
    """Greedy bracket ``lower <= max <= upper`` of a maximum information gain.

    Attributes
    ----------
    lower:
        The greedy value (the information gain of the greedy sequence; a lower bound on the max).
    upper:
        ``lower / factor``, an upper bound on the max by the greedy guarantee.
    points:
        Indices into the candidate set, one per slot, in sequence order (slot 1 first).
    gains:
        Marginal gains ``½ log(1 + s²σ²_{prev}(x)/noise)`` in the order the slots were filled
        (``order``); they sum to ``lower`` (chain rule).
    order:
        Slot indices (0-based) in the order they were filled. ``arange(T)`` unless stated otherwise.
    factor:
        The approximation factor behind ``upper``: ``1 - 1/e`` (cardinality constraint) or ``1/2``
        (partition matroid).
    """

    lower: float
    upper: float
    points: np.ndarray
    gains: np.ndarray
    order: np.ndarray
    factor: float


# ---------------------------------------------------------------------------------------------
# Evaluation for given points
# ---------------------------------------------------------------------------------------------
def _check_kernel(kernel: object) -> Kernel:
    if not isinstance(kernel, Kernel):
        raise ValueError(f"kernel must be a tvbo_verify.kernels.Kernel, got {type(kernel).__name__}")
    return kernel


def _logdet_identity_plus_scaled(K: np.ndarray, noise: np.ndarray, name: str) -> float:
    """``log det(I + Σ^{-1/2} K Σ^{-1/2})`` for ``Σ = diag(noise)`` via Cholesky."""
    n = K.shape[0]
    if n == 0:
        return 0.0
    r = 1.0 / np.sqrt(noise)
    A = np.eye(n) + (r[:, None] * K) * r[None, :]
    A = 0.5 * (A + A.T)
    return stable_cholesky(A, name=name).logdet()


def _gram_and_noise(K: np.ndarray, noise_var: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    K = check_square_psd_shape("K", K)
    noise = as_noise("noise_var", noise_var, K.shape[0])
    return K, noise


def information_gain_from_gram(K: np.ndarray, noise_var: float | np.ndarray) -> float:
    """``½ log det(I + Σ⁻¹ K)`` for a Gram matrix ``K`` (Srinivas convention, ``tvgpucb`` eq. (12)).

    ``noise_var`` is a scalar or one variance per row of ``K`` (heteroscedastic ``Σ``).
    """
    K, noise = _gram_and_noise(K, noise_var)
    return 0.5 * _logdet_identity_plus_scaled(K, noise, "I + Σ^-1/2 K Σ^-1/2")


def log_det_ratio_from_gram(K: np.ndarray, noise_var: float | np.ndarray) -> float:
    """``log(|Σ + K| / |Σ|) = log det(I + Σ⁻¹ K)`` **without** the ½ (``wsparq`` §1.6, eq. (15);
    ``sparq`` §1.7). This is exactly twice :func:`information_gain_from_gram`."""
    K, noise = _gram_and_noise(K, noise_var)
    return _logdet_identity_plus_scaled(K, noise, "I + Σ^-1/2 K Σ^-1/2")


def information_gain(kernel: Kernel, X: np.ndarray, noise_var: float | np.ndarray) -> float:
    """Mutual information ``I(f; y) = ½ log det(I + Σ⁻¹ K_X)`` of noisy observations at the rows of ``X``.

    Srinivas et al. convention (``tvgpucb`` eq. (12), ``wgpucb`` §1.4). ``noise_var`` is a scalar or
    one variance per observation. See :func:`log_det_ratio` for the ``wsparq``/``sparq`` convention.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.information import information_gain, log_det_ratio
    >>> from tvbo_verify.kernels import SquaredExponential
    >>> k, X = SquaredExponential(lengthscale=0.5), np.linspace(0, 1, 5)[:, None]
    >>> round(information_gain(k, [[0.0]], 1.0), 4)  # one point, k(x, x) = σ² = 1: ½ log 2
    0.3466
    >>> round(information_gain(k, X, 0.1), 4), round(log_det_ratio(k, X, 0.1), 4)  # the wsparq value is twice
    (3.7984, 7.5968)
    >>> information_gain(k, X, 0.0)
    Traceback (most recent call last):
    ...
    ValueError: noise_var must be > 0, got 0.0
    """
    _check_kernel(kernel)
    pts = as_points("X", X)
    return information_gain_from_gram(kernel(pts), noise_var)


def log_det_ratio(kernel: Kernel, X: np.ndarray, noise_var: float | np.ndarray) -> float:
    """``log(|Σ + K_X| / |Σ|)`` — the ``wsparq``/``sparq`` quantity (``wsparq`` §1.6 and eq. (15),
    ``sparq`` §1.7), **twice** :func:`information_gain` (no factor ½)."""
    _check_kernel(kernel)
    pts = as_points("X", X)
    return log_det_ratio_from_gram(kernel(pts), noise_var)


# ---------------------------------------------------------------------------------------------
# Variance-only incremental posterior on a candidate set (private)
# ---------------------------------------------------------------------------------------------
class _SequentialVariance:
    """Predictive variances on a candidate set under sequential (scaled) noisy observations.

    Observation ``j`` (0-based) is ``z_j = s_j f_j(x_j) + e_j`` with ``e_j ~ N(0, n_j)``; with a
    forgetting parameter ``ε`` the latent functions follow the TV-GP-UCB Markov model
    (``tvgpucb`` eqs. (3)–(4), (22)) and ``var`` is the predictive variance of the *next* function
    ``f_{j+1}``; with ``ε = 0`` all ``f_j`` coincide (static GP).

    Stored update vectors ``u_j`` satisfy ``Cov_{j}(f_t(g), f_t(h)) = k(g, h) -
    Σ_{i<=j} (1-ε)^{t-i} u_i(g) u_i(h)`` for ``t > j``, so one append costs one kernel column and one
    ``O(j·G)`` matrix–vector product; the factors ``(1-ε)^{lag}`` with ``lag >= 1`` never overflow.
    """

    def __init__(self, kernel: Kernel, candidates: np.ndarray, capacity: int, forgetting: float = 0.0) -> None:
        self.kernel = kernel
        self.C = candidates
        self.kdiag = np.asarray(kernel.diag(candidates), dtype=float)
        self.U = np.empty((max(capacity, 1), candidates.shape[0]))
        self.A = np.zeros(candidates.shape[0])  # Σ_i (1-ε)^{lag} u_i², lag to the next slot
        self.keep = 1.0 - forgetting
        self.n = 0

    @property
    def var(self) -> np.ndarray:
        return np.maximum(self.kdiag - self.A, 0.0)

    def add(self, index: int, noise: float, scale: float = 1.0) -> float:
        """Append an observation at candidate ``index``; return its marginal gain."""
        n = self.n
        kcol = self.kernel(self.C, self.C[index : index + 1])[:, 0]
        if n:
            w = np.power(self.keep, np.arange(n, 0, -1, dtype=float))
            c = kcol - np.dot(w * self.U[:n, index], self.U[:n])  # (n,)·(n, G): row-major gemv
        else:
            c = kcol
        pv = max(float(c[index]), 0.0)
        s2v = scale * scale * pv
        gain = 0.5 * math.log1p(s2v / noise)
        u = (scale / math.sqrt(s2v + noise)) * c
        self.U[n] = u
        self.n = n + 1
        self.A = self.keep * (self.A + u * u)
        return gain


def _greedy(
    kernel: Kernel,
    candidates: np.ndarray,
    noises: np.ndarray,
    scales: np.ndarray,
    order: np.ndarray,
    factor: float,
    forgetting: float = 0.0,
) -> GreedyGainResult:
    T = noises.shape[0]
    tracker = _SequentialVariance(kernel, candidates, T, forgetting)
    points = np.empty(T, dtype=int)
    gains = np.empty(T)
    for k, slot in enumerate(order):
        idx = int(np.argmax(tracker.var))  # ties: lowest index
        gains[k] = tracker.add(idx, float(noises[slot]), float(scales[slot]))
        points[slot] = idx
    lower = float(np.sum(gains))
    return GreedyGainResult(lower, lower / factor, points, gains, np.asarray(order, dtype=int), factor)


def _slot_noises(noise_var: float | np.ndarray | Callable[[int], float], T: int) -> np.ndarray:
    if callable(noise_var):
        values = [noise_var(t) for t in range(1, T + 1)]
        return as_noise("noise_var", np.asarray(values, dtype=float), T)
    return as_noise("noise_var", noise_var, T)


def max_information_gain(
    kernel: Kernel,
    candidates: np.ndarray,
    T: int,
    noise_var: float | np.ndarray | Callable[[int], float],
    *,
    fill_order: str = "increasing_noise",
) -> GreedyGainResult:
    """Greedy bracket of ``γ_T = max_{x_1..x_T} ½ log det(I + Σ⁻¹ K_T)`` over a finite candidate set.

    Maximisation is over sequences **with repetition** (``tvgpucb`` eq. (13), Srinivas et al.); the
    greedy rule takes the candidate of largest current posterior variance (ties: lowest index).

    ``noise_var``:

    * a scalar ``σ² > 0`` (homoscedastic): ``upper = lower / (1 - 1/e)`` (Nemhauser et al., see the
      module docstring);
    * a heteroscedastic **noise schedule**: a length-``T`` array, or a callable ``t -> variance`` for
      ``t = 1..T``, giving the noise variance of the observation placed in *slot* ``t`` of the sequence.
      For uncertainty injection at horizon ``T`` (``wsparq`` §1.3–1.4, ``sparq`` eq. (10)) slot ``i``
      carries ``σ²(1 + (T - i)^α)``, see :func:`ui_noise_schedule`. The objective is then the max over
      assignments of points to slots; slots are filled one after the other (``fill_order``:
      ``"increasing_noise"``, most informative slot first, or ``"sequence"``, slot 1 first), and
      ``upper = 2 · lower`` (partition matroid), unless all slot variances are equal, in which case the
      ``1 - 1/e`` bracket applies.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.information import information_gain, max_information_gain
    >>> from tvbo_verify.kernels import SquaredExponential
    >>> k, cands = SquaredExponential(lengthscale=0.5), np.linspace(0, 1, 21)[:, None]
    >>> res = max_information_gain(k, cands, 5, 0.1)  # the ends, the middle, then the ends again
    >>> round(res.lower, 4), round(res.upper, 4), res.points.tolist()
    (3.8197, 6.0427, [0, 20, 10, 0, 20])
    >>> bool(np.isclose(information_gain(k, cands[res.points], 0.1), res.lower))
    True
    """
    _check_kernel(kernel)
    C = as_points("candidates", candidates)
    T = check_int("T", T, 1)
    check_choice("fill_order", fill_order, ("increasing_noise", "sequence"))
    noises = _slot_noises(noise_var, T)
    homoscedastic = bool(np.all(noises == noises[0]))
    if homoscedastic or fill_order == "sequence":
        order = np.arange(T)
    else:
        order = np.argsort(noises, kind="stable")
    factor = GREEDY_FACTOR_CARDINALITY if homoscedastic else GREEDY_FACTOR_PARTITION
    return _greedy(kernel, C, noises, np.ones(T), order, factor)


class GridGainBound:
    """An upper bound of the maximum information gain ``γ_t`` on a finite domain, for every ``t`` at once.

    Built by :func:`grid_gain_bound` from the domain's Gram matrix ``K_D`` and the noise variance ``σ²``. For a
    multiset ``S`` of ``t`` points of ``D`` with counts ``n`` (``N = diag(n) ≼ t I``),
    ``½ log det(I + σ⁻² K_S) = ½ log det(I + σ⁻² N^{1/2} K_D N^{1/2})``, which is at most

    * the spectral bound ``½ Σ_i log(1 + t μ_i / σ²)`` (``μ_i`` the eigenvalues of ``K_D``; monotonicity of
      ``log det`` in ``N``), and
    * Hadamard's bound ``½ Σ_{x ∈ S} log(1 + k(x, x)/σ²) ≤ (t/2) log(1 + k̄/σ²)`` (``k̄ = max_x k(x, x)``).

    ``bound(t)`` is the smaller of the two (0 at ``t = 0``). It holds for every sequence of ``t`` points of ``D``,
    repetitions included, up to the rounding of one symmetric eigendecomposition (negative round-off eigenvalues
    are set to 0); :mod:`tvbo_verify.information_bounds` gives certified and much tighter brackets at a higher
    cost.
    """

    def __init__(self, scaled_eigenvalues: np.ndarray, scaled_max_variance: float) -> None:
        self.scaled_eigenvalues = np.clip(np.asarray(scaled_eigenvalues, dtype=float), 0.0, None)
        self.scaled_max_variance = check_nonnegative("scaled_max_variance", scaled_max_variance)

    def __call__(self, t: int) -> float:
        t = check_int("t", t, 0)
        spectral = 0.5 * float(np.sum(np.log1p(t * self.scaled_eigenvalues)))
        hadamard = 0.5 * t * math.log1p(self.scaled_max_variance)
        return min(spectral, hadamard)


def grid_gain_bound(K: np.ndarray, noise_var: float) -> GridGainBound:
    """The upper bound :class:`GridGainBound` of ``γ_t`` on the finite domain whose Gram matrix is ``K``.

    Parameters
    ----------
    K
        Gram matrix ``K_D`` of the kernel on the domain (``G × G``, symmetric PSD).
    noise_var
        Noise variance ``σ² > 0`` (the regulariser ``λ`` of the posterior whose information gain is bounded).

    Returns
    -------
    GridGainBound
        Callable ``t ↦ min(½ Σ_i log(1 + t μ_i/σ²), (t/2) log(1 + k̄/σ²))``, an upper bound of ``γ_t``.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.information import grid_gain_bound, max_information_gain
    >>> from tvbo_verify.kernels import SquaredExponential
    >>> k, grid = SquaredExponential(lengthscale=0.5), np.linspace(0, 1, 21)[:, None]
    >>> bound = grid_gain_bound(k(grid), 0.1)
    >>> greedy = max_information_gain(k, grid, 5, 0.1)  # γ_5 lies in [lower, upper]
    >>> round(greedy.lower, 4), round(bound(5), 4), bound(0)
    (3.8197, 5.9947, 0.0)
    """
    K = check_square_psd_shape("K", K)
    noise_var = check_positive("noise_var", noise_var)
    if K.shape[0] == 0:
        return GridGainBound(np.zeros(0), 0.0)
    from .blas import single_threaded_blas

    with single_threaded_blas():
        mu = np.linalg.eigvalsh(0.5 * (K + K.T))
    return GridGainBound(mu / noise_var, float(np.max(np.diag(K))) / noise_var)


def ui_noise_schedule(sigma2: float, alpha: float, T: int, *, target_time: int | None = None) -> np.ndarray:
    """Uncertainty-injection noise variances ``σ²(1 + (t* - i)^α)`` for observations ``i = 1..T``.

    ``wsparq`` §1.3–1.4 (``Σ_T = diag(σ²(1 + (T - i)^α))``); ``sparq`` eq. (10) is ``α = 2``
    (``σ²((T - i)² + 1)``). ``target_time`` ``t*`` defaults to ``T`` (paper-literal, ``wsparq`` §1.4);
    ``T + 1`` gives the statistically consistent prediction of ``f_{T+1}``. The age-0 variance is
    ``σ²`` for every ``α`` (convention ``0^α := 0``, ``papers/wsparq/READING.md`` §3.1).
    """
    s2 = check_positive("sigma2", sigma2)
    a = check_nonnegative("alpha", alpha)
    T = check_int("T", T, 1)
    tstar = T if target_time is None else check_int("target_time", target_time, T)
    ages = tstar - np.arange(1, T + 1, dtype=float)
    inj = np.where(ages > 0, np.power(np.maximum(ages, 1.0), a), 0.0)
    return s2 * (1.0 + inj)


# ---------------------------------------------------------------------------------------------
# Time-varying information gain (tvgpucb §1.6)
# ---------------------------------------------------------------------------------------------
def tv_information_gain(kernel: Kernel, X: np.ndarray, noise_var: float | np.ndarray, epsilon: float) -> float:
    """``Ĩ = ½ log det(I + σ⁻² K̃_T)`` with ``K̃_T = K_T ∘ D_T``, ``D_T = [(1-ε)^{|i-j|/2}]``
    (``tvgpucb`` eq. (14)). Row ``i`` of ``X`` is queried at time ``i``: the value depends on the order.
    ``noise_var`` is scalar (the paper) or per observation.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.information import information_gain, tv_chain_gains, tv_information_gain
    >>> from tvbo_verify.kernels import SquaredExponential
    >>> k, X = SquaredExponential(lengthscale=0.5), np.linspace(0, 1, 5)[:, None]
    >>> round(tv_information_gain(k, X, 0.1, 0.2), 4), round(tv_information_gain(k, X[[0, 4, 1, 3, 2]], 0.1, 0.2), 4)
    (4.5039, 4.814)
    >>> bool(np.isclose(tv_information_gain(k, X, 0.1, 0.0), information_gain(k, X, 0.1)))  # ε = 0: static
    True
    >>> bool(np.isclose(tv_chain_gains(k, X, 0.1, 0.2).sum(), tv_information_gain(k, X, 0.1, 0.2)))  # eq. (26)
    True
    """
    _check_kernel(kernel)
    pts = as_points("X", X)
    eps = check_interval("epsilon", epsilon, 0.0, 1.0)
    times = np.arange(1, pts.shape[0] + 1, dtype=float)
    Kt = kernel(pts) * ForgettingKernel(eps)(times)
    return information_gain_from_gram(Kt, noise_var)


def tv_chain_gains(kernel: Kernel, X: np.ndarray, noise_var: float | np.ndarray, epsilon: float) -> np.ndarray:
    """Per-step gains ``½ log(1 + σ⁻² σ̃²_{t-1}(x_t))`` of the chain rule ``tvgpucb`` eq. (26).

    ``σ̃²_{t-1}`` is the time-varying predictive variance (8) of ``f_t`` given the first ``t-1``
    observations; the gains sum to :func:`tv_information_gain` (exact identity).
    """
    _check_kernel(kernel)
    pts = as_points("X", X)
    eps = check_interval("epsilon", epsilon, 0.0, 1.0)
    T = pts.shape[0]
    noises = as_noise("noise_var", noise_var, T)
    tracker = _SequentialVariance(kernel, pts, T, eps)
    return np.array([tracker.add(j, float(noises[j])) for j in range(T)])


def max_tv_information_gain(
    kernel: Kernel, candidates: np.ndarray, T: int, noise_var: float | np.ndarray, epsilon: float
) -> GreedyGainResult:
    """Greedy bracket of ``γ̃_T = max_{x_1..x_T} Ĩ`` (``tvgpucb`` eq. (15)).

    TV greedy: ``x_t = argmax_x σ̃_{t-1}(x)`` for ``t = 1..T`` (chain rule (26) with the time-varying
    posterior variance). ``Ĩ`` is monotone submodular in the (time, location) pairs with one pair per
    time (partition matroid), so ``lower <= γ̃_T <= 2 · lower`` (``papers/tvgpucb/READING.md`` §3.3).
    """
    _check_kernel(kernel)
    C = as_points("candidates", candidates)
    T = check_int("T", T, 1)
    eps = check_interval("epsilon", epsilon, 0.0, 1.0)
    noises = as_noise("noise_var", noise_var, T)
    return _greedy(kernel, C, noises, np.ones(T), np.arange(T), GREEDY_FACTOR_PARTITION, eps)


# ---------------------------------------------------------------------------------------------
# Exact maxima on tiny candidate sets, and the mpmath twins (referees of the tvgpucb checks)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ExactGainResult:
    """The exact maximum of an information gain by enumeration, and a maximiser (candidate indices)."""

    value: float
    points: tuple[int, ...]


def exact_max_information_gain(kernel: Kernel, candidates: np.ndarray, N: int, noise_var: float) -> ExactGainResult:
    """``γ_N = max ½ log det(I + σ⁻² K_N)`` (``tvgpucb`` eq. (13)) by enumerating every multiset of size ``N``.

    The order of the points does not matter for the static gain, so multisets suffice. The cost is
    ``C(|D| + N − 1, N)`` log-determinants: meant for tiny domains (the brute force of papers/tvgpucb/READING.md §3.3).
    """
    _check_kernel(kernel)
    C = as_points("candidates", candidates)
    N = check_int("N", N, 1)
    s2 = check_positive("noise_var", noise_var)
    best, arg = -math.inf, ()
    for ms in itertools.combinations_with_replacement(range(C.shape[0]), N):
        v = information_gain(kernel, C[list(ms)], s2)
        if v > best:
            best, arg = v, ms
    return ExactGainResult(float(best), tuple(int(i) for i in arg))


def exact_max_tv_information_gain(
    kernel: Kernel, candidates: np.ndarray, T: int, noise_var: float, epsilon: float
) -> ExactGainResult:
    """``γ̃_T = max Ĩ`` (``tvgpucb`` eq. (15)) by enumerating all ``|D|^T`` ordered sequences (tiny domains)."""
    _check_kernel(kernel)
    C = as_points("candidates", candidates)
    T = check_int("T", T, 1)
    s2 = check_positive("noise_var", noise_var)
    eps = check_interval("epsilon", epsilon, 0.0, 1.0)
    best, arg = -math.inf, ()
    for seq in itertools.product(range(C.shape[0]), repeat=T):
        v = tv_information_gain(kernel, C[list(seq)], s2, eps)
        if v > best:
            best, arg = v, seq
    return ExactGainResult(float(best), tuple(int(i) for i in arg))


def tv_information_gain_mp(kernel: Kernel, X: np.ndarray, noise_var: float, epsilon: float) -> mpmath.mpf:
    """mpmath twin of :func:`tv_information_gain` at the current ``mpmath.mp.dps``:
    ``½ log det(I + σ⁻² K ∘ D)`` with ``D_ij = (√(1−ε))^{|i−j|}`` (``ε = 0``: :func:`information_gain`)."""
    pts = as_points("X", X)
    G = gram_mp(kernel, pts, dps=mpmath.mp.dps)
    s2, rho = mpmath.mpf(noise_var), mpmath.sqrt(1 - mpmath.mpf(epsilon))
    n = pts.shape[0]
    M = mpmath.matrix(n, n)
    for i in range(n):
        for j in range(n):
            M[i, j] = G[i, j] * rho ** abs(i - j) / s2 + (1 if i == j else 0)
    return mpmath.log(mpmath.det(M)) / 2


def exact_max_information_gain_mp(kernel: Kernel, candidates: np.ndarray, N: int, noise_var: float) -> mpmath.mpf:
    """mpmath twin of :func:`exact_max_information_gain`: every multiset again, at the current precision."""
    C = as_points("candidates", candidates)
    N = check_int("N", N, 1)
    s2 = mpmath.mpf(noise_var)
    G = gram_mp(kernel, C, dps=mpmath.mp.dps)
    best = None
    for ms in itertools.combinations_with_replacement(range(C.shape[0]), N):
        M = mpmath.matrix([[G[a, b] / s2 + (1 if i == j else 0) for j, b in enumerate(ms)] for i, a in enumerate(ms)])
        v = mpmath.log(mpmath.det(M)) / 2
        best = v if best is None or v > best else best
    return best


# ---------------------------------------------------------------------------------------------
# Weighted information gains (wgpucb §1.7)
# ---------------------------------------------------------------------------------------------
def _slot_scales(t: int, disc: float, kind: str) -> np.ndarray:
    """Feature scales of slots ``s = 1..t``: ``γ^{t-s}`` (bar) or ``γ^{(t-s)/2}`` (tilde); never ``γ^{-t}``."""
    lags = t - np.arange(1, t + 1, dtype=float)
    power = lags if kind == "bar" else 0.5 * lags
    if disc == 1.0:
        return np.ones(t)
    return np.exp(power * math.log(disc))


def _check_weighted(lam: float, disc: float, kind: str) -> tuple[float, float, str]:
    lam = check_positive("lam", lam)
    disc = check_interval("disc", disc, 0.0, 1.0, closed_low=False)
    check_choice("kind", kind, WEIGHTED_KINDS)
    return lam, disc, kind


def weighted_information_gain(kernel: Kernel, X: np.ndarray, lam: float, disc: float, kind: str = "bar") -> float:
    """Weighted information gain of ``wgpucb`` §1.7 for the ordered sequence ``X`` (``t = len(X)``).

    * ``kind="bar"`` (double-weighted, eq. (5) read with ``K̄_t``):
      ``½ log det(I + λ⁻¹ D_t K D_t)``, ``D_t = diag(γ^{t-s})``;
    * ``kind="tilde"`` (weighted): ``½ log det(I + λ⁻¹ D_t^{1/2} K D_t^{1/2})``.

    ``disc`` is the discount ``γ ∈ (0, 1]``; ``γ = 1`` (``w ≡ 1``) gives :func:`information_gain` with
    noise ``λ``. The overflow-free normalised form is used (papers/wgpucb/READING.md §3.4): never ``γ^{-t}``.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.information import information_gain, weighted_gain_hadamard_bound, weighted_information_gain
    >>> from tvbo_verify.kernels import SquaredExponential
    >>> k, X = SquaredExponential(lengthscale=0.5), np.linspace(0, 1, 5)[:, None]
    >>> [round(weighted_information_gain(k, X, lam=0.1, disc=0.9, kind=kind), 4) for kind in ("bar", "tilde")]
    [3.2487, 3.5135]
    >>> round(weighted_gain_hadamard_bound(5, 0.1, 0.9), 4)  # a bound for every sequence of 5 points
    5.0703
    >>> bool(np.isclose(weighted_information_gain(k, X, lam=0.1, disc=1.0), information_gain(k, X, 0.1)))
    True
    """
    _check_kernel(kernel)
    pts = as_points("X", X)
    lam, disc, kind = _check_weighted(lam, disc, kind)
    s = _slot_scales(pts.shape[0], disc, kind)
    K = kernel(pts)
    return 0.5 * _logdet_identity_plus_scaled((s[:, None] * K) * s[None, :], np.full(len(s), lam), "I + DKD/lam")


def weighted_chain_gains(kernel: Kernel, X: np.ndarray, lam: float, disc: float, kind: str = "bar") -> np.ndarray:
    """Chain-rule gains ``½ log(1 + s_j² σ²_{j-1}(x_j)/λ)`` of :func:`weighted_information_gain`, in
    sequence order (slot scale ``s_j`` as in papers/wgpucb/READING.md §3.4); they sum to the weighted gain."""
    _check_kernel(kernel)
    pts = as_points("X", X)
    lam, disc, kind = _check_weighted(lam, disc, kind)
    t = pts.shape[0]
    s = _slot_scales(t, disc, kind)
    tracker = _SequentialVariance(kernel, pts, t)
    return np.array([tracker.add(j, lam, float(s[j])) for j in range(t)])


def max_weighted_information_gain(
    kernel: Kernel, candidates: np.ndarray, t: int, lam: float, disc: float, kind: str = "bar"
) -> GreedyGainResult:
    """Greedy bracket of ``γ̄_t`` (``kind="bar"``) or ``γ̃_t`` (``kind="tilde"``) of ``wgpucb`` §1.7.

    The max is over ordered sequences with repetition (papers/wgpucb/READING.md §3.2). Slots are filled in
    decreasing weight order (slot ``t`` first, papers/wgpucb/READING.md §3.2), each with the candidate of largest
    posterior variance given the already-placed (scaled) points; ``upper = 2 · lower`` (partition
    matroid). See :func:`weighted_gain_hadamard_bound` for a sequence-free upper bound.
    """
    _check_kernel(kernel)
    C = as_points("candidates", candidates)
    t = check_int("t", t, 1)
    lam, disc, kind = _check_weighted(lam, disc, kind)
    scales = _slot_scales(t, disc, kind)
    order = np.arange(t - 1, -1, -1)
    return _greedy(kernel, C, np.full(t, lam), scales, order, GREEDY_FACTOR_PARTITION)


def weighted_gain_hadamard_bound(t: int, lam: float, disc: float, kbar: float = 1.0, kind: str = "bar") -> float:
    """Hadamard upper bound ``½ Σ_{j=0}^{t-1} log(1 + k̄ γ^{2j}/λ)`` on ``γ̄_t`` (``kind="bar"``), or
    ``½ Σ_j log(1 + k̄ γ^j/λ)`` on ``γ̃_t`` (``kind="tilde"``); papers/wgpucb/READING.md §3.2 [derived].

    Valid for every sequence, since ``det(I + A) <= Π(1 + A_jj)`` for PSD ``A`` and ``k(x,x) <= k̄``.
    """
    t = check_int("t", t, 1)
    lam, disc, kind = _check_weighted(lam, disc, kind)
    kbar = check_positive("kbar", kbar)
    s = _slot_scales(t, disc, kind)
    return float(0.5 * np.sum(np.log1p(kbar * s * s / lam)))


def weighted_gain_limit_bound(lam: float, disc: float, kbar: float = 1.0, kind: str = "bar") -> float:
    """``t``-free bound ``k̄ / (2λ(1 - γ²))`` (``kind="bar"``) or ``k̄ / (2λ(1 - γ))`` (``kind="tilde"``)
    on the Hadamard bound, by ``log(1 + x) <= x`` and the geometric series (papers/wgpucb/READING.md §3.2)."""
    lam = check_positive("lam", lam)
    disc = check_open_interval("disc", disc, 0.0, 1.0)
    check_choice("kind", kind, WEIGHTED_KINDS)
    kbar = check_positive("kbar", kbar)
    q = disc * disc if kind == "bar" else disc
    return kbar / (2.0 * lam * (1.0 - q))


def weighted_gain_from_gram_mp(G: object, lam: float, disc: float, kind: str = "bar") -> mpmath.mpf:
    """mpmath twin of :func:`weighted_information_gain` from the Gram matrix ``G`` of the sequence (an
    ``mpmath.matrix`` or an object array of ``mpf``, e.g. :func:`tvbo_verify.nystrom.gram_mp`):
    ``½ log det(I + λ⁻¹ S G S)`` with slot scales ``S = diag(γ^{t-s})`` (bar) or ``γ^{(t-s)/2}`` (tilde),
    evaluated at the current ``mpmath.mp.dps`` (``lam`` and ``disc`` taken exactly)."""
    lam, disc, kind = _check_weighted(lam, disc, kind)
    M = G if isinstance(G, mpmath.matrix) else mpmath.matrix(np.asarray(G, dtype=object).tolist())
    t = M.rows
    lam_mp, g = mpmath.mpf(lam), mpmath.mpf(disc)
    power = 1 if kind == "bar" else mpmath.mpf(1) / 2
    s = [g ** ((t - 1 - j) * power) for j in range(t)]
    A = mpmath.matrix([[s[i] * M[i, j] * s[j] / lam_mp + (1 if i == j else 0) for j in range(t)] for i in range(t)])
    return mpmath.log(mpmath.det(A)) / 2


# ---------------------------------------------------------------------------------------------
# Mercer decomposition on a finite grid (wgpucb Theorem 1, Assumption 1, §5.1)
# ---------------------------------------------------------------------------------------------
#: Eigenvalues of the grid Gram below this fraction of the largest one are treated as zero (§5.1).
MERCER_RELATIVE_CUT: float = 1e-12


@dataclass(frozen=True)
class GridMercer:
    """Mercer decomposition of a kernel on a finite grid ``x_1..x_n`` with the uniform measure (mass ``1/n``).

    ``K_D = U Λ Uᵀ`` (eigenvalues below :data:`MERCER_RELATIVE_CUT` ``· λ_max`` dropped). Then
    (papers/wgpucb/READING.md §3.3): Mercer weights ``c_m = Λ_mm / n`` (decreasing), eigenfunctions
    ``φ_m(x_i) = √n U_im`` (orthonormal in ``L²(ν)``), ``ψ = max_{i,m} |φ_m(x_i)|`` and the feature map
    ``φ(x_i)`` = row ``i`` of ``U Λ^{1/2}`` (``k(x_i, x_j) = φ(x_i)ᵀφ(x_j)``).
    """

    eigenvalues: np.ndarray
    vectors: np.ndarray

    @property
    def n(self) -> int:
        return int(self.vectors.shape[0])

    @property
    def c(self) -> np.ndarray:
        """Mercer weights ``c_m = Λ_mm / n``, decreasing."""
        return self.eigenvalues / self.n

    @property
    def eigenfunctions(self) -> np.ndarray:
        """``(n, r)`` array of ``φ_m(x_i) = √n U_im``."""
        return math.sqrt(self.n) * self.vectors

    @property
    def psi(self) -> float:
        """``ψ = √n max_{i,m} |U_im|``, the uniform bound on the eigenfunctions (Assumption 1 (2))."""
        return float(math.sqrt(self.n) * np.max(np.abs(self.vectors)))

    @property
    def features(self) -> np.ndarray:
        """``(n, r)`` array whose row ``i`` is the feature vector ``φ(x_i) = (√c_m φ_m(x_i))_m``."""
        return self.vectors * np.sqrt(self.eigenvalues)


def mercer_on_grid(K: np.ndarray) -> GridMercer:
    """Mercer decomposition of the grid Gram matrix ``K`` (``wgpucb`` Theorem 1 on a finite ``D``,
    papers/wgpucb/READING.md §3.3). Eigenpairs by ``numpy.linalg.eigh``, returned in decreasing order.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.information import mercer_on_grid
    >>> from tvbo_verify.kernels import SquaredExponential
    >>> K = SquaredExponential(lengthscale=0.5)(np.linspace(0, 1, 6)[:, None])
    >>> m = mercer_on_grid(K)
    >>> m.features.shape, bool(np.allclose(m.features @ m.features.T, K))  # k(x_i, x_j) = φ(x_i)ᵀφ(x_j)
    ((6, 6), True)
    >>> round(float(m.c.sum()), 4), bool(np.all(np.diff(m.c) <= 0)), round(m.psi, 4)  # Σ c_m = tr K / n = 1
    (1.0, True, 1.4886)
    """
    K = check_square_psd_shape("K", K)
    if K.shape[0] == 0:
        raise ValueError("K must have at least one row, got shape (0, 0)")
    w, U = np.linalg.eigh(K)
    if not w[-1] > 0:
        raise ValueError(f"K must have a positive eigenvalue, got largest {float(w[-1])!r}")
    keep = w > MERCER_RELATIVE_CUT * w[-1]
    return GridMercer(w[keep][::-1].copy(), U[:, keep][:, ::-1].copy())


def gram_with_spectrum(c: np.ndarray) -> np.ndarray:
    """The Gram matrix on ``n = len(c)`` grid points whose Mercer weights (uniform measure, §5.1) are
    exactly ``c``: ``K = Σ_m n c_m φ_m φ_mᵀ/n`` with the orthonormal DCT-II vectors as eigenvectors, so
    ``φ_m(x_i) = √n U_im``, bounded by ``ψ = √2`` (``|φ_m| <= √2``; the grid's own maximum, e.g. 1.31 for
    ``n = 4``, can lie below it). A kernel with a prescribed eigendecay, e.g.
    ``c_m = C_p m^{−β_p}`` (``wgpucb`` Corollary 8)."""
    c = np.asarray(c, dtype=float)
    if c.ndim != 1 or c.size == 0 or np.any(c < 0) or not np.all(np.isfinite(c)):
        raise ValueError(f"c must be a non-empty vector of nonnegative weights, got {c!r}")
    n = c.size
    i = np.arange(n)[:, None]
    U = np.cos(np.pi * (i + 0.5) * np.arange(n)[None, :] / n) * np.sqrt(2.0 / n)
    U[:, 0] /= np.sqrt(2.0)
    return (U * (n * c)) @ U.T


@dataclass(frozen=True)
class GridMercerMp:
    """mpmath twin of :class:`GridMercer`: decreasing eigenvalues ``Λ`` and eigenvector columns ``U`` at
    the precision they were computed at."""

    eigenvalues: list
    vectors: list  # vectors[m][i] = U_im

    @property
    def n(self) -> int:
        return len(self.vectors[0]) if self.vectors else 0

    @property
    def c(self) -> list:
        return [lam / self.n for lam in self.eigenvalues]

    @property
    def psi(self) -> mpmath.mpf:
        return mpmath.sqrt(self.n) * max(abs(u) for col in self.vectors for u in col)

    def tail(self, N: int) -> mpmath.mpf:
        """``δ_N = ψ² Σ_{m>N} c_m``."""
        return self.psi ** 2 * mpmath.fsum(self.c[N:])

    def features(self) -> list:
        """Rows ``φ(x_i) = (U_im √Λ_m)_m`` as lists of ``mpf``."""
        roots = [mpmath.sqrt(lam) for lam in self.eigenvalues]
        return [[col[i] * r for col, r in zip(self.vectors, roots)] for i in range(self.n)]


def mercer_on_grid_mp(K: object, cut: float = MERCER_RELATIVE_CUT) -> GridMercerMp:
    """mpmath twin of :func:`mercer_on_grid` (``mpmath.eigsy`` at the current ``mpmath.mp.dps``); ``K`` an
    ``mpmath.matrix`` or an object array of ``mpf`` (e.g. :func:`tvbo_verify.nystrom.gram_mp`).

    ``cut`` is the relative eigenvalue cut; at 50 digits a much smaller one (e.g. ``1e-40``) keeps every
    mode that is not rounding noise, i.e. features that reproduce ``K`` to the working precision."""
    M = K if isinstance(K, mpmath.matrix) else mpmath.matrix(np.asarray(K, dtype=object).tolist())
    n = M.rows
    w, U = mpmath.eigsy(M)
    order = sorted(range(n), key=lambda i: -w[i])
    top = w[order[0]]
    keep = [i for i in order if w[i] > mpmath.mpf(check_positive("cut", cut)) * top]
    return GridMercerMp([w[i] for i in keep], [[U[r, i] for r in range(n)] for i in keep])
