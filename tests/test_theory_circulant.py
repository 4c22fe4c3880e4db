"""Toeplitz/circulant helpers of ``bolt`` App. B and the oracle's one-step prediction (``theory.circulant``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.kernels import temporal_kernel
from tvbo_verify.theory.circulant import (
    centred_dft_eigenvalues,
    centred_frequencies,
    circulant_first_row,
    circulant_matrix,
    gray_norm,
    mean_sorted_eigenvalue_gap,
    one_step_prediction,
    szego_prediction_variance,
    toeplitz_gram,
)


def test_circulant_is_symmetric_and_its_eigenvalues_are_the_centred_dft_for_even_n():
    k = temporal_kernel("matern32", 1.0)
    for n in (8, 9, 16):
        C = circulant_matrix(circulant_first_row(k, 0.5, n))
        assert np.allclose(C, C.T)
        lam = centred_dft_eigenvalues(circulant_first_row(k, 0.5, n))
        if n % 2 == 0:
            assert np.max(np.abs(lam.imag)) < 1e-12
            assert np.allclose(np.sort(lam.real), np.linalg.eigvalsh(C), atol=1e-12)
        else:  # half-integer frequencies: (20) are not eigenvectors for odd n (papers/bolt/READING.md §5.5)
            assert not np.allclose(np.sort(lam.real), np.linalg.eigvalsh(C), atol=1e-6)


def test_gray_norm_matches_the_corner_sum():
    k, c, n = temporal_kernel("matern12", 1.0), 0.5, 64
    T, C = toeplitz_gram(k, c, n), circulant_matrix(circulant_first_row(k, c, n))
    m = np.arange(1, n)
    assert gray_norm(T, C) == pytest.approx(math.sqrt(2.0 / n * np.sum(m * np.exp(-2 * c * m))), rel=1e-12)
    assert gray_norm(T, C) == pytest.approx(0.170, abs=1e-3)  # (the corner-sum value at n = 64)
    assert mean_sorted_eigenvalue_gap(T, C) == pytest.approx(0.030, abs=1e-3)


def test_centred_frequencies_cover_the_nyquist_band():
    xi = centred_frequencies(0.5, 8)
    assert xi[0] == pytest.approx(-1.0) and xi[-1] < 1.0 and np.allclose(np.diff(xi), 0.25)


def test_one_step_prediction_of_a_markov_kernel():
    pred = one_step_prediction(temporal_kernel("matern12", 1.0), 0.5, 6)
    assert pred.weights[-1] == pytest.approx(math.exp(-0.5), rel=1e-10)
    assert np.allclose(pred.weights[:-1], 0.0, atol=1e-12)
    assert pred.variance == pytest.approx(1.0 - math.exp(-1.0), rel=1e-12)
    assert pred.explained == pytest.approx(math.exp(-1.0), rel=1e-12)


@pytest.mark.parametrize("name, c, expected",
                         [("matern32", 1.0, 0.7544), ("matern52", 0.5, 0.2141), ("se", 1.0, 0.5044)])
def test_szego_limit_matches_long_predictions(name, c, expected):
    k = temporal_kernel(name, 1.0)
    sz = szego_prediction_variance(k, c)
    assert sz == pytest.approx(expected, abs=1e-4)  # (long-run one-step prediction variances of these kernels)
    assert one_step_prediction(k, c, 100).variance == pytest.approx(sz, rel=1e-8)


def test_bad_inputs_name_the_parameter():
    k = temporal_kernel("se", 1.0)
    with pytest.raises(ValueError, match="period"):
        toeplitz_gram(k, 0.0, 4)
    with pytest.raises(ValueError, match="n"):
        one_step_prediction(k, 0.5, 0)
