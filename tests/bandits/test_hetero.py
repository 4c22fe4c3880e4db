"""Heteroscedastic GP-UCB on merged per-input statistics, and the static noise-model environments."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.bandits.beta import constant, kirschner_krause
from tvbo_verify.bandits.gpucb import GPUCB
from tvbo_verify.bandits.hetero import (
    HeteroscedasticGPUCB,
    MergedData,
    merged_posterior,
    noise_variances,
    replay_widths,
)
from tvbo_verify.bandits.registry import make_env, make_policy
from tvbo_verify.bandits.runner import run
from tvbo_verify.gp import posterior_full
from tvbo_verify.information import log_det_ratio_from_gram
from tvbo_verify.kernels import SquaredExponential


def test_merged_posterior_equals_the_posterior_on_every_observation():
    rng = np.random.default_rng(0)
    kern = SquaredExponential(1.0, 0.7)
    grid = np.linspace(0, 5, 31)[:, None]
    idx = rng.integers(0, 31, 60)  # many repeated inputs
    y = rng.normal(size=60)
    v = rng.uniform(0.01, 2.0, 60)
    data = MergedData(31)
    for i, val in zip(idx, y):
        data.append(int(i), float(val))
    P, W = data.statistics(v)
    merged = merged_posterior(kern(grid), kern.diag(grid), P, W)
    full = posterior_full(kern, grid[idx], y, v, grid)
    assert np.allclose(merged.mean, full.mean, atol=1e-8)
    assert np.allclose(merged.var, full.var, atol=1e-8)
    assert merged.log_det_ratio == pytest.approx(log_det_ratio_from_gram(kern(grid[idx]), v), rel=1e-9)
    K_U, noise = merged.gram_and_noise(kern(grid))
    assert log_det_ratio_from_gram(K_U, noise) == pytest.approx(merged.log_det_ratio, rel=1e-9)


def test_empty_posterior_is_the_prior():
    kern = SquaredExponential(2.0, 1.0)
    grid = np.linspace(0, 1, 5)[:, None]
    post = merged_posterior(kern(grid), kern.diag(grid), np.zeros(5), np.zeros(5))
    assert np.all(post.mean == 0) and np.allclose(post.var, 2.0) and post.log_det_ratio == 0.0


@pytest.mark.parametrize("alpha", [0.0, 0.3, 1.0])
def test_age_schedule_makes_the_decisions_of_gp_ucb_under_uncertainty_injection(alpha):
    env = make_env("ui-drift", {"alpha": max(alpha, 0.1), "grid_points": 41})
    beta = kirschner_krause(B=1.0, delta=0.1)
    a = run(GPUCB(beta, ui_alpha=alpha), env, 60, np.random.default_rng(4))
    b = run(HeteroscedasticGPUCB(beta, alpha=alpha), env, 60, np.random.default_rng(4))
    assert np.array_equal(a.index, b.index)
    assert np.allclose(a.beta, b.beta, rtol=1e-10)


def test_replay_recovers_the_widths_the_run_used():
    env = make_env("index-noise", {"alpha": 0.5, "grid_points": 31})
    beta = kirschner_krause(B="env", delta=0.1)
    pol = make_policy("hetero-gp-ucb", {"alpha": 0.5, "schedule": "index", "record_widths": True}, beta)
    tr = run(pol, env, 40, np.random.default_rng(1))
    assert np.allclose(tr.meta["policy"]["widths"], replay_widths(
        env.kernel, env.grid, env.noise_var, tr.index, beta.resolve({"rkhs_bound": env.B}), alpha=0.5,
        schedule="index").sd, rtol=1e-12)
    rep = replay_widths(env.kernel, env.grid, env.noise_var, tr.index, beta.resolve({"rkhs_bound": env.B}),
                        alpha=0.5, schedule="index")
    assert np.allclose(rep.beta, tr.beta, rtol=1e-12)
    assert rep.sd[0] == pytest.approx(1.0) and np.all(rep.sd <= 1.0 + 1e-12) and rep.sd[-10:].max() < 0.5


def test_noise_schedules():
    r = np.arange(1, 5)
    assert np.allclose(noise_variances("age", 0.1, 1.0, r, 4), 0.1 * np.array([4, 3, 2, 1]))
    assert np.allclose(noise_variances("age", 0.1, 0.0, r, 4), 0.1 * np.array([2, 2, 2, 1]))  # 0^alpha := 0
    assert np.allclose(noise_variances("index", 0.1, 2.0, r, 4), 0.1 * r**2)
    assert np.allclose(noise_variances("horizon", 0.1, 1.0, r, 2, horizon=4), 0.1 * np.array([4, 3, 2, 1]))
    with pytest.raises(ValueError, match="horizon"):
        noise_variances("horizon", 0.1, 1.0, r, 2)
    with pytest.raises(ValueError, match="schedule"):
        HeteroscedasticGPUCB(constant(1.0), schedule="weekly")
    with pytest.raises(ValueError, match="alpha"):
        HeteroscedasticGPUCB(alpha=-1.0)


def test_index_noise_environment_grows_its_noise_with_the_round():
    env = make_env("index-noise", {"alpha": 1.0, "noise_var": 0.04})
    env.reset(np.random.default_rng(0), 10)
    assert env.rkhs_norm(1) == pytest.approx(1.0) and env.rkhs_norm(7) == env.rkhs_norm(1)
    assert env.noise_variance(1) == pytest.approx(0.04) and env.noise_variance(9) == pytest.approx(0.36)
    rng = np.random.default_rng(1)
    for _ in range(8):
        env.advance()
    draws = np.array([env.observe(3, rng) for _ in range(4000)]) - env.values()[3]
    assert np.var(draws) == pytest.approx(0.36, rel=0.1)


def test_bump_horizon_environment_follows_model_35():
    env = make_env("bump-horizon", {"alpha": 2.0, "M": 4, "gamma": 0.5, "noise_var": 0.01})
    env.reset(np.random.default_rng(3), 11)
    f = env.values()
    assert f.max() == pytest.approx(1.0, rel=1e-6)  # peak 2γ at the cell centre, which is on the grid
    assert int(np.argmax(f)) == env.target * env.points_per_cell + env.points_per_cell // 2
    assert env.noise_variance(1) == pytest.approx(0.01 * 101) and env.noise_variance(11) == pytest.approx(0.01)
    assert 0 < env.rkhs_bound() < 10
    with pytest.raises(ValueError, match="points_per_cell"):
        make_env("bump-horizon", {"points_per_cell": 4})


def test_o1_data_follow_the_papers_noise_law_not_the_policys_model(monkeypatch):
    """Generator O1 draws its data with σ²(1 + (t − s)^α) of wsparq §5.0 whatever variances the policy's model
    assigns: with a wrong model (α halved) the spread of the merged data is Σ v_s/u_s², not the model's Σ 1/u_s."""
    from types import SimpleNamespace

    from tvbo_verify.bandits import hetero
    from tvbo_verify.bandits.policy import Problem

    alpha, s2, f = 1.0, 0.01, np.array([0.3, -0.1, 0.2])
    real = hetero.noise_variances
    monkeypatch.setattr(hetero, "noise_variances",
                        lambda schedule, noise_var, a, *args, **kw: real(schedule, noise_var, a / 2, *args, **kw))
    policy = HeteroscedasticGPUCB(constant(1.0, "multiplies_sigma"), alpha=alpha, generator="O1")
    ones = SimpleNamespace(standard_normal=lambda n: np.ones(n), integers=lambda n: 0)
    grid = np.array([[0.0], [5.0], [10.0]])
    policy.reset(Problem(grid, SquaredExponential(1.0, 0.5), s2, 10), ones,
                 SimpleNamespace(env=SimpleNamespace(values=lambda: f)))
    for step in range(1, 5):
        policy.observe(step, float(step), 0, 123.0)  # the recorded values are replaced under O1
    policy.select(5, 5.0)
    rounds = np.arange(1.0, 5.0)
    law = s2 * (1 + (5 - rounds) ** alpha)  # the paper's variances, written out
    model = s2 * (1 + (5 - rounds) ** (alpha / 2))
    P = np.sum(1 / model)
    assert policy.post.precision[0] == pytest.approx(P, rel=1e-12)
    k = 1.0  # k(x, x) of the only observed input; its posterior mean is k W / (1 + k P)
    W = policy.post.mean[0] * (1 + k * P) / k
    assert W - f[0] * P == pytest.approx(np.sqrt(np.sum(law / model**2)), rel=1e-9)


def test_o1_coupled_data_are_the_observations_moved_to_the_target_with_the_noise_topped_up():
    """Generator O1-coupled: the datum of round s behind round t is y_s − f_s(x_s) + f_t(x_s) + N(0, v_s − σ_e²),
    so its law is O1's (mean f_t, variance σ²(1 + (t − s)^α) when y_s carries N(0, σ_e²)) and it moves with y_s."""
    from types import SimpleNamespace

    from tvbo_verify.bandits.policy import Problem

    alpha, s2 = 1.0, 0.01
    env = SimpleNamespace(values=None, noise_var=s2)
    ones = SimpleNamespace(standard_normal=lambda n: np.ones(n), integers=lambda n: 0)
    grid = np.array([[0.0], [5.0], [10.0]])

    def merged(ys):
        policy = HeteroscedasticGPUCB(constant(1.0, "multiplies_sigma"), alpha=alpha, generator="O1-coupled")
        policy.reset(Problem(grid, SquaredExponential(1.0, 0.5), s2, 10), ones, SimpleNamespace(env=env))
        for step, y in enumerate(ys, start=1):
            env.values = lambda step=step: np.array([0.1 * step, 0.0, 0.0])  # f_s(x_0) = 0.1 s
            policy.observe(step, float(step), 0, y)
        env.values = lambda: np.array([0.7, 0.0, 0.0])  # f_5
        policy.select(5, 5.0)
        P = float(policy.post.precision[0])
        return policy.post.mean[0] * (1 + P) - 0.7 * P, P  # W − f_5 P (k(x, x) = 1)

    rounds = np.arange(1.0, 5.0)
    v = s2 * (1 + (5 - rounds) ** alpha)
    noise = np.array([0.05, -0.02, 0.01, 0.03])
    spread, P = merged(0.1 * rounds + noise)
    assert P == pytest.approx(np.sum(1 / v), rel=1e-12)
    assert spread == pytest.approx(np.sum(noise / v) + np.sqrt(np.sum((v - s2) / v**2)), rel=1e-9)
    zeros, _ = merged(np.zeros(4))  # observations replaced by 0: the data move by −f_s(x_s)/v_s
    assert zeros == pytest.approx(np.sum(-0.1 * rounds / v) + np.sqrt(np.sum((v - s2) / v**2)), rel=1e-9)
    with pytest.raises(ValueError, match="schedule='age'"):
        HeteroscedasticGPUCB(alpha=alpha, schedule="index", generator="O1-coupled")
