"""Deciding the bolt experiment claims from findings (synthetic findings with known answers)."""

from __future__ import annotations

from tvbo_verify.sweeps.reproduce import Finding
from tvbo_verify.verify.claims.bolt import experiments as ex
from tvbo_verify.verify.evidence import Verdict


def test_trend_property_decides_from_the_interval_and_shows_power():
    down = ex.trend_property("x", {"slope": -0.3, "ci95": [-0.4, -0.2]})
    assert down.verdict is Verdict.CONFIRMED and down.power.caught
    steep = ex.trend_property("x", {"slope": -1.5, "ci95": [-1.8, -1.2]})
    assert steep.verdict is Verdict.CONFIRMED and not steep.power.caught
    assert ex.trend_property("x", {"slope": 0.1, "ci95": [-0.1, 0.3]}).verdict is Verdict.INCONCLUSIVE
    assert ex.trend_property("x", {"slope": 0.3, "ci95": [0.1, 0.5]}).verdict is Verdict.VIOLATED


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


def test_table_3_and_table_2_stay_undecided_whatever_the_analogue_measures():
    comp = {"a": "BOLT", "b": "W-DBO", "difference": {"mean": -1.0, "ci95": [-1.5, -0.5]}, "ratio": 0.5,
            "ratio_ci95": [0.4, 0.6]}
    data = {"comparisons": {"bench": {"W-DBO": comp}}, "bolt_rank": {"bench": 1},
            "overall": {"BOLT": 0.0, "W-DBO": 1.0}}
    props = ex.table_3_properties(Finding("", data))
    assert all(p.verdict is Verdict.INCONCLUSIVE for p in props)
    assert any("measured confirmed" in p.detail for p in props)
    rows = {"A": {}, "B": {}}
    t2 = ex.table_2_properties(Finding("", {"rows": rows, "factor": 2.0, "reproduced": {"raw objective": ["A"]}}))
    assert all(p.verdict is Verdict.INCONCLUSIVE for p in t2) and "measured violated" in t2[-1].detail
