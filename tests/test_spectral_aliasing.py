"""Log-space and aliased spectral densities, and the band-limited sinc kernel (``spectral``, ``kernels.Sinc``)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from tvbo_verify.kernels import RationalQuadratic, Sinc, temporal_kernel
from tvbo_verify.spectral import (
    aliased_spectral_density,
    log_aliased_spectral_density,
    log_spectral_density,
    mass_above_nyquist,
    spectral_cdf,
    spectral_density,
    spectral_survival,
)


@pytest.mark.parametrize("kernel", [temporal_kernel(n, 0.7) for n in ("se", "matern12", "matern32", "matern52")]
                         + [RationalQuadratic(2.5, 1.0, 0.7)])
def test_log_density_is_the_log_of_the_density(kernel):
    xi = np.array([0.0, 0.05, 0.5, 2.0])
    assert np.allclose(np.exp(log_spectral_density(kernel, xi)), spectral_density(kernel, xi), rtol=1e-12)


def test_log_density_of_se_does_not_underflow():
    k = temporal_kernel("se", 1.0)
    assert spectral_density(k, 100.0) == 0.0
    assert np.isfinite(log_spectral_density(k, 100.0))


def test_aliased_density_is_the_fourier_series_of_the_samples():
    k, c = temporal_kernel("matern12", 1.0), 0.5
    with mpmath.workdps(30):
        for xi in (0.0, 0.3, 1.0):
            z = mpmath.e ** (-c) * mpmath.expj(-2 * mpmath.pi * xi * c)
            exact = float(1 + 2 * mpmath.re(z / (1 - z)))
            assert aliased_spectral_density(k, c, xi) == pytest.approx(exact, rel=1e-14)
    assert np.isfinite(log_aliased_spectral_density(temporal_kernel("se", 1.0), 0.02, 0.0))


def test_sinc_kernel_is_band_limited():
    s = Sinc(1.0, 0.25)  # band B = 2
    assert float(s.of_distance(0.0)) == 1.0 and abs(float(s.of_distance(0.25))) < 1e-16
    assert float(s.rho_mp(mpmath.mpf(0.25))) == pytest.approx(float(s.rho(0.5)))
    assert list(spectral_density(s, [0.0, 1.9, 2.1])) == [0.25, 0.25, 0.0]
    assert spectral_cdf(s, 1.0) == 0.5 and spectral_survival(s, 1.0) == 0.5
    assert mass_above_nyquist(s, 0.25) == 0.0 and mass_above_nyquist(s, 0.5) == pytest.approx(0.5)
    assert np.isneginf(log_spectral_density(s, 3.0)) and log_spectral_density(s, 1.0) == pytest.approx(math.log(0.25))


def test_aliased_density_rejects_bad_period():
    with pytest.raises(ValueError, match="period"):
        aliased_spectral_density(temporal_kernel("se", 1.0), -1.0, 0.0)
