"""SparQ-GP-UCB and W-SparQ-GP-UCB against direct transcriptions of their pseudocode."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify import gp
from tvbo_verify.bandits import kirschner_krause, run
from tvbo_verify.bandits.environments import RandomWalkExpansion
from tvbo_verify.bandits.sparq import SparQGPUCB, WSparQGPUCB
from tvbo_verify.dpp import greedy_init
from tvbo_verify.theory.schedules import QueryRule, window_schedule

B, DELTA = 1.0, 0.1


def _env():
    return RandomWalkExpansion(grid_points=41, n_centres=6, step=0.3, noise_var=0.05)


def _kk(env, idx, noise):
    """wsparq eq. (12): sqrt(2 log(2/δ) + log det(I + Σ⁻¹K)) + B, written out."""
    if len(idx) == 0:
        return math.sqrt(2 * math.log(2 / DELTA)) + B
    K = env.kernel(env.grid[idx])
    M = np.eye(len(idx)) + K / np.asarray(noise)[:, None]
    return math.sqrt(2 * math.log(2 / DELTA) + np.linalg.slogdet(M)[1]) + B


def _transcribe(T, seed, build_set):
    """x_{t+1} = argmax μ_t + β_{t+1} σ_t on the set returned by build_set(t, history, expert)."""
    env = _env()
    env_rng, noise_rng, _, expert_rng = np.random.default_rng(seed).spawn(4)
    env.reset(env_rng, T)

    def expert(idx):
        return env.values()[idx] + math.sqrt(env.noise_var) * expert_rng.standard_normal(len(idx))

    hist: list[tuple[int, float]] = []
    S_idx, S_y, S_noise = [], [], []
    chosen, sizes = [], []
    for t in range(1, T + 1):
        if t > 1:
            env.advance()
        if S_idx:
            mean, var = gp.posterior(env.kernel, env.grid[S_idx], S_y, np.asarray(S_noise), env.grid)
        else:
            mean, var = np.zeros(41), env.kernel.diag(env.grid)
        i = int(np.argmax(mean + _kk(env, S_idx, S_noise) * np.sqrt(np.maximum(var, 0))))
        hist.append((i, env.observe(i, noise_rng)))
        S_idx, S_y, S_noise = build_set(t, hist, expert, env, (S_idx, S_y, S_noise))
        chosen.append(i)
        sizes.append(len(S_idx))
    return np.array(chosen), np.array(sizes)


def _greedy_points(env, hist, q):
    distinct = np.unique([h[0] for h in hist])
    q = min(q, distinct.size)
    return list(distinct[np.sort(greedy_init(env.kernel(env.grid[distinct]), q))])


def test_sparq_matches_transcription_with_discards():
    T = 24
    Q = math.ceil(6 * math.log(T))
    s2 = _env().noise_var

    def build(t, hist, expert, env, _):
        pts = _greedy_points(env, hist, Q)
        ys = list(expert(pts))
        recent = [i for i in range(1, t + 1) if s2 * ((t - i) ** 2 + 1) <= s2 * math.log(t)]  # line 4
        return (pts + [hist[i - 1][0] for i in recent], ys + [hist[i - 1][1] for i in recent],
                [env.noise_var] * len(pts) + [s2 * ((t - i) ** 2 + 1) for i in recent])

    pol = SparQGPUCB(kirschner_krause(B=B, delta=DELTA), dpp="greedy")
    tr = run(pol, _env(), T, np.random.default_rng(4))
    ref_idx, ref_sizes = _transcribe(T, 4, build)
    assert np.array_equal(tr.index, ref_idx)
    assert np.array_equal(tr.dataset_size, ref_sizes)
    per_step = np.diff(np.r_[0, tr.expert_queries])
    distinct = [len(set(tr.index[:t])) for t in range(1, T + 1)]
    assert np.array_equal(per_step, np.minimum(Q, distinct))  # expert queries at every step


def test_sparq_discard_rule_keeps_only_recent_rounds():
    pol = SparQGPUCB(dpp="greedy")
    run(pol, _env(), 3, np.random.default_rng(0))
    assert list(pol.kept_rounds(1)) == [] and list(pol.kept_rounds(2)) == []  # log 2 < 1
    assert list(pol.kept_rounds(8)) == [7, 8]  # ages 0, 1 once t >= 8
    assert list(pol.kept_rounds(149)) == [147, 148, 149]  # age 2 from t >= 149
    assert list(pol.kept_rounds(148)) == [147, 148]


@pytest.mark.parametrize("alpha", [0.5, 1.0])
def test_wsparq_windows_queries_and_transcription(alpha):
    T, at = 40, 0.25
    rule = QueryRule("log", c_q=2.0)
    sched = window_schedule(alpha, at, T)
    starts = set(int(s) for s in sched.starts)
    s2 = _env().noise_var

    def build(t, hist, expert, env, current):
        S_idx, S_y, stamps = current[0], current[1], getattr(build, "stamps", [])
        if t in starts:
            S_idx = _greedy_points(env, hist, rule.count(t, T))
            S_y = list(expert(S_idx))
            stamps = [t] * len(S_idx)
        else:
            S_idx, S_y, stamps = S_idx + [hist[-1][0]], S_y + [hist[-1][1]], stamps + [t]
        build.stamps = stamps
        noise = [s2 * (1 + ((t - s) ** alpha if t > s else 0.0)) for s in stamps]
        return S_idx, S_y, noise

    pol = WSparQGPUCB(kirschner_krause(B=B, delta=DELTA), alpha=alpha, alpha_tilde=at, queries=rule, dpp="greedy")
    tr = run(pol, _env(), T, np.random.default_rng(8))
    ref_idx, ref_sizes = _transcribe(T, 8, build)
    assert np.array_equal(pol.schedule.starts, sched.starts)
    assert np.array_equal(tr.index, ref_idx)
    assert np.array_equal(tr.dataset_size, ref_sizes)
    per_step = np.diff(np.r_[0, tr.expert_queries])
    assert set(np.flatnonzero(per_step) + 1) <= starts  # expert only at window starts
    for s in sched.starts:
        distinct = len(set(tr.index[:s]))
        assert per_step[s - 1] == min(rule.count(int(s), T), distinct)
    assert tr.expert_queries[-1] == sum(min(rule.count(int(s), T), len(set(tr.index[:s]))) for s in sched.starts)


def test_sparse_policies_respect_expert_budget_and_sample_dpp():
    tr = run(SparQGPUCB(), _env(), 20, np.random.default_rng(1), expert_budget=15)
    assert tr.expert_queries[-1] == 15
    a = run(WSparQGPUCB(dpp="mcmc", dpp_iterations=50), _env(), 20, np.random.default_rng(2))
    b = run(WSparQGPUCB(dpp="mcmc", dpp_iterations=50), _env(), 20, np.random.default_rng(2))
    assert a.same_run(b)


def test_sparse_policies_validate():
    with pytest.raises(ValueError, match="alpha_tilde"):
        WSparQGPUCB(alpha_tilde=0.4)
    with pytest.raises(ValueError, match="dpp"):
        SparQGPUCB(dpp="random")
    with pytest.raises(ValueError, match="noise_mode"):
        WSparQGPUCB(noise_mode="x")


def test_sparse_policies_record_the_expert_points_and_expose_the_posterior():
    import numpy as np

    from tvbo_verify.bandits.beta import kirschner_krause
    from tvbo_verify.bandits.environments.rkhs import RandomWalkExpansion
    from tvbo_verify.bandits.runner import run
    from tvbo_verify.bandits.sparq import WSparQGPUCB

    policy = WSparQGPUCB(kirschner_krause(B=1.0, delta=0.1), alpha=1.0, alpha_tilde=0.25, c_q=2.0)
    tr = run(policy, RandomWalkExpansion(B=1.0, grid_points=51), 30, np.random.default_rng(0))
    assert sum(len(v) for v in policy.query_points.values()) == tr.expert_queries[-1]
    assert set(policy.query_points) == {t for t, q in policy.query_log if q > 0}
    mean, var = policy.posterior()
    assert mean.shape == var.shape == (51,) and np.all(var >= 0)
