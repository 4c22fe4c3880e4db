"""Maximum-likelihood hyperparameters: the exact log marginal likelihood, recovery on model data, policies."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from tvbo_verify.bandits import run
from tvbo_verify.bandits.environments import GramKernel, MarkovGP
from tvbo_verify.bandits.environments.base import psd_sqrt
from tvbo_verify.bandits.hyperfit import HyperFit, fit_hyperparameters, fit_table
from tvbo_verify.bandits.registry import make_env, make_policy
from tvbo_verify.gp import log_marginal_likelihood
from tvbo_verify.kernels import ForgettingKernel, Matern, SquaredExponential


@pytest.fixture(autouse=True)
def one_blas_thread():
    """Small dense problems: BLAS threads only contend (the fits themselves run single-threaded)."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1, "blas"):
        yield


def test_log_marginal_likelihood_value_gradient_and_independent_columns():
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(9, 2))
    K = Matern(1.5, 1.2, 0.4)(X)
    y = rng.normal(size=9)
    noise = 0.2
    res = log_marginal_likelihood(K, y, noise, [K, noise * np.eye(9)])
    assert res.value == pytest.approx(multivariate_normal(np.zeros(9), K + noise * np.eye(9)).logpdf(y), rel=1e-12)
    h = 1e-6  # d/dlog variance and d/dlog noise by central differences
    def lml(scale, nscale):
        return log_marginal_likelihood(K * scale, y, noise * nscale).value

    dv = (lml(np.exp(h), 1.0) - lml(np.exp(-h), 1.0)) / (2 * h)
    dn = (lml(1.0, np.exp(h)) - lml(1.0, np.exp(-h))) / (2 * h)
    np.testing.assert_allclose(res.gradient, [dv, dn], rtol=1e-6)
    Y = rng.normal(size=(9, 3))
    both = log_marginal_likelihood(K, Y, noise, [K])
    parts = [log_marginal_likelihood(K, Y[:, j], noise, [K]) for j in range(3)]
    assert both.value == pytest.approx(sum(p.value for p in parts))
    assert both.gradient[0] == pytest.approx(sum(p.gradient[0] for p in parts))


def test_fit_recovers_variance_lengthscale_and_noise_of_a_gp_sample():
    rng = np.random.default_rng(1)
    X = np.sort(rng.uniform(0, 10, size=(300, 1)), axis=0)
    truth = SquaredExponential(2.0, 0.8)
    y = psd_sqrt(truth(X)) @ rng.standard_normal(300) + np.sqrt(0.05) * rng.standard_normal(300)
    res = fit_hyperparameters(SquaredExponential(1.0, 3.0), X, y, 0.5)
    assert res.values["lengthscale"] == pytest.approx(0.8, rel=0.2)
    assert 2.0 / 3 < res.values["variance"] < 2.0 * 3  # one path on [0, 10]: ~12 independent stretches
    assert res.values["noise_var"] == pytest.approx(0.05, rel=0.3)
    # The optimiser finds the maximum: no point of a grid around the truth does better.
    for v in (1.0, 4.0):
        for ls in (0.6, 0.8, 1.0):
            for nv in (0.03, 0.08):
                assert log_marginal_likelihood(SquaredExponential(v, ls)(X), y, nv).value <= res.log_likelihood + 1e-6
    start = log_marginal_likelihood(SquaredExponential(1.0, 3.0)(X), y, 0.5).value
    assert res.log_likelihood > start
    assert res.log_likelihood == pytest.approx(log_marginal_likelihood(res.kernel(X), y, res.noise_var).value)


@pytest.mark.parametrize("epsilon", [0.02, 0.1])
def test_fit_recovers_the_forgetting_factor_of_the_markov_model(epsilon):
    # papers/tvgpucb/READING.md §tvgpucb:eq-24-25: 20 locations x 100 model times, ML epsilon within ~30% of the truth.
    grid = np.linspace(0, 1, 20)[:, None]
    env = MarkovGP(epsilon=epsilon, grid=grid, noise_var=0.01, kernel=SquaredExponential(1.0, 0.2))
    env.reset(np.random.default_rng(5), 100)
    rows = []
    noise = np.random.default_rng(6)
    for t in range(100):
        if t:
            env.advance()
        rows.append(env.values() + 0.1 * noise.standard_normal(20))
    table = np.asarray(rows)
    res = fit_table(SquaredExponential(1.0, 0.2), table, 0.01, epsilon=0.3, arms=grid, params=("epsilon",))
    assert res.epsilon == pytest.approx(epsilon, rel=0.3)
    # The Kronecker likelihood is the dense one.
    times = np.repeat(np.arange(100.0), 20)
    X = np.tile(grid, (100, 1))
    K = SquaredExponential(1.0, 0.2)(X) * ForgettingKernel(res.epsilon).of_lag(times[:, None] - times[None, :])
    dense = log_marginal_likelihood(K, table.reshape(-1), 0.01).value
    assert res.log_likelihood == pytest.approx(dense, rel=1e-9)


def test_dense_and_kronecker_fits_agree_on_an_empirical_covariance():
    rng = np.random.default_rng(2)
    C = np.cov(rng.normal(size=(40, 6)) @ rng.normal(size=(6, 6)), rowvar=False)
    table = rng.multivariate_normal(np.zeros(6), 3.0 * C + 0.1 * np.eye(6), size=30)
    kern = GramKernel(C)
    a = fit_table(kern, table, 1.0)
    X = np.tile(np.arange(6.0)[:, None], (30, 1))
    groups = np.repeat(np.arange(30), 6)
    b = fit_hyperparameters(kern, X, table.reshape(-1), 1.0, groups=groups)
    assert a.values["scale"] == pytest.approx(b.values["scale"], rel=1e-3)
    assert a.values["noise_var"] == pytest.approx(b.values["noise_var"], rel=1e-3)
    assert a.log_likelihood == pytest.approx(b.log_likelihood, rel=1e-6)


def test_policies_record_every_refit_in_the_trace():
    env = make_env("sparq-synthetic", {"grid_points": 201})
    trace = run(make_policy("tv-gp-ucb", {"fit": "ml", "refit_every": 15, "fit_restarts": 0}), env, 45,
                np.random.default_rng(0))
    fits = trace.meta["policy"]["fits"]
    assert [f["step"] for f in fits] == [15, 30, 45]
    assert all({"variance", "lengthscale", "noise_var", "epsilon", "log_likelihood"} <= set(f) for f in fits)
    assert trace.meta["policy"]["fit"]["every"] == 15
    once = run(make_policy("sparq-gp-ucb", {"fit": "ml", "fit_on": "train"}), env, 10, np.random.default_rng(0))
    assert [f["on"] for f in once.meta["policy"]["fits"]] == ["train"]
    assert once.meta["policy"]["fits"][0]["n"] == 200


@pytest.mark.parametrize("name", ["gp-ucb", "r-gp-ucb", "sw-gp-ucb", "wgp-ucb", "w-sparq-gp-ucb"])
def test_every_gp_policy_refits(name):
    env = make_env("wgpucb-rotation", {"grid_points": 50})
    policy = make_policy(name, {"fit": "ml", "refit_every": 10, "fit_restarts": 0})
    trace = run(policy, env, 20, np.random.default_rng(0))
    assert len(trace.meta["policy"]["fits"]) == 2


def test_fit_option_errors():
    with pytest.raises(ValueError, match="fit must be one of"):
        make_policy("gp-ucb", {"fit": "map"})
    with pytest.raises(ValueError, match="need fit=ml"):
        make_policy("gp-ucb", {"refit_every": 5})
    with pytest.raises(ValueError, match="does not support"):
        make_policy("random", {"fit": "ml"})
    with pytest.raises(ValueError, match="fit_on must be one of"):
        HyperFit(on="future")
    env = make_env("wgpucb-rotation", {"grid_points": 20})
    with pytest.raises(ValueError, match="training split"):
        run(make_policy("gp-ucb", {"fit": "ml", "fit_on": "train"}), env, 10, np.random.default_rng(0))
