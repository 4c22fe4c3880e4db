"""Helpers of ``tvbo_verify.verify.claims.tvgpucb.experiments``."""

from __future__ import annotations

from tvbo_verify.verify.claims.tvgpucb.experiments import not_materially_above
from tvbo_verify.verify.evidence import Verdict


def comparison(ratio_ci, ratio=1.0):
    return {"a": "A", "b": "B", "ratio": ratio, "ratio_ci95": list(ratio_ci),
            "difference": {"mean": 0.0, "ci95": [-1.0, 1.0]}}


def test_not_materially_above_decides_from_the_ratio_interval_against_the_margin():
    assert not_materially_above("p", comparison((0.9, 1.2))).verdict is Verdict.CONFIRMED
    assert not_materially_above("p", comparison((1.3, 1.6))).verdict is Verdict.VIOLATED
    assert not_materially_above("p", comparison((1.1, 1.4))).verdict is Verdict.INCONCLUSIVE
    # power: "no increase at all" is refuted only when the interval lies above 1
    assert not_materially_above("p", comparison((1.02, 1.2))).power.caught
    assert not not_materially_above("p", comparison((0.9, 1.2))).power.caught
