"""The negative-control policies (fixed arm, greedy) and the runner's per-round trivial regret."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.bandits.beta import constant
from tvbo_verify.bandits.registry import make_env, make_policy
from tvbo_verify.bandits.runner import run
from tvbo_verify.bandits.traces import Trace, load_trace, save_trace


def small_env():
    return make_env("tvgpucb-markov", {"epsilon": 0.05, "points_per_dim": 8, "d": 2})


def test_runner_records_the_most_regret_any_policy_could_incur():
    tr = run(make_policy("tv-gp-ucb", {"epsilon": 0.05}), small_env(), 20, np.random.default_rng(3))
    assert tr.max_regret is not None and tr.max_regret.shape == (20,)
    assert np.all(tr.regret <= tr.max_regret + 1e-12)
    assert np.all(tr.max_regret > 0)  # a GP sample path is not constant on the grid
    np.testing.assert_allclose(tr.trivial_bound, np.cumsum(tr.max_regret))
    assert tr.cumulative[-1] < tr.trivial_bound[-1]


def test_trace_without_max_regret_has_no_trivial_bound(tmp_path):
    tr = run(make_policy("random"), small_env(), 5, np.random.default_rng(0))
    old = Trace(**{n: getattr(tr, n) for n in Trace.ARRAYS}, meta={})
    with pytest.raises(ValueError, match="max_regret"):
        old.trivial_bound
    save_trace(old, str(tmp_path), 0)
    assert load_trace(str(tmp_path), 0).max_regret is None
    save_trace(tr, str(tmp_path), 1)
    assert load_trace(str(tmp_path), 1).same_run(tr)


def test_fixed_arm_plays_one_arm_and_validates_it():
    tr = run(make_policy("fixed-arm", {"arm": 5}), small_env(), 12, np.random.default_rng(1))
    assert set(tr.index.tolist()) == {5}
    drawn = run(make_policy("fixed-arm"), small_env(), 12, np.random.default_rng(1))
    assert len(set(drawn.index.tolist())) == 1
    with pytest.raises(ValueError, match="arm must be in"):
        run(make_policy("fixed-arm", {"arm": 64}), small_env(), 3, np.random.default_rng(0))
    with pytest.raises(ValueError, match="arm"):
        make_policy("fixed-arm", {"arm": -1})


def test_greedy_is_gp_ucb_without_width():
    env = small_env()
    greedy = run(make_policy("greedy"), env, 15, np.random.default_rng(2))
    zero_width = run(make_policy("gp-ucb", {}, constant(0.0)), env, 15, np.random.default_rng(2))
    np.testing.assert_array_equal(greedy.index, zero_width.index)
    with pytest.raises(ValueError, match="greedy takes no beta"):
        make_policy("greedy", {}, constant(1.0))
