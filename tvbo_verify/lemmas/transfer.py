"""Burt et al. (2019) Proposition 1: KL-closeness transfers to means and variances.

Restated as ``wsparq`` Proposition 3.4 and ``sparq`` Proposition 3: if ``2 KL[Q ‖ P] <= η <= 1/5``
then ``|μ_p − μ_q| <= σ_p √η <= σ_q √η / √(1 − √(3η))`` and ``|1 − σ_q²/σ_p²| < √(3η)``
(``divergences.transfer_bounds``). By scale invariance P = N(0, 1) and Q = N(m, r).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import mpmath
import numpy as np
from scipy.optimize import brentq

from ..divergences import gaussian_kl_1d, transfer_bounds
from ..verify.comparison import Comparison
from ..verify.statement import Params, Statement

__all__ = [
    "PARTS", "kl_boundary_ratios", "TransferBounds", "TRANSFER", "transfer_evidence",
]

PARTS = ("mean", "scale", "variance")


@lru_cache(maxsize=4)
def kl_boundary_ratios(level: float) -> tuple[float, float]:
    """Variance ratios r with 2 KL[N(0, r) ‖ N(0, 1)] = r − 1 − log r = ``level`` (both roots), nudged
    inwards by a relative 1e-12 so that the hypothesis 2 KL <= level holds in float64."""
    def g(r: float) -> float:
        return r - 1.0 - math.log(r) - level * (1 - 1e-12)

    return brentq(g, 1.0 + 1e-12, 4.0, xtol=1e-15), brentq(g, 0.05, 1.0 - 1e-12, xtol=1e-15)


class TransferBounds(Statement):
    """The three inequalities, each as its own instance (``part``), with η anywhere in [2 KL, cap]."""

    name = "2 KL[Q ‖ P] <= η <= 1/5 ⇒ |μ_p − μ_q| <= σ_p√η <= σ_q√η/√(1 − √(3η)), |1 − σ_q²/σ_p²| < √(3η)"
    sharpening = "admissible range extended to η <= 1/4 (equal means, 2 KL = η = 1/4 probes)"
    continuous = ("m", "r", "s")
    bounds = {"m": (-0.7, 0.7), "r": (0.3, 3.0), "s": (0.0, 1.0)}
    CAP = 0.2
    WIDENED_CAP = 0.25

    def __init__(self) -> None:
        self.sharpened_extra = tuple({"part": "variance", "m": 0.0, "r": r, "s": 0.0}
                                     for r in kl_boundary_ratios(self.WIDENED_CAP))
        super().__init__()

    def eta(self, p: Params, admissible: float) -> float:
        """η = 2 KL + s (1/5 − 2 KL), between 2 KL[Q ‖ P] and 1/5 (just 2 KL beyond 1/5); ValueError when
        the hypothesis 2 KL <= ``admissible`` fails."""
        two_kl = 2.0 * float(gaussian_kl_1d(p["m"], p["r"], 0.0, 1.0))
        if not two_kl <= admissible:
            raise ValueError(f"2 KL = {two_kl:.4g} exceeds the admissible η <= {admissible:g}")
        return two_kl + min(max(p["s"], 0.0), 1.0) * max(self.CAP - two_kl, 0.0)

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        eta = self.eta(p, self.WIDENED_CAP if sharpened else self.CAP)
        tb = transfer_bounds(0.0, 1.0, p["m"], p["r"], min(eta, 0.3333))
        if p["part"] == "mean":
            return Comparison(float(tb.mean_gap), float(tb.bound_p))
        if p["part"] == "scale":
            return Comparison(float(tb.bound_p), float(tb.bound_q))
        return Comparison(float(tb.var_gap), float(tb.var_bound))

    def hp(self, p: Params) -> Comparison:
        m, r = mpmath.mpf(p["m"]), mpmath.mpf(p["r"])
        two_kl = mpmath.log(1 / r) + r + m**2 - 1
        eta = two_kl + mpmath.mpf(min(max(p["s"], 0.0), 1.0)) * max(mpmath.mpf(1) / 5 - two_kl, 0)
        if p["part"] == "mean":
            return Comparison(abs(m), mpmath.sqrt(eta))
        if p["part"] == "scale":
            return Comparison(mpmath.sqrt(eta), mpmath.sqrt(r * eta) / mpmath.sqrt(1 - mpmath.sqrt(3 * eta)))
        return Comparison(abs(1 - r), mpmath.sqrt(3 * eta))

    def sample(self, rng: np.random.Generator) -> Params:
        while True:
            p = {"part": PARTS[int(rng.integers(3))], "m": float(rng.uniform(-0.5, 0.5)),
                 "r": float(rng.uniform(0.4, 2.0)), "s": float(rng.choice([0.0, 1.0, rng.uniform()]))}
            try:
                self.eta(p, self.CAP)
                return p
            except ValueError:
                continue

    def describe(self, p: Params) -> dict[str, Any]:
        return dict(p)

    def boundary_probes(self) -> list[Params]:
        """The catalog's probe (equal means, 2 KL = η = 1/5, both variance ratios) and the equal-variance corner."""
        return [{"part": "variance", "m": 0.0, "r": r, "s": 1.0} for r in kl_boundary_ratios(self.CAP)] + \
            [{"part": "scale", "m": 0.0, "r": 1.0, "s": 1.0}]


TRANSFER = TransferBounds()


def transfer_evidence(ctx: Any) -> Any:
    """The search both papers run: random pairs, the boundary probes, Nelder–Mead over (m, r, η)."""
    from ..verify.builders import exact_evidence

    return exact_evidence(ctx, TRANSFER, n_random=ctx.pick(200, 1000), n_starts=ctx.pick(4, 10), maxfev=300,
                          extra=TRANSFER.boundary_probes(), what="KL transfer bounds")
