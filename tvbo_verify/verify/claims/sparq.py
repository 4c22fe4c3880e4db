"""Claim checks for ``sparq`` (SparQ-GP-UCB; catalog ``spec/sparq.md``, recipes of §4)."""

from __future__ import annotations

import itertools
import math
from typing import Any

import mpmath
import numpy as np

from ..engine import Context
from ..evidence import Evidence
from ..registry import claim
from ..search import Statement, exact_evidence, replay_statement


def _gram(p: dict[str, Any]) -> np.ndarray:
    """The instance's PSD matrix: an SE Gram on random 1-D points (with an exact duplicate for the
    duplicate part) or a random low-rank-plus-ridge matrix ``A Aᵀ``."""
    if p["kind"] == "se":
        from ...kernels import SquaredExponential

        return SquaredExponential(1.0, p["lengthscale"])(np.asarray(p["X"], float)[:, None])
    A = np.asarray(p["A"], float)
    return A @ A.T


def _gram_mp(p: dict[str, Any]) -> mpmath.matrix:
    from .. import referee as rf

    if p["kind"] == "se":
        from ...kernels import SquaredExponential
        from ...nystrom import gram_mp

        return rf.mpmat(gram_mp(SquaredExponential(1.0, p["lengthscale"]), np.asarray(p["X"], float)[:, None],
                                dps=mpmath.mp.dps))
    A = rf.mpmat(p["A"])
    return A * A.T


def _def1_eval(p: dict[str, Any], shift: float = 0.0) -> tuple[float, float, float, float]:
    from ...dpp import kdpp_probability, log_normaliser

    K, M = _gram(p), int(p["M"])
    subs = list(itertools.combinations(range(K.shape[0]), M))
    if p["part"] == "sum":  # Σ_Z P(Z) = 1
        total = math.fsum(kdpp_probability(K, list(Z)) for Z in subs)
        return abs(total - (1.0 - shift)), 1e-10, 1.0, 1.0
    if p["part"] == "normaliser":  # Σ_{|Z|=M} det K_ZZ = e_M(λ(K))
        dets = math.fsum(float(np.linalg.det(K[np.ix_(Z, Z)])) for Z in subs)
        e_M = math.exp(log_normaliser(K, M)) * (1.0 + shift)
        return abs(dets - e_M), 1e-10 * e_M, 1.0, e_M
    # subsets holding both copies of the duplicated point have probability 0
    dup = [Z for Z in subs if 0 in Z and 1 in Z]
    return max(kdpp_probability(K, list(Z)) for Z in dup) + shift, 0.0, 1.0, 1.0


def _def1_hp(p: dict[str, Any]):
    from .. import referee as rf

    K, M = _gram_mp(p), int(p["M"])
    n = K.rows
    subs = list(itertools.combinations(range(n), M))
    dets = [mpmath.det(rf.sub(K, Z, Z)) for Z in subs]
    e = rf.elementary_symmetric(mpmath.eigsy(K)[0], M)[M]
    if p["part"] == "sum":
        return abs(mpmath.fsum(d / e for d in dets) - 1), mpmath.mpf("1e-10")
    if p["part"] == "normaliser":
        return abs(mpmath.fsum(dets) - e), mpmath.mpf("1e-10") * e
    return max(d / e for Z, d in zip(subs, dets) if 0 in Z and 1 in Z), mpmath.mpf(0)


def _def1_sample(rng: np.random.Generator) -> dict[str, Any]:
    N = int(rng.integers(3, 13))
    M = int(rng.integers(1, min(4, N - 1) + 1))
    part = ["sum", "normaliser", "duplicate"][int(rng.integers(3))]
    if part == "duplicate" or rng.random() < 0.5:
        X = rng.uniform(0, 5, N)
        if part == "duplicate":
            X[1] = X[0]
            M = max(M, 2)
        return {"part": part, "kind": "se", "X": X.tolist(), "lengthscale": float(rng.uniform(0.3, 2.0)), "M": M}
    r = int(rng.integers(M, N + 1))
    return {"part": part, "kind": "lowrank", "A": rng.normal(size=(N, r)).tolist(), "M": M}


DEFINITION_1 = Statement(
    name="M-DPP probabilities sum to 1, normaliser = e_M(λ), duplicates have probability 0",
    evaluate=_def1_eval,
    sample=_def1_sample,
    hp=_def1_hp,
    sharpen=lambda p, lhs, rhs: _def1_eval(p, shift=1e-6)[:2],
    sharpening="total 1 − 1e-6, normaliser (1 + 1e-6) e_M, duplicate probability 1e-6",
    describe=lambda p: {"part": p["part"], "kind": p["kind"], "N": len(p.get("X", p.get("A", []))), "M": p["M"]},
)


@claim("sparq:definition-1", ref="Definition 1", kind="exact")
def definition_1(ctx: Context) -> Evidence:
    """For random PSD matrices (SE Gram matrices on random points and random A Aᵀ of random rank) with
    N ≤ 12 and M ≤ 4, every size-M subset is enumerated: the probabilities of ``dpp.kdpp_probability``
    must sum to 1 (to 1e-10), Σ det K_ZZ must equal e_M(λ(K)) = exp(``dpp.log_normaliser``) (to 1e-10
    relative), and on Gram matrices with an exactly duplicated point every subset holding both copies
    must have probability 0. Breaks are refereed in mpmath (determinants, mpmath.eigsy eigenvalues).
    Power: a total of 1 − 1e-6, a normaliser off by 1e-6 and a duplicate probability of 1e-6 must each
    be caught."""
    return exact_evidence(ctx, DEFINITION_1, n_random=ctx.pick(40, 200), n_starts=0, what="M-DPP normalisation")


definition_1.replayer(replay_statement(DEFINITION_1))


# ---------------------------------------------------------------------------------------- eq. (33)
def _schur_eval(p: dict[str, Any], factor: float = 1.0) -> tuple[float, float, float, float]:
    """|Π_m S_m − det K_CC| against 1e-10 |det K_CC| (``dpp.schur_complements`` along the order C)."""
    from ...dpp import schur_complements

    K = _gram(p)
    C = list(p["C"])
    prod = float(np.prod(schur_complements(K, C))) * factor
    det = float(np.linalg.det(K[np.ix_(C, C)]))
    cond = float(np.linalg.cond(K[np.ix_(C, C)]))
    return abs(prod - det), 1e-10 * abs(det), min(cond, 1e8), abs(det)


def _schur_hp(p: dict[str, Any]):
    from .. import referee as rf

    K = _gram_mp(p)
    C = list(p["C"])
    prod = mpmath.mpf(1)
    for m in range(len(C)):  # S_m = k(c_m, c_m) − k(c_m, C_{m−1}) K_{C_{m−1}}⁻¹ k(C_{m−1}, c_m)
        c, prev = C[m], C[:m]
        s_m = K[c, c]
        if prev:
            kv = rf.sub(K, prev, [c])
            s_m -= (kv.T * rf.solve(rf.sub(K, prev, prev), kv))[0, 0]
        prod *= s_m
    det = mpmath.det(rf.sub(K, C, C))
    return abs(prod - det), mpmath.mpf("1e-10") * abs(det)


def _schur_sample(rng: np.random.Generator) -> dict[str, Any]:
    N = int(rng.integers(2, 25))
    c = int(rng.integers(1, min(N, 20) + 1))
    C = rng.choice(N, c, replace=False).tolist()
    if rng.random() < 0.5:
        return {"kind": "se", "X": rng.uniform(0, 10, N).tolist(), "lengthscale": float(rng.uniform(0.2, 1.5)), "C": C}
    return {"kind": "lowrank", "A": rng.normal(size=(N, N + 2)).tolist(), "C": C}


EQ33 = Statement(
    name="Π_m S_m = det K_CC (Schur complements along C)",
    evaluate=_schur_eval,
    sample=_schur_sample,
    hp=_schur_hp,
    sharpen=lambda p, lhs, rhs: _schur_eval(p, factor=1 + 1e-8)[:2],
    sharpening="product off by a relative 1e-8",
    describe=lambda p: {"kind": p["kind"], "N": len(p.get("X", p.get("A", []))), "|C|": len(p["C"])},
)


@claim("sparq:eq-33", ref="Eq. (33)", kind="exact")
def eq_33(ctx: Context) -> Evidence:
    """For random PSD matrices (SE Gram matrices and A Aᵀ with full rank) and random ordered index sets
    C of size ≤ 20, the product of the Schur complements of ``dpp.schur_complements`` must equal
    det K_CC to a relative 1e-10 (tolerance scaled with cond(K_CC)). Breaks are refereed by the
    Schur recursion and the determinant in mpmath. Power: a product off by a relative 1e-8 must be
    caught."""
    return exact_evidence(ctx, EQ33, n_random=ctx.pick(40, 200), n_starts=0, what="Schur-complement factorisation")


eq_33.replayer(replay_statement(EQ33))


@claim("sparq:proposition-3", ref="Proposition 3", kind="exact")
def proposition_3(ctx: Context) -> Evidence:
    """The same statement as ``wsparq:proposition-3.4`` (Burt et al. Proposition 1, restated as
    ``sparq`` Proposition 3), checked by the same instances, adversarial search and referee
    (``divergences.transfer_bounds``). Power: the inequalities claimed up to η = 1/4 must be caught."""
    from .wsparq import P34_EXTRA, PROP_34

    return exact_evidence(ctx, PROP_34, n_random=ctx.pick(200, 1000), n_starts=ctx.pick(4, 10), maxfev=300,
                          extra=P34_EXTRA, what="KL transfer bounds")


def _p34_replay(instance: dict[str, Any]):
    from .wsparq import PROP_34

    return PROP_34.replay(instance)


proposition_3.replayer(_p34_replay)
