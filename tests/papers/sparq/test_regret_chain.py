"""Helpers of ``claims/sparq/regret_chain.py`` and the cost count of ``algorithm.py``."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from tvbo_verify.bandits.environments import SparqSynthetic
from tvbo_verify.papers.sparq.checks.algorithm import counted_costs
from tvbo_verify.papers.sparq.checks.regret_chain import (
    BETA_MONOTONE,
    DELTA,
    B,
    band_score,
    beta_float,
    beta_mp,
    cached_run,
    variance_ratio_scores,
)


def test_beta_twins_agree_and_the_empty_set_gives_the_prior_width():
    kern = SparqSynthetic().kernel
    X, noise = [0.0, 0.5, 3.0], [0.01, 0.02, 0.01]
    with mpmath.workdps(40):
        assert float(beta_mp(X, noise, kern)) == pytest.approx(beta_float(X, noise, kern), rel=1e-12)
    assert beta_float([], [], kern) == pytest.approx(math.sqrt(2 * math.log(2 / DELTA)) + B)


def test_beta_monotone_instances_store_the_sets_of_the_run():
    p = BETA_MONOTONE.instance_of(12, 7, 5)
    pol = cached_run(12, 7)
    assert beta_float(p["X_t"], p["noise_t"], SparqSynthetic().kernel) == pytest.approx(pol.betas[4], rel=1e-12)


def test_variance_ratio_is_one_without_repeated_inputs_early_on():
    scores = variance_ratio_scores((np.random.SeedSequence(0), 12, 3, 3, 5))
    assert np.all(scores >= 1 - 1e-9)


def test_band_score_is_positive_and_finite():
    s = band_score((np.random.SeedSequence(1), 8, "random", "t points"))
    assert 0 < s < np.inf


def test_counted_costs_grow_with_the_paper_ground_set():
    pol = cached_run(20, 3)
    paper, implementation = counted_costs(pol), counted_costs(pol, paper_ground_set=False)
    assert paper.shape == (20,) and np.all(paper >= implementation - 1e-9)


def test_pretend_widths_match_the_unmerged_pretend_posterior():
    from tvbo_verify.gp import posterior
    from tvbo_verify.papers.sparq.checks.regret_chain import pretend_widths
    from tvbo_verify.theory.schedules import sparq_kept_ages

    env = SparqSynthetic(grid_points=41)
    rng = np.random.default_rng(3)
    index = rng.integers(0, 41, size=30)
    index[10:20] = 7  # repeated inputs are merged by the fast version
    s2, expert = 0.01, 0.04
    fast = pretend_widths(env.kernel, env.grid, index, s2, expert)
    assert fast[0] == pytest.approx(math.sqrt(0.5))
    for t in (2, 3, 12, 21, 30):
        kept = set((t - 1 - sparq_kept_ages(t - 1, s2)).tolist())
        noise = np.array([s2 * ((t - 1 - i) ** 2 + 1.0) if i in kept else expert for i in range(1, t)])
        _, var = posterior(env.kernel, env.grid[index[: t - 1]], np.zeros(t - 1), noise, env.grid[index[t - 1:t]])
        assert fast[t - 1] == pytest.approx(math.sqrt(var[0]), rel=1e-7)


def test_regret_chain_bound_is_the_printed_expression():
    from tvbo_verify.information import max_information_gain
    from tvbo_verify.papers.sparq.checks.regret_chain import RegretChain, horizon_gamma

    env = SparqSynthetic(grid_points=21)
    chain = RegretChain(env, 50)
    # the smaller of two upper bounds on the ½ log det γ_50, doubled to the log det convention
    gamma = 2 * min(max_information_gain(env.kernel, env.grid, 50, 0.01).upper, horizon_gamma(21, 3.0, 0.01, 0.5)(50))
    assert chain.gamma == pytest.approx(gamma)
    assert chain.root == pytest.approx(math.sqrt(100 * (1 + (0.01 * math.log(50)) ** 2) * gamma))


def test_regret_chain_bounds_of_a_run_and_the_widest_width_sum():
    from tvbo_verify.bandits.registry import make_policy
    from tvbo_verify.bandits.runner import run
    from tvbo_verify.papers.sparq.checks.regret_chain import ETA, RegretChain, pretend_widths

    env = SparqSynthetic(grid_points=21)
    chain = RegretChain(env, 40)
    trace = run(make_policy("sparq-gp-ucb"), env, 40, np.random.default_rng(1))
    assert chain.widest == pytest.approx(40 * math.sqrt(0.5))  # every width is at most the prior sd M_k
    assert chain.bound_27(trace) == pytest.approx(2 * trace.beta[-1] * math.sqrt(1 + math.sqrt(3 * ETA)) * chain.root)
    widths = pretend_widths(env.kernel, env.grid, trace.index, env.noise_var, float(trace.meta["expert_noise_var"]))
    assert chain.width_sum(trace) == pytest.approx(widths.sum())
    assert 0 < chain.width_sum(trace) <= chain.widest


def test_eq_27_reads_its_bound_from_the_traces_and_finds_it_vacuous(monkeypatch, tmp_path):
    """(27) is compared with the most regret any policy could incur on each run; far above it, the claim is
    undecided, never confirmed, and it carries the uniform-random control."""
    import dataclasses

    from tvbo_verify.papers.sparq.checks import regret_chain
    from tvbo_verify.sweeps.cache import RunCache
    from tvbo_verify.verify import Verdict, run_claim

    small = dataclasses.replace(regret_chain.chain_sweep("quick", 0), horizons=(30,), reps=4)
    monkeypatch.setattr(regret_chain, "chain_sweep", lambda fidelity, seed: small)
    ev = run_claim("sparq:eq-27", cache=RunCache(tmp_path))
    assert ev.verdict is Verdict.INCONCLUSIVE
    assert ev.stats["paper set-up"]["verdict"] == "inconclusive"
    assert sum("vacuous" in r for r in ev.instances if r["set-up"] == "paper" and "link" in r) == 2
    assert ev.stats["median bound (27) / trivial bound Σ_t (max f_t − min f_t)"] > 1
    assert [c.name for c in ev.controls] and all("uniform random" in c.name for c in ev.controls)
