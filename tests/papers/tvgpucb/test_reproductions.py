"""Helpers of ``tvbo_verify.papers.tvgpucb.reproductions``, its free constants, fairness and controls (no bandit
runs)."""

from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np
import pytest

from tvbo_verify.bandits.beta import log_rule
from tvbo_verify.papers.tvgpucb.reproductions import (
    ASSUMED_EPSILONS,
    BLOCK_SWEEP,
    CONTROL,
    KERNELS_2AB,
    MISMATCH,
    RULE_BLOCK,
    SPREAD_SWEEP,
    RealDataAnalogue,
    SamplePaths,
    figure_2ab_sweeps,
    figure_2d_parts,
    figure_2d_sweeps,
    mean_displacement,
    reset_jumps,
    rgpucb_block,
    set_block_scale_2ab,
    set_horizon_2ab,
    set_range_end,
    set_smallest_block,
    spread_ratio,
)
from tvbo_verify.sweeps.reproduce import Finding, get_reproduction, reproductions
from tvbo_verify.sweeps.reproduce.constants import (
    CONFIRMED,
    INCONCLUSIVE,
    VIOLATED,
    Part,
    all_of,
    any_of,
    ordering_part,
    ratio_part,
    undeclared_differences,
)

TVGPUCB = sorted(r.id for r in reproductions("tvgpucb"))


def test_block_rule_of_section_5_1():
    assert [rgpucb_block(e, 500) for e in (0.001, 0.01, 0.03)] == [68, 38, 29]
    assert [rgpucb_block(e, 500, "matern52") for e in (0.001, 0.01, 0.03)] == [178, 92, 67]
    assert rgpucb_block(0.001, 50) == 50 and RULE_BLOCK == 38
    # the rule's N times s, capped at T
    assert [rgpucb_block(0.01, 500, scale=s) for s in (0.5, 2.0)] == [19, 76]
    assert rgpucb_block(0.001, 200, "matern52", scale=2.0) == 200
    with pytest.raises(ValueError, match="scale must be a positive number, got 0"):
        rgpucb_block(0.01, 200, scale=0)


def test_robustness_sweeps_share_seeds_and_vary_one_parameter():
    sw = MISMATCH.sweep("quick")
    assert [a.params.get("epsilon") for a in sw.arms] == [*MISMATCH.values, None]
    assert sw.arms[-1] == CONTROL  # the control on the same seeds
    assert sw.env_params["epsilon"] == 0.01 and sw.horizons == (200,)
    assert BLOCK_SWEEP.sweep("full").reps == 200
    assert {a.params["block"] for a in BLOCK_SWEEP.sweep("quick").arms if a != CONTROL} >= {RULE_BLOCK, 200}
    assert CONTROL not in SPREAD_SWEEP.sweep("quick", control=False).arms
    with pytest.raises(ValueError, match="values of epsilon must be among"):
        MISMATCH.arms([0.3])


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
    assert all(sw.arms[-1] == CONTROL for sw in sweeps.values())
    assert figure_2ab_sweeps("full")["SE, ε = 0.01"].reps == 200  # the paper's trials


def test_real_data_sweeps_follow_the_preset_with_the_papers_widths():
    sweeps = RealDataAnalogue.sweeps("quick")
    temp, traffic = sweeps["temperature analogue"], sweeps["traffic analogue"]
    assert temp.environment == "ozone-grid" and temp.horizons == (48,) and temp.reps == 20
    assert [a.label for a in temp.arms] == ["TV-GP-UCB", "R-GP-UCB", "GP-UCB", "random"]
    assert temp.arm("TV-GP-UCB").params["fit_params"] == "epsilon"
    assert temp.arm("GP-UCB").beta.params["c1"] == 0.8 and traffic.arm("GP-UCB").beta.params["c1"] == 0.2
    assert temp.arm("random").beta is None


def test_the_pair_f1_fT_is_drawn_with_the_markov_correlation():
    T = 101
    E = SamplePaths.endpoints(None, np.random.default_rng(4), 4000, T)
    assert E.shape == (4000, 2, SamplePaths.POINTS)
    assert abs(E[:, 1].var() - 1.0) < 0.05
    corr = np.mean(E[:, 0] * E[:, 1])  # Cov(f_1, f_T) = (1 - eps)^{(T-1)/2} k(x, x), eq. (22)
    assert abs(corr - (1 - SamplePaths.EPSILON) ** ((T - 1) / 2)) < 0.05
    assert np.allclose(SamplePaths.endpoints(None, np.random.default_rng(0), 3, 1)[:, 0],
                       SamplePaths.endpoints(None, np.random.default_rng(0), 3, 1)[:, 1])  # T = 1: the same f


# ------------------------------------------------------------------------- free constants and fairness
def test_every_tvgpucb_experiment_declares_the_constants_its_paper_leaves_open():
    assert TVGPUCB == ["tvgpucb:figure-1", "tvgpucb:figure-2ab", "tvgpucb:figure-2c", "tvgpucb:figure-2d",
                       "tvgpucb:real-data"]
    for rep_id in TVGPUCB:
        rep = get_reproduction(rep_id)
        assert rep.constants and rep.parts is not None and rep.own, rep_id
        for c in rep.constants:
            # a source that quotes or cites the paper (a section, a figure or its catalog) and a range around it
            assert re.search(r"§|Fig\.|tvgpucb\.md", c.source) and len(c.source) > 80, (rep_id, c.name)
            for fidelity in ("quick", "full"):
                grid = c.grid(fidelity)
                assert c.paper in grid and len(grid) >= 2
                if c.scale != "categorical":
                    assert min(grid) < c.paper or max(grid) > c.paper
        plans = rep.plans("quick")
        assert all(plan != plans[0][2] for _, _, plan in plans[1:])  # every setting changes what is run or shown


@pytest.mark.parametrize("rep_id", TVGPUCB)
def test_the_arms_of_each_figure_differ_only_in_what_the_paper_says_differs(rep_id):
    rep = get_reproduction(rep_id)
    for fidelity in ("quick", "full"):
        for constant, value, plan in rep.plans(fidelity):
            for sweep in plan.values():
                labels = {a.label for a in sweep.arms if a.algorithm != "random"}
                assert labels <= set(rep.own), (rep_id, sweep.name, labels - set(rep.own))
                assert undeclared_differences(sweep, rep.own) == [], (constant and constant.name, value)
                assert len({repr(a.beta) for a in sweep.arms if a.algorithm != "random"}) == 1  # one β rule


def test_an_arm_with_another_width_or_noise_is_caught():
    sweep = figure_2ab_sweeps("quick")["SE, ε = 0.01"]
    own = get_reproduction("tvgpucb:figure-2ab").own
    wider = replace(sweep, arms=tuple(replace(a, beta=log_rule(1.6, 4.0)) if a.label == "R-GP-UCB" else a
                                      for a in sweep.arms))
    assert any("differ in beta" in p for p in undeclared_differences(wider, own))
    noisier = replace(sweep, arms=tuple(replace(a, params={**a.params, "lam": 1.0}) if a.label == "R-GP-UCB" else a
                                        for a in sweep.arms))
    assert any("shared constant lam differs" in p for p in undeclared_differences(noisier, own))


def test_every_comparison_of_methods_has_its_control_at_every_setting():
    for rep_id, names in (("tvgpucb:figure-2ab", None), ("tvgpucb:figure-2c", None), ("tvgpucb:figure-2d", ("N",)),
                          ("tvgpucb:real-data", None)):
        rep = get_reproduction(rep_id)
        control = RealDataAnalogue.CONTROL if rep_id == "tvgpucb:real-data" else CONTROL.label
        for _, _, plan in rep.plans("quick"):
            for name, sweep in plan.items():
                if names is None or name in names:
                    assert sweep.arm(control).algorithm == "random", (rep_id, name)


def test_the_setters_change_only_their_constant():
    sweeps = figure_2ab_sweeps("quick")
    mat = sweeps["Matérn 2.5, ε = 0.001"]
    longer = set_horizon_2ab(mat, 400)
    assert longer.horizons == (400,) and longer.arm("R-GP-UCB").params["block"] == 178
    assert set_horizon_2ab(mat, 100).arm("R-GP-UCB").params["block"] == 100  # capped at T
    kept = (mat.env_params, mat.reps, mat.seed, CONTROL)
    assert (longer.env_params, longer.reps, longer.seed, longer.arms[-1]) == kept
    scaled = set_block_scale_2ab(sweeps["SE, ε = 0.01"], 2.0)
    assert scaled.arm("R-GP-UCB").params["block"] == 76 and scaled.horizons == (200,)
    assert scaled.arm("TV-GP-UCB") == sweeps["SE, ε = 0.01"].arm("TV-GP-UCB")
    wide = set_range_end(MISMATCH.sweep("quick", [0.0, 0.01]), 0.2)
    assert [a.params.get("epsilon") for a in wide.arms] == [*ASSUMED_EPSILONS, None]
    assert [a.params.get("epsilon") for a in set_range_end(wide, 0.05).arms] == [0.0, 0.001, 0.005, 0.01, 0.02,
                                                                                 0.05, None]
    d = figure_2d_sweeps("quick")
    cut = set_smallest_block(d["N"], 10)
    assert [a.params.get("block") for a in cut.arms] == [10, 20, 38, 70, 100, 200, None]
    assert set_smallest_block(d["spread"], 10) is d["spread"]
    real = RealDataAnalogue.sweeps("quick")["temperature analogue"]
    moved = RealDataAnalogue.set_training_months(real, 36)
    assert moved.env_params["train_months"] == 36 and moved.horizons == (36,)
    assert RealDataAnalogue.set_training_months(real, 12).horizons == (48,)
    with pytest.raises(ValueError, match="training months must leave at least 2 test months"):
        RealDataAnalogue.set_training_months(real, 71)
    assert RealDataAnalogue.set_c2(real.arm("GP-UCB"), 4.0).beta.params == {"c1": 0.8, "c2": 4.0, "clip": True}
    assert RealDataAnalogue.set_c2(real.arm("random"), 4.0) == real.arm("random")


# ------------------------------------------------------------------------ controls carried per setting
def comparison(diff_ci, ratio_ci=(0.5, 0.7), mean_b=10.0, a="A", b="B"):
    lo, hi = diff_ci
    return {"a": a, "b": b, "difference": {"mean": (lo + hi) / 2, "ci95": [lo, hi]}, "mean_b": mean_b,
            "ratio": sum(ratio_ci) / 2, "ratio_ci95": list(ratio_ci)}


def test_a_part_holds_only_when_its_control_failed():
    failed, passed = comparison((5.0, 9.0)), comparison((-1.0, 2.0))  # control above b / tied with b
    assert ordering_part("A below B", comparison((-3.0, -1.0)), control=failed).verdict == CONFIRMED
    held = ordering_part("A below B", comparison((-3.0, -1.0)), control=passed)
    assert held.control is False and held.interval_verdict == CONFIRMED and held.verdict == INCONCLUSIVE
    # a failing part fails whatever its control
    assert ordering_part("A below B", comparison((1.0, 3.0)), control=passed).verdict == VIOLATED
    ratio_ok = ratio_part("A not above B", comparison((0, 0), ratio_ci=(0.9, 1.1)), margin=1.25,
                          control=comparison((0, 0), ratio_ci=(3.0, 4.0)))
    assert ratio_ok.margin == pytest.approx(0.25) and ratio_ok.verdict == CONFIRMED and ratio_ok.control
    ratio_tied = ratio_part("A not above B", comparison((0, 0), ratio_ci=(0.9, 1.1)), margin=1.25,
                            control=comparison((0, 0), ratio_ci=(1.0, 1.3)))
    assert ratio_tied.verdict == INCONCLUSIVE
    assert ratio_part("A not above B", comparison((0, 0), ratio_ci=(1.3, 1.6)), margin=1.25).verdict == VIOLATED


def test_all_of_and_any_of_carry_the_controls():
    good, no_control = Part("g", 1.0, (0.5, 1.5), True), Part("u", 1.0, (0.5, 1.5), False)
    bad = Part("b", -1.0, (-1.5, -0.5), True)
    assert all_of("f", [good, good]).verdict == CONFIRMED
    assert all_of("f", [good, no_control]).verdict == INCONCLUSIVE
    assert all_of("f", [no_control, bad]).verdict == VIOLATED
    assert all_of("f", [Part("plain", 1.0, (0.5, 1.5))]).control is None
    assert any_of("f", [no_control, good]).verdict == CONFIRMED
    assert any_of("f", [no_control, bad]).verdict == INCONCLUSIVE
    assert any_of("f", [bad, bad]).verdict == VIOLATED


def test_figure_2d_is_undecided_where_the_smallest_n_is_as_bad_as_the_control():
    def finding(control_ci):
        small = comparison((-300.0, -200.0), a="N = 38", b="N = 2")
        large = {"N = 200 vs N = 38": comparison((0, 0), (0.9, 1.1), a="N = 200", b="N = 38"),
                 "N = 200 vs N = 100": comparison((0, 0), (0.9, 1.1), a="N = 200", b="N = 100")}
        controls = {"N = 2": comparison(control_ci, (3.0, 4.0)), "N = 38": comparison((200.0, 300.0), (3.0, 4.0)),
                    "N = 100": comparison((200.0, 300.0), (3.0, 4.0))}
        return Finding("", {"small": {"N = 38 vs N = 2": small}, "large": large, "controls": controls,
                            "spread": {"ratio": 1.4, "ratio_ci95": [1.1, 1.8]}})

    assert all_of("f", figure_2d_parts(finding((-50.0, 60.0)))).verdict == INCONCLUSIVE
    assert all_of("f", figure_2d_parts(finding((150.0, 260.0)))).verdict == CONFIRMED
    assert math.isclose(figure_2d_parts(finding((150.0, 260.0)))[-1].margin, 0.4)
