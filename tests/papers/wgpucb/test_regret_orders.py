"""Statements of ``claims/wgpucb/regret_orders.py`` (Lemmas 22–23)."""

from __future__ import annotations

import math

import mpmath
import pytest

from tvbo_verify.papers.wgpucb.checks.regret_orders import (
    LEMMA_22,
    LEMMA_23,
    TABULATED,
    conclusion,
    explicit_terms,
    finite_slope,
)
from tvbo_verify.verify.comparison import check_sharpening
from tvbo_verify.verify.stats import Instance


def test_terms_in_float_and_mpmath_agree():
    f = explicit_terms(1e6, 10.0, 5.0, True)
    with mpmath.workdps(30):
        m = explicit_terms(mpmath.mpf(10) ** 6, mpmath.mpf(10), mpmath.mpf(5), True, mpmath)
    for a, b in zip(f, m):
        assert a == pytest.approx(float(b), rel=1e-10)
    # γ^c <= 1/T: the third term is at most 4/(1 − γ)
    x = 10.0**-0.25 * math.sqrt(5.0) / 1e3
    assert f[2] <= 4 / x


@pytest.mark.parametrize("st", [LEMMA_22, LEMMA_23])
@pytest.mark.parametrize("term", range(5))
def test_asymptotic_slopes_are_the_tabulated_exponents(st, term):
    p = {"term": term, "gdot": 37.0, "budget": 3.0}
    c = st.evaluate(p)
    assert c.value == pytest.approx(float(TABULATED[term]), abs=1e-9)
    s = st.evaluate(p, sharpened=True)
    check_sharpening(c, s)
    assert Instance(p, s).margin < 0
    mpmath.mp.dps = 50
    assert Instance(p, st.hp(p)).margin > 0


def test_finite_horizons_show_the_first_term_below_its_rate_for_large_gdot():
    assert finite_slope({"term": 0, "gdot": 1000.0, "budget": 1.0}, True) < 0.6
    assert conclusion(True)["max tabulated exponent of T"] == "3/4"
    with pytest.raises(ValueError, match="variation_budget"):
        LEMMA_22.evaluate({"term": 0, "gdot": 1.0, "budget": 1e5})
