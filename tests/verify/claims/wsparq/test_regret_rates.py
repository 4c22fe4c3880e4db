"""Helpers of ``claims/wsparq/regret_rates.py``: ladders, the order of (13), drift facts, the (15) scores."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from tvbo_verify.sweeps import RunCache, run_sweep
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


def test_chain_scores_on_a_short_sweep():
    sweep = dataclasses.replace(rr.chain_sweep("quick", 0), horizons=(30,), reps=2)
    result = run_sweep(sweep, cache=RunCache(None), progress=False)
    step, chain = rr.chain_scores(result, sweep.arms[0].label, rr.EQ15_ALPHAS[0], gamma=10.0)
    assert step.shape == (2,) and chain.shape == (2,)
    assert np.all(step >= 0) and np.all(chain > 0)
    tr = result.runs(sweep.arms[0].label)[0]
    assert len(tr.meta["policy"]["widths"]) == 30 and tr.meta["policy"]["generator"] == "O1"
