"""Corollary 3.7's floor: ε_c of Theorem 3.6 where it is material, decided three ways (``checks/regret_runs.py``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.papers.bolt import reproductions as rb
from tvbo_verify.papers.bolt.checks.regret_runs import corollary_3_7, floor_property
from tvbo_verify.verify import Context, Verdict
from tvbo_verify.verify.comparison import CircularBoundError


def test_the_floor_underflows_on_the_rate_set_up_and_is_material_where_it_is_tested():
    rate = rb.floor_of({**rb.BOLT_ST, "points_per_dim": 10, "temporal_lengthscale": 3.0}, rb.LIPSCHITZ)
    assert rate.epsilon_c == 0.0 and rate.log_epsilon_c == pytest.approx(-2454161.5, rel=1e-6)  # 50 digits
    for ls in rb.FLOOR_SPATIAL_LENGTHSCALES:
        env, L = rb.floor_env(ls), rb.floor_lipschitz(ls)
        assert L == pytest.approx(rb.FLOOR_SLOPE_SDS * math.sqrt(5 / 3) / ls)
        assert rb.floor_of(env, L).epsilon_c > 1e-2  # material: within two decades of the regret the runs see
        assert rb.floor_of_corrected(env, L) < 1e-9  # with the sign of papers/bolt/READING.md §5.1: none
        assert rb.floor_env(ls, static=True)["temporal_lengthscale"] == 1e6


def test_the_floor_is_decided_three_ways_against_a_bound_fixed_before_the_runs():
    fixed = Context("bolt:corollary-3.7").fix(slope_sds=rb.FLOOR_SLOPE_SDS)
    eps = rb.floor_of(rb.floor_env(4.0), rb.floor_lipschitz(4.0)).epsilon_c  # 0.154
    rng = np.random.default_rng(0)
    above = floor_property("above", 2 * eps + 0.01 * rng.standard_normal(20), fixed, 4.0, "")
    assert above.verdict is Verdict.CONFIRMED and above.sharpened_caught(Context("bolt:corollary-3.7").tolerance)
    below = floor_property("below", eps / 2 + 0.01 * rng.standard_normal(20), fixed, 4.0, "")
    assert below.verdict is Verdict.VIOLATED
    straddling = floor_property("straddling", eps + rng.standard_normal(20), fixed, 4.0, "")
    assert straddling.verdict is Verdict.INCONCLUSIVE and "undecided" in straddling.detail
    with pytest.raises(CircularBoundError):
        floor_property("not fixed", np.full(5, 1.0), {"slope_sds": 4.5}, 4.0, "")


def test_corollary_3_7_fixes_its_lipschitz_constant_before_it_runs():
    ctx = Context("bolt:corollary-3.7")
    ctx.seeds(1)
    with pytest.raises(CircularBoundError):
        corollary_3_7(ctx)
