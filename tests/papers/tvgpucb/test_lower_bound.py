"""Helpers of ``tvbo_verify.papers.tvgpucb.checks.lower_bound``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.papers.tvgpucb.checks.lower_bound import SmoothSample, TaylorRegret, stationary_point


def test_smooth_sample_derivatives_match_finite_differences():
    f = SmoothSample(SmoothSample.draw(np.random.default_rng(2)))
    x, h = np.array([0.3, 0.7]), 1e-5
    for order in (1, 2):
        fd = (f.derivative(x + h, order - 1) - f.derivative(x - h, order - 1)) / (2 * h)
        np.testing.assert_allclose(f.derivative(x, order), fd, rtol=1e-5, atol=1e-5)
    grid = np.linspace(0, 1, 201)
    assert f.sup_bound(2, grid) >= np.max(np.abs(f.derivative(np.linspace(0, 1, 5001), 2)))


def test_stationary_point_finds_the_maximum_of_a_parabola():
    def parabola(x, order=0):
        return {0: -(x - 0.4) ** 2, 1: -2 * (x - 0.4), 2: -2 + 0 * x}[order]

    assert stationary_point(parabola, 0.41, 0.3, 0.5) == pytest.approx(0.4)


def test_taylor_regret_instances_satisfy_the_event():
    st = TaylorRegret()
    p = st.sample(np.random.default_rng(3))
    geo = st.geometry(p)
    assert 0 < geo["x_t"] < 1 and geo["regret"] >= 0
    assert math.sqrt(p["epsilon"]) * abs(geo["grad"]) / (2 * geo["L"]) <= min(geo["x_t"], 1 - geo["x_t"])
