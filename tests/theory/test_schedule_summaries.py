"""Tests of tvbo_verify.theory.schedule_summaries: runs of equal window length and query totals."""

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tvbo_verify.theory import schedule_summaries as SS
from tvbo_verify.theory import schedules as S


@settings(max_examples=60)
@given(
    alpha=st.floats(0.02, 4.0),
    alpha_tilde=st.floats(0.005, 0.333),
    horizon=st.integers(1, 30_000),
    reading=st.sampled_from(S.WINDOW_READINGS),
    t1=st.integers(1, 20),
    kind=st.sampled_from(S.QUERY_RULES),
    d=st.integers(1, 3),
    cap=st.booleans(),
)
def test_segments_and_totals_equal_the_window_by_window_schedule(alpha, alpha_tilde, horizon, reading, t1, kind, d,
                                                                  cap):
    t1 = min(t1, horizon)
    sched = S.window_schedule(alpha, alpha_tilde, horizon, reading=reading, t1=t1)
    segments = SS.window_segments(alpha, alpha_tilde, horizon, reading=reading, t1=t1)
    starts = np.concatenate([seg.starts() for seg in segments])
    lengths = [int(seg.length) for seg in segments for _ in range(seg.count)]
    assert np.array_equal(starts, sched.starts)
    assert lengths == [int(x) for x in sched.lengths]
    rule = SS.query_rule(kind, d=d, cap_at_past=cap)
    assert SS.query_total(rule, segments, horizon) == S.window_query_budget(sched, rule).total


def test_long_runs_are_summed_piecewise_like_the_full_list():
    rule = SS.query_rule("log", d=2)
    seg = (SS.WindowSegment(1, 3, 200_000),)
    assert SS.query_total(rule, seg, 10**6) == int(np.sum(rule.counts(seg[0].starts(), 10**6)))
    every = (SS.WindowSegment(1, 1, 50_000),)
    theory = SS.query_rule("theory")
    assert SS.query_total(theory, every, 50_000) == S.sparq_query_budget(50_000, theory).total


@pytest.mark.parametrize("horizon", [10**9, 10**12])
def test_any_horizon_answers_in_about_a_second(horizon):
    start = time.perf_counter()
    summary = SS.window_summary(2.0, 0.25, horizon, SS.query_rule("experiments"))
    budgets = SS.query_budgets(2.0, 0.25, horizon, SS.query_rule("theory"), SS.query_rule("experiments"))
    assert time.perf_counter() - start < 5.0
    assert summary.starts is None and summary.n_windows == sum(s.count for s in summary.segments)
    r = 0.125
    assert summary.n_windows == pytest.approx(horizon ** (1 - r) / (1 - r), rel=0.05)
    assert budgets.sparq_experiments_budget == horizon * int(np.ceil(6 * np.log(horizon))) - sum(
        int(np.ceil(6 * np.log(horizon))) - t for t in range(1, int(np.ceil(6 * np.log(horizon)))))


def test_short_schedules_are_listed():
    summary = SS.window_summary(1.0, 0.25, 300, SS.query_rule("experiments"))
    sched = S.window_schedule(1.0, 0.25, 300)
    assert np.array_equal(summary.starts, sched.starts)
    assert summary.total_queries == S.window_query_budget(sched).total
