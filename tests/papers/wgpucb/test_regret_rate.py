"""Helpers of ``wgpucb`` Corollary 5: exponents, sweeps of the ladder, the decreasing average regret."""

from __future__ import annotations

import math

import pytest

from tvbo_verify.papers.wgpucb.checks import regret_rate as rr
from tvbo_verify.theory.schedules import wgpucb_discount


def test_exponents_of_corollary_5():
    assert rr.exponent(0.0, True) == 0.75 and rr.exponent(0.5, True) == 0.875 and rr.exponent(0.5, False) == 1.25


def test_sweeps_hold_the_known_and_unknown_discounts_and_the_control():
    assert [a.label for a in rr.rate_sweep(0.0, 250, 2).arms] == [rr.KNOWN, rr.RANDOM.label]
    sweep = rr.rate_sweep(0.5, 1000, 2, seed=3)
    assert sweep.env_params["budget"] == math.sqrt(1000) and sweep.seed == 3
    unknown = sweep.arm(rr.UNKNOWN).params["discount"]
    assert unknown == wgpucb_discount(1000, math.log(1000) ** 2, None).discount
    assert sweep.arm(rr.KNOWN).params["discount"] == "theory"
    for fidelity, decades in (("quick", 1.0), ("full", 1.5)):
        h = rr.horizons(fidelity)
        assert h[-1] / h[0] >= 10**decades * (1 - 1e-9) and len(h) >= (3 if fidelity == "quick" else 5)


def test_misreadings_are_other_exponents_of_the_statement():
    assert rr.misreading(0.0, True)[0] == rr.STATIONARY_EXPONENT
    assert rr.misreading(0.5, True)[0] == rr.exponent(0.5, False)
    assert rr.misreading(0.5, False)[0] == rr.exponent(0.5, True)


def test_the_runs_discount_is_corollary_5s_and_a_wrong_horizon_exponent_is_caught():
    from tvbo_verify.mutants.apply import applied
    from tvbo_verify.mutants.catalog import get_mutant
    from tvbo_verify.papers.wgpucb.checks.regret_rate import discount_property, stated_discount
    from tvbo_verify.verify.evidence import Verdict

    assert stated_discount(100) == pytest.approx(1 - (math.log(100) ** 2) ** -0.25 / 10, rel=1e-15)
    assert discount_property(316).verdict is Verdict.CONFIRMED
    with applied(get_mutant("wgpucb-discount-horizon-exponent")):
        assert discount_property(316).verdict is Verdict.VIOLATED
