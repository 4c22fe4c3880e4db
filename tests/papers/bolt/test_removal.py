"""Helpers of the ``bolt`` removal checks (``tvbo_verify.papers.bolt.checks.removal``)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from tvbo_verify.papers.bolt.checks.removal import (
    ASSUMPTION_39,
    RECOMMENDATION_2,
    THEOREM_310,
    RemovalSetup,
    removal_diagnostics,
    ucb,
)


def test_ucb_uses_the_square_root_convention():
    assert ucb(1.0, 2.0, 4.0) == 5.0


def test_lipschitz_constant_is_attained_along_the_gradient():
    p = {"part": "direction", "beta": 4.0, "mu1": 0.0, "s1": 0.7, "mu2": 0.0, "s2": 0.0}
    c = ASSUMPTION_39.evaluate(p)
    assert c.value == pytest.approx(math.sqrt(5.0)) and c.margin >= 0
    assert ASSUMPTION_39.evaluate(p, sharpened=True).bound == 2.0


def test_quadrature_weights_sum_to_the_box_volume():
    p = RemovalSetup.sample(np.random.default_rng(0))
    nodes, w = RemovalSetup.nodes(p)
    (x0, x1), (y0, y1), (t0, t1) = p["box"]
    assert w.sum() == pytest.approx((x1 - x0) * (y1 - y0) * (t1 - t0))
    assert np.all((nodes[:, 2] > t0) & (nodes[:, 2] < t1))


def test_removal_statements_hold_and_referee_agrees():
    p = RemovalSetup.sample(np.random.default_rng(4))
    p = {**p, "X": p["X"][:6], "y": p["y"][:6]}
    c = THEOREM_310.evaluate(p)
    assert c.margin >= 0
    r = RECOMMENDATION_2.evaluate(p)
    assert r.margin >= 0 and RECOMMENDATION_2.evaluate(p, sharpened=True).bound == pytest.approx(r.bound**2)
    with mpmath.workdps(30):
        assert float(THEOREM_310.hp(p).value) == pytest.approx(c.value, rel=1e-8)
    d = removal_diagnostics(p)
    assert d["best"] <= d["w2_choice"] and -1 <= d["spearman"] <= 1


def test_a_removal_of_negligible_influence_is_judged_within_the_refits_round_off():
    """A dataset the full-fidelity check drew (seed 0): the observation BOLT removes changes the posterior on
    the box by W₂ = 5.3e-20, which the removal criterion computes and the refits cannot (their difference of
    posteriors of magnitude ~0.1 comes out at 3.8e-19). The float comparison must lie within the refits'
    round-off instead of breaking, and the 50-digit twin must find the same W₂ for both."""
    import json
    from pathlib import Path

    from tvbo_verify.verify.stats import DEFAULT_POLICY, Instance, twin_disagreement

    p = json.loads((Path(__file__).parent / "data" / "removal_roundoff.json").read_text())
    c = RECOMMENDATION_2.evaluate(p)
    assert abs(c.value - c.bound) > 1e-8 * c.bound  # not resolved to the stated relative accuracy ...
    assert not Instance(p, c).broken(DEFAULT_POLICY)  # ... yet within the refits' round-off
    with mpmath.workdps(DEFAULT_POLICY.mp_digits):
        twin = RECOMMENDATION_2.hp(p)
        assert twin.margin >= 0 and float(twin.value) == pytest.approx(5.316e-20, rel=1e-3)
    assert twin_disagreement(c, twin) is None
    magnitude, cond = RemovalSetup.refit_magnitude(p)
    assert abs(c.value - c.bound) < 64 * np.finfo(float).eps * cond * magnitude
