"""Helpers of ``claims/wsparq/drift.py``."""

import mpmath
import pytest

from tvbo_verify.papers.wsparq.checks import drift as D
from tvbo_verify.theory.lower_bounds import cumulative_variance


@pytest.mark.parametrize("T, alpha", [(10, 0.5), (1000, 2.0), (12345, 1.3)])
def test_hurwitz_power_sum_matches_the_exact_sum(T, alpha):
    with mpmath.workdps(40):
        assert float(D.power_sum_mp(T, alpha)) == pytest.approx(cumulative_variance(T, alpha, 1.0, zero_power="zero"),
                                                                rel=1e-12)


def test_expansion_remainder_and_its_sharpening():
    c = D.VT_CORRECTED.evaluate({"alpha": 1.0, "T": 1000})
    assert c.value == pytest.approx(1000 / 2, rel=1e-3) and c.bound == 2000.0
    assert D.VT_CORRECTED.evaluate({"alpha": 1.0, "T": 1000}, sharpened=True).bound == 1000.0


def test_example_variance_closed_form_and_monte_carlo():
    import numpy as np

    assert D.UniformStepDrift.variance(2.0, 10) == pytest.approx(4 + 10 * 16 / 3)
    with mpmath.workdps(30):
        assert float(D.UniformStepDrift.variance_mp(2.0, 10)) == pytest.approx(4 + 10 * 16 / 3, rel=1e-20)
    mc = D.UniformStepDrift.monte_carlo(np.random.default_rng(0), 2.0, 10, 200_000)
    assert mc == pytest.approx(4 + 160 / 3, rel=0.02)


def test_drift_tests_are_standard_normal_in_size():
    import numpy as np

    seeds = np.random.SeedSequence(0).spawn(200)
    z = np.array([D.increment_independence((s, 1.0, 1.0, (1, 3), (4, 6), 400)) for s in seeds])
    assert np.mean(z <= D.Z_99) > 0.95  # disjoint Brownian increments are independent
    z = np.array([D.increment_independence((s, 1.0, 1.0, (1, 3), (1, 6), 400)) for s in seeds[:20]])
    assert np.all(z > D.Z_99)  # a shared start is not


def test_v_t_leading_constant_parts():
    assert D.VT_PRINTED.evaluate({"part": "upper", "alpha": 1.0}).margin == pytest.approx(0.5)
    assert D.VT_PRINTED.evaluate({"part": "lower", "alpha": 1.0}).margin == pytest.approx(-0.5)
