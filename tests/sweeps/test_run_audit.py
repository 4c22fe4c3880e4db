"""The run audit: the regret ledger of every trace and the environment of every realisation, against their
definitions; each check shown to fail on a plausible bug (its power) and to pass on the toolkit's own runs."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from tvbo_verify.bandits.environments import base
from tvbo_verify.bandits.environments.analytic import SparqSynthetic
from tvbo_verify.bandits.environments.definitions import (
    Z_LIMIT,
    SeparableGaussian,
    Statistic,
    definition_of,
    matern_gram,
    pool,
    se_gram,
)
from tvbo_verify.bandits.environments.gpsample import MarkovGP
from tvbo_verify.sweeps import Arm, RunCache, Sweep, run_sweep
from tvbo_verify.sweeps.run_audit import RunAuditFailure, audit_runs

ARMS = (Arm("GP-UCB", "gp-ucb"), Arm("random", "random"))


def sweep(env: str, params: dict, T: int, reps: int) -> Sweep:
    return Sweep("audit", ARMS, env, (T,), reps, env_params=params)


def audited(env: str, params: dict, T: int = 60, reps: int = 3):
    result = run_sweep(sweep(env, params, T, reps), cache=RunCache(None), executor="serial", progress=False)
    return result, audit_runs(result)


@pytest.mark.parametrize("env, params, T", [
    ("tvgpucb-markov", {"epsilon": 0.1, "points_per_dim": 20}, 60),
    # a drift far below the 1e-12 jitter of a generic Cholesky whitening: the AR(1) recursion whitens it exactly
    ("tvgpucb-markov", {"epsilon": 1e-14, "points_per_dim": 5, "d": 1, "lengthscale": 0.05}, 60),
    ("gp-sample", {"kernel": "matern32", "lengthscale": 0.3, "points_per_dim": 40}, 60),
    ("ui-drift", {"alpha": 0.5}, 60),
    ("ui-drift", {"alpha": 1.5}, 60),
    ("sparq-synthetic", {"grid_points": 201}, 40),
    ("wsparq-synthetic", {"grid_points": 201, "variant": "paper"}, 40),
    ("rkhs-random-walk", {}, 60),
    ("wgpucb-rotation", {}, 60),
    ("wgpucb-abrupt", {}, 60),
    ("wgpucb-paper", {"scenario": "abrupt"}, 220),
    ("wgpucb-paper", {"scenario": "slow"}, 60),
    ("wgpucb-paper", {"scenario": "slow3"}, 61),
    ("sparq-two-bumps", {}, 60),
    ("bolt-st", {"response_time": "0.5 + 2e-4*n**3", "points_per_dim": 10}, 40),
])
def test_the_toolkits_environments_meet_their_definitions_and_their_ledgers_hold(env, params, T):
    result, audit = audited(env, params, T)
    assert audit.traces == len(result.traces) and not audit.problems
    stats = audit.statistics[env]
    assert len(stats) >= 2 and all(s.passed for s in stats), [s.text() for s in stats]
    assert definition_of(env) is not None


def test_a_separable_gaussian_statistic_has_its_stated_mean_and_variance():
    rng = np.random.default_rng(3)
    X = np.linspace(0, 1, 15)[:, None]
    K = se_gram(X, X, 1.0, 0.3)
    lag = np.abs(np.subtract.outer(np.arange(30), np.arange(30)))
    C = 0.9 ** (lag / 2)
    law = SeparableGaussian(K, C)
    LK = np.linalg.cholesky(K + 1e-10 * np.eye(15))
    LC = np.linalg.cholesky(C)
    zs = []
    for _ in range(300):
        F = LC @ rng.standard_normal((30, 15)) @ LK.T
        zs.append([s.z for s in pool([law.statistics(F)])])
    zs = np.array(zs)
    assert np.all(np.abs(zs.mean(axis=0)) < 0.25) and np.all(np.abs(zs.std(axis=0) - 1) < 0.15)


def test_matern_gram_is_the_textbook_formula():
    x = np.array([[0.0], [0.3]])
    r = np.sqrt(5) * 0.3 / 0.2
    assert matern_gram(x, x, 2.5, 2.0, 0.2)[0, 1] == pytest.approx(2.0 * (1 + r + r * r / 3) * np.exp(-r))


@pytest.mark.parametrize("bug", ["wrong decay", "frozen", "innovation not square-rooted"])
def test_the_markov_model_with_a_plausible_bug_is_refused(monkeypatch, bug):
    def advance(self, dataset_size=0):
        base.Environment.advance(self, dataset_size)
        g = self._sample_g()
        if bug == "wrong decay":  # f_{t+1} = (1 - eps) f_t + sqrt(eps) g: no longer stationary
            self._f = (1.0 - self.epsilon) * self._f + np.sqrt(self.epsilon) * g
        elif bug == "innovation not square-rooted":
            self._f = np.sqrt(1.0 - self.epsilon) * self._f + self.epsilon * g

    monkeypatch.setattr(MarkovGP, "advance", advance)
    with pytest.raises(RunAuditFailure, match="contradicts its definition"):
        audited("tvgpucb-markov", {"epsilon": 0.1, "points_per_dim": 20}, T=100, reps=6)


@pytest.mark.parametrize("bug", ["frozen", "innovation not square-rooted"])
def test_the_markov_model_with_a_tiny_drift_and_a_plausible_bug_is_refused(monkeypatch, bug):
    def advance(self, dataset_size=0):
        base.Environment.advance(self, dataset_size)
        g = self._sample_g()
        if bug == "innovation not square-rooted":  # ε g in place of √ε g: at ε = 1e-14 a drift 1e7 times too small
            self._f = np.sqrt(1.0 - self.epsilon) * self._f + self.epsilon * g

    monkeypatch.setattr(MarkovGP, "advance", advance)
    with pytest.raises(RunAuditFailure, match="contradicts its definition"):
        audited("tvgpucb-markov", {"epsilon": 1e-14, "points_per_dim": 5, "d": 1, "lengthscale": 0.05}, T=100, reps=6)


def test_the_ar1_whitening_is_the_cholesky_solve_where_both_are_accurate():
    from scipy.linalg import solve_triangular

    from tvbo_verify.bandits.environments.definitions import ar1_whiten

    rng = np.random.default_rng(0)
    F = rng.standard_normal((25, 4))
    lag = np.abs(np.subtract.outer(np.arange(25), np.arange(25)))
    for eps in (0.5, 0.1, 1e-3):
        L = np.linalg.cholesky((1 - eps) ** (lag / 2))
        assert np.allclose(ar1_whiten(F, eps), solve_triangular(L, F, lower=True), rtol=1e-8, atol=1e-8)


def test_a_deterministic_objective_with_a_wrong_constant_is_refused(monkeypatch):
    monkeypatch.setattr(SparqSynthetic, "centre", staticmethod(lambda t: 5.0 * np.sin(0.01 * np.asarray(t, float))))
    with pytest.raises(RunAuditFailure, match="against its formula"):
        audited("sparq-synthetic", {"grid_points": 201}, T=30, reps=1)


def test_observation_noise_with_the_variance_taken_for_the_standard_deviation_is_refused(monkeypatch):
    def observe(self, index, rng):
        return float(self.values()[index] + self.noise_var * rng.standard_normal())

    monkeypatch.setattr(base.Environment, "observe", observe)
    with pytest.raises(RunAuditFailure, match="observation noise"):
        audited("sparq-synthetic", {"grid_points": 201}, T=40, reps=2)


def test_a_clock_advanced_by_the_wrong_dataset_size_is_refused(monkeypatch):
    from tvbo_verify.bandits.environments.gpsample import SpatioTemporalGP

    original = SpatioTemporalGP.advance
    monkeypatch.setattr(SpatioTemporalGP, "advance", lambda self, n=0: original(self, n + 1))
    with pytest.raises(RunAuditFailure, match="clock"):
        audited("bolt-st", {"response_time": "0.5 + 2e-4*n**3", "points_per_dim": 8}, T=30, reps=1)


@pytest.mark.parametrize("bug", ["regret one round early", "regret from the observation", "trivial bound halved",
                                 "cumulative not the running sum", "x not the played point"])
def test_a_ledger_with_a_plausible_bug_is_refused(bug):
    result = run_sweep(sweep("sparq-synthetic", {"grid_points": 201}, 30, 1), cache=RunCache(None),
                       executor="serial", progress=False)
    key, trace = next(iter(result.traces.items()))
    bad = copy.deepcopy(trace)
    if bug == "regret one round early":
        bad.regret = np.roll(bad.regret, -1)
    elif bug == "regret from the observation":  # max f_t - y_t: the regret off by the observation's noise
        bad.regret = bad.regret + np.random.default_rng(0).normal(0.0, 0.1, bad.T)
    elif bug == "trivial bound halved":
        bad.max_regret = bad.max_regret / 2
    elif bug == "cumulative not the running sum":
        bad.cumulative = np.concatenate([[0.0], bad.cumulative[:-1]])
    else:
        bad.x = bad.x[::-1].copy()
    result.traces[key] = bad
    with pytest.raises(RunAuditFailure):
        audit_runs(result)


def test_pooled_deterministic_statistics_keep_the_largest_deviation():
    pooled = pool([[Statistic("d", 1e-3, 0.0, 0.0, tolerance=1e-2)], [Statistic("d", 5e-2, 0.0, 0.0, tolerance=1e-2)]])
    assert pooled[0].value == 5e-2 and not pooled[0].passed and Z_LIMIT >= 5


def test_the_noise_statistic_counts_each_realisations_noise_once_however_many_arms_share_it():
    """The arms of a sweep see the same noise for the same seed and repetition; counting it once per arm would
    shrink the statistic's spread by up to the square root of the number of arms and refuse honest runs."""
    result, audit = audited("gp-sample", {"kernel": "se", "lengthscale": 0.3, "points_per_dim": 30}, T=40, reps=2)
    by_arm = {}
    for key, trace in result.traces.items():
        by_arm.setdefault(trace.meta.get("policy", {}).get("name", key), []).append(trace)
    assert len(by_arm) == 2
    noise = [s for s in audit.statistics["gp-sample"] if s.name.startswith("observation noise")]
    assert noise and sum(s.mean for s in noise) == 40 * 2  # one trace of 40 rounds per realisation, 2 realisations


# ---------------------------------------------------------------------------- runs a check plays itself
MARKOV = {"epsilon": 0.1, "points_per_dim": 20, "d": 1}


def played_markov(seeds, T=60, policies=("gp-ucb",)):
    from tvbo_verify.bandits.registry import make_policy
    from tvbo_verify.sweeps.run_audit import play_recorded

    return [play_recorded(make_policy(name, {}), "tvgpucb-markov", MARKOV, T, np.random.SeedSequence(s))
            for s in seeds for name in policies]


def test_runs_played_directly_are_audited_as_a_sweeps_runs_are():
    from tvbo_verify.sweeps.run_audit import audit_played_runs

    audit = audit_played_runs(played_markov(range(4), policies=("gp-ucb", "random")))
    assert audit.traces == 8 and not audit.problems
    stats = audit.statistics["tvgpucb-markov"]
    assert len(stats) >= 2 and all(s.passed for s in stats)
    noise = [s for s in stats if s.name.startswith("observation noise")]
    assert noise and noise[0].mean == 60 * 4  # two policies on one seed share its realisation and its noise


def test_runs_played_directly_on_a_markov_model_with_a_plausible_bug_are_refused(monkeypatch):
    from tvbo_verify.sweeps.run_audit import audit_played_runs

    def advance(self, dataset_size=0):  # ε g in place of √ε g
        base.Environment.advance(self, dataset_size)
        self._f = np.sqrt(1.0 - self.epsilon) * self._f + self.epsilon * self._sample_g()

    monkeypatch.setattr(MarkovGP, "advance", advance)
    with pytest.raises(RunAuditFailure, match="contradicts its definition"):
        audit_played_runs(played_markov(range(6), T=100))


def test_a_run_played_on_another_environment_than_it_names_is_refused_by_its_ledger():
    from tvbo_verify.bandits import GPUCB
    from tvbo_verify.sweeps.run_audit import audit_played_runs, play_recorded

    other = MarkovGP(**{**MARKOV, "lengthscale": 0.5})  # not the model the parameters name
    played = play_recorded(GPUCB(), "tvgpucb-markov", MARKOV, 30, np.random.SeedSequence(1), env=other)
    with pytest.raises(RunAuditFailure, match="ledger"):
        audit_played_runs([played])
    with pytest.raises(ValueError, match="not 'gp-sample'"):
        play_recorded(GPUCB(), "gp-sample", {}, 5, 0, env=MarkovGP(**MARKOV))


@pytest.mark.parametrize("bug", ["variance not square-rooted", "white increments"])
def test_the_uncertainty_injection_drift_with_a_plausible_bug_is_refused(monkeypatch, bug):
    """The two bugs of the mutation catalog on the ``ui-drift`` environment, which no claim runs (the wsparq drift
    claims sample fractional Gaussian noise directly): the run audit must refuse each."""
    from tvbo_verify.bandits.environments import gpsample

    params = {"alpha": 0.5, "drift_var": 0.5} if bug == "white increments" else {"alpha": 1.0, "drift_var": 0.3}
    _, honest = audited("ui-drift", {**params, "grid_points": 41}, T=60, reps=4)  # the same runs without the bug
    assert all(s.passed for s in honest.statistics["ui-drift"])
    original = gpsample.fractional_gaussian_noise
    if bug == "white increments":  # Brownian increments whatever alpha
        monkeypatch.setattr(gpsample, "fractional_gaussian_noise",
                            lambda rng, n, alpha, size: original(rng, n, 1.0, size))
    else:  # drift_var for its square root: the drift's scale squared
        draw = gpsample.UncertaintyInjectionDrift._draw

        def _draw(self, rng):
            draw(self, rng)
            self._F = self._F + (np.sqrt(self.drift_var) - 1.0) * (self._F - self._F[:1])

        monkeypatch.setattr(gpsample.UncertaintyInjectionDrift, "_draw", _draw)
    with pytest.raises(RunAuditFailure, match="contradicts its definition"):
        audited("ui-drift", {**params, "grid_points": 41}, T=60, reps=4)
