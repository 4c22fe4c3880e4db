"""Helpers of ``tvbo_verify.verify.claims.tvgpucb.regret_bounds``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.bandits import RGPUCB, TVGPUCB, run
from tvbo_verify.theory.rates import tvgpucb_regret_bound
from tvbo_verify.verify.claims.tvgpucb.regret_bounds import (
    THEORY_BETA,
    affine_score,
    horizon_ladder,
    markov_environment,
    mismatch_step_score,
    printed_bound_17,
    static_part_17,
    tv_bound_run,
)


def test_affine_score_turns_two_bounds_into_thresholds_one_and_zero():
    s = affine_score(np.array([5.0, 10.0, 20.0, 7.0]), np.full(4, 10.0), np.full(4, 5.0))
    assert np.allclose(s, [0.0, 1.0, 3.0, 0.4])
    with pytest.raises(ValueError):
        affine_score(np.ones(2), np.ones(2), np.full(2, 2.0))


def test_horizon_ladder_ends_at_the_horizon():
    assert horizon_ladder(200) == [25, 50, 100, 200]
    assert horizon_ladder(500) == [25, 50, 100, 200, 400, 500]


def test_tv_bound_run_is_eq_20_with_the_lower_bracket_of_gamma_tilde():
    env = markov_environment(0.1)
    tr = run(TVGPUCB(THEORY_BETA, epsilon=0.1), env, 30, np.random.default_rng(0))
    r = tv_bound_run(tr, 0.1, [10, 30])
    assert np.allclose(r.regret, tr.cumulative[[9, 29]])
    lower = (r.bound - 2.0) ** 2  # C_1 T β_T L_T
    beta = [tr.beta[9], tr.beta[29]]
    expect = [tvgpucb_regret_bound(T, b, lo / (8 / math.log1p(100) * T * b), 0.01)
              for T, b, lo in zip((10, 30), beta, lower)]
    assert np.allclose(r.bound, expect)
    assert np.all(r.played > 0) and np.all(r.sharpened < r.bound)


def test_mismatch_score_is_below_zero_without_forgetting_and_positive_terms():
    # with ε = 0 the two posteriors coincide: no mismatch, and (72) is the GP-UCB step r_t <= 2 β^{1/2} σ
    env = markov_environment(0.0)
    tr = run(RGPUCB(THEORY_BETA, block=5), env, 12, np.random.default_rng(1))
    assert mismatch_step_score(tr, 0.0, 5) == -math.inf
    env = markov_environment(0.1)
    tr = run(RGPUCB(THEORY_BETA, block=5), env, 12, np.random.default_rng(1))
    assert math.isfinite(mismatch_step_score(tr, 0.1, 5))


def test_printed_bound_exceeds_its_static_part_by_the_mismatch_term():
    assert printed_bound_17(100, 38, 0.01, 60.0) > 1e6 * static_part_17(100, 38, 60.0)
    assert printed_bound_17(100, 38, 1e-16, 60.0) == pytest.approx(static_part_17(100, 38, 60.0), rel=1e-3)
