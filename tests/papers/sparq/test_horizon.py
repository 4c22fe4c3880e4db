"""The non-vacuity horizons of (27) and P5 (``checks/regret_chain.py``, ``chain_horizons``): the horizons found, the
upper bounds on γ and β_T they use, and their power."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest

from tvbo_verify.authoring import BoundCurve, non_vacuity_horizon
from tvbo_verify.bandits.beta import kirschner_krause
from tvbo_verify.bandits.environments import SparqSynthetic
from tvbo_verify.bandits.runner import run
from tvbo_verify.bandits.sparq import SparQGPUCB
from tvbo_verify.papers.sparq.checks.regret_chain import (
    DELTA,
    S1_GRID,
    B,
    beta_upper,
    chain_horizons,
    eq_27_curve,
    horizon_gamma,
    p5_admissible,
    p5_curve,
)

#: a small search around the earliest instance of the full one (the full search takes seconds, not milliseconds)
SMALL = {"grid_points": (11, 201), "lengthscale": (3.0, 30.0), "noise_var": (1e-2, 0.1),
         "signal_variance": (0.5, 8.0, 32.0), "B": (5.0, 25.0), "delta": (0.05, 0.5)}


def curve_of(record: dict) -> BoundCurve:
    i = record["instance"]
    base = (i["grid points"], i["l"], i["σ²"], i["M_k²"])
    return eq_27_curve(*base, i["B"], i["δ"]) if record["curve"] == "(27)" else p5_curve(*base)


@pytest.fixture(scope="module")
def records() -> tuple[dict, dict]:
    (r27, _), (r5, _) = chain_horizons(200.0, 1.0, SMALL)
    return r27, r5


def test_each_horizon_is_the_first_T_below_the_trivial_bound(records):
    for record in records:
        h = record["horizon"]
        assert h is not None and h > 1
        curve = curve_of(record)
        assert curve.ratio(h) < 1.0 <= curve.ratio(h - 1)
        assert record["ratio_at_horizon"] == pytest.approx(curve.ratio(h))


def test_27_never_says_something_before_p5_on_the_same_instance(records):
    r27, r5 = records
    assert r27["horizon"] >= r5["horizon"]
    i = r27["instance"]
    same = p5_curve(i["grid points"], i["l"], i["σ²"], i["M_k²"])
    assert non_vacuity_horizon(same, points=120).horizon <= r27["horizon"]


def test_instances_where_p5_fails_at_T_1_are_left_out(records):
    # M_k² = 32 against 2 log(1 + M_k²/σ²) <= 2 log(3201) < 32 at both noises: P5 is false at T = 1 there
    assert all(not p5_admissible(s2, 32.0) for s2 in SMALL["noise_var"])
    assert p5_curve(11, 30.0, 0.1, 32.0).ratio(1.0) < 1.0  # the bound is below the width sum M_k every run has
    excluded = len(SMALL["grid_points"]) * len(SMALL["lengthscale"]) * len(SMALL["noise_var"])
    assert all(r["instances left out (P5 false at T = 1)"] == excluded for r in records)
    assert all(r["instance"]["M_k²"] != 32.0 for r in records)


@pytest.mark.parametrize("T", [2, 3, 4])
def test_gamma_upper_bounds_brute_force_log_det_on_a_small_grid(T):
    """The γ (½ log det) of M_k² · SE with noise σ², by brute force over every multiset of T of 11 grid points of
    [−50, 50], against ``horizon_gamma`` (the convention of the environment's kernel)."""
    for s, s2, ell in ((8.0, 0.1, 30.0), (0.5, 0.01, 3.0)):
        env = SparqSynthetic(grid_points=11, lengthscale=ell, signal_variance=s, noise_var=s2)
        K = env.kernel(env.grid)
        best = max(0.5 * np.linalg.slogdet(np.eye(T) + K[np.ix_(S, S)] / s2)[1]
                   for S in itertools.combinations_with_replacement(range(11), T))
        assert best <= horizon_gamma(11, ell, s2, s)(T)
        assert best >= 0.5 * horizon_gamma(11, ell, s2, s)(T)  # and not absurdly loose at these T


@pytest.mark.parametrize("setting", [dict(S1_GRID), {"grid_points": 11, "lengthscale": 30.0,
                                                      "signal_variance": 8.0, "noise_var": 0.1}])
def test_beta_upper_bounds_the_width_the_runs_use(setting):
    T = 40
    env = SparqSynthetic(**setting)
    pol = SparQGPUCB(kirschner_krause(B=B, delta=DELTA))  # the sweep's arm: the kk rule, the Sec. 4 query preset
    trace = run(pol, env, T, np.random.default_rng(3))
    gamma = horizon_gamma(setting["grid_points"], setting["lengthscale"], setting["noise_var"],
                          setting["signal_variance"])
    upper = beta_upper(gamma, T, setting["grid_points"], setting["noise_var"], DELTA, B)
    assert trace.beta[-1] <= upper
    assert trace.beta[-1] > math.sqrt(2 * math.log(2 / DELTA)) + B  # a non-empty set: the bound is not trivially met


def test_power_a_halved_trivial_bound_or_a_doubled_bound_is_later(records):
    for record in records:
        curve = curve_of(record)
        halved = replace(curve, trivial=lambda T, c=curve: c.trivial(T) / 2)
        # a factor 4 under the root of the product form doubles the bound
        doubled = replace(curve, terms=lambda T, c=curve: {**c.terms(T), "4": 4.0})
        assert doubled.bound(100.0) == pytest.approx(2 * curve.bound(100.0))
        assert non_vacuity_horizon(halved, points=120).horizon > record["horizon"]
        assert non_vacuity_horizon(doubled, points=120).horizon > record["horizon"]
