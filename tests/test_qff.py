"""Quadrature Fourier features of the SE kernel (``tvbo_verify.qff``)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from numpy.polynomial.hermite import hermgauss

from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.qff import (
    QuadratureFourierFeatures,
    hermite_nodes,
    hermite_nodes_mp,
    qff_error_bound,
    qff_error_bound_mp,
    qff_kernel_mp,
    qff_weights,
    qff_weights_mp,
)


@pytest.mark.parametrize("mbar", [1, 2, 5, 17, 40])
def test_corrected_weights_are_the_normalised_gauss_hermite_weights(mbar):
    nodes, w = hermgauss(mbar)
    np.testing.assert_allclose(hermite_nodes(mbar), nodes)
    np.testing.assert_allclose(qff_weights(mbar), w / math.sqrt(math.pi), rtol=1e-9)
    assert qff_weights(mbar).sum() == pytest.approx(1.0, rel=1e-12)
    assert qff_weights(mbar, "printed").sum() == pytest.approx(mbar, rel=1e-12)


@pytest.mark.parametrize("d", [1, 2])
def test_features_approximate_the_se_kernel_and_printed_weights_inflate_the_diagonal(d):
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(30, d))
    q = QuadratureFourierFeatures(0.3, 20, d)
    assert q.features(X).shape == (30, 2 * 20**d)
    np.testing.assert_allclose(q.kernel(X), SquaredExponential(1.0, 0.3)(X), atol=1e-8)
    err, i, j = q.uniform_error(X)
    assert err < 1e-8 and 0 <= i < 30 and 0 <= j < 30
    printed = QuadratureFourierFeatures(0.3, 4, d, "printed")
    np.testing.assert_allclose(np.diag(printed.kernel(X)), 4.0**d)


def test_mpmath_twins_agree_with_float():
    mpmath.mp.dps = 50
    np.testing.assert_allclose([float(v) for v in hermite_nodes_mp(12)], hermite_nodes(12), rtol=1e-13)
    np.testing.assert_allclose([float(v) for v in qff_weights_mp(12, "printed")], qff_weights(12, "printed"),
                               rtol=1e-10)
    q = QuadratureFourierFeatures(0.25, 7, 2)
    x, y = np.array([0.1, 0.7]), np.array([0.9, 0.2])
    assert float(qff_kernel_mp(x, y, 0.25, 7)) == pytest.approx(float(q.kernel(x[None], y[None])[0, 0]), abs=1e-12)


def test_invalid_parameters_raise():
    with pytest.raises(ValueError, match="mbar"):
        QuadratureFourierFeatures(0.2, 0)
    with pytest.raises(ValueError, match="reading"):
        qff_weights(3, "normalised")
    with pytest.raises(ValueError, match="lengthscale"):
        QuadratureFourierFeatures(-1.0, 3)


def test_lemma_14_bound_readings_and_the_catalog_table():
    # papers/wgpucb/READING.md §wgpucb:lemma-14 table (d = 1, l = 0.2): 320, 142, 2.7e-2, 2.8e-8
    for mbar, ref in ((5, 320), (10, 142), (20, 2.7e-2), (30, 2.8e-8)):
        assert qff_error_bound(mbar, 1, 0.2) == pytest.approx(ref, rel=0.05)
    assert qff_error_bound(1, 1, 0.5, "literal") == pytest.approx(qff_error_bound(1, 1, 0.5))
    assert qff_error_bound(8, 2, 0.5, "literal") > qff_error_bound(8, 2, 0.5)
    mpmath.mp.dps = 50
    assert float(qff_error_bound_mp(17, 2, 0.3)) == pytest.approx(qff_error_bound(17, 2, 0.3), rel=1e-12)
