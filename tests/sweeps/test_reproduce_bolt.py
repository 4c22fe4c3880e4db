"""Helpers of the bolt reproductions: time budgets, comparisons of value arrays, trends."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.bandits.runner import Trace
from tvbo_verify.sweeps.reproduce import bolt as rb


def _trace(times, regret):
    T = len(times)
    z = np.zeros(T)
    return Trace(np.zeros(T, dtype=np.int64), np.zeros((T, 1)), z, np.asarray(regret, float),
                 np.cumsum(regret), np.zeros(T, dtype=np.int64), np.ones(T, dtype=np.int64), z,
                 np.asarray(times, float), z, {})


def test_budget_regret_reads_per_iteration_and_per_unit_time():
    tr = _trace([0.0, 1.0, 3.0, 4.0, 10.0], [1.0, 2.0, 3.0, 4.0, 5.0])
    per_it, per_time = rb.budget_regret(tr, 3.5)
    assert per_it == pytest.approx(2.0)  # iterations at 0, 1, 3 started before 3.5 s
    assert per_time == pytest.approx((1 * 1 + 2 * 2 + 3 * 0.5) / 3.5)
    with pytest.raises(ValueError, match="before the budget"):
        rb.budget_regret(tr, 11.0)


def test_horizon_for_covers_the_budget_for_the_smallest_datasets():
    T = rb.horizon_for(10.0, "1 + n", lambda m: min(m, 2))  # gaps 2, 3, 3, ...
    assert T == 5  # clock 0, 2, 5, 8, 11
    assert rb.horizon_for(10.0, "1 + n", lambda m: m) <= T


def test_compare_values_paired_and_unpaired():
    rng = np.random.default_rng(0)
    a, b = np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.0, 3.0, 4.0, 5.0])
    paired = rb.compare_values("a", a, "b", b, rng)
    assert paired["difference"]["ci95"] == [-1.0, -1.0] and paired["ratio"] == pytest.approx(2.5 / 3.5)
    unpaired = rb.compare_values("a", a, "b", b, rng, paired=False)
    lo, hi = unpaired["difference"]["ci95"]
    assert lo < -1.0 < hi and unpaired["paired"] is False


def test_trend_recovers_a_power_law():
    rng = np.random.default_rng(1)
    x = (1.0, 4.0, 16.0)
    groups = [np.full(5, xi ** -0.5) * (1 + 0.01 * rng.standard_normal(5)) for xi in x]
    t = rb.trend(x, groups, rng)
    assert t["slope"] == pytest.approx(-0.5, abs=0.02) and t["ci95"][0] < -0.5 < t["ci95"][1] + 0.02
