"""Helpers of ``wgpucb`` Corollary 5: exponents, sweeps of the ladder, the decreasing average regret."""

from __future__ import annotations

import math

import numpy as np

from tvbo_verify.theory.schedules import wgpucb_discount
from tvbo_verify.verify.claims.wgpucb import regret_rate as rr
from tvbo_verify.verify.evidence import Verdict


def test_exponents_of_corollary_5():
    assert rr.exponent(0.0, True) == 0.75 and rr.exponent(0.5, True) == 0.875 and rr.exponent(0.5, False) == 1.25


def test_sweeps_hold_the_known_and_unknown_discounts():
    assert [a.label for a in rr.rate_sweep(0.0, 250, 2).arms] == [rr.KNOWN]
    sweep = rr.rate_sweep(0.5, 1000, 2)
    assert sweep.env_params["budget"] == math.sqrt(1000)
    unknown = sweep.arm(rr.UNKNOWN).params["discount"]
    assert unknown == wgpucb_discount(1000, math.log(1000) ** 2, None).discount
    assert sweep.arm(rr.KNOWN).params["discount"] == "theory"
    assert rr.horizons("full")[-1] / rr.horizons("full")[0] >= 10**1.5


def test_average_regret_decrease_and_its_power():
    x = np.array([100.0, 1000.0])
    rng = np.random.default_rng(0)
    slow = np.column_stack([np.full(10, 50.0), np.full(10, 400.0)]) + rng.normal(0, 1, (10, 2))
    prop = rr.average_regret_decreases("p", x, slow, 0.5, rng)
    assert prop.verdict is Verdict.CONFIRMED and prop.power.caught  # decays like T^-0.1, slower than T^-0.5
    linear = np.column_stack([np.full(10, 50.0), np.full(10, 600.0)]) + rng.normal(0, 1, (10, 2))
    assert rr.average_regret_decreases("p", x, linear, 0.5, rng).verdict is Verdict.VIOLATED
