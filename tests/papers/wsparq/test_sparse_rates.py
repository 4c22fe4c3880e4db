"""Helpers of ``claims/wsparq/sparse_rates.py``: ladders, the orders of (23) and (34), drift against injection,
sparse/virtual std ratios, the second-half regret and the structural count of the sparse set."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from tvbo_verify.papers.wsparq.checks import sparse_rates as sr
from tvbo_verify.sweeps import RunCache, run_sweep
from tvbo_verify.verify.evidence import Verdict


def test_ladders():
    assert sr.sparq_sweep("quick", 0).horizons == (250, 791, 2500)
    assert sr.wsparq_sweep("quick", 0).horizons == (1000, 3162, 10000)
    for start in (250, 1000):
        full = sr.ladder("full", start)
        assert len(full) == 5 and math.log10(full[-1] / full[0]) >= 1.5 - 1e-9
    assert sr.deterministic_ladder("quick") == sr.wsparq_sweep("quick", 0).horizons


def short_sweep():
    sweep = dataclasses.replace(sr.sparq_sweep("quick", 0), horizons=(40, 80, 160), reps=2)
    return run_sweep(sweep, cache=RunCache(None), progress=False)


def test_second_half_regret_reads_each_run():
    result = short_sweep()
    late = sr.second_half_regret(result, sr.SPARQ)
    assert late.shape == (2, 3)
    tr = result.runs(sr.SPARQ, 80)[1]
    assert late[1, 1] == pytest.approx(tr.cumulative[-1] - tr.cumulative[39])
    m = sr.late_measurement(result, sr.SPARQ, exponent=0.5, polylog=1.0)
    assert m.max_exponent == 1.0 and m.name == sr.SPARQ and np.array_equal(m.measured, late)


def test_sparse_set_holds_one_fresh_answer_per_distinct_input():
    facts = sr.answers_per_input(sr.sparq_arm(), seed=3, T=80)
    assert facts["most answers at one input in a round"] == 1
    assert facts["query times with more answers than distinct inputs played"] == 0
    assert facts["query times"] == 80 and facts["grid points"] == 21
    prop = sr.structural_property("one answer per input", sr.sparq_arm(), 3, short_sweep())
    assert prop.verdict is Verdict.CONFIRMED and "width floor" in prop.detail


def test_posterior_floor_is_that_of_one_answer_per_grid_point():
    floor = sr.posterior_floor()
    # one observation of variance σ² at every point: below σ (neighbours help), far above 0
    assert 0.02 < floor < math.sqrt(sr.STATIONARY["noise_var"])



def test_double_log_allowance_is_small_and_positive():
    a = sr.loglog_allowance((500, 1000, 2000))
    assert 0 < a < 0.1



def test_printed_order_is_the_square_of_the_corrected_one():
    T = np.array([1e3, 1e4])
    assert np.allclose(sr.corrected_order(T) ** 2, sr.printed_order(T))
    slope = np.log(sr.printed_order(T)[1] / sr.printed_order(T)[0]) / np.log(10)
    assert slope > 1 + 3 * sr.ALPHA_TILDE  # superlinear for every alpha~ > 0



def test_drift_is_covered_by_the_injected_variance():
    facts = sr.drift_against_injection(300, seed=0)
    assert 0 < facts["largest RMS drift / (σ g^(α/2)) over gaps"] < 1



def test_sparse_virtual_ratio_is_one_without_repeats_and_grows_with_them():
    seed = np.random.SeedSequence(0)
    distinct = np.arange(0, 50, 5)  # ten distinct grid points, then x_t new
    ratio = sr.sparse_virtual_ratios((seed, np.append(distinct, 2), 11, 5))
    assert np.allclose(ratio, 1.0)
    repeated = np.append(np.repeat(distinct, 4), 10)  # every input four times; x_t on one of them
    ratio = sr.sparse_virtual_ratios((seed, repeated, repeated.size, 5))
    assert np.all(ratio > 1.5)
    assert ratio[0] == pytest.approx(ratio[-1])
