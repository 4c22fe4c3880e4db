"""Helpers of ``claims/wsparq/lower_bounds.py``."""

import numpy as np
import pytest

from tvbo_verify.papers.wsparq.checks import lower_bounds as LB


@pytest.mark.parametrize("kind", ["uniform", "clustered", "wsparq"])
def test_query_schedules(kind):
    n = LB.query_schedule(kind, 500, 40, 2.0, seed=3)
    assert n.shape == (500,) and np.all(n >= 0)
    if kind != "wsparq":
        assert n.sum() == 40
    else:
        assert n[0] == 1  # the first window start, ⌈log 1⌉ capped below by 1


def test_derived_window_length_in_range_and_fraction_floor():
    assert 1 <= LB.derived_l_star(2.0, 1000) <= 500
    frac, floor, c4 = LB.bounded_information_fraction(2.0, 1000, "uniform")
    assert 0 <= floor <= frac <= 1 and c4 > 0


def test_bump_statement_parts_hold_on_a_valid_instance():
    rng = np.random.default_rng(0)
    p = LB.EQ_36.sample(rng)
    for part in ("peak", "disjoint"):
        assert LB.EQ_36.evaluate({**p, "part": part}).margin >= -1e-12


def test_remark_56_parts():
    for p in ({"part": "converges", "alpha": 2.0, "T": 1000, "noise_var": 1.0, "schedule": 0},
              {"part": "log", "alpha": 1.0, "T": 1000, "noise_var": 1.0, "schedule": 0},
              {"part": "below", "alpha": 0.5, "T": 1000, "noise_var": 1.0, "schedule": 0}):
        assert LB.REMARK_56.evaluate(p).margin >= 0, p
        assert LB.REMARK_56.evaluate(p, sharpened=True).margin < 0, p
    side = {"part": "side", "alpha": 0.5, "T": 300, "noise_var": 0.01, "schedule": 1}
    assert LB.REMARK_56.evaluate(side).margin >= 0
