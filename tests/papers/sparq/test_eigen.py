"""Helpers of ``claims/sparq/eigen.py``."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from tvbo_verify.papers.sparq.checks.eigen import DOMAIN_CONSTANT, ConvexDomain, domain_constant, triangle


def test_chebyshev_radius_of_a_triangle_and_a_square():
    V = ConvexDomain.vertices(triangle())
    c, R = ConvexDomain.chebyshev(V)
    assert R == pytest.approx(1 / math.sqrt(3), rel=1e-9)
    with mpmath.workdps(50):
        assert float(ConvexDomain.radius_mp(V, c)) == pytest.approx(1 / math.sqrt(3), rel=1e-14)
    square = np.array([[0, 0], [1, 0], [0, 1], [1, 1]], float)
    assert ConvexDomain.chebyshev(square)[1] == pytest.approx(math.sqrt(2) / 2, rel=1e-9)
    assert ConvexDomain.diameter(square) == pytest.approx(math.sqrt(2))


def test_printed_constant_is_tight_on_intervals_and_fails_on_the_triangle():
    interval = {"d": 1, "kind": "interval", "n_vertices": 2, "V": [-50.0, 50.0]}
    c = DOMAIN_CONSTANT.evaluate(interval)
    assert float(c.value) == pytest.approx(float(c.bound), rel=1e-12)
    assert math.exp(float(c.bound)) == pytest.approx(domain_constant(100.0, 1), rel=1e-12)
    t = DOMAIN_CONSTANT.evaluate(triangle())
    assert float(t.value) - float(t.bound) == pytest.approx(32 / 3 - 8, rel=1e-6)


def test_jung_constant_holds_at_a_tiny_interval_far_from_the_origin():
    """An interval of width 8e-7 at 2.33 (found by the search): R = l_q/2 exactly, Jung's equality case. The
    radius must not be lost to the rounding of the coordinates, in float or in the 50-digit twin."""
    from tvbo_verify.papers.sparq.checks.eigen import DOMAIN_CONSTANT_JUNG
    from tvbo_verify.verify.stats import DEFAULT_POLICY, Instance

    p = {"d": 1, "kind": "interval", "n_vertices": 2, "V": [2.3286022121677474, 2.328602968072054]}
    assert not Instance(p, DOMAIN_CONSTANT_JUNG.evaluate(p)).broken(DEFAULT_POLICY)
    with mpmath.workdps(50):
        twin = DOMAIN_CONSTANT_JUNG.hp(p)
        assert abs(twin.margin) < mpmath.mpf(10) ** -30
