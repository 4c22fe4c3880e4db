"""Helpers and statements of ``claims/wgpucb/weighted_regression.py`` (Lemmas 12–13, App. C)."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from tvbo_verify.papers.wgpucb.checks.grids import PlayedSequence, SEGrid
from tvbo_verify.papers.wgpucb.checks.weighted_regression import (
    APPENDIX_C,
    LEMMA_9,
    LEMMA_12,
    LEMMA_13,
    REMARK_1,
    REMARK_2,
    feature_model,
    kernel_posterior,
    kernel_posterior_hp,
)
from tvbo_verify.verify.comparison import check_sharpening
from tvbo_verify.verify.stats import Instance

P = {"part": "variance", "n": 12, "lengthscale": 0.2, "lam": 0.5, "played": [1, 4, 4, 9, 11],
     "weights": [1.0, 1.5, 2.0, 2.0, 4.0], "x": 3}


def test_feature_model_reproduces_the_kernel_variance():
    model, Phi = feature_model(P)
    res = kernel_posterior(P, SEGrid.points(P))
    np.testing.assert_allclose([model.variance(f) for f in Phi], res.var, atol=1e-9)
    np.testing.assert_allclose([model.loose_variance(f) for f in Phi], res.loose_var, atol=1e-9)


def test_kernel_posterior_hp_agrees_with_float():
    mpmath.mp.dps = 50
    m, v, lv = kernel_posterior_hp(P, [0, 3, 7], [0.1, -0.2, 0.3, 0.0, 1.0])
    res = kernel_posterior(P, SEGrid.points(P)[[0, 3, 7]], np.array([0.1, -0.2, 0.3, 0.0, 1.0]))
    np.testing.assert_allclose([float(a) for a in m], res.mean, atol=1e-10)
    np.testing.assert_allclose([float(a) for a in v], res.var, atol=1e-10)
    np.testing.assert_allclose([float(a) for a in lv], res.loose_var, atol=1e-10)


def test_lemma_12_holds_and_its_misreading_is_w_t_away():
    c = LEMMA_12.evaluate(P)
    assert Instance(P, c).margin > 0
    s = LEMMA_12.evaluate(P, sharpened=True)
    check_sharpening(c, s)
    assert float(s.bound) == pytest.approx(float(c.bound) / 4.0)
    mpmath.mp.dps = 50
    h = LEMMA_12.hp(P)
    assert abs(float(h.value) - float(h.bound)) < 1e-30
    # with w_t = 1 the misreading coincides with the statement: the measurement could confirm it
    q = {**P, "weights": [0.25, 0.5, 0.5, 0.75, 1.0]}
    assert float(LEMMA_12.evaluate(q, sharpened=True).bound) == pytest.approx(float(LEMMA_12.evaluate(q).bound))


def test_lemma_13_negative_control_and_index_shift():
    c = LEMMA_13.evaluate(P)
    assert float(c.value) <= float(c.bound) + 1e-12
    s = LEMMA_13.evaluate(P, sharpened=True)
    assert float(s.bound) == pytest.approx(float(c.bound) * 2.0 / 4.0)
    psd = LEMMA_13.evaluate({**P, "part": "psd"})
    assert psd.sense == ">=" and float(psd.value) > -1e-12
    rng = np.random.default_rng(3)
    excess = []
    for _ in range(40):
        p = PlayedSequence.sample(rng, decreasing=True)
        if p["part"] == "variance":
            d = LEMMA_13.evaluate(p)
            excess.append(float(d.value) - float(d.bound))
    assert max(excess) > 0  # decreasing weights do break σ̃ <= σ̂ somewhere


def test_appendix_c_reports_the_worst_entry_and_its_misreading():
    p = {**P, "part": "scale", "c": 10.0, "y": [0.5, -1.0, 0.2, 0.3, -0.4]}
    c = APPENDIX_C.evaluate(p)
    assert abs(float(c.value) - float(c.bound)) <= float(c.tol)
    s = APPENDIX_C.evaluate(p, sharpened=True)
    check_sharpening(c, s)
    assert abs(float(s.value) - float(s.bound)) > 1e-3  # λ/c or λ w_t changes the posterior
    assert "at x_" in APPENDIX_C.describe(p)["worst entry"]
    # c = 1 and w_t = 1: the misreading is the same problem, so the measurement would confirm it
    q = {**p, "c": 1.0, "weights": [0.25, 0.5, 0.5, 0.75, 1.0]}
    cq, sq = APPENDIX_C.evaluate(q), APPENDIX_C.evaluate(q, sharpened=True)
    assert float(sq.bound) == pytest.approx(float(cq.bound), abs=1e-12)
    mpmath.mp.dps = 50
    h = APPENDIX_C.hp(p)
    assert abs(float(h.value) - float(h.bound)) < 1e-30


def _holds_and_sharpens(st, p, material=True):
    c = st.evaluate(p)
    assert Instance(p, c).margin > 0
    s = st.evaluate(p, sharpened=True)
    check_sharpening(c, s)
    if material:
        assert Instance(p, s).margin < 0
    mpmath.mp.dps = 50
    h = st.hp(p)
    assert abs(h.value - h.bound) < mpmath.mpf(10) ** -30
    assert float(h.value) == pytest.approx(float(c.value), rel=1e-9, abs=1e-12)
    return c, s


def test_remark_1_linear_kernel():
    rng = np.random.default_rng(1)
    p = {"d": 3, "t": 6, "disc": 0.7, "lam": 0.5, "X": rng.normal(size=(6, 3)).tolist(),
         "y": rng.normal(size=6).tolist(), "x": rng.normal(size=3).tolist()}
    _holds_and_sharpens(REMARK_1, p)
    # γ -> 1: the absolute weights are all 1 and the misreading coincides with the statement
    q = {**p, "disc": 1.0 - 1e-15}
    assert float(REMARK_1.evaluate(q, sharpened=True).bound) == pytest.approx(float(REMARK_1.evaluate(q).bound))


@pytest.mark.parametrize("part", ["mean", "variance", "loose variance", "gain"])
def test_remark_2_parts(part):
    p = {"part": part, "n": 10, "lengthscale": 0.2, "kind": "tilde", "played": [1, 3, 3, 8],
         "y": [0.4, -0.3, 1.0, 0.2], "x": 2}
    stated, sharpened = _holds_and_sharpens(REMARK_2, p)
    assert float(sharpened.value) == float(stated.value)  # the sharpening moves the stated side only
    assert float(sharpened.bound) != pytest.approx(float(stated.bound), rel=1e-3)


@pytest.mark.parametrize("weighting", ["discount", "random"])
def test_lemma_9_forms(weighting):
    p = {"n": 12, "lengthscale": 0.2, "lam": 0.3, "played": [0, 5, 5, 11], "y": [0.4, -0.3, 1.0, 0.2], "x": 4,
         "weighting": weighting, "disc": 0.6, "weights": [3.0, 0.2, 1.5, 40.0]}
    _holds_and_sharpens(LEMMA_9, p)
    assert LEMMA_9.describe(p)["w_t"] == pytest.approx(40.0 if weighting == "random" else 0.6**-4)
