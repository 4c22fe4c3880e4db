"""Tests of tvbo_verify.theory.correlation_sums: closed-form integrals, Euler–Maclaurin sums, tail bounds."""

import math

import numpy as np
import pytest
from scipy import integrate, special

from tvbo_verify.kernels import temporal_kernel
from tvbo_verify.theory import correlation_sums as C

KERNELS = ["se", "matern12", "matern32", "matern52", "rq"]


@pytest.mark.parametrize("name", KERNELS)
def test_integrals_match_quadrature(name):
    prof = C.squared_correlation(temporal_kernel(name, 1.0))
    for X in (1e-3, 0.5, 3.0, 20.0):
        expected = integrate.quad(prof.q, 0.0, X, limit=200)[0]
        assert prof.integral(X) == pytest.approx(expected, rel=1e-9)
        assert prof.integral(X) + prof.integral_beyond(X) == pytest.approx(prof.total, rel=1e-12)
    assert prof.integral(1e-200) == pytest.approx(1e-200, rel=1e-9)  # no underflow at tiny arguments


@pytest.mark.parametrize("name", KERNELS)
def test_partial_sums_match_the_plain_sum(name):
    prof = C.squared_correlation(temporal_kernel(name, 1.0))
    for n in (5000, 60_000):
        for h in (1e-6, 2e-3, 0.0099, 0.0101, 0.3, 5.0):
            exact = float(special.logsumexp(prof.log_q(np.arange(1, n + 1) * h)))
            assert C.log_partial_sum(prof, n, h) == pytest.approx(exact, abs=1e-12)


@pytest.mark.parametrize("name", KERNELS)
def test_tail_bound_is_an_upper_bound(name):
    prof = C.squared_correlation(temporal_kernel(name, 1.0))
    for h in (1e-3, 0.1, 1.0, 30.0):
        infinite = float(special.logsumexp(prof.log_q(np.arange(1, 3_000_000) * h)))
        assert C.log_tail_bound(prof, h) >= infinite - 1e-12
        assert C.log_tail_bound(prof, h) <= infinite + math.log(1.5)  # and not vacuous


def test_unsupported_kernels_are_refused():
    from tvbo_verify.kernels import RationalQuadratic

    with pytest.raises(ValueError, match="alpha > 1/4"):
        C.squared_correlation(RationalQuadratic(0.2, 1.0, 1.0))


@pytest.mark.parametrize("name", ["se", "matern12", "matern32", "matern52"])
def test_a_huge_spacing_leaves_the_first_term_and_no_overflow(name):
    # a temporal lengthscale of 1e-157 s: every lag beyond the first is infinitely far
    profile = C.squared_correlation(temporal_kernel(name, 1.0))
    h = 1e156
    assert C.log_partial_sum(profile, 5000, h) == pytest.approx(C._log_direct(profile, 1, h), abs=1e-12)
