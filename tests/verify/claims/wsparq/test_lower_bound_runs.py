"""Helpers of ``claims/wsparq/lower_bound_runs.py``: ladders, random play, garbling and the slope property."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from tvbo_verify.sweeps import RunCache, run_sweep
from tvbo_verify.verify.claims.wsparq import lower_bound_runs as lb
from tvbo_verify.verify.engine import Context
from tvbo_verify.verify.evidence import Verdict


def short(alpha: float):
    sweep = dataclasses.replace(lb.bump_sweep(alpha, "quick", 0), horizons=(40, 80, 160), reps=2)
    return run_sweep(sweep, cache=RunCache(None), progress=False)


def test_ladders():
    assert lb.ladder("quick") == (500, 1000, 2000)
    full = lb.ladder("full")
    assert len(full) == 5 and math.log10(full[-1] / full[0]) >= 1.5 - 1e-9


def test_random_play_regret_is_below_the_peak():
    r = lb.random_play_regret()
    assert 0.5 < r < 2 * lb.BUMPS["gamma"]


def test_garbling_needs_a_larger_exponent():
    ctx = Context("wsparq:eq-18")
    res = short(2.0)
    ok = lb.garbling_properties(ctx, 2.0, res)
    assert all(p.verdict is Verdict.CONFIRMED for p in ok)
    reversed_models = lb.garbling_properties(ctx, 2.0, res, alpha1=3.0)  # "model 1" noisier than model 2
    assert reversed_models[0].verdict is Verdict.VIOLATED and reversed_models[1].verdict is Verdict.VIOLATED


def test_linear_slope_property_reads_the_ladder():
    ctx = Context("wsparq:eq-18")
    prop = lb.linear_slope_property(ctx, 2.0, short(2.0))
    assert prop.verdict in (Verdict.CONFIRMED, Verdict.INCONCLUSIVE, Verdict.VIOLATED)
    assert "slope" in prop.detail and prop.power is not None
    x, R = short(2.0).ladder(short(2.0).sweep.arms[0].label)
    assert R.shape == (2, 3) and np.all(R > 0)
