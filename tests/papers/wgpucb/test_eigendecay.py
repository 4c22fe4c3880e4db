"""Statements of ``claims/wgpucb/eigendecay.py`` (Corollary 8)."""

from __future__ import annotations

import mpmath
import pytest

from tvbo_verify.papers.wgpucb.checks.eigendecay import (
    CATALOG_TAIL,
    COROLLARY_8_EXPONENTIAL,
    COROLLARY_8_POLYNOMIAL,
    COROLLARY_8_POLYNOMIAL_CORRECTED,
    PAPER_MATERN,
    horizon,
)
from tvbo_verify.verify.comparison import check_sharpening
from tvbo_verify.verify.stats import Instance


def test_catalog_tail_breaks_the_printed_step_and_not_the_corrected_one():
    c = COROLLARY_8_POLYNOMIAL.evaluate(CATALOG_TAIL)
    assert float(c.value) == pytest.approx(1.6123753, rel=1e-6) and float(c.bound) == 1.0
    mpmath.mp.dps = 50
    h = COROLLARY_8_POLYNOMIAL.hp(CATALOG_TAIL)
    assert h.value > h.bound
    corrected = COROLLARY_8_POLYNOMIAL_CORRECTED.evaluate(CATALOG_TAIL)
    assert Instance(CATALOG_TAIL, corrected).margin > 0
    sharp = COROLLARY_8_POLYNOMIAL_CORRECTED.evaluate(CATALOG_TAIL, sharpened=True)
    check_sharpening(corrected, sharp)
    assert Instance(CATALOG_TAIL, sharp).margin < 0  # the printed reading, as its sharpening


def test_bounds_hold_on_the_paper_grid_and_exponential_tail():
    p = PAPER_MATERN[1]
    c = COROLLARY_8_POLYNOMIAL_CORRECTED.evaluate(p)
    assert float(c.value) <= float(c.bound)
    e = {"part": "bound", "kernel": "se", "n": 50, "lengthscale": 0.2, "lam": 1.0, "disc": 0.9}
    ce = COROLLARY_8_EXPONENTIAL.evaluate(e)
    assert float(ce.value) <= float(ce.bound)
    t = {"part": "tail", "C": 1.0, "rate": 0.3, "N": 4}
    assert Instance(t, COROLLARY_8_EXPONENTIAL.evaluate(t)).margin > 0
    assert horizon(0.5) < horizon(0.9) <= horizon(0.99) == 400
