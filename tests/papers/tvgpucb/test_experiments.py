"""Helpers of ``tvbo_verify.papers.tvgpucb.checks.experiments``."""

from __future__ import annotations

from tvbo_verify.papers.tvgpucb.checks.experiments import (
    exceeds,
    interval_sign,
    not_materially_above,
    spread_grows,
)
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


def test_not_materially_above_has_power_from_resolution_wherever_the_interval_lies():
    # an interval narrower than the distance from 1 to the margin tells "no increase at all" from 1.25x,
    # also when it lies wholly below 1 (a's regret clearly below b's: nothing to refute, yet fully resolved)
    assert not_materially_above("p", comparison((0.67, 0.74))).power.caught
    assert not_materially_above("p", comparison((0.998, 1.076))).power.caught
    # too wide to tell 1 from 1.25: a confirmation that could not have come out violated near the margin
    assert not not_materially_above("p", comparison((0.5, 1.0))).power.caught
    assert not not_materially_above("p", comparison((0.99, 1.24), ratio=1.1), margin=1.2).power.caught
    # a violation is never counted as the power of a confirmation
    assert not not_materially_above("p", comparison((1.3, 1.4))).power.caught


def test_spread_grows_decides_from_the_sd_ratio_interval():
    row = {"a": "N = 200", "b": "N = 38", "ratio": 1.4, "ratio_ci95": [1.1, 1.8]}
    p = spread_grows("p", row)
    assert p.verdict is Verdict.CONFIRMED and p.power.caught
    assert spread_grows("p", {**row, "ratio_ci95": [0.5, 0.9]}).verdict is Verdict.VIOLATED
    assert spread_grows("p", {**row, "ratio_ci95": [0.9, 2.5]}).verdict is Verdict.INCONCLUSIVE
    assert not spread_grows("p", {**row, "ratio_ci95": [1.5, 2.5]}).power.caught


def test_exceeds_reads_a_bootstrap_interval():
    assert exceeds("p", {"mean": 0.34, "ci95": [0.3, 0.37]}, 0.2, sharpened=0.4).verdict is Verdict.CONFIRMED
    assert exceeds("p", {"mean": 0.34, "ci95": [0.3, 0.37]}, 0.2, sharpened=0.4).power.caught
    assert exceeds("p", {"mean": 0.1, "ci95": [0.05, 0.15]}, 0.2, sharpened=0.4).verdict is Verdict.VIOLATED
    assert exceeds("p", {"mean": 0.2, "ci95": [0.15, 0.25]}, 0.2, sharpened=0.4).verdict is Verdict.INCONCLUSIVE


def test_interval_sign_reads_either_side():
    assert interval_sign("p", {"mean": 1.0, "ci95": [0.5, 1.5]}, above=True).verdict is Verdict.CONFIRMED
    assert interval_sign("p", {"mean": 1.0, "ci95": [0.5, 1.5]}, above=False).verdict is Verdict.VIOLATED
    assert interval_sign("p", {"mean": 0.0, "ci95": [-0.5, 0.5]}, above=True).verdict is Verdict.INCONCLUSIVE
