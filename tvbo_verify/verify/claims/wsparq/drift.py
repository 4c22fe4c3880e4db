"""``wsparq`` uncertainty injection (§1.3, §2.2.2; spec §2 [A2], [E2.1], [V_T], §6 items 6, 11, 12).

* ``wsparq:v-t+corrected`` — the cumulative variance ``V_T = Σ_t σ²(1 + (T − t)^α)`` against its
  corrected expansion ``σ² T^{α+1}/(α+1) + O(T + T^α)``.
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np

from ....theory.lower_bounds import cumulative_variance
from ...builders import exact_evidence
from ...comparison import Comparison
from ...engine import Context
from ...evidence import Evidence
from ...registry import claim
from ...statement import Params, Statement


def power_sum_mp(T: int, alpha: Any) -> Any:
    """``T + Σ_{k=1}^{T−1} k^α`` (= ``V_T/σ²`` with age-0 variance σ²) by the Hurwitz zeta, at the current
    mpmath precision: ``Σ_{k=1}^{T−1} k^α = ζ(−α) − ζ(−α, T)``."""
    a = mpmath.mpf(alpha)
    return T + (mpmath.zeta(-a) - mpmath.zeta(-a, T))


class CumulativeVarianceExpansion(Statement):
    """|V_T/σ² − T^{α+1}/(α+1)| <= T + T^α (integral comparison of Σ_{k<T} k^α)."""

    name = "|V_T/σ² − T^(α+1)/(α+1)| <= T + T^α"
    sharpening = "remainder bound halved, (T + T^α)/2"
    plot_against = "T"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        T, a = int(p["T"]), p["alpha"]
        v = cumulative_variance(T, a, 1.0, zero_power="zero")
        lead = T ** (a + 1) / (a + 1)
        bound = T + T**a
        return Comparison(abs(v - lead), bound / 2 if sharpened else bound, "<=", scale=lead)

    def hp(self, p: Params) -> Comparison:
        T, a = int(p["T"]), mpmath.mpf(p["alpha"])
        lead = mpmath.mpf(T) ** (a + 1) / (a + 1)
        return Comparison(abs(power_sum_mp(T, a) - lead), T + mpmath.mpf(T) ** a, "<=", scale=lead)

    def sample(self, rng: np.random.Generator) -> Params:
        return {"alpha": float(rng.uniform(0.05, 4.0)), "T": int(10 ** rng.uniform(1, 6))}

    def shrink(self, p: Params) -> list[Params]:
        return [{**p, "T": T} for T in (10, 100, 1000) if T < p["T"]]


VT_CORRECTED = CumulativeVarianceExpansion()


@claim("wsparq:v-t+corrected")
def v_t_corrected(ctx: Context) -> Evidence:
    """V_T = Σ_t σ²(1 + (T − t)^α) computed exactly (``theory.lower_bounds.cumulative_variance``, age-0
    variance σ²) for random α ∈ (0.05, 4) and T ∈ (10, 10⁶): the remainder V_T/σ² − T^{α+1}/(α+1) must be
    at most T + T^α in absolute value (integral comparison: Σ_{k<T} k^α lies between (T−1)^{α+1}/(α+1) and
    T^{α+1}/(α+1)), so V_T = σ² T^{α+1}/(α+1) + O(T + T^α). Breaks are refereed with the Hurwitz zeta in
    mpmath. Power: the remainder bound halved must be caught."""
    return exact_evidence(ctx, VT_CORRECTED, n_random=ctx.pick(40, 200), n_starts=0, what="V_T expansion")
