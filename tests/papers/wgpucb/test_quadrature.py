"""Statements of ``claims/wgpucb/quadrature.py`` (Lemma 14, the QFF weights)."""

from __future__ import annotations

import math

import mpmath
import pytest

from tvbo_verify.papers.wgpucb.checks.quadrature import (
    CATALOG_TABLE,
    LEMMA_14,
    QFF_WEIGHTS,
    QFF_WEIGHTS_CORRECTED,
    uniform_error,
)
from tvbo_verify.verify.comparison import check_sharpening
from tvbo_verify.verify.stats import Instance


def test_catalog_table_holds_and_one_node_breaks_for_long_lengthscales():
    for p in CATALOG_TABLE:
        assert Instance(p, LEMMA_14.evaluate(p)).margin > 0
    p = {"d": 1, "mbar": 1, "lengthscale": 3.0}
    c = LEMMA_14.evaluate(p)  # one node: k̂ = 1, error 1 − e^{−1/(2l²)} at the diameter of D
    assert float(c.value) == pytest.approx(1 - math.exp(-1 / 18), rel=1e-9)
    assert float(c.bound) == pytest.approx(math.e / (36 * math.sqrt(2)), rel=1e-12)
    mpmath.mp.dps = 50
    h = LEMMA_14.hp(p)
    assert h.value > h.bound
    with pytest.raises(ValueError, match="float64 cannot resolve"):
        LEMMA_14.evaluate({"d": 1, "mbar": 30, "lengthscale": 5.0})


def test_printed_weights_inflate_the_diagonal_and_corrected_ones_do_not():
    p = {"part": "diagonal", "d": 2, "mbar": 6, "lengthscale": 0.3, "x": [0.2, 0.9]}
    assert float(QFF_WEIGHTS.evaluate(p).value) == pytest.approx(36.0)
    c = QFF_WEIGHTS_CORRECTED.evaluate(p)
    assert Instance(p, c).margin > 0
    s = QFF_WEIGHTS_CORRECTED.evaluate(p, sharpened=True)
    check_sharpening(c, s)
    assert float(s.bound) == pytest.approx(math.pi)
    mpmath.mp.dps = 50
    assert abs(QFF_WEIGHTS_CORRECTED.hp(p).value - 1) < mpmath.mpf(10) ** -40
    u = {"part": "uniform", "d": 1, "mbar": 20, "lengthscale": 0.2}
    assert Instance(u, QFF_WEIGHTS.evaluate(u)).margin < 0 < Instance(u, QFF_WEIGHTS_CORRECTED.evaluate(u)).margin
    err, x, y = uniform_error(u)
    assert err < 1e-3 and x.shape == (1,) and y.shape == (1,)
