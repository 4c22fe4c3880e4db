"""The "theory versus practice" panel: quantities the theory prescribes next to what experiments use.

Computed by calling the theory layer (``tvbo_verify.theory.schedules``) and the confidence widths
(``tvbo_verify.confidence``); when one of them is unavailable the panel shows a visible note instead.
"""

from __future__ import annotations

import math
from typing import Any

#: Worked example of ``sparq`` §2 (Proposition 2): d = 1, D = [-50, 50], M_k² = 0.5, ℓ = 3, σ² = 0.01.
SPARQ_EXAMPLE = {"lengthscale": 3.0, "signal_variance": 0.5, "domain_diameter": 100.0, "noise_var": 0.01, "eta": 0.1}
HORIZONS = (100, 500, 1000, 5000)


def _queries_table() -> dict[str, Any]:
    from ..theory import schedules as sch

    ex = SPARQ_EXAMPLE
    const = sch.theory_query_constants(ex["lengthscale"], ex["signal_variance"], ex["domain_diameter"], d=1)
    rows = []
    for T in HORIZONS:
        q_theory = sch.theory_queries(T, ex["eta"], ex["noise_var"], const)
        q_exp = 6.0 * math.log(T)
        rows.append([T, round(q_theory, 1), round(q_exp, 1), round(q_theory / q_exp, 2),
                     "vacuous (Q_T ≥ T)" if q_theory >= T else "Q_T < T"])
    return {
        "title": "Expert-query budget: SparQ theory Q_T (eq. 57) versus the experiments' 6·log T",
        "caption": (f"SE kernel, ℓ = {ex['lengthscale']:g}, M_k² = {ex['signal_variance']:g}, D = [−50, 50], "
                    f"σ² = {ex['noise_var']:g}, η = {ex['eta']:g}; natural logarithm."),
        "header": ["T", "theory Q_T", "6·log T", "ratio", "theory regime"],
        "rows": rows,
    }


BETA_TIMES = (10, 100, 500, 1000, 5000)


def _beta_table() -> dict[str, Any]:
    """Factor multiplying σ in the UCB: theoretical β_t against the conventions used in experiments."""
    from .. import confidence as conf

    c1, c2 = conf.TVGPUCB_PRACTICAL_CONSTANTS["synthetic"]
    rows = []
    for t in BETA_TIMES:
        theory_tv = conf.ucb_multiplier(conf.beta_tvgpucb(t, 1, 1.0, 1.0, 1.0, 0.1), "sqrt")
        practice_tv = conf.ucb_multiplier(conf.beta_tvgpucb_practical(t, c1, c2), "sqrt")
        theory_bolt = conf.ucb_multiplier(conf.beta_bolt_corrected(t, 1, 1.0, 0.1), "sqrt")
        practice_wdbo = conf.ucb_multiplier(conf.beta_wdbo_practical(t, 1), "sqrt")
        values = (theory_tv, practice_tv, theory_tv / practice_tv, theory_bolt, practice_wdbo)
        rows.append([t, *(round(float(v), 2) for v in values)])
    return {
        "title": "Exploration weight: the factor multiplying σ_{t−1}(x) in the UCB, theory versus practice",
        "caption": ("TV-GP-UCB theory: √β_t of eq. (19) with d = r = a = b = 1, δ = 0.1; practice: "
                    f"√(c₁ log(c₂ t)) with c₁ = {c1:g}, c₂ = {c2:g} (synthetic experiments). "
                    "BOLT theory: √β of Lemma D.1 (corrected) with d = 1, L = 1, δ = 0.1; "
                    "practice: the W-DBO code's √β. Computed by tvbo_verify.confidence."),
        "header": ["t", "TV-GP-UCB theory", "TV-GP-UCB practice", "ratio", "BOLT theory", "W-DBO practice"],
        "rows": rows,
    }


def _horizons_table(claims: list[dict[str, Any]]) -> dict[str, Any]:
    """Where each regret bound says something: the non-vacuity horizon its check computed (``stats``)."""
    rows = []
    for c in claims:
        h = (c.get("stats") or {}).get("non_vacuity_horizon")
        if not isinstance(h, dict):
            continue
        instance = ", ".join(f"{k} = {v}" for k, v in (h.get("instance") or {}).items())
        horizon = f"T ≥ {h['horizon']:,}" if h.get("horizon") else f"vacuous up to T = {h.get('searched_to', 0):.0e}"
        cost = h.get("cpu_seconds_to_reach")
        rows.append([c["id"], c.get("verdict", ""), horizon, instance, h.get("dominant", ""),
                     f"{h.get('runs_reach', 0):,.0f}", "" if cost is None else f"{cost / 3600:.3g} h"])
    if not rows:
        raise ValueError("no claim of this report computed a non-vacuity horizon")
    return {
        "title": "Where the regret bounds say something: the non-vacuity horizon of each bound",
        "caption": ("The smallest T from which the bound, with every constant as printed, is below the most regret any "
                    "policy could incur, on the admissible instance where that happens earliest; every information "
                    "gain is replaced by an upper bound, so the horizon errs late, never early."),
        "header": ["claim", "verdict", "the bound says something", "earliest instance", "dominant term there",
                   "runs reach T", "one run there"],
        "rows": rows,
    }


def theory_vs_practice(claims: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Tables and notes of the panel, with the non-vacuity horizons of the claims of a report (``claims``, the
    records of ``results.json``); never raises (missing pieces become notes)."""
    tables, notes = [], []
    builds = [("β_t", _beta_table), ("expert-query budgets", _queries_table)]
    if claims:
        builds.append(("non-vacuity horizons", lambda: _horizons_table(claims)))
    for name, build in builds:
        try:
            tables.append(build())
        except Exception as exc:  # the panel degrades, the report still renders
            notes.append(f"{name}: not available in this build ({type(exc).__name__}: {exc}).")
    return {"tables": tables, "notes": notes}
