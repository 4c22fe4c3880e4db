"""Deciding rules of verify/stats.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tvbo_verify.verify import Verdict
from tvbo_verify.verify.stats import (
    bootstrap_slope_ci,
    clopper_pearson,
    decide_all,
    decide_probabilistic,
    decide_rate,
    loglog_slope,
    polylog_allowance,
    probabilistic_power,
    rate_power,
    upper_bound,
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
