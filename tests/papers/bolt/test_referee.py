"""mpmath twins used by the ``bolt`` claims (``tvbo_verify.highprecision``)."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from tvbo_verify import highprecision as rf
from tvbo_verify.kernels import temporal_kernel
from tvbo_verify.spectral import aliased_spectral_density, spectral_density


@pytest.mark.parametrize("name", ["se", "matern12", "matern32", "matern52"])
def test_spectral_and_aliased_densities_match_float64(name):
    k = temporal_kernel(name, 0.8)
    with mpmath.workdps(40):
        for xi in (0.0, 0.3, 1.7):
            assert float(rf.spectral_density_mp(k, xi)) == pytest.approx(float(spectral_density(k, xi)), rel=1e-12)
        assert float(rf.aliased_density_mp(k, 0.6, 0.4)) == pytest.approx(
            float(aliased_spectral_density(k, 0.6, 0.4)), rel=1e-11)
        assert float(rf.kernel_of_distance_mp(k, 1.3)) == pytest.approx(float(k.of_distance(1.3)), rel=1e-14)


def test_conditional_covariance_is_the_schur_complement():
    A = np.array([[2.0, 0.5], [0.5, 1.0]])
    K, ks, prior = rf.mpmat(A), rf.mpmat([[0.3], [0.2]]), mpmath.matrix([[1.0]])
    expected = 1.0 - np.array([0.3, 0.2]) @ np.linalg.solve(A, [0.3, 0.2])
    assert float(rf.conditional_covariance(K, ks, prior)[0, 0]) == pytest.approx(expected, rel=1e-14)
