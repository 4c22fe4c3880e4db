"""Helpers of the ``bolt`` Lemma C.4 checks (``tvbo_verify.papers.bolt.checks.oracle_bounds``)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from tvbo_verify import highprecision as rf
from tvbo_verify.kernels import temporal_kernel
from tvbo_verify.papers.bolt.checks.oracle_bounds import (
    EQ_46,
    EQ_46_CORRECTED,
    EQ_59,
    EQ_59_CORRECTED,
    PredictionLimit,
    circulant_quadratic_form,
)
from tvbo_verify.theory.circulant import one_step_prediction


def test_negative_weights_break_46_at_the_box_vertex():
    p = {"part": "lipschitz", "kT": "matern32", "c": 0.1, "n": 20, "Lr": 1.0, "delta": [0.0] * 20}
    w = EQ_46.weights(p)
    assert w.min() < 0 and np.abs(w).sum() > 1.5  # sum |w| = 3.6 at n = 400 (one_step_prediction at the same c)
    vertex = {**p, "delta": (-np.sign(w)).tolist()}
    assert EQ_46.evaluate(vertex).margin < 0
    assert EQ_46_CORRECTED.evaluate(vertex).margin == pytest.approx(0.0, abs=1e-12)
    with mpmath.workdps(50):
        assert EQ_46.hp(vertex).margin < 0


def test_markov_weights_sum_to_the_one_step_correlation():
    p = {"part": "markov", "kT": "matern12", "c": 0.4, "n": 6, "Lr": 1.0, "delta": [0.0] * 6}
    assert EQ_46_CORRECTED.evaluate(p).margin >= 0 and EQ_46_CORRECTED.evaluate(p, sharpened=True).margin < 0


def test_in_band_mass_is_far_from_the_oracle_variance():
    c = EQ_59.evaluate({"kT": "matern32", "c": 1.0})
    assert math.exp(c.value) == pytest.approx(0.7544, abs=1e-4) and math.exp(c.bound) == pytest.approx(0.0516, abs=1e-4)
    assert c.margin < 0  # papers/bolt/READING.md §5.3: 0.7544 against 0.0516
    slow = EQ_59.evaluate({"kT": "matern12", "c": 20.0})
    assert slow.margin > 0 and EQ_59.evaluate({"kT": "matern12", "c": 20.0}, sharpened=True).margin < 0
    assert circulant_quadratic_form("matern12", 0.5, 64) == pytest.approx(1.0, abs=1e-3)


def test_szego_part_and_its_unaliased_misreading():
    p = {"part": "szego", "kT": "matern12", "c": 1.0}
    assert EQ_59_CORRECTED.evaluate(p).margin > 0
    assert PredictionLimit.unaliased_szego(p) < 0.8 * math.exp(-0.0) * 0.8647
    assert EQ_59_CORRECTED.evaluate({"part": "inequality", "kT": "se", "c": 1.0}).margin > 0


def test_levinson_twin_matches_the_cholesky_prediction():
    k = temporal_kernel("matern52", 1.0)
    with mpmath.workdps(40):
        w, v = rf.one_step_prediction_mp(k, 0.3, 12)
        szego = rf.szego_prediction_variance_mp(temporal_kernel("matern12", 1.0), 1.0)
    pred = one_step_prediction(k, 0.3, 12)
    assert float(v) == pytest.approx(pred.variance, rel=1e-10)
    assert np.allclose([float(x) for x in w], pred.weights, atol=1e-12)
    assert float(szego) == pytest.approx(1 - math.exp(-2.0), rel=1e-12)
