"""Each policy against a direct transcription of its pseudocode on tiny instances; TV-GP-UCB vs a Kalman filter."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify import gp
from tvbo_verify.bandits import GPUCB, RGPUCB, SWGPUCB, TVGPUCB, WGPUCB, constant, kirschner_krause, log_rule, run
from tvbo_verify.bandits.environments import RandomWalkExpansion, WgpucbPaper
from tvbo_verify.confidence import beta_tvgpucb_practical
from tvbo_verify.gp import IncrementalPosterior
from tvbo_verify.kernels import SquaredExponential


def _env():
    return RandomWalkExpansion(grid_points=31, n_centres=6, step=0.3, noise_var=0.05)


def _transcribe(env, T, seed, posterior_fn, beta_fn):
    """Generic loop: x_t = argmax posterior_fn(data, t) mean + beta_fn(t) sd; the same streams as ``run``."""
    env_rng, noise_rng, _, _ = np.random.default_rng(seed).spawn(4)
    env.reset(env_rng, T)
    data: list[tuple[int, float, int]] = []
    chosen = []
    for t in range(1, T + 1):
        if t > 1:
            env.advance()
        mean, var = posterior_fn(data, t)
        i = int(np.argmax(mean + beta_fn(t) * np.sqrt(np.maximum(var, 0))))
        y = env.observe(i, noise_rng)
        data.append((i, y, t))
        chosen.append(i)
    return np.array(chosen)


def _static(env, data):
    if not data:
        return np.zeros(env.grid.shape[0]), env.kernel.diag(env.grid)
    idx = [d[0] for d in data]
    return gp.posterior(env.kernel, env.grid[idx], [d[1] for d in data], env.noise_var, env.grid)


def _sqrt_log_beta(t):
    return np.sqrt(beta_tvgpucb_practical(t, 0.8, 4.0, clip=True))


def test_gpucb_matches_transcription():
    env, T = _env(), 25
    tr = run(GPUCB(log_rule(0.8, 4.0)), env, T, np.random.default_rng(7))
    ref = _transcribe(_env(), T, 7, lambda data, t: _static(env, data), _sqrt_log_beta)
    assert np.array_equal(tr.index, ref)
    assert np.array_equal(tr.dataset_size, np.arange(1, T + 1))
    assert np.allclose(tr.beta, [beta_tvgpucb_practical(t, 0.8, 4.0, clip=True) for t in range(1, T + 1)])


@pytest.mark.parametrize("N", [1, 4, 7])
def test_rgpucb_resets_when_t_minus_1_mod_N_is_zero(N):
    env, T = _env(), 22
    pol = RGPUCB(log_rule(0.8, 4.0), block=N)
    tr = run(pol, env, T, np.random.default_rng(3))
    assert pol.resets == [t for t in range(1, T + 1) if (t - 1) % N == 0]
    assert np.array_equal(tr.dataset_size, [(t - 1) % N + 1 for t in range(1, T + 1)])

    def block_posterior(data, t):
        start = t - (t - 1) % N  # first round of the current block
        return _static(env, [d for d in data if d[2] >= start])

    ref = _transcribe(_env(), T, 3, block_posterior, _sqrt_log_beta)
    assert np.array_equal(tr.index, ref)


def test_tvgpucb_matches_transcription():
    env, T, eps = _env(), 25, 0.05

    def tv(data, t):
        if not data:
            return np.zeros(env.grid.shape[0]), env.kernel.diag(env.grid)
        res = gp.tv_posterior(env.kernel, env.grid[[d[0] for d in data]], [d[1] for d in data], env.noise_var,
                              env.grid, eps)
        return res.mean, res.var

    tr = run(TVGPUCB(log_rule(0.8, 4.0), epsilon=eps), env, T, np.random.default_rng(11))
    assert np.array_equal(tr.index, _transcribe(_env(), T, 11, tv, _sqrt_log_beta))


def test_tvgpucb_posterior_equals_kalman_filter():
    """Kalman filter of f_{t+1} = √(1−ε) f_t + √ε g_{t+1} on the grid vs the TV posterior (1e-10)."""
    rng = np.random.default_rng(0)
    grid = np.linspace(0, 1, 12)[:, None]
    k = SquaredExponential(1.0, 0.3)
    K = k(grid)
    eps, noise = 0.07, 0.1
    rho = np.sqrt(1 - eps)
    post = IncrementalPosterior(k, grid, forgetting=eps)
    m, P = np.zeros(12), K.copy()  # prediction of f_1
    for t in range(1, 40):
        i = int(rng.integers(12))
        y = float(rng.normal())
        # update with y_t = f_t[i] + noise
        s = P[i, i] + noise
        gain = P[:, i] / s
        m = m + gain * (y - m[i])
        P = P - np.outer(gain, P[i, :])
        # predict f_{t+1}
        m, P = rho * m, rho**2 * P + eps * K
        post.append(i, y, noise)
        assert np.max(np.abs(post.mean - m)) < 1e-10
        assert np.max(np.abs(post.var - np.diag(P))) < 1e-10


def test_swgpucb_matches_transcription():
    env, T, W = _env(), 25, 6
    tr = run(SWGPUCB(log_rule(0.8, 4.0), window=W), env, T, np.random.default_rng(5))
    assert np.array_equal(tr.dataset_size, np.minimum(np.arange(1, T + 1), W))
    ref = _transcribe(_env(), T, 5, lambda data, t: _static(env, data[-W:]), _sqrt_log_beta)
    assert np.array_equal(tr.index, ref)


def test_wgpucb_matches_transcription():
    env, T, gam = WgpucbPaper(grid_points=30, M=8), 30, 0.9
    beta = constant(1.5, "multiplies_sigma")

    def weighted(data, t):
        if not data:
            return np.zeros(30), env.kernel.diag(env.grid)
        res = gp.weighted_posterior(env.kernel, env.grid[[d[0] for d in data]], [d[1] for d in data], env.grid,
                                    lam=1.0, discount=gam)
        return res.mean, res.var

    tr = run(WGPUCB(beta, discount=gam, lam=1.0), env, T, np.random.default_rng(2))
    ref = _transcribe(WgpucbPaper(grid_points=30, M=8), T, 2, weighted, lambda t: 1.5)
    assert np.array_equal(tr.index, ref)


def test_gpucb_under_uncertainty_injection_uses_inflated_noise():
    env, T, alpha = _env(), 15, 0.7
    pol = GPUCB(kirschner_krause(B=1.0, delta=0.1), ui_alpha=alpha)

    def ui(data, t):
        if not data:
            return np.zeros(31), env.kernel.diag(env.grid)
        ages = np.array([t - 1 - d[2] for d in data], dtype=float)  # posterior after round t−1
        noise = env.noise_var * (1 + np.where(ages > 0, ages**alpha, 0.0))
        return gp.posterior(env.kernel, env.grid[[d[0] for d in data]], [d[1] for d in data], noise, env.grid)

    tr = run(pol, env, T, np.random.default_rng(4))
    betas = iter(tr.beta)
    ref = _transcribe(_env(), T, 4, ui, lambda t: next(betas))
    assert np.array_equal(tr.index, ref)
    assert np.all(tr.beta > 1.0)  # KK width exceeds B


def test_runs_are_deterministic_and_seed_dependent():
    env = _env()
    a = run(TVGPUCB(epsilon=0.1), env, 30, np.random.default_rng(9))
    b = run(TVGPUCB(epsilon=0.1), env, 30, np.random.default_rng(9))
    c = run(TVGPUCB(epsilon=0.1), env, 30, np.random.default_rng(10))
    assert a.same_run(b)
    assert not a.same_run(c)
    assert np.allclose(a.cumulative, np.cumsum(a.regret)) and np.all(a.regret >= 0)


def test_invalid_parameters_raise():
    with pytest.raises(ValueError, match="block"):
        RGPUCB(block=0)
    with pytest.raises(ValueError, match="epsilon"):
        TVGPUCB(epsilon=1.5)
    with pytest.raises(ValueError, match="window"):
        SWGPUCB(window=0)
    with pytest.raises(ValueError, match="discount"):
        WGPUCB(discount=0.0)
    with pytest.raises(ValueError, match="T"):
        run(GPUCB(), _env(), 0, np.random.default_rng(0))


def test_beta_rules_parse_and_carry_their_convention():
    from tvbo_verify.bandits import parse_beta

    assert parse_beta("log:0.8,4").convention == "sqrt"
    assert parse_beta("kk:2,0.1").convention == "multiplies_sigma"
    assert parse_beta("const:3:multiplies_sigma").multiplier(5) == (3.0, 3.0)
    assert parse_beta("const:4").multiplier(5) == (4.0, 2.0)
    assert parse_beta("tvgpucb:0.05").to_dict()["delta"] == 0.05
    with pytest.raises(ValueError, match="beta must be one of"):
        parse_beta("log:1")
    tr = run(GPUCB(parse_beta("const:4")), _env(), 5, np.random.default_rng(0))
    assert np.all(tr.beta == 4.0)
    assert tr.meta["policy"]["beta"] == {"kind": "constant", "convention": "sqrt", "beta": 4.0}
