"""BOLT and W-DBO: transcription of bolt Algorithm 1, n* by brute force, removal by W2, budget reading."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify import gp
from tvbo_verify.bandits import BOLT, WDBO, constant, run
from tvbo_verify.bandits.environments import SpatioTemporalGP
from tvbo_verify.divergences import removal_w2_bruteforce
from tvbo_verify.kernels import temporal_kernel

RESPONSE = "0.5 + 0.05*n**3"


def _env():
    return SpatioTemporalGP(response_time=RESPONSE, points_per_dim=7, d=1, temporal_lengthscale=4.0)


def _n_star_brute(cap=200):
    k_t = temporal_kernel("matern32", 4.0)
    R = lambda n: 0.5 + 0.05 * n**3  # noqa: E731
    u2 = [np.sum(k_t.of_distance(np.arange(1, n + 1) * R(n)) ** 2) for n in range(1, cap)]
    return int(np.argmax(u2)) + 1


def test_bolt_matches_transcription_of_algorithm_1():
    T, beta = 30, 2.0
    n_star = _n_star_brute()
    pol = BOLT(constant(beta))
    tr = run(pol, _env(), T, np.random.default_rng(3))
    assert pol.n_star == n_star
    assert np.array_equal(tr.dataset_size, np.minimum(np.arange(1, T + 1), n_star))

    env = _env()
    env_rng, noise_rng, _, _ = np.random.default_rng(3).spawn(4)
    env.reset(env_rng, T)
    k = env.st_kernel
    X, y, chosen = np.zeros((0, 2)), np.zeros(0), []
    for t in range(1, T + 1):
        if t > 1:
            env.advance(len(y))
        now = env.time
        Xs = np.column_stack([env.grid, np.full(7, now)])
        if len(y):
            mean, var = gp.posterior(k, X, y, env.noise_var, Xs)
        else:
            mean, var = np.zeros(7), k.diag(Xs)
        i = int(np.argmax(mean + np.sqrt(beta) * np.sqrt(np.maximum(var, 0))))  # line 5
        X = np.vstack([X, [env.grid[i, 0], now]])  # lines 6-7
        y = np.append(y, env.observe(i, noise_rng))
        while len(y) > n_star:  # lines 8-10
            nodes = np.vstack([np.column_stack([env.grid, np.full(7, s)]) for s in now + np.linspace(0, 4.0, 3)])
            w2 = removal_w2_bruteforce(k(X), k(nodes, X), k.diag(nodes), y, env.noise_var)
            j = int(np.argmin(w2))
            X, y = np.delete(X, j, axis=0), np.delete(y, j)
        chosen.append(i)
    assert np.array_equal(tr.index, chosen)
    assert np.allclose(tr.time[1:] - tr.time[:-1], [0.5 + 0.05 * n**3 for n in tr.dataset_size[:-1]])


def test_bolt_requires_a_response_model():
    env = SpatioTemporalGP(response_time=lambda n: 1.0, points_per_dim=4, d=1)
    with pytest.raises(ValueError, match="response"):
        run(BOLT(), env, 3, np.random.default_rng(0))
    tr = run(BOLT(response="1 + 0.1*n**3"), env, 5, np.random.default_rng(0))
    assert tr.T == 5


def test_wdbo_budget_controls_removals():
    # slow clock: every stored observation stays relevant, so a negligible budget removes nothing
    slow = SpatioTemporalGP(response_time="0.1 + 1e-6*n", points_per_dim=7, d=1, temporal_lengthscale=4.0)
    keep_all = run(WDBO(budget_rate=1e-12), slow, 20, np.random.default_rng(1))
    assert np.array_equal(keep_all.dataset_size, np.arange(1, 21))
    pol = WDBO(budget_rate=5.0)
    eager = run(pol, _env(), 20, np.random.default_rng(1))
    assert eager.dataset_size[-1] < 20 and pol.budget >= 0
    assert sorted(pol.removed + pol._stamps) == list(range(1, 21))


def test_bolt_runs_with_measured_clock():
    pol = BOLT(response="measured", refit_every=5)
    tr = run(pol, _env(), 25, np.random.default_rng(0))
    assert tr.T == 25 and np.all(tr.dataset_size <= pol.n_cap)
    assert all(n >= 1 for n in pol.n_star_history)


def test_wdbo_matches_transcription_of_budget_reading():
    T, beta, rate = 25, 2.0, 2.0
    pol = WDBO(constant(beta), budget_rate=rate)
    tr = run(pol, _env(), T, np.random.default_rng(6))

    env = _env()
    env_rng, noise_rng, _, _ = np.random.default_rng(6).spawn(4)
    env.reset(env_rng, T)
    k = env.st_kernel
    X, y, chosen, sizes, budget, last = np.zeros((0, 2)), np.zeros(0), [], [], 0.0, None
    for t in range(1, T + 1):
        if t > 1:
            env.advance(len(y))
        now = env.time
        Xs = np.column_stack([env.grid, np.full(7, now)])
        mean, var = gp.posterior(k, X, y, env.noise_var, Xs) if len(y) else (np.zeros(7), k.diag(Xs))
        i = int(np.argmax(mean + np.sqrt(beta) * np.sqrt(np.maximum(var, 0))))
        X = np.vstack([X, [env.grid[i, 0], now]])
        y = np.append(y, env.observe(i, noise_rng))
        if last is not None:
            budget += rate * (now - last) / 4.0
        last = now
        nodes = np.vstack([np.column_stack([env.grid, np.full(7, s)]) for s in now + np.linspace(0, 4.0, 3)])
        while len(y) > 1:
            w2 = removal_w2_bruteforce(k(X), k(nodes, X), k.diag(nodes), y, env.noise_var)
            m, v = gp.posterior(k, X, y, env.noise_var, nodes)
            scale = np.sqrt(np.mean(m**2 + (np.sqrt(v) - np.sqrt(k.diag(nodes))) ** 2))
            j = int(np.argmin(w2))
            if w2[j] / scale > budget:
                break
            budget -= w2[j] / scale
            X, y = np.delete(X, j, axis=0), np.delete(y, j)
        chosen.append(i)
        sizes.append(len(y))
    assert np.array_equal(tr.index, chosen)
    assert np.array_equal(tr.dataset_size, sizes)
    assert min(sizes) < T and pol.budget == pytest.approx(budget, abs=1e-9)


def test_bolt_clock_mode_fits_response_times_from_consecutive_clock_readings():
    from tvbo_verify.theory.response import ResponseModel, n_star

    pol = BOLT(response="clock", refit_every=5)
    tr = run(pol, _env(), 30, np.random.default_rng(2))
    timings = tr.meta["policy"]["timings"]
    assert len(timings) == 29  # one gap per pair of consecutive iterations
    for (n, seconds), size in zip(timings, tr.dataset_size[:-1]):
        assert n == size and seconds == pytest.approx(0.5 + 0.05 * n**3, rel=1e-12)
    exact = n_star(ResponseModel.from_expression(RESPONSE), pol.k_T).n_star
    assert pol.n_star_history and set(pol.n_star_history) == {exact}  # the cubic fit recovers R exactly
    assert tr.dataset_size.max() <= max(exact, 5)


def test_bolt_measured_timings_are_recorded_and_replayed_exactly():
    first = BOLT(response="measured", refit_every=4)
    a = run(first, _env(), 24, np.random.default_rng(5))
    timings = a.meta["policy"]["timings"]
    assert len(timings) == 24 and a.meta["policy"]["replayed"] is False
    second = BOLT(response="measured", refit_every=4, timings=timings)
    b = run(second, _env(), 24, np.random.default_rng(5))
    assert b.meta["policy"]["replayed"] is True
    assert np.array_equal(a.index, b.index) and np.array_equal(a.dataset_size, b.dataset_size)
    assert b.meta["policy"]["timings"] == timings and second.n_star_history == first.n_star_history
    with pytest.raises(ValueError, match="replayed timings hold"):
        run(BOLT(response="measured", timings=timings[:3]), _env(), 6, np.random.default_rng(5))
    with pytest.raises(ValueError, match="timings"):
        BOLT(response="1 + n", timings=timings)
    with pytest.raises(ValueError, match="seconds"):
        BOLT(response="measured", timings=[[0, -1.0]])


def test_fifo_gp_ucb_keeps_the_most_recent_observations():
    from tvbo_verify.bandits import FIFOGPUCB

    size, T, beta = 4, 15, 2.0
    pol = FIFOGPUCB(constant(beta), size=size)
    tr = run(pol, _env(), T, np.random.default_rng(4))
    assert np.array_equal(tr.dataset_size, np.minimum(np.arange(1, T + 1), size))
    assert pol.removed == list(range(1, T - size + 1)) and pol._stamps == list(range(T - size + 1, T + 1))
    env = _env()
    env_rng, noise_rng, _, _ = np.random.default_rng(4).spawn(4)
    env.reset(env_rng, T)
    X, y, chosen = np.zeros((0, 2)), np.zeros(0), []
    for t in range(1, T + 1):
        if t > 1:
            env.advance(len(y))
        i = _ucb_choice(env, X, y, beta)
        X, y = np.vstack([X, [env.grid[i, 0], env.time]])[-size:], np.append(y, env.observe(i, noise_rng))[-size:]
        chosen.append(i)
    assert np.array_equal(tr.index, chosen)


def _ucb_choice(env, X, y, beta):
    """GP-UCB on the exact spatio-temporal posterior at the environment's current time (bolt §1.3)."""
    Xs = np.column_stack([env.grid, np.full(env.grid.shape[0], env.time)])
    k = env.st_kernel
    mean, var = gp.posterior(k, X, y, env.noise_var, Xs) if len(y) else (np.zeros(env.grid.shape[0]), k.diag(Xs))
    return int(np.argmax(mean + np.sqrt(beta) * np.sqrt(np.maximum(var, 0))))


def test_bolt_beta_rule_is_eq_63_as_printed():
    from tvbo_verify.bandits import bolt_theory, parse_beta
    from tvbo_verify.confidence import beta_bolt_as_printed

    rule = bolt_theory(L=20.0, delta=0.1)
    assert rule.value(7, d=2) == beta_bolt_as_printed(7, 2, 20.0, 0.1) and rule.convention == "sqrt"
    assert parse_beta("bolt:20,0.1") == rule and parse_beta("bolt:3").params == {"L": 3.0, "delta": 0.1}
    with pytest.raises(ValueError, match="delta"):
        bolt_theory(L=1.0, delta=1.5)


def test_temporal_nugget_keeps_dense_se_sampling_finite_and_defaults_to_exact_sampling():
    dense = dict(response_time="0.05", points_per_dim=6, d=1, temporal="se", temporal_lengthscale=1.0)
    env = SpatioTemporalGP(**dense, temporal_nugget=1e-9)
    env.reset(np.random.default_rng(0), 150)
    values = [env.values().copy()]
    for _ in range(149):
        env.advance(0)
        values.append(env.values().copy())
    assert np.all(np.isfinite(values)) and env.config()["temporal_nugget"] == 1e-9
    plain = SpatioTemporalGP(response_time="0.5", points_per_dim=6, d=1)
    assert "temporal_nugget" not in plain.config()
    with pytest.raises(ValueError, match="temporal_nugget"):
        SpatioTemporalGP(**dense, temporal_nugget=-1.0)


def test_grid_square_root_does_not_depend_on_the_number_of_blas_threads():
    from threadpoolctl import threadpool_limits

    from tvbo_verify.bandits.environments.base import psd_sqrt, unit_grid
    from tvbo_verify.kernels import Matern

    K = Matern(2.5, 1.0, 0.2)(unit_grid(15, 2))  # symmetric grid: repeated eigenvalues
    with threadpool_limits(limits=1, user_api="blas"):
        one = psd_sqrt(K)
    many = psd_sqrt(K)
    assert np.array_equal(one, many) and np.allclose(one @ one.T, K, atol=1e-10)


def test_bolt_replays_timings_from_a_saved_trace(tmp_path):
    from tvbo_verify.bandits import save_trace

    a = run(BOLT(response="measured", refit_every=4), _env(), 16, np.random.default_rng(8))
    _, meta = save_trace(a, str(tmp_path), 0)
    b = run(BOLT(response="measured", refit_every=4, timings=meta), _env(), 16, np.random.default_rng(8))
    assert np.array_equal(a.index, b.index) and b.meta["policy"]["timings"] == a.meta["policy"]["timings"]
    with pytest.raises(ValueError, match="trace metadata file"):
        BOLT(response="measured", timings=str(tmp_path / "missing.json"))
