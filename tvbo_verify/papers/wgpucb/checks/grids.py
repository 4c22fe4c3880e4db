"""Instances shared by the ``wgpucb`` checks: SE kernels on grids of [0, 1], played sequences, weights.

On a finite grid ``D`` every feature-space object of the paper is an exact finite computation
(READING.md §3.3): the Mercer decomposition of the grid Gram gives the features, the weighted
Grams ``V_t``, ``Ṽ_t`` and the variances of Lemmas 12–13 (``tvbo_verify.gp.WeightedFeatureRegression``).
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np

from tvbo_verify import highprecision as rf
from tvbo_verify.authoring import Params
from tvbo_verify.information import GridMercer, GridMercerMp, mercer_on_grid, mercer_on_grid_mp
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.nystrom import gram_mp


class SEGrid:
    """The SE kernel ``exp(−(x − x')²/(2 l²))`` (``p["lengthscale"]``) on ``p["n"]`` evenly spaced points of [0, 1]."""

    @staticmethod
    def kernel(p: Params) -> SquaredExponential:
        return SquaredExponential(1.0, p["lengthscale"])

    @staticmethod
    def points(p: Params) -> np.ndarray:
        return np.linspace(0.0, 1.0, int(p["n"]))[:, None]

    @classmethod
    def gram(cls, p: Params) -> np.ndarray:
        return cls.kernel(p)(cls.points(p))

    @classmethod
    def mercer(cls, p: Params) -> GridMercer:
        return mercer_on_grid(cls.gram(p))

    @classmethod
    def gram_hp(cls, p: Params) -> mpmath.matrix:
        """The grid Gram at the current mpmath precision."""
        return rf.mpmat(gram_mp(cls.kernel(p), cls.points(p), dps=mpmath.mp.dps))

    @classmethod
    def mercer_hp(cls, p: Params) -> GridMercerMp:
        return mercer_on_grid_mp(cls.gram_hp(p))


class PlayedSequence:
    """A random played sequence on the grid with random positive weights (increasing by default).

    Weights are ``1 + cumsum(steps)`` with exponential steps, 30% of them zero (ties are allowed:
    Lemma 13 asks for non-decreasing weights); ``decreasing=True`` reverses them (negative control).
    """

    @staticmethod
    def sample(rng: np.random.Generator, decreasing: bool = False) -> Params:
        n = int(rng.integers(8, 30))
        t = int(rng.integers(2, 25))
        inc = np.cumsum(rng.exponential(1.0, t) * (rng.random(t) < 0.7)) + 1.0
        w = (inc[::-1] if decreasing else inc).tolist()
        base = {"n": n, "lengthscale": float(rng.uniform(0.05, 0.4)), "lam": float(10 ** rng.uniform(-2, 0.5)),
                "played": rng.integers(0, n, t).tolist(), "weights": w}
        if rng.random() < 0.2:
            return {"part": "psd", **base}
        return {"part": "variance", **base, "x": int(rng.integers(0, n))}

    @staticmethod
    def relative_weights_hp(p: Params) -> list[Any]:
        """``w_s / w_t`` at the current mpmath precision (the float weights taken exactly)."""
        last = mpmath.mpf(p["weights"][-1])
        return [mpmath.mpf(w) / last for w in p["weights"]]

    @staticmethod
    def describe(p: Params) -> dict[str, Any]:
        return {"part": p["part"], "n": p["n"], "t": len(p["played"]), "lam": p["lam"],
                "lengthscale": p["lengthscale"]}
