"""Tests of tvbo_verify.theory.schedules (wsparq eq. (32), sparq eq. (57), tvgpucb Cor. 4.1, wgpucb Cor. 5)."""

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tvbo_verify.theory import schedules as S


@settings(max_examples=60)
@given(
    alpha=st.floats(min_value=0.05, max_value=20.0),
    alpha_tilde=st.floats(min_value=1e-3, max_value=0.333),
    horizon=st.integers(min_value=1, max_value=3000),
)
@example(
    alpha=0.05078125,
    alpha_tilde=0.3203125,
    horizon=1026,
).via('discovered failure')
def test_window_starts_satisfy_eq_32(alpha, alpha_tilde, horizon):
    sched = S.window_schedule(alpha, alpha_tilde, horizon)
    starts = sched.starts
    assert starts[0] == 1 and starts[-1] <= horizon
    # exact integers: the last length may exceed int64 when alpha~/alpha is large
    nxt = np.array([int(s) for s in starts[1:]] + [int(starts[-1]) + int(sched.lengths[-1])], dtype=object)
    assert nxt[-1] > horizon  # every window start <= T is listed
    r = alpha_tilde / alpha
    x = starts.astype(float) ** r
    gap = nxt - starts.astype(object)
    # t_j^r < t_{j+1} - t_j <= t_j^r + 1, up to float rounding of t^r
    assert np.all(gap > x - 1e-9 * np.maximum(1, x))
    assert np.all(gap <= x + 1 + 1e-9 * np.maximum(1, x))


def test_window_counts_match_independent_loop():
    for alpha, at in ((1.0, 0.25), (2.0, 0.25), (0.5, 0.1)):
        t, starts = 1, []
        while t <= 5000:
            starts.append(t)
            t += int(math.floor(t ** (at / alpha))) + 1
        assert S.window_schedule(alpha, at, 5000).n_windows == len(starts)


def test_window_exact_integer_powers():
    # alpha = 1, alpha~ = 1/4: 16^(1/4) = 2 exactly -> floor_plus_one gives 3, ceil gives 2 (breaks strict (32))
    assert S.window_step(16, 1.0, 0.25, "floor_plus_one") == 3
    assert S.window_step(16, 1.0, 0.25, "ceil") == 2
    assert S.window_step(17, 1.0, 0.25, "ceil") == 3
    assert S.window_step(3, 1.0, 0.25, "floor") == 1


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(alpha=1.0, alpha_tilde=0.4, horizon=10), "alpha_tilde must be in (0, 1/3), got 0.4"),
        (dict(alpha=0.0, alpha_tilde=0.25, horizon=10), "alpha must be > 0"),
        (dict(alpha=1.0, alpha_tilde=0.25, horizon=0), "horizon must be an integer >= 1"),
    ],
)
def test_window_validation(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        S.window_schedule(**kwargs)


def test_n_windows_exponent_approaches_one_minus_r():
    # n(T)(1-r)/T^(1-r) -> 1 (Proof 3.11 step 4, derived constant); increasing towards 1 for alpha = 1
    r_vals = []
    for T in (10**3, 10**4, 10**5):
        n = S.window_schedule(1.0, 0.25, T).n_windows
        r_vals.append(n * 0.75 / T**0.75)
    assert r_vals[0] < r_vals[1] < r_vals[2] < 1.0


def test_theory_constants_reproduce_independent_formula():
    c = S.theory_query_constants(lengthscale=3.0, signal_variance=0.5, domain_diameter=100.0)
    s = 12.5
    a, b = 1 / (4 * s * s), 1 / (2 * 9.0)
    brw = b / (a + b + math.sqrt(a * a + 2 * a * b))
    assert c.b_rw == pytest.approx(brw)
    cbar = math.sqrt(2 * math.pi) * s * math.exp(8) * 0.5
    q = math.log(2 * cbar * 500**3 / (0.01 * 0.1)) / (-math.log(brw))
    assert S.theory_queries(500, 0.1, 0.01, c) == pytest.approx(q)
    assert S.dpp_accuracy(500, 0.1, 0.01, 0.5) == pytest.approx(0.01 * 0.1 / (4 * 500 * 0.5))


def test_query_budgets():
    sched = S.window_schedule(1.0, 0.25, 500)
    budget = S.window_query_budget(sched, S.QueryRule("experiments"))
    q = math.ceil(6 * math.log(500))
    expected = sum(min(q, int(t)) for t in sched.starts)
    assert budget.total == expected and budget.per_step == pytest.approx(expected / 500)
    sp = S.sparq_query_budget(50, S.QueryRule("log", c_q=2.0))
    assert sp.total == sum(min(t, max(1, math.ceil(2 * math.log(t)))) if t > 1 else 1 for t in range(1, 51))
    assert S.lower_bound_query_threshold(2.0, 1000) == pytest.approx(1000 ** (2 / 3))


def test_sparq_discard_counts():
    counts = [S.sparq_kept_ages(t).size for t in (1, 2, 3, 7, 8, 100, 148, 149, 500)]
    assert counts == [0, 0, 1, 1, 2, 2, 2, 3, 3]
    # independent of the noise variance
    assert S.sparq_kept_ages(500, noise_var=7.0).size == 3


def test_block_lengths():
    b = S.block_lengths(1e-3, 10**6)
    assert b.r_gp_ucb_theory == round(1e-3**-0.25)
    assert b.r_gp_ucb_experiments == math.ceil(12 * 1e-3**-0.25)
    assert b.tv_analysis == round(1e-3 ** (-1 / 3))
    m = S.block_lengths(1e-3, 10**6, "matern", nu=2.5, d=2)
    c = 6 / 11
    assert m.c == pytest.approx(c)
    assert m.r_gp_ucb_experiments == math.ceil(24 * 1e-3 ** (-1 / (4 - c)))
    assert S.block_lengths(1e-9, 5).r_gp_ucb_theory == 5  # capped by T
    with pytest.raises(ValueError, match="epsilon must be in"):
        S.block_lengths(1.5, 10)


def test_wgpucb_discount():
    d = S.wgpucb_discount(10**4, 10.0, 5.0)
    x = 10.0**-0.25 * math.sqrt(5.0) / 100.0
    assert d.discount == pytest.approx(1 - x)
    assert d.c == math.ceil(math.log(1e4) / x)
    assert d.m_bar == math.ceil(math.log(1e12 * 10**1.5) / math.log(4 / math.e))
    assert (1 - d.discount) ** d.c_exact <= 1.0  # gamma^c <= 1/T check below
    assert d.discount**d.c <= 1e-4 * 1.0001
    u = S.wgpucb_discount(10**4, 10.0)
    assert u.discount == pytest.approx(1 - 10.0**-0.25 / 100.0)
    with pytest.raises(ValueError, match="variation_budget must be <"):
        S.wgpucb_discount(100, 1.0, 1e5)


@pytest.mark.parametrize("kind", ["experiments", "log", "theory"])
def test_vectorised_counts_match_scalar(kind):
    consts = S.theory_query_constants(3.0, 0.5, 100.0)
    for cap in (True, False):
        rule = S.QueryRule(kind, c_q=2.5, d=1, constants=consts, cap_at_past=cap)
        t = np.arange(1, 3000)
        assert rule.counts(t, 2999).tolist() == [rule.count(int(x), 2999) for x in t]


@pytest.mark.parametrize("alpha, alpha_tilde", [(0.5, 0.1), (1.0, 0.25), (2.0, 0.3), (0.3, 0.1), (5.0, 0.25),
                                                (0.5, 0.3), (1 / 3, 0.33), (2.0, 0.05)])
def test_band_window_counts_match_the_listed_schedule(alpha, alpha_tilde):
    horizons = np.array([1, 2, 3, 7, 16, 17, 100, 999, 4096, 30_000, 123_457])
    wc = S.window_counts(alpha, alpha_tilde, horizons)
    sched = S.window_schedule(alpha, alpha_tilde, int(horizons[-1]))
    q = S.QueryRule("log", c_q=1.0, d=1).counts(sched.starts, int(horizons[-1]))
    for T, n, N in zip(horizons, wc.n_windows, wc.queries):
        k = int(np.searchsorted(sched.starts, T, side="right"))
        assert n == k and N == int(q[:k].sum()), (T, n, k, N)


def test_band_window_counts_reach_far_horizons_and_validate():
    wc = S.window_counts(2.0, 0.1, np.array([10**6, 10**9]))
    assert wc.n_windows[0] < 10**6 // 2 + 1 and wc.n_windows[1] > 0
    with pytest.raises(ValueError, match="horizons"):
        S.window_counts(1.0, 0.25, np.array([10, 5]))


def test_band_window_counts_with_a_tiny_exponent_ratio():
    # r = 0.01: the second band starts near 2^100, far beyond float resolution of integers
    wc = S.window_counts(5.0, 0.05, np.array([500, 10**6]))
    assert wc.n_windows.tolist() == [250, 500_000]
    sched = S.window_schedule(5.0, 0.05, 500)
    assert wc.queries[0] == int(S.QueryRule("log", c_q=1.0).counts(sched.starts, 500).sum())


def test_band_start_resolves_huge_boundaries():
    import mpmath

    r = 0.0046511627906976744
    t = S._band_start(2, r)
    with mpmath.workdps(120):
        assert mpmath.power(t, mpmath.mpf(r)) >= 2 > mpmath.power(t - 1, mpmath.mpf(r))


@pytest.mark.time_limit(10)
@pytest.mark.parametrize("alpha", [1.0e5, 1.0e9, 2.0**30])
def test_band_window_counts_do_not_compute_band_starts_beyond_every_horizon(alpha):
    """With α̃/α = 2.5·10⁻⁶ or less every window up to 10⁹ has length 2; the next band would start near
    2^(1/r), a number of ~10⁵ or more digits that must not be computed."""
    wc = S.window_counts(alpha, 0.25, np.array([30, 10**6, 10**9]))
    assert wc.n_windows.tolist() == [15, 500_000, 500_000_000]
    assert wc.queries[0] == int(S.QueryRule("log", c_q=1.0).counts(S.window_schedule(alpha, 0.25, 30).starts, 30).sum())
