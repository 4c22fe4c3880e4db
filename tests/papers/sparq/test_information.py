"""Helpers of ``claims/sparq/information.py``."""

from __future__ import annotations

import math

import mpmath
import pytest

from tvbo_verify.papers.sparq.checks.information import query_set_gain_order, query_set_gain_order_mp


@pytest.mark.parametrize("d", [1, 2, 3])
def test_gain_order_is_d_power_d_plus_4_times_loglog(d):
    T = 1e6
    assert query_set_gain_order(d, T) == pytest.approx(d ** (d + 4) * math.log(math.log(T)) ** (d + 3), rel=1e-12)
    with mpmath.workdps(30):
        assert float(query_set_gain_order_mp(d, mpmath.mpf(T))) == pytest.approx(query_set_gain_order(d, T), rel=1e-12)
