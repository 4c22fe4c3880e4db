"""The stationary GP-sample environment (``gp-sample``): one draw of GP(0, k) on a grid, fixed for every round, its
RKHS norm in the grid's kernel matrix, and its definition for the run audit. The kernel is written out here from
its formula, not taken from the package."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.bandits.environments.definitions import definition_of, pool
from tvbo_verify.bandits.registry import ENVIRONMENTS, make_env


def matern52(X: np.ndarray, variance: float, lengthscale: float) -> np.ndarray:
    r = np.sqrt(np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=-1)) * math.sqrt(5.0) / lengthscale
    return variance * (1.0 + r + r * r / 3.0) * np.exp(-r)


def axis_grid(n: int, d: int) -> np.ndarray:
    axis = np.linspace(0.0, 1.0, n)
    return np.array(np.meshgrid(*([axis] * d), indexing="ij")).reshape(d, -1).T


PARAMS = {"kernel": "matern52", "lengthscale": 0.3, "signal_variance": 2.0, "points_per_dim": 5, "d": 2}


def draw(seed: int, params: dict | None = None) -> tuple[object, np.ndarray]:
    env = make_env("gp-sample", params or PARAMS)
    env.reset(np.random.default_rng(seed), 20)
    return env, env.values().copy()


def test_it_is_registered_with_its_grid_kernel_and_noise():
    assert "gp-sample" in ENVIRONMENTS
    env, _ = draw(0)
    np.testing.assert_allclose(env.grid, axis_grid(5, 2))
    np.testing.assert_allclose(env.kernel(env.grid), matern52(axis_grid(5, 2), 2.0, 0.3), rtol=1e-12, atol=1e-14)
    assert env.noise_var == 0.01 and env.config()["kernel"] == "matern52"
    with pytest.raises(ValueError, match="^kernel must be one of"):
        make_env("gp-sample", {"kernel": "rbf"})
    with pytest.raises(ValueError, match="^jitter"):
        make_env("gp-sample", {"jitter": 0.0})


def test_a_seed_gives_the_same_draw_and_another_seed_another():
    _, a = draw(7)
    _, b = draw(7)
    _, c = draw(8)
    assert np.array_equal(a, b) and not np.allclose(a, c)


def test_f_does_not_change_with_t():
    env, f1 = draw(3)
    for _ in range(19):
        env.advance(5)
        assert np.array_equal(env.values(), f1)
    assert env.problem_extra()["variation_budget"] == 0.0


def test_the_empirical_covariance_of_many_draws_is_the_kernel():
    K = matern52(axis_grid(5, 2), 2.0, 0.3)
    F = np.array([draw(seed)[1] for seed in range(3000)])
    C = F.T @ F / F.shape[0]  # the mean is 0 by the model
    sd = np.sqrt((K * K + np.outer(np.diag(K), np.diag(K))) / F.shape[0])  # sd of each entry of C under N(0, K)
    assert np.max(np.abs(C - K) / sd) < 5.0
    wrong = matern52(axis_grid(5, 2), 2.0, 0.15)  # the comparison can fail: a halved lengthscale is far off
    assert np.max(np.abs(C - wrong) / sd) > 10.0


def test_the_rkhs_bound_is_the_norm_in_the_kernel_matrix_with_its_nugget():
    env = make_env("gp-sample", {**PARAMS, "jitter": 1e-8})
    assert env.rkhs_bound() is None  # not before a draw
    env.reset(np.random.default_rng(11), 5)
    f = env.values()
    Keps = matern52(axis_grid(5, 2), 2.0, 0.3) + 1e-8 * 2.0 * np.eye(25)
    direct = math.sqrt(float(f @ np.linalg.solve(Keps, f)))
    assert env.problem_extra()["rkhs_bound"] == pytest.approx(direct, rel=1e-7)
    assert env.nugget == pytest.approx(2e-8)
    # exact: f = L z with L Lᵀ = K + εI, so ‖f‖ = ‖z‖ for the normals the draw used
    z = np.random.default_rng(11).standard_normal(25)
    assert env.rkhs_bound() == pytest.approx(float(np.linalg.norm(z)), rel=1e-9)


def test_its_definition_holds_on_its_draws_and_catches_a_wrong_model():
    definition = definition_of("gp-sample")
    assert definition is not None and "GP(0, k)" in definition.source
    realisations = [np.tile(draw(seed)[1], (10, 1)) for seed in range(40)]
    assert all(s.passed for s in pool([definition.statistics(PARAMS, F) for F in realisations]))
    other = {**PARAMS, "lengthscale": 0.6}  # the same draws read against another lengthscale
    assert not all(s.passed for s in pool([definition.statistics(other, F) for F in realisations]))
    moved = realisations[0].copy()
    moved[4] += 1e-3  # an objective that moves once
    assert not all(s.passed for s in pool([definition.statistics(PARAMS, moved)]))
