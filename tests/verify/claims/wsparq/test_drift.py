"""Helpers of ``claims/wsparq/drift.py``."""

import mpmath
import pytest

from tvbo_verify.theory.lower_bounds import cumulative_variance
from tvbo_verify.verify.claims.wsparq import drift as D


@pytest.mark.parametrize("T, alpha", [(10, 0.5), (1000, 2.0), (12345, 1.3)])
def test_hurwitz_power_sum_matches_the_exact_sum(T, alpha):
    with mpmath.workdps(40):
        assert float(D.power_sum_mp(T, alpha)) == pytest.approx(cumulative_variance(T, alpha, 1.0, zero_power="zero"),
                                                                rel=1e-12)


def test_expansion_remainder_and_its_sharpening():
    c = D.VT_CORRECTED.evaluate({"alpha": 1.0, "T": 1000})
    assert c.value == pytest.approx(1000 / 2, rel=1e-3) and c.bound == 2000.0
    assert D.VT_CORRECTED.evaluate({"alpha": 1.0, "T": 1000}, sharpened=True).bound == 1000.0
