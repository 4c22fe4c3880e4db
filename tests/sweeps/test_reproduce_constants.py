"""Free constants as data: their grids, the one-at-a-time settings, margins, verdicts over the range, the
fairness of the compared arms, and the sensitivity record and figure of a reproduction."""

from __future__ import annotations

import json
import math

import pytest

from tvbo_verify.papers.wgpucb import reproductions as rw
from tvbo_verify.sequential import SequentialDesign
from tvbo_verify.sweeps import RunCache
from tvbo_verify.sweeps.reproduce import Finding, get_reproduction, measure, run_reproduction
from tvbo_verify.sweeps.reproduce.constants import (
    CONFIRMED,
    INCONCLUSIVE,
    VIOLATED,
    FreeConstant,
    Part,
    all_of,
    any_of,
    ordering_part,
    over_range,
    range_statement,
    set_noise_variance,
    set_param,
    settings,
    slope_part,
    undeclared_differences,
)
from tvbo_verify.sweeps.reproduce.registry import Reproduction
from tvbo_verify.sweeps.reproduce.sequential import SequentialPart
from tvbo_verify.sweeps.spec import Arm, Sweep

FIGURES = ("sparq:figure-1", "wgpucb:figure-1", "wgpucb:figures-2-3")


def scale_constant(**kw) -> FreeConstant:
    base = dict(name="memory scale", symbol="s", paper=1.0, values=(0.25, 0.5, 1.0, 2.0, 4.0),
                quick=(0.25, 1.0, 4.0), source="test", arms=("SW",), own=True, set_arm=set_param("memory_scale"))
    return FreeConstant(**{**base, **kw})


def test_a_constant_holds_the_papers_setting_and_a_valid_grid():
    c = scale_constant()
    assert c.grid("quick") == (0.25, 1.0, 4.0) and c.grid("full")[2] == 1.0
    with pytest.raises(ValueError, match="paper's setting 3"):
        scale_constant(paper=3.0)
    with pytest.raises(ValueError, match="positive numbers"):
        scale_constant(values=(0.0, 1.0), quick=(0.0, 1.0))
    with pytest.raises(ValueError, match="at least 2 distinct"):
        scale_constant(quick=(1.0,))
    with pytest.raises(ValueError, match="must name the arms"):
        scale_constant(arms=())
    with pytest.raises(ValueError, match="fidelity"):
        c.grid("medium")


def test_settings_are_one_at_a_time_without_the_papers_value():
    lam = FreeConstant("noise variance", "λ", 1.0, (0.01, 0.1, 1.0), (0.01, 1.0), "test", set_arm=set_noise_variance)
    chosen = settings([scale_constant(), lam], "quick")
    assert [(c.name, v) for c, v in chosen] == [("memory scale", 0.25), ("memory scale", 4.0), ("noise variance", 0.01)]
    with pytest.raises(ValueError, match="distinct names"):
        settings([lam, lam], "quick")


def test_shared_constants_reach_every_gp_arm_and_own_ones_only_their_method():
    from tvbo_verify.bandits.beta import kirschner_krause

    arms = (Arm("SW", "sw-gp-ucb", {"window": "theory", "memory_scale": 1.0, "lam": 1.0},
                kirschner_krause(B="env", R=0.1, lam=1.0)),
            Arm("IGP", "gp-ucb", {"lam": 1.0}, kirschner_krause(B="env", R=0.1, lam=1.0)),
            Arm("random", "random", {}, None))
    sweep = Sweep("t", arms, "wgpucb-paper", (5,), 1)
    own = scale_constant().apply(sweep, 4.0)
    assert own.arm("SW").params["memory_scale"] == 4.0 and "memory_scale" not in own.arm("IGP").params
    lam = FreeConstant("noise variance", "λ", 1.0, (0.01, 1.0), (0.01, 1.0), "test", set_arm=set_noise_variance)
    shared = lam.apply(sweep, 0.01)
    for label in ("SW", "IGP"):
        assert shared.arm(label).params["lam"] == 0.01 and shared.arm(label).beta.params["lam"] == 0.01
    assert shared.arm("random").params == {}


def test_parts_decide_by_their_interval_and_agree_with_the_paired_difference():
    comp = {"a": "A", "b": "B", "difference": {"mean": -2.0, "ci95": [-3.0, -1.0]}, "mean_a": 8.0, "mean_b": 10.0}
    below = ordering_part("A below B", comp)
    assert below.margin == pytest.approx(0.2) and below.ci95 == pytest.approx((0.1, 0.3)) and below.verdict == CONFIRMED
    assert ordering_part("A above B", comp, above=True).verdict == VIOLATED
    undecided = {**comp, "difference": {"mean": 0.5, "ci95": [-1.0, 2.0]}}
    assert ordering_part("A below B", undecided).verdict == INCONCLUSIVE
    slope = {"slope": 1.2, "ci95": [1.1, 1.3]}
    assert slope_part("grows", slope, below=False).verdict == CONFIRMED
    assert slope_part("sublinear", slope, below=True).verdict == VIOLATED
    good, bad, open_ = Part("g", 1.0, (0.5, 1.5)), Part("b", -1.0, (-1.5, -0.5)), Part("o", 0.0, (-1.0, 1.0))
    assert all_of("f", [good, open_]).verdict == INCONCLUSIVE and all_of("f", [good, bad]).verdict == VIOLATED
    assert all_of("f", [good, good]).verdict == CONFIRMED
    assert any_of("f", [bad, good]).verdict == CONFIRMED and any_of("f", [bad, open_]).verdict == INCONCLUSIVE
    assert any_of("f", [bad, bad]).verdict == VIOLATED


def test_the_verdict_over_the_range_and_the_statement_of_where_it_holds():
    assert over_range([CONFIRMED, CONFIRMED]) == CONFIRMED and over_range([VIOLATED, VIOLATED]) == VIOLATED
    assert over_range([CONFIRMED, VIOLATED]) == INCONCLUSIVE and over_range([]) == INCONCLUSIVE
    c = scale_constant()
    vals = c.grid("full")
    text = range_statement(c, vals, [VIOLATED, VIOLATED, INCONCLUSIVE, CONFIRMED, CONFIRMED])
    assert text == "fails for s ≤ 0.5, undecided at s = 1, holds for s ≥ 2"
    assert range_statement(c, vals, [CONFIRMED] * 5) == "holds over the whole range s ∈ [0.25, 4]"
    assert range_statement(c, vals, [CONFIRMED, VIOLATED, VIOLATED, VIOLATED, CONFIRMED]) == (
        "holds for s ≤ 0.25, fails for s ∈ [0.5, 2], holds for s ≥ 4")
    cat = FreeConstant("fit data", "data", "a", ("a", "b", "c"), ("a", "b", "c"), "test", set_arm=set_param("x"),
                       scale="categorical")
    assert range_statement(cat, ("a", "b", "c"), [CONFIRMED, VIOLATED, CONFIRMED]) == (
        "holds for data = a and c, fails for data = b")


@pytest.mark.parametrize("rep_id", FIGURES)
def test_the_arms_of_a_figure_differ_only_in_what_the_paper_says_differs(rep_id):
    rep = get_reproduction(rep_id)
    assert rep.constants and rep.parts is not None
    for fidelity in ("quick", "full"):
        for constant, value, plan in rep.plans(fidelity):
            for sweep in plan.values():
                assert set(rep.own) == {a.label for a in sweep.arms if a.algorithm != "random"}
                assert undeclared_differences(sweep, rep.own) == [], (constant and constant.name, value)


def test_an_undeclared_difference_and_a_different_shared_constant_are_caught():
    sweep = rw.preset_sweep("wgpucb:figure-1b", 2)
    assert undeclared_differences(sweep, rw.OWN) == []
    unfair = Sweep(sweep.name, tuple(Arm(a.label, a.algorithm, {k: v for k, v in a.params.items() if k != "lam"},
                                         a.beta) if a.label == rw.IGP else a for a in sweep.arms),
                   sweep.environment, sweep.horizons, sweep.reps, sweep.env_params)
    problems = undeclared_differences(unfair, rw.OWN)
    assert any("shared constant lam differs" in p for p in problems)
    assert any(f"{rw.IGP}'s width takes λ = 1.0, its posterior" in p for p in problems)
    no_own = {**rw.OWN, rw.WGP: ("memory_scale", "beta")}
    assert any("differ in discount" in p for p in undeclared_differences(sweep, no_own))


def test_every_figure_declares_each_methods_own_constants_on_the_same_grid():
    for rep_id in FIGURES:
        rep = get_reproduction(rep_id)
        own = [c for c in rep.constants if c.own]
        assert len(own) >= 3 and len({(c.values, c.quick) for c in own}) == 1
        assert all(c.source for c in rep.constants)
        shared = [c for c in rep.constants if not c.own]
        assert shared and all(c.paper in c.quick for c in shared)


# ------------------------------------------------------------------------ a small reproduction, measured
def tiny_reproduction(parts, sequential=()) -> Reproduction:  # noqa: ANN001 - Finding -> parts
    env = {"scenario": "slow", "M": 5, "grid_points": 15, "lengthscale": 0.2, "noise_var": 0.01}
    arms = rw.preset_arms("wgpucb:figure-1b", env, 12)
    sweeps = {"slow": Sweep("tiny", arms, "wgpucb-paper", (12,), 3, env_params=env)}

    def analyse(results, rng):
        res = results["slow"]
        s = res.sweep.arm(rw.WGP).params["memory_scale"]
        return Finding(f"s = {s}", {"s": s, "final": float(res.final(rw.WGP).mean())})

    def figure(results, finding):
        import matplotlib.pyplot as plt

        return plt.figure()

    memory = rw.SYNTHETIC_CONSTANTS[0]
    return Reproduction(id="wgpucb:figure-1", paper="wgpucb", title="tiny", setup="tiny", expected="tiny",
                        sweeps=lambda fidelity: sweeps, analyse=analyse, figure=figure,
                        constants=(memory, rw.SYNTHETIC_CONSTANTS[3]), parts=parts, own=rw.OWN,
                        sequential=sequential)


def log_scale_part(finding: Finding) -> list[Part]:
    m = math.log(finding.data["s"])
    return [Part("log s", m, (m - 0.1, m + 0.1))]


def test_measure_records_the_finding_at_every_setting_and_the_figure_is_written(tmp_path):
    rep = tiny_reproduction(log_scale_part)
    out = run_reproduction(rep, tmp_path, cache=RunCache(tmp_path / "cache"))
    record = out.sensitivity
    assert record["settings"] == 4 and record["verdict"] == INCONCLUSIVE
    memory = record["constants"][0]
    assert memory["values"] == [0.25, 1.0, 4.0] and memory["paper"] == 1.0
    assert memory["verdict"] == [VIOLATED, INCONCLUSIVE, CONFIRMED]
    assert memory["margin"] == pytest.approx([math.log(0.25), 0.0, math.log(4.0)])
    assert memory["ci95"][2] == pytest.approx([math.log(4) - 0.1, math.log(4) + 0.1])
    assert memory["parts"]["log s"]["verdict"] == memory["verdict"]
    s = f"s[{rw.WGP}]"
    assert memory["statement"] == f"fails for {s} ≤ 0.25, undecided at {s} = 1, holds for {s} ≥ 4"
    assert memory["resolved"][0].startswith("γ = ") and memory["resolved"][0] != memory["resolved"][2]
    assert record["constants"][1]["verdict"] == [INCONCLUSIVE, INCONCLUSIVE]  # λ does not move s
    saved = json.loads((tmp_path / "wgpucb_figure-1.json").read_text())
    assert saved["sensitivity"]["statement"] == record["statement"]
    assert (tmp_path / "wgpucb_figure-1-sensitivity.png").stat().st_size > 0
    assert (tmp_path / "wgpucb_figure-1-sensitivity.svg").read_text().lstrip().startswith("<?xml")


def test_the_run_seed_changes_the_runs_not_only_the_bootstrap(tmp_path):
    rep = tiny_reproduction(log_scale_part)
    cache = RunCache(tmp_path)
    a = measure(rep, cache=cache, seed=0)
    b = measure(rep, cache=cache, seed=1)
    assert a.results["slow"].sweep.seed == 0 and b.results["slow"].sweep.seed == 1
    assert a.finding.data["final"] != b.finding.data["final"]
    assert a.sensitivity is None  # measured without it unless asked


def test_a_sequential_part_gathers_runs_of_its_arms_until_it_decides(tmp_path):
    # the part's interval narrows as 1/n: undecided at 3 runs, decided at 6 where no other part fails
    def shrinking(results, rng, level):
        res = results["slow"]
        assert [a.label for a in res.sweep.arms] == [rw.WGP]  # only the part's arm is rerun
        n = res.sweep.reps
        assert len(res.runs(rw.WGP)) == n
        return Part("narrowing", 0.2, (0.2 - 1.0 / n, 0.2 + 1.0 / n))

    def parts(finding):
        m = math.log(finding.data["s"])
        return [Part("log s", m, (m - 0.1, m + 0.1)), Part("narrowing", 0.2, (-1.0, 1.0))]

    part = SequentialPart("narrowing", (rw.WGP,), shrinking,
                          {"quick": SequentialDesign(3, 12), "full": SequentialDesign(3, 12)})
    out = measure(tiny_reproduction(parts, (part,)), cache=RunCache(tmp_path), sensitivity=True)
    looks = out.sensitivity["sequential"]["narrowing"]
    s = f"s[{rw.WGP}]"
    assert f"{s} = 0.25" not in looks  # "log s" already fails there: no runs gathered
    at_paper = looks["the paper's setting"]
    assert [lk["n"] for lk in at_paper["looks"]] == [3, 6] and at_paper["verdict"] == CONFIRMED
    assert out.sensitivity["paper"]["parts"][1]["ci95"] == pytest.approx([0.2 - 1 / 6, 0.2 + 1 / 6])


def test_a_reproduction_with_constants_needs_parts():
    with pytest.raises(ValueError, match="no parts"):
        tiny_reproduction(None)


def test_sensitivity_evidence_is_violated_only_when_the_finding_fails_everywhere(tmp_path, monkeypatch):
    from tvbo_verify.verify.builders import Property
    from tvbo_verify.verify.builders import sensitivity as builder
    from tvbo_verify.verify.engine import Context
    from tvbo_verify.verify.evidence import Verdict

    def decide_from(parts):
        return lambda f: [Property(p.name, Verdict(p.verdict)) for p in parts(f)]

    always_fails = lambda f: [Part("fails", -1.0, (-1.5, -0.5))]  # noqa: E731
    for parts, expected in ((log_scale_part, Verdict.INCONCLUSIVE), (always_fails, Verdict.VIOLATED)):
        rep = tiny_reproduction(parts)
        monkeypatch.setattr(builder, "get_reproduction", lambda _id, rep=rep: rep)
        ctx = Context("wgpucb:figure-1", cache=RunCache(tmp_path))
        ev = builder.sensitivity_evidence(ctx, "wgpucb:figure-1", decide_from(parts), what="tiny")
        assert ev.verdict is expected
        assert ev.stats["sensitivity"]["verdict"] == expected.value
        assert ev.stats["verdict_at_paper_setting"] == ("inconclusive" if parts is log_scale_part else "violated")
        assert "sensitivity" in ev.figures[-1][0]
        assert (ev.counterexample is not None) == (expected is Verdict.VIOLATED)
    rep = tiny_reproduction(log_scale_part)
    monkeypatch.setattr(builder, "get_reproduction", lambda _id: rep)
    with pytest.raises(RuntimeError, match="parts decide"):
        builder.sensitivity_evidence(Context("wgpucb:figure-1", cache=RunCache(tmp_path)), "wgpucb:figure-1",
                                     lambda f: [Property("x", Verdict.CONFIRMED)], what="tiny")


def test_sensitivity_evidence_is_not_confirmed_when_the_papers_setting_lacks_a_failed_control(tmp_path, monkeypatch):
    """A finding that holds at every setting is still undecided when, at the paper's setting, an ordering has
    no negative control that came out violated (the rule of the experiment builder binds the range too)."""
    from tvbo_verify.verify.builders import Property
    from tvbo_verify.verify.builders import sensitivity as builder
    from tvbo_verify.verify.engine import Context
    from tvbo_verify.verify.evidence import Verdict

    holds = lambda f: [Part("holds", 1.0, (0.5, 1.5))]  # noqa: E731
    rep = tiny_reproduction(holds)
    monkeypatch.setattr(builder, "get_reproduction", lambda _id: rep)
    ctx = Context("wgpucb:figure-1", cache=RunCache(tmp_path))
    plain = builder.sensitivity_evidence(ctx, "wgpucb:figure-1", lambda f: [Property("holds", Verdict.CONFIRMED)],
                                         what="tiny")
    assert plain.verdict is Verdict.CONFIRMED
    uncontrolled = builder.sensitivity_evidence(
        ctx, "wgpucb:figure-1", lambda f: [Property("holds", Verdict.CONFIRMED, needs_control=True)], what="tiny")
    assert uncontrolled.verdict is Verdict.INCONCLUSIVE and "Not confirmed" in uncontrolled.summary
