"""Helpers of the bolt reproductions: time budgets, comparisons of value arrays, trends."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.bandits.runner import Trace
from tvbo_verify.papers.bolt import reproductions as rb


def _trace(times, regret):
    T = len(times)
    z = np.zeros(T)
    return Trace(np.zeros(T, dtype=np.int64), np.zeros((T, 1)), z, np.asarray(regret, float),
                 np.cumsum(regret), np.zeros(T, dtype=np.int64), np.ones(T, dtype=np.int64), z,
                 np.asarray(times, float), z, {})


def test_budget_regret_reads_per_iteration_and_per_unit_time():
    tr = _trace([0.0, 1.0, 3.0, 4.0, 10.0], [1.0, 2.0, 3.0, 4.0, 5.0])
    per_it, per_time = rb.budget_regret(tr, 3.5)
    assert per_it == pytest.approx(2.0)  # iterations at 0, 1, 3 started before 3.5 s
    assert per_time == pytest.approx((1 * 1 + 2 * 2 + 3 * 0.5) / 3.5)
    with pytest.raises(ValueError, match="before the budget"):
        rb.budget_regret(tr, 11.0)


def test_horizon_for_covers_the_budget_for_the_smallest_datasets():
    T = rb.horizon_for(10.0, "1 + n", lambda m: min(m, 2))  # gaps 2, 3, 3, ...
    assert T == 5  # clock 0, 2, 5, 8, 11
    assert rb.horizon_for(10.0, "1 + n", lambda m: m) <= T


@pytest.mark.time_limit(60)
def test_horizon_for_refuses_a_budget_beyond_its_iteration_cap(monkeypatch):
    """Microsecond response times against a budget of days would count iterations for hours."""
    monkeypatch.setattr(rb.common, "MAX_ITERATIONS", 1000)
    with pytest.raises(ValueError, match="budget must be reached within 1000 iterations"):
        rb.horizon_for(86400.0, "1e-6 + 1e-9*n", lambda m: m)


def test_compare_values_paired_and_unpaired():
    rng = np.random.default_rng(0)
    a, b = np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.0, 3.0, 4.0, 5.0])
    paired = rb.compare_values("a", a, "b", b, rng)
    assert paired["difference"]["ci95"] == [-1.0, -1.0] and paired["ratio"] == pytest.approx(2.5 / 3.5)
    unpaired = rb.compare_values("a", a, "b", b, rng, paired=False)
    lo, hi = unpaired["difference"]["ci95"]
    assert lo < -1.0 < hi and unpaired["paired"] is False


def test_trend_recovers_a_power_law():
    rng = np.random.default_rng(1)
    x = (1.0, 4.0, 16.0)
    groups = [np.full(5, xi ** -0.5) * (1 + 0.01 * rng.standard_normal(5)) for xi in x]
    t = rb.trend(x, groups, rng)
    assert t["slope"] == pytest.approx(-0.5, abs=0.02) and t["ci95"][0] < -0.5 < t["ci95"][1] + 0.02


def test_chosen_sigma_is_the_posterior_the_policy_used():
    from tvbo_verify import gp
    from tvbo_verify.bandits import FIFOGPUCB, constant, run
    from tvbo_verify.bandits.environments import SpatioTemporalGP

    env = SpatioTemporalGP(response_time="0.5 + 0.01*n**3", points_per_dim=6, d=1, temporal_lengthscale=3.0)
    tr = run(FIFOGPUCB(constant(2.0), size=3), env, 12, np.random.default_rng(0))
    sigma = rb.chosen_sigma(env, tr, 3)
    X = np.column_stack([tr.x, tr.time])
    for m in range(1, 12):
        lo = max(0, m - 3)
        _, var = gp.posterior(env.st_kernel, X[lo:m], tr.y[lo:m], env.noise_var, X[m:m + 1])
        assert sigma[m] == pytest.approx(np.sqrt(var[0]), rel=1e-8, abs=1e-10)
    assert sigma[0] == pytest.approx(1.0)
    static = rb.chosen_sigma(env, tr, None)
    _, var = gp.posterior(env.kernel, tr.x[:11], tr.y[:11], env.noise_var, tr.x[11:12])
    assert static[11] == pytest.approx(np.sqrt(var[0]), rel=1e-8, abs=1e-10)


def test_theorem_3_8_bound_and_its_sqrt_reading():
    env = rb.make_bolt_env()
    b, s = rb.theorem_3_8_bound(100, rb.N_STAR, env), rb.theorem_3_8_bound(100, rb.N_STAR, env, sharpened=True)
    assert s - 2 == pytest.approx((b - 2) / np.sqrt(100), rel=1e-6)  # k_S(√2)² ≈ 0: (7) ≈ 2 + 2√(λβ_T) T
    assert rb.N_STAR == rb.certified_n_star(rb.RESPONSE, "matern32", 10.0) == 11


def test_a_prefix_of_a_linear_regret_run_is_the_run_of_that_horizon():
    """Corollary 3.7 reads R_T on the prefixes of one run: no algorithm of its ladder, nor the environment, uses T."""
    from tvbo_verify.bandits.registry import make_env, make_policy
    from tvbo_verify.bandits.runner import run
    from tvbo_verify.papers.bolt.reproductions.regret import LINEAR_ENV, rate_sweeps

    env = {**LINEAR_ENV, "points_per_dim": 5}
    sweeps = rate_sweeps("full")
    arms = [a for sw in sweeps.values() for a in sw.arms]
    assert {a.algorithm for a in arms} == {"bolt", "w-dbo", "fifo-gp-ucb", "gp-ucb"}
    for arm in arms:
        short, long = (run(make_policy(arm.algorithm, dict(arm.params), arm.beta), make_env("bolt-st", env), T,
                           np.random.default_rng(4)) for T in (15, 40))
        np.testing.assert_array_equal(short.index, long.index[:15])
        np.testing.assert_array_equal(short.cumulative, long.cumulative[:15])
        np.testing.assert_array_equal(short.trivial_bound, long.trivial_bound[:15])


def test_prefix_values_read_every_run_at_each_horizon():
    from tvbo_verify.papers.bolt.reproductions.regret import LINEAR_LADDER, linear_ladder, prefix_values

    class Result:
        sweep = type("S", (), {"horizons": (1000,)})()

        def runs(self, label):
            return [_trace(np.arange(1000.0), np.full(1000, r + 1.0)) for r in range(3)]

    assert linear_ladder(Result()) == LINEAR_LADDER["quick"][0]
    np.testing.assert_allclose(prefix_values(Result(), "x", (100, 1000)), [[100, 1000], [200, 2000], [300, 3000]])


def _comparison(a, b, lo, hi, mean_b=1.0, ratio_lo=0.5):
    return {"a": a, "b": b, "difference": {"mean": (lo + hi) / 2, "ci95": [lo, hi]}, "mean_b": mean_b,
            "ratio": 1.0, "ratio_ci95": [ratio_lo, 1.5]}


def test_first_or_second_needs_every_ordering_but_one_established():
    from tvbo_verify.papers.bolt.reproductions.tables import first_or_second

    below = {k: _comparison("BOLT", k, -0.3, -0.1) for k in ("A", "B", "C")}
    assert first_or_second("x", below).verdict == "confirmed"
    one_unsure = {**below, "A": _comparison("BOLT", "A", -0.2, 0.2)}
    assert first_or_second("x", one_unsure).verdict == "confirmed"  # second behind A at worst
    one_above = {**below, "A": _comparison("BOLT", "A", 0.1, 0.3)}
    assert first_or_second("x", one_above).verdict == "confirmed"
    two_unsure = {**one_unsure, "B": _comparison("BOLT", "B", -0.2, 0.2)}
    assert first_or_second("x", two_unsure).verdict == "inconclusive"
    two_above = {**one_above, "B": _comparison("BOLT", "B", 0.1, 0.3)}
    assert first_or_second("x", two_above).verdict == "violated"


def test_table_3_arms_differ_only_in_what_the_paper_says_and_random_is_the_control():
    from tvbo_verify.papers.bolt.reproductions import tables as t3
    from tvbo_verify.sweeps.reproduce import get_reproduction
    from tvbo_verify.sweeps.reproduce.constants import undeclared_differences
    from tvbo_verify.sweeps.spec import Sweep

    rep = get_reproduction("bolt:table-3")
    assert not any(c.own for c in rep.constants)  # each method's own constant is tuned, never swept alone
    assert {c.symbol for c in rep.tuned} == {"δ[ET]", "N[R]", "ε[TV]"} and all(c.own for c in rep.tuned)
    assert len({len(c.quick) for c in rep.tuned}) == 1 and len({len(c.values) for c in rep.tuned}) == 1
    for fidelity in ("quick", "full"):
        for constant, value, plan in rep.plans(fidelity):
            for bench in t3.table_3_benchmarks(fidelity):
                arms = tuple(sw.arms[0] for key, sw in plan.items() if key.startswith(bench + " | "))
                assert {a.label for a in arms} == set(rep.own) | {t3.RANDOM}
                combined = Sweep(bench, arms, "bolt-st", (10,), 1, env_params=plan[f"{bench} | BOLT"].env_params)
                assert undeclared_differences(combined, rep.own) == [], (constant and constant.name, value)
