"""Static objectives observed with heteroscedastic noise: the noise models of ``wsparq`` Remark 2.5 and §5.

* :class:`IndexNoise` — a fixed kernel expansion of RKHS norm exactly ``B`` (instance I2 of ``wsparq`` §5.0:
  SE ℓ on [0, 10], random centres) observed at round ``t`` with noise variance ``σ² t^α``: the generic
  heteroscedastic variance proxy ``v_t = O(t^α)`` of Remark 2.5, without any drift.
* :class:`BumpHorizonNoise` — the lower-bound instance of ``wsparq`` §5 (I4): one member ``f^m`` of the bump
  family of Proof 5.2 (``theory.lower_bounds.bump_family``), ``m`` uniform at reset, observed at round ``t``
  with noise variance ``σ²(1 + (T − t)^α)`` (model (35), ``0^α := 0``): a static target whose early
  observations are the noisiest, the surrogate of Proposition 2.6 and §5. Its RKHS bound is the exact
  Fourier norm of a member (``bump_rkhs_norm``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ...kernels import KERNEL_NAMES, SquaredExponential, kernel_by_name
from ...validation import check_choice, check_int, check_nonnegative, check_positive
from .base import Environment
from .rkhs import KernelExpansionEnv, scale_to_norm

__all__ = [
    "IndexNoise", "bump_norm", "BumpHorizonNoise",
]


def _power(base: float, alpha: float) -> float:
    return float(base) ** alpha if base > 0 else 0.0


class IndexNoise(KernelExpansionEnv):
    """A static ``f = Σ_i a_i k(·, z_i)`` with ``‖f‖_k = B`` (random centres and coefficients at reset), observed
    at round ``t`` with noise variance ``σ² t^α`` (``wsparq`` Remark 2.5)."""

    name = "index-noise"
    paper = "wsparq"

    def __init__(self, *, alpha: float = 0.2, n_centres: int = 15, grid_points: int = 51, B: float = 1.0,
                 lengthscale: float = 1.0, noise_var: float = 0.01, kernel: str = "se") -> None:
        self.alpha = check_nonnegative("alpha", alpha)
        self.n_centres = check_int("n_centres", n_centres, 1)
        self.B = check_positive("B", B)
        self.lengthscale = check_positive("lengthscale", lengthscale)
        self.kernel_name = check_choice("kernel", kernel, KERNEL_NAMES)
        grid = np.linspace(0.0, 10.0, check_int("grid_points", grid_points, 2))[:, None]
        super().__init__(kernel_by_name(kernel, lengthscale=lengthscale), grid, np.zeros((self.n_centres, 1)),
                         noise_var)
        self._a = np.zeros(self.n_centres)

    def _draw(self, rng: np.random.Generator) -> None:
        self.support = rng.uniform(0.0, 10.0, size=(self.n_centres, 1))
        self._KZ = self.kernel(self.support)
        self._KgZ = self.kernel(self.grid, self.support)
        self._a = scale_to_norm(rng.standard_normal(self.n_centres), self._KZ, self.B)

    def _coefficients(self, t: int) -> np.ndarray:
        return self._a

    def noise_variance(self, t: int) -> float:
        """``σ² t^α``: the variance of the observation made at round ``t``."""
        return self.noise_var * _power(check_int("t", t, 1), self.alpha)

    def observe(self, index: int, rng: np.random.Generator) -> float:
        return float(self.values()[index] + np.sqrt(self.noise_variance(self.step)) * rng.standard_normal())

    def rkhs_bound(self) -> float | None:
        return self.B

    def _params(self) -> dict[str, Any]:
        return {"alpha": self.alpha, "B": self.B, "n_centres": self.n_centres, "lengthscale": self.lengthscale,
                "kernel": self.kernel_name}


@lru_cache(maxsize=32)
def bump_norm(M: int, gamma: float, lengthscale: float, variance: float) -> float:
    """Exact RKHS norm of a member of the bump family under SE(variance, lengthscale)."""
    from ...theory.lower_bounds import bump_rkhs_norm

    return bump_rkhs_norm(M, gamma, SquaredExponential(variance, lengthscale))


class BumpHorizonNoise(Environment):
    """``wsparq`` §5 model (35) on the bump family: ``f_t = f^m`` for every ``t`` (``m`` uniform over ``M`` cells of
    [0, 1], drawn at reset), noise variance ``σ²(1 + (T − t)^α)`` at round ``t`` of a run of horizon ``T``.

    The learner is told SE(``signal_variance``, ``lengthscale``); ``lengthscale=None`` takes the bump width
    ``w = 1/(2Mζ)``. The grid holds ``points_per_cell`` points per cell, the cell centres (the maximisers)
    among them.
    """

    name = "bump-horizon"
    paper = "wsparq"

    def __init__(self, *, alpha: float = 1.0, M: int = 8, gamma: float = 0.5, points_per_cell: int = 9,
                 lengthscale: float | None = None, signal_variance: float = 1.0, noise_var: float = 1.0) -> None:
        from ...theory.lower_bounds import bump_family, bump_zeta

        super().__init__()
        self.alpha = check_nonnegative("alpha", alpha)
        self.M = check_int("M", M, 2)
        self.gamma = check_positive("gamma", gamma)
        ppc = check_int("points_per_cell", points_per_cell, 1)
        if ppc % 2 == 0:
            raise ValueError(f"points_per_cell must be odd (the cell centre on the grid), got {ppc}")
        self.points_per_cell = ppc
        self.width = 1.0 / (2.0 * self.M * bump_zeta(1))
        self.lengthscale = self.width if lengthscale is None else check_positive("lengthscale", lengthscale)
        self.signal_variance = check_positive("signal_variance", signal_variance)
        self.noise_var = check_positive("noise_var", noise_var)
        self.grid = ((np.arange(self.M * ppc) + 0.5) / (self.M * ppc))[:, None]
        self.kernel = SquaredExponential(self.signal_variance, self.lengthscale)
        self.family = bump_family(self.M, self.gamma, self.grid[:, 0])
        self.target = 0

    def _draw(self, rng: np.random.Generator) -> None:
        self.target = int(rng.integers(self.M))

    def _values(self) -> np.ndarray:
        return self.family[self.target]

    def noise_variance(self, t: int) -> float:
        """``σ²(1 + (T − t)^α)``: the variance of the observation made at round ``t`` (model (35))."""
        return self.noise_var * (1.0 + _power(self.horizon - check_int("t", t, 1), self.alpha))

    def observe(self, index: int, rng: np.random.Generator) -> float:
        return float(self.values()[index] + np.sqrt(self.noise_variance(self.step)) * rng.standard_normal())

    def rkhs_bound(self) -> float | None:
        return bump_norm(self.M, self.gamma, self.lengthscale, self.signal_variance)

    def _params(self) -> dict[str, Any]:
        return {"alpha": self.alpha, "M": self.M, "gamma": self.gamma, "lengthscale": self.lengthscale,
                "width": self.width, "points_per_cell": self.points_per_cell,
                "signal_variance": self.signal_variance, "target": self.target}
