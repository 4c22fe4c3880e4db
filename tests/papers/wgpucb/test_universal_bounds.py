"""Statements of ``claims/wgpucb/universal_bounds.py`` (Lemmas 24–25, Theorem 6's γ̌ part)."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from tvbo_verify.papers.wgpucb.checks.universal_bounds import LEMMA_24, LEMMA_25, THEOREM_6_CHECK
from tvbo_verify.verify.comparison import check_sharpening
from tvbo_verify.verify.stats import Instance

BASE = {"n": 12, "lengthscale": 0.3, "lam": 0.5, "disc": 0.9, "T": 7, "N": 3, "seq": [0, 4, 4, 11, 7, 2, 9]}


@pytest.mark.parametrize("part", ["split", "projected term", "remainder term", "bound"])
def test_lemma_24_parts_hold_match_mpmath_and_sharpen(part):
    p = {"part": part, **BASE}
    c = LEMMA_24.evaluate(p)
    assert Instance(p, c).margin > 0
    s = LEMMA_24.evaluate(p, sharpened=True)
    check_sharpening(c, s)
    mpmath.mp.dps = 50
    h = LEMMA_24.hp(p)
    assert float(h.value) == pytest.approx(float(c.value), rel=1e-8, abs=1e-12)
    assert float(h.bound) == pytest.approx(float(c.bound), rel=1e-6, abs=1e-12)
    q = LEMMA_24.pieces(p)
    assert q["first"] + q["second"] == pytest.approx(q["whole"], rel=1e-10)


def test_qff_gain_bound_and_its_gap_to_the_true_kernel():
    p = {"n": 30, "lengthscale": 0.3, "mbar": 15, "lam": 1.0, "disc": 0.9, "T": 8, "sequence": "random",
         "seq": np.random.default_rng(0).integers(0, 30, 8).tolist(), "N": 5}
    check, tilde = LEMMA_25.gains(p)
    assert abs(check - tilde) < 1e-3  # m̄ = 15 nodes: the QFF Gram is within ~1e-5 of K
    for st in (LEMMA_25, THEOREM_6_CHECK):
        c = st.evaluate(p)
        assert Instance(p, c).margin > 0
    assert float(THEOREM_6_CHECK.evaluate(p).bound) <= float(LEMMA_25.evaluate(p).bound)
    mpmath.mp.dps = 30
    h = LEMMA_25.hp(p)
    assert float(h.value) == pytest.approx(check, rel=1e-7)
