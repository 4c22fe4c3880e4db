"""Helpers of ``tvbo_verify.sweeps.reproduce.tvgpucb`` (no bandit runs)."""

from __future__ import annotations

import numpy as np

from tvbo_verify.sweeps.reproduce.tvgpucb import (
    BLOCK_SWEEP,
    KERNELS_2AB,
    MISMATCH,
    RULE_BLOCK,
    RealDataAnalogue,
    SamplePaths,
    figure_2ab_sweeps,
    mean_displacement,
    reset_jumps,
    rgpucb_block,
    spread_ratio,
)


def test_block_rule_of_section_5_1():
    assert [rgpucb_block(e, 500) for e in (0.001, 0.01, 0.03)] == [68, 38, 29]
    assert [rgpucb_block(e, 500, "matern52") for e in (0.001, 0.01, 0.03)] == [178, 92, 67]
    assert rgpucb_block(0.001, 50) == 50 and RULE_BLOCK == 38


def test_robustness_sweeps_share_seeds_and_vary_one_parameter():
    sw = MISMATCH.sweep("quick")
    assert [a.params["epsilon"] for a in sw.arms] == list(MISMATCH.values)
    assert sw.env_params["epsilon"] == 0.01 and sw.horizons == (200,)
    assert BLOCK_SWEEP.sweep("full").reps == 200
    assert {a.params["block"] for a in BLOCK_SWEEP.sweep("quick").arms} >= {RULE_BLOCK, 200}


def test_sample_paths_are_stationary_with_the_markov_covariance():
    F = SamplePaths.draw(None, np.random.default_rng(0), paths=400)
    assert F.shape == (400, SamplePaths.HORIZON, SamplePaths.POINTS)
    # every f_t ~ GP(0, k): unit marginal variance; Cov(f_t, f_{t+j}) = (1 - eps)^{j/2} (eq. (22))
    assert abs(F[:, -1].var() - 1.0) < 0.1
    lag = 100
    corr = np.mean(F[:, 0] * F[:, lag])
    assert abs(corr - (1 - SamplePaths.EPSILON) ** (lag / 2)) < 0.1


def test_displacement_and_its_mean():
    F = np.zeros((3, 4, SamplePaths.POINTS))
    F[:, 0, 0] = 1.0  # maximiser at x = 0 in round 1
    F[:, 1:, -1] = 1.0  # then at x = 1
    d = SamplePaths.displacement(F)
    assert np.allclose(d[:, 0], 0.0) and np.allclose(d[:, -1], 1.0)
    est = mean_displacement(d, np.random.default_rng(1), B=50)
    assert est["mean"] == 1.0 and est["ci95"] == [1.0, 1.0] and est["paths"] == 3


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


class FixedSeries:
    """A stand-in for a SweepResult: per-round regret arrays by arm label."""

    def __init__(self, series):
        self.data = series

    def series(self, label, name):
        assert name == "regret"
        return np.asarray(self.data[label], float)


def test_reset_jumps_compare_the_rounds_after_each_reset_with_those_before():
    T, N = 40, 10
    bumpy = np.tile(np.where((np.arange(T) % N) < 2, 3.0, 1.0), (2, 1))  # two high rounds after every reset
    flat = np.ones((2, T))
    res = FixedSeries({"R": bumpy, "TV": flat})
    assert np.allclose(reset_jumps(res, "R", N), 2.0)  # k = 2: post 3, pre 1
    assert np.allclose(reset_jumps(res, "TV", N), 0.0)


def test_figure_2ab_sweeps_cover_both_kernels_with_their_block_rules():
    sweeps = figure_2ab_sweeps("quick")
    assert len(sweeps) == 2 * 3 and set(KERNELS_2AB.values()) == {"se", "matern52"}
    mat = sweeps["Matérn 2.5, ε = 0.01"]
    assert mat.env_params["kernel"] == "matern52" and mat.arm("R-GP-UCB").params["block"] == 92
    assert "kernel" not in sweeps["SE, ε = 0.01"].env_params  # the environment's default: shared run keys


def test_real_data_sweeps_follow_the_preset_with_the_papers_widths():
    sweeps = RealDataAnalogue.sweeps("quick")
    temp, traffic = sweeps["temperature analogue"], sweeps["traffic analogue"]
    assert temp.environment == "ozone-grid" and temp.horizons == (48,) and temp.reps == 20
    assert [a.label for a in temp.arms] == ["TV-GP-UCB", "R-GP-UCB", "GP-UCB", "random"]
    assert temp.arm("TV-GP-UCB").params["fit_params"] == "epsilon"
    assert temp.arm("GP-UCB").beta.params["c1"] == 0.8 and traffic.arm("GP-UCB").beta.params["c1"] == 0.2
    assert temp.arm("random").beta is None
