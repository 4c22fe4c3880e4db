"""Helpers of ``tvbo_verify.papers.tvgpucb.checks.confidence``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.papers.tvgpucb.checks.confidence import ObservationBound, calibration_run, fit_gaussian_tail


def test_observation_bounds():
    t = np.array([1.0])
    root = math.sqrt(math.log(4 * 52 * math.pi**2 / 6 / 0.1))
    assert ObservationBound.bound(t, 51, 4.0, 0.1, "printed")[0] == pytest.approx((2 + math.sqrt(2)) * root)
    assert ObservationBound.bound(t, 51, 4.0, 0.1, "corrected")[0] == pytest.approx(2 * math.sqrt(8) * root)


def test_calibration_scores_are_finite_and_z_is_standardised():
    played, band, z, run_ = calibration_run((np.random.SeedSequence(5), 8, 0.05, 0.1))
    assert 0 <= played <= band * 10 and z.shape == (8,) and np.all(np.isfinite(z))
    assert run_.environment == "tvgpucb-markov" and run_.trace.T == 8  # kept for the run audit


def test_gaussian_tail_fit_recovers_the_scale_of_a_half_normal():
    rng = np.random.default_rng(0)
    a, b = fit_gaussian_tail(np.abs(rng.normal(size=20000)))
    assert b == pytest.approx(math.sqrt(2), rel=0.2)


def test_the_printed_widths_are_checked_written_out_and_a_halved_width_is_violated():
    from tvbo_verify import confidence as cf
    from tvbo_verify.mutants.apply import applied
    from tvbo_verify.mutants.catalog import get_mutant
    from tvbo_verify.papers.tvgpucb.checks.confidence import printed_width
    from tvbo_verify.verify import run_claim

    assert printed_width("(19) as printed", 10, 2, 1.0, 1.0, 1.0, 0.1) == pytest.approx(
        cf.beta_tvgpucb(10, 2, 1.0, 1.0, 1.0, 0.1), rel=1e-14)
    assert run_claim("tvgpucb:eq-19", seed=0).verdict.value == "confirmed"
    with applied(get_mutant("tv-beta-halved")):
        assert run_claim("tvgpucb:eq-19", seed=0).verdict.value == "violated"
