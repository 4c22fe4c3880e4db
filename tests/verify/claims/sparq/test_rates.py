"""Helpers of ``claims/sparq/rates.py``: ladders, the double-logarithmic allowance of (19), the sweeps."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.verify.claims.sparq.rates import (
    RANDOM_WALK,
    TWO_BUMPS,
    U3_KAPPAS,
    double_log_allowance,
    random_walk_facts,
    random_walk_sweep,
    rate_ladder,
    two_bumps_facts,
    two_bumps_sweep,
    u3_ladder,
    u3_sweep,
)


@pytest.mark.parametrize("fidelity, sizes, decades", [("quick", 3, 0.6), ("full", 5, 1.5)])
def test_ladders_meet_the_rate_rule(fidelity, sizes, decades):
    for ladder in (rate_ladder(fidelity), u3_ladder(fidelity)):
        assert len(ladder) == sizes and list(ladder) == sorted(set(ladder))
        assert math.log10(ladder[-1] / ladder[0]) >= decades - 1e-3


def test_double_log_allowance_is_the_slope_of_the_factor_of_19():
    def closed_form(T: float) -> float:
        L = math.log(math.log(T))
        return 2 * L**3 / ((1 + L**4) * math.log(T))

    for T in (1.0e3, 1.0e4, 3.2e5):
        assert double_log_allowance([T]) == pytest.approx(closed_form(T), rel=1e-5)
    # the largest slope over a ladder is at its smallest size (the factor flattens)
    assert double_log_allowance([1.0e4, 4.0e4]) == pytest.approx(closed_form(1.0e4), rel=1e-5)


def test_printed_order_is_at_least_linear_below_two_thousand_rounds():
    """Why the ladders start at 10^4: (19)'s order grows at least like T on short horizons."""
    for T in (100.0, 1000.0):
        assert 0.5 + 3 / math.log(T) + double_log_allowance([T]) >= 1.0
    assert 0.5 + 3 / math.log(1.0e4) + double_log_allowance([1.0e4]) < 1.0


def test_two_bumps_satisfy_the_assumptions_and_force_linear_regret():
    facts = two_bumps_facts()
    assert facts["‖f_t‖_k (every t)"] == pytest.approx(math.sqrt(2))
    assert facts["sup |f_{t+1} − f_t| (largest switch)"] <= facts["Δ"] + 1e-12
    assert facts["E[r_t] floor for any policy, h(1 − k(c₁, c₂)/M_k²)/2"] == pytest.approx(0.5, abs=1e-6)
    sweep = two_bumps_sweep("quick", 0)
    assert sweep.env_params == TWO_BUMPS and sweep.arms[0].beta.params["B"] == pytest.approx(math.sqrt(2))
    grid = np.linspace(-50, 50, TWO_BUMPS["grid_points"])
    assert {-25.0, 25.0} <= set(np.round(grid, 9))


def test_random_walk_drift_is_over_covered_by_the_injection_model():
    facts = random_walk_facts(400, 1)
    assert facts["largest ‖f_t‖_k"] == pytest.approx(RANDOM_WALK["B"])
    assert facts["largest RMS drift over age g / (σ √(g² + 1))"] < 1.0
    assert facts["largest sup |f_{t+1} − f_t|"] <= 1.0  # Assumption 2 with Δ = 1
    assert random_walk_sweep("quick", 0).arms[0].beta.params["B"] == RANDOM_WALK["B"]


def test_u3_sweep_has_one_arm_per_threshold():
    sweep = u3_sweep("quick", 0)
    assert [a.params["threshold"] for a in sweep.arms] == list(U3_KAPPAS)
    assert all(k < 0.25 for k in U3_KAPPAS)
