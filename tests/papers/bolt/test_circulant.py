"""Helpers of the ``bolt`` App. B checks (``tvbo_verify.papers.bolt.checks.circulant``)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from tvbo_verify.kernels import temporal_kernel
from tvbo_verify.papers.bolt.checks.circulant import (
    APPENDIX_B,
    EQ_27,
    EQ_28,
    EQ_28_CORRECTED,
    aliasing_table,
    centred_eigenvalues_mp,
    corner_sums,
)
from tvbo_verify.theory.circulant import circulant_first_row, circulant_matrix


def test_phase_is_minus_one_for_odd_n():
    assert EQ_27.evaluate({"part": "phase", "n": 5, "j": 1, "kT": "se", "c": 0.5}).value == pytest.approx(-1.0)
    assert EQ_27.evaluate({"part": "phase", "n": 6, "j": 1, "kT": "se", "c": 0.5}).margin > 0
    odd = {"part": "spectrum", "n": 7, "j": 3, "kT": "matern12", "c": 0.5}
    assert EQ_27.evaluate(odd).margin < 0 and EQ_27.evaluate({**odd, "n": 8}).margin > 0


def test_dft_sum_is_root_n_and_mp_eigenvalues_match():
    assert EQ_27.evaluate({"part": "dft-sum", "n": 9, "j": 0, "kT": "se", "c": 0.5}).value == pytest.approx(3.0)
    p = {"n": 8, "kT": "matern32", "c": 0.7}
    with mpmath.workdps(30):
        lam = [float(v) for v in centred_eigenvalues_mp(p)]
    C = circulant_matrix(circulant_first_row(temporal_kernel("matern32", 1.0), 0.7, 8))
    assert np.allclose(sorted(lam), np.linalg.eigvalsh(C), atol=1e-12)


def test_corner_sums_of_a_markov_kernel():
    first, second = corner_sums({"kT": "matern12", "c": 0.5})
    q = math.exp(-0.5)
    assert first == pytest.approx(q / (1 - q) ** 2, rel=1e-12) and second == pytest.approx(q**2 / (1 - q**2) ** 2)
    for part in ("dft", "gray", "gap"):
        c = APPENDIX_B.evaluate({"part": part, "n": 64, "j": 5, "kT": "matern12", "c": 0.5})
        assert c.margin >= -1e-15


def test_aliasing_explains_the_error_of_28():
    rows = aliasing_table()
    assert rows[-1]["printed_max_error"] == pytest.approx(0.146, abs=1e-3)  # papers/bolt/READING.md §5.4
    assert rows[-1]["aliased_max_error"] < 1e-10
    edge = {"kT": "matern12", "c": 0.5, "n": 256, "j": 0}
    assert EQ_28.evaluate(edge).margin < 0 and EQ_28_CORRECTED.evaluate(edge).margin >= 0
