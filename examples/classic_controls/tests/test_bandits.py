"""The package's own tests: its policy and environment behave as Chapter 6 of Lattimore & Szepesvári describes."""

import numpy as np
import pytest
from classic_controls.bandits import ExploreThenCommit, GaussianArms

from tvbo_verify.authoring import Arm, RunCache, Sweep, make_env, make_policy, run_sweep


def arms_played(m, means, noise_var, horizon):
    sweep = Sweep("etc", (Arm("ETC", "explore-then-commit", {"m": m}),), "gaussian-arms", (horizon,), reps=1,
                  env_params={"means": means, "noise_var": noise_var})
    return run_sweep(sweep, cache=RunCache(None)).series("ETC", "index")[0].tolist()


def test_explores_each_arm_m_times_then_commits_to_the_best_empirical_mean():
    played = arms_played(5, [0.0, -2.0, -4.0], 0.01, 40)
    assert played[:15] == [0, 1, 2] * 5
    assert set(played[15:]) == {0}


def test_the_default_m_is_the_two_thirds_power_of_the_horizon():
    played = arms_played(None, [0.0, -0.3, -0.6], 1.0, 1000)
    assert np.bincount(played[:300], minlength=3).tolist() == [100, 100, 100]  # ceil(1000^(2/3)) = 100
    assert len(set(played[300:])) == 1


def test_both_are_registered_by_name_and_bad_parameters_are_refused():
    assert isinstance(make_policy("explore-then-commit", {"m": 3}), ExploreThenCommit)
    assert make_env("gaussian-arms", {"means": [1.0, 0.0]}).means.tolist() == [1.0, 0.0]
    with pytest.raises(ValueError, match="m must be an integer >= 1"):
        ExploreThenCommit(m=0)
    with pytest.raises(ValueError, match="means must be at least two finite numbers"):
        GaussianArms(means=(1.0,))
