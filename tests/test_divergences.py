"""Gaussian KL, sparse posteriors and their KLs (Titsias vs subset of data), Burt et al. Prop. 1,
integrated W2 and the BOLT / W-DBO removal criterion."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from tvbo_verify.divergences import (
    exact_posterior,
    expected_subset_kl,
    expected_titsias_kl,
    gaussian_kl,
    gaussian_kl_1d,
    integrated_w2,
    located_posterior_kl,
    posterior_kl,
    removal_criterion,
    removal_w2,
    removal_w2_bruteforce,
    subset_kl,
    subset_posterior,
    titsias_elbo,
    titsias_kl,
    titsias_posterior,
    trace_bound,
    transfer_bounds,
    w2_squared_pointwise,
)
from tvbo_verify.dpp import sample_kdpp
from tvbo_verify.gp import posterior
from tvbo_verify.kernels import Matern, SpatioTemporalKernel, SquaredExponential


def _random_gaussian(rng, n):
    A = rng.normal(size=(n, n))
    return rng.normal(size=n), A @ A.T + 0.1 * np.eye(n)


def _instance(seed, n=12, hetero=True):
    rng = np.random.default_rng(seed)
    X = rng.uniform(0, 5, (n, 1))
    K = SquaredExponential(1.0, 1.0)(X)
    noise = rng.uniform(0.05, 0.3, n) if hetero else np.full(n, 0.1)
    y = rng.normal(size=n)
    return rng, X, K, noise, y


# ---------------------------------------------------------------------------------------------- KL


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 6))
def test_gaussian_kl_nonnegative_zero_only_for_equal(seed, n):
    rng = np.random.default_rng(seed)
    m0, S0 = _random_gaussian(rng, n)
    m1, S1 = _random_gaussian(rng, n)
    assert gaussian_kl(m0, S0, m0, S0) == pytest.approx(0.0, abs=1e-10)
    assert gaussian_kl(m0, S0, m1, S1) > 1e-6
    assert gaussian_kl(m0, S0, m0 + 1e-2, S0) > 0.0


def test_gaussian_kl_matches_univariate_formula_and_monte_carlo():
    rng = np.random.default_rng(0)
    expected = float(gaussian_kl_1d(0.3, 2.0, -1.0, 0.5))
    assert gaussian_kl([0.3], [[2.0]], [-1.0], [[0.5]]) == pytest.approx(expected, rel=1e-12)
    m0, S0 = _random_gaussian(rng, 3)
    m1, S1 = _random_gaussian(rng, 3)
    x = rng.multivariate_normal(m0, S0, size=200_000)
    mc = np.mean(stats.multivariate_normal(m0, S0).logpdf(x) - stats.multivariate_normal(m1, S1).logpdf(x))
    assert gaussian_kl(m0, S0, m1, S1) == pytest.approx(mc, rel=0.03)


def test_posterior_kl_zero_for_same_data_positive_otherwise():
    rng, X, K, noise, y = _instance(1)
    k = SquaredExponential(1.0, 1.0)
    assert posterior_kl(k, X, y, noise, X, y, noise) == pytest.approx(0.0, abs=1e-9)
    assert posterior_kl(k, X[:6], y[:6], noise[:6], X, y, noise) > 1e-3
    grid = np.linspace(0, 5, 30)[:, None]
    # marginal KL on a grid ≤ process KL (data processing)
    assert posterior_kl(k, X[:6], y[:6], noise[:6], X, y, noise, points=X[::3]) <= posterior_kl(
        k, X[:6], y[:6], noise[:6], X, y, noise
    ) + 1e-9
    assert np.isfinite(posterior_kl(k, X[:6], y[:6], noise[:6], X, y, noise, points=grid[::6]))


def test_located_posterior_kl_matches_the_process_kl_with_repeats_and_no_nesting():
    rng = np.random.default_rng(7)
    k = SquaredExponential(1.0, 1.0)
    U = np.array([0.0, 0.7, 1.9, 2.6, 4.0, 5.5])[:, None]  # well separated: the direct Cholesky form is accurate
    K = k(U)
    loc_p = np.array([0, 1, 1, 2, 3, 3, 3, 5])  # repeats; point 4 never observed by P
    loc_q = np.array([1, 4, 5, 2])  # observes point 4, which P does not: no subset relation
    yp, yq = rng.normal(size=loc_p.size), rng.normal(size=loc_q.size)
    nvp, nvq = rng.uniform(0.05, 0.5, loc_p.size), rng.uniform(0.05, 0.5, loc_q.size)
    direct = posterior_kl(k, U[loc_q], yq, nvq, U[loc_p], yp, nvp, points=U)
    assert located_posterior_kl(K, loc_q, yq, nvq, loc_p, yp, nvp) == pytest.approx(direct, rel=1e-9)
    assert located_posterior_kl(K, loc_p, yp, nvp, loc_p, yp, nvp) == pytest.approx(0.0, abs=1e-10)
    # two observations at one point act as one with the summed precision and the precision-weighted value
    merged = located_posterior_kl(K, [1], [(yp[1] / nvp[1] + yp[2] / nvp[2]) / (1 / nvp[1] + 1 / nvp[2])],
                                  [1 / (1 / nvp[1] + 1 / nvp[2])], loc_p, yp, nvp)
    assert located_posterior_kl(K, loc_p[1:3], yp[1:3], nvp[1:3], loc_p, yp, nvp) == pytest.approx(merged, rel=1e-9)


def test_located_posterior_kl_is_stable_on_clustered_points():
    """Points 0.5 apart under an SE lengthscale of 3 (SparQ's grid): K is ill-conditioned, and the precision form
    agrees with the KL computed from the covariances at 60 digits."""
    import mpmath

    U = np.arange(12) * 0.5
    K = 0.5 * np.exp(-(U[:, None] - U[None, :]) ** 2 / 18.0)
    assert np.linalg.cond(K) > 1e12
    rng = np.random.default_rng(3)
    loc_p = rng.integers(0, 12, 30)
    loc_q = np.arange(0, 12, 2)
    yp, yq = rng.normal(size=30), rng.normal(size=loc_q.size)
    value = located_posterior_kl(K, loc_q, yq, 0.01, loc_p, yp, 0.01)
    with mpmath.workdps(60):
        Km = mpmath.matrix([[mpmath.mpf(0.5) * mpmath.exp(-mpmath.mpf(a - b) ** 2 / 18) for b in U] for a in U])

        def post(loc, y):
            L = mpmath.matrix(len(loc), 12)
            for i, u in enumerate(loc):
                L[i, int(u)] = 1
            C = L * Km * L.T + mpmath.eye(len(loc)) * mpmath.mpf(0.01)
            G = Km * L.T * mpmath.inverse(C)
            return G * mpmath.matrix([mpmath.mpf(v) for v in y]), Km - G * L * Km

        mq, Cq = post(loc_q, yq)
        mp_, Cp = post(loc_p, yp)
        P = mpmath.inverse(Cp)
        dm = mp_ - mq
        ref = (mpmath.fsum((P * Cq)[i, i] for i in range(12)) - 12 + (dm.T * P * dm)[0]
               + mpmath.log(mpmath.det(Cp)) - mpmath.log(mpmath.det(Cq))) / 2
    assert value == pytest.approx(float(ref), rel=1e-6)


# -------------------------------------------------------------------------------- sparse posteriors


def test_sparse_posteriors_and_their_kls_are_consistent():
    _, X, K, noise, y = _instance(2)
    S = [1, 4, 7, 9]
    m, C = exact_posterior(K, y, noise)
    mgp, Cgp = posterior(SquaredExponential(1.0, 1.0), X, y, noise, X, full_cov=True)
    assert np.allclose(m, mgp, atol=1e-10) and np.allclose(C, Cgp, atol=1e-10)
    ms, Cs = subset_posterior(K, y, noise, S)
    assert subset_kl(K, y, noise, S) == pytest.approx(gaussian_kl(ms, Cs, m, C), rel=1e-8)
    mt, Ct = titsias_posterior(K, y, noise, S)
    assert titsias_kl(K, y, noise, S) == pytest.approx(gaussian_kl(mt, Ct, m, C), rel=1e-8)
    # all inducing points / full subset: both coincide with the exact posterior
    full = np.arange(K.shape[0])
    assert titsias_kl(K, y, noise, full) == pytest.approx(0.0, abs=1e-8)
    assert subset_kl(K, y, noise, full) == pytest.approx(0.0, abs=1e-8)


def test_expected_kls_match_monte_carlo_over_outputs():
    rng, X, K, noise, _ = _instance(3, n=8)
    S = [0, 3, 6]
    L = np.linalg.cholesky(K + np.diag(noise))
    Y = (L @ rng.normal(size=(8, 800))).T
    for exact, samples in (
        (expected_titsias_kl(K, noise, S), [titsias_kl(K, y, noise, S) for y in Y]),
        (expected_subset_kl(K, noise, S), [subset_kl(K, y, noise, S) for y in Y]),
    ):
        se = np.std(samples) / math.sqrt(len(samples))
        assert abs(np.mean(samples) - exact) <= 5 * se


def test_elbo_below_evidence_equal_with_all_points_and_monotone_in_nested_sets():
    _, X, K, noise, y = _instance(4, n=15)
    F = np.linalg.cholesky(K + np.diag(noise))
    z = np.linalg.solve(F, y)
    log_evidence = -0.5 * (z @ z) - np.sum(np.log(np.diag(F))) - 7.5 * math.log(2 * math.pi)
    values = [titsias_elbo(K, y, noise, np.arange(m)) for m in range(0, 16, 3)]
    assert all(v <= log_evidence + 1e-8 for v in values)
    assert all(b >= a - 1e-8 for a, b in zip(values, values[1:]))
    assert titsias_elbo(K, y, noise, np.arange(15)) == pytest.approx(log_evidence, abs=1e-8)


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), m=st.integers(0, 8), hetero=st.booleans())
def test_titsias_trace_bound_holds_on_random_instances(seed, m, hetero):
    """sparq (51): E_y KL[Q_var ‖ P] ≤ tr(K − U)/λ_min(Σ) for every inducing set."""
    rng, X, K, noise, _ = _instance(seed, n=14, hetero=hetero)
    S = rng.choice(14, size=m, replace=False)
    assert expected_titsias_kl(K, noise, S) <= trace_bound(K, noise, S) * (1 + 1e-9) + 1e-10


def test_catalog_clustered_instance_bound_holds_for_titsias_fails_for_subset_of_data():
    """wsparq Appendix A setup: 15 inputs in [-0.1, 0.1], 5 in [-20, 20], SE l = 3, M_k² = 0.5,
    σ² = 0.01, exact 6-DPP draws. The trace bound holds for the variational posterior on every draw
    and fails for the subset-of-data posterior (the one the algorithms compute)."""
    rng = np.random.default_rng(0)
    X = np.vstack([rng.uniform(-0.1, 0.1, (15, 1)), rng.uniform(-20, 20, (5, 1))])
    K = SquaredExponential(0.5, 3.0)(X)
    noise = 0.01
    ratios = []
    for _ in range(10):
        S = sample_kdpp(K, 6, rng)
        bound = trace_bound(K, noise, S)
        assert expected_titsias_kl(K, noise, S) <= bound
        ratios.append(expected_subset_kl(K, noise, S) / bound)
    assert min(ratios) > 1.0  # violated on every draw
    assert max(ratios) > 10.0  # and by a wide margin


# ---------------------------------------------------------------------------- Burt et al. Prop. 1


@settings(max_examples=60)
@given(
    mp=st.floats(-2, 2), vp=st.floats(0.05, 4), mq=st.floats(-2, 2), vq=st.floats(0.05, 4), frac=st.floats(0, 1)
)
def test_transfer_bounds_hold_whenever_hypothesis_holds(mp, vp, mq, vq, frac):
    two_kl = 2 * float(gaussian_kl_1d(mq, vq, mp, vp))
    if two_kl > 0.2:
        return
    eta = max(two_kl + frac * (0.2 - two_kl), 1e-12)
    assert transfer_bounds(mp, vp, mq, vq, eta).holds


def test_transfer_bounds_on_gp_marginals_of_a_titsias_posterior():
    """sparq §4.1 Prop. 1(b): Q = Titsias posterior, P = exact; wherever 2 KL_x ≤ η ≤ 1/5 for the
    marginals at x, the three pointwise inequalities hold."""
    rng = np.random.default_rng(7)
    X = rng.uniform(0, 10, (60, 1))
    K = SquaredExponential(1.0, 1.0)(X)
    y = rng.normal(size=60)
    noise = 0.1
    m, C = exact_posterior(K, y, noise)
    checked = 0
    for size in (8, 12, 16, 24):
        S = sample_kdpp(K, size, rng)
        mq, Cq = titsias_posterior(K, y, noise, S)
        vp, vq = np.diag(C), np.diag(Cq)
        two_kl = 2 * gaussian_kl_1d(mq, vq, m, vp)
        ok = two_kl <= 0.2
        if not np.any(ok):
            continue
        eta = np.maximum(two_kl[ok], 1e-12)
        for i, e in zip(np.flatnonzero(ok), eta):
            assert transfer_bounds(m[i], vp[i], mq[i], vq[i], float(e)).holds
            checked += 1
    assert checked > 50


def test_transfer_variance_bound_needs_eta_at_most_one_fifth():
    """Boundary probe (sparq §4.1, wsparq C-P3.4): μ_q = μ_p and σ_q²/σ_p² = 1 + u with
    η = 2 KL = u − log(1 + u): the variance claim holds at η = 0.2 and fails at η = 0.25."""

    def probe(eta):
        from scipy.optimize import brentq

        u = brentq(lambda u: u - math.log1p(u) - eta, 1e-9, 10.0)
        return transfer_bounds(0.0, 1.0, 0.0, 1.0 + u, eta)

    assert bool(probe(0.2).holds)
    assert not bool(probe(0.25).holds)


# ------------------------------------------------------------------------------------------ W2


def test_pointwise_w2_is_the_quantile_distance():
    u = np.linspace(0.5e-4, 1 - 0.5e-4, 10_000)
    q1 = stats.norm.ppf(u, 0.3, 1.2)
    q2 = stats.norm.ppf(u, -0.4, 0.5)
    assert float(w2_squared_pointwise(0.3, 1.44, -0.4, 0.25)) == pytest.approx(np.mean((q1 - q2) ** 2), rel=2e-3)


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000))
def test_integrated_w2_symmetric_zero_iff_identical(seed):
    rng = np.random.default_rng(seed)
    m1, m2 = rng.normal(size=20), rng.normal(size=20)
    v1, v2 = rng.uniform(0.1, 2, 20), rng.uniform(0.1, 2, 20)
    w = rng.uniform(0, 1, 20)
    assert integrated_w2(m1, v1, m2, v2, w) == pytest.approx(integrated_w2(m2, v2, m1, v1, w), rel=1e-12)
    assert integrated_w2(m1, v1, m1, v1, w) == 0.0
    assert integrated_w2(m1, v1, m2, v2) > 0.0


@settings(max_examples=15)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 15))
def test_removal_w2_equals_brute_force_refits(seed, n):
    rng = np.random.default_rng(seed)
    k = Matern(2.5, 1.3, 0.4)
    X = rng.uniform(0, 1, (n, 2))
    grid = rng.uniform(0, 1, (60, 2))
    y = rng.normal(size=n)
    noise = rng.uniform(0.01, 0.2, n)
    w = rng.uniform(0, 1, 60)
    fast = removal_w2(k(X), k(grid, X), k.diag(grid), y, noise, w)
    slow = removal_w2_bruteforce(k(X), k(grid, X), k.diag(grid), y, noise, w)
    assert np.allclose(fast, slow, rtol=1e-7, atol=1e-9)


def test_removal_criterion_spatiotemporal_bolt_instance():
    rng = np.random.default_rng(5)
    k = SpatioTemporalKernel(Matern(2.5, 1.0, 0.5), Matern(1.5, 1.0, 3.0), signal_variance=1.0)
    X = np.column_stack([rng.uniform(0, 1, (25, 2)), np.sort(rng.uniform(0, 10, 25))])
    y = rng.normal(size=25)
    g = np.linspace(0, 1, 6)
    grid = np.array([[a, b, t] for a in g for b in g for t in np.linspace(10, 15, 4)])
    i_star, w2 = removal_criterion(k, X, y, 0.01, grid)
    brute = removal_w2_bruteforce(k(X), k(grid, X), k.diag(grid), y, 0.01)
    assert np.allclose(w2, brute, rtol=1e-7, atol=1e-10)
    assert i_star == int(np.argmin(brute))


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda K, y, s: subset_kl(K, y, s, [0, 20]), r"subset must be indices in \[0, 11\], got 20"),
        (lambda K, y, s: titsias_kl(K, y, s, [2, 2]), r"inducing must not repeat an index, got 2 repeated"),
        (lambda K, y, s: expected_titsias_kl(K - 3 * np.eye(12), s, [1]), r"K must be positive semi-definite"),
        (lambda K, y, s: subset_kl(K, y, -0.1, [1]), r"noise_var must be > 0, got -0.1"),
        (lambda K, y, s: expected_subset_kl(K, s, [1], outputs="other"), r"outputs must be one of \{shared, fresh\}"),
        (lambda K, y, s: transfer_bounds(0, 1, 0, 1, 0.4), r"eta must be in \(0, 1/3\), got 0.4"),
        (lambda K, y, s: gaussian_kl([0, 0], np.eye(2), [0], np.eye(1)), r"cov1 must have shape \(2, 2\)"),
        (lambda K, y, s: integrated_w2([0], [1], [0], [1], [-1.0]), r"weights must be >= 0, got -1.0"),
        (lambda K, y, s: removal_w2(K, np.ones((3, 5)), np.ones(3), y, s), r"K_grid must have shape \(G, 12\)"),
    ],
)
def test_errors_name_parameter_value_and_range(call, match):
    _, _, K, noise, y = _instance(0)
    with pytest.raises(ValueError, match=match):
        call(K, y, noise)
