"""Instances shared by the ``tvgpucb`` checks: the paper's SE kernel on [0, 1] and query sequences.

The default set-up is a 1-D SE kernel with the paper's ``l = 0.2`` (READING.md §2.8); sequences of
queries are constant (one point repeated, where forgetting matters most), uniformly random, or
TV-greedy (``x_t = argmax σ̃_{t−1}``, the sequences that approach ``γ̃_T``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from tvbo_verify.information import exact_max_information_gain, max_tv_information_gain
from tvbo_verify.kernels import SquaredExponential

Params = dict[str, Any]

SEQUENCE_KINDS = ("constant", "random", "greedy")
#: grid the TV-greedy sequences are chosen from
GREEDY_GRID = np.linspace(0.0, 1.0, 41)[:, None]


def se_kernel(p: Params) -> SquaredExponential:
    """The instance's SE kernel (unit variance, ``l = 0.2`` unless the instance says otherwise)."""
    return SquaredExponential(variance=1.0, lengthscale=p.get("lengthscale", 0.2))


def column(values: Any) -> np.ndarray:
    """A list of 1-D points as an ``(n, 1)`` array."""
    return np.asarray(values, float).reshape(-1, 1)


def draw_sequence(rng: np.random.Generator, n: int, noise_var: float, epsilon: float) -> Params:
    """A constant, random or TV-greedy sequence of ``n`` points of [0, 1] (the kind drawn first)."""
    kind = SEQUENCE_KINDS[int(rng.integers(3))]
    return {"sequence": kind, **sequence_points(rng, kind, n, noise_var, epsilon)}


def sequence_points(rng: np.random.Generator, kind: str, n: int, noise_var: float, epsilon: float) -> Params:
    if kind == "constant":
        X = [float(rng.uniform())] * n
    elif kind == "random":
        X = rng.uniform(0, 1, n).tolist()
    else:
        pts = max_tv_information_gain(SquaredExponential(1.0, 0.2), GREEDY_GRID, n, noise_var, epsilon).points
        X = GREEDY_GRID[pts, 0].tolist()
    return {"X": X}


def sequence_instance(rng: np.random.Generator) -> Params:
    """A random sequence with random length, σ² and ε (log-uniform): the sequences of the block-decomposition
    checks."""
    n = int(rng.integers(2, 31))
    kind = SEQUENCE_KINDS[int(rng.integers(3))]
    s2, eps = float(10 ** rng.uniform(-3, 0.3)), float(10 ** rng.uniform(-3, -0.5))
    X = sequence_points(rng, kind, n, s2, eps)["X"]
    return {"sequence": kind, "X": X, "lengthscale": 0.2, "noise_var": s2, "epsilon": eps}


def describe_sequence(p: Params) -> dict[str, Any]:
    return {"sequence": p["sequence"], "n": len(p["X"]), "noise_var": p["noise_var"], "epsilon": p["epsilon"]}


@lru_cache(maxsize=4096)
def exact_gamma(domain: tuple[float, ...], lengthscale: float, noise_var: float, N: int) -> float:
    """``γ_N`` on a tiny 1-D domain by enumerating every multiset (cached: the searches reuse domains)."""
    kern = SquaredExponential(1.0, lengthscale)
    return exact_max_information_gain(kern, column(domain), N, noise_var).value


def finish_axes(ax: Any, x: np.ndarray, xlabel: str, ylabel: str) -> None:
    """Axes that end where the data end, labelled, with the legend outside the data."""
    ax.set_xlim(float(np.min(x)), float(np.max(x)))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
