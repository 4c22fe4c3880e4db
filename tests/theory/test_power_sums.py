"""Tests of tvbo_verify.theory.power_sums against direct summation, Faulhaber and the Hurwitz zeta."""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from tvbo_verify.theory import lower_bounds as LB
from tvbo_verify.theory.power_sums import DIRECT_LIMIT, power_sum


@pytest.mark.parametrize("a", [0.001, 0.37, 1.5, 2.999, 6.4])
def test_euler_maclaurin_matches_direct_summation_past_the_direct_limit(a):
    n = DIRECT_LIMIT + 123_457  # first branch past the direct sum
    direct = math.fsum(np.arange(1, n + 1, dtype=float) ** a)
    got = power_sum(n, a)
    assert got.value == pytest.approx(direct, rel=1e-14)
    assert got.error_bound <= 1e-20 * direct


def zeta_expansion(n: int, a: float):
    """``Σ_{k<=n} k^a = ζ(-a) + n^{a+1}/(a+1) + n^a/2 + Σ_j B_{2j}/(2j)! (a)_{2j-1} n^{a-2j+1}`` at 40 digits
    (the expansion at infinity anchored at ``ζ(-a)``, DLMF 25.11.43 with ``q = n + 1``: no head sum, and
    mpmath's Hurwitz zeta itself takes minutes at ``s < 0`` and large ``q``)."""
    with mpmath.workdps(40):
        a, x = mpmath.mpf(a), mpmath.mpf(n)
        total = mpmath.zeta(-a) + x ** (a + 1) / (a + 1) + x**a / 2
        for j in range(1, 15):
            total += mpmath.bernoulli(2 * j) / mpmath.factorial(2 * j) * mpmath.ff(a, 2 * j - 1) * x ** (a - 2 * j + 1)
        return total


@pytest.mark.parametrize("n", [10**7, 10**9, 10**12 - 1, 10**18])
@pytest.mark.parametrize("a", [0.001, 0.5, 1.25, 3.7])
def test_euler_maclaurin_matches_the_zeta_expansion(n, a):
    exact = zeta_expansion(n, a)
    got = power_sum(n, a)
    assert got.value == pytest.approx(float(exact), rel=1e-14)
    assert got.error_bound <= 1e-20 * float(exact)


def test_integer_powers_are_exact_as_faulhaber():
    n = 10**15 + 7
    faulhaber = {1: n * (n + 1) // 2, 2: n * (n + 1) * (2 * n + 1) // 6, 3: (n * (n + 1) // 2) ** 2}
    for a, exact in faulhaber.items():
        got = power_sum(n, float(a))
        assert got.error_bound == 0.0  # the 11th derivative of a cubic vanishes
        assert Fraction(got.value) == pytest.approx(Fraction(exact), rel=1e-15)


def test_small_and_degenerate_cases():
    assert power_sum(0, 2.0).value == 0.0
    assert power_sum(5, 0.0).value == 5.0
    assert power_sum(4, 2.0).value == 30.0


@pytest.mark.parametrize("n, a", [(10**12, 30.0), (10, 400.0), (2 * DIRECT_LIMIT, 60.0)])
def test_sums_beyond_float64_raise_overflow(n, a):
    with pytest.raises(OverflowError):
        power_sum(n, a)


def test_cumulative_variance_at_a_trillion_steps_needs_no_zeta(monkeypatch):
    """The calculator stalled for minutes in mpmath's Hurwitz zeta at T = 10^12 (alpha = 0.001)."""
    def refuse(*args, **kwargs):
        raise AssertionError("Hurwitz zeta called: minutes at large T")

    monkeypatch.setattr(mpmath, "zeta", refuse)
    T, a, s2 = 10**12, 0.001, 0.001
    v = LB.cumulative_variance(T, a, s2)
    monkeypatch.undo()
    exact = s2 * (T + zeta_expansion(T - 1, a))
    assert v == pytest.approx(float(exact), rel=1e-14)
