"""Statements of ``claims/wgpucb/mercer.py`` (Theorem 1, Assumption 1)."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from tvbo_verify.papers.wgpucb.checks.mercer import (
    ASSUMPTION_1,
    PAPER_GRID,
    THEOREM_1,
    RandomGridKernel,
    kernel_bound_ratio,
)
from tvbo_verify.verify.comparison import check_sharpening, material
from tvbo_verify.verify.stats import Instance

SMALL = {"kernel": "matern32", "variance": 1.3, "lengthscale": 0.3, "n": 7,
         "points": np.linspace(0.0, 1.0, 7).tolist()}


@pytest.mark.parametrize("part", THEOREM_1.PARTS)
def test_theorem_1_parts_hold_agree_with_mpmath_and_sharpen_materially(part):
    p = {"part": part, **SMALL, "support": [1, 4], "alpha": [0.7, -0.4]}
    c = THEOREM_1.evaluate(p)
    assert Instance(p, c).margin > 0
    s = THEOREM_1.evaluate(p, sharpened=True)
    check_sharpening(c, s)
    if part != "orthogonal":  # orthogonality has no misread variant
        assert material(c, s) and Instance(p, s).margin < 0
    mpmath.mp.dps = 50
    h = THEOREM_1.hp(p)  # at 50 digits the identities hold to far below float resolution
    assert abs(h.value - h.bound) < mpmath.mpf(10) ** -30


def test_random_kernels_cover_every_family_and_point_layout():
    rng = np.random.default_rng(0)
    seen = {RandomGridKernel.sample(rng)["kernel"] for _ in range(60)}
    assert seen == {"se", "matern12", "matern32", "matern52", "rq"}


def test_assumption_1_remainder_bound_and_psi_misreading():
    p = {**PAPER_GRID, "frac": 0.3}
    c = ASSUMPTION_1.evaluate(p)
    assert float(c.value) <= float(c.bound)
    s = ASSUMPTION_1.evaluate(p, sharpened=True)
    assert float(s.value) > float(s.bound)  # max k_O(x, x) exceeds its mean Σ_{m>N} c_m
    q = {**SMALL, "frac": 0.5}
    mpmath.mp.dps = 50
    h = ASSUMPTION_1.hp(q)
    cq = ASSUMPTION_1.evaluate(q)
    assert float(h.value) == pytest.approx(float(cq.value), rel=1e-8)
    assert float(h.bound) == pytest.approx(float(cq.bound), rel=1e-8)
    assert kernel_bound_ratio(SMALL) == pytest.approx(1.0)
