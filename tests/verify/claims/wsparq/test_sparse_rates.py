"""Helpers of ``claims/wsparq/sparse_rates.py``: ladders, the orders of (23) and (34), drift against injection,
sparse/virtual std ratios."""

from __future__ import annotations

import math

from tvbo_verify.verify.claims.wsparq import sparse_rates as sr


def test_ladders():
    assert sr.ladder("quick") == (500, 1000, 2000)
    assert sr.ladder("quick", 1000) == (1000, 2000, 4000)
    full = sr.ladder("full", 1000)
    assert len(full) == 5 and math.log10(full[-1] / full[0]) >= 1.5



def test_double_log_allowance_is_small_and_positive():
    a = sr.loglog_allowance((500, 1000, 2000))
    assert 0 < a < 0.1



def test_drift_is_covered_by_the_injected_variance():
    facts = sr.drift_against_injection(300, seed=0)
    assert 0 < facts["largest RMS drift / (σ g^(α/2)) over gaps"] < 1
