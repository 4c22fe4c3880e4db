"""Helpers of ``bolt:assumption-3.3`` and ``bolt:compact-spectrum`` (``tvbo_verify.papers.bolt.checks.spectra``)."""

from __future__ import annotations

import math

import mpmath

from tvbo_verify.papers.bolt.checks.spectra import ASSUMPTION_33, COMPACT_SPECTRUM, BandLimitedFloor, kernel_of


def test_kernel_properties_hold_for_the_usual_kernels():
    for kernel in ("se", "matern12", "matern52", "rq"):
        for part in ("unit", "decreasing", "vanishing", "mass", "positive"):
            p = {"part": part, "kernel": kernel, "l": 2.0, "alpha": 1.5}
            assert ASSUMPTION_33.evaluate(p).margin >= 0, (kernel, part)
    mass = ASSUMPTION_33.evaluate({"part": "mass", "kernel": "matern32", "l": 1.0, "alpha": 1.0}, sharpened=True)
    assert mass.bound == 2 * math.pi and mass.margin < 0


def test_sinc_fails_the_positive_spectrum_property():
    for p in ASSUMPTION_33.sharpened_extra:
        assert ASSUMPTION_33.evaluate(p, sharpened=True).value > 0
    assert kernel_of({"kernel": "sinc", "l": 0.5}).lengthscale == 0.5


def test_band_limited_floor_vanishes_inside_the_nyquist_band():
    base = {"part": "sigma", "B": 2.0, "lam": 1.0, "lS": 1.0, "d": 2, "L": 1.0}
    assert BandLimitedFloor.floor({**base, "ratio": 0.8}) == (0.0, 0.0)
    s2, eps = BandLimitedFloor.floor({**base, "ratio": 1.5})
    assert s2 == COMPACT_SPECTRUM.closed_form({**base, "ratio": 1.5}, 1.0) > 0 and eps > 0
    inside_misread_band = {**base, "ratio": 1.5}
    assert COMPACT_SPECTRUM.evaluate(inside_misread_band, sharpened=True).margin < 0
    with mpmath.workdps(50):
        assert COMPACT_SPECTRUM.hp(inside_misread_band).margin >= 0
