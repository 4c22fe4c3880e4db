"""Helpers of ``claims/wsparq/sliding_window.py``."""

import math

import pytest

from tvbo_verify.papers.wsparq.checks import sliding_window as L
from tvbo_verify.theory import derivations as dv


@pytest.mark.parametrize("alpha, T", [(1.5, 1e6), (3.0, 1e4), (1.1, 300.0)])
def test_numerical_argmin_finds_the_derived_minimiser(alpha, T):
    assert L.numerical_argmin(alpha, T) == pytest.approx(dv.l_star_function()(alpha, T), rel=1e-6)
    assert abs(L.printed_l_star(alpha, T) / L.numerical_argmin(alpha, T) - 2 ** (-1 / (alpha + 1))) < 1e-6


def test_ladder_holds_away_from_the_minimiser_and_breaks_near_it():
    margins = [L.L_STAR_PRINTED.evaluate(p).margin for p in L.window_length_ladder()]
    assert any(m > 0 for m in margins)
    assert L.L_STAR_PRINTED.evaluate({"alpha": 1.5, "T": 10**6}).margin < 0


def test_corrected_parts_agree_with_their_derivations():
    for p in ({"part": "argmin", "alpha": 2.0, "T": 10**5}, {"part": "t0", "alpha": 2.5},
              {"part": "exponent", "alpha": 1.7, "T": 1000, "T2": 10**6}):
        c = L.L_STAR_CORRECTED.evaluate(p)
        assert c.margin > 0, p
        assert L.L_STAR_CORRECTED.evaluate(p, sharpened=True).margin < 0, p
    assert L.derived_f_exponent()(3.0) == pytest.approx(-0.75)
    assert L.printed_t0(2.0) == pytest.approx(math.sqrt(2.0))
