"""Helpers of the ``bolt`` oracle checks (``tvbo_verify.papers.bolt.checks.oracle``)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import integrate
from scipy.stats import norm

from tvbo_verify.papers.bolt.checks.oracle import (
    LEMMA_C1,
    LEMMA_C3,
    Oracle,
    OraclePosterior,
    corrected_sigma_r2,
    expected_positive_part,
    printed_sigma_r2,
)

P = {"part": "variance", "kT": "matern12", "lT": 1.0, "lS": 0.5, "lam": 1.3, "x": 0.2, "xp": 0.6, "n": 4, "c": 0.5}


def test_q_of_a_markov_kernel_is_the_one_step_correlation_squared():
    assert Oracle.q(P) == pytest.approx(math.exp(-2 * P["c"] / P["lT"]), rel=1e-9)
    with mpmath.workdps(40):
        assert float(Oracle.q_mp(P)) == pytest.approx(math.exp(-1.0), rel=1e-12)


def test_difference_variance_is_the_corrected_formula_not_the_printed_one():
    v = Oracle.difference_variance(P)
    assert v == pytest.approx(corrected_sigma_r2(P), rel=1e-8)
    assert printed_sigma_r2(P) > 1.5 * v
    with mpmath.workdps(50):
        assert float(Oracle.difference_variance_mp(P)) == pytest.approx(v, rel=1e-8)


def test_expected_positive_part_matches_quadrature():
    for mu, s in ((-0.3, 0.7), (-2.0, 0.4)):
        val, _ = integrate.quad(lambda x: x * norm.pdf(x, mu, s), 0, np.inf)
        assert expected_positive_part(mu, s) == pytest.approx(val, rel=1e-9)


def test_shifted_formulas_read_the_last_slice():
    rng = np.random.default_rng(3)
    p = LEMMA_C1.sample(rng)
    mean, cov = OraclePosterior.formulas(p, lag_shift=1)
    F = np.asarray(p["F"]).reshape(p["n"], len(p["grid"]))
    assert np.allclose(mean, F[-1], atol=1e-6) and np.allclose(cov, 0.0, atol=1e-6)
    c = LEMMA_C1.evaluate(p)
    assert c.margin > 0 and LEMMA_C1.evaluate(p, sharpened=True).value == c.value


def test_far_apart_instances_make_the_printed_variance_hold():
    for p in LEMMA_C3.FAR_APART:
        assert LEMMA_C3.evaluate(p).margin > 0
        assert LEMMA_C3.evaluate(p, sharpened=True).margin < 0


def test_surrogate_regret_is_below_the_regret_not_the_true_regret():
    from tvbo_verify.papers.bolt.checks.oracle import LEMMA_C2, SurrogateRegret

    p = {"G": 3, "closeness": 1.0, "played": 0, "fbar": [0.0, 1.0, 0.5], "g": [0.0, -0.9, 1.0]}
    r_hat, r, r_bar = SurrogateRegret.regrets(p)  # f = (0, 0.1, 1.5), x̄* = 1, x* = 2
    assert (r_hat, r, r_bar) == pytest.approx((0.1, 1.5, 1.0))
    assert LEMMA_C2.evaluate(p).margin > 0
    q = {**p, "g": [0.0, 0.5, -1.0]}  # f = (0, 1.5, -0.5): r̂ = 1.5 > r̄ = 1
    assert LEMMA_C2.evaluate(q).margin >= 0 and LEMMA_C2.evaluate(q, sharpened=True).margin < 0
