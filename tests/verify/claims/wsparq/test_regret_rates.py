"""Helpers of ``claims/wsparq/regret_rates.py``: ladders, the order of (13), drift facts, the (15) scores."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.verify.claims.wsparq import regret_rates as rr


def test_ladders_meet_the_rate_builder_minimum():
    quick, full = rr.ladder("quick"), rr.ladder("full")
    assert len(quick) == 3 and quick[0] == 1000
    assert len(full) == 5 and math.log10(full[-1] / full[0]) >= 1.5 - 1e-9


def test_order_of_13_has_the_polylog_slope():
    T = np.array([1e3, 1e4])
    g = rr.rate_order(T, 0.8)
    local = np.log(g[1] / g[0]) / np.log(10.0)
    assert 0.8 < local < 0.8 + 2 / math.log(1e3)


def test_drift_facts_report_a_moving_function():
    facts = rr.drift_facts(0.2, 200, seed=1)
    assert facts["sup |f_T − f_1|"] > 0 and facts["sup |f_1|"] > 0
    assert facts["σ T^(α/2) (drift sd at gap T)"] == pytest.approx(0.1 * 200**0.1)
