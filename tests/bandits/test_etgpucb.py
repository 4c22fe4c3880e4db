"""ET-GP-UCB (Brunzema et al., 2025): its event trigger fires on an abrupt change of the objective and, on a
stationary objective drawn from the policy's GP, at some round of a run with probability at most δ."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from tvbo_verify.bandits.beta import constant
from tvbo_verify.bandits.etgpucb import ETGPUCB, trigger_beta, trigger_threshold
from tvbo_verify.bandits.policy import Problem
from tvbo_verify.bandits.registry import make_env, make_policy
from tvbo_verify.bandits.runner import run

SMALL = {"points_per_dim": 40, "d": 1}


def static_sample(seed: int):
    """A sample of the GP the policy is told (tvgpucb's Markov model with ε = 0: f_t = f_0 for every t)."""
    env = make_env("tvgpucb-markov", {"epsilon": 0.0, **SMALL})
    env.reset(np.random.default_rng(seed), 2)
    return env, env.values().copy()


def play(policy: ETGPUCB, env, functions: list[np.ndarray], seed: int) -> list[int]:
    """Play ``policy`` on the sequence of objectives (one grid vector per round) with the environment's noise;
    the rounds at which it reset."""
    rng = np.random.default_rng(seed)
    policy.reset(Problem(env.grid, env.kernel, env.noise_var, len(functions)), rng)
    for t, f in enumerate(functions, start=1):
        i = policy.select(t, float(t))
        policy.observe(t, float(t), i, float(f[i] + math.sqrt(env.noise_var) * rng.standard_normal()))
    return list(policy.resets)


def test_trigger_beta_sums_to_delta_and_validates():
    delta = 0.1
    # each round's two error events have probability <= exp(-β_t/2) = 3δ/(π² t²); their sum over t is δ
    total = sum(2.0 * math.exp(-trigger_beta(t, delta) / 2.0) for t in range(1, 200_001))
    assert total == pytest.approx(delta, rel=1e-4)
    assert trigger_threshold(4, delta, 0.3, 0.01) == pytest.approx(math.sqrt(trigger_beta(4, delta)) * 0.4)
    with pytest.raises(ValueError, match="delta must be in"):
        trigger_beta(3, 1.0)
    with pytest.raises(ValueError, match="delta must be in"):
        make_policy("et-gp-ucb", {"delta": 0.0})


def test_trigger_fires_on_an_abrupt_jump_and_not_before():
    hits = []
    for seed in range(10):
        env, f1 = static_sample(seed)
        _, f2 = static_sample(1000 + seed)  # the objective is redrawn at round 61
        resets = play(ETGPUCB(constant(2.0), delta=0.1), env, [f1] * 60 + [f2] * 40, seed)
        assert not [r for r in resets if r <= 60], f"seed {seed}: reset before the jump at {resets}"
        hits.append(any(61 <= r <= 70 for r in resets))
    assert sum(hits) >= 9, f"the jump was detected within 10 rounds in {sum(hits)} of 10 runs"


def test_trigger_fires_on_a_level_shift_at_once():
    env, f = static_sample(7)
    resets = play(ETGPUCB(constant(2.0), delta=0.1), env, [f] * 50 + [f + 3.0] * 10, 7)
    assert resets[:1] == [51]


def test_false_resets_on_a_stationary_objective_stay_within_delta():
    """P(the trigger fires at some round of a run) <= δ on stationary GP samples: the count of runs with a reset
    must not exceed what a binomial with probability δ gives (one-sided, level 0.001)."""
    delta, runs = 0.2, 60
    env = make_env("tvgpucb-markov", {"epsilon": 0.0, **SMALL})
    fired = sum(bool(run(ETGPUCB(delta=delta), env, 120, np.random.default_rng(seed)).meta["policy"]["resets"])
                for seed in range(runs))
    assert stats.binom.sf(fired - 1, runs, delta) > 1e-3, f"{fired} of {runs} runs reset on a stationary objective"


def test_a_reset_keeps_only_the_new_observation():
    env, f = static_sample(3)
    policy = ETGPUCB(constant(2.0), delta=0.1)
    resets = play(policy, env, [f] * 30 + [f - 4.0], 3)
    assert resets == [31] and policy.dataset_size == 1
    assert policy.config()["resets"] == [31] and policy.config()["delta"] == 0.1


def test_without_a_trigger_it_is_gp_ucb():
    env = make_env("tvgpucb-markov", {"epsilon": 0.0, **SMALL})
    et = run(make_policy("et-gp-ucb", {"delta": 0.1}, constant(2.0)), env, 60, np.random.default_rng(5))
    gp = run(make_policy("gp-ucb", {}, constant(2.0)), env, 60, np.random.default_rng(5))
    assert et.meta["policy"]["resets"] == []
    np.testing.assert_array_equal(et.index, gp.index)
