"""The eight synthetic benchmarks of ``bolt`` §5.1 / App. F, as functions of ``z = (x_1, …, x_d, t)`` on their
classical boxes (papers/bolt/READING.md §bolt:table-2). The last coordinate plays the role of time (the paper maps it to
[0, 600] s); the paper maximises, presumably −f (papers/bolt/READING.md §3.9), which leaves every variance unchanged.

:data:`BENCHMARKS` maps a name to a :class:`Benchmark` (function, box, dimension);
:func:`signal_variance` estimates ``Var f`` under the uniform distribution on the box by a scrambled Sobol
rule (the quantity Table 2's noise is "1% of").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ...validation import check_int

__all__ = [
    "Function", "schwefel", "eggholder", "ackley", "shekel", "griewank", "hartmann3", "hartmann6", "powell",
    "Benchmark", "BENCHMARKS", "signal_variance",
]

Function = Callable[[np.ndarray], np.ndarray]


def schwefel(z: np.ndarray) -> np.ndarray:
    return 418.9829 * z.shape[1] - np.sum(z * np.sin(np.sqrt(np.abs(z))), axis=1)


def eggholder(z: np.ndarray) -> np.ndarray:
    x1, x2 = z[:, 0], z[:, 1]
    return -(x2 + 47) * np.sin(np.sqrt(np.abs(x2 + x1 / 2 + 47))) - x1 * np.sin(np.sqrt(np.abs(x1 - x2 - 47)))


def ackley(z: np.ndarray, a: float = 20.0, b: float = 0.2, c: float = 2 * np.pi) -> np.ndarray:
    D = z.shape[1]
    return (-a * np.exp(-b * np.sqrt(np.sum(z**2, axis=1) / D)) - np.exp(np.sum(np.cos(c * z), axis=1) / D)
            + a + np.e)


_SHEKEL_BETA = np.array([1, 2, 2, 4, 4, 6, 3, 7, 5, 5]) / 10.0
_SHEKEL_C = np.array([[4, 1, 8, 6, 3, 2, 5, 8, 6, 7], [4, 1, 8, 6, 7, 9, 3, 1, 2, 3.6],
                      [4, 1, 8, 6, 3, 2, 5, 8, 6, 7], [4, 1, 8, 6, 7, 9, 3, 1, 2, 3.6]], dtype=float)


def shekel(z: np.ndarray) -> np.ndarray:
    sq = ((z[:, :, None] - _SHEKEL_C[None, :, :]) ** 2).sum(axis=1)  # N × m
    return -np.sum(1.0 / (sq + _SHEKEL_BETA[None, :]), axis=1)


def griewank(z: np.ndarray) -> np.ndarray:
    i = np.arange(1, z.shape[1] + 1)
    return np.sum(z**2, axis=1) / 4000.0 - np.prod(np.cos(z / np.sqrt(i)), axis=1) + 1.0


_HARTMANN_ALPHA = np.array([1.0, 1.2, 3.0, 3.2])
_HARTMANN3_A = np.array([[3, 10, 30], [0.1, 10, 35], [3, 10, 30], [0.1, 10, 35]], dtype=float)
_HARTMANN3_P = 1e-4 * np.array([[3689, 1170, 2673], [4699, 4387, 7470], [1091, 8732, 5547], [381, 5743, 8828]])
_HARTMANN6_A = np.array([[10, 3, 17, 3.5, 1.7, 8], [0.05, 10, 17, 0.1, 8, 14], [3, 3.5, 1.7, 10, 17, 8],
                         [17, 8, 0.05, 10, 0.1, 14]], dtype=float)
_HARTMANN6_P = 1e-4 * np.array([[1312, 1696, 5569, 124, 8283, 5886], [2329, 4135, 8307, 3736, 1004, 9991],
                                [2348, 1451, 3522, 2883, 3047, 6650], [4047, 8828, 8732, 5743, 1091, 381]])


def _hartmann(z: np.ndarray, A: np.ndarray, P: np.ndarray) -> np.ndarray:
    inner = np.sum(A[None, :, :] * (z[:, None, :] - P[None, :, :]) ** 2, axis=2)
    return -np.sum(_HARTMANN_ALPHA[None, :] * np.exp(-inner), axis=1)


def hartmann3(z: np.ndarray) -> np.ndarray:
    return _hartmann(z, _HARTMANN3_A, _HARTMANN3_P)


def hartmann6(z: np.ndarray) -> np.ndarray:
    return _hartmann(z, _HARTMANN6_A, _HARTMANN6_P)


def powell(z: np.ndarray) -> np.ndarray:
    out = np.zeros(z.shape[0])
    for i in range(z.shape[1] // 4):
        a, b, c, d = (z[:, 4 * i + j] for j in range(4))
        out += (a + 10 * b) ** 2 + 5 * (c - d) ** 2 + (b - 2 * c) ** 4 + 10 * (a - d) ** 4
    return out


@dataclass(frozen=True)
class Benchmark:
    """A benchmark of ``bolt`` App. F: ``f`` on ``[low, high]^dim`` (the last coordinate is time)."""

    name: str
    function: Function
    low: float
    high: float
    dim: int

    def __call__(self, z: np.ndarray) -> np.ndarray:
        z = np.atleast_2d(np.asarray(z, dtype=float))
        if z.shape[1] != self.dim:
            raise ValueError(f"{self.name} takes points of dimension {self.dim}, got {z.shape[1]}")
        return self.function(z)


BENCHMARKS: dict[str, Benchmark] = {b.name: b for b in (
    Benchmark("Shekel", shekel, 0.0, 10.0, 4),
    Benchmark("Hartmann-3", hartmann3, 0.0, 1.0, 3),
    Benchmark("Ackley", ackley, -32.0, 32.0, 4),
    Benchmark("Griewank", griewank, -600.0, 600.0, 6),
    Benchmark("Eggholder", eggholder, -512.0, 512.0, 2),
    Benchmark("Schwefel", schwefel, -500.0, 500.0, 4),
    Benchmark("Hartmann-6", hartmann6, 0.0, 1.0, 6),
    Benchmark("Powell", powell, -4.0, 5.0, 4),
)}


def signal_variance(benchmark: Benchmark, *, log2_points: int = 14, seed: int = 0) -> float:
    """``Var f(Z)``, ``Z`` uniform on the benchmark's box, by a scrambled Sobol rule of ``2^log2_points`` points."""
    from scipy.stats import qmc

    m = check_int("log2_points", log2_points, 4)
    u = qmc.Sobol(benchmark.dim, scramble=True, seed=check_int("seed", seed, 0)).random_base2(m)
    values = benchmark(benchmark.low + (benchmark.high - benchmark.low) * u)
    return float(np.var(values))
