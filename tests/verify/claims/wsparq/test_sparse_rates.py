"""Helpers of ``claims/wsparq/sparse_rates.py``: ladders, the orders of (23) and (34), drift against injection,
sparse/virtual std ratios."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.verify.claims.wsparq import sparse_rates as sr


def test_ladders():
    assert sr.ladder("quick") == (500, 1000, 2000)
    assert sr.ladder("quick", 1000) == (1000, 2000, 4000)
    full = sr.ladder("full", 1000)
    assert len(full) == 5 and math.log10(full[-1] / full[0]) >= 1.5



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
