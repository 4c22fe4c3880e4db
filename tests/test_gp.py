"""GP posteriors: prior/posterior ordering, incremental = batch, TV = Kalman filter, mpmath referee."""

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tvbo_verify import gp
from tvbo_verify import highprecision as rf
from tvbo_verify.errors import NumericalError
from tvbo_verify.gp import (
    DiscountedFeatureRegression,
    IncrementalPosterior,
    WeightedFeatureRegression,
    posterior,
    posterior_full,
    tv_posterior,
    weighted_posterior,
    weighted_posterior_mp,
)
from tvbo_verify.information import mercer_on_grid, weighted_information_gain
from tvbo_verify.kernels import Matern, SquaredExponential
from tvbo_verify.linalg import stable_cholesky
from tvbo_verify.nystrom import gram_mp

GRID = np.linspace(0.0, 1.0, 40)[:, None]
KERNEL = SquaredExponential(1.0, 0.15)

seeds = st.integers(0, 2**32 - 1)


def _data(seed, n, hetero=True):
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(GRID), size=n)
    y = rng.normal(size=n)
    noise = 0.01 * (1 + 5 * rng.random(n)) if hetero else np.full(n, 0.02)
    return rng, idx, y, noise


@settings(max_examples=40)
@given(seed=seeds, n=st.integers(1, 25))
def test_variance_below_prior_and_shrinks_with_data_and_noise(seed, n):
    _, idx, y, noise = _data(seed, n)
    _, var = posterior(KERNEL, GRID[idx], y, noise, GRID)
    assert np.all(var <= KERNEL.diag(GRID) + 1e-12)
    _, var_fewer = posterior(KERNEL, GRID[idx[:-1]], y[:-1], noise[:-1], GRID)
    assert np.all(var <= var_fewer + 1e-10)
    _, var_less_noise = posterior(KERNEL, GRID[idx], y, noise / 2, GRID)
    assert np.all(var_less_noise <= var + 1e-10)


@settings(max_examples=30)
@given(seed=seeds, n=st.integers(1, 30), removals=st.lists(st.integers(0, 10_000), max_size=8))
def test_incremental_equals_batch_under_appends_and_removals(seed, n, removals):
    _, idx, y, noise = _data(seed, n)
    inc = IncrementalPosterior(KERNEL, GRID, capacity=4)
    for i, yi, ni in zip(idx, y, noise):
        inc.append(int(i), float(yi), float(ni))
    kept = list(range(n))
    for r in removals:
        if not kept:
            break
        pos = r % len(kept)
        inc.remove(pos)
        del kept[pos]
    mean, var = posterior(KERNEL, GRID[idx[kept]], y[kept], noise[kept], GRID)
    np.testing.assert_allclose(inc.mean, mean, atol=1e-9, rtol=0)
    np.testing.assert_allclose(inc.var, var, atol=1e-9, rtol=0)
    np.testing.assert_array_equal(inc.indices, idx[kept])


@settings(max_examples=20)
@given(seed=seeds, n=st.integers(1, 20))
def test_refresh_with_new_noise_equals_batch(seed, n):
    rng, idx, y, noise = _data(seed, n)
    inc = IncrementalPosterior(KERNEL, GRID)
    for i, yi, ni in zip(idx, y, noise):
        inc.append(int(i), float(yi), float(ni))
    ages = np.arange(n)[::-1]
    inflated = 0.01 * (1 + ages**0.7)  # uncertainty injection σ²(1 + age^α)
    inc.refresh(inflated)
    mean, var = posterior(KERNEL, GRID[idx], y, inflated, GRID)
    np.testing.assert_allclose(inc.mean, mean, atol=1e-9)
    np.testing.assert_allclose(inc.var, var, atol=1e-9)


def _kalman(kernel, grid, idx, y, noise, eps):
    """Kalman filter on the grid for f_{t+1} = √(1-ε) f_t + √ε g_{t+1} (tvgpucb §1.5)."""
    K = kernel(grid)
    m, P = np.zeros(len(grid)), K.copy()
    for i, yi in zip(idx, y):
        s = P[i, i] + noise
        gain = P[:, i] / s
        m = m + gain * (yi - m[i])
        P = P - np.outer(gain, P[i, :])
        m, P = np.sqrt(1 - eps) * m, (1 - eps) * P + eps * K
    return m, np.diag(P)


@settings(max_examples=20)
@given(seed=seeds, n=st.integers(1, 25), eps=st.floats(0.0, 1.0))
def test_tv_posterior_equals_kalman_filter(seed, n, eps):
    _, idx, y, _ = _data(seed, n)
    m_kf, v_kf = _kalman(KERNEL, GRID, idx, y, 0.05, eps)
    batch = tv_posterior(KERNEL, GRID[idx], y, 0.05, GRID, eps)
    np.testing.assert_allclose(batch.mean, m_kf, atol=1e-10)
    np.testing.assert_allclose(batch.var, v_kf, atol=1e-10)
    inc = IncrementalPosterior(KERNEL, GRID, forgetting=eps)
    for i, yi in zip(idx, y):
        inc.append(int(i), float(yi), 0.05)
    np.testing.assert_allclose(inc.mean, m_kf, atol=1e-9)
    np.testing.assert_allclose(inc.var, v_kf, atol=1e-9)


@settings(max_examples=20)
@given(seed=seeds, n=st.integers(1, 20), gamma=st.floats(0.5, 1.0))
def test_weighted_forms_agree_and_loose_variance_is_smaller(seed, n, gamma):
    rng, idx, y, _ = _data(seed, n)
    direct = weighted_posterior(KERNEL, GRID[idx], y, GRID, lam=0.7, discount=gamma, form="direct")
    relative = weighted_posterior(KERNEL, GRID[idx], y, GRID, lam=0.7, discount=gamma)
    np.testing.assert_allclose(direct.mean, relative.mean, atol=1e-8)
    np.testing.assert_allclose(direct.var, relative.var, atol=1e-9)
    np.testing.assert_allclose(direct.loose_var, relative.loose_var, atol=1e-9)
    assert np.all(relative.loose_var <= relative.var + 1e-12)


def test_weighted_relative_form_survives_overflow_regime():
    rng = np.random.default_rng(1)
    X, y = rng.uniform(size=(800, 1)), rng.normal(size=800)
    res = weighted_posterior(KERNEL, X, y, GRID, lam=1.0, discount=0.2)  # 0.2^-800 overflows float64
    assert np.all(np.isfinite(res.mean)) and np.all(res.var >= 0)
    with pytest.raises(ValueError, match="overflows"):
        weighted_posterior(KERNEL, X, y, GRID, lam=1.0, discount=0.2, form="direct")


def test_unit_weights_recover_standard_posterior():
    _, idx, y, _ = _data(3, 12)
    res = weighted_posterior(KERNEL, GRID[idx], y, GRID, lam=0.3, discount=1.0)
    mean, var = posterior(KERNEL, GRID[idx], y, 0.3, GRID)
    np.testing.assert_allclose(res.mean, mean, atol=1e-12)
    np.testing.assert_allclose(res.var, var, atol=1e-12)
    np.testing.assert_allclose(res.loose_var, var, atol=1e-12)


def test_posterior_agrees_with_mpmath_at_50_digits():
    mpmath.mp.dps = 50
    kernel = Matern(2.5, 1.3, 0.3)
    X = np.array([[0.1], [0.35], [0.4], [0.8]])
    y = np.array([0.3, -1.2, 0.5, 2.0])
    noise = np.array([0.01, 0.02, 0.05, 0.01])
    xs = np.array([[0.0], [0.37], [0.9]])
    mean, var = posterior(kernel, X, y, noise, xs)
    A = mpmath.matrix(kernel(X).tolist()) + mpmath.diag(noise.tolist())
    Ks = mpmath.matrix(kernel(X, xs).tolist())
    sol_y = mpmath.lu_solve(A, mpmath.matrix(y.tolist()))
    for j in range(xs.shape[0]):
        kj = Ks[:, j]
        m_ref = (kj.T * sol_y)[0]
        v_ref = mpmath.mpf(kernel.variance) - (kj.T * mpmath.lu_solve(A, kj))[0]
        assert abs(mean[j] - float(m_ref)) < 1e-12
        assert abs(var[j] - float(v_ref)) < 1e-12
    assert abs(stable_cholesky(kernel(X) + np.diag(noise)).logdet() - float(mpmath.log(mpmath.det(A)))) < 1e-12


def test_full_covariance_and_jitter_reporting():
    X = np.array([[0.2], [0.2], [0.5]])
    res = posterior_full(KERNEL, X, [1.0, 1.0, 0.0], 1e-3, GRID, full_cov=True)
    np.testing.assert_allclose(np.diag(res.cov), res.var, atol=1e-12)
    assert res.jitter == 0.0
    assert np.linalg.eigvalsh(res.cov).min() > -1e-10


def test_jitter_ladder_then_numerical_error():
    K = np.ones((3, 3))  # rank one: needs jitter
    f = stable_cholesky(K)
    assert f.jitter > 0
    with pytest.raises(NumericalError, match="failed even with jitter"):
        stable_cholesky(-np.eye(3), name="negative")


@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda: posterior(KERNEL, [[0.1]], [1.0], -0.1, GRID), "noise_var must be > 0, got -0.1"),
        (lambda: posterior(KERNEL, [[0.1], [0.2]], [1.0], 0.1, GRID), "y must have length 2"),
        (lambda: posterior(KERNEL, [[np.nan]], [1.0], 0.1, GRID), "X must contain only finite values"),
        (lambda: posterior(KERNEL, [[0.1]], [1.0], [0.1, 0.2], GRID), "noise_var must be a scalar or have length 1"),
        (lambda: posterior(KERNEL, [[0.1, 0.2]], [1.0], 0.1, GRID), "Xstar must have 2 columns"),
        (lambda: tv_posterior(KERNEL, [[0.1]], [1.0], 0.1, GRID, 1.5), "epsilon must be in [0, 1], got 1.5"),
        (lambda: IncrementalPosterior(KERNEL, GRID).append(40, 1.0, 0.1), "index must be an integer in [0, 39]"),
        (lambda: IncrementalPosterior(KERNEL, GRID).remove(0), "position must be an integer in [0, -1]"),
        (lambda: weighted_posterior(KERNEL, [[0.1]], [1.0], GRID, lam=1.0, discount=0.0), "discount must be in (0, 1]"),
    ],
)
def test_invalid_inputs_name_the_parameter(call, fragment):
    with pytest.raises(ValueError) as info:
        call()
    assert fragment in str(info.value)


# --------------------------------------------------------------------------------------------------
# wgpucb feature-space objects and the mpmath twin of the weighted posterior
# --------------------------------------------------------------------------------------------------
@settings(max_examples=20)
@given(seed=seeds, n=st.integers(1, 15))
def test_feature_regression_matches_kernel_forms(seed, n):
    rng, idx, y, _ = _data(seed, n)
    w = np.cumsum(rng.uniform(0.0, 1.0, n)) + 0.5
    Phi = mercer_on_grid(KERNEL(GRID)).features
    model = WeightedFeatureRegression(Phi[idx], w, 0.7)
    res = weighted_posterior(KERNEL, GRID[idx], y, GRID, lam=0.7, weights=w)
    np.testing.assert_allclose([model.variance(f) for f in Phi], res.var, atol=1e-8)
    np.testing.assert_allclose([model.loose_variance(f) for f in Phi], res.loose_var, atol=1e-8)
    np.testing.assert_allclose(Phi @ model.theta(y), res.mean, atol=1e-7 * max(1.0, np.max(np.abs(y))))


def test_feature_regression_rejects_bad_weights():
    with pytest.raises(ValueError, match="weights"):
        WeightedFeatureRegression(np.ones((2, 3)), [1.0, -1.0], 1.0)
    with pytest.raises(ValueError, match="lam"):
        WeightedFeatureRegression(np.ones((2, 3)), [1.0, 1.0], 0.0)


@pytest.mark.parametrize("form", ["relative", "direct"])
def test_weighted_posterior_mp_twin_agrees_with_float(form):
    mpmath.mp.dps = 50
    X = np.array([[0.1], [0.35], [0.4], [0.8]])
    xs = np.array([[0.0], [0.37], [0.9]])
    y, w = [0.3, -1.2, 0.5, 2.0], [0.5, 1.0, 1.0, 3.0]
    m, v, lv = weighted_posterior_mp(rf.mpmat(gram_mp(KERNEL, X)), rf.mpmat(gram_mp(KERNEL, X, xs)), [1, 1, 1], y,
                                     lam=0.2, weights=w, form=form)
    res = weighted_posterior(KERNEL, X, np.array(y), xs, lam=0.2, weights=np.array(w))
    np.testing.assert_allclose([float(a) for a in m], res.mean, atol=1e-10)
    np.testing.assert_allclose([float(a) for a in v], res.var, atol=1e-10)
    np.testing.assert_allclose([float(a) for a in lv], res.loose_var, atol=1e-10)


@pytest.mark.parametrize("disc", [0.7, 0.95])
def test_discounted_feature_regression_matches_kernel_forms(disc):
    rng = np.random.default_rng(4)
    Phi = mercer_on_grid(KERNEL(GRID)).features
    model = DiscountedFeatureRegression(Phi, 0.6, disc)
    idx, y, eps = rng.integers(0, len(GRID), 30), rng.normal(size=30), rng.normal(size=30)
    for i, yi, e in zip(idx, y, eps):
        model.append(int(i), float(yi), float(e))
    res = weighted_posterior(KERNEL, GRID[idx], y, GRID, lam=0.6, discount=disc)
    var, loose = model.variances()
    np.testing.assert_allclose(model.mean(), res.mean, atol=1e-9)
    np.testing.assert_allclose(var, res.var, atol=1e-9)
    np.testing.assert_allclose(loose, res.loose_var, atol=1e-9)
    assert model.log_det_double() == pytest.approx(2 * weighted_information_gain(KERNEL, GRID[idx], 0.6, disc, "bar"),
                                                   rel=1e-9)
    # ‖S_t‖²_{Ṽ_t⁻¹} = εᵀ A (A + I)⁻¹ ε with A = λ⁻¹ D K D, D = diag(γ^{t−s}) (papers/wgpucb/READING.md §3.4)
    D = disc ** (len(idx) - 1 - np.arange(len(idx)))
    A = D[:, None] * KERNEL(GRID[idx]) * D[None, :] / 0.6
    assert model.noise_norm() ** 2 == pytest.approx(eps @ A @ np.linalg.solve(A + np.eye(len(idx)), eps), rel=1e-8)
    with pytest.raises(ValueError, match="disc"):
        DiscountedFeatureRegression(Phi, 0.6, 1.5)


# tvgpucb: Kalman reference, mpmath twins, marginal likelihood of the forgetting factor
# --------------------------------------------------------------------------------------------------
def _tv_data(seed: int = 0, t: int = 7):
    rng = np.random.default_rng(seed)
    return SquaredExponential(1.0, 0.2), rng.uniform(size=(t, 1)), rng.normal(size=t), np.linspace(0, 1, 9)[:, None]


@pytest.mark.parametrize("eps", [0.0, 0.02, 0.5, 1.0])
def test_kalman_filter_of_the_markov_model_equals_formula_7_8(eps):
    k, X, y, G = _tv_data()
    a = gp.tv_posterior(k, X, y, 0.05, G, eps)
    b = gp.markov_kalman_posterior(k, X, y, 0.05, G, eps)
    np.testing.assert_allclose(b.mean, a.mean, atol=1e-12)
    np.testing.assert_allclose(b.var, a.var, atol=1e-12)


def test_tv_posterior_mp_twins_agree_with_float():
    k, X, y, G = _tv_data(1)
    f = gp.tv_posterior(k, X, y, 0.05, G[3:4], 0.1)
    with mpmath.workdps(50):
        m1, v1 = gp.tv_posterior_mp(k, X, y, 0.05, G[3:4], 0.1)
        m2, v2 = gp.markov_kalman_posterior_mp(k, X, y, 0.05, G[3:4], 0.1)
        assert abs(m1 - m2) < mpmath.mpf(10) ** -40 and abs(v1 - v2) < mpmath.mpf(10) ** -40
    assert float(m1) == pytest.approx(f.mean[0], abs=1e-12)
    assert float(v1) == pytest.approx(f.var[0], abs=1e-12)


def test_forgetting_likelihood_gradient_kronecker_and_fit():
    k, X, _, _ = _tv_data(2, 5)
    rng = np.random.default_rng(4)
    Y = rng.normal(size=(12, 5))
    Xf, t, y = np.tile(X, (12, 1)), np.repeat(np.arange(1, 13.0), 5), Y.ravel()
    eps, h = 0.07, 1e-6
    fd = (gp.tv_log_marginal_likelihood(k, Xf, t, y, 0.1, eps + h)
          - gp.tv_log_marginal_likelihood(k, Xf, t, y, 0.1, eps - h)) / (2 * h)
    assert gp.tv_log_marginal_likelihood_grad(k, Xf, t, y, 0.1, eps) == pytest.approx(fd, rel=1e-6)
    assert gp.tv_log_marginal_likelihood_kron(k, X, Y, 0.1, eps) == pytest.approx(
        gp.tv_log_marginal_likelihood(k, Xf, t, y, 0.1, eps), rel=1e-12)
    best = gp.fit_forgetting(k, Xf, t, y, 0.1)
    value = gp.tv_log_marginal_likelihood(k, Xf, t, y, 0.1, best)
    for other in (best * 0.9, min(best * 1.1, 0.999)):
        assert value >= gp.tv_log_marginal_likelihood(k, Xf, t, y, 0.1, other) - 1e-9


def test_forgetting_likelihood_rejects_bad_parameters():
    k, X, y, _ = _tv_data()
    t = np.arange(1.0, 8.0)
    with pytest.raises(ValueError, match="epsilon"):
        gp.tv_log_marginal_likelihood_grad(k, X, t, y, 0.1, 1.0)
    with pytest.raises(ValueError, match="bounds"):
        gp.fit_forgetting(k, X, t, y, 0.1, bounds=(0.5, 0.2))
    with pytest.raises(ValueError, match="Y"):
        gp.tv_log_marginal_likelihood_kron(k, X, np.zeros((3, 2)), 0.1, 0.1)
