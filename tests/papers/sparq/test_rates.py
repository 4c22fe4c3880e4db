"""Helpers of ``claims/sparq/rates.py``: ladders read inside one run, the allowance of (19), the sweeps."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.bandits.registry import make_env, make_policy
from tvbo_verify.bandits.runner import run
from tvbo_verify.papers.sparq.checks.rates import (
    CORRECTED_LADDER,
    RANDOM,
    RANDOM_WALK,
    THEOREM_LADDER,
    TWO_BUMPS,
    U3_KAPPAS,
    U3_LADDER,
    allowance_at,
    decidable_from,
    double_log_allowance,
    ladder,
    prefix,
    prefix_columns,
    random_walk_facts,
    random_walk_sweep,
    sparq_arm,
    two_bumps_facts,
    two_bumps_sweep,
    u3_sweep,
)


@pytest.mark.parametrize("fidelity, sizes, decades", [("quick", 3, 1.0), ("full", 5, 1.5)])
def test_ladders_meet_the_rate_rule(fidelity, sizes, decades):
    for t_min, _ in (THEOREM_LADDER[fidelity], CORRECTED_LADDER[fidelity], U3_LADDER[fidelity]):
        horizons = ladder(t_min, fidelity)
        assert len(horizons) == sizes and list(horizons) == sorted(set(horizons))
        assert math.log10(horizons[-1] / horizons[0]) >= decades - 1e-3


def test_double_log_allowance_is_the_slope_of_the_factor_of_19():
    def closed_form(T: float) -> float:
        L = math.log(math.log(T))
        return 2 * L**3 / ((1 + L**4) * math.log(T))

    for T in (1.0e3, 1.0e4, 3.2e5):
        assert double_log_allowance([T]) == pytest.approx(closed_form(T), rel=1e-5)
    # the largest slope over a ladder is at its smallest size (the factor flattens)
    assert double_log_allowance([1.0e4, 4.0e4]) == pytest.approx(closed_form(1.0e4), rel=1e-5)


def test_printed_order_is_at_least_linear_below_two_thousand_rounds():
    """Why the ladders of Theorem 3.1 start late: (19)'s order grows at least like T on short horizons."""
    for T in (100.0, 1000.0):
        assert 0.5 + 3 / math.log(T) + double_log_allowance([T]) >= 1.0
    assert 0.5 + 3 / math.log(1.0e4) + double_log_allowance([1.0e4]) < 1.0


def test_only_ladders_from_about_ten_thousand_rounds_resolve_linear_regret_from_19():
    assert allowance_at(1.0e3, "quick") > 0.5 > allowance_at(1.0e4, "quick")
    start = decidable_from(0.5, 0.0, "quick")
    assert 3.0e3 < start < 1.0e4
    assert decidable_from(0.5, 0.05, "quick") > start  # a wider slope interval needs a later start
    assert decidable_from(0.1, 0.0, "quick") == math.inf  # T^0.9 against T: no affordable ladder
    # the ladders chosen: Theorem 3.1 from 10^4 (gap 0.5), U3 from 3·10^3 with polylog 1 (gap 1/2 − 2κ)
    assert allowance_at(THEOREM_LADDER["quick"][0], "quick") < 0.5
    assert all(allowance_at(U3_LADDER["quick"][0], "quick", polylog=1.0) + 0.07 < 0.5 - 2 * k
               for k in U3_KAPPAS["quick"])
    assert allowance_at(CORRECTED_LADDER["full"][0], "full") + 0.05 < 0.5


def test_two_bumps_satisfy_the_assumptions_and_force_linear_regret():
    facts = two_bumps_facts()
    assert facts["‖f_t‖_k (every t)"] == pytest.approx(math.sqrt(2))
    assert facts["sup |f_{t+1} − f_t| (largest switch)"] <= facts["Δ"] + 1e-12
    assert facts["E[r_t] floor for any policy, h(1 − k(c₁, c₂)/M_k²)/2"] == pytest.approx(0.5, abs=1e-6)
    sweep, horizons = two_bumps_sweep("quick", 0)
    assert sweep.env_params == TWO_BUMPS and sweep.arms[0].beta.params["B"] == pytest.approx(math.sqrt(2))
    assert sweep.horizons == (horizons[-1],) and sweep.arms[-1] == RANDOM
    grid = np.linspace(-50, 50, TWO_BUMPS["grid_points"])
    assert {-25.0, 25.0} <= set(np.round(grid, 9))


def test_random_walk_drift_is_over_covered_by_the_injection_model():
    facts = random_walk_facts(400, 1)
    assert facts["largest ‖f_t‖_k"] == pytest.approx(RANDOM_WALK["B"])
    assert facts["largest RMS drift over age g / (σ √(g² + 1))"] < 1.0
    assert facts["largest sup |f_{t+1} − f_t|"] <= 1.0  # Assumption 2 with Δ = 1
    sweep, _ = random_walk_sweep("quick", 0)
    assert sweep.arms[0].beta.params["B"] == RANDOM_WALK["B"] and sweep.arms[-1] == RANDOM


def test_u3_sweep_has_one_arm_per_threshold_and_the_control():
    for fidelity in ("quick", "full"):
        sweep, _ = u3_sweep(fidelity, 0)
        assert [a.params.get("threshold") for a in sweep.arms[:-1]] == list(U3_KAPPAS[fidelity])
        assert sweep.arms[-1] == RANDOM
        assert all(k < 0.25 for k in U3_KAPPAS[fidelity])


@pytest.mark.parametrize("environment, params", [("rkhs-random-walk", RANDOM_WALK), ("sparq-two-bumps", TWO_BUMPS)])
def test_the_first_rounds_of_a_sparq_run_are_the_run_of_that_horizon(environment, params):
    """Where the expert queries ⌈6 log T⌉ reach the grid size the horizon plays no part: the prefix of a run is
    exactly the run of the shorter horizon with the same seed."""
    arm = sparq_arm(1.0)

    def one(T: int):
        policy = make_policy(arm.algorithm, dict(arm.params), arm.beta)
        return run(policy, make_env(environment, dict(params)), T, np.random.default_rng(5))

    long, short = one(200), one(80)
    assert prefix(long, 80).same_run(short)
    assert prefix(long, 80).T == 80 and prefix(long, 80).cumulative[-1] == long.cumulative[79]


def test_prefix_reading_is_refused_where_the_horizon_matters():
    sweep, _ = random_walk_sweep("quick", 0)
    runs = []  # never reached: the ladder is refused first
    with pytest.raises(ValueError, match="horizons must start"):
        prefix_columns(sweep, runs, (20, 60, 200))  # ⌈6 log 20⌉ = 18 < 21 grid points
    with pytest.raises(ValueError, match="h must be"):
        prefix(one_round_trace(), 2)


def one_round_trace():
    policy = make_policy("random")
    return run(policy, make_env("rkhs-random-walk", dict(RANDOM_WALK)), 1, np.random.default_rng(0))


def undecided(slope_ci95, resolution, slope=0.455, allowance=0.421):
    from tvbo_verify.verify.evidence import Evidence, Verdict

    return Evidence(Verdict.INCONCLUSIVE, "undecided.", stats={
        "slope_ci95": list(slope_ci95), "resolution": resolution, "slope": slope, "allowance": allowance,
        "seconds per round": 1.0e-4, "run horizon": 10_000})


def test_projection_asks_for_repetitions_when_the_ladder_already_resolves_the_gap():
    """A resolution below the gap with an interval straddling the allowance is decided by more runs, not by a
    longer ladder: four runs of half-width 0.065 at distance 0.034 project to ⌈4 (0.065/0.034)²⌉ = 15."""
    from tvbo_verify.papers.sparq.checks.rates import add_projection

    ev = undecided((0.39, 0.52), resolution=0.486)
    add_projection(ev, 0.5, "full", 4)
    needs = ev.stats["decision needs"]
    assert needs["repetitions (projected)"] == math.ceil(4 * (0.065 / 0.034) ** 2) == 15
    assert needs["seconds per repetition"] == pytest.approx(1.0)
    assert "smallest T_min" not in needs and "15 repetitions would decide" in ev.summary


def test_projection_asks_for_a_longer_ladder_when_the_resolution_cannot_separate_the_gap():
    from tvbo_verify.papers.sparq.checks.rates import add_projection

    ev = undecided((0.40, 0.54), resolution=0.69)
    add_projection(ev, 0.5, "quick", 3)
    needs = ev.stats["decision needs"]
    assert needs["smallest T_min"] == decidable_from(0.5, 0.07, "quick") > 1.0e3
    assert "repetitions (projected)" not in needs and "Deciding needs resolution below 0.5" in ev.summary
