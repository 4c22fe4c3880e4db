"""Helpers of ``tvbo_verify.papers.tvgpucb.checks.information_gain``."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from tvbo_verify.information import tv_information_gain
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.papers.tvgpucb.checks.information_gain import (
    EQ21_PRINTED,
    TinyDomain,
    corrected_block_term,
    corrected_block_term_mp,
)


def test_corrected_block_term_matches_its_formula_and_mpmath_twin():
    for n, eps, s2 in [(1, 0.01, 0.1), (7, 0.3, 1e-3), (20, 1e-4, 2.0)]:
        expected = n / 2 * math.log1p(n**1.5 * eps / s2)
        assert corrected_block_term(n, eps, s2) == pytest.approx(expected, rel=1e-13)
        with mpmath.workdps(50):
            assert float(corrected_block_term_mp(n, eps, s2)) == pytest.approx(expected, rel=1e-13)


def test_witness_is_at_least_the_constant_sequence():
    p = {"domain": [0.0, 0.5, 1.0], "lengthscale": 0.2, "noise_var": 0.01, "epsilon": 0.05, "T": 12}
    value, seq = TinyDomain.witness(p)
    const = tv_information_gain(SquaredExponential(1.0, 0.2), np.zeros((12, 1)), 0.01, 0.05)
    assert value >= const - 1e-12 and len(seq) == 12


def test_printed_block_bound_breaks_at_the_catalog_instance():
    inst = EQ21_PRINTED.instance({"domain": [0.0], "lengthscale": 0.2, "noise_var": 3e-4, "epsilon": 3e-3, "T": 10})
    assert inst.margin < -0.4
