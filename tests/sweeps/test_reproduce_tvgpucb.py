"""Helpers of ``tvbo_verify.sweeps.reproduce.tvgpucb`` (no bandit runs)."""

from __future__ import annotations

import numpy as np

from tvbo_verify.sweeps.reproduce.tvgpucb import (
    BLOCK_SWEEP,
    MISMATCH,
    RULE_BLOCK,
    rgpucb_block,
    spread_ratio,
)


def test_block_rule_of_section_5_1():
    assert [rgpucb_block(e, 500) for e in (0.001, 0.01, 0.03)] == [68, 38, 29]
    assert rgpucb_block(0.001, 50) == 50 and RULE_BLOCK == 38


def test_robustness_sweeps_share_seeds_and_vary_one_parameter():
    sw = MISMATCH.sweep("quick")
    assert [a.params["epsilon"] for a in sw.arms] == list(MISMATCH.values)
    assert sw.env_params["epsilon"] == 0.01 and sw.horizons == (200,)
    assert BLOCK_SWEEP.sweep("full").reps == 200
    assert {a.params["block"] for a in BLOCK_SWEEP.sweep("quick").arms} >= {RULE_BLOCK, 200}


class FixedFinals:
    """A stand-in for a SweepResult: final regrets by arm label."""

    def __init__(self, finals):
        self.finals = finals

    def final(self, label):
        return np.asarray(self.finals[label], float)


def test_spread_ratio_of_standard_deviations_with_a_joint_bootstrap():
    rng = np.random.default_rng(2)
    base = rng.normal(size=60)
    res = FixedFinals({"wide": 3.0 * base + 5.0, "narrow": base})
    out = spread_ratio(res, "wide", "narrow", np.random.default_rng(3), B=200)
    # resampling repetitions jointly keeps the exact ratio 3 in every bootstrap draw
    assert abs(out["ratio"] - 3.0) < 1e-12 and np.allclose(out["ratio_ci95"], 3.0) and out["n"] == 60
