"""Each environment's definition, written from its paper, as statistics a realisation must show.

A run-based verdict is about a paper only if the runs were played on the paper's model. The definitions here
state what each environment's paper fixes and measure it on realised objectives ``F`` (``T × G``: ``f_t`` on the
grid, round by round, as the runs saw them), sharing no code with the environments: kernels, grids and formulas
are written again from the papers (:func:`se_gram`, :func:`matern_gram`).

* A random model with a Gaussian law separable in space and time (``Cov[f_t(x), f_u(y)] = C(t, u) K(x, y)``:
  ``tvgpucb``'s Markov model (3)–(4), ``bolt``'s sample of ``λ k_S k_T``, the increments of ``wsparq``'s
  uncertainty-injection drift) gives three statistics with exact means and variances under the definition
  (:class:`SeparableGaussian`): the energy of the time-whitened rows, their lag-one correlation, and the
  correlation of each whitened row with the row before it (an innovation is independent of the past). A wrong
  decay, a frozen objective or a wrong innovation scale moves one of them by many standard deviations once the
  repetitions of a sweep are pooled.
* A stationary draw fixed in time (``gp-sample``: one ``f ~ GP(0, k)``, ``f_t = f``) must not move, and its
  coordinates on the well-conditioned eigenvectors of the kernel matrix, each divided by the square root of its
  eigenvalue, are i.i.d. standard normal: their energy is χ² with as many degrees of freedom
  (:func:`whitened_energy`). A wrong kernel, lengthscale or variance moves it.
* A deterministic model (``sparq``'s moving bump, ``wsparq``'s synthetic expansion) is recomputed from its
  formula; a kernel expansion with a prescribed norm or variation budget (``wsparq`` I2, ``wgpucb``'s
  scenarios) has its RKHS norms recomputed from the realised values and its declared support.

Each definition returns :class:`Statistic` records for one realisation; :func:`pool` adds them over
repetitions (independent realisations: means and variances add) and decides each by a z-score, or by an exact
tolerance where the definition is deterministic. Environments without a definition here are reported as not
audited, with the reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
from scipy.linalg import solve_triangular
from scipy.spatial.distance import cdist

from ...registry import Registry

__all__ = [
    "Z_LIMIT", "WHITENING_CUT", "Statistic", "PooledStatistic", "pool", "se_gram", "matern_gram", "SeparableGaussian",
    "whitened_energy", "EnvironmentDefinition", "Realised", "DEFINITIONS", "define", "definition_of",
    "observation_noise",
]

#: a statistic further than this many standard deviations from its mean under the definition fails (a false
#: alarm has probability about 2e-9 where the statistic is close to Gaussian)
Z_LIMIT = 6.0


@dataclass(frozen=True)
class Statistic:
    """One statistic of one realisation: its value, and its mean and variance under the definition (variance 0
    and ``tolerance`` > 0: a deterministic statement, compared with that absolute tolerance)."""

    name: str
    value: float
    mean: float
    var: float
    tolerance: float = 0.0


@dataclass(frozen=True)
class PooledStatistic:
    """A statistic summed over independent realisations, and its decision."""

    name: str
    value: float
    mean: float
    sd: float
    tolerance: float
    realisations: int

    @property
    def z(self) -> float:
        return (self.value - self.mean) / self.sd if self.sd > 0 else 0.0

    @property
    def passed(self) -> bool:
        if self.sd > 0:
            return abs(self.z) <= Z_LIMIT
        return abs(self.value - self.mean) <= self.tolerance

    def text(self) -> str:
        if self.sd > 0:
            return (f"{self.name}: {self.value:.6g} against {self.mean:.6g} ± {self.sd:.3g} (z = {self.z:+.1f}, "
                    f"{self.realisations} realisations)")
        return f"{self.name}: {self.value:.6g} against {self.mean:.6g} (tolerance {self.tolerance:.2g})"


def pool(stats: Sequence[Sequence[Statistic]]) -> list[PooledStatistic]:
    """Each named statistic over realisations (one list per realisation): random ones summed (independent
    realisations: means and variances add), deterministic ones (variance 0) by their largest deviation."""
    out: dict[str, list[float]] = {}
    for realisation in stats:
        for s in realisation:
            acc = out.setdefault(s.name, [0.0, 0.0, 0.0, 0.0, 0])
            if s.var > 0:
                acc[0] += s.value
                acc[1] += s.mean
                acc[2] += s.var
            elif abs(s.value - s.mean) >= abs(acc[0] - acc[1]) or not acc[4]:
                acc[0], acc[1] = s.value, s.mean
            acc[3] = max(acc[3], s.tolerance)
            acc[4] += 1
    return [PooledStatistic(name, v, m, math.sqrt(max(var, 0.0)), tol, int(n))
            for name, (v, m, var, tol, n) in out.items()]


# -- kernels and grids, written again from the papers --------------------------------------------------


def se_gram(X: np.ndarray, Y: np.ndarray, variance: float, lengthscale: float) -> np.ndarray:
    """``variance · exp(−‖x − y‖² / (2 l²))``."""
    return variance * np.exp(-cdist(X, Y, "sqeuclidean") / (2.0 * lengthscale**2))


def matern_gram(X: np.ndarray, Y: np.ndarray, nu: float, variance: float, lengthscale: float) -> np.ndarray:
    """Matérn with ``ν ∈ {1/2, 3/2, 5/2}``: ``variance · p(r) exp(−r)``, ``r = √(2ν) ‖x − y‖ / l``."""
    r = math.sqrt(2.0 * nu) * cdist(X, Y) / lengthscale
    poly = {0.5: np.ones_like(r), 1.5: 1.0 + r, 2.5: 1.0 + r + r**2 / 3.0}[nu]
    return variance * poly * np.exp(-r)


#: kernel names of the environments' parameters -> (family, ν)
_FAMILIES = {"se": ("se", None), "matern12": ("matern", 0.5), "matern32": ("matern", 1.5),
             "matern52": ("matern", 2.5)}


def named_gram(name: str, X: np.ndarray, Y: np.ndarray, variance: float, lengthscale: float) -> np.ndarray:
    family, nu = _FAMILIES[name]
    if family == "se":
        return se_gram(X, Y, variance, lengthscale)
    return matern_gram(X, Y, nu, variance, lengthscale)


def unit_grid_points(points_per_dim: int, d: int) -> np.ndarray:
    """The ``points_per_dim^d`` points of ``[0, 1]^d``, endpoints included, the first axis varying slowest."""
    axis = np.linspace(0.0, 1.0, points_per_dim)
    mesh = np.meshgrid(*([axis] * d), indexing="ij")
    return np.column_stack([m.ravel() for m in mesh])


# -- separable Gaussian models -----------------------------------------------------------------------------


class SeparableGaussian:
    """A Gaussian law of ``F`` (``T × G``) with ``Cov[F_t(x), F_u(y)] = C[t, u] K[x, y]`` and mean 0.

    With ``C = L Lᵀ`` the whitened rows ``W = L⁻¹ F`` are i.i.d. ``N(0, K)``, and ``W_t`` is independent of
    ``F_1 … F_{t−1}``. Hence, exactly under the law:

    * energy ``Σ_t ‖W_t‖²``: mean ``T tr K``, variance ``2 T tr K²``;
    * lag ``Σ_t ⟨W_t, W_{t+1}⟩``: mean 0, variance ``(T − 1) tr K²``;
    * innovation ``Σ_t ⟨W_t, F_{t−1}⟩``: mean 0, variance ``tr K² Σ_{t ≥ 2} C[t−1, t−1]``.
    """

    def __init__(self, K: np.ndarray, C: np.ndarray,
                 whiten: Callable[[np.ndarray], np.ndarray] | None = None) -> None:
        """``whiten`` (optional) computes ``L⁻¹ F`` exactly where ``C`` has a known factor; otherwise ``L`` is the
        Cholesky factor of ``C`` with a jitter of 1e-12 of its diagonal (which swamps innovations of smaller
        variance: an AR(1) ``C`` with ``ε`` below about 1e-11 needs the exact recursion)."""
        self.trK = float(np.trace(K))
        self.trK2 = float(np.sum(K * K))
        self.C = C
        self.whiten = whiten
        self.L = None if whiten is not None else np.linalg.cholesky(
            C + 1e-12 * np.max(np.diag(C)) * np.eye(C.shape[0]))

    def statistics(self, F: np.ndarray, label: str = "") -> list[Statistic]:
        T = F.shape[0]
        W = self.whiten(F) if self.whiten is not None else solve_triangular(self.L, F, lower=True,
                                                                             check_finite=False)
        pre = f"{label} " if label else ""
        energy = float(np.sum(W * W))
        lag = float(np.sum(W[1:] * W[:-1])) if T > 1 else 0.0
        innovation = float(np.sum(W[1:] * F[:-1])) if T > 1 else 0.0
        past = float(np.sum(np.diag(self.C)[:-1])) if T > 1 else 0.0
        return [Statistic(pre + "whitened energy", energy, T * self.trK, 2.0 * T * self.trK2),
                Statistic(pre + "whitened lag-1 correlation", lag, 0.0, (T - 1) * self.trK2),
                Statistic(pre + "innovation against the past", innovation, 0.0, self.trK2 * past)]


# -- the definitions ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EnvironmentDefinition:
    """What an environment's paper fixes, measured on one realisation.

    ``measure(params, F, realised)`` returns the statistics of the realisation ``F`` (``T × G``) of the environment
    with the sweep's parameters ``params`` (the paper's defaults where a parameter is not given); ``realised``
    holds the run played on it (its clock and dataset sizes, for an environment whose time depends on the
    learner) and the data the realisation drew (the random support of a kernel expansion).
    """

    environment: str
    source: str
    measure: Callable[[dict[str, Any], np.ndarray, "Realised"], list[Statistic]]
    defaults: dict[str, Any] = field(default_factory=dict)
    #: whether the realisation depends on the learner (a clock advanced by the learner's dataset size): then each
    #: run is realised on its own, else once per seed for every policy run on it
    follows_learner: bool = False

    def statistics(self, params: dict[str, Any], F: np.ndarray, realised: "Realised | None" = None
                   ) -> list[Statistic]:
        return self.measure({**self.defaults, **params}, F, realised or Realised())


@dataclass(frozen=True)
class Realised:
    """What a realisation drew besides its values: the run played on it and a kernel expansion's support."""

    trace: Any = None
    support: np.ndarray | None = None


DEFINITIONS: Registry = Registry("environment definition")


def define(environment: str, source: str, defaults: dict[str, Any] | None = None, *, follows_learner: bool = False
           ) -> Callable[[Callable[..., list[Statistic]]], Callable[..., list[Statistic]]]:
    """Register the decorated ``measure(params, F, realised)`` as the definition of ``environment``."""

    def decorate(measure: Callable[..., list[Statistic]]) -> Callable[..., list[Statistic]]:
        DEFINITIONS.register(environment, EnvironmentDefinition(environment, source, measure, dict(defaults or {}),
                                                                follows_learner))
        return measure

    return decorate


def definition_of(environment: str) -> EnvironmentDefinition | None:
    """The definition of ``environment`` (None: not defined here)."""
    return DEFINITIONS.get(environment)


def _exact(name: str, measured: np.ndarray, stated: np.ndarray, rel: float = 1e-9) -> Statistic:
    """A deterministic statement: the largest deviation of ``measured`` from ``stated`` (0 under the definition)."""
    scale = max(float(np.max(np.abs(stated))), 1.0)
    dev = float(np.max(np.abs(np.asarray(measured, float) - np.asarray(stated, float))))
    return Statistic(name, dev, 0.0, 0.0, tolerance=rel * scale)


def _rkhs_coefficients(F: np.ndarray, KgZ: np.ndarray) -> np.ndarray:
    """Coefficients ``A`` (``T × m``) with ``F ≈ A K_{gZ}ᵀ`` (least squares on the grid)."""
    return np.linalg.lstsq(KgZ, F.T, rcond=None)[0].T


def _norms(A: np.ndarray, KZ: np.ndarray) -> np.ndarray:
    return np.sqrt(np.maximum(np.einsum("ti,ij,tj->t", A, KZ, A), 0.0))


@define("tvgpucb-markov", "tvgpucb eqs. (3)-(4): f_1 = g_1, f_{t+1} = sqrt(1-eps) f_t + sqrt(eps) g_{t+1}, g_t i.i.d. "
        "GP(0, k), on the paper's 50 x 50 grid of [0, 1]^2 with SE l = 0.2",
        {"epsilon": 0.01, "points_per_dim": 50, "d": 2, "kernel": "se", "lengthscale": 0.2})
def _markov(params: dict[str, Any], F: np.ndarray, realised: Realised) -> list[Statistic]:
    X = unit_grid_points(int(params["points_per_dim"]), int(params["d"]))
    K = named_gram(str(params["kernel"]), X, X, 1.0, float(params["lengthscale"]))
    T, eps = F.shape[0], float(params["epsilon"])
    lag = np.abs(np.subtract.outer(np.arange(T), np.arange(T)))
    C = (1.0 - eps) ** (lag / 2.0)
    if eps > 0.0:
        # the AR(1) factor of C is known: W_1 = F_1, W_t = (F_t − √(1−ε) F_{t−1})/√ε, exact at any ε > 0
        return SeparableGaussian(K, C, whiten=lambda F: ar1_whiten(F, eps)).statistics(F)
    return SeparableGaussian(K, C).statistics(F)


def ar1_whiten(F: np.ndarray, epsilon: float) -> np.ndarray:
    """``L⁻¹ F`` for the AR(1) correlation ``C[t, u] = (1 − ε)^{|t−u|/2}`` (``ε > 0``): the innovations of
    ``f_{t+1} = √(1−ε) f_t + √ε g_{t+1}`` divided by ``√ε``, the first row as it is."""
    F = np.asarray(F, float)
    W = np.empty_like(F)
    W[0] = F[0]
    W[1:] = (F[1:] - math.sqrt(1.0 - epsilon) * F[:-1]) / math.sqrt(epsilon)
    return W


#: eigenvalues of the kernel matrix below this fraction of the largest are left out of the whitened energy (their
#: eigenvectors are not resolved in float64)
WHITENING_CUT = 1e-6

_EIGEN_CACHE: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def whitened_energy(F0: np.ndarray, K: np.ndarray, key: tuple | None = None, label: str = "f") -> Statistic:
    """``Σ_i (u_iᵀ f)² / λ_i`` over the eigenpairs of ``K`` with ``λ_i > WHITENING_CUT · λ_max``: χ² with ``r`` degrees
    of freedom when ``f ~ N(0, K)`` (mean ``r``, variance ``2r``). ``key`` caches the eigendecomposition."""
    eig = _EIGEN_CACHE.get(key) if key is not None else None
    if eig is None:
        w, U = np.linalg.eigh(K)
        keep = w > WHITENING_CUT * w[-1]
        eig = (w[keep], U[:, keep])
        if key is not None:
            if len(_EIGEN_CACHE) >= 4:
                _EIGEN_CACHE.pop(next(iter(_EIGEN_CACHE)))
            _EIGEN_CACHE[key] = eig
    w, U = eig
    u = (U.T @ np.asarray(F0, float)) / np.sqrt(w)
    r = float(w.size)
    return Statistic(f"whitened energy of {label} ({int(r)} well-conditioned directions)", float(u @ u), r, 2.0 * r)


@define("gp-sample", "one draw f ~ GP(0, k) of a named stationary kernel (variance v, lengthscale l, a nugget "
        "jitter * v on the diagonal) on the grid of [0, 1]^d, the same objective in every round (stationary GP "
        "bandits: Srinivas et al. 2010; Chowdhury & Gopalan 2017)",
        {"kernel": "se", "lengthscale": 0.2, "signal_variance": 1.0, "points_per_dim": 100, "d": 1,
         "jitter": 1e-10})
def _gp_sample(params: dict[str, Any], F: np.ndarray, realised: Realised) -> list[Statistic]:
    n, d = int(params["points_per_dim"]), int(params["d"])
    v, ell, jitter = float(params["signal_variance"]), float(params["lengthscale"]), float(params["jitter"])
    X = unit_grid_points(n, d)
    K = named_gram(str(params["kernel"]), X, X, v, ell) + jitter * v * np.eye(X.shape[0])
    key = (str(params["kernel"]), v, ell, jitter, n, d)
    return [_exact("f_t = f_1 in every round", F, np.broadcast_to(F[0], F.shape)), whitened_energy(F[0], K, key)]


def _fgn_autocovariance(lags: np.ndarray, alpha: float) -> np.ndarray:
    """Autocovariance of the unit increments of fractional Brownian motion with ``Var(W_t) = t^α``."""
    k = np.abs(lags).astype(float)
    return 0.5 * (np.abs(k + 1) ** alpha - 2 * k**alpha + np.abs(k - 1) ** alpha)


@define("ui-drift", "wsparq Assumption 2 / eqs. (7)-(8): f_{t+g}(x) - f_t(x) ~ N(0, drift_var k(x, x) g^alpha), "
        "the increments a fractional Brownian motion in time and GP(0, k) in space, on 201 points of [0, 10]",
        {"alpha": 1.0, "grid_points": 201, "lengthscale": 1.0, "kernel": "se", "noise_var": 0.01})
def _ui_drift(params: dict[str, Any], F: np.ndarray, realised: Realised) -> list[Statistic]:
    X = np.linspace(0.0, 10.0, int(params["grid_points"]))[:, None]
    K = named_gram(str(params["kernel"]), X, X, 1.0, float(params["lengthscale"]))
    drift = float(params.get("drift_var") if params.get("drift_var") is not None else params["noise_var"])
    D = np.diff(F, axis=0)
    n = D.shape[0]
    if n < 2 or drift <= 0:
        return []
    C = drift * _fgn_autocovariance(np.subtract.outer(np.arange(n), np.arange(n)), float(params["alpha"]))
    return SeparableGaussian(K, C).statistics(D, "increments:")


@define("bolt-st", "bolt Sec. 1.4 / Definition 3.5: a sample of GP(0, lambda k_S k_T) (Matern-5/2 k_S, l_S = 0.2 on "
        "the grid of [0, 1]^d) read at clock times t_{m+1} = t_m + R(n_m), n_m the learner's dataset size",
        {"d": 2, "points_per_dim": 15, "spatial_lengthscale": 0.2, "temporal": "matern32",
         "temporal_lengthscale": 10.0, "signal_variance": 1.0, "start_time": 0.0, "temporal_nugget": 0.0},
        follows_learner=True)
def _bolt_st(params: dict[str, Any], F: np.ndarray, realised: Realised) -> list[Statistic]:
    out: list[Statistic] = []
    trace = realised.trace
    times = np.asarray(trace.time, float) if trace is not None else None
    if times is None:
        return out
    response = params.get("response_time")
    if isinstance(response, str):
        import sympy

        n = sympy.Symbol("n")
        R = sympy.lambdify(n, sympy.sympify(response.replace("^", "**")), "math")
        sizes = np.asarray(trace.dataset_size, int)
        stated = np.concatenate([[float(params["start_time"])],
                                 float(params["start_time"]) + np.cumsum([R(int(s)) for s in sizes[:-1]])])
        out.append(_exact("clock: t_{m+1} = t_m + R(n_m)", times, stated, rel=1e-9))
    X = unit_grid_points(int(params["points_per_dim"]), int(params["d"]))
    Ks = matern_gram(X, X, 2.5, 1.0, float(params["spatial_lengthscale"]))
    lam = float(params["signal_variance"])
    Kt = named_gram(str(params["temporal"]), times[:, None], times[:, None], 1.0, float(params["temporal_lengthscale"]))
    C = lam * (Kt + float(params["temporal_nugget"]) * np.eye(len(times)))
    return out + SeparableGaussian(Ks, C).statistics(F)


@define("sparq-synthetic", "sparq Sec. 4: f(x, t) = exp(-0.05 (x - 5 sin(0.1 t))^2) + 0.5 cos(0.2 x) + 1.5 on an "
        "equispaced grid of [-50, 50]", {"grid_points": 1001})
def _sparq_synthetic(params: dict[str, Any], F: np.ndarray, realised: Realised) -> list[Statistic]:
    x = np.linspace(-50.0, 50.0, int(params["grid_points"]))
    t = np.arange(1, F.shape[0] + 1, dtype=float)[:, None]
    stated = np.exp(-0.05 * (x[None, :] - 5.0 * np.sin(0.1 * t)) ** 2) + 0.5 * np.cos(0.2 * x[None, :]) + 1.5
    return [_exact("f_t against its formula", F, stated)]


@define("wsparq-synthetic", "wsparq Sec. 4.1: f_t = sum_i a_i(t) k(., c_i), u_i(t) = sin(0.3 t + i), SE(0.5, l = 3) "
        "with n centres equally spaced on [-50, 50]; a(t) = B u / sqrt(u' K_C u) (exact norm B) or, as printed, "
        "(B / lambda_max(K_C)) u / ||u||", {"n_centres": 40, "grid_points": 1001, "B": 5.0, "variant": "exact"})
def _wsparq_synthetic(params: dict[str, Any], F: np.ndarray, realised: Realised) -> list[Statistic]:
    n, B = int(params["n_centres"]), float(params["B"])
    x = np.linspace(-50.0, 50.0, int(params["grid_points"]))[:, None]
    c = np.linspace(-50.0, 50.0, n)[:, None]
    KC, KgC = se_gram(c, c, 0.5, 3.0), se_gram(x, c, 0.5, 3.0)
    t = np.arange(1, F.shape[0] + 1, dtype=float)
    U = np.sin(0.3 * t[:, None] + np.arange(1, n + 1)[None, :])
    if params["variant"] == "exact":
        A = B * U / np.sqrt(np.einsum("ti,ij,tj->t", U, KC, U))[:, None]
    else:
        A = (B / float(np.linalg.eigvalsh(KC)[-1])) * U / np.linalg.norm(U, axis=1)[:, None]
    return [_exact("f_t against its formula", F, A @ KgC.T, rel=1e-8)]


def _expansion(params: dict[str, Any], F: np.ndarray, realised: Realised, domain: float
               ) -> tuple[np.ndarray, np.ndarray, Callable[[np.ndarray, np.ndarray], np.ndarray]]:
    """Coefficients and RKHS norms of a kernel expansion on ``grid_points`` points of ``[0, domain]``, from its
    realised values and support (the kernel of the paper, variance 1)."""
    if realised.support is None:
        raise ValueError("a kernel expansion is measured with its realised support")
    grid = np.linspace(0.0, domain, int(params["grid_points"]))[:, None]

    def K(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        return named_gram(str(params.get("kernel", "se")), X, Y, 1.0, float(params["lengthscale"]))

    A = _rkhs_coefficients(F, K(grid, realised.support))
    return A, _norms(A, K(realised.support, realised.support)), K


@define("rkhs-random-walk", "wsparq instance I2: f_t = sum_i a_i(t) k(., z_i) on 201 points of [0, 10], every "
        "||f_t||_k = B, the direction a random walk (f moves every round)",
        {"grid_points": 201, "B": 1.0, "lengthscale": 1.0, "kernel": "se"})
def _random_walk(params: dict[str, Any], F: np.ndarray, realised: Realised) -> list[Statistic]:
    A, norms, _ = _expansion(params, F, realised, 10.0)
    B = float(params["B"])
    scale = max(float(np.max(np.abs(F))), 1e-300)
    moved = np.max(np.abs(np.diff(F, axis=0)), axis=1) > 1e-9 * scale
    return [_exact("||f_t||_k = B", norms, np.full_like(norms, B), rel=1e-6),
            Statistic("fraction of rounds in which f does not move", float(np.mean(~moved)) if len(moved) else 0.0,
                      0.0, 0.0, tolerance=0.05)]


@define("sparq-peak-walk", "sparq Theorem 3.1, an admissible objective (papers/sparq/READING.md §sparq:eq-27): on "
        "the grid x_1 < ... < x_G of [-50, 50] with SE(v, l), f_t = sum_i a_i(t) k(., x_i), a(t) = c (e_1 - 1/G) + "
        "W_t u, u = drift (e_G - 1/G) / ||e_G - 1/G||_k, W_t a walk of fair +-1 steps from W_1 = 0, c (e_1 - 1/G) "
        "of RKHS norm B (1 - margin) - T drift",
        {"grid_points": 11, "lengthscale": 30.0, "signal_variance": 8.0, "B": 25.0, "drift": 0.0, "margin": 1e-9})
def _peak_walk(params: dict[str, Any], F: np.ndarray, realised: Realised) -> list[Statistic]:
    G, T = int(params["grid_points"]), F.shape[0]
    x = np.linspace(-50.0, 50.0, G)[:, None]
    K = se_gram(x, x, float(params["signal_variance"]), float(params["lengthscale"]))
    B, nu, margin = float(params["B"]), float(params["drift"]), float(params["margin"])

    def unit(end: int) -> np.ndarray:
        e = np.full(G, -1.0 / G)
        e[end] += 1.0
        return e / math.sqrt(float(e @ K @ e))

    peak = (B * (1.0 - margin) - T * nu) * unit(0)
    out = [_exact("f_1 = c (k(., x_1) - mean_i k(., x_i))", F[0], K @ peak)]
    if T > 1 and nu > 0.0:
        step = K @ (nu * unit(G - 1))
        D = np.diff(F, axis=0)
        signs = np.sign(D @ step)
        out.append(_exact("f_{t+1} - f_t = +-drift step", D, signs[:, None] * step[None, :]))
        out.append(Statistic("upward drift steps (fair signs)", float(np.sum(signs > 0)), (T - 1) / 2.0,
                             (T - 1) / 4.0))
        walk = np.concatenate([[0.0], np.cumsum(signs)])
        A = peak[None, :] + walk[:, None] * (nu * unit(G - 1))[None, :]
    else:
        out.append(_exact("f_t = f_1 in every round", F, np.broadcast_to(F[0], F.shape)))
        A = np.broadcast_to(peak, (T, G))
    norms = _norms(A, K)
    out.append(Statistic("max_t ||f_t||_k <= B (excess)", max(float(norms.max()) - B, 0.0), 0.0, 0.0,
                         tolerance=1e-9 * B))
    return out


@define("wgpucb-rotation", "wgpucb Sec. 5.3 rotation: f_t = B (cos(w t) g_1 + sin(w t) g_2), H-orthonormal g_1, g_2, "
        "on 100 points of [0, 1], SE l = 0.2: ||f_t||_k = B and sum_t ||f_{t+1} - f_t||_k is the declared budget",
        {"grid_points": 100, "lengthscale": 0.2, "B": 1.0, "budget": 5.0, "kernel": "se"})
def _rotation(params: dict[str, Any], F: np.ndarray, realised: Realised) -> list[Statistic]:
    A, norms, K = _expansion(params, F, realised, 1.0)
    B = float(params["B"])
    out = [_exact("||f_t||_k = B", norms, np.full_like(norms, B), rel=1e-6)]
    if F.shape[0] > 1 and params.get("budget") is not None:
        steps = _norms(np.diff(A, axis=0), K(realised.support, realised.support))
        out.append(_exact("variation budget sum_t ||f_{t+1} - f_t||_k", np.array([steps.sum()]),
                          np.array([float(params["budget"])]), rel=1e-6))
    return out


def _at_most_B(params: dict[str, Any], F: np.ndarray, realised: Realised) -> list[Statistic]:
    _, norms, _ = _expansion(params, F, realised, 1.0)
    B = float(params["B"])
    return [Statistic("max_t ||f_t||_k <= B (excess)", max(float(norms.max()) - B, 0.0), 0.0, 0.0, tolerance=1e-6 * B)]


define("wgpucb-abrupt", "wgpucb Sec. 5.3 abrupt: switches between functions of RKHS norm at most B, on 100 points "
       "of [0, 1], SE l = 0.2", {"grid_points": 100, "lengthscale": 0.2, "B": 1.0, "kernel": "se"})(_at_most_B)


@define("wgpucb-paper", "wgpucb Sec. 7 and App. E scenarios: abrupt (f_1* before round 100, f_2* before 200, f_3* "
        "after), slow (f_t = f_4* + (f_5* - f_4*) t/T), slow3 (piecewise linear through three functions, the break "
        "at T/2)",
        {"scenario": "abrupt"})
def _wgpucb_paper(params: dict[str, Any], F: np.ndarray, realised: Realised) -> list[Statistic]:
    T, scenario = F.shape[0], str(params["scenario"])
    t = np.arange(1, T + 1)
    if scenario == "abrupt":
        piece = np.where(t < 100, 0, np.where(t < 200, 1, 2))
        stated = np.vstack([F[np.argmax(piece == piece[i])] for i in range(T)])  # each piece constant
        moves = [int(r) for r in (100, 200) if r <= T]
        scale = max(float(np.max(np.abs(F))), 1e-300)
        still = [float(np.max(np.abs(F[r - 1] - F[r - 2]))) <= 1e-9 * scale for r in moves]
        out = [_exact("f_t constant between the change points 100 and 200", F, stated)]
        if moves:
            out.append(Statistic("fraction of the change points 100, 200 at which f does not change",
                                 float(np.mean(still)), 0.0, 0.0, tolerance=0.0))
        return out
    if scenario == "slow":  # affine in t: f_t = f_1 + (t - 1)(f_2 - f_1)
        stated = F[0][None, :] + (t[:, None] - 1) * (F[1] - F[0])[None, :] if T > 1 else F
        return [_exact("f_t affine in t", F, stated)]
    half = T // 2
    pieces = [(1, half), (half + 1, T)]
    out = []
    for lo, hi in pieces:
        if hi - lo >= 1:
            a, b = F[lo - 1], F[lo]
            stated = a[None, :] + (np.arange(lo, hi + 1)[:, None] - lo) * (b - a)[None, :]
            out.append(_exact(f"f_t affine in t on rounds {lo}..{hi}", F[lo - 1:hi], stated))
    return out


@define("sparq-two-bumps", "sparq Theorem 3.1's counterexample: f_t = h k(., c_{s_t}) / M_k^2 with s_t i.i.d. uniform "
        "over two centres, SE(0.5, l = 3) on [-50, 50]", {"height": 1.0, "centres": (-25.0, 25.0), "grid_points": 201,
                                                         "lengthscale": 3.0, "signal_variance": 0.5})
def _two_bumps(params: dict[str, Any], F: np.ndarray, realised: Realised) -> list[Statistic]:
    x = np.linspace(-50.0, 50.0, int(params["grid_points"]))[:, None]
    c = np.asarray(params["centres"], float).reshape(2, 1)
    v = float(params["signal_variance"])
    bumps = se_gram(c, x, v, float(params["lengthscale"])) * float(params["height"]) / v
    which = np.argmin(np.stack([np.max(np.abs(F - b[None, :]), axis=1) for b in bumps]), axis=0)
    n = F.shape[0]
    return [_exact("f_t one of the two bumps", F, bumps[which]),
            Statistic("rounds on the second bump", float(np.sum(which)), n / 2.0, n / 4.0)]


def observation_noise(residuals: np.ndarray, noise_var: float) -> Statistic:
    """``Σ_t (y_t − f_t(x_t))² / σ²`` over a run: mean ``T``, variance ``2T`` for Gaussian noise of variance σ²."""
    r = np.asarray(residuals, float)
    return Statistic("observation noise sum (y - f(x))^2 / sigma^2", float(np.sum(r * r) / noise_var), float(len(r)),
                     2.0 * len(r))
