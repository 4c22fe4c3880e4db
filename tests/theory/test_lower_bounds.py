"""Tests of tvbo_verify.theory.lower_bounds against independent computations."""

import math

import numpy as np
import pytest
from scipy import integrate, stats

from tvbo_verify.kernels import SquaredExponential, temporal_kernel
from tvbo_verify.theory import lower_bounds as LB


def test_epsilon_c_matches_expectation_of_positive_part():
    for s, L, d in [(1.0, 1.0, 1), (0.5, 0.3, 4), (2.0, 1.0, 2)]:
        a = L * math.sqrt(d)
        expected = integrate.quad(lambda x: x * stats.norm.pdf(x, -a, s), 0, np.inf)[0]
        assert LB.epsilon_c(s, L, d) == pytest.approx(expected, rel=1e-8)
    assert LB.epsilon_c(0.0, 1.0, 1) == 0.0


def test_sigma_c_printed_and_corrected():
    kt = temporal_kernel("matern12", 1.0)
    c = 1.0
    F = 2 / math.pi * math.atan(2 * math.pi * 1.0 / (2 * c))  # Matérn-1/2 closed form
    ks = math.exp(-2.0)  # SE, l = 1, at sqrt(4)
    assert LB.sigma_c_squared(kt, c, d=4) == pytest.approx(2 * (1 + ks) * (1 - F))
    assert LB.sigma_c_squared(kt, c, d=4, reading="corrected") == pytest.approx(2 * (1 - ks) * (1 - F))
    assert LB.sigma_c_squared(kt, c, d=4, reading="corrected", separation=0.0) == 0.0
    # bolt §9.4 reference: Mat-1/2 at 1 Hz, d = 4: sigma^2 = 0.4455, eps = 2.582e-4
    b = LB.bolt_regret_floor(kt, 1.0, d=4)
    assert b.sigma_c2 == pytest.approx(0.4455, rel=1e-3) and b.epsilon_c == pytest.approx(2.582e-4, rel=1e-3)


def test_log_epsilon_c_beyond_underflow():
    # RBF at 1 Hz: eps_c ~ 5.2e-233 (bolt §9.4) -- compare with the Mills-ratio asymptotics
    s = math.sqrt(LB.sigma_c_squared(temporal_kernel("se", 1.0), 1.0, d=4))
    z = 2.0 / s
    approx = math.log(s) - z * z / 2 - 0.5 * math.log(2 * math.pi) - 2 * math.log(z)
    assert LB.log_epsilon_c(s, 1.0, 4) == pytest.approx(approx, rel=1e-3)
    assert LB.log_epsilon_c(1e-4, 1.0, 4) < -1e7  # no -inf or nan far in the tail


def test_bolt_upper_bound():
    from tvbo_verify.confidence import beta_bolt_as_printed

    b = beta_bolt_as_printed(100, 1, 1.0, 0.1)
    val = LB.bolt_upper_bound(100, 5.0, ks_diameter=0.5, noise_var=0.1)
    assert val == pytest.approx(2 + math.sqrt(4 * b * 100 * (100 - 0.25 * 5.0 / 1.1)))


def test_fano_and_kl_sums():
    rng = np.random.default_rng(0)
    F = rng.normal(size=(5, 7))
    var = rng.uniform(0.5, 2.0, size=7)
    sums = LB.gaussian_kl_sum(F, var)
    brute = sum(np.sum((F[i] - F[j]) ** 2 / (2 * var)) for i in range(5) for j in range(5) if i != j)
    assert sums.exact == pytest.approx(brute) and sums.identity == pytest.approx(brute)
    assert sums.bound >= sums.exact
    assert LB.fano_error_bound(brute, 5) == pytest.approx(1 - (brute / 25 + math.log(2)) / math.log(5))


def test_c2_and_main_information():
    assert LB.c2_constant(2.0) == pytest.approx(1 + sum(1 / (1 + k**2) for k in range(1, 2_000_000)), rel=1e-6)
    assert LB.main_information(10**5, 2.0) <= LB.c2_constant(2.0)
    assert LB.c2_constant(1.0) == math.inf
    # slowly converging case: the main-query information stays below C2 and approaches it
    for a in (1.2, 1.5):
        c2 = LB.c2_constant(a)
        m = LB.main_information(10**6, a)
        tail = (10**6) ** (1 - a) / (a - 1)  # integral bound on the missing tail
        assert m <= c2 <= m + tail + 1e-9 + (10**6) ** -a


def test_information_sums_direct_and_fft():
    rng = np.random.default_rng(1)
    n = rng.integers(0, 3, size=5000).astype(float)
    S = LB.information_sums(n, 1.5, 0.5)
    tau = 4321
    t = np.arange(1, tau + 1)
    expected = np.sum(n[:tau] / (0.5 * (1 + (tau - t) ** 1.5)))
    assert S[tau - 1] == pytest.approx(expected, rel=1e-9)
    small = LB.information_sums(n[:100], 1.5, 0.5)
    assert np.allclose(small, S[:100], rtol=1e-9)


def test_window_lengths_against_brute_force():
    w = LB.window_lengths(1.5, 10**6)
    Ls = np.arange(1, 10**6 // 2 + 1, dtype=float)
    F = Ls**-1.5 + 4 * Ls / 1e6
    assert w.l_star_integer == int(Ls[np.argmin(F)])
    assert abs(w.l_star_derived - w.l_star_integer) <= 1
    assert w.l_star_printed == pytest.approx((1.5 / 8) ** 0.4 * 1e6**0.4)
    assert w.t0_derived == pytest.approx(2 ** (1 - 1 / 1.5) * 1.5 ** (1 / 1.5))


def test_sliding_window_counts_pigeonhole():
    rng = np.random.default_rng(2)
    n = rng.poisson(0.3, size=1000).astype(float)
    L = 20
    w, count = LB.sliding_window_counts(n, L)
    assert w.size == 1000 - L + 1 and w[0] == n[:L].sum()
    assert count >= (1000 - L + 1) // 2


def test_cumulative_variance():
    for a in (0.0, 0.5, 2.0):
        T = 1234
        expected = sum(1.0 + (T - t) ** a for t in range(1, T + 1))  # 0^0 = 1 in Python
        assert LB.cumulative_variance(T, a) == pytest.approx(expected)
    assert LB.cumulative_variance(2 * 10**6, 1.0) == pytest.approx(2e6 + 2e6 * (2e6 - 1) / 2, rel=1e-12)
    assert LB.cumulative_variance(10, 0.0, zero_power="zero") == pytest.approx(19.0)
    assert LB.cumulative_variance_asymptotic(10.0, 1.0) == pytest.approx(50.0)


def test_bump_h_and_zeta():
    h0 = integrate.quad(lambda x: math.exp(-1 / (1 - x * x)), 0, 1)[0] / math.pi
    assert LB.bump_h(0.0) == pytest.approx(h0, rel=1e-10)
    z = LB.bump_zeta(1)
    hz = integrate.quad(lambda x: math.exp(-1 / (1 - x * x)) * math.cos(x * z), 0, 1)[0] / math.pi
    assert hz == pytest.approx(h0 / 2, rel=1e-8)
    bc = LB.bump_count(1e-6, 5.0, 0.05)
    expected = math.floor(math.sqrt(math.log(5.0 * (2 * math.pi * 0.05**2) ** 0.25 * h0 / 2e-6)) / (0.05 * math.pi * z))
    assert bc.M == expected and bc.M > 1


def test_genie_and_taylor():
    rng = np.random.default_rng(3)
    g = LB.genie_regret(SquaredExponential(1.0, 0.2), np.linspace(0, 1, 101), 0.05, 2000, rng)
    assert g.mean_regret > 0 and g.ratio > 0
    assert LB.taylor_regret_bound(0.01, 4.0, 2.0) == pytest.approx(0.01 * 4 / 8)
    assert LB.genie_step(0.04, 3.0, 1.5) == pytest.approx(0.2 * 3 / 3)
    with pytest.raises(ValueError, match="epsilon must be in"):
        LB.genie_step(1.5, 1.0, 1.0)


def test_bump_family_and_fano_bounded_queries():
    x = np.linspace(0, 1, 4001)
    F = LB.bump_family(8, 0.1, x)
    assert F.max() == pytest.approx(0.2, rel=1e-3)  # peak 2 gamma
    assert np.all((F >= 0.1).sum(axis=0) <= 1)  # gamma-optimal sets are disjoint
    fb = LB.fano_bounded_queries(8, 0.1, 2.0, 5.0, 1.0)
    K = np.max(np.sum([(F[i] - F[j]) ** 2 for i in range(8) for j in range(8) if i != j], axis=0) / 2)
    assert fb.kl_per_unit_information == pytest.approx(K, rel=1e-3)
    info = LB.c2_constant(2.0) + 5.0
    assert fb.p_err_lower_bound == pytest.approx(1 - (K * info / 64 + math.log(2)) / math.log(8), rel=1e-3)
    # smaller amplitude -> error probability closer to 1 - log 2 / log M (T-independent, Prop. 5.1)
    assert LB.fano_bounded_queries(8, 0.001, 2.0, 5.0).p_err_lower_bound > fb.p_err_lower_bound
    assert LB.fano_bounded_queries(8, 0.1, 1.0, 5.0).p_err_lower_bound == -math.inf  # C2 infinite for alpha <= 1


def test_window_objective_mp_twin():
    import mpmath

    from tvbo_verify.theory.lower_bounds import window_objective, window_objective_mp

    with mpmath.workdps(50):
        twin = float(window_objective_mp(170.0, 1.5, 1e6))
        assert twin == pytest.approx(window_objective(170.0, 1.5, 1e6), rel=1e-15)


def test_bump_rkhs_norm_respects_the_reproducing_property_and_scales_with_gamma():
    from tvbo_verify.theory.lower_bounds import bump_rkhs_norm

    kern = SquaredExponential(1.0, 0.1)
    n1 = bump_rkhs_norm(4, 1e-3, kern)
    n2 = bump_rkhs_norm(4, 2e-3, kern)
    assert n2 == pytest.approx(2 * n1, rel=1e-10)
    assert n1 >= 2e-3  # |f(c)| = 2γ <= ‖f‖ √k(c, c)
    assert bump_rkhs_norm(4, 1e-3, SquaredExponential(4.0, 0.1)) == pytest.approx(n1 / 2, rel=1e-8)
    assert bump_rkhs_norm(8, 1e-3, kern) > n1  # narrower bumps cost more norm


@pytest.mark.parametrize("alpha", [0.05, 0.5, 1.0, 2.0, 7.5])
@pytest.mark.parametrize("T", [2, 1000, 10**12])
def test_window_lengths_agree_with_the_sympy_derivations(alpha, T):
    from tvbo_verify.theory.derivations import l_star_function, t0_function

    w = LB.window_lengths(alpha, T)
    assert w.l_star_derived == pytest.approx(float(l_star_function()(alpha, T)), rel=1e-13)
    assert w.t0_derived == pytest.approx(float(t0_function()(alpha)), rel=1e-13)
    Ls = np.geomspace(0.5, 2.0, 2001) * w.l_star_derived  # and L* minimises F (the middle point is L*)
    assert np.argmin([LB.window_objective(L, alpha, T) for L in Ls]) == 1000
