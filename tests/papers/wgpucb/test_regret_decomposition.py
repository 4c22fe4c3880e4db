"""Helpers of ``wgpucb`` Lemma 20 and Theorem 4: window sums, ratios, one decomposition run."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.papers.wgpucb.checks import regret_decomposition as rd


def test_reverse_window_sums_take_the_most_recent_entries():
    w = rd.reverse_window_sums(np.array([1.0, 2.0, 3.0]), 5)
    assert w.tolist() == [3.0, 5.0, 6.0, 6.0, 6.0]
    assert rd.reverse_window_sums(np.zeros(0), 3).tolist() == [0.0, 0.0, 0.0]


def test_ratio_flags_a_positive_side_over_a_zero_bound():
    assert rd.ratio(np.array([1.0, 0.5]), np.array([2.0, 2.0])) == 0.5
    assert rd.ratio(np.array([0.0, 1.0]), np.array([0.0, 4.0])) == 0.25
    assert rd.ratio(np.array([1.0]), np.array([0.0])) == np.inf


def test_ratio_does_not_divide_one_rounding_error_by_another():
    # the drift bracket and 2‖θ_t − θ̄_t‖ of a round before the first switch (measured in a run): both are zero
    assert rd.ratio(np.array([4.44e-16, 0.3]), np.array([1.95e-16, 0.6])) == 0.5
    assert rd.ratio(np.array([1e-9]), np.array([5e-10])) == pytest.approx(2.0)  # above the floor: counted


@pytest.fixture(scope="module")
def run_and_setup():
    setup = {**rd.SETUP, "env": "rotation", "budget": 2.0, "disc": 0.9, "T": 30, "cs": (1, 5)}
    return rd.decomposition_run((np.random.SeedSequence(3), setup)), setup


def test_a_run_records_the_exact_regret_and_a_zero_first_gap(run_and_setup):
    run, setup = run_and_setup
    assert len(run["seq"]) == setup["T"] and np.all(run["regret"] >= 0)
    assert np.all(run["regret"] <= run["range"] + 1e-12)
    assert run["gap"][0] == pytest.approx(0.0, abs=1e-10)  # θ̄_1 = θ_1 before any data
    assert run["budget"] == pytest.approx(2.0, rel=1e-6)  # the rotation's exact B_T, from the Mercer features
    assert np.allclose(run["stationary"] + run["drift"], run["regret"], atol=1e-10)  # the split of r_t


def test_the_proof_steps_hold_at_every_round(run_and_setup):
    run, setup = run_and_setup
    steps = rd.proof_steps(run)
    assert steps["drift bracket <= 2‖θ_t − θ̄_t‖"] <= 1.0
    assert steps["‖θ_t − θ̄_t‖ <= D_t(c) (every c)"] <= 1.0
    rounds = rd.per_round_bounds(run, setup)
    assert set(rounds) == {rd.PER_ROUND} | {f"r_t <= 2β_(t−1)σ̂_(t−1)(x_t) + 2D_t(c) for all t, c = {c}"
                                              for c in setup["cs"]}
    assert np.all(run["regret"] <= rounds[rd.PER_ROUND] + 1e-12)
    whole = rd.whole_run_bounds(run, setup)
    assert 0 < run["regret"].sum() < whole[rd.WHOLE_RUN[0]]


def test_the_run_is_a_runner_trace_with_its_trivial_bound(run_and_setup):
    run, setup = run_and_setup
    tr = run["trace"]
    assert tr.T == setup["T"] and tr.cumulative[-1] == pytest.approx(run["regret"].sum())
    assert np.allclose(np.diff(tr.trivial_bound, prepend=0.0), run["range"])
    assert tr.index.tolist() == run["seq"]


def test_theorem_4_bound_is_vacuous_against_the_largest_possible_regret(run_and_setup):
    run, setup = run_and_setup
    for factor in rd.M_READINGS.values():
        bound = rd.theorem_4_bound(run, setup, factor)
        assert bound > run["trace"].trivial_bound[-1] > run["regret"].sum()  # vacuous at this horizon


def test_a_run_uses_the_beta_the_policy_used_which_is_beta_t_minus_1(run_and_setup):
    from tvbo_verify.bandits.beta import wgpucb_theory

    run, setup = run_and_setup
    rule = wgpucb_theory(B=setup["B"], R=setup["R"], lam=setup["lam"], discount=setup["disc"], delta=rd.DELTA)
    expected = [rule.value(max(t - 1, 1)) for t in range(1, setup["T"] + 1)]
    assert np.allclose(run["beta"], expected, rtol=1e-12)
    assert run["beta_T"] == pytest.approx(rule.value(setup["T"]), rel=1e-12)
