"""Closed-form test functions of the papers (not kernel expansions).

* :class:`SparqSynthetic` — the synthetic function of ``sparq`` §4 (Figure 1, instance S1 of the
  catalog): ``f(x, t) = exp(−0.05 (x − 5 sin(0.1 t))²) + 0.5 cos(0.2 x) + 1.5`` on ``[−50, 50]``.
  The constant offset and the cosine are not in the SE RKHS (a Gaussian RKHS on a set with interior
  holds no non-zero constant, Steinwart–Hush–Scovel 2006), so its ``‖f_t‖_k`` is unknown; its drift
  ``f_{t+1} − f_t`` is the difference of two shifted bumps (the cosine and the offset cancel).
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np

from ...kernels import SquaredExponential
from ...validation import check_int, check_positive
from .base import Environment


class SparqSynthetic(Environment):
    """``sparq`` §4 synthetic function on an equispaced grid of ``[−50, 50]`` (time ``t`` may be any real)."""

    name = "sparq-synthetic"
    paper = "sparq"
    LOW, HIGH = -50.0, 50.0

    def __init__(self, *, grid_points: int = 1001, noise_var: float = 0.01, lengthscale: float = 3.0,
                 signal_variance: float = 0.5) -> None:
        super().__init__()
        self.grid = np.linspace(self.LOW, self.HIGH, check_int("grid_points", grid_points, 2))[:, None]
        self.noise_var = check_positive("noise_var", noise_var)
        # the paper fits the SE hyperparameters by marginal likelihood without reporting them [reading]
        self.kernel = SquaredExponential(signal_variance, lengthscale)

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

    def _params(self) -> dict[str, Any]:
        return {"lengthscale": float(self.kernel.lengthscale), "signal_variance": self.kernel.variance}
