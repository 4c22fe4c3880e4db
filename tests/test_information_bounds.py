"""Certified brackets of γ_T on finite domains: every bracket contains the brute-force maximum on small grids,
the upper bound is at least the greedy value everywhere, and the bracket is tight for SE in d = 1."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.information import exact_max_information_gain, max_information_gain
from tvbo_verify.information_bounds import KERNELS, GammaUpper, certified_gamma
from tvbo_verify.kernels import Matern, SquaredExponential


def kernel_object(name: str, lengthscale: float):
    nu = KERNELS[name]
    return SquaredExponential(1.0, lengthscale) if nu is None else Matern(nu, 1.0, lengthscale)


@pytest.mark.parametrize("kernel", sorted(KERNELS))
@pytest.mark.parametrize("T", [1, 2, 3])
def test_the_bracket_contains_the_brute_force_maximum_on_a_small_grid(kernel, T):
    X = np.linspace(0.0, 1.0, 5)[:, None]
    bracket = certified_gamma(kernel, X, T, lengthscale=0.3, noise_var=0.1)
    exact = exact_max_information_gain(kernel_object(kernel, 0.3), X, T, 0.1).value
    assert bracket.lower <= exact + 1e-12 and exact <= bracket.upper


@pytest.mark.parametrize("kernel", sorted(KERNELS))
@pytest.mark.parametrize("d", [1, 2, 3])
def test_the_upper_bound_is_at_least_the_greedy_value(kernel, d):
    side = {1: 30, 2: 6, 3: 3}[d]
    axis = np.linspace(0.0, 1.0, side)
    X = np.stack(np.meshgrid(*([axis] * d), indexing="ij"), -1).reshape(-1, d)
    bracket = certified_gamma(kernel, X, 40, lengthscale=0.25, noise_var=0.01)
    greedy = max_information_gain(kernel_object(kernel, 0.25), X, 40, 0.01)
    assert bracket.lower <= bracket.upper
    assert greedy.lower <= bracket.upper + 1e-9
    assert bracket.lower >= 0.99 * greedy.lower  # a set as good as the greedy one, scored exactly


@pytest.mark.parametrize("T", [100, 10_000])
def test_the_bracket_for_se_in_one_dimension_is_within_a_factor_two(T):
    bracket = certified_gamma("se", np.linspace(0.0, 1.0, 100)[:, None], T, lengthscale=0.2, noise_var=0.01)
    assert 1.0 <= bracket.ratio <= 2.0


@pytest.mark.parametrize("T", [1, 2, 3])
def test_the_upper_curve_is_at_least_the_brute_force_maximum_at_every_horizon(T):
    X = np.linspace(0.0, 1.0, 5)[:, None]
    curve = GammaUpper("se", X, lengthscale=0.3, noise_var=0.1)
    assert exact_max_information_gain(kernel_object("se", 0.3), X, T, 0.1).value <= curve(T)


def test_the_upper_curve_on_a_product_grid_is_the_spectral_bound_of_its_kronecker_eigenvalues():
    axis = np.linspace(0.0, 1.0, 6)[:, None]
    X = np.stack(np.meshgrid(axis[:, 0], axis[:, 0], indexing="ij"), -1).reshape(-1, 2)
    full, product = (GammaUpper("se", X, lengthscale=0.3, noise_var=0.01),
                     GammaUpper("se", None, lengthscale=0.3, noise_var=0.01, factors=[axis, axis]))
    for T in (10, 1000, 1e8):
        assert product.spectral(T) == pytest.approx(full.spectral(T), rel=1e-8)
        assert max_information_gain(kernel_object("se", 0.3), X, 10, 0.01).lower <= product(10)
    assert full(1e8) <= 0.5 * 1e8 * np.log1p(100.0)  # never above one term per point


def test_bad_inputs_name_the_parameter():
    with pytest.raises(ValueError, match="kernel"):
        certified_gamma("rbf", np.zeros((2, 1)), 3, lengthscale=0.2, noise_var=0.01)
    with pytest.raises(ValueError, match="noise_var"):
        certified_gamma("se", np.zeros((2, 1)), 3, lengthscale=0.2, noise_var=0.0)
