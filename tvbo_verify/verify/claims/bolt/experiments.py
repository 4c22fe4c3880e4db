"""``bolt`` Figures 1–2 and Tables 1–3, decided from their reproductions (``sweeps/reproduce/bolt.py``).

==============  ==============================================================================================
claim           paper
==============  ==============================================================================================
``figure-1``    Figure 1 (§3.1): the regret floor ε_c of (4)–(5) against the sampling frequency 1/c
``figure-2``    Figure 2 (§3.3): n* of (9) against kernel smoothness and the growth of R(n)
``table-1``     Table 1 (§2): the guarantees of TVBO algorithms, BOLT's row (linear lower and upper bound)
``table-2``     Table 2 (§5.1): noise variances "1% of the signal variance" and costs of the benchmarks
``table-3``     Table 3 (§5.2): normalised average regret of seven algorithms, on ``bolt-st`` analogues
==============  ==============================================================================================
"""

from __future__ import annotations

from typing import Any

from ....sweeps.reproduce import Finding
from ...builders import Property, experiment_evidence
from ...comparison import Comparison
from ...engine import Context
from ...evidence import Evidence, Power, Verdict
from ...registry import claim


def trend_property(name: str, trend: dict[str, Any], *, sharpened_slope: float = -1.0) -> Property:
    """"Decreasing in x": established when the bootstrap interval of the log–log slope lies below 0,
    contradicted above 0. Power: the stronger "at least as fast as x^sharpened_slope" must be refuted by the
    interval's lower end."""
    lo, hi = trend["ci95"]
    verdict = Verdict.CONFIRMED if hi < 0 else Verdict.VIOLATED if lo > 0 else Verdict.INCONCLUSIVE
    caught = lo > sharpened_slope and verdict is not Verdict.VIOLATED
    return Property(name, verdict, detail=f"log–log slope {trend['slope']:.3g} (95% CI {lo:.3g}..{hi:.3g})",
                    power=Power(f"slope <= {sharpened_slope:g} (decrease at least like x^{sharpened_slope:g})", caught,
                                f"CI lower end {lo:.3g} {'>' if caught else '<='} {sharpened_slope:g}"))


# ------------------------------------------------------------------------------------------ Figure 1
LOG_TWO = 0.6931471805599453


def figure_1_properties(finding: Finding) -> list[Property]:
    data = finding.data
    props = [Property.compare(f"{k}: ε_c decreases as 1/c grows (flattest log–log slope over 0.01–10 Hz below 0)",
                              Comparison(slope, 0.0, "<="), sharpened=Comparison(slope, -1.0, "<="),
                              detail=f"flattest slope {slope:.4g}")
             for k, slope in data["flattest_slope"].items()]
    props += [Property.compare(f"ε_c({pair.replace(' > ', ') > ε_c(')}) at every frequency",
                               Comparison(gap, 0.0, ">="), sharpened=Comparison(gap, LOG_TWO, ">="),
                               detail=f"smallest log ε_c gap {gap:.4g}")
              for pair, gap in data["smallest_gap"].items()]
    props += [trend_property(f"{k}: the measured regret floor of FIFO GP-UCB decreases with 1/c", t)
              for k, t in data["floor_trend"].items()]
    return props


@claim("bolt:figure-1")
def figure_1(ctx: Context) -> Evidence:
    """Reproduces Figure 1 (``tvbo-verify reproduce bolt:figure-1``). Closed form: ε_c of (4)–(5)
    (``theory.lower_bounds.bolt_regret_floor``, log space at 50 digits) on the paper's instance d = 4,
    L = l_S = l_T = λ = 1 with k_S = RBF (the paper does not state k_S), for Matérn-1/2, 3/2, 5/2, RBF and RQ
    k_T at 31 frequencies from 0.01 to 10 Hz. Properties: for every kernel the flattest log–log slope of ε_c
    against 1/c is below 0 (decreasing); at every frequency log ε_c(Matérn-1/2) > (3/2) > (5/2) > (RBF)
    (smallest gap above 0). Runs: FIFO GP-UCB keeping the 20 most recent observations on ``bolt-st`` (d = 1,
    l_T = 1 s, constant sampling period c) at 1/c ∈ {0.5, 2, 8} Hz; the steady per-step regret (second half of
    each run) must decrease with 1/c for every Matérn/RBF k_T: the bootstrap interval of its log–log slope
    against 1/c lies below 0 (quick: T = 100 × 4 repetitions; full: T = 200 × 20). Power: ε_c falling at least
    like c (slope <= −1 everywhere), a rougher kernel's floor at least twice a smoother one's at every
    frequency, and the measured floor falling at least like c, must be caught."""
    return experiment_evidence(ctx, "bolt:figure-1", figure_1_properties,
                               what="regret floor against the sampling frequency (Fig. 1)")
