"""Helpers of ``claims/wsparq/synthetic.py``: the §4.1 function's norms as the statements measure them."""

import math

import numpy as np

from tvbo_verify.papers.wsparq.checks import synthetic as S
from tvbo_verify.verify.engine import Context


def test_printed_normalisation_breaks_for_few_centres_and_holds_at_i1():
    wide = S.SYNTHETIC_PRINTED.evaluate({"n_centres": 5, "t": 3})
    assert wide.margin < -2.0  # 5/√0.5 ≈ 7.07 > 5
    assert S.SYNTHETIC_PRINTED.evaluate({"n_centres": S.I1_CENTRES, "t": 3}).margin > 1.0


def test_corrected_bound_is_tight_for_far_apart_centres_and_the_sharpening_is_the_printed_bound():
    c = S.SYNTHETIC_CORRECTED.evaluate({"n_centres": 5, "t": 7})
    assert abs(c.margin) < 1e-12 * c.bound
    sharp = S.SYNTHETIC_CORRECTED.evaluate({"n_centres": 5, "t": 7}, sharpened=True)
    assert sharp.value == c.value and sharp.bound == S.PAPER_B


def test_assumption_one_measures_the_paper_construction_not_a_rescaled_one():
    c = S.ASSUMPTION_1.evaluate({"n_centres": S.I1_CENTRES, "t": 11})
    f = S.synthetic_function(S.I1_CENTRES)
    a = f.coefficients(11)
    assert math.isclose(c.value, math.sqrt(a @ f._KZ @ a), rel_tol=1e-14)
    assert 0 < c.value < S.PAPER_B and c.value != S.PAPER_B


def test_exact_normalisation_deviation_is_round_off():
    assert S.exact_normalisation_deviation([{"n_centres": n, "t": t} for n in (5, 40) for t in (1, 9)]) < 1e-13


def test_twin_instances_reproduce_the_printed_checks_random_draws():
    ctx = Context("wsparq:synthetic-norm-bound+corrected")
    twins = S.twin_instances(ctx, "wsparq:synthetic-norm-bound", S.SYNTHETIC_PRINTED, 5)
    rng = Context("wsparq:synthetic-norm-bound").rng
    assert twins == [S.SYNTHETIC_PRINTED.sample(rng) for _ in range(5)]
    assert all(5 <= p["n_centres"] <= 60 and 1 <= p["t"] <= 500 for p in twins)
    assert np.unique([p["n_centres"] for p in twins]).size > 1
