"""Helpers of ``claims/wsparq/experiments.py``: the sublinearity rule, analogue-data properties."""

from __future__ import annotations

from tvbo_verify.verify.claims.wsparq import experiments as ex
from tvbo_verify.verify.evidence import Verdict


def slope(lo: float, hi: float) -> dict:
    return {"slope": (lo + hi) / 2, "ci95": [lo, hi], "from_t": 125.0}


def test_sublinear_property_reads_the_interval():
    assert ex.sublinear_property("s", slope(0.6, 0.9)).verdict is Verdict.CONFIRMED
    assert ex.sublinear_property("s", slope(1.02, 1.1)).verdict is Verdict.VIOLATED
    assert ex.sublinear_property("s", slope(0.95, 1.05)).verdict is Verdict.INCONCLUSIVE




def comparison(a: str, b: str, lo: float, hi: float) -> dict:
    return {"a": a, "b": b, "difference": {"mean": (lo + hi) / 2, "ci95": [lo, hi]}, "ratio": 0.5,
            "ratio_ci95": [0.4, 0.6]}


def finding(random_below: bool):
    from tvbo_verify.sweeps.reproduce import Finding
    from tvbo_verify.sweeps.reproduce import wsparq as rw

    labels = {algo: rw.LABELS[algo] for algo in ("w-sparq-gp-ucb", "sparq-gp-ucb", *ex.BASELINES)}
    comps = {}
    for lab in (rw.SPARQ, labels["w-sparq-gp-ucb"]):
        for b in ex.BASELINES:
            comps[f"{lab} vs {labels[b]}"] = comparison(lab, labels[b], -5.0, -1.0)
    comps[f"{rw.SPARQ} vs {labels['w-sparq-gp-ucb']}"] = comparison(rw.SPARQ, labels["w-sparq-gp-ucb"], -3.0, -1.0)
    for b in [labels[b] for b in ex.BASELINES] + [labels["w-sparq-gp-ucb"]]:
        comps[rw.control_key(b)] = comparison(rw.RANDOM, b, -4.0, -2.0) if random_below else \
            comparison(rw.RANDOM, b, 2.0, 4.0)
    slopes = {lab: slope(0.6, 0.9) for lab in labels.values()}
    return Finding("stub", {"labels": labels, "comparisons": comps, "within_run_slopes": slopes,
                            "expert_queries": {rw.SPARQ: 100.0, labels["w-sparq-gp-ucb"]: 10.0}})


def test_every_ordering_carries_the_uniform_random_control():
    props = [p.controlled() for p in ex.paper_properties(finding(random_below=False))]
    orderings = [p for p in props if p.needs_control]
    assert len(orderings) == 11 and all(len(p.controls) == 1 for p in orderings)
    assert all(p.verdict is Verdict.CONFIRMED for p in orderings)
    # a comparison that also puts uniform random play below the baselines cannot establish an ordering
    blind = [p.controlled() for p in ex.paper_properties(finding(random_below=True)) if p.needs_control]
    assert all(p.verdict is Verdict.INCONCLUSIVE for p in blind)


def test_refuted_findings_carry_the_power_of_a_weakened_statement():
    from tvbo_verify.verify.builders import ordering_property

    refuted = ex.sublinear_property("s", slope(1.02, 1.1))
    assert refuted.verdict is Verdict.VIOLATED and refuted.power.caught
    assert not ex.sublinear_property("s", slope(1.25, 1.3)).power.caught  # t^1.2 refuted too: no power
    behind = comparison("a", "b", 0.5, 7.0)
    behind["ratio_ci95"] = [1.01, 1.04]
    prop = ordering_property("a below b", behind)
    assert prop.verdict is Verdict.VIOLATED and prop.power.caught and "weakened" in prop.power.sharpening
    far_behind = comparison("a", "b", 50.0, 70.0)
    far_behind["ratio_ci95"] = [3.5, 4.0]
    assert not ordering_property("a below b", far_behind).power.caught
