"""WGP-UCB from per-arm sufficient statistics equals the refit of the weighted posterior."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.bandits import WGPUCB, run
from tvbo_verify.bandits.environments import RotationBudget, WgpucbPaper
from tvbo_verify.bandits.window import WeightedArmPosterior
from tvbo_verify.gp import weighted_posterior
from tvbo_verify.kernels import Matern, SquaredExponential


@pytest.mark.parametrize("discount,lam", [(0.9, 1.0), (0.99, 0.01), (1.0, 0.5), (0.5, 2.0)])
def test_arm_statistics_give_the_weighted_posterior(discount, lam):
    rng = np.random.default_rng(7)
    grid = np.linspace(0, 1, 60)[:, None]
    kernel = Matern(2.5, 1.3, 0.15)
    idx = rng.integers(0, 12, size=80)  # many repeats: 80 observations on <= 12 arms
    y = rng.normal(size=80)
    ref = weighted_posterior(kernel, grid[idx], y, grid, lam=lam, discount=discount)
    mean, var = WeightedArmPosterior(kernel, grid, lam, discount).compute(idx, y)
    np.testing.assert_allclose(mean, ref.mean, atol=1e-9, rtol=0)
    np.testing.assert_allclose(var, ref.var, atol=1e-9, rtol=0)


def test_arm_statistics_with_no_repeats_and_empty_data():
    grid = np.linspace(0, 1, 30)[:, None]
    kernel = SquaredExponential(1.0, 0.2)
    post = WeightedArmPosterior(kernel, grid, 1.0, 0.8)
    mean, var = post.compute(np.zeros(0, dtype=np.int64), np.zeros(0))
    assert np.all(mean == 0) and np.allclose(var, 1.0)
    idx = np.array([3, 17, 29, 0])
    y = np.array([0.5, -1.0, 2.0, 0.1])
    ref = weighted_posterior(kernel, grid[idx], y, grid, lam=1.0, discount=0.8)
    mean, var = post.compute(idx, y)
    np.testing.assert_allclose(mean, ref.mean, atol=1e-12)
    np.testing.assert_allclose(var, ref.var, atol=1e-12)


@pytest.mark.parametrize("env", [RotationBudget(budget=3.0, noise_var=0.01), WgpucbPaper(scenario="slow3")])
def test_seeded_runs_choose_the_same_arms_as_the_refit(env):
    a = run(WGPUCB(discount=0.9, update="arms"), env, 150, np.random.default_rng(11))
    b = run(WGPUCB(discount=0.9, update="refit"), env, 150, np.random.default_rng(11))
    np.testing.assert_array_equal(a.index, b.index)
    np.testing.assert_array_equal(a.beta, b.beta)


def test_policy_posterior_matches_refit_every_round():
    env = RotationBudget(budget=2.0)
    pa, pb = WGPUCB(discount=0.95, update="arms"), WGPUCB(discount=0.95, update="refit")
    rng_a, rng_b = np.random.default_rng(0), np.random.default_rng(0)
    from tvbo_verify.bandits.policy import Problem

    env.reset(np.random.default_rng(1), 60)
    prob = Problem(env.grid, env.kernel, env.noise_var, 60)
    pa.reset(prob, rng_a)
    pb.reset(prob, rng_b)
    noise = np.random.default_rng(2)
    for t in range(1, 61):
        i = pa.select(t, float(t))
        assert i == pb.select(t, float(t))
        y = env.observe(i, noise)
        pa.observe(t, float(t), i, y)
        pb.observe(t, float(t), i, y)
        np.testing.assert_allclose(pa._mean, pb._mean, atol=1e-9)
        np.testing.assert_allclose(pa._var, pb._var, atol=1e-9)
        env.advance()
