"""Helpers of ``claims/wsparq/confidence.py``."""

import numpy as np

from tvbo_verify.verify.claims.wsparq import confidence as C


def test_band_errors_shapes_and_coverage():
    out = C.band_errors(np.random.SeedSequence(1), 1.0, 0.1, 40, 0.1, 1.0, 5, 11, 200)
    assert out["fixed"].shape == (200, 5) and out["uniform"].shape == (200,)
    assert np.all(out["uniform"] >= out["fixed"].max(axis=1))
    assert np.mean(out["fixed"] <= 1.0) >= 0.95  # the band holds
    assert np.mean(out["fixed"] <= 1 / 3) < 0.95  # a third of it does not


def test_band_errors_are_reproducible_from_the_seed():
    a = C.band_job((np.random.SeedSequence(7), 0.5, 0.5, 10, 0.1, 1.0, 3, 5, 20))
    b = C.band_job((np.random.SeedSequence(7), 0.5, 0.5, 10, 0.1, 1.0, 3, 5, 20))
    assert np.array_equal(a["fixed"], b["fixed"])
