"""``sparq`` Definition 1 (the M-DPP) and Eq. (33) (its Schur-complement factorisation).

Both are checked on random PSD matrices: SE Gram matrices on random 1-D points (with an exact
duplicate where the statement is about duplicates) and random ``A Aᵀ`` of random rank. Readings:
READING.md §sparq:definition-1; §sparq:eq-33; §2.6.
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np

from tvbo_verify import highprecision as rf
from tvbo_verify.authoring import Comparison, Context, Evidence, Params, Statement, claim, exact_evidence
from tvbo_verify.dpp import schur_complements
from tvbo_verify.lemmas.dpp import MDppNormalisation, RandomPsd

DEFINITION_1 = MDppNormalisation()


@claim("sparq:definition-1")
def definition_1(ctx: Context) -> Evidence:
    """Definition 1 (the M-DPP) as implemented (``dpp.kdpp_probability``, ``dpp.log_normaliser``), on small random PSD
    matrices (SE Gram matrices, some with an exactly duplicated point, and random low-rank A Aᵀ) whose size-M subsets
    are all enumerated: the probabilities must sum to 1, the normaliser Σ det K_ZZ must equal e_M(λ(K)), and every
    subset holding both copies of a duplicate must have probability 0; breaks refereed in mpmath. Power: the L-ensemble
    normaliser det(I + K), ordered tuples (M! e_M) and uniform subsets must be caught. Full reading: READING.md
    §sparq:definition-1."""
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
    """Eq. (33), det K_CC = Π_m S_m along an ordered index set: on random PSD matrices
    (SE Gram matrices and full-rank A Aᵀ) and random ordered sets C, the product of ``dpp.schur_complements`` must
    equal the determinant to a relative tolerance scaled with cond(K_CC); breaks refereed by the Schur recursion in
    mpmath. Power: S_m = k(c_m, c_m) (no conditioning, Hadamard's product) must be caught. Full reading: READING.md
    §sparq:eq-33."""
    return exact_evidence(ctx, EQ33, n_random=ctx.pick(40, 200), n_starts=0, what="Schur-complement factorisation")
