"""The M-DPP (k-DPP) law: its normalisation, as SparQ-GP-UCB's Definition 1 and W-SparQ-GP-UCB's Definition 3.1
both state it, on random PSD matrices.

For a PSD matrix ``K`` of size ``N`` and ``M ≤ N``, the M-DPP draws a size-``M`` subset ``Z`` with probability
``det K_ZZ / e_M(λ(K))`` (Kulesza & Taskar 2011): the probabilities sum to 1, ``Σ_Z det K_ZZ = e_M(λ(K))``
(the M-th elementary symmetric polynomial of the eigenvalues), and a subset holding two copies of one point
has probability 0. :class:`MDppNormalisation` is that statement; :class:`RandomPsd` the instances (SE Gram
matrices on random 1-D points, with an exact duplicate where the statement is about duplicates, and random
``A Aᵀ`` of random rank), in float64 and at the current mpmath precision.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import mpmath
import numpy as np

from .. import highprecision as rf
from ..dpp import kdpp_probability, log_normaliser
from ..kernels import SquaredExponential
from ..nystrom import gram_mp
from ..verify.comparison import Comparison
from ..verify.statement import Params, Statement

__all__ = [
    "RandomPsd", "MDppNormalisation",
]


class RandomPsd:
    """The instance's PSD matrix in float64 and at the current mpmath precision."""

    @staticmethod
    def gram(p: Params) -> np.ndarray:
        if p["kind"] == "se":
            return SquaredExponential(1.0, p["lengthscale"])(np.asarray(p["X"], float)[:, None])
        A = np.asarray(p["A"], float)
        return A @ A.T

    @staticmethod
    def gram_hp(p: Params) -> mpmath.matrix:
        if p["kind"] == "se":
            kern = SquaredExponential(1.0, p["lengthscale"])
            return rf.mpmat(gram_mp(kern, np.asarray(p["X"], float)[:, None], dps=mpmath.mp.dps))
        A = rf.mpmat(p["A"])
        return A * A.T

    @staticmethod
    def size(p: Params) -> int:
        return len(p.get("X", p.get("A", [])))


class MDppNormalisation(Statement):
    """Three identities of Definition 1, one per instance ``part``."""

    name = "M-DPP probabilities sum to 1, normaliser = e_M(λ), duplicates have probability 0"
    sharpening = ("misread conventions: probabilities normalised by det(I + K) (the L-ensemble), the "
                  "normaliser summed over ordered M-tuples (M! e_M), subsets drawn uniformly (1/C(N, M))")

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        K, M = RandomPsd.gram(p), int(p["M"])
        subsets = list(itertools.combinations(range(K.shape[0]), M))
        if p["part"] == "sum":
            total = math.fsum(kdpp_probability(K, list(Z)) for Z in subsets)
            lam = np.clip(np.linalg.eigvalsh(K), 0.0, None)
            stated = math.exp(log_normaliser(K, M) - float(np.sum(np.log1p(lam)))) if sharpened else 1.0
            return Comparison(total, stated, "==", tol=1e-10, scale=1.0)
        if p["part"] == "normaliser":
            dets = math.fsum(float(np.linalg.det(K[np.ix_(Z, Z)])) for Z in subsets)
            e_M = math.exp(log_normaliser(K, M))
            stated = math.factorial(M) * e_M if sharpened else e_M
            return Comparison(dets, stated, "==", tol=1e-10 * e_M, scale=e_M)
        both = [Z for Z in subsets if 0 in Z and 1 in Z]  # the duplicated point's two copies
        worst = max(kdpp_probability(K, list(Z)) for Z in both)
        stated = 1.0 / math.comb(K.shape[0], M) if sharpened else 0.0
        return Comparison(worst, stated, "==", scale=1.0)

    def hp(self, p: Params) -> Comparison:
        K, M = RandomPsd.gram_hp(p), int(p["M"])
        subsets = list(itertools.combinations(range(K.rows), M))
        dets = [mpmath.det(rf.sub(K, Z, Z)) for Z in subsets]
        e = rf.elementary_symmetric(mpmath.eigsy(K)[0], M)[M]
        if p["part"] == "sum":
            return Comparison(mpmath.fsum(d / e for d in dets), 1, "==", tol=mpmath.mpf("1e-10"), scale=1)
        if p["part"] == "normaliser":
            return Comparison(mpmath.fsum(dets), e, "==", tol=mpmath.mpf("1e-10") * e, scale=e)
        return Comparison(max(d / e for Z, d in zip(subsets, dets) if 0 in Z and 1 in Z), 0, "==", scale=1)

    def sample(self, rng: np.random.Generator) -> Params:
        N = int(rng.integers(3, 13))
        M = int(rng.integers(1, min(4, N - 1) + 1))
        part = ("sum", "normaliser", "duplicate")[int(rng.integers(3))]
        if part == "duplicate" or rng.random() < 0.5:
            X = rng.uniform(0, 5, N)
            if part == "duplicate":
                X[1] = X[0]
                M = max(M, 2)
            return {"part": part, "kind": "se", "X": X.tolist(), "lengthscale": float(rng.uniform(0.3, 2.0)), "M": M}
        r = int(rng.integers(M, N + 1))
        return {"part": part, "kind": "lowrank", "A": rng.normal(size=(N, r)).tolist(), "M": M}

    def describe(self, p: Params) -> dict[str, Any]:
        return {"part": p["part"], "kind": p["kind"], "N": RandomPsd.size(p), "M": p["M"]}


