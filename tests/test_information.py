"""Tests of tvbo_verify.information: conventions, submodularity, greedy brackets, TV and weighted gains."""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tvbo_verify import information as info
from tvbo_verify.kernels import ForgettingKernel, Matern, SquaredExponential
from tvbo_verify.nystrom import gram_mp

SETTINGS = settings(max_examples=30)

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _kernel(rng: np.random.Generator):
    ls = float(rng.uniform(0.1, 1.0))
    var = float(rng.uniform(0.5, 2.0))
    if rng.random() < 0.5:
        return SquaredExponential(var, ls)
    return Matern(float(rng.choice([0.5, 1.5, 2.5])), var, ls)


# ---------------------------------------------------------------------------------------------
# conventions
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seed=seeds, n=st.integers(1, 8), d=st.integers(1, 3), hetero=st.booleans())
def test_log_det_ratio_is_twice_information_gain(seed, n, d, hetero):
    rng = np.random.default_rng(seed)
    k = _kernel(rng)
    X = rng.uniform(size=(n, d))
    noise = rng.uniform(0.01, 1.0, size=n) if hetero else float(rng.uniform(0.01, 1.0))
    ig = info.information_gain(k, X, noise)
    ldr = info.log_det_ratio(k, X, noise)
    assert ldr == pytest.approx(2.0 * ig, rel=1e-12, abs=1e-14)
    # gram-level versions agree with kernel-level ones
    assert info.information_gain_from_gram(k(X), noise) == pytest.approx(ig, rel=1e-12)
    assert info.log_det_ratio_from_gram(k(X), noise) == pytest.approx(ldr, rel=1e-12)
    # and with a direct slogdet of Σ + K minus log|Σ|
    sig = np.broadcast_to(np.asarray(noise, dtype=float), (n,))
    direct = np.linalg.slogdet(k(X) + np.diag(sig))[1] - np.sum(np.log(sig))
    assert ldr == pytest.approx(direct, rel=1e-9, abs=1e-10)


# ---------------------------------------------------------------------------------------------
# monotonicity and submodularity
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seed=seeds, n=st.integers(0, 6), d=st.integers(1, 2))
def test_information_gain_is_monotone(seed, n, d):
    rng = np.random.default_rng(seed)
    k = _kernel(rng)
    X = rng.uniform(size=(n + 1, d))
    noise = rng.uniform(0.01, 1.0, size=n + 1)
    if rng.random() < 0.3:
        X[-1] = X[0]  # a repeated point is still a fresh observation
    base = info.information_gain(k, X[:n], noise[:n]) if n else 0.0
    assert info.information_gain(k, X, noise) >= base - 1e-12


@SETTINGS
@given(seed=seeds, na=st.integers(0, 4), nb=st.integers(0, 4), d=st.integers(1, 2))
def test_information_gain_is_submodular(seed, na, nb, d):
    rng = np.random.default_rng(seed)
    k = _kernel(rng)
    m = na + nb + 1
    X = rng.uniform(size=(m, d))
    if rng.random() < 0.3 and na:
        X[-1] = X[0]
    noise = rng.uniform(0.01, 1.0, size=m)

    def ig(idx):
        idx = list(idx)
        return info.information_gain(k, X[idx], noise[idx]) if idx else 0.0

    A = list(range(na))
    B = list(range(na + nb))  # A ⊆ B
    x = [m - 1]
    gain_A = ig(A + x) - ig(A)
    gain_B = ig(B + x) - ig(B)
    assert gain_A >= gain_B - 1e-10


# ---------------------------------------------------------------------------------------------
# mpmath referee at 50 digits
# ---------------------------------------------------------------------------------------------
def _mp_log_det_ratio(K: np.ndarray, noise: np.ndarray) -> mpmath.mpf:
    n = K.shape[0]
    M = mpmath.matrix(n, n)
    for i in range(n):
        for j in range(n):
            M[i, j] = mpmath.mpf(float(K[i, j])) + (mpmath.mpf(float(noise[i])) if i == j else 0)
    logdet_sigma = mpmath.fsum(mpmath.log(mpmath.mpf(float(s))) for s in noise)
    return mpmath.log(mpmath.det(M)) - logdet_sigma


@pytest.mark.parametrize(
    "case",
    [
        ("well-conditioned", np.linspace(0.0, 1.0, 5), 0.1),
        ("clustered, tiny noise", np.array([0.0, 1e-3, 2e-3, 0.5, 0.5 + 1e-3]), 1e-6),
        ("heteroscedastic", np.linspace(0.0, 2.0, 6), np.array([1e-4, 1e-2, 1.0, 1e-3, 0.5, 10.0])),
    ],
    ids=lambda c: c[0],
)
def test_log_det_agrees_with_mpmath_50_digits(case):
    _, x, noise = case
    mpmath.mp.dps = 50
    k = SquaredExponential(1.0, 0.3)
    K = k(x)
    noise_vec = np.broadcast_to(np.asarray(noise, dtype=float), (len(x),))
    ref = _mp_log_det_ratio(K, noise_vec)
    got = info.log_det_ratio(k, x, noise)
    assert abs(got - float(ref)) <= 1e-9 * max(1.0, abs(float(ref)))
    assert abs(info.information_gain(k, x, noise) - float(ref) / 2) <= 1e-9 * max(1.0, abs(float(ref)))


# ---------------------------------------------------------------------------------------------
# greedy brackets contain the brute-force maximum
# ---------------------------------------------------------------------------------------------
def _candidates(seed: int, G: int):
    rng = np.random.default_rng(seed)
    return rng, _kernel(rng), rng.uniform(size=(G, int(rng.integers(1, 3))))


@settings(max_examples=12)
@given(seed=seeds, G=st.integers(2, 6), T=st.integers(1, 3))
def test_greedy_bracket_contains_brute_force_homoscedastic(seed, G, T):
    rng, k, C = _candidates(seed, G)
    noise = float(rng.uniform(0.01, 1.0))
    res = info.max_information_gain(k, C, T, noise)
    multisets = itertools.combinations_with_replacement(range(G), T)
    best = max(info.information_gain(k, C[list(m)], noise) for m in multisets)
    assert res.lower <= best + 1e-10
    assert best <= res.upper + 1e-10
    assert res.upper == pytest.approx(res.lower / (1 - 1 / math.e))
    # the greedy value is the information gain of the greedy points; gains sum to it
    assert res.lower == pytest.approx(info.information_gain(k, C[res.points], noise), rel=1e-10)
    assert np.sum(res.gains) == pytest.approx(res.lower)
    assert len(res.points) == T


@settings(max_examples=12)
@given(seed=seeds, G=st.integers(2, 6), T=st.integers(1, 3), alpha=st.floats(0.0, 2.0))
def test_greedy_bracket_contains_brute_force_noise_schedule(seed, G, T, alpha):
    rng, k, C = _candidates(seed, G)
    sched = info.ui_noise_schedule(float(rng.uniform(0.01, 0.5)), alpha, T)
    best = max(info.information_gain(k, C[list(s)], sched) for s in itertools.product(range(G), repeat=T))
    for fill in ("increasing_noise", "sequence"):
        res = info.max_information_gain(k, C, T, sched, fill_order=fill)
        assert res.lower <= best + 1e-10 <= res.upper + 2e-10
        assert res.lower == pytest.approx(info.information_gain(k, C[res.points], sched), rel=1e-10)
    # a callable schedule gives the same result as the array
    res_c = info.max_information_gain(k, C, T, lambda t: float(sched[t - 1]))
    assert res_c.lower == pytest.approx(info.max_information_gain(k, C, T, sched).lower)


@settings(max_examples=12)
@given(seed=seeds, G=st.integers(2, 5), T=st.integers(1, 3), eps=st.floats(0.0, 1.0))
def test_tv_greedy_bracket_contains_brute_force(seed, G, T, eps):
    rng, k, C = _candidates(seed, G)
    noise = float(rng.uniform(0.01, 1.0))
    res = info.max_tv_information_gain(k, C, T, noise, eps)
    best = max(info.tv_information_gain(k, C[list(s)], noise, eps) for s in itertools.product(range(G), repeat=T))
    assert res.lower <= best + 1e-10 <= res.upper + 2e-10
    assert res.lower == pytest.approx(info.tv_information_gain(k, C[res.points], noise, eps), rel=1e-10)


@settings(max_examples=12)
@given(
    seed=seeds, G=st.integers(2, 5), t=st.integers(1, 3), disc=st.floats(0.3, 1.0),
    kind=st.sampled_from(["bar", "tilde"]),
)
def test_weighted_greedy_bracket_contains_brute_force(seed, G, t, disc, kind):
    rng, k, C = _candidates(seed, G)
    lam = float(rng.uniform(0.1, 2.0))
    res = info.max_weighted_information_gain(k, C, t, lam, disc, kind)
    best = max(
        info.weighted_information_gain(k, C[list(s)], lam, disc, kind) for s in itertools.product(range(G), repeat=t)
    )
    assert res.lower <= best + 1e-10 <= res.upper + 2e-10
    assert res.lower == pytest.approx(info.weighted_information_gain(k, C[res.points], lam, disc, kind), rel=1e-10)
    assert best <= info.weighted_gain_hadamard_bound(t, lam, disc, k.max_variance, kind) + 1e-10


def test_incremental_greedy_matches_refit_greedy():
    rng = np.random.default_rng(7)
    k = SquaredExponential(1.0, 0.15)
    C = rng.uniform(size=(60, 2))
    noise = 0.05
    res = info.max_information_gain(k, C, 25, noise)
    chosen: list[int] = []
    for _ in range(25):
        if chosen:
            Kx = k(C[chosen])
            kc = k(C, C[chosen])
            var = k.diag(C) - np.sum(kc * np.linalg.solve(Kx + noise * np.eye(len(chosen)), kc.T).T, axis=1)
        else:
            var = k.diag(C)
        chosen.append(int(np.argmax(var)))
    assert list(res.points) == chosen


# ---------------------------------------------------------------------------------------------
# time-varying gain (tvgpucb)
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seed=seeds, T=st.integers(1, 12), eps=st.floats(0.0, 1.0), d=st.integers(1, 2))
def test_tv_chain_rule_eq26_is_exact(seed, T, eps, d):
    rng = np.random.default_rng(seed)
    k = _kernel(rng)
    G = rng.uniform(size=(4, d))
    X = G[rng.integers(0, 4, size=T)]  # repeats are common
    noise = float(rng.uniform(0.01, 1.0))
    lhs = info.tv_information_gain(k, X, noise, eps)
    gains = info.tv_chain_gains(k, X, noise, eps)
    assert np.sum(gains) == pytest.approx(lhs, rel=1e-9, abs=1e-12)
    # independent evaluation of (26) with the batch posterior variance (8): predict f_t from t-1 data
    K = k(X)
    Dm = ForgettingKernel(eps)(np.arange(1, T + 1, dtype=float))
    ref = 0.0
    for t in range(T):
        if t:
            Kt = K[:t, :t] * Dm[:t, :t] + noise * np.eye(t)
            kt = K[:t, t] * Dm[:t, t]
            var = K[t, t] - kt @ np.linalg.solve(Kt, kt)
        else:
            var = K[0, 0]
        ref += 0.5 * math.log1p(max(var, 0.0) / noise)
    assert ref == pytest.approx(lhs, rel=1e-8, abs=1e-12)


def test_tv_gain_limits():
    rng = np.random.default_rng(3)
    k = SquaredExponential(1.0, 0.3)
    X = rng.uniform(size=(7, 1))
    # ε = 0 is the static information gain; ε = 1 makes every observation independent
    assert info.tv_information_gain(k, X, 0.1, 0.0) == pytest.approx(info.information_gain(k, X, 0.1), rel=1e-12)
    assert info.tv_information_gain(k, X, 0.1, 1.0) == pytest.approx(7 * 0.5 * math.log1p(1.0 / 0.1), rel=1e-12)


# ---------------------------------------------------------------------------------------------
# weighted gains (wgpucb)
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seed=seeds, t=st.integers(1, 10), kind=st.sampled_from(["bar", "tilde"]))
def test_weighted_gain_with_unit_weights_is_standard_gain(seed, t, kind):
    rng = np.random.default_rng(seed)
    k = _kernel(rng)
    X = rng.uniform(size=(t, 2))
    lam = float(rng.uniform(0.1, 2.0))
    std = info.information_gain(k, X, lam)
    assert info.weighted_information_gain(k, X, lam, 1.0, kind) == pytest.approx(std, rel=1e-12)
    # γ → 1: continuity
    assert info.weighted_information_gain(k, X, lam, 1.0 - 1e-9, kind) == pytest.approx(std, rel=1e-6)
    assert np.sum(info.weighted_chain_gains(k, X, lam, 1.0, kind)) == pytest.approx(std, rel=1e-10)


@SETTINGS
@given(seed=seeds, t=st.integers(1, 40), disc=st.floats(0.05, 0.999), kind=st.sampled_from(["bar", "tilde"]))
def test_hadamard_bound_dominates_weighted_gain(seed, t, disc, kind):
    rng = np.random.default_rng(seed)
    k = _kernel(rng)
    X = rng.uniform(size=(t, 1))
    lam = float(rng.uniform(0.1, 2.0))
    val = info.weighted_information_gain(k, X, lam, disc, kind)
    had = info.weighted_gain_hadamard_bound(t, lam, disc, k.max_variance, kind)
    assert 0.0 <= val <= had + 1e-12
    assert had <= info.weighted_gain_limit_bound(lam, disc, k.max_variance, kind) + 1e-12
    assert np.sum(info.weighted_chain_gains(k, X, lam, disc, kind)) == pytest.approx(val, rel=1e-9, abs=1e-12)


def test_weighted_gain_has_no_overflow_for_long_sequences():
    # γ^{-t} would overflow float64 at t·log(1/γ) > 709; the normalised form must not
    k = SquaredExponential(1.0, 0.2)
    X = np.linspace(0, 1, 1500)
    for kind in ("bar", "tilde"):
        val = info.weighted_information_gain(k, X, 1.0, 0.5, kind)
        assert np.isfinite(val)
        assert val <= info.weighted_gain_limit_bound(1.0, 0.5, 1.0, kind)


def test_weighted_bar_is_heteroscedastic_gain_with_inflated_noise():
    # λ⁻¹ D K D with D = diag(γ^{t-s}) is the gain with noise λ γ^{-2(t-s)} (small t, no overflow)
    rng = np.random.default_rng(11)
    k = SquaredExponential(1.0, 0.3)
    X = rng.uniform(size=(6, 1))
    lam, disc = 0.7, 0.8
    lags = 6 - np.arange(1, 7)
    assert info.weighted_information_gain(k, X, lam, disc, "bar") == pytest.approx(
        info.information_gain(k, X, lam * disc ** (-2.0 * lags)), rel=1e-12
    )
    assert info.weighted_information_gain(k, X, lam, disc, "tilde") == pytest.approx(
        info.information_gain(k, X, lam * disc ** (-1.0 * lags)), rel=1e-12
    )


# ---------------------------------------------------------------------------------------------
# schedules and rates
# ---------------------------------------------------------------------------------------------
def test_ui_noise_schedule():
    s = info.ui_noise_schedule(0.5, 2.0, 4)
    assert np.allclose(s, 0.5 * (np.array([3.0, 2.0, 1.0, 0.0]) ** 2 + 1))  # sparq eq. (10)
    # age 0 keeps σ² even for α = 0 (papers/wsparq/READING.md §3.1)
    assert np.allclose(info.ui_noise_schedule(1.0, 0.0, 3), [2.0, 2.0, 1.0])
    assert np.allclose(info.ui_noise_schedule(1.0, 1.0, 3, target_time=4), [4.0, 3.0, 2.0])


@pytest.mark.parametrize("d", [1, 2, 3, 5])
@pytest.mark.parametrize("nu", [0.5, 1.5, 2.5, 10.0])
def test_rate_exponents(d, nu):
    se = info.gamma_rate_exponents("se", d)
    assert se == (0.0, d + 1.0)
    sri = info.gamma_rate_exponents("matern", d, nu, "srinivas")
    vak = info.gamma_rate_exponents("matern", d, nu, "vakili")
    assert sri.power == pytest.approx(d * (d + 1) / (2 * nu + d * (d + 1)))
    assert vak.power == pytest.approx(d / (2 * nu + d))
    assert vak.log_power == pytest.approx(2 * nu / (2 * nu + d))
    assert vak.power <= sri.power  # Vakili et al. improve on Srinivas et al.
    T = 1000
    assert info.gamma_rate_bound("matern", T, d, nu, "vakili", constant=3.0) == pytest.approx(
        3.0 * T**vak.power * math.log(T) ** vak.log_power
    )
    assert info.gamma_rate_bound("se", T, d) == pytest.approx(math.log(T) ** (d + 1))


def test_rate_exponent_of_tvgpucb_experiment():
    # tvgpucb §4: d = 2, ν = 2.5 gives c = 6/11
    assert info.gamma_rate_exponents("matern", 2, 2.5, "srinivas").power == pytest.approx(6 / 11)


# ---------------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call, name",
    [
        (lambda k, C: info.max_information_gain(k, C, 0, 0.1), "T"),
        (lambda k, C: info.max_information_gain(k, C, 1.5, 0.1), "T"),
        (lambda k, C: info.max_information_gain(k, C, 2, 0.0), "noise_var"),
        (lambda k, C: info.max_information_gain(k, C, 2, [0.1, 0.1, 0.1]), "noise_var"),
        (lambda k, C: info.max_information_gain(k, C, 2, 0.1, fill_order="random"), "fill_order"),
        (lambda k, C: info.information_gain(k, C, -1.0), "noise_var"),
        (lambda k, C: info.information_gain(k, np.array([[0.1], [np.nan]]), 0.1), "X"),
        (lambda k, C: info.information_gain("se", C, 0.1), "kernel"),
        (lambda k, C: info.information_gain_from_gram(np.ones((2, 3)), 0.1), "K"),
        (lambda k, C: info.tv_information_gain(k, C, 0.1, 1.5), "epsilon"),
        (lambda k, C: info.max_tv_information_gain(k, C, 3, 0.1, -0.1), "epsilon"),
        (lambda k, C: info.weighted_information_gain(k, C, 1.0, 0.0), "disc"),
        (lambda k, C: info.weighted_information_gain(k, C, 0.0, 0.5), "lam"),
        (lambda k, C: info.weighted_information_gain(k, C, 1.0, 0.5, "hat"), "kind"),
        (lambda k, C: info.weighted_gain_limit_bound(1.0, 1.0), "disc"),
        (lambda k, C: info.gamma_rate_bound("matern", 10, 2), "nu"),
        (lambda k, C: info.gamma_rate_bound("se", 0, 2), "T"),
        (lambda k, C: info.gamma_rate_bound("se", 10, 0), "d"),
        (lambda k, C: info.gamma_rate_bound("periodic", 10, 1), "kernel_name"),
        (lambda k, C: info.gamma_rate_bound("matern", 10, 1, 1.5, source="x"), "source"),
        (lambda k, C: info.ui_noise_schedule(0.1, -1.0, 3), "alpha"),
    ],
)
def test_invalid_parameters_raise_value_error_naming_them(call, name):
    k = SquaredExponential(1.0, 0.3)
    C = np.linspace(0, 1, 4)[:, None]
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call(k, C)


# ---------------------------------------------------------------------------------------------
# Mercer decomposition on a grid and the mpmath twins (wgpucb Theorem 1, §5.1)
# ---------------------------------------------------------------------------------------------
@settings(max_examples=15)
@given(seed=seeds, n=st.integers(2, 25))
def test_mercer_on_grid_is_orthonormal_and_reconstructs_the_gram(seed, n):
    rng = np.random.default_rng(seed)
    k = _kernel(rng)
    X = np.sort(rng.uniform(size=(n, 1)), axis=0)
    K = k(X)
    m = info.mercer_on_grid(K)
    assert np.all(np.diff(m.c) <= 0) and np.all(m.c > 0)
    phi = m.eigenfunctions
    np.testing.assert_allclose(phi.T @ phi / n, np.eye(m.c.size), atol=1e-10)  # orthonormal in L2(uniform)
    scale = np.max(np.abs(K))
    np.testing.assert_allclose((phi * m.c) @ phi.T, K, atol=1e-9 * scale)  # K = Σ c_m φ_m φ_mᵀ
    np.testing.assert_allclose(m.features @ m.features.T, K, atol=1e-9 * scale)
    assert m.psi == pytest.approx(float(np.max(np.abs(phi))))


def test_mercer_on_grid_mp_agrees_with_float():
    mpmath.mp.dps = 50
    k = SquaredExponential(1.0, 0.3)
    X = np.linspace(0.0, 1.0, 6)[:, None]
    m, mp = info.mercer_on_grid(k(X)), info.mercer_on_grid_mp(gram_mp(k, X))
    assert len(mp.eigenvalues) == m.c.size
    np.testing.assert_allclose([float(v) for v in mp.c], m.c, rtol=1e-9, atol=1e-15)
    assert float(mp.psi) == pytest.approx(m.psi, rel=1e-9)
    F = np.array([[float(v) for v in row] for row in mp.features()])
    np.testing.assert_allclose(F @ F.T, k(X), atol=1e-12)
    assert float(mp.tail(2)) == pytest.approx(m.psi**2 * float(np.sum(m.c[2:])), rel=1e-6)


def test_mercer_on_grid_rejects_bad_input():
    with pytest.raises(ValueError, match="K"):
        info.mercer_on_grid(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="positive eigenvalue"):
        info.mercer_on_grid(np.zeros((3, 3)))


@pytest.mark.parametrize("kind", ["bar", "tilde"])
def test_weighted_gain_mp_twin_agrees_with_float(kind):
    mpmath.mp.dps = 50
    k = SquaredExponential(1.0, 0.2)
    X = np.array([[0.1], [0.5], [0.5], [0.9], [0.3]])
    got = info.weighted_gain_from_gram_mp(gram_mp(k, X), 0.7, 0.8, kind)
    assert float(got) == pytest.approx(info.weighted_information_gain(k, X, 0.7, 0.8, kind), rel=1e-12)
    with pytest.raises(ValueError, match="kind"):
        info.weighted_gain_from_gram_mp(gram_mp(k, X), 0.7, 0.8, "hat")


# exact maxima by enumeration and the mpmath twins (tvgpucb referees)
# ---------------------------------------------------------------------------------------------
def test_exact_max_information_gain_lies_in_the_greedy_bracket_and_matches_mpmath():
    k = SquaredExponential(1.0, 0.3)
    D = np.array([[0.0], [0.2], [0.7]])
    for N in (1, 2, 4):
        exact = info.exact_max_information_gain(k, D, N, 0.05)
        greedy = info.max_information_gain(k, D, N, 0.05)
        assert greedy.lower <= exact.value + 1e-12 and exact.value <= greedy.upper + 1e-12
        assert info.information_gain(k, D[list(exact.points)], 0.05) == pytest.approx(exact.value, rel=1e-14)
        with mpmath.workdps(50):
            assert float(info.exact_max_information_gain_mp(k, D, N, 0.05)) == pytest.approx(exact.value, rel=1e-12)


def test_exact_max_tv_information_gain_enumerates_ordered_sequences():
    k = SquaredExponential(1.0, 0.2)
    D = np.array([[0.0], [0.5]])
    exact = info.exact_max_tv_information_gain(k, D, 4, 0.01, 0.2)
    brute = max(info.tv_information_gain(k, D[list(s)], 0.01, 0.2) for s in itertools.product(range(2), repeat=4))
    assert exact.value == pytest.approx(brute, rel=1e-14)
    greedy = info.max_tv_information_gain(k, D, 4, 0.01, 0.2)
    assert greedy.lower <= exact.value + 1e-12 <= greedy.upper + 2e-12


@pytest.mark.parametrize("eps", [0.0, 0.05, 1.0])
def test_tv_information_gain_mp_agrees_with_float(eps):
    rng = np.random.default_rng(3)
    k = SquaredExponential(1.0, 0.2)
    X = rng.uniform(size=(6, 1))
    with mpmath.workdps(50):
        hp = info.tv_information_gain_mp(k, X, 0.03, eps)
    assert float(hp) == pytest.approx(info.tv_information_gain(k, X, 0.03, eps), rel=1e-12)


def test_exact_maxima_reject_bad_parameters():
    k = SquaredExponential(1.0, 0.2)
    with pytest.raises(ValueError, match="N"):
        info.exact_max_information_gain(k, np.zeros((2, 1)), 0, 0.1)
    with pytest.raises(ValueError, match="epsilon"):
        info.exact_max_tv_information_gain(k, np.zeros((2, 1)), 2, 0.1, 1.5)
