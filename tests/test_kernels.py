"""Kernels: Gram matrices symmetric PSD, spectral densities normalised and Fourier-consistent."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate

from tvbo_verify.kernels import (
    ForgettingKernel,
    LinearKernel,
    Matern,
    RationalQuadratic,
    SpatioTemporalKernel,
    SquaredExponential,
    temporal_kernel,
)
from tvbo_verify.spectral import mass_above_nyquist, spectral_cdf, spectral_density, spectral_survival

KERNELS = [
    SquaredExponential(1.3, 0.4),
    Matern(0.5, 0.7, 0.3),
    Matern(1.5, 1.0, 0.5),
    Matern(2.5, 2.0, 0.2),
    RationalQuadratic(1.5, 1.0, 0.3),
    SquaredExponential(1.0, np.array([0.2, 0.9])),
]


@pytest.mark.parametrize("kernel", KERNELS, ids=repr)
@settings(max_examples=25)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 30))
def test_gram_is_symmetric_psd(kernel, seed, n):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(n, 2))
    K = kernel(X)
    assert K.shape == (n, n)
    assert np.array_equal(K, K.T)
    assert np.linalg.eigvalsh(K).min() >= -1e-10 * n * kernel.max_variance
    np.testing.assert_allclose(np.diag(K), kernel.diag(X), rtol=1e-12)


def test_cross_gram_shape_and_values():
    k = Matern(2.5, 1.0, 0.5)
    X, Y = np.array([[0.0], [1.0]]), np.array([[0.0], [0.5], [2.0]])
    K = k(X, Y)
    assert K.shape == (2, 3)
    r = math.sqrt(5) * 0.5 / 0.5
    assert K[0, 1] == pytest.approx((1 + r + r * r / 3) * math.exp(-r))
    assert K[1, 1] == pytest.approx(K[0, 1])


@pytest.mark.parametrize(
    "kernel",
    [temporal_kernel(n, 0.7) for n in ("se", "matern12", "matern32", "matern52", "rq")],
    ids=repr,
)
def test_spectral_density_integrates_to_one_and_inverts(kernel):
    total = 2 * integrate.quad(lambda z: float(spectral_density(kernel, z)), 0, np.inf, limit=400)[0]
    assert total == pytest.approx(1.0, abs=1e-7)
    for tau in (0.1, 0.5, 1.3):
        ift = 2 * integrate.quad(
            lambda z: float(spectral_density(kernel, z)), 0, np.inf, weight="cos", wvar=2 * np.pi * tau
        )[0]
        assert ift == pytest.approx(float(kernel.of_distance(tau)), abs=1e-7)
    assert spectral_cdf(kernel, 0.0) == 0.0
    assert 0 < mass_above_nyquist(kernel, 1.0) < 1


def test_forgetting_kernel_is_ar1_and_edges():
    k = ForgettingKernel(0.19)
    t = np.arange(5.0)[:, None]
    K = k(t)
    assert K[0, 3] == pytest.approx(0.81**1.5)
    assert np.linalg.eigvalsh(K).min() > 0
    np.testing.assert_array_equal(ForgettingKernel(1.0)(t), np.eye(5))
    np.testing.assert_array_equal(ForgettingKernel(0.0)(t), np.ones((5, 5)))


def test_spatio_temporal_is_product():
    ks, kt = SquaredExponential(1.0, 0.3), temporal_kernel("matern32", 2.0)
    k = SpatioTemporalKernel(ks, kt, signal_variance=2.5)
    Z = np.array([[0.1, 0.0], [0.4, 1.5], [0.9, 3.0]])
    np.testing.assert_allclose(k(Z), 2.5 * ks(Z[:, :1]) * kt(Z[:, 1:]))
    np.testing.assert_allclose(k.diag(Z), 2.5)


@pytest.mark.parametrize(
    "make, fragment",
    [
        (lambda: SquaredExponential(lengthscale=-1.0), "lengthscale must be > 0, got -1.0"),
        (lambda: SquaredExponential(variance=0.0), "variance must be > 0, got 0.0"),
        (lambda: Matern(nu=2.0), "nu must be one of"),
        (lambda: ForgettingKernel(1.5), "epsilon must be in [0, 1], got 1.5"),
        (lambda: SquaredExponential()(np.array([[np.nan]])), "X must contain only finite values"),
        (lambda: SquaredExponential(lengthscale=[1.0, 2.0])(np.zeros((2, 3))), "3)"),
        (lambda: temporal_kernel("cosine", 1.0), "temporal kernel must be one of"),
    ],
)
def test_invalid_parameters_are_named(make, fragment):
    with pytest.raises(ValueError) as info:
        make()
    assert fragment in str(info.value)


@pytest.mark.parametrize("name", ["se", "matern12", "matern32", "matern52", "rq"])
def test_survival_is_complement_of_cdf_and_keeps_tiny_tails(name):
    kernel = temporal_kernel(name, 0.7)
    for x in (0.0, 0.05, 0.3, 1.0):
        assert spectral_survival(kernel, x) == pytest.approx(1 - spectral_cdf(kernel, x), abs=1e-9)
    if name == "se":
        tail = spectral_survival(kernel, 5.0)  # 1 - erf(...) rounds to 0 in float64
        assert 1 - spectral_cdf(kernel, 5.0) == 0.0
        expected = float(__import__("mpmath").erfc(np.sqrt(2) * np.pi * 0.7 * 5.0))
        assert tail > 0 and tail == pytest.approx(expected, rel=1e-10)


@pytest.mark.parametrize("kernel", KERNELS[:5], ids=repr)
def test_mpmath_profile_matches_float_profile(kernel):
    import mpmath

    for r in (0.0, 0.3, 1.7):
        assert float(kernel.rho_mp(mpmath.mpf(r) ** 2)) == pytest.approx(float(kernel.rho(np.array(r))), rel=1e-14)


def test_linear_kernel_is_the_inner_product():
    rng = np.random.default_rng(0)
    X, Y = rng.normal(size=(4, 3)), rng.normal(size=(2, 3))
    k = LinearKernel(2.0)
    np.testing.assert_allclose(k(X, Y), 2.0 * X @ Y.T)
    np.testing.assert_allclose(k.diag(X), np.diag(k(X)))
    assert k.max_variance == math.inf
    with pytest.raises(ValueError, match="variance"):
        LinearKernel(0.0)
