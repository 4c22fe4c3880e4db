"""Helpers of ``claims/sparq/model.py``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.bandits.environments import SparqSynthetic
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.papers.sparq.checks.model import (
    bump_rkhs_norm,
    interpolant_norm,
    journal_coefficients,
    journal_function,
    sup_abs,
    uniform_drift_variance,
)


def test_sup_abs_refines_the_grid_maximiser():
    value, x = sup_abs(lambda z: np.sin(3 * np.asarray(z)), 0.0, 1.0, points=11)
    assert value == pytest.approx(1.0, abs=1e-10) and x == pytest.approx(math.pi / 6, abs=1e-6)


def test_sparq_function_drift_matches_its_analytic_bound():
    value, _ = sup_abs(lambda z: SparqSynthetic.value(z, 1.0) - SparqSynthetic.value(z, 0.0), -50, 50)
    assert value <= 0.05 * math.sqrt(10) * math.exp(-0.5)


def test_bump_norm_closed_form_against_grid_interpolants_and_its_domain():
    kern = SquaredExponential(0.5, 3.0)
    x = np.linspace(-50, 50, 161)
    assert interpolant_norm(kern, x, np.exp(-0.05 * x**2)) == pytest.approx(bump_rkhs_norm(10.0, kern), rel=1e-8)
    assert bump_rkhs_norm(10.0, SquaredExponential(0.5, 5.0)) == math.inf


def test_journal_coefficients_have_norm_B_at_real_times():
    env = journal_function()
    a = journal_coefficients(2.5)
    assert math.sqrt(a @ env._KZ @ a) == pytest.approx(5.0, rel=1e-12)
    assert np.allclose(journal_coefficients(3), env.coefficients(3))


def test_uniform_drift_variance_is_a_squared_over_three_plus_noise():
    assert uniform_drift_variance(6.0, 0.01) == pytest.approx(36 / 3 + 0.01, rel=1e-12)
