"""Helpers of ``claims/sparq/regret_chain.py`` and the cost count of ``algorithm.py``."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from tvbo_verify.bandits.environments import SparqSynthetic
from tvbo_verify.verify.claims.sparq.algorithm import counted_costs
from tvbo_verify.verify.claims.sparq.regret_chain import (
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
