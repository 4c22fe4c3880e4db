"""``sparq`` Definition 1 (the M-DPP) and Eq. (33) (its Schur-complement factorisation).

Both are checked on random PSD matrices: SE Gram matrices on random 1-D points (with an exact
duplicate where the statement is about duplicates) and random ``A Aᵀ`` of random rank.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import mpmath
import numpy as np

from ....dpp import kdpp_probability, log_normaliser, schur_complements
from ....kernels import SquaredExponential
from ....nystrom import gram_mp
from ... import referee as rf
from ...builders import exact_evidence
from ...comparison import Comparison
from ...engine import Context
from ...evidence import Evidence
from ...registry import claim
from ...statement import Params, Statement


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


DEFINITION_1 = MDppNormalisation()


@claim("sparq:definition-1")
def definition_1(ctx: Context) -> Evidence:
    """For random PSD matrices (SE Gram matrices on random points and random A Aᵀ of random rank) with
    N ≤ 12 and M ≤ 4, every size-M subset is enumerated: the probabilities of ``dpp.kdpp_probability``
    must sum to 1 (to 1e-10), Σ det K_ZZ must equal e_M(λ(K)) = exp(``dpp.log_normaliser``) (to 1e-10
    relative), and on Gram matrices with an exactly duplicated point every subset holding both copies
    must have probability 0. Breaks are refereed in mpmath (determinants, mpmath.eigsy eigenvalues).
    Power: three misread conventions on the same measurements must be caught — probabilities
    normalised by det(I + K) as for an unconstrained L-ensemble, the normaliser taken over ordered
    M-tuples (M! e_M), and subsets drawn uniformly (a duplicate pair with probability 1/C(N, M))."""
    return exact_evidence(ctx, DEFINITION_1, n_random=ctx.pick(40, 200), n_starts=0, what="M-DPP normalisation")


class SchurFactorisation(Statement):
    """Π_m S_m = det K_CC along an ordered index set C."""

    name = "Π_m S_m = det K_CC (Schur complements along C)"
    sharpening = "misread S_m as the unconditioned variance k(c_m, c_m) (the product of the diagonal, Hadamard's bound)"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        K = RandomPsd.gram(p)
        C = list(p["C"])
        product = float(np.prod(schur_complements(K, C)))
        det = float(np.linalg.det(K[np.ix_(C, C)]))
        stated = float(np.prod(np.diag(K)[C])) if sharpened else det
        cond = min(float(np.linalg.cond(K[np.ix_(C, C)])), 1e8)
        return Comparison(product, stated, "==", tol=1e-10 * abs(det), cond=cond, scale=abs(det))

    def hp(self, p: Params) -> Comparison:
        K = RandomPsd.gram_hp(p)
        C = list(p["C"])
        product = mpmath.mpf(1)
        for m, c in enumerate(C):  # S_m = k(c_m, c_m) − k(c_m, C_{m−1}) K_{C_{m−1}}⁻¹ k(C_{m−1}, c_m)
            s_m = K[c, c]
            if m:
                kv = rf.sub(K, C[:m], [c])
                s_m -= (kv.T * rf.solve(rf.sub(K, C[:m], C[:m]), kv))[0, 0]
            product *= s_m
        det = mpmath.det(rf.sub(K, C, C))
        return Comparison(product, det, "==", tol=mpmath.mpf("1e-10") * abs(det), scale=abs(det))

    def sample(self, rng: np.random.Generator) -> Params:
        N = int(rng.integers(2, 25))
        c = int(rng.integers(1, min(N, 20) + 1))
        C = rng.choice(N, c, replace=False).tolist()
        if rng.random() < 0.5:
            return {"kind": "se", "X": rng.uniform(0, 10, N).tolist(), "lengthscale": float(rng.uniform(0.2, 1.5)),
                    "C": C}
        return {"kind": "lowrank", "A": rng.normal(size=(N, N + 2)).tolist(), "C": C}

    def describe(self, p: Params) -> dict[str, Any]:
        return {"kind": p["kind"], "N": RandomPsd.size(p), "|C|": len(p["C"])}


EQ33 = SchurFactorisation()


@claim("sparq:eq-33")
def eq_33(ctx: Context) -> Evidence:
    """For random PSD matrices (SE Gram matrices and A Aᵀ with full rank) and random ordered index sets
    C of size ≤ 20, the product of the Schur complements of ``dpp.schur_complements`` must equal
    det K_CC to a relative 1e-10 (tolerance scaled with cond(K_CC)). Breaks are refereed by the
    Schur recursion and the determinant in mpmath. Power: the misreading S_m = k(c_m, c_m) (no
    conditioning on the earlier points, i.e. the product of the diagonal) must be caught."""
    return exact_evidence(ctx, EQ33, n_random=ctx.pick(40, 200), n_starts=0, what="Schur-complement factorisation")
