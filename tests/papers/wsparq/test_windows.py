"""Helpers of ``claims/wsparq/windows.py``."""

import numpy as np

from tvbo_verify.papers.wsparq.checks import windows as W
from tvbo_verify.theory.schedules import window_schedule


def test_random_retained_point_lies_in_its_window():
    rng = np.random.default_rng(3)
    for _ in range(20):
        p = W.RetainedPoint.random(rng, 5000)
        sch = window_schedule(p["alpha"], p["alpha_tilde"], p["t"])
        assert p["t_j"] == sch.in_window_start(p["t"]) and 0 <= p["t"] - p["t_j"] < sch.lengths[-1]
        assert 1 / 3 - 1e-12 <= p["alpha"] <= 5 and 0 < p["alpha_tilde"] < 1 / 3


def test_variance_ratio_uses_zero_power_zero():
    assert W.RetainedPoint.variance_ratio({"t": 5, "t_j": 5, "alpha": 0.0}) == 1.0
    assert W.RetainedPoint.variance_ratio({"t": 7, "t_j": 5, "alpha": 2.0}) == 5.0


def test_worst_steps_are_the_tightest_windows():
    rows, info = W.worst_steps(1.0, 0.25, 2000, keep=2)
    parts = [r["part"] for r in rows]
    assert parts.count("lower") == parts.count("upper") == parts.count("variance") == 2
    assert 0 < info["max_variance_ratio"] < 1 and info["unfactored_failures"] > 0
    upper = [r for r in rows if r["part"] == "upper"]
    assert all(W.WINDOWS.evaluate(r).margin >= 0 for r in upper)


def test_partition_sample_is_consistent_with_the_schedule():
    rng = np.random.default_rng(0)
    for _ in range(15):
        p = W.WINDOWS.sample(rng)
        assert W.WINDOWS.evaluate(p).margin >= 0
