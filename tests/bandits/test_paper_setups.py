"""The papers' set-ups added to the registry: sparq Figure 1, wgpucb Appendix E, random baseline, named kernels."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.bandits import run
from tvbo_verify.bandits.environments import SparqSynthetic, WgpucbPaper
from tvbo_verify.bandits.registry import ALGORITHMS, ENVIRONMENTS, make_env, make_policy
from tvbo_verify.kernels import KERNEL_NAMES, Matern, SquaredExponential, kernel_by_name, kernel_name


def test_sparq_figure1_function_matches_the_paper_and_its_range_facts():
    env = SparqSynthetic()
    assert env.grid.shape == (1001, 1) and env.grid[0, 0] == -50.0 and env.grid[-1, 0] == 50.0
    assert env.noise_var == 0.01
    env.reset(np.random.default_rng(0), 200)
    x = env.grid[:, 0]
    for t in (1, 7, 50):
        expected = np.exp(-0.05 * (x - 5 * np.sin(0.1 * t)) ** 2) + 0.5 * np.cos(0.2 * x) + 1.5
        np.testing.assert_allclose(env.function(t), expected, rtol=0, atol=0)
    # papers/sparq/READING.md §3.8: max_x f_t in [2.802, 3.000], argmax in [-4.23, 4.23], regret per step <= 2.
    peaks = np.array([env.function(t).max() for t in range(1, 200)])
    arg = np.array([x[np.argmax(env.function(t))] for t in range(1, 200)])
    assert peaks.min() >= 2.80 and peaks.max() <= 3.0 + 1e-12
    assert np.all(np.abs(arg) <= 4.3)
    assert np.ptp(SparqSynthetic.value(x, 3.0)) <= 2.0
    assert env.rkhs_bound() is None  # the constant offset is not in the SE RKHS (papers/sparq/READING.md §3.8)


def test_sparq_figure1_training_split_is_fixed_and_independent_of_the_run():
    a, b = SparqSynthetic(train_points=50).training_data(), SparqSynthetic(train_points=50).training_data()
    np.testing.assert_array_equal(a.y, b.y)
    assert a.X.shape == (50, 1)
    assert SparqSynthetic(train_points=0).training_data() is None


def test_wgpucb_appendix_e_piecewise_linear_path_through_three_functions():
    env = WgpucbPaper(scenario="slow3", M=100)
    T = 40
    env.reset(np.random.default_rng(3), T)
    f4, f5, f6 = env._rows
    assert env.support.shape[0] == 300  # M = 100 support points per function on the 100-point grid
    np.testing.assert_allclose(env.coefficients(T // 2), f5, atol=1e-15)
    np.testing.assert_allclose(env.coefficients(T), f6, atol=1e-15)
    np.testing.assert_allclose(env.coefficients(5), f4 + (f5 - f4) * 10 / T)
    np.testing.assert_allclose(env.coefficients(30), f5 + (f6 - f5) * (60 - T) / T)
    # Exact budget: the path is linear in the RKHS on each half.
    seg = np.sqrt((f5 - f4) @ env._KZ @ (f5 - f4)) * 2 / T
    assert env.variation(3) == pytest.approx(seg, rel=1e-9)
    assert env.variation_budget_total() == pytest.approx(env.variation_budget(T))
    assert env.rkhs_bound() == pytest.approx(max(env.rkhs_norm(t) for t in range(1, T + 1)))


def test_wgpucb_abrupt_boundaries_and_exposed_constants():
    env = WgpucbPaper(scenario="abrupt")
    env.reset(np.random.default_rng(0), 300)
    r = env._rows
    np.testing.assert_array_equal(env.coefficients(99), r[0])
    np.testing.assert_array_equal(env.coefficients(100), r[1])
    np.testing.assert_array_equal(env.coefficients(200), r[2])
    extra = env.problem_extra()
    budget = np.sqrt((r[1] - r[0]) @ env._KZ @ (r[1] - r[0])) + np.sqrt((r[2] - r[1]) @ env._KZ @ (r[2] - r[1]))
    assert extra["variation_budget"] == pytest.approx(budget, rel=1e-9)
    assert extra["rkhs_bound"] == pytest.approx(env.B)


def test_kernels_by_name_and_unknown_names():
    assert isinstance(kernel_by_name("se", lengthscale=0.2), SquaredExponential)
    k = kernel_by_name("matern32", variance=2.0, lengthscale=0.5)
    assert isinstance(k, Matern) and k.nu == 1.5 and k.variance == 2.0
    for name in KERNEL_NAMES:
        assert kernel_name(kernel_by_name(name)) == name
    with pytest.raises(ValueError, match="se, matern12, matern32, matern52"):
        kernel_by_name("matern")
    with pytest.raises(ValueError, match="se, matern12, matern32, matern52"):
        make_env("wgpucb-rotation", {"kernel": "rbf"})
    with pytest.raises(ValueError, match="se, matern12, matern32, matern52"):
        make_policy("gp-ucb", {"kernel": "rbf"})


@pytest.mark.parametrize("env_name", ["wgpucb-rotation", "wgpucb-paper", "rkhs-random-walk", "ui-drift",
                                      "tvgpucb-markov", "sparq-synthetic"])
def test_environments_take_a_matern_kernel_by_name(env_name):
    params = {"kernel": "matern52", "lengthscale": 0.3}
    if env_name == "tvgpucb-markov":
        params.update(points_per_dim=8)
    env = make_env(env_name, params)
    assert isinstance(env.kernel, Matern) and env.kernel.nu == 2.5 and env.kernel.lengthscale == 0.3
    trace = run(make_policy("gp-ucb"), env, 5, np.random.default_rng(0))
    assert trace.T == 5


def test_policy_kernel_override_is_used_and_recorded():
    env = make_env("wgpucb-rotation")
    pol = make_policy("gp-ucb", {"kernel": "matern12", "lengthscale": 0.05})
    trace = run(pol, env, 20, np.random.default_rng(0))
    assert pol.problem.kernel is pol.kernel_override and env.kernel is not pol.kernel_override
    assert "Matern(nu=0.5" in trace.meta["policy"]["kernel"]
    default = run(make_policy("gp-ucb"), env, 20, np.random.default_rng(0))
    assert not np.array_equal(trace.index, default.index)


def test_random_policy_is_uniform_and_registered():
    assert "random" in ALGORITHMS and "sparq-synthetic" in ENVIRONMENTS
    env = make_env("wgpucb-rotation", {"grid_points": 10})
    trace = run(make_policy("random"), env, 3000, np.random.default_rng(0))
    counts = np.bincount(trace.index, minlength=10)
    # chi-square goodness of fit against uniform (df = 9; 99.9% quantile 27.9)
    chi2 = float(np.sum((counts - 300) ** 2 / 300))
    assert chi2 < 27.9
    assert np.all(trace.dataset_size == 0)


def test_environment_info_reports_how_much_there_is_to_track():
    from tvbo_verify.bandits.registry import environment_info

    info = environment_info("wgpucb-paper", {"grid_points": 50})
    assert info["rounds"] == 500 and info["arms"] == 50
    assert info["distinct_best_arms"] >= 2 and 0 < info["best_arm_change_fraction"] < 0.05  # two switches
    sparq = environment_info("sparq-synthetic", {"grid_points": 201})
    assert sparq["distinct_best_arms"] >= 15 and sparq["best_arm_change_fraction"] > 0.3  # 0.5-wide grid cells
