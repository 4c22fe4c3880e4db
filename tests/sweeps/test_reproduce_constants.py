"""Free constants as data: their grids, the one-at-a-time settings, margins, verdicts over the range, the
fairness of the compared arms, and the sensitivity record and figure of a reproduction."""

from __future__ import annotations

import json
import math
import warnings
from dataclasses import fields, replace

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


def test_every_figure_varies_the_memory_scale_jointly_and_sweeps_no_methods_own_constant():
    for rep_id in FIGURES:
        rep = get_reproduction(rep_id)
        assert not any(c.own for c in rep.constants) and not rep.tuned
        memory = [c for c in rep.constants if c.set_arm is not None and c.set_arm(Arm("x", "x"), 2.0).params
                  == {"memory_scale": 2.0}]
        assert len(memory) == 1 and len(memory[0].arms) == 3, rep_id  # one memory scale for R-, SW- and W-GP-UCB
        assert all(c.source for c in rep.constants)
        assert all(c.paper in c.quick for c in rep.constants)


# ------------------------------------------------------------------- fairness: refused settings, tuning
def fair_sweep() -> Sweep:
    return rw.preset_sweep("wgpucb:figure-1b", 2)


def test_a_setting_that_gives_one_method_its_own_memory_is_refused(tmp_path):
    """The old design of wgpucb:figure-1: WGP-UCB alone gets four times the memory while R- and SW-GP-UCB keep
    theirs. Swept as WGP-UCB's own constant it is refused when the reproduction is declared; declared shared but
    set for WGP-UCB alone, every plan is refused."""
    from tvbo_verify.sweeps.reproduce.constants import UnfairSetting

    alone_own = FreeConstant("memory scale of WGP-UCB's discount", "s[WGP]", 1.0, (0.25, 1.0, 4.0), (0.25, 1.0, 4.0),
                             "test", arms=(rw.WGP,), own=True, set_arm=set_param("memory_scale"))
    old_own = {**rw.OWN, rw.WGP: ("discount", "memory_scale", "beta")}
    with pytest.raises(UnfairSetting, match="sweeps a method's own constant alone"):
        tiny_reproduction(log_scale_part, constants=(alone_own,), own=old_own)
    alone_shared = FreeConstant("memory scale of WGP-UCB's discount", "s[WGP]", 1.0, (0.25, 1.0, 4.0),
                                (0.25, 1.0, 4.0), "test", arms=(rw.WGP,), set_arm=set_param("memory_scale"))
    for own in (rw.OWN, old_own):
        rep = tiny_reproduction(log_scale_part, constants=(alone_shared,), own=own)
        with pytest.raises(UnfairSetting, match="shared convention memory_scale is set for WGP-UCB only"):
            rep.plans("quick")
        with pytest.raises(UnfairSetting):
            measure(rep, cache=RunCache(tmp_path), sensitivity=True)
    joint = tiny_reproduction(log_scale_part)  # the memory scale of all three order-wise rules at once
    assert len(joint.plans("quick")) == 4


def test_a_shared_convention_set_for_one_method_or_declared_its_own_is_refused():
    from tvbo_verify.sweeps.reproduce.constants import UnfairSetting, check_fair

    base = {"slow": fair_sweep()}
    lam_one = FreeConstant("λ of IGP-UCB", "λ", 1.0, (0.01, 1.0), (0.01, 1.0), "test", arms=(rw.IGP,),
                           set_arm=set_noise_variance)
    setting = {"slow": lam_one.apply(base["slow"], 0.01)}
    with pytest.raises(UnfairSetting, match="shared convention lam is set for IGP-UCB only"):
        check_fair(base, lam_one, 0.01, rw.OWN, setting)
    lam_all = FreeConstant("λ", "λ", 1.0, (0.01, 1.0), (0.01, 1.0), "test", set_arm=set_noise_variance)
    check_fair(base, lam_all, 0.01, rw.OWN, {"slow": lam_all.apply(base["slow"], 0.01)})
    with pytest.raises(UnfairSetting, match="lam declared IGP-UCB's own"):
        check_fair(base, None, None, {**rw.OWN, rw.IGP: ("lam",)})


def _fields(constant: FreeConstant) -> dict:
    """A constant's fields that are plain values (its setters and describer are closures, compared by effect)."""
    return {f.name: getattr(constant, f.name) for f in fields(constant) if not callable(getattr(constant, f.name))}


def test_the_old_spelling_of_memory_constant_warns_and_gives_the_constant_of_the_new_one():
    from tvbo_verify.authoring import memory_constant

    new = memory_constant({rw.WGP: ("discount", "discount", "γ")}, "a source")
    spellings = [((rw.WGP, "discount", "discount", "γ", "a source"), {}),
                 ((), dict(label=rw.WGP, rule="discount", key="discount", symbol="γ", source="a source")),
                 ((rw.WGP, "discount"), dict(key="discount", symbol="γ", source="a source"))]
    sweep = fair_sweep()
    for args, kwargs in spellings:
        with pytest.warns(DeprecationWarning, match=r"memory_constant\(label, rule, key, symbol, source\) is "
                          r"deprecated: use memory_constant\(\{'WGP-UCB': \('discount', 'discount', 'γ'\)\}, source\)"):
            old = memory_constant(*args, **kwargs)
        assert _fields(old) == _fields(new) and not old.own and old.arms == (rw.WGP,)
        assert old.apply(sweep, 4.0) == new.apply(sweep, 4.0) != sweep
        assert old.describe({}) == new.describe({}) == ""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new spelling, by position or keyword, warns of nothing
        assert _fields(memory_constant(rules={rw.WGP: ("discount", "discount", "γ")}, source="a source")) \
            == _fields(new)
    with pytest.raises(TypeError, match="rules maps each arm's label"):
        memory_constant(rw.WGP, "a source")
    with pytest.raises(TypeError, match=r"takes \(rules, source\)"):
        memory_constant({rw.WGP: ("discount", "discount", "γ")})
    with pytest.raises(ValueError, match="at least one arm"):
        memory_constant({}, "a source")


def tuned_constant(**kw) -> FreeConstant:
    base = dict(name="restart period of R-GP-UCB", symbol="N", paper=50, values=(2, 50), quick=(2, 50),
                source="test", arms=(rw.LABELS["r-gp-ucb"],), own=True, set_arm=set_param("block"))
    return FreeConstant(**{**base, **kw})


def test_a_methods_own_constants_are_tuned_on_training_seeds_with_the_same_budget(tmp_path):
    from tvbo_verify.sweeps.reproduce.constants import UnfairSetting
    from tvbo_verify.sweeps.reproduce.tuning import TRAINING_SEED

    r_label, sw_label = rw.LABELS["r-gp-ucb"], rw.LABELS["sw-gp-ucb"]
    own = {**rw.OWN, r_label: ("block",), sw_label: ("window",)}
    rep = tiny_reproduction(log_scale_part, tuned=(tuned_constant(),), own=own)
    out = measure(rep, cache=RunCache(tmp_path), sensitivity=True)
    for where in ("the paper's setting", "s = 0.25", "s = 4", "λ = 0.01"):
        record = out.tuning[where]["slow"][r_label]
        assert record["candidates"] == [["2"], ["50"]] and record["reps"] == 3
        best = int(min(range(2), key=record["training_score"].__getitem__))
        assert record["chosen"] == record["candidates"][best]
    chosen = int(out.tuning["the paper's setting"]["slow"][r_label]["chosen"][0])
    evaluated = out.results["slow"].sweep
    assert evaluated.arm(r_label).params["block"] == chosen and evaluated.seed == 0
    assert out.sensitivity["tuning"] == out.tuning
    training = rep.tuning_plans(rep.plan("quick"), "quick")
    assert {sw.seed for sw in training.values()} == {TRAINING_SEED} and all(
        [a.label for a in sw.arms] == [r_label] for sw in training.values())
    # an unequal budget (three values for one method, two for another) and a tuned constant that moves a shared
    # convention are refused
    sw_window = FreeConstant("window of SW-GP-UCB", "W", 50, (10, 50, 100), (10, 50, 100), "test", arms=(sw_label,),
                             own=True, set_arm=set_param("window"))
    with pytest.raises(UnfairSetting, match="unequal tuning budgets"):
        tiny_reproduction(log_scale_part, tuned=(tuned_constant(), sw_window), own=own)
    lam_r = tuned_constant(name="λ of R-GP-UCB", symbol="λ[R]", paper=1.0, values=(0.01, 1.0), quick=(0.01, 1.0),
                           set_arm=set_noise_variance)
    with pytest.raises(UnfairSetting, match="shared convention lam of R-GP-UCB alone"):
        tiny_reproduction(log_scale_part, tuned=(lam_r,), own=own).plans("quick")


# ------------------------------------------------------------------------ a small reproduction, measured
def tiny_reproduction(parts, sequential=(), *, constants=None, own=None, tuned=()) -> Reproduction:  # noqa: ANN001
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

    memory, lam = rw.SYNTHETIC_CONSTANTS[0], rw.SYNTHETIC_CONSTANTS[1]
    return Reproduction(id="wgpucb:figure-1", paper="wgpucb", title="tiny", setup="tiny", expected="tiny",
                        sweeps=lambda fidelity: sweeps, analyse=analyse, figure=figure,
                        constants=(memory, lam) if constants is None else constants, parts=parts,
                        own=rw.OWN if own is None else own, sequential=sequential, tuned=tuned)


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
    assert memory["statement"] == "fails for s ≤ 0.25, undecided at s = 1, holds for s ≥ 4"
    assert memory["resolved"][0].startswith(f"γ[{rw.WGP}] = ") and memory["resolved"][0] != memory["resolved"][2]
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
    assert "s = 0.25" not in looks  # "log s" already fails there: no runs gathered
    at_paper = looks["the paper's setting"]
    assert [lk["n"] for lk in at_paper["looks"]] == [3, 6] and at_paper["verdict"] == CONFIRMED
    assert out.sensitivity["paper"]["parts"][1]["ci95"] == pytest.approx([0.2 - 1 / 6, 0.2 + 1 / 6])


def test_a_remark_is_reported_at_every_setting_and_never_decides(tmp_path):
    """A statement the paper makes beside its finding (an aside on one baseline) is measured at every setting and
    recorded, and the finding's verdict is the same whatever the remark measures."""
    holds = lambda f: [Part("holds", 1.0, (0.5, 1.5))]  # noqa: E731

    def remark(finding):
        m = math.log(finding.data["s"])
        return [Part("an aside", m, (m - 0.1, m + 0.1))]

    rep = replace(tiny_reproduction(holds), remarks=remark)
    record = measure(rep, cache=RunCache(tmp_path), sensitivity=True).sensitivity
    assert record["verdict"] == CONFIRMED  # the remark fails at s = 1/4 and is undecided at s = 1: no effect
    aside = record["remarks"]["an aside"]
    assert aside["settings"] == ["the paper's setting", "s = 0.25", "s = 4", "λ = 0.01"]
    assert aside["verdict"] == [INCONCLUSIVE, VIOLATED, CONFIRMED, INCONCLUSIVE] and aside["over_range"] == INCONCLUSIVE
    assert aside["statement"].startswith("undecided at 2 of 4 settings (the paper's setting, λ = 0.01)")


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
