"""``wgpucb`` Sec. 5 and App. C (Lemmas 22–23): the order analysis behind Corollary 5.

With ``c = log T/(1 − γ)``, ``m̄ = log_{4/e}(T³ γ̇^{3/2})`` and the discount of Corollary 5
(``theory.schedules.wgpucb_discount``), the five explicit terms of Theorem 4 (App. C.5) scale in T as
the table under Corollary 5 lists, and their sum is ``Õ(γ̇^{7/8} B_T^{1/4} T^{3/4})`` (known ``B_T``,
Lemma 22, ``wgpucb:lemma-22``) or ``Õ(γ̇^{7/8} B_T T^{3/4})`` (unknown ``B_T``, Lemma 23, ``wgpucb:lemma-23``).

The terms are evaluated with the log factors removed, as the order analysis does (READING.md
§wgpucb:lemma-22): ``c`` enters ``γ^c`` exactly (that is where ``log T`` makes ``γ^c <= 1/T``) and as
``1/(1 − γ)`` elsewhere; ``m̄^d -> 1``; ``β_T -> √γ̇``; ``γ̌_T -> γ̇``; ``√ε_m = (e/4)^{m̄/2} = T^{-3/2} γ̇^{-3/4}``;
``λ = B = 1``. The table's exponents are asymptotic (T -> ∞ at fixed γ̇, B_T), so each term's log–log
slope is measured far out (:data:`ASYMPTOTIC`, in mpmath), where lower-order parts are negligible; how late a
term reaches its tabulated rate (e.g. the first term only once ``2T²log(1/γ)`` outgrows ``4Tγ̌_T``) is reported
on the horizons of the experiments (:data:`FINITE`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from tvbo_verify.authoring import Comparison, Context, Evidence, Params, Statement, claim, exact_evidence
from tvbo_verify.theory.schedules import wgpucb_discount

#: exponents of T in the table under Corollary 5 (the same for known and unknown B_T)
TABULATED = (Fraction(3, 4), Fraction(3, 4), Fraction(1, 2), Fraction(0), Fraction(0))
TERMS = ("2β_T √(4λTγ̌_T + 2λmT² log(1/γ))", "(2/λ) c^{3/2} B_T √(4λγ̌_T + 2λmc log(1/γ))",
         "4Bγ^c T/(λ(1 − γ))", "(2/λ) B_T c² √ε_m/(1 − γ)", "2β_T T √ε_m/(1 − γ)")
#: exponents of 10 of the horizons where the asymptotic slopes are measured
ASYMPTOTIC = tuple(range(100, 201, 25))
#: horizons of the experiments, where the finite-T slopes are reported
FINITE = tuple(np.geomspace(1e4, 1e8, 9))
#: agreement of a measured slope with an exponent (lower-order parts are below 1e-40 far out)
SLOPE_TOL = 1e-6
WORKING_DIGITS = 30


def explicit_terms(T: Any, gdot: Any, budget: Any, known: bool, lib: Any = np) -> list[Any]:
    """The five App. C.5 terms at horizon ``T`` with the log factors removed (module docstring), with
    ``lib`` = ``numpy`` (float64) or ``mpmath`` (current precision)."""
    x = gdot ** -0.25 * (lib.sqrt(budget) if known else 1) / lib.sqrt(T)  # 1 − γ (Corollary 5)
    lg = -lib.log1p(-x)  # log(1/γ), without forming γ = 1 − x (x is tiny far out)
    c_full = lib.log(T) / x  # c = log T/(1 − γ): only in γ^c
    c = 1 / x  # c with its log T removed
    root_eps = T ** -1.5 * gdot ** -0.75  # (e/4)^{m̄/2} with m̄ = log_{4/e}(T³ γ̇^{3/2})
    beta = lib.sqrt(gdot)
    return [2 * beta * lib.sqrt(4 * T * gdot + 2 * T * T * lg),
            2 * c ** 1.5 * budget * lib.sqrt(4 * gdot + 2 * c * lg),
            4 * lib.exp(-c_full * lg) * T / x,
            2 * budget * c * c * root_eps / x,
            2 * beta * T * root_eps / x]


def slope(horizons: list[Any], values: list[Any], lib: Any = mpmath) -> Any:
    """Least-squares slope of ``log values`` against ``log horizons``."""
    lx = [lib.log(v) for v in horizons]
    ly = [lib.log(v) for v in values]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def asymptotic_slope(p: Params, known: bool) -> Any:
    """The term's log–log slope in T over T = 10^100 .. 10^200, at the current mpmath precision."""
    horizons = [mpmath.mpf(10) ** k for k in ASYMPTOTIC]
    g, b = mpmath.mpf(p["gdot"]), mpmath.mpf(p["budget"])
    values = [explicit_terms(T, g, b, known, mpmath)[int(p["term"])] for T in horizons]
    return slope(horizons, values)


def finite_slope(p: Params, known: bool) -> float:
    """The term's log–log slope over the experiments' horizons T ∈ [1e4, 1e8] (float64)."""
    values = [explicit_terms(T, p["gdot"], p["budget"], known)[int(p["term"])] for T in FINITE]
    return float(slope(list(FINITE), values, np))


class TermOrders(Statement):
    """One term's log–log slope in T against its exponent in the table under Corollary 5."""

    sharpening = "every tabulated exponent of T lowered by 0.05 (e.g. T^{0.7} for T^{3/4})"
    plot_against = "gdot"

    def __init__(self, known: bool) -> None:
        self.known = known
        which = "known" if known else "unknown"
        super().__init__(name=f"Lemma {22 if known else 23}: explicit terms scale in T as tabulated ({which} B_T)")

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        wgpucb_discount(int(FINITE[0]), p["gdot"], p["budget"] if self.known else None)  # γ in (0, 1) at T = 1e4
        with mpmath.workdps(WORKING_DIGITS):
            measured = float(asymptotic_slope(p, self.known))
        stated = float(TABULATED[int(p["term"])]) - (0.05 if sharpened else 0.0)
        return Comparison(measured, stated, "==", tol=SLOPE_TOL, scale=1.0)

    def hp(self, p: Params) -> Comparison:
        tab = TABULATED[int(p["term"])]
        return Comparison(asymptotic_slope(p, self.known), mpmath.mpf(tab.numerator) / tab.denominator, "==",
                          tol=mpmath.mpf(SLOPE_TOL), scale=1)

    def sample(self, rng: np.random.Generator) -> Params:
        return {"term": int(rng.integers(5)), "gdot": float(10 ** rng.uniform(0, 3)),
                "budget": float(10 ** rng.uniform(0, 2))}

    def describe(self, p: Params) -> dict[str, Any]:
        return {"term": TERMS[int(p["term"])], "tabulated": str(TABULATED[int(p["term"])]), "gdot": p["gdot"],
                **({"B_T": p["budget"]} if self.known else {}),
                "slope on T in [1e4, 1e8]": finite_slope(p, self.known)}


LEMMA_22 = TermOrders(known=True)
LEMMA_23 = TermOrders(known=False)


def conclusion(known: bool) -> dict[str, Any]:
    """The lemma's conclusion from the table: the largest tabulated T-exponent is the claimed 3/4, and the
    Corollary 5 parameters of ``theory.schedules.wgpucb_discount`` at the paper's example (γ̇ = 10, B_T = 5)."""
    choice = wgpucb_discount(10**6, 10.0, 5.0 if known else None)
    return {"max tabulated exponent of T": str(max(TABULATED)), "claimed exponent of T": "3/4",
            "example (T = 1e6, gdot = 10, B_T = 5)": {"discount": choice.discount, "c": choice.c,
                                                      "m_bar": choice.m_bar, "order": choice.regret_order}}


def fixed_instances() -> list[Params]:
    """The example γ̇ = 10, B_T = 5 of READING.md §wgpucb:lemma-22 for every term."""
    return [{"term": i, "gdot": 10.0, "budget": 5.0} for i in range(5)]


@claim("wgpucb:lemma-22")
def lemma_22(ctx: Context) -> Evidence:
    """Lemma 22 (known B_T): with Corollary 5's γ = 1 − γ̇^{-1/4} B_T^{1/2} T^{-1/2} (``wgpucb_discount``, which also
    checks γ ∈ (0, 1)), c = log T/(1 − γ) and m̄ = log_{4/e}(T³γ̇^{3/2}), each of the five App. C.5 terms, log factors
    removed as the proof does, must grow in T at its tabulated rate (T^{3/4}, T^{3/4}, T^{1/2}, 1, 1): its log–log
    slope far out (mpmath) must equal the exponent; the slope at the experiments' horizons is shown. Fixed and
    random (γ̇, B_T). Power: each exponent lowered must be caught. READING.md §wgpucb:lemma-22."""
    ev = exact_evidence(ctx, LEMMA_22, n_random=ctx.pick(40, 200), n_starts=0, extra=fixed_instances(),
                        what="term orders with a known budget")
    ev.stats["conclusion"] = conclusion(True)
    return ev


@claim("wgpucb:lemma-23")
def lemma_23(ctx: Context) -> Evidence:
    """Lemma 23 (unknown B_T): as Lemma 22 with γ = 1 − γ̇^{-1/4} T^{-1/2}; the unknown-budget terms have the same
    exponents of T (γ̇^{7/8}T^{3/4}, γ̇^{7/8}B_T T^{3/4}, γ̇^{1/4}T^{1/2}, B_T, 1), which sum to the claimed
    Õ(γ̇^{7/8} B_T T^{3/4}). Breaks refereed in mpmath. Power: each exponent lowered must be caught.
    READING.md §wgpucb:lemma-23."""
    ev = exact_evidence(ctx, LEMMA_23, n_random=ctx.pick(40, 200), n_starts=0, extra=fixed_instances(),
                        what="term orders with an unknown budget")
    ev.stats["conclusion"] = conclusion(False)
    return ev
