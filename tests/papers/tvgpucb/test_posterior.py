"""Helpers of ``tvbo_verify.papers.tvgpucb.checks.posterior``."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.papers.tvgpucb.checks.posterior import EQ7_8, MarkovCovariance, PosteriorFormula


def test_markov_coefficients_are_stationary():
    for eps in (0.0, 0.03, 0.5, 1.0):
        for t in (1, 2, 10):
            assert float(np.sum(MarkovCovariance.coefficients(t, eps) ** 2)) == pytest.approx(1.0, rel=1e-13)


def test_posterior_misreadings_differ_from_the_formula():
    p = {"part": "space-time", "quantity": "mean", "X": [0.1, 0.4, 0.45], "y": [1.0, -0.5, 0.3], "x_star": 0.42,
         "lengthscale": 0.2, "noise_var": 0.05, "epsilon": 0.3}
    stated = PosteriorFormula.stated(p)
    assert abs(PosteriorFormula.stated(p, "index") - stated) > 1e-3
    assert abs(PosteriorFormula.stated(p, "full") - stated) > 1e-3
    c = EQ7_8.evaluate(p)
    assert abs(c.value - c.bound) <= c.tol
