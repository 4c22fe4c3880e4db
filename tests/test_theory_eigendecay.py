"""Eigendecay fits (``tvbo_verify.theory.eigendecay``) and the prescribed-spectrum Gram matrix."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from tvbo_verify import highprecision as rf
from tvbo_verify.information import gram_with_spectrum, mercer_on_grid
from tvbo_verify.theory.eigendecay import fit_eigen_decay
from tvbo_verify.theory.rates import wgpucb_corollary8_exponential, wgpucb_corollary8_polynomial


@pytest.mark.parametrize("kind,c", [
    ("exponential", 2.0 * np.exp(-0.7 * np.arange(1.0, 30))),
    ("polynomial", 3.0 * np.arange(1.0, 50) ** -1.8),
])
def test_fit_recovers_exact_decay_and_dominates_every_mode(kind, c):
    fit = fit_eigen_decay(c, kind)
    assert fit.C_2 == pytest.approx(0.7 if kind == "exponential" else 1.8, rel=1e-9)
    assert fit.C_1 == pytest.approx(2.0 if kind == "exponential" else 3.0, rel=1e-9)
    noisy = c * np.exp(0.1 * np.sin(np.arange(c.size)))
    fit = fit_eigen_decay(noisy, kind)
    m = np.arange(1.0, c.size + 1)
    bound = fit.C_1 * (np.exp(-fit.C_2 * m) if kind == "exponential" else m ** -fit.C_2)
    assert np.all(np.sort(noisy)[::-1] <= bound * (1 + 1e-12))


def test_fit_rejects_bad_input():
    with pytest.raises(ValueError, match="kind"):
        fit_eigen_decay([1.0, 0.5], "linear")
    with pytest.raises(ValueError, match="decay"):
        fit_eigen_decay([1.0, 1.0, 1.0], "polynomial")
    with pytest.raises(ValueError, match="at least 2"):
        fit_eigen_decay([1.0, 1e-20], "exponential")


def test_gram_with_spectrum_has_the_prescribed_mercer_weights():
    c = 0.5 * np.arange(1.0, 41) ** -1.3
    m = mercer_on_grid(gram_with_spectrum(c))
    np.testing.assert_allclose(m.c, c, rtol=1e-10)
    assert m.psi == pytest.approx(np.sqrt(2.0), rel=1e-9)
    with pytest.raises(ValueError, match="c must be"):
        gram_with_spectrum([1.0, -1.0])


def test_corollary_8_mp_twins_agree_with_float():
    mpmath.mp.dps = 50
    for reading in ("printed", "corrected"):
        f = wgpucb_corollary8_polynomial(0.9, 0.8, 1.6, 1.4, lam=0.5, kbar=1.2, reading=reading)
        m = rf.wgpucb_corollary8_polynomial_mp(0.9, 0.8, 1.6, 1.4, lam=0.5, kbar=1.2, reading=reading)
        assert float(m) == pytest.approx(f, rel=1e-12)
    f = wgpucb_corollary8_exponential(0.9, 2.0, 0.7, 1.4, lam=0.5, kbar=1.2)
    m = rf.wgpucb_corollary8_exponential_mp(0.9, 2.0, 0.7, 1.4, lam=0.5, kbar=1.2)
    assert float(m) == pytest.approx(f, rel=1e-12)
