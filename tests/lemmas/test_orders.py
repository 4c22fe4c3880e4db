"""``claims/common/orders.py``: O-equalities of iterated logarithms for fixed d (wsparq Eq. (30), sparq Eq. (31))."""

from __future__ import annotations

import math

import mpmath
import pytest

from tvbo_verify.lemmas.orders import LOG10_LOG_T, FixedDimensionOrderEquality, iterated_log_orders
from tvbo_verify.verify.stats import DEFAULT_POLICY

PLUS_ONE = FixedDimensionOrderEquality(name="test: O-equality with k = d + 1", exponent=lambda d: d + 1)


@pytest.mark.parametrize("d", [1, 2, 5])
def test_expressions_are_evaluated_as_written_in_float_and_mpmath(d):
    log_t = 1e3
    a, b = iterated_log_orders(d, log_t, d + 1)
    assert a == pytest.approx((d * math.log(log_t)) ** (d + 1), rel=1e-12)
    assert b == pytest.approx(math.log(d * log_t) ** (d + 1), rel=1e-12)
    with mpmath.workdps(40):
        am, bm = iterated_log_orders(d, mpmath.mpf(log_t), d + 1)
    assert float(am) == pytest.approx(a, rel=1e-12) and float(bm) == pytest.approx(b, rel=1e-12)


def test_overflowing_power_falls_back_to_the_logarithm_of_the_power():
    a, _ = iterated_log_orders(4, 1e300, 5)  # (log T)^4 = 1e1200 overflows float64
    assert a == pytest.approx((4 * math.log(1e300)) ** 5, rel=1e-12)


@pytest.mark.parametrize("d", [1, 2, 3, 8])
def test_the_proof_constants_hold_at_both_ends_and_the_lower_one_is_attained(d):
    for u in LOG10_LOG_T:
        for part in ("upper", "lower"):
            inst = PLUS_ONE.instance({"d": d, "log10_log_T": u, "part": part})
            assert not inst.broken(DEFAULT_POLICY)
    at_e = PLUS_ONE.instance({"d": d, "log10_log_T": LOG10_LOG_T[0], "part": "lower"})
    assert at_e.margin == pytest.approx(0.0, abs=1e-6 * at_e.comparison.magnitude)


def test_a_ratio_that_grows_without_bound_is_caught():
    """Had the paper's expressions differed in their power of log log T, no constant would serve: with
    exponent d + 1 on the left and d on the right, the upper part breaks for large log T."""
    wrong = FixedDimensionOrderEquality(name="test: mismatched powers", exponent=lambda d: d + 1)
    wrong.evaluate = lambda p, sharpened=False: PLUS_ONE._compare(  # type: ignore[method-assign]
        p, *_mismatched(int(p["d"]), 10.0 ** p["log10_log_T"]), math.log, sharpened)
    assert wrong.instance({"d": 2, "log10_log_T": 300.0, "part": "upper"}).broken(DEFAULT_POLICY)


def _mismatched(d: int, log_t: float) -> tuple[float, float]:
    a, b = iterated_log_orders(d, log_t, d + 1)
    return a * math.log(log_t), b


@pytest.mark.parametrize("d", [2, 3])
def test_the_uniform_in_d_reading_and_the_doubled_lower_constant_are_caught(d):
    upper = {"d": d, "log10_log_T": 300.0, "part": "upper"}
    lower = {"d": d, "log10_log_T": LOG10_LOG_T[0], "part": "lower"}
    for p in (upper, lower):
        assert not PLUS_ONE.instance(p).broken(DEFAULT_POLICY)
        assert PLUS_ONE.sharpened(PLUS_ONE.instance(p)).broken(DEFAULT_POLICY)
