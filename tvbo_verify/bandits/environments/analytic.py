"""Closed-form test functions of the papers (not kernel expansions).

* :class:`SparqSynthetic` — the synthetic function of ``sparq`` §4 (Figure 1, instance S1 of the
  catalog): ``f(x, t) = exp(−0.05 (x − 5 sin(0.1 t))²) + 0.5 cos(0.2 x) + 1.5`` on ``[−50, 50]``.
  The constant offset and the cosine are not in the SE RKHS (a Gaussian RKHS on a set with interior
  holds no non-zero constant, Steinwart–Hush–Scovel 2006), so its ``‖f_t‖_k`` is unknown; its drift
  ``f_{t+1} − f_t`` is the difference of two shifted bumps (the cosine and the offset cancel).
  :meth:`SparqSynthetic.training_data` is the reading of "fitted by maximizing the log marginal
  likelihood of the data" used by ``fit_on="train"`` (papers/sparq/READING.md §sparq:figure-1: noisy values of f_0).
* :class:`SwitchingBumps` — the counterexample to ``sparq`` Theorem 3.1 under worst-case Assumption 2:
  a kernel bump that jumps at random between two distant centres (linear regret for any algorithm).
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np

from ...kernels import KERNEL_NAMES, SquaredExponential, kernel_by_name
from ...validation import check_choice, check_int, check_nonnegative, check_positive
from .base import Environment, TrainingData

__all__ = [
    "SparqSynthetic", "SwitchingBumps",
]


class SparqSynthetic(Environment):
    """``sparq`` §4 synthetic function on an equispaced grid of ``[−50, 50]`` (time ``t`` may be any real)."""

    name = "sparq-synthetic"
    paper = "sparq"
    LOW, HIGH = -50.0, 50.0

    def __init__(self, *, grid_points: int = 1001, noise_var: float = 0.01, lengthscale: float = 3.0,
                 signal_variance: float = 0.5, kernel: str = "se", train_points: int = 200,
                 train_seed: int = 0, train_span: float = 0.0) -> None:
        super().__init__()
        self.grid = np.linspace(self.LOW, self.HIGH, check_int("grid_points", grid_points, 2))[:, None]
        self.noise_var = check_positive("noise_var", noise_var)
        # the paper fits the SE hyperparameters by marginal likelihood without reporting them [reading]
        self.kernel_name = check_choice("kernel", kernel, KERNEL_NAMES)
        self.kernel = kernel_by_name(kernel, variance=signal_variance, lengthscale=lengthscale)
        self.train_points = check_int("train_points", train_points, 0)
        self.train_seed = check_int("train_seed", train_seed, 0)
        self.train_span = check_nonnegative("train_span", train_span)

    @staticmethod
    def centre(t: Any) -> Any:
        """Centre ``5 sin(0.1 t)`` of the moving bump."""
        return 5.0 * np.sin(0.1 * np.asarray(t, float))

    @staticmethod
    def value(x: Any, t: Any) -> np.ndarray:
        """``f(x, t)`` (broadcasting ``x`` against ``t``)."""
        x = np.asarray(x, float)
        return np.exp(-0.05 * (x - SparqSynthetic.centre(t)) ** 2) + 0.5 * np.cos(0.2 * x) + 1.5

    @staticmethod
    def value_mp(x: Any, t: Any) -> mpmath.mpf:
        """``f(x, t)`` at the current mpmath precision (``x``, ``t`` taken exactly)."""
        x, t = mpmath.mpf(x), mpmath.mpf(t)
        c = 5 * mpmath.sin(t / 10)
        return mpmath.exp(-(x - c) ** 2 / 20) + mpmath.cos(x / 5) / 2 + mpmath.mpf(3) / 2

    def function(self, t: float) -> np.ndarray:
        """``f_t`` on the grid."""
        return self.value(self.grid[:, 0], t)

    def _draw(self, rng: np.random.Generator) -> None:
        return None  # deterministic

    def _values(self) -> np.ndarray:
        return self.function(self.step)

    def default_horizon(self) -> int:
        return 500  # sparq §4

    def training_data(self) -> TrainingData | None:
        """The data the SE hyperparameters are fitted on (the paper does not say which; reading):
        ``train_points`` noisy observations ``f_s(x) + N(0, σ²)`` at grid points drawn uniformly with
        ``train_seed`` (independent of the run's seed), all of the round before the run (``s = 0``) when
        ``train_span = 0``, else at times ``s`` drawn uniformly from ``[0, train_span]`` (one block: a static
        kernel ignores the times, a temporal one sees them)."""
        if self.train_points == 0:
            return None
        rng = np.random.default_rng(self.train_seed)
        idx = rng.integers(0, self.grid.shape[0], size=self.train_points)
        times = np.zeros(self.train_points)
        if self.train_span > 0:
            times = np.sort(rng.uniform(0.0, self.train_span, size=self.train_points))
        y = self.value(self.grid[idx, 0], times) + np.sqrt(self.noise_var) * rng.standard_normal(self.train_points)
        which = "f_0" if self.train_span == 0 else f"f_s, s uniform in [0, {self.train_span:g}],"
        return TrainingData(self.grid[idx], y, times, np.zeros(self.train_points, dtype=np.int64),
                            description=f"{self.train_points} noisy observations of {which} at uniform grid points")

    def _params(self) -> dict[str, Any]:
        return {"lengthscale": float(self.kernel.lengthscale), "signal_variance": self.kernel.variance,
                "kernel": self.kernel_name, "train_points": self.train_points, "train_seed": self.train_seed,
                "train_span": self.train_span}


class SwitchingBumps(Environment):
    """The counterexample to ``sparq`` Theorem 3.1 under worst-case Assumption 2 (papers/sparq/READING.md §5.1).

    ``f_t = h k(·, c_{s_t}) / M_k²`` with ``s_t`` i.i.d. uniform over two distant centres: every ``f_t`` has
    ``‖f_t‖_k = h/M_k`` and ``sup |f_{t+1} − f_t| <= h <= Δ = 1``, yet ``x_t`` is chosen before anything
    about ``s_t`` is revealed, so any algorithm has ``E[r_t] >= h (1 − k(c_1, c_2)/M_k²)/2`` and linear regret.
    """

    name = "sparq-two-bumps"
    paper = "sparq"

    def __init__(self, *, height: float = 1.0, centres: tuple[float, float] = (-25.0, 25.0), grid_points: int = 201,
                 lengthscale: float = 3.0, signal_variance: float = 0.5, noise_var: float = 0.01) -> None:
        super().__init__()
        self.height = check_positive("height", height)
        if not self.height <= 1.0:
            raise ValueError(f"height must be in (0, 1] (Assumption 2 with Δ = 1), got {height!r}")
        self.centres = np.asarray(centres, float).reshape(2, 1)
        self.grid = np.linspace(self.LOW, self.HIGH, check_int("grid_points", grid_points, 2))[:, None]
        self.noise_var = check_positive("noise_var", noise_var)
        self.kernel = SquaredExponential(signal_variance, lengthscale)
        self._bumps = self.kernel(self.grid, self.centres).T * (self.height / self.kernel.variance)
        self.switches = np.zeros(0, dtype=np.int64)

    LOW, HIGH = -50.0, 50.0

    def _draw(self, rng: np.random.Generator) -> None:
        self.switches = rng.integers(0, 2, size=self.horizon)

    def function(self, t: int) -> np.ndarray:
        """``f_t`` on the grid for ``1 <= t <= T`` of the current realisation."""
        return self._bumps[int(self.switches[check_int("t", t, 1) - 1])]

    def _values(self) -> np.ndarray:
        return self.function(self.step)

    def rkhs_norm(self) -> float:
        """``‖f_t‖_k = h / M_k`` (the same for every t)."""
        return self.height / float(np.sqrt(self.kernel.variance))

    def rkhs_bound(self) -> float | None:
        return self.rkhs_norm()

    def largest_change(self) -> float:
        """``sup_x |f_{t+1}(x) − f_t(x)|`` when the bump switches centre, on the grid (Assumption 2 needs <= Δ)."""
        return float(np.max(np.abs(self._bumps[0] - self._bumps[1])))

    def expected_regret_floor(self) -> float:
        """Per-step lower bound on ``E[r_t]`` for any policy: ``h (1 − k(c_1, c_2)/M_k²) / 2``."""
        cross = float(self.kernel(self.centres[:1], self.centres[1:])[0, 0]) / self.kernel.variance
        return self.height * (1.0 - cross) / 2.0

    def _params(self) -> dict[str, Any]:
        return {"height": self.height, "centres": self.centres[:, 0].tolist(),
                "lengthscale": float(self.kernel.lengthscale), "signal_variance": self.kernel.variance}
