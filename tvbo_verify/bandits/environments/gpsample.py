"""Environments drawn from Gaussian processes: one stationary draw fixed for every round (the time-invariant
baseline of GP bandits, :class:`StationaryGPSample`), the ``tvgpucb`` Markov model, uncertainty-injection drift
(``wsparq`` Assumption 2) and ``bolt`` spatio-temporal samples in continuous time.

All samples are exact: a grid covariance ``K`` is factored as ``S Sᵀ`` by an eigendecomposition
(:func:`~tvbo_verify.bandits.environments.base.psd_sqrt`, no jitter), and temporal structure is
sampled exactly (AR(1) recursion, circulant embedding, sequential conditioning). The stationary draw is the
exception: it is drawn through the Cholesky factor of ``K + εI`` (a stated nugget ``ε``), so that its RKHS norm in
that kernel matrix is known exactly.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ...kernels import (
    KERNEL_NAMES,
    Kernel,
    SpatioTemporalKernel,
    SquaredExponential,
    kernel_by_name,
    resolve_kernel,
    temporal_kernel,
)
from ...linalg import Factor, stable_cholesky
from ...validation import as_points, check_int, check_interval, check_nonnegative, check_positive
from .base import Environment, ScaledKernel, psd_sqrt, unit_grid
from .rkhs import scale_to_norm

__all__ = [
    "SAMPLE_BLOCK", "grid_sqrt", "GridSampler", "StationaryGPSample", "MarkovGP", "fractional_gaussian_noise",
    "UncertaintyInjectionDrift", "SpatioTemporalGP",
]

_SQRT_CACHE: dict[tuple, np.ndarray] = {}
#: samples of ``GP(0, k)`` the Markov model draws at once (a (64, G) block: 1.3 MB on the paper's 50 × 50 grid)
SAMPLE_BLOCK = 64


def grid_sqrt(kernel: Kernel, grid: np.ndarray) -> np.ndarray:
    """``S`` with ``S Sᵀ = k(grid, grid)``, cached per (kernel, grid) within a process (at most 4 entries)."""
    key = (repr(kernel), grid.shape, hash(grid.tobytes()))
    S = _SQRT_CACHE.get(key)
    if S is None:
        S = psd_sqrt(kernel(grid))
        if len(_SQRT_CACHE) >= 4:
            _SQRT_CACHE.pop(next(iter(_SQRT_CACHE)))
        _SQRT_CACHE[key] = S
    return S


class GridSampler:
    """Exact sampler of ``GP(0, k)`` on a grid: ``S z`` with ``S Sᵀ = K``.

    For a squared-exponential kernel on a product grid (``axis`` given, grid from :func:`unit_grid`),
    ``K = K₁ ⊗ … ⊗ K₁`` and ``S = S₁ ⊗ … ⊗ S₁``, so a sample costs ``O(d·n^{d+1})`` instead of ``O(G²)`` and
    no ``G×G`` matrix is ever formed; otherwise ``S`` comes from :func:`grid_sqrt`.
    """

    def __init__(self, kernel: Kernel, grid: np.ndarray, axis: np.ndarray | None = None, d: int = 1) -> None:
        self.G = grid.shape[0]
        separable = (axis is not None and isinstance(kernel, SquaredExponential)
                     and np.ndim(kernel.lengthscale) == 0 and len(axis) ** d == self.G)
        if separable:
            base = SquaredExponential(1.0, kernel.lengthscale)
            self.factors = [grid_sqrt(base, np.asarray(axis, float)[:, None])] * d
            self.scale = np.sqrt(kernel.variance)
            self.S = None
        else:
            self.factors = None
            self.S = grid_sqrt(kernel, grid)

    def sample(self, rng: np.random.Generator) -> np.ndarray:
        return self.sample_many(rng, 1)[0]

    def sample_many(self, rng: np.random.Generator, m: int) -> np.ndarray:
        """``m`` independent samples as the rows of an ``(m, G)`` array, from the same normals, in the same
        order, as ``m`` calls of :meth:`sample`; one matrix product instead of ``m`` matrix-vector products
        (the dense factor is read from memory once per block, not once per sample)."""
        Z = rng.standard_normal((check_int("m", m, 1), self.G))
        if self.S is not None:
            return Z @ self.S.T
        return np.vstack([self._separable(z) for z in Z])

    def _separable(self, z: np.ndarray) -> np.ndarray:
        n = self.factors[0].shape[0]
        Z = z.reshape([n] * len(self.factors))
        for axis_no, F in enumerate(self.factors):  # apply S₁ along every axis: (S₁⊗…⊗S₁) vec(Z)
            Z = np.moveaxis(np.tensordot(F, Z, axes=([1], [axis_no])), 0, axis_no)
        return self.scale * Z.reshape(-1)


_CHOLESKY_CACHE: dict[tuple, Factor] = {}


def _nugget_factor(K: np.ndarray, nugget: float, key: tuple) -> Factor:
    """Cholesky factor of ``K + nugget·I`` (the jitter ladder beyond it, recorded), cached per key (4 entries)."""
    factor = _CHOLESKY_CACHE.get(key)
    if factor is None:
        from ...blas import single_threaded_blas

        with single_threaded_blas():
            factor = stable_cholesky(K + nugget * np.eye(K.shape[0]), name="the grid kernel matrix K + εI")
        if len(_CHOLESKY_CACHE) >= 4:
            _CHOLESKY_CACHE.pop(next(iter(_CHOLESKY_CACHE)))
        _CHOLESKY_CACHE[key] = factor
    return factor


class StationaryGPSample(Environment):
    """One draw of a stationary Gaussian process on a finite grid, the same objective in every round.

    ``f ~ GP(0, k)`` with ``k`` a named stationary kernel (signal variance ``v``, lengthscale ``l``) on the grid of
    ``[0, 1]^d`` with ``points_per_dim`` points per axis (endpoints included), drawn once per realisation and kept:
    ``f_t = f`` for every ``t`` (time-invariant; ``B_T = 0``). Observations are ``y = f(x) + N(0, σ²)``, noise
    ``R``-sub-Gaussian with ``R = σ``. It is the set-up of stationary GP bandits (Srinivas et al. 2010, GP-UCB; its
    RKHS reading in Chowdhury & Gopalan 2017, IGP-UCB) and the ``ε → 0`` limit of ``tvgpucb``'s Markov model.

    **The draw and its RKHS norm.** On a finite grid the kernel is the matrix ``K`` and an RKHS norm is
    ``‖f‖²_K = fᵀK⁻¹f``; ``K`` of a smooth kernel on a fine grid is singular in float64, so the draw is made, and its
    norm stated, in the kernel matrix with a nugget ``K_ε = K + εI``, ``ε = jitter·v`` (the project's jitter ladder
    adds more only if that factorisation fails, and the nugget used is recorded): ``f = L z`` with ``L Lᵀ = K_ε``,
    ``z ~ N(0, I)``, so ``f ~ N(0, K_ε)`` — a GP draw with an observation-free nugget of standard deviation
    ``√ε`` (``10⁻⁵ √v`` by default) — and ``‖f‖_{K_ε} = ‖L⁻¹ f‖ = ‖z‖`` exactly, computed by one triangular solve.
    The learner is told the kernel ``k`` itself. ``extra["rkhs_bound"]`` is that norm (``B`` of ``wgpucb`` §2 and
    IGP-UCB's ``B``, for a β rule with ``B="env"``); it grows like ``√G`` with the grid (a GP draw is not in the
    RKHS of its kernel in the limit), and ``extra["variation_budget"]`` is 0.

    Parameters
    ----------
    kernel
        ``se``, ``matern12``, ``matern32`` or ``matern52`` (:func:`tvbo_verify.kernels.kernel_by_name`).
    lengthscale
        Lengthscale ``l > 0`` of the kernel.
    signal_variance
        ``v = k(x, x) > 0``.
    points_per_dim, d
        The grid: ``points_per_dim^d`` points of ``[0, 1]^d``.
    noise_var
        Observation noise variance ``σ² > 0``.
    jitter
        The nugget relative to ``v``, ``ε = jitter·v`` (``> 0``).

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.bandits.registry import make_env
    >>> env = make_env("gp-sample", {"kernel": "matern52", "lengthscale": 0.2, "points_per_dim": 50})
    >>> env.reset(np.random.default_rng(0), horizon=10)
    >>> f1 = env.values().copy(); env.advance(); bool(np.array_equal(env.values(), f1))  # fixed in t
    True
    >>> B = env.problem_extra()["rkhs_bound"]  # ‖f‖ in K + εI, by a direct solve
    >>> K = env.kernel(env.grid) + env.nugget * np.eye(50)
    >>> bool(np.isclose(B, np.sqrt(f1 @ np.linalg.solve(K, f1)), rtol=1e-6)), env.problem_extra()["variation_budget"]
    (True, 0.0)
    """

    name = "gp-sample"
    paper = ""

    def __init__(self, *, kernel: str = "se", lengthscale: float = 0.2, signal_variance: float = 1.0,
                 points_per_dim: int = 100, d: int = 1, noise_var: float = 0.01, jitter: float = 1e-10) -> None:
        super().__init__()
        if not isinstance(kernel, str) or kernel not in KERNEL_NAMES:
            raise ValueError(f"kernel must be one of {{{', '.join(KERNEL_NAMES)}}}, got {kernel!r}")
        self.kernel_name = kernel
        self.lengthscale = check_positive("lengthscale", lengthscale)
        self.signal_variance = check_positive("signal_variance", signal_variance)
        self.kernel = kernel_by_name(kernel, variance=self.signal_variance, lengthscale=self.lengthscale)
        self.points_per_dim, self.d = check_int("points_per_dim", points_per_dim, 1), check_int("d", d, 1)
        self.grid = unit_grid(self.points_per_dim, self.d)
        self.noise_var = check_positive("noise_var", noise_var)
        self.jitter = check_positive("jitter", jitter)
        self._factor: Factor | None = None
        self._f = np.zeros(self.grid.shape[0])
        self._norm: float | None = None

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_factor"] = None  # G × G: refactored (and cached) in the receiving process
        return state

    def factor(self) -> Factor:
        """The Cholesky factor of ``K + εI`` the draw is made with (``factor().jitter``: any jitter beyond ``ε``)."""
        if self._factor is None:
            key = (repr(self.kernel), self.points_per_dim, self.d, self.jitter)
            self._factor = _nugget_factor(self.kernel(self.grid), self.jitter * self.signal_variance, key)
        return self._factor

    @property
    def nugget(self) -> float:
        """The nugget ``ε`` of the kernel matrix ``K + εI`` of the draw and of its RKHS norm."""
        return self.jitter * self.signal_variance + self.factor().jitter

    def _draw(self, rng: np.random.Generator) -> None:
        factor = self.factor()
        self._f = factor.L @ rng.standard_normal(self.grid.shape[0])
        self._norm = float(np.linalg.norm(factor.half_solve(self._f)))

    def _values(self) -> np.ndarray:
        return self._f

    def rkhs_bound(self) -> float | None:
        """``‖f‖_{K+εI} = √(fᵀ(K + εI)⁻¹f)`` of the current draw (class docstring), ``None`` before a reset."""
        return self._norm if self.horizon >= 1 else None

    def variation_budget_total(self) -> float | None:
        """0: the objective does not move."""
        return 0.0 if self.horizon >= 1 else None

    def _params(self) -> dict[str, Any]:
        return {"kernel": self.kernel_name, "lengthscale": self.lengthscale, "signal_variance": self.signal_variance,
                "points_per_dim": self.points_per_dim, "d": self.d, "jitter": self.jitter}


class MarkovGP(Environment):
    """``tvgpucb`` eqs. (3)–(4): ``f_1 = g_1``, ``f_{t+1} = √(1−ε) f_t + √ε g_{t+1}``, ``g_t`` i.i.d. ``GP(0, k)``.

    Default: the paper's synthetic set-up (§7.1) — a 50×50 grid on [0, 1]² (endpoints included), SE
    with ``l = 0.2``, ``σ² = 0.01``. Every ``f_t ~ GP(0, k)`` (stationarity); ``Cov[f_t, f_{t+j}] =
    (1−ε)^{j/2} k`` (eq. (22)). Memory is ``O(G)`` per round besides the factor of ``K``.
    """

    name = "tvgpucb-markov"
    paper = "tvgpucb"

    def __init__(self, *, epsilon: float = 0.01, kernel: Kernel | str | None = None, points_per_dim: int = 50,
                 d: int = 2,
                 grid: np.ndarray | None = None, noise_var: float = 0.01, lengthscale: float = 0.2) -> None:
        super().__init__()
        self.epsilon = check_interval("epsilon", epsilon, 0.0, 1.0)
        self.kernel = resolve_kernel("se" if kernel is None else kernel,
                                     lengthscale=check_positive("lengthscale", lengthscale))
        if grid is None:
            self.points_per_dim, self.d = check_int("points_per_dim", points_per_dim, 1), check_int("d", d, 1)
            self.grid = unit_grid(self.points_per_dim, self.d)
            self._axis = np.linspace(0.0, 1.0, self.points_per_dim)
        else:
            self.grid = as_points("grid", grid)
            self._axis, self.d = None, self.grid.shape[1]
        self.noise_var = check_positive("noise_var", noise_var)
        self._f = np.zeros(self.grid.shape[0])
        self._rng: np.random.Generator | None = None
        self._sampler: GridSampler | None = None
        self._block, self._next = np.zeros((0, self.grid.shape[0])), 0  # drawn g_t not yet used

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_sampler"] = None  # rebuilt lazily (and cached) in the receiving process
        return state

    def _sample_g(self) -> np.ndarray:
        """The next ``g_t``. Drawn :data:`SAMPLE_BLOCK` at a time (never past the horizon's ``T`` draws), so
        the stream of ``g_t`` is the one single draws give."""
        if self._sampler is None:
            self._sampler = GridSampler(self.kernel, self.grid, self._axis, self.d)
        if self._next >= len(self._block):
            left = max(self.horizon - self.step + 1, 1)  # this round's g and every later round's
            self._block, self._next = self._sampler.sample_many(self._rng, min(SAMPLE_BLOCK, left)), 0
        self._next += 1
        return self._block[self._next - 1]

    def _draw(self, rng: np.random.Generator) -> None:
        self._rng = rng
        self._block, self._next = np.zeros((0, self.grid.shape[0])), 0
        self._f = self._sample_g()

    def advance(self, dataset_size: int = 0) -> None:
        super().advance(dataset_size)
        self._f = np.sqrt(1.0 - self.epsilon) * self._f + np.sqrt(self.epsilon) * self._sample_g()

    def _values(self) -> np.ndarray:
        return self._f

    def problem_extra(self) -> dict[str, Any]:
        return {**super().problem_extra(), "epsilon": self.epsilon}

    def _params(self) -> dict[str, Any]:
        return {"epsilon": self.epsilon, "kernel": repr(self.kernel)}


def fractional_gaussian_noise(rng: np.random.Generator, n: int, alpha: float, size: int) -> np.ndarray:
    """``size`` independent paths of fractional Gaussian noise of length ``n`` with Hurst ``H = α/2``.

    Autocovariance ``γ(j) = ½(|j+1|^α − 2|j|^α + |j−1|^α)``; exact sampling by circulant embedding
    (Davies–Harte), whose embedding is non-negative definite for ``0 < α ≤ 2``. Cumulative sums are
    fractional Brownian motion: ``Var(W_{t+g} − W_t) = g^α``.
    """
    n = check_int("n", n, 1)
    alpha = check_interval("alpha", alpha, 0.0, 2.0, closed_low=False)
    j = np.arange(n + 1, dtype=float)
    gamma = 0.5 * (np.abs(j + 1) ** alpha - 2 * j**alpha + np.abs(j - 1) ** alpha)
    c = np.concatenate([gamma, gamma[-2:0:-1]])  # length 2n
    lam = np.fft.fft(c).real
    if lam.min() < -1e-8 * lam.max():
        raise ValueError(f"circulant embedding is not PSD for alpha={alpha!r}")
    lam = np.clip(lam, 0.0, None)
    m = c.shape[0]
    half = (size + 1) // 2
    Z = rng.standard_normal((half, m)) + 1j * rng.standard_normal((half, m))
    X = np.fft.fft(np.sqrt(lam / m) * Z, axis=1)[:, :n]
    return np.vstack([X.real, X.imag])[:size]


class UncertaintyInjectionDrift(Environment):
    """Drift whose variance over a gap ``g`` is ``drift_var · k(x,x) · g^α`` (``wsparq`` Assumption 2).

    Construction: ``f_t = f_0 + √drift_var · S W_t`` where ``f_0`` is a kernel expansion with RKHS norm
    exactly ``B`` (random centres), ``S Sᵀ = K`` on the grid, and the columns ``W_t`` (``t = 1..T``)
    stack ``G`` independent fractional Brownian motions with Hurst ``α/2`` (``W_0 = 0``). Hence
    ``f_{t+g}(x) − f_t(x) ~ N(0, drift_var·k(x,x)·g^α)`` exactly, for ``0 < α ≤ 2`` (``α = 1``: Brownian,
    ``wsparq`` Example 2.1 up to constants; ``α = 2``: a random linear trend, the ``sparq`` eq. (10)
    motivation). Increments over disjoint gaps are correlated unless ``α = 1`` (``wsparq`` §6).
    """

    name = "ui-drift"
    paper = "wsparq"

    def __init__(self, *, alpha: float = 1.0, drift_var: float | None = None, B: float = 1.0, grid_points: int = 201,
                 lengthscale: float = 1.0, n_centres: int = 15, noise_var: float = 0.01, kernel: str = "se") -> None:
        super().__init__()
        self.alpha = check_interval("alpha", alpha, 0.0, 2.0, closed_low=False)
        self.noise_var = check_positive("noise_var", noise_var)
        self.drift_var = self.noise_var if drift_var is None else check_nonnegative("drift_var", drift_var)
        self.B = check_positive("B", B)
        self.n_centres = check_int("n_centres", n_centres, 1)
        self.kernel = kernel_by_name(kernel, lengthscale=check_positive("lengthscale", lengthscale))
        self.grid = np.linspace(0.0, 10.0, check_int("grid_points", grid_points, 2))[:, None]
        self._F = np.zeros((0, self.grid.shape[0]))

    def _draw(self, rng: np.random.Generator) -> None:
        centres = rng.uniform(0.0, 10.0, size=(self.n_centres, 1))
        a = scale_to_norm(rng.standard_normal(self.n_centres), self.kernel(centres), self.B)
        f0 = self.kernel(self.grid, centres) @ a
        G = self.grid.shape[0]
        W = np.cumsum(fractional_gaussian_noise(rng, self.horizon, self.alpha, G), axis=1)  # G × T
        S = grid_sqrt(self.kernel, self.grid)
        self._F = f0[None, :] + np.sqrt(self.drift_var) * (S @ W).T  # T × G

    def _values(self) -> np.ndarray:
        return self._F[self.step - 1]

    def function(self, t: int) -> np.ndarray:
        """``f_t`` on the grid for any ``1 ≤ t ≤ T`` of the current realisation."""
        return self._F[check_int("t", t, 1) - 1]

    def _params(self) -> dict[str, Any]:
        return {"alpha": self.alpha, "drift_var": self.drift_var, "B": self.B, "n_centres": self.n_centres}


class SpatioTemporalGP(Environment):
    """``bolt`` §1.4/§1.6: a sample of ``GP(0, λ k_S k_T)`` on a spatial grid, observed in continuous time.

    Iteration ``m`` happens at clock time ``t_m``; after it the clock advances by ``R(n)``, the response
    time of the learner's dataset size ``n`` (Definition 3.5). Exact sampling: ``f(·, t) = √λ S_S w(t)``
    where ``S_S S_Sᵀ = k_S(grid)`` and the ``G`` rows of ``w`` are independent ``GP(0, k_T)`` paths drawn
    by sequential conditioning on the visited times (incremental Cholesky of ``k_T``; a conditional
    variance below ``1e-12`` is floored there, which is the only approximation). ``temporal_nugget``
    (default 0) samples ``k_T + nugget·δ`` instead: a smooth ``k_T`` (SE) visited many times per
    lengthscale makes the Cholesky factor singular in float64, and a nugget of ``1e-9`` keeps it exact
    to that size.
    """

    name = "bolt-st"
    paper = "bolt"

    def __init__(self, *, response_time: "Callable[[int], float] | str", d: int = 2, points_per_dim: int = 15,
                 spatial_lengthscale: float = 0.2, temporal: str = "matern32", temporal_lengthscale: float = 20.0,
                 signal_variance: float = 1.0, noise_var: float | None = None, start_time: float = 0.0,
                 temporal_nugget: float = 0.0) -> None:
        super().__init__()
        if isinstance(response_time, str) or type(response_time).__name__ == "ResponseModel":
            from ..response import Response

            response_time = Response(response_time)  # picklable, usable for n* by BOLT
        if not callable(response_time):
            raise ValueError("response_time must be an expression in n or a callable n -> R(n)")
        self.response_time = response_time
        self.d = check_int("d", d, 1)
        self.grid = unit_grid(points_per_dim, self.d)
        from ...kernels import Matern

        self.spatial = Matern(2.5, 1.0, check_positive("spatial_lengthscale", spatial_lengthscale))
        self.temporal_name = temporal
        self.temporal = temporal_kernel(temporal, check_positive("temporal_lengthscale", temporal_lengthscale))
        self.signal_variance = check_positive("signal_variance", signal_variance)
        self.st_kernel = SpatioTemporalKernel(self.spatial, self.temporal, self.signal_variance)
        self.kernel = ScaledKernel(self.spatial, self.signal_variance)
        self.noise_var = 0.01 * self.signal_variance if noise_var is None else check_positive("noise_var", noise_var)
        self.start_time = float(start_time)
        self.temporal_nugget = check_nonnegative("temporal_nugget", temporal_nugget)

    def reset(self, rng: np.random.Generator, horizon: int) -> None:
        super().reset(rng, horizon)
        self.time = self.start_time
        self._new_time()

    def _draw(self, rng: np.random.Generator) -> None:
        self._rng = rng
        T, G = self.horizon + 1, self.grid.shape[0]  # one spare: advancing past the last round is allowed
        self._Z = np.zeros((G, T))
        self._L = np.zeros((T, T))
        self._times = np.zeros(T)
        self._k = 0

    def _new_time(self) -> None:
        k = self._k
        if k >= self._L.shape[0]:
            raise ValueError(f"environment horizon {self.horizon} exceeded")
        t = self.time
        b = self.temporal.of_distance(self._times[:k] - t)
        if k:
            from scipy.linalg import solve_triangular

            row = solve_triangular(self._L[:k, :k], b, lower=True, check_finite=False)
        else:
            row = np.zeros(0)
        dd = np.sqrt(max(1.0 + self.temporal_nugget - float(row @ row), 1e-12))
        self._L[k, :k] = row
        self._L[k, k] = dd
        self._Z[:, k] = self._rng.standard_normal(self._Z.shape[0])
        self._times[k] = t
        self._w = self._Z[:, :k] @ row + dd * self._Z[:, k]
        self._k = k + 1

    def advance(self, dataset_size: int = 0) -> None:
        dt = float(self.response_time(int(dataset_size)))
        if not dt > 0:
            raise ValueError(f"response_time must be > 0, got {dt!r} for n={dataset_size}")
        self.step += 1
        self.time += dt
        self._current = None
        self._new_time()

    def _values(self) -> np.ndarray:
        return np.sqrt(self.signal_variance) * (grid_sqrt(self.spatial, self.grid) @ self._w)

    def problem_extra(self) -> dict[str, Any]:
        return {"response_time": self.response_time}

    def _params(self) -> dict[str, Any]:
        return {"temporal": self.temporal_name, "temporal_lengthscale": float(self.temporal.lengthscale),
                "spatial_lengthscale": float(self.spatial.lengthscale), "signal_variance": self.signal_variance,
                "response_time": repr(self.response_time),
                **({"temporal_nugget": self.temporal_nugget} if self.temporal_nugget else {})}
