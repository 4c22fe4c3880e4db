"""Helpers of ``claims/wsparq/sparse_posterior.py``."""

import numpy as np
import pytest

from tvbo_verify.papers.wsparq.checks import sparse_posterior as P


def test_dpp_law_is_a_distribution_that_skips_repeated_pairs():
    p = {"X": [1.0, 1.0, 3.0, 5.0], "lengthscale": 1.0, "variance": 1.0}
    K = P.DppInstance.gram(p)
    law = P.DppInstance.law(K, 2)
    assert sum(w for _, w in law) == pytest.approx(1.0, abs=1e-12)
    assert all(w < 1e-12 for Z, w in law if Z == [0, 1])
    assert P.dpp_expectation(K, 2, lambda Z: 1.0) == pytest.approx(1.0)


def test_literal_reading_holds_without_repeats_and_fails_with_them():
    distinct = {"X": [1.0, 3.0, 5.0, 7.0], "lengthscale": 1.0, "variance": 1.0, "noise_var": 0.1}
    assert P.P32_LITERAL.evaluate(distinct).value == pytest.approx(0.0, abs=1e-9)  # Q = N: SoD = virtual
    repeated = {**distinct, "X": [1.0, 1.0, 1.0, 5.0]}
    assert P.P32_LITERAL.evaluate(repeated).margin < 0


def test_trace_inequality_sharpening_is_the_variational_kl():
    rng = np.random.default_rng(5)
    p = P.DppInstance.sample(rng)
    c, s = P.P32_TRACE.evaluate(p), P.P32_TRACE.evaluate(p, sharpened=True)
    assert s.value == c.value and s.bound <= c.bound + 1e-12


def test_smallest_queries_grow_slowly():
    assert 1 <= P.smallest_queries(50, 0.1, 0) <= P.smallest_queries(100, 0.01, 0) < 100
