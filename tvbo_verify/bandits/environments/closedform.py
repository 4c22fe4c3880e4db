"""Closed-form time-varying objectives of the papers' synthetic experiments.

* :class:`SparqFigure1` — ``sparq`` §4 Figure 1:
  ``f(x, t) = exp(−0.05(x − 5 sin 0.1t)²) + 0.5 cos 0.2x + 1.5`` on ``D = [−50, 50]``, ``σ² = 0.01``.
  The paper leaves the discretisation open; the catalog (``sparq.md`` §4.0) suggests 1001 points.
  The constant offset 1.5 is not in the SE RKHS, so ``B`` is unknown (:meth:`rkhs_bound` is ``None``).
  The paper fits the SE hyperparameters "by maximizing the log marginal likelihood of the data" without
  saying which data; :meth:`SparqFigure1.training_data` is the documented reading: ``train_points``
  noisy observations ``f_0(x) + N(0, σ²)`` of the round before the run at grid points drawn uniformly
  (seeded by ``train_seed``, independent of the run's seed).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...kernels import KERNEL_NAMES, kernel_by_name
from ...validation import check_choice, check_int, check_positive
from .base import Environment, TrainingData


def sparq_figure1_function(x: np.ndarray, t: float) -> np.ndarray:
    """``exp(−0.05(x − 5 sin 0.1t)²) + 0.5 cos 0.2x + 1.5`` (``sparq`` §4, Figure 1)."""
    x = np.asarray(x, dtype=float)
    return np.exp(-0.05 * (x - 5.0 * np.sin(0.1 * t)) ** 2) + 0.5 * np.cos(0.2 * x) + 1.5


class SparqFigure1(Environment):
    """``sparq`` Figure 1: a bump moving as ``5 sin(0.1t)`` on a cosine background, ``x ∈ [−50, 50]``.

    The learner is told ``kernel`` (default SE with ``M_k² = 0.5``, ``l = 3``, the kernel of the journal
    version's synthetic instance) unless a policy fits its own (``fit="ml"`` on :meth:`training_data`).
    """

    name = "sparq-figure1"
    paper = "sparq"

    def __init__(self, *, grid_points: int = 1001, noise_var: float = 0.01, kernel: str = "se",
                 lengthscale: float = 3.0,
                 variance: float = 0.5, train_points: int = 200, train_seed: int = 0) -> None:
        super().__init__()
        self.grid = np.linspace(-50.0, 50.0, check_int("grid_points", grid_points, 2))[:, None]
        self.noise_var = check_positive("noise_var", noise_var)
        self.kernel_name = check_choice("kernel", kernel, KERNEL_NAMES)
        self.lengthscale = check_positive("lengthscale", lengthscale)
        self.variance = check_positive("variance", variance)
        self.kernel = kernel_by_name(kernel, variance=variance, lengthscale=lengthscale)
        self.train_points = check_int("train_points", train_points, 0)
        self.train_seed = check_int("train_seed", train_seed, 0)

    def _draw(self, rng: np.random.Generator) -> None:
        """The objective is deterministic."""

    def function(self, t: float) -> np.ndarray:
        """``f_t`` on the grid for any (real) ``t``."""
        return sparq_figure1_function(self.grid[:, 0], t)

    def _values(self) -> np.ndarray:
        return self.function(self.step)

    def default_horizon(self) -> int:
        return 500  # sparq §4

    def training_data(self) -> TrainingData | None:
        if self.train_points == 0:
            return None
        rng = np.random.default_rng(self.train_seed)
        idx = rng.integers(0, self.grid.shape[0], size=self.train_points)
        X = self.grid[idx]
        y = self.function(0.0)[idx] + np.sqrt(self.noise_var) * rng.standard_normal(self.train_points)
        zeros = np.zeros(self.train_points)
        return TrainingData(X, y, zeros, zeros.astype(np.int64),
                            description=f"{self.train_points} noisy observations of f_0 at uniform grid points")

    def _params(self) -> dict[str, Any]:
        return {"kernel": self.kernel_name, "lengthscale": self.lengthscale, "variance": self.variance,
                "train_points": self.train_points, "train_seed": self.train_seed}
