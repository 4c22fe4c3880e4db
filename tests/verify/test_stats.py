"""Deciding rules of verify/stats.py."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tvbo_verify.verify import Comparison, Control, Verdict
from tvbo_verify.verify.stats import (
    Instance,
    RefereeDisagreement,
    bootstrap_slope_ci,
    claim_power,
    clopper_pearson,
    decide_all,
    decide_exact,
    decide_probabilistic,
    decide_rate,
    loglog_slope,
    parts_power,
    polylog_allowance,
    probabilistic_power,
    rate_power,
    rate_resolution,
    refutation_power,
    require_failed_control,
    twin_disagreement,
    unresolved,
    upper_bound,
    vacuous_bound,
)


@settings(max_examples=40)
@given(st.integers(1, 400), st.data())
def test_clopper_pearson_covers_the_frequency(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = clopper_pearson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1
    assert upper_bound(k, n, 0.99) >= hi - 1e-12 or k == n


def test_clopper_pearson_known_edge_values():
    # k = 0: upper bound solves (1 - p)^n = alpha / 2
    lo, hi = clopper_pearson(0, 50, 0.95)
    assert lo == 0 and hi == pytest.approx(1 - 0.025 ** (1 / 50), rel=1e-9)
    with pytest.raises(ValueError, match="successes"):
        clopper_pearson(6, 5)


def test_probabilistic_rule():
    assert decide_probabilistic(96, 100, 0.95)[0] is Verdict.CONFIRMED
    assert decide_probabilistic(70, 100, 0.95)[0] is Verdict.VIOLATED
    assert decide_probabilistic(93, 100, 0.95)[0] is Verdict.INCONCLUSIVE
    assert probabilistic_power("x", 70, 100, 0.95).caught


def test_loglog_slope_and_bootstrap():
    rng = np.random.default_rng(0)
    x = np.array([10, 20, 40, 80, 160.0])
    Y = x[None, :] ** 0.5 * np.exp(rng.normal(0, 0.05, size=(20, 5)))
    assert loglog_slope(x, x ** 1.5) == pytest.approx(1.5)
    est, (lo, hi) = bootstrap_slope_ci(x, Y, rng)
    assert lo < est < hi and lo < 0.5 < hi
    with pytest.raises(ValueError, match="positive"):
        bootstrap_slope_ci(x, -Y, rng)


def test_rate_rule_and_power():
    rng = np.random.default_rng(1)
    x = np.array([100, 200, 400, 800, 1600.0])
    flat = np.exp(rng.normal(0, 0.02, size=(10, 5)))
    grow = flat * x[None, :] ** 0.3
    assert decide_rate(x, flat, rng, allowance=0.05)[0] is Verdict.CONFIRMED
    assert decide_rate(x, grow, rng, allowance=0.05)[0] is Verdict.VIOLATED
    assert rate_power(x, flat, rng, lowered_by=0.25, allowance=0.05).caught
    assert polylog_allowance(2, np.e ** 4) == pytest.approx(0.5)


def test_decide_all():
    assert decide_all([("a", True), ("b", True)])[0] is Verdict.CONFIRMED
    assert decide_all([("a", True), ("b", False)]) == (Verdict.VIOLATED, ["b"])
    assert decide_all([("a", True), ("b", None)])[0] is Verdict.INCONCLUSIVE
    assert decide_all([])[0] is Verdict.INCONCLUSIVE


def test_resolution_is_the_allowance_plus_the_half_width():
    assert rate_resolution(0.2) == pytest.approx(0.2)
    assert rate_resolution(0.2, (0.0, 0.3)) == pytest.approx(0.35)
    alts = {"linear regret": 1.0, "dropped factor": 0.6}
    assert unresolved(0.5, alts, 0.05) == []
    [only] = unresolved(0.5, alts, 0.35)
    assert only == "resolution 0.35 cannot separate exponent 0.5 from 0.6 (dropped factor): needed < 0.1"


def test_a_confirmation_needs_every_control_failed():
    failed = Control("random", "same check", Verdict.VIOLATED)
    passed = Control("copy", "same check", Verdict.CONFIRMED)
    assert require_failed_control(Verdict.CONFIRMED, [failed, failed]) == (Verdict.CONFIRMED, "")
    # every named control must be refuted: one that stands is a broken control or a rule too weak to tell it apart
    assert require_failed_control(Verdict.CONFIRMED, [passed, failed]) == (
        Verdict.INCONCLUSIVE, "a negative control was not refuted (not refuted: copy: confirmed)")
    v, reason = require_failed_control(Verdict.CONFIRMED, [passed])
    assert v is Verdict.INCONCLUSIVE and reason == "no negative control failed (copy: confirmed)"
    assert require_failed_control(Verdict.CONFIRMED, [])[1].endswith("(none run)")
    assert require_failed_control(Verdict.VIOLATED, []) == (Verdict.VIOLATED, "")  # a refutation needs none


def test_a_bound_at_or_above_the_trivial_bound_in_every_run_is_vacuous():
    assert vacuous_bound([10.0, 12.0], [9.0, 12.0])
    assert not vacuous_bound([10.0, 12.0], [11.0, 3.0])  # one run could break it
    assert not vacuous_bound([], [])


def test_power_per_part():
    assert parts_power([True, True]) and not parts_power([True, False]) and not parts_power([])


def test_a_refutation_has_power_from_one_powered_failing_part():
    assert refutation_power([False, True]) and not refutation_power([False, False]) and not refutation_power([])
    assert claim_power([False, True], refuted=True) and not claim_power([False, True], refuted=False)


def _instance(value, bound, cond=1.0):
    return Instance({"x": 1.0}, Comparison(value, bound, "<=", cond=cond))


def test_a_twin_must_reproduce_the_float_comparison():
    ref = Comparison(1.0, 2.0, "<=")
    assert twin_disagreement(ref, Comparison(1.0 + 1e-9, 2.0, "<=")) is None
    text = twin_disagreement(ref, Comparison(1.0, 1.0, "<="))
    assert text.startswith("referee twin disagrees with the check: float 1 <= 2 vs twin 1 <= 1")
    # the agreement needed grows with the instance's condition number
    assert twin_disagreement(Comparison(1.0, 2.0, "<=", cond=1e6), Comparison(1.5, 2.0, "<=")) is None


def test_a_twin_that_computes_something_else_may_not_overrule_a_float_break():
    broken = _instance(2.0 + 1e-9, 2.0)  # a float break beyond tolerance
    agreeing = decide_exact([broken], lambda p: Comparison(mpmath.mpf(2), mpmath.mpf(2)))
    assert agreeing.verdict is Verdict.CONFIRMED and agreeing.refuted_by_referee == 1
    with pytest.raises(RefereeDisagreement, match="float 2.000000001 <= 2 vs twin 1 <= 2"):
        decide_exact([broken], lambda p: Comparison(mpmath.mpf(1), mpmath.mpf(2)))


def test_a_twin_that_confirms_a_break_overrules_nothing():
    broken = _instance(3.0, 2.0)
    decision = decide_exact([broken], lambda p: Comparison(mpmath.mpf(3.5), mpmath.mpf(2)))
    assert decision.verdict is Verdict.VIOLATED  # both find the break: no agreement needed
