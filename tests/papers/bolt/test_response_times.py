"""Helpers of ``bolt:definition-3.5`` (``tvbo_verify.papers.bolt.checks.response_times``)."""

from __future__ import annotations

import numpy as np

from tvbo_verify.papers.bolt.checks.response_times import (
    DEFINITION_35,
    FittedCubics,
    SyntheticTimings,
    paper_instances,
)
from tvbo_verify.theory.response import ResponseModel
from tvbo_verify.verify import run_claim
from tvbo_verify.verify.evidence import Verdict
from tvbo_verify.verify.stats import DEFAULT_POLICY as DEFINITION_35_POLICY


def test_synthetic_timings_follow_the_true_power_law():
    p = SyntheticTimings.sample(np.random.default_rng(0))
    sizes, seconds = SyntheticTimings.pairs(p)
    true = SyntheticTimings.true_model(p)(sizes)
    assert sizes.size >= 4 and np.all(seconds > 0)
    assert np.all(np.abs(seconds / true - 1) <= 1.0)


def test_nonnegative_fit_is_increasing_and_the_statement_holds():
    rng = np.random.default_rng(1)
    for _ in range(5):
        p = {"part": "increasing", **SyntheticTimings.sample(rng)}
        assert SyntheticTimings.min_increment(SyntheticTimings.fit(p, nonnegative=True), p["n_max"]) >= 0
        assert DEFINITION_35.check(SyntheticTimings.fit(p, nonnegative=True), p).margin >= 0


def test_sublinear_growth_breaks_the_convex_reading_only():
    p = {"part": "increasing", "family": "power", "c": 0.1, "a": 0.01, "p": 0.5, "n_max": 1000}
    assert DEFINITION_35.evaluate(p).margin > 0
    assert DEFINITION_35.evaluate(p, sharpened=True).margin < 0
    assert DEFINITION_35.evaluate({**p, "part": "unbounded", "family": "log"}).value == 0.0
    assert DEFINITION_35.evaluate({**p, "part": "origin"}).value == 0.1


def test_unconstrained_fits_are_flagged_when_they_decrease():
    p = {"family": "fit", "c": 1.0, "a": 1e-7, "p": 3, "sizes": [1, 2, 3, 4, 5, 6],
         "noise": [0.3, -0.3, 0.3, -0.3, 0.3, -0.3], "n_max": 6}
    fits = FittedCubics([p])
    assert fits.flagged["unconstrained"] == [p]


def test_a_constant_or_zero_based_fit_breaks_the_definition_strictly():
    assert FittedCubics.breaks(ResponseModel.polynomial([0.25, 0.0, 0.0, 0.0]), 50) == ["(ii)", "(iii)"]
    assert FittedCubics.breaks(ResponseModel.polynomial([0.0, 0.0, 0.0, 2e-7]), 50) == ["(i)"]
    assert FittedCubics.breaks(ResponseModel.polynomial([0.1, 1e-3, 0.0, 0.0]), 50) == []


def test_the_papers_response_times_are_checked_at_every_part():
    instances = paper_instances()
    assert {(p["a"], p["p"]) for p in instances} == {(1e-6, 3.0), (1e-4, 2.0), (1e-3, 1.0)}
    assert {p["part"] for p in instances} == {"origin", "increasing", "unbounded"}
    assert all(not DEFINITION_35.instance(p).broken(DEFINITION_35_POLICY) for p in instances)


def test_the_verdict_does_not_depend_on_the_timings_a_seed_draws():
    # seed 3 drew timings flat within their noise: a constant non-negative fit, which left the claim undecided
    ev = run_claim("bolt:definition-3.5", fidelity="quick", seed=3)
    assert ev.verdict is Verdict.CONFIRMED and ev.power.caught
    assert ev.stats["fitted_cubics"]["non-negative fits that break definition 3.5"] > 0
