"""The environment protocol shared by every test-bed: a seeded time-varying objective on a finite grid.

An environment holds one *realisation* of ``f_1, f_2, ...`` drawn by :meth:`Environment.reset`; the
runner then alternates ``values()`` (``f_t`` on the grid, exact argmax and regret),
:meth:`Environment.observe` (``y = f_t(x) + N(0, σ²)``) and :meth:`Environment.advance` (move to
round ``t + 1``; the BOLT environment advances its continuous clock by ``R(n)`` of the learner's
dataset size ``n``, ``bolt`` Definition 3.5).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...kernels import Kernel
from ...validation import as_points, check_int, check_positive

__all__ = [
    "ScaledKernel", "GramKernel", "TrainingData", "Environment", "unit_grid", "psd_sqrt",
]


class ScaledKernel(Kernel):
    """``scale · k(x, x')``: a kernel multiplied by a positive constant (e.g. λ·k_S for ``bolt``)."""

    def __init__(self, base: Kernel, scale: float) -> None:
        self.base = base
        self.scale = check_positive("scale", scale)

    def __call__(self, X: np.ndarray, Y: np.ndarray | None = None) -> np.ndarray:
        return self.scale * self.base(X, Y)

    def diag(self, X: np.ndarray) -> np.ndarray:
        return self.scale * self.base.diag(X)

    @property
    def max_variance(self) -> float:
        return self.scale * self.base.max_variance

    def __repr__(self) -> str:
        return f"ScaledKernel({self.base!r}, scale={self.scale!r})"


class GramKernel(Kernel):
    """A kernel on arm indices given by a fixed positive semi-definite matrix: ``k(i, j) = C[i, j]``.

    Points are one-column arrays holding the integer arm index (real-data environments, whose kernel is an
    empirical covariance, ``tvgpucb`` §7.2 and ``wgpucb`` §4; environments of independent arms).

    Parameters
    ----------
    C : numpy.ndarray
        A finite square matrix (symmetrised).

    Raises
    ------
    ValueError
        When ``C`` is not a finite square matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import GramKernel
    >>> k = GramKernel(np.array([[1.0, 0.5], [0.5, 2.0]]))
    >>> k(np.array([[0], [1]])).tolist()
    [[1.0, 0.5], [0.5, 2.0]]
    """

    def __init__(self, C: np.ndarray) -> None:
        C = np.asarray(C, dtype=float)
        if C.ndim != 2 or C.shape[0] != C.shape[1] or not np.all(np.isfinite(C)):
            raise ValueError(f"C must be a finite square matrix, got shape {C.shape}")
        self.C = 0.5 * (C + C.T)

    def _idx(self, name: str, X: np.ndarray) -> np.ndarray:
        pts = as_points(name, X, 1)[:, 0]
        idx = np.rint(pts).astype(np.int64)
        if np.any(np.abs(pts - idx) > 1e-9) or np.any(idx < 0) or np.any(idx >= self.C.shape[0]):
            raise ValueError(f"{name} must hold arm indices in [0, {self.C.shape[0] - 1}]")
        return idx

    def __call__(self, X: np.ndarray, Y: np.ndarray | None = None) -> np.ndarray:
        i = self._idx("X", X)
        j = i if Y is None else self._idx("Y", Y)
        return self.C[np.ix_(i, j)]

    def diag(self, X: np.ndarray) -> np.ndarray:
        i = self._idx("X", X)
        return self.C[i, i].copy()

    @property
    def max_variance(self) -> float:
        return float(np.max(np.diag(self.C)))

    def __repr__(self) -> str:
        return f"GramKernel(n={self.C.shape[0]})"


@dataclass(frozen=True)
class TrainingData:
    """A training split: ``X`` (n×d inputs on or off the grid), ``y`` (n), observation ``times`` (n) and
    ``groups`` (n, blocks treated as independent, e.g. training days of ``tvgpucb`` §6); ``full`` is an
    optional ``rounds × arms`` table when every arm is observed at every training round (Kronecker form)."""

    X: np.ndarray
    y: np.ndarray
    times: np.ndarray
    groups: np.ndarray
    full: np.ndarray | None = None
    description: str = ""


class Environment(ABC):
    """A time-varying objective on a finite grid, with exact arg max and regret: the base class of environments.

    A subclass sets ``name``, ``grid`` (G×d), ``kernel`` (the covariance the learner is told to use on the
    grid) and ``noise_var`` (the observation noise σ²) in its ``__init__`` (after ``super().__init__()``), and
    implements :meth:`_draw` (sample a realisation from ``rng``) and :meth:`_values` (``f_t`` on the grid at the
    current round). Register it with :func:`register_environment` to use it in sweeps; the sweep's
    ``env_params`` are its keyword arguments.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import Environment, GramKernel
    >>> class TwoArms(Environment):
    ...     name = "doc-two-arms"
    ...     def __init__(self, gap=0.5):
    ...         super().__init__()
    ...         self.gap, self.grid = gap, np.array([[0.0], [1.0]])
    ...         self.kernel, self.noise_var = GramKernel(np.eye(2)), 1.0
    ...     def _draw(self, rng):
    ...         pass
    ...     def _values(self):
    ...         return np.array([0.0, -self.gap])
    >>> env = TwoArms(gap=0.25)
    >>> env.reset(np.random.default_rng(0), horizon=5)
    >>> env.values().tolist()
    [0.0, -0.25]
    """

    name: str = "environment"
    paper: str = ""
    grid: np.ndarray
    kernel: Kernel
    noise_var: float

    def __init__(self) -> None:
        self.step = 0
        self.time = 0.0
        self.horizon = 0
        self._current: np.ndarray | None = None

    # -- protocol ---------------------------------------------------------------------------------
    def reset(self, rng: np.random.Generator, horizon: int) -> None:
        """Draw a fresh realisation for rounds ``1..horizon`` and move to round 1 (time 1)."""
        self.horizon = check_int("T", horizon, 1)
        self.step = 1
        self.time = 1.0
        self._draw(rng)
        self._current = None

    def advance(self, dataset_size: int = 0) -> None:
        """Move to the next round (discrete environments: the clock advances by one)."""
        self.step += 1
        self.time += 1.0
        self._current = None

    def values(self) -> np.ndarray:
        """``f_t`` on the grid at the current round (cached until :meth:`advance`)."""
        if self.step < 1:
            raise ValueError("environment must be reset before use")
        if self._current is None:
            self._current = np.asarray(self._values(), dtype=float)
        return self._current

    def observe(self, index: int, rng: np.random.Generator) -> float:
        """A noisy evaluation ``f_t(x_index) + N(0, noise_var)`` (``wsparq`` eq. (1))."""
        return float(self.values()[index] + np.sqrt(self.noise_var) * rng.standard_normal())

    def config(self) -> dict[str, Any]:
        """JSON-serialisable description of the environment (recorded in traces)."""
        return {"name": self.name, "paper": self.paper, "G": int(self.grid.shape[0]), "d": int(self.grid.shape[1]),
                "noise_var": float(self.noise_var), **self._params()}

    def _params(self) -> dict[str, Any]:
        return {}

    def problem_extra(self) -> dict[str, Any]:
        """Extra facts a policy may use after :meth:`reset`: ``rkhs_bound`` (``B``) and ``variation_budget``
        (``B_T`` over the horizon) where the environment knows them, training data where it has a
        training split (see :meth:`training_data`); the BOLT environment adds its response time."""
        out: dict[str, Any] = {}
        bound = self.rkhs_bound()
        if bound is not None:
            out["rkhs_bound"] = float(bound)
        budget = self.variation_budget_total()
        if budget is not None:
            out["variation_budget"] = float(budget)
        train = self.training_data()
        if train is not None:
            out["training_data"] = train
        return out

    def rkhs_bound(self) -> float | None:
        """``B ≥ max_t ‖f_t‖_k`` of the current realisation where it is known (``wgpucb`` §2 input ``B``,
        ``wsparq`` Assumption 1), else ``None``."""
        return None

    def variation_budget_total(self) -> float | None:
        """``B_T = Σ_{t<T} ‖f_{t+1} − f_t‖_k`` of the current realisation where it is known (``wgpucb`` §1.3)."""
        return None

    def training_data(self) -> "TrainingData | None":
        """Data the papers fit hyperparameters on before the run (a training split), or ``None``."""
        return None

    def best_arms(self, T: int, seed: int = 0) -> np.ndarray:
        """Grid index of ``argmax f_t`` for ``t = 1..T`` on a fresh realisation drawn with ``seed`` (on a copy:
        this environment is not changed)."""
        import copy

        T = check_int("T", T, 1)
        probe = copy.deepcopy(self)
        probe.reset(np.random.default_rng(check_int("seed", seed, 0)), T)
        out = np.zeros(T, dtype=np.int64)
        for t in range(T):
            if t:
                probe.advance(0)
            out[t] = int(np.argmax(probe.values()))
        return out

    def default_horizon(self) -> int:
        """Horizon used by :meth:`describe` when none is given (real-data tables: all test rounds)."""
        return 100

    def describe(self, T: int | None = None, seed: int = 0) -> dict[str, Any]:
        """How much there is to track on one realisation (``seed``) of ``T`` rounds: the number of distinct
        best arms and the fraction of rounds whose best arm differs from the previous round's."""
        T = self.default_horizon() if T is None else check_int("T", T, 1)
        best = self.best_arms(T, seed)
        return {"name": self.name, "paper": self.paper, "arms": int(self.grid.shape[0]), "rounds": int(T),
                "distinct_best_arms": int(np.unique(best).size),
                "best_arm_change_fraction": float(np.mean(best[1:] != best[:-1])) if T > 1 else 0.0}

    @abstractmethod
    def _draw(self, rng: np.random.Generator) -> None:
        """Sample whatever is random in the realisation."""

    @abstractmethod
    def _values(self) -> np.ndarray:
        """Return ``f`` at round ``self.step`` (time ``self.time``) on the grid."""


def unit_grid(points_per_dim: int, d: int, low: float = 0.0, high: float = 1.0) -> np.ndarray:
    """Equispaced product grid with ``points_per_dim`` points per axis, endpoints included (row-major)."""
    n = check_int("points_per_dim", points_per_dim, 1)
    d = check_int("d", d, 1)
    axis = np.linspace(low, high, n)
    mesh = np.meshgrid(*([axis] * d), indexing="ij")
    return np.stack([m.reshape(-1) for m in mesh], axis=1)


def psd_sqrt(K: np.ndarray) -> np.ndarray:
    """A square root ``S`` with ``S Sᵀ = K`` (eigendecomposition, negative round-off eigenvalues → 0).

    Used for exact GP sampling on ill-conditioned grids where a Cholesky factor needs jitter.
    A symmetric grid gives ``K`` repeated eigenvalues, whose eigenvectors LAPACK may rotate differently with
    the number of BLAS threads: the decomposition always runs on one thread, as every run of the runner
    does, so a realisation drawn outside a run (a replay, a figure) is the one the run saw.
    """
    from ...blas import single_threaded_blas

    with single_threaded_blas():
        w, U = np.linalg.eigh(0.5 * (K + K.T))
    return U * np.sqrt(np.clip(w, 0.0, None))
