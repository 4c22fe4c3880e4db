"""Deciding the bolt experiment claims from findings (synthetic findings with known answers)."""

from __future__ import annotations

from tvbo_verify.papers.bolt.checks import experiments as ex
from tvbo_verify.sweeps.reproduce import Finding
from tvbo_verify.verify.evidence import Verdict


def test_figure_1_properties_fail_when_a_curve_rises_or_the_order_flips():
    good = {"flattest_slope": {"matern12": -0.05}, "smallest_gap": {"matern12 > matern32": 0.01},
            "floor_trend": {"matern12": {"slope": -0.2, "ci95": [-0.3, -0.1]}}}
    assert all(p.verdict is Verdict.CONFIRMED for p in ex.figure_1_properties(Finding("", good)))
    rising = {**good, "flattest_slope": {"matern12": 0.02}}
    flipped = {**good, "smallest_gap": {"matern12 > matern32": -0.01}}
    for data in (rising, flipped):
        assert any(p.verdict is Verdict.VIOLATED for p in ex.figure_1_properties(Finding("", data)))


def _figure_2_data(**changes):
    data = {"growth": {"se": {"n": [14, 24], "n²": [7, 10], "n³": [4, 5]}},
            "constant": {"se": {"n_star": float("inf"), "method": "constant-R", "increments finite": True,
                                "smallest log increment": -50.0}},
            "cubic": {"matern12": [16, 30], "matern32": [16, 31], "matern52": [17, 31], "se": [17, 33]},
            "window": {"bolt_n_star_history": [[11, 11]], "bolt_largest_size_after_fit": [11], "n_star": 11}}
    data.update(changes)
    return Finding("", data)


def test_figure_2_properties_hold_on_the_paper_pattern_and_fail_when_it_breaks():
    assert all(p.verdict is Verdict.CONFIRMED for p in ex.figure_2_properties(_figure_2_data()))
    broken = [
        _figure_2_data(growth={"se": {"n": [14, 24], "n²": [15, 10]}}),
        _figure_2_data(constant={"se": {"n_star": 400, "method": "dense", "increments finite": True,
                                        "smallest log increment": -50.0}}),
        _figure_2_data(cubic={"matern12": [16, 30], "matern32": [15, 31], "matern52": [17, 31], "se": [17, 33]}),
        _figure_2_data(window={"bolt_n_star_history": [[11, 12]], "bolt_largest_size_after_fit": [12], "n_star": 11}),
    ]
    for finding in broken:
        assert any(p.verdict is Verdict.VIOLATED for p in ex.figure_2_properties(finding))


def _comp(a, b, lo, hi, ratio_lo=0.8):
    return {"a": a, "b": b, "difference": {"mean": (lo + hi) / 2, "ci95": [lo, hi]}, "mean_a": 1.0, "mean_b": 1.0,
            "ratio": 1.0, "ratio_ci95": [ratio_lo, 1.2]}


def _table_3_finding(bolt_above=(), random_below=()):
    methods = ("W-DBO", "GP-UCB", "ET-GP-UCB")
    comps = {m: _comp("BOLT", m, *((0.1, 0.3) if m in bolt_above else (-0.3, -0.1))) for m in methods}
    control = {m: _comp("uniform random", m, *((-0.3, -0.1) if m in random_below else (0.2, 0.5)))
               for m in ("BOLT", *methods)}
    return Finding("", {"comparisons": {"bench": comps}, "control_comparisons": {"bench": control}})


def test_table_3_standing_is_decided_with_its_control_and_power():
    (prop,) = ex.table_3_properties(_table_3_finding())
    assert prop.verdict is Verdict.CONFIRMED and prop.needs_control and prop.power.caught
    assert prop.controls[0].verdict is Verdict.VIOLATED and prop.controlled().verdict is Verdict.CONFIRMED
    (second,) = ex.table_3_properties(_table_3_finding(bolt_above=("W-DBO",)))
    assert second.verdict is Verdict.CONFIRMED
    (third,) = ex.table_3_properties(_table_3_finding(bolt_above=("W-DBO", "GP-UCB")))
    assert third.verdict is Verdict.VIOLATED and third.power.caught  # within a factor 3: the weakening stands
    # a control that is not refuted (random first or second) leaves the standing undecided
    (blind,) = ex.table_3_properties(_table_3_finding(random_below=("W-DBO", "GP-UCB", "ET-GP-UCB")))
    assert blind.controls[0].verdict is not Verdict.VIOLATED
    assert blind.controlled().verdict is Verdict.INCONCLUSIVE


def test_a_decision_on_analogue_data_is_reported_and_undecided():
    from tvbo_verify.verify.evidence import Evidence

    ev = ex.on_analogue_evidence(Evidence(Verdict.VIOLATED, "BOLT third", counterexample={"x": 1}))
    assert ev.verdict is Verdict.INCONCLUSIVE and ev.counterexample is None
    assert ev.summary.startswith("Measured violated on analogue data") and ev.stats["verdict_on_the_analogue"]
    assert ex.on_analogue_evidence(Evidence(Verdict.INCONCLUSIVE, "x")).summary == "x"


def test_table_2_stays_undecided_whatever_the_readings_measure():
    rows = {"A": {}, "B": {}}
    t2 = ex.table_2_properties(Finding("", {"rows": rows, "factor": 2.0, "reproduced": {"raw objective": ["A"]}}))
    assert all(p.verdict is Verdict.INCONCLUSIVE for p in t2) and "measured violated" in t2[-1].detail


def test_table_3_standing_power_needs_two_competitors_told_from_the_sharpening():
    def comps(*intervals):
        return {f"M{i}": {"ratio_ci95": list(ci)} for i, ci in enumerate(intervals)}

    # two intervals far below 1/3 but narrow: told apart (resolved) though nothing is left to refute
    assert ex.standing_power(Verdict.CONFIRMED, comps((0.05, 0.1), (0.1, 0.2), (0.1, 0.95))).caught
    # only one competitor told apart: it could be the exception, the sharpening stands
    assert not ex.standing_power(Verdict.CONFIRMED, comps((0.05, 0.1), (0.1, 0.9), (0.1, 0.95))).caught
