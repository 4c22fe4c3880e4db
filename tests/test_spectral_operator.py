"""The SE operator eigenvalues under a Gaussian measure (spectral.se_gaussian_*)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.spectral import se_gaussian_eigenvalues, se_gaussian_ratio, se_gaussian_tail
from tvbo_verify.theory.schedules import theory_query_constants


def test_ratio_matches_the_query_constants_of_eq_57():
    assert se_gaussian_ratio(3.0, 12.5) == pytest.approx(theory_query_constants(3.0, 0.5, 100.0).b_rw, rel=1e-14)


def test_eigenvalues_sum_to_the_variance_and_tail_is_closed_form_in_one_dimension():
    lam = se_gaussian_eigenvalues(0.5, 3.0, 12.5, 400)
    assert lam.sum() == pytest.approx(0.5, rel=1e-12)
    B = se_gaussian_ratio(3.0, 12.5)
    for Q in (0, 1, 7, 40):
        assert se_gaussian_tail(0.5, 3.0, 12.5, Q) == pytest.approx(0.5 * B**Q, rel=1e-12)


def test_product_eigenvalues_in_two_dimensions():
    lam = se_gaussian_eigenvalues(1.0, 1.0, 1.0, 6, d=2)
    B = se_gaussian_ratio(1.0, 1.0)
    assert lam.tolist() == pytest.approx([(1 - B) ** 2 * B**s for s in (0, 1, 1, 2, 2, 2)])
    full = se_gaussian_eigenvalues(1.0, 1.0, 1.0, 5000, d=2)
    assert se_gaussian_tail(1.0, 1.0, 1.0, 6, d=2) == pytest.approx(full[6:].sum(), rel=1e-9)


def test_eigenvalues_agree_with_a_gaussian_sample_gram_matrix():
    rng = np.random.default_rng(0)
    X = rng.normal(0, 1.5, (1500, 1))
    emp = np.sort(np.linalg.eigvalsh(SquaredExponential(1.0, 1.0)(X) / 1500))[::-1][:4]
    assert emp == pytest.approx(se_gaussian_eigenvalues(1.0, 1.0, 1.5, 4), rel=0.1)


def test_validation():
    with pytest.raises(ValueError, match="lengthscale"):
        se_gaussian_ratio(0.0, 1.0)
    with pytest.raises(ValueError, match="Q"):
        se_gaussian_tail(1.0, 1.0, 1.0, -1)
    assert math.isfinite(se_gaussian_tail(1.0, 1.0, 1.0, 0, d=3))


@pytest.mark.parametrize("d", [1, 2, 3, 5])
def test_se_gaussian_tail_is_the_direct_sum_of_the_eigenvalues_after_q(d):
    full = se_gaussian_eigenvalues(1.7, 0.8, 1.3, 4000, d)
    beyond = se_gaussian_tail(1.7, 0.8, 1.3, 4000, d)
    assert se_gaussian_tail(1.7, 0.8, 1.3, 0, d) == pytest.approx(1.7, rel=1e-12)  # the trace M²
    for Q in (0, 1, 2, d, d + 1, 10, 37, 200):
        assert se_gaussian_tail(1.7, 0.8, 1.3, Q, d) - beyond == pytest.approx(full[Q:].sum(), rel=1e-9)


@pytest.mark.time_limit(10)
def test_se_gaussian_tail_costs_the_same_when_b_nears_one_or_q_is_huge():
    """A term-by-term sum needs ~log(1e17)/(1 − B) terms: 10¹⁶ at a lengthscale 10⁻¹⁵ of the input spread."""
    B = se_gaussian_ratio(1e-10, 1.0)
    assert se_gaussian_tail(1.0, 1e-10, 1.0, 10**12) == pytest.approx(B ** 10**12, rel=1e-9)
    assert 0.0 < se_gaussian_tail(1.0, 1e-15, 1.0, 5, d=3) <= 1.0


@pytest.mark.time_limit(10)
def test_se_gaussian_eigenvalues_list_only_the_n_asked_for():
    """In d = 10⁵ dimensions degree 2 alone has ~5·10⁹ equal eigenvalues: only the first n are built."""
    lam = se_gaussian_eigenvalues(1.0, 1.0, 1.0, 10**6, 10**5)
    B = se_gaussian_ratio(1.0, 1.0)
    assert lam.size == 10**6 and lam[0] == pytest.approx((1 - B) ** 10**5, rel=1e-12)
    assert np.all(lam[1 : 10**5 + 1] == lam[1]) and lam[10**5 + 1] == pytest.approx(lam[1] * B, rel=1e-12)
