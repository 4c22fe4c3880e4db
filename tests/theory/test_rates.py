"""Tests of tvbo_verify.theory.rates against independent computations."""

import math

import numpy as np
import pytest

from tvbo_verify.information import tv_information_gain
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.theory import rates as Ra


def test_block_bound_readings():
    T, N, e, g, s2 = 100, np.array([1, 5, 10]), 0.01, np.array([0.5, 1.0, 1.5]), 1e-3
    assert np.allclose(Ra.block_bound(T, N, e, g), (T / N + 1) * (g + N**3 * e))
    assert np.allclose(Ra.block_bound(T, N, e, g, noise_var=s2, reading="corrected"),
                       (T / N + 1) * (g + N / 2 * np.log(1 + N**1.5 * e / s2)))
    lin = Ra.block_bound(T, N, e, g, noise_var=s2, reading="corrected-linear")
    assert np.all(lin >= Ra.block_bound(T, N, e, g, noise_var=s2, reading="corrected") - 1e-12)
    with pytest.raises(ValueError, match="block must be in"):
        Ra.block_bound(10, 11, 0.1, 1.0)


def test_corrected_block_bound_dominates_per_sequence_information():
    # corrected (21) per sequence, a constant sequence on one point (papers/tvgpucb/READING.md §tvgpucb:eq-21+corrected)
    k = SquaredExponential(1.0, 0.2)
    s2, eps, T = 1e-3, 0.01, 40
    X = np.zeros((T, 1))
    info = tv_information_gain(k, X, s2, eps)
    def gamma_N(N):  # exact gamma_N on a single point: 1/2 log(1 + N/s2)
        return 0.5 * np.log1p(N / s2)

    _, corrected = Ra.block_bound_minimum(T, eps, gamma_N, noise_var=s2, reading="corrected")
    _, printed = Ra.block_bound_minimum(T, eps, gamma_N, noise_var=s2, reading="printed")
    assert info <= corrected
    assert info > printed  # the printed (21) fails at small sigma^2 (tvgpucb §3.3)


def test_tvgpucb_and_rgpucb_bounds():
    c1 = 8 / math.log(1 + 1 / 0.01)
    assert Ra.c1_constant(0.01) == pytest.approx(c1)
    assert Ra.tvgpucb_regret_bound(100, 10.0, 5.0, 0.01) == pytest.approx(math.sqrt(c1 * 100 * 10 * 5) + 2)
    p = Ra.rgpucb_regret_bound(100, 5, 1e-4, 10.0, 2.0, 1.0)
    s = Ra.rgpucb_regret_bound(100, 5, 1e-4, 10.0, 2.0, 1.0, reading="safe")
    assert s > p > math.sqrt(8 / math.log(2) * 100 * 10 * 21 * 2) + 2


def test_wgpucb_theorems():
    c = 0.5 ** np.arange(1, 40)
    assert Ra.eigen_tail(c, 2.0, 3) == pytest.approx(4 * c[3:].sum())
    assert Ra.wgpucb_theorem6(200, 4, 0.01) == pytest.approx(2 * math.log(1 + 200 / 4) + 200 * 0.01 / 2)
    assert Ra.wgpucb_theorem7(0.9, 4, 0.01) == pytest.approx(2 * math.log(1 + 1 / (4 * 0.19)) + 0.01 / (2 * 0.19))
    assert Ra.wgpucb_theorem7(0.9, 4, 0.01, kind="tilde") == pytest.approx(2 * math.log(1 + 1 / 0.4) + 0.01 / 0.2)
    pr = Ra.wgpucb_corollary8_polynomial(0.9, 1.0, 1.5, 1.0)
    co = Ra.wgpucb_corollary8_polynomial(0.9, 1.0, 1.5, 1.0, reading="corrected")
    assert co > pr  # the 1/(beta_p - 1) = 2 factor enlarges the bound for beta_p < 2
    q = 1 - 0.81
    assert Ra.wgpucb_corollary8_exponential(0.9, 1.0, 0.5, 1.0) == pytest.approx(
        ((math.log(1 / q) + math.log(2.0)) / 0.5 + 1) * math.log(1 + 1 / q))


def test_regret_bounds_exponents_and_values():
    T = np.array([1e6, 1e7])
    b = Ra.regret_bound("wsparq:thm-3.10")
    v = b(T, alpha_tilde=0.25, d=1)
    assert np.allclose(v, np.sqrt(T**1.75 * np.log(T) ** 4))
    assert b.exponent_of_T(alpha_tilde=0.25, d=1) == pytest.approx(7 / 8)
    for name, params in [("wsparq:prop-2.2", dict(alpha=0.2, d=1)), ("wgpucb:cor-5-known", dict(gamma_dot=3, B_T=2)),
                         ("tvgpucb:thm-4.1", dict(epsilon=0.1)), ("wsparq:gp-ucb-derived", dict(alpha=0.5, d=1))]:
        bound = Ra.regret_bound(name)
        big = np.array([1e10, 1e11])
        slope = np.diff(np.log(bound(big, **params)))[0] / math.log(10)
        assert slope == pytest.approx(bound.exponent_of_T(**params), abs=0.2)  # polylog allowance
    with pytest.raises(ValueError, match="needs parameter"):
        b(T, d=1)
    with pytest.raises(ValueError, match="bound must be one of"):
        Ra.regret_bound("nope")


def test_query_regime():
    T, a, at = 10**4, 2.0, 0.25
    thr = T ** (2 / 3)
    assert Ra.query_regime(thr / 2, T, a, at, 5000).can_be_sufficient is False
    assert Ra.query_regime(6000, T, a, at, 5000).can_be_sufficient is True
    assert Ra.query_regime(2 * thr, T, a, at, 5000).can_be_sufficient is None
    assert Ra.query_regime(10, T, 0.2, at, 5000).can_be_sufficient is True
    assert Ra.query_regime(10, T, 0.8, at, 5000).can_be_sufficient is None
    assert len(Ra.TABLE_1) == 3 and len(Ra.TABLE_2) == 4


def test_wgpucb_corollary5_terms_scale_as_claimed():
    # Lemma 22 (known B_T): terms 1-2 ~ g^(7/8) B^(1/4) T^(3/4), term 3 ~ g^(1/4) B^(-1/2) T^(1/2), terms 4-5 ~ B^(-1/2)
    g, B = 10.0, 5.0
    Ts = np.array([1e4, 1e6, 1e8])
    known = np.array([Ra.wgpucb_corollary5_terms(T, g, B) for T in Ts])
    claims = np.array([[g**0.875 * B**0.25 * T**0.75, g**0.875 * B**0.25 * T**0.75, g**0.25 * B**-0.5 * T**0.5,
                        B**-0.5, B**-0.5] for T in Ts])
    ratios = known / claims
    assert np.allclose(ratios, ratios[0], rtol=1e-9)
    # Lemma 23 (unknown B_T): term 2 ~ g^(7/8) B T^(3/4), term 4 ~ B, term 5 ~ 1
    unk = np.array([Ra.wgpucb_corollary5_terms(T, g, B, known=False) for T in Ts])
    claims_u = np.array([[g**0.875 * T**0.75, g**0.875 * B * T**0.75, g**0.25 * T**0.5, B, 1.0] for T in Ts])
    r = unk / claims_u
    assert np.allclose(r, r[0], rtol=1e-9)


def test_wgpucb_theorem4_bound():
    v = Ra.wgpucb_theorem4_bound(100, 2.0, 3.0, 0.9, 10, 4, 1e-3, B=1.0, B_T=2.0, lam=1.0)
    lg = math.log(1 / 0.9)
    expected = (4 * math.sqrt(4 * 100 * 3 + 8 * 1e4 * lg) + 2 * 10**1.5 * 2 * math.sqrt(12 + 80 * lg)
                + 4 * 0.9**10 * 100 / 0.1 + 2 * 2 * 100 * 1e-3 + 4 * 100 * 1e-3)
    assert v == pytest.approx(expected)
