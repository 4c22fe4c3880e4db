"""The non-vacuity horizon of a regret bound: the first T from which it is below the trivial bound, on the
admissible instance where that happens earliest, and the term that dominates it there."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.verify.builders.horizon import (
    BoundCurve,
    cost_to_reach,
    earliest_horizon,
    non_vacuity_horizon,
    sample_range,
)


def test_the_horizon_is_the_first_integer_below_the_trivial_bound():
    c = BoundCurve("√(100 T)", lambda T: {"T": T, "constant": 100.0}, trivial=lambda T: 2.0 * T, form="product")
    h = non_vacuity_horizon(c)
    assert h.horizon == 26 and c.bound(25) >= 50 and c.bound(26) < 52  # √(100 T) < 2T  <=>  T > 25
    assert h.dominant == "T"


def test_a_bound_linear_with_a_slope_above_the_trivial_one_is_vacuous_everywhere():
    c = BoundCurve("3T", lambda T: {"linear": 3.0 * T}, trivial=lambda T: 2.0 * T)
    h = non_vacuity_horizon(c, T_max=1e9)
    assert h.horizon is None and "vacuous up to T = 1e+09" in h.text()


def test_a_bound_that_crosses_back_reports_where_it_stops_saying_something():
    c = BoundCurve("x", lambda T: {"linear": 0.5 * T, "root": 1e3 * math.sqrt(T), "quadratic": 1e-9 * T * T},
                   trivial=lambda T: 2.0 * T)
    h = non_vacuity_horizon(c)
    assert h.horizon is not None and h.until is not None and h.horizon < h.until
    assert c.ratio(h.horizon) < 1 <= c.ratio(h.horizon - 1) and c.ratio(h.until) < 1 <= c.ratio(h.until + 1)
    assert h.dominant == "root"


def test_the_earliest_instance_is_chosen_and_a_vacuous_one_counts_as_latest():
    curves = [BoundCurve("b", lambda T, a=a: {"root": a * math.sqrt(T)}, trivial=lambda T: T, instance={"a": a})
              for a in (10.0, 3.0, 1e9)]
    best, found = earliest_horizon(curves, T_max=1e6)
    assert best.instance == {"a": 3.0} and best.horizon == 10
    assert [h.horizon for h in found][2] is None


def test_the_cost_of_reaching_a_horizon_extrapolates_the_measured_cost():
    assert cost_to_reach(2.0, 100, 1000, 2.0) == pytest.approx(200.0)
    assert cost_to_reach(2.0, 100, None, 2.0) is None


def test_a_curve_refuses_an_unknown_form():
    with pytest.raises(ValueError, match="form"):
        BoundCurve("x", lambda T: {}, trivial=lambda T: T, form="max")


def test_the_expected_range_of_a_sample_is_estimated_and_its_lower_end_errs_low():
    # f(x) = a constant times ±1 on two perfectly correlated points: the range is 0
    assert sample_range([np.ones((2, 2))], samples=500).mean == pytest.approx(0.0, abs=1e-9)
    r = sample_range([np.eye(2), np.eye(2)], samples=20000, variance=4.0)  # four iid N(0, 4): E range = 2 · 2.0588
    assert abs(r.mean - 2 * 2.0588) < 4 * r.se and r.lower <= r.mean


def test_the_searched_instance_decides_unless_the_paper_set_up_refutes():
    from tvbo_verify.verify.builders.horizon import searched_instance_evidence
    from tvbo_verify.verify.evidence import Evidence, Verdict

    held, vacuous, broken = (Evidence(Verdict.CONFIRMED, "holds.", instances=[{"T": 1}]),
                             Evidence(Verdict.INCONCLUSIVE, "vacuous."), Evidence(Verdict.VIOLATED, "fails."))
    ev = searched_instance_evidence(held, vacuous, "here")
    assert ev.verdict is Verdict.CONFIRMED and ev.instances == [{"set-up": "searched", "T": 1}]
    assert searched_instance_evidence(held, broken, "here").verdict is Verdict.VIOLATED
    assert searched_instance_evidence(vacuous, held, "here").verdict is Verdict.INCONCLUSIVE


def test_among_vacuous_bounds_the_earliest_is_the_one_that_comes_closest_to_speaking():
    # c T against T: vacuous for c >= 1, and the closest to 1 is the smallest c, whatever the order given
    from tvbo_verify.verify.builders.horizon import horizon_record

    curves = [BoundCurve(f"{c} T", lambda T, c=c: {"T": c * T}, trivial=lambda T: T, instance={"c": c})
              for c in (3.0, 1.5, 2.0)]
    best, every = earliest_horizon(curves, T_max=1e6, points=20)
    assert best.horizon is None and best.instance == {"c": 1.5}
    assert best.smallest[1] == pytest.approx(1.5) and [h.smallest[1] for h in every] == pytest.approx([3.0, 1.5, 2.0])
    record, _ = horizon_record(curves, runs_reach=10, seconds=None, exponent=1.0, T_max=1e6, points=20)
    assert record["instance"] == {"c": 1.5} and record["smallest_ratio"] == pytest.approx(1.5)
    assert record["cpu_seconds_to_reach"] is None
