"""The non-vacuity horizon of a regret bound: the first T from which it is below the trivial bound, on the
admissible instance where that happens earliest, and the term that dominates it there."""

from __future__ import annotations

import math

import pytest

from tvbo_verify.verify.builders.horizon import BoundCurve, cost_to_reach, earliest_horizon, non_vacuity_horizon


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
