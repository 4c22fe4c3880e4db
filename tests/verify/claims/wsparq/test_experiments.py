"""Helpers of ``claims/wsparq/experiments.py``: the sublinearity rule, analogue-data properties."""

from __future__ import annotations

from tvbo_verify.verify.claims.wsparq import experiments as ex
from tvbo_verify.verify.evidence import Verdict


def slope(lo: float, hi: float) -> dict:
    return {"slope": (lo + hi) / 2, "ci95": [lo, hi], "from_t": 125.0}


def test_sublinear_property_reads_the_interval():
    assert ex.sublinear_property("s", slope(0.6, 0.9)).verdict is Verdict.CONFIRMED
    assert ex.sublinear_property("s", slope(1.02, 1.1)).verdict is Verdict.VIOLATED
    assert ex.sublinear_property("s", slope(0.95, 1.05)).verdict is Verdict.INCONCLUSIVE


