"""Helpers of ``claims/sparq/mcmc.py``."""

from __future__ import annotations

import numpy as np

from tvbo_verify.papers.sparq.checks.mcmc import ChainLaw, GreedyRun, acceptance_gap, family_properties, se_gram
from tvbo_verify.verify.stats import DEFAULT_POLICY


def test_chain_law_is_stationary_and_mixes():
    rng = np.random.default_rng(1)
    law = ChainLaw(se_gram(rng, 7), 2)
    assert np.allclose(law.pi @ law.P, law.pi, atol=1e-12)
    assert law.tv_after(0) > 0.01 >= law.tv_after(law.anari_bound(0.01))
    assert law.steps_to(0.01) <= law.anari_bound(0.01)
    assert acceptance_gap(rng, law.K, 2, trials=10) < 1e-12


def test_goodness_of_fit_rejects_a_point_mass():
    law = ChainLaw(se_gram(np.random.default_rng(2), 7), 2)
    draws = np.tile(np.array(law.start), (2000, 1))
    p, tv = law.goodness_of_fit(draws)
    assert p < 1e-6 and tv > 0.5


def test_greedy_properties_hold_with_a_repeated_input():
    K = se_gram(np.random.default_rng(3), 9, duplicate=True)
    assert all(p.verdict.value == "confirmed" for p in GreedyRun.of(K, 4, "x").properties())


def test_family_sharpenings_are_caught_once_one_instance_differs():
    rng = np.random.default_rng(4)
    single = [GreedyRun.of(se_gram(rng, 9), 1, "M = 1")]  # one pick: the argmax of k(x, x), optimal
    assert not any(p.sharpened_caught(DEFAULT_POLICY) for p in family_properties(single))
    family = single + [GreedyRun.of(se_gram(np.random.default_rng(s), 12), 4, f"i{s}") for s in range(6)]
    assert [p.verdict.value for p in family_properties(family)] == ["confirmed", "confirmed"]
    assert all(p.sharpened_caught(DEFAULT_POLICY) for p in family_properties(family))
