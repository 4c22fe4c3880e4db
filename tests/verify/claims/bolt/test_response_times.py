"""Helpers of ``bolt:definition-3.5`` (``tvbo_verify.verify.claims.bolt.response_times``)."""

from __future__ import annotations

import numpy as np

from tvbo_verify.verify.claims.bolt.response_times import (
    DEFINITION_35,
    SyntheticTimings,
    UnconstrainedFits,
)


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
        assert DEFINITION_35.evaluate(p).margin >= 0


def test_sublinear_growth_breaks_the_convex_reading_only():
    p = {"part": "increasing", "family": "power", "c": 0.1, "a": 0.01, "p": 0.5, "n_max": 1000}
    assert DEFINITION_35.evaluate(p).margin > 0
    assert DEFINITION_35.evaluate(p, sharpened=True).margin < 0
    assert DEFINITION_35.evaluate({**p, "part": "unbounded", "family": "log"}).value == 0.0
    assert DEFINITION_35.evaluate({**p, "part": "origin"}).value == 0.1


def test_unconstrained_fits_are_flagged_when_they_decrease():
    p = {"family": "fit", "c": 1.0, "a": 1e-7, "p": 3, "sizes": [1, 2, 3, 4, 5, 6],
         "noise": [0.3, -0.3, 0.3, -0.3, 0.3, -0.3], "n_max": 6}
    fits = UnconstrainedFits([p])
    assert fits.flagged == [p]
