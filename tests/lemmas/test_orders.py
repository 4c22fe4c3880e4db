"""``lemmas/orders.py``: O-equalities of iterated logarithms (wsparq Eq. (30), sparq Eq. (31)) with d explicit and
for fixed d."""

from __future__ import annotations

import math

import mpmath
import pytest

from tvbo_verify.lemmas.orders import (
    ABSOLUTE_CONSTANT,
    LOG10_LOG_T,
    ExplicitDimensionOrderEquality,
    FixedDimensionOrderEquality,
    iterated_log_orders,
    order_equality_evidence,
)
from tvbo_verify.verify import Context, Verdict
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


EXPLICIT = ExplicitDimensionOrderEquality(name="test: O-equality with k = d + 1, d explicit", exponent=lambda d: d + 1)


def test_with_d_explicit_one_constant_serves_small_d_and_fails_from_d_7():
    """d explicit in the O: one constant 10^6 for every d. The ratio reaches d^(d+1) as T grows, so the constant
    breaks at d = 7 (7^8 = 5.8e6) and holds at d = 6 (6^7 = 2.8e5); the lower side holds with 1 at every d."""
    assert EXPLICIT.needed_constants()[6] < ABSOLUTE_CONSTANT < EXPLICIT.needed_constants()[7]
    far = {"log10_log_T": 300.0, "part": "upper"}
    assert not EXPLICIT.instance({**far, "d": 6}).broken(DEFAULT_POLICY)
    assert EXPLICIT.instance({**far, "d": 7}).broken(DEFAULT_POLICY)
    assert not PLUS_ONE.instance({**far, "d": 7}).broken(DEFAULT_POLICY)  # the fixed-d reading holds there
    for d in range(1, EXPLICIT.max_d + 1):
        for u in LOG10_LOG_T:
            assert not EXPLICIT.instance({"d": d, "log10_log_T": u, "part": "lower"}).broken(DEFAULT_POLICY)
    assert list(EXPLICIT.shrink({**far, "d": 7})) == [{**far, "d": 6}]


def test_both_readings_are_decided_and_the_d_explicit_one_decides():
    ev = order_equality_evidence(Context("wsparq:eq-30"), EXPLICIT, PLUS_ONE, n_random=20, what="test (30)")
    assert ev.verdict is Verdict.VIOLATED and ev.power.caught
    assert ev.counterexample["instance"]["d"] == 7  # shrunk to the first dimension the constant fails at
    assert ev.stats["fixed_d_reading"]["verdict"] == "confirmed"
    assert ev.stats["first_d_above_constant"] == 7 and "Read for each fixed d instead: confirmed" in ev.summary
