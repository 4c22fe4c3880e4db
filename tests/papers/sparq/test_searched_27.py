"""sparq:eq-27 at its searched instance (``checks/regret_chain.py``): the constant ``SEARCHED_27`` equals the earliest
instance of the horizon search and its ladder, and the objective run there (``sparq-peak-walk``) is admissible for
Theorem 3.1 — every ‖f_t‖_k <= B computed from the coefficients, the drift inside the injection model (10)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from tvbo_verify.bandits.environments.definitions import definition_of
from tvbo_verify.bandits.registry import make_env
from tvbo_verify.papers.sparq.checks.regret_chain import (
    SEARCHED_27,
    chain_horizons,
    largest_range,
    objective_range,
    searched_env_params,
    searched_ladder,
)

INSTANCE = SEARCHED_27["instance"]


def test_the_constant_is_the_earliest_instance_of_the_search_and_its_ladder():
    (r27, _), (r5, _) = chain_horizons(200.0, 1.0)
    assert r27["instance"] == INSTANCE
    assert {k: r5["instance"][k] for k in r5["instance"]} == {k: INSTANCE[k] for k in r5["instance"]}
    assert tuple(SEARCHED_27["horizons"]) == searched_ladder(INSTANCE)
    assert SEARCHED_27["horizons"][0] >= r27["horizon"]  # the objective's range is below the ball's largest


@pytest.mark.parametrize("T", [SEARCHED_27["horizons"][-1]])
def test_the_searched_objective_is_admissible(T):
    params = searched_env_params(INSTANCE, T)
    env = make_env("sparq-peak-walk", params)
    env.reset(np.random.default_rng(5), T)
    B = float(INSTANCE["B"])
    # ‖f_t‖_k = √(a(t)ᵀ K a(t)) at 50 digits, the largest over the run's rounds (and t = T + 1)
    worst = max(env.rkhs_norm_mp(t) for t in range(1, T + 2, 7))
    assert worst <= mpmath.mpf(B)
    assert env.rkhs_bound() <= B
    # the kernel, grid and noise are the instance's
    assert env.grid.shape[0] == INSTANCE["grid points"] and env.noise_var == INSTANCE["σ²"]
    assert float(env.kernel.variance) == INSTANCE["M_k²"] and float(env.kernel.lengthscale) == INSTANCE["l"]
    # the drift: zero-mean ±1 steps of one fixed function, its sup below σ (inside (10)) and below Δ = 1
    F = np.array([env.function(t) for t in range(1, T + 1)])
    steps = np.abs(np.diff(F, axis=0)).max(axis=1)
    assert steps.max() > 0 and steps.max() <= math.sqrt(env.noise_var) and steps.max() <= 1.0
    assert np.allclose(steps, steps[0])
    # the audit of the environment's definition passes on the realisation
    stats = definition_of("sparq-peak-walk").statistics(params, F)
    assert all(abs(s.value - s.mean) <= max(s.tolerance, 6 * math.sqrt(s.var)) for s in stats)


def test_the_objective_range_is_below_the_largest_range_of_the_ball():
    B = float(INSTANCE["B"])
    top = B * largest_range(INSTANCE["grid points"], INSTANCE["l"], INSTANCE["M_k²"])
    env = make_env("sparq-peak-walk", {**searched_env_params(INSTANCE, 10), "drift": 0.0})
    K = env.kernel(env.grid)
    # the largest range is attained by f ∝ k(·, x_1) − k(·, x_G) of norm B
    a = np.zeros(K.shape[0])
    a[0], a[-1] = 1.0, -1.0
    f = B * K @ a / math.sqrt(a @ K @ a)
    assert float(f.max() - f.min()) == pytest.approx(top, rel=1e-9)
    assert 0.5 * top < objective_range(INSTANCE) < top
    assert top < 2 * B * math.sqrt(INSTANCE["M_k²"]) / math.sqrt(2) * 1.0001  # at most √2 B M_k


def test_the_papers_function_is_not_admissible_at_the_searched_instance():
    """S1 on the searched grid has ‖f‖_k = √(fᵀK⁻¹f) (the grid is the domain the runs play), far above B."""
    env = make_env("sparq-synthetic", {"grid_points": 11, "lengthscale": 30.0, "signal_variance": 8.0,
                                       "noise_var": 0.1})
    f = env.function(1.0)
    K = env.kernel(env.grid)
    assert math.sqrt(float(f @ np.linalg.solve(K, f))) > 10 * INSTANCE["B"]


def test_a_drift_that_leaves_no_norm_for_the_peak_is_refused():
    env = make_env("sparq-peak-walk", {"B": 1.0, "drift": 0.1})
    with pytest.raises(ValueError, match="leaves no norm"):
        env.reset(np.random.default_rng(0), 20)
