"""Helpers of ``claims/wsparq/experiments.py``: the sublinearity rule, analogue-data properties."""

from __future__ import annotations

from tvbo_verify.papers.wsparq.checks import experiments as ex
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
    from tvbo_verify.papers.wsparq import reproductions as rw
    from tvbo_verify.sweeps.reproduce import Finding

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


def measured(random_below: bool, alpha: float = 1.0):
    """The stub finding with the tuned W-SparQ variant's label and the means the parts scale by."""
    from tvbo_verify.papers.wsparq import reproductions as rw
    from tvbo_verify.sweeps.reproduce import Finding

    base = finding(random_below)
    old = base.data["labels"]["w-sparq-gp-ucb"]
    new = rw.variant_label("w-sparq-gp-ucb", alpha)

    def rename(text: str) -> str:
        return text.replace(old, new)

    comps = {rename(k): {**c, "a": rename(c["a"]), "b": rename(c["b"]), "mean_a": 8.0, "mean_b": 10.0}
             for k, c in base.data["comparisons"].items()}
    data = {**base.data, "labels": {**base.data["labels"], "w-sparq-gp-ucb": new}, "comparisons": comps,
            "within_run_slopes": {rename(k): v for k, v in base.data["within_run_slopes"].items()},
            "expert_queries": {rename(k): v for k, v in base.data["expert_queries"].items()}}
    return Finding("stub", data)


def test_the_parts_decide_as_the_claims_properties_and_are_named_by_method():
    from tvbo_verify.papers.wsparq import reproductions as rw
    from tvbo_verify.sweeps.reproduce.constants import all_of
    from tvbo_verify.verify.builders.common import combine

    for random_below, expected in ((False, Verdict.CONFIRMED), (True, Verdict.INCONCLUSIVE)):
        f = measured(random_below)
        props = combine(p.controlled().verdict for p in ex.paper_properties(f))
        assert props is expected and Verdict(all_of("finding", rw.figure_2_parts(f)).verdict) is expected
    # the tuned variant changes between settings; the parts keep their names
    names = [p.name for p in rw.figure_2_parts(measured(False, 0.5))]
    assert names == [p.name for p in rw.figure_2_parts(measured(False, 2.0))] and len(names) == 14
    assert not any("α =" in n for n in names)


def test_figure_2_is_decided_over_the_range_with_the_sensitivity_record(tmp_path, monkeypatch):
    """The claim goes through the sensitivity builder: a finding that holds at the paper's setting but fails at
    another setting is undecided over the range, and the record is in the evidence's statistics."""
    from tvbo_verify.papers.wsparq import reproductions as rw
    from tvbo_verify.sweeps import RunCache, reproduce
    from tvbo_verify.sweeps.reproduce import get_reproduction
    from tvbo_verify.sweeps.reproduce.constants import Part, sensitivity_record
    from tvbo_verify.sweeps.reproduce.registry import Outcome
    from tvbo_verify.verify.engine import Context

    rep = get_reproduction("wsparq:figure-2")
    f = measured(random_below=False)
    paper = rw.figure_2_parts(f)
    fails = [Part(p.name, -0.5, (-0.6, -0.4)) if i == 0 else p for i, p in enumerate(paper)]
    settings = [(c, v) for c in rep.constants for v in c.grid("quick") if v != c.paper]
    for broken_at, expected in ((None, Verdict.CONFIRMED), (settings[0], Verdict.INCONCLUSIVE)):
        findings = {(c.name, v): (fails if (c, v) == broken_at else paper) for c, v in settings}
        record = sensitivity_record(rep.constants, "quick", paper, findings, {}, runs=1)

        def fake(*args, record=record, **kw):
            return Outcome(rep, "quick", f, {}, 0.0, sensitivity=record)

        monkeypatch.setattr(reproduce, "measure", fake)  # what the builders measure a reproduction with
        ev = ex.figure_2(Context("wsparq:figure-2", cache=RunCache(tmp_path)))
        assert ev.verdict is expected and ev.stats["verdict_at_paper_setting"] == "confirmed"
        assert ev.stats["sensitivity"]["settings"] == 1 + len(settings) == 7
        assert {c["symbol"] for c in ev.stats["sensitivity"]["constants"]} == {"c_β", "B/‖f‖", "δ", "σ²", "n"}
        assert "sensitivity" in ev.figures[-1][0]
    assert "fails for c_β ≤ 0.25" in ev.summary
