"""Sparse-versus-virtual posterior statements shared by ``sparq`` (Proposition 2, App. 0.B.3) and ``wsparq``
(Proposition 3.2): the same proof transfers a bound on the variational (Titsias) KL to the subset-of-data
posterior the algorithms compute.

* :class:`VirtualSet` — virtual data sets: 1-D inputs clustered as a bandit run leaves them (repeated
  inputs), σ̄² = σ² on the discarded observations and, for ``sparq``, injected variances σ²((T−i)²+1)
  on up to ``max_recent`` kept recent ones (``wsparq``: ``max_recent = 0``, homoscedastic); expert sets
  are exact Q-DPP draws over the distinct discarded inputs.
* :class:`SparseStep` — the asserted step ``E_Y KL[P^s ‖ P^v] <= E_Y KL[P^E ‖ P^v]`` (expert answers
  coupled to the virtual outputs), with its 50-digit referee.
* :class:`VariationalChain` — (51) per expert draw and (54) over the exact Q-DPP law for ``P^E``.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Iterator

import mpmath
import numpy as np

from .. import highprecision as rf
from ..divergences import expected_subset_kl, expected_titsias_kl, trace_bound
from ..dpp import kdpp_probability, sample_kdpp
from ..kernels import SquaredExponential
from ..nystrom import gram_mp, psd_tolerance
from ..verify.comparison import Comparison
from ..verify.statement import Params, Statement

__all__ = [
    "VirtualSet", "SparseStep", "SPARSE_STEP", "kl_rounding_scale", "VariationalChain", "VARIATIONAL_CHAIN",
]


class VirtualSet:
    """A virtual data set ``(X^v, Σ^v)`` with an expert subset ``E`` and the kept recent indices."""

    @staticmethod
    def sample(rng: np.random.Generator, n_max: int = 12, max_recent: int = 3) -> Params:
        n = int(rng.integers(4, n_max + 1))
        if rng.random() < 0.7:  # clusters of repeated and near-repeated inputs
            X = rng.choice(rng.uniform(0, 10, int(rng.integers(1, 4))), n)
            X = X + np.where(rng.random(n) < 0.5, 0.0, rng.normal(0, 10 ** rng.uniform(-3, -1), n))
        else:
            X = rng.uniform(0, 10, n)
        s2 = float(rng.choice([0.01, 0.1]))
        recent = int(rng.integers(0, max_recent + 1))
        noise = np.full(n, s2)
        noise[n - recent:] = s2 * (np.arange(recent)[::-1] ** 2 + 1.0)
        p = {"X": X.tolist(), "noise": noise.tolist(), "recent": recent, "lengthscale": float(rng.uniform(0.5, 2.0))}
        K = VirtualSet.gram(p)
        first = {}
        for i, x in enumerate(X[: n - recent]):  # one virtual observation per distinct discarded location
            first.setdefault(float(x), i)
        cand = np.array(sorted(first.values()), dtype=int)
        if cand.size == 0:
            cand = np.arange(n - recent) if n - recent else np.arange(1)
        w = np.linalg.eigvalsh(K[np.ix_(cand, cand)])
        rank = int(np.sum(w > psd_tolerance(w, cand.size)))
        q = int(rng.integers(1, max(1, min(4, rank)) + 1))
        p["E"] = sorted(cand[sample_kdpp(K[np.ix_(cand, cand)], q, rng, method="exact")].tolist())
        return p

    @staticmethod
    def gram(p: Params) -> np.ndarray:
        return SquaredExponential(1.0, p["lengthscale"])(np.asarray(p["X"], float)[:, None])

    @staticmethod
    def gram_mp(p: Params) -> mpmath.matrix:
        kern = SquaredExponential(1.0, p["lengthscale"])
        return rf.mpmat(gram_mp(kern, np.asarray(p["X"], float)[:, None], dps=mpmath.mp.dps))

    @staticmethod
    def sparse(p: Params) -> list[int]:
        n = len(p["X"])
        return sorted(set(p["E"]) | set(range(n - int(p["recent"]), n)))

    @staticmethod
    def describe(p: Params) -> dict[str, Any]:
        X = np.asarray(p["X"])
        return {"N": len(X), "distinct": int(np.unique(X).size), "|E|": len(p["E"]), "recent": p["recent"],
                "σ²": min(p["noise"])}


class SparseStep(Statement):
    """``E_Y KL[P^s ‖ P^v] <= E_Y KL[P^E ‖ P^v]`` (subset-of-data against variational), per expert draw."""

    name = "E_Y KL[P^s ‖ P^v] <= E_Y KL[P^E ‖ P^v] (subset-of-data vs Titsias, outputs shared)"
    sharpening = "the variational KL halved"
    plot_against = "N"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        K, noise = VirtualSet.gram(p), np.asarray(p["noise"])
        sparse = expected_subset_kl(K, noise, VirtualSet.sparse(p), outputs="shared")
        variational = expected_titsias_kl(K, noise, p["E"])
        return Comparison(sparse, variational / 2 if sharpened else variational, "<=",
                          scale=float(np.trace(K) / np.min(noise)) * 1e-6)

    def hp(self, p: Params) -> Comparison:
        K = VirtualSet.gram_mp(p)
        noise = [mpmath.mpf(v) for v in p["noise"]]
        locs, loc = np.unique(np.asarray(p["X"], float), return_inverse=True)
        kern = SquaredExponential(1.0, p["lengthscale"])
        Kd = rf.mpmat(gram_mp(kern, locs[:, None], dps=mpmath.mp.dps))
        return Comparison(rf.expected_subset_kl_shared(Kd, loc.tolist(), noise, VirtualSet.sparse(p)),
                          rf.expected_titsias_kl(K, noise, p["E"]), "<=")

    def sample(self, rng: np.random.Generator) -> Params:
        p = VirtualSet.sample(rng)
        p["N"] = len(p["X"])
        return p

    def shrink(self, p: Params) -> Iterator[Params]:
        n = len(p["X"])
        keep = set(p["E"]) | set(range(n - int(p["recent"]), n))
        for i in range(n):  # drop one virtual observation outside the sparse set
            if i in keep:
                continue
            idx = [j for j in range(n) if j != i]
            yield {**p, "X": [p["X"][j] for j in idx], "noise": [p["noise"][j] for j in idx], "N": n - 1,
                   "E": [j - (j > i) for j in p["E"]]}

    describe = staticmethod(VirtualSet.describe)


SPARSE_STEP = SparseStep()


def kl_rounding_scale(K: np.ndarray, noise: np.ndarray) -> float:
    """The magnitude of the terms that cancel in E_Y KL[P^E ‖ P^v] and in tr(K − Q)/λ_min(Σ^v), for any inducing
    set: |log|Σ + K|| + |log|Σ|| (log|Σ + Q| lies between them, Q ⪯ K), 2N (the −N and the trace
    tr((Σ + Q)⁻¹(Σ + K)) >= N of the Gaussian KL) and tr(K)/λ_min(Σ) (diag K − diag Q summed, then divided by a
    noise variance). Float rounding of either side is a multiple of the machine epsilon times this; where Q = K
    both sides are 0 and what the float computes is that rounding (e.g. 1e-13 against 6e-14)."""
    logdet = float(np.linalg.slogdet(K + np.diag(noise))[1])
    return (abs(logdet) + abs(float(np.sum(np.log(noise)))) + 2.0 * K.shape[0]
            + float(np.trace(K)) / float(np.min(noise)))


class VariationalChain(Statement):
    """(51) per expert draw and (54) over the exact Q-DPP law (ε = 0), for the Titsias posterior."""

    name = "E_Y KL[P^E ‖ P^v] <= tr(K − Q)/λ_min(Σ^v); E_DPP of it <= (Q+1) Σ_{t>Q} λ_t / λ_min(Σ^v)"
    sharpening = "both bounds halved (the ½ of (48) applied twice)"
    plot_against = "N"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        K, noise = VirtualSet.gram(p), np.asarray(p["noise"])
        f = 0.5 if sharpened else 1.0
        scale = kl_rounding_scale(K, noise)
        if p["part"] == "draw":
            return Comparison(expected_titsias_kl(K, noise, p["E"]), f * trace_bound(K, noise, p["E"]), "<=",
                              scale=scale)
        q = len(p["E"])
        subsets = list(itertools.combinations(range(K.shape[0]), q))
        probs = [kdpp_probability(K, list(S)) for S in subsets]
        mean_kl = math.fsum(w * expected_titsias_kl(K, noise, list(S)) for S, w in zip(subsets, probs) if w > 0)
        lam = np.sort(np.clip(np.linalg.eigvalsh(K), 0, None))[::-1]
        return Comparison(mean_kl, f * (q + 1) * float(np.sum(lam[q:])) / float(np.min(noise)), "<=", scale=scale)

    def hp(self, p: Params) -> Comparison:
        K = VirtualSet.gram_mp(p)
        noise = [mpmath.mpf(v) for v in p["noise"]]
        if p["part"] == "draw":
            U = rf.nystrom(K, p["E"])
            return Comparison(rf.expected_titsias_kl(K, noise, p["E"]),
                              mpmath.fsum(K[i, i] - U[i, i] for i in range(K.rows)) / min(noise), "<=")
        q = len(p["E"])  # every size-q subset with its 50-digit M-DPP weight det K_SS / e_q(λ)
        lam = sorted(mpmath.eigsy(K, eigvals_only=True), reverse=True)
        e_q = rf.elementary_symmetric([max(v, 0) for v in lam], q)[q]
        mean_kl = mpmath.mpf(0)
        for S in itertools.combinations(range(K.rows), q):
            w = mpmath.det(rf.sub(K, S, S)) / e_q
            if w > mpmath.mpf(10) ** (-(mpmath.mp.dps - 10)):
                mean_kl += w * rf.expected_titsias_kl(K, noise, list(S))
        return Comparison(mean_kl, (q + 1) * mpmath.fsum(max(v, 0) for v in lam[q:]) / min(noise), "<=")

    def sample(self, rng: np.random.Generator) -> Params:
        p = VirtualSet.sample(rng, n_max=10)
        p["part"] = "draw" if rng.random() < 0.6 else "dpp"
        p["N"] = len(p["X"])
        return p

    def describe(self, p: Params) -> dict[str, Any]:
        return {"part": p["part"], **VirtualSet.describe(p)}


VARIATIONAL_CHAIN = VariationalChain()
