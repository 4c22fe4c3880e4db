"""Helpers of the ``bolt`` n* checks (``tvbo_verify.papers.bolt.checks.nstar``)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from tvbo_verify import highprecision as rf
from tvbo_verify.kernels import temporal_kernel
from tvbo_verify.papers.bolt.checks.nstar import (
    N_STAR,
    UNIMODAL,
    certified_n_star,
    lag_zero_argmax,
    local_maxima,
    mp_local_argmax,
    power_law_response,
)
from tvbo_verify.theory.response import u2


def test_power_law_response_is_c_plus_a_n_to_the_p():
    R = power_law_response(0.1, 1e-6, 3)
    assert float(R(10.0)) == pytest.approx(0.1 + 1e-3)
    assert float(power_law_response(0.5, 0.0, 0)(123.0)) == 0.5


def test_u2_mp_is_the_twin_of_u2():
    R, k = power_law_response(0.1, 1e-6, 3), temporal_kernel("matern32", 10.0)
    with mpmath.workdps(50):
        for n in (1, 7, 38):
            assert float(rf.u2_mp(R, k, n)) == pytest.approx(u2(n, R, k), rel=1e-12)
        assert abs(rf.response_mp(R, 10) - (mpmath.mpf(0.1) + mpmath.mpf(1e-6) * 1000)) < mpmath.mpf(10) ** -40


def test_catalog_reference_value_and_mp_local_argmax():
    res = certified_n_star("matern12", 10.0, 0.1, 1e-6, 3)
    assert res.n_star == 38 and res.certified
    with mpmath.workdps(30):
        assert mp_local_argmax(power_law_response(0.1, 1e-6, 3), temporal_kernel("matern12", 10.0), 30) == 38


def test_lag_zero_argmax_maximises_the_shifted_sum():
    R, k = power_law_response(0.1, 1e-6, 3), temporal_kernel("matern12", 10.0)

    def shifted(n):
        return math.fsum(float(k.of_distance(i * float(R(float(n))))) ** 2 for i in range(n))

    brute = max(range(1, 120), key=shifted)
    assert lag_zero_argmax(R, k, 119) == brute == 39  # one more than n* = 38


def test_local_maxima_counts_strict_drops():
    assert local_maxima(np.array([-np.inf, 1.0, 2.0, 1.0, 3.0, 0.0])) == [2, 4]
    assert local_maxima(np.array([-np.inf, 1.0, 2.0, 2.0, 1.0])) == [3]


def test_statement_parts_hold_and_sharpenings_move_only_the_bound():
    base = {"kernel": "matern12", "lT": 10.0, "c": 0.1, "a": 1e-6, "p": 3}
    climb = {"part": "climb", **base, "start": 5.0}
    c = N_STAR.evaluate(climb)
    assert (c.value, c.bound) == (38, 38)
    assert N_STAR.evaluate(climb, sharpened=True).bound == 39
    scale = {"part": "scale", **base, "s": 3.0}
    assert N_STAR.evaluate(scale).margin == 0
    assert N_STAR.evaluate(scale, sharpened=True).bound != 38  # l_T not scaled moves n*
    const = {"part": "constant", **base, "a": 0.0, "p": 0, "n_max": 400}
    assert N_STAR.evaluate(const).value > 0
    for extra in N_STAR.sharpened_extra:  # logarithmic R has a finite n*: the widened statement fails
        assert N_STAR.evaluate(extra, sharpened=True).value < 0
    relaxed = UNIMODAL.evaluate({"part": "relaxed", **base})
    assert abs(relaxed.value - 38.29) < 0.05 and relaxed.margin > 0


def test_piecewise_response_time_breaks_the_sign_iteration():
    from tvbo_verify.papers.bolt.checks.nstar import PowerLawInstance, spline_response
    from tvbo_verify.theory.response import hill_climb

    p = {"part": "climb", "kernel": "matern12", "lT": 16.66929411160647, "c": 0.07625753921589407, "knots": [5, 240],
         "slopes": [2.7891731876911567, 2.042894753945555e-06, 0.7575274395667992], "n0": 122}
    R = spline_response(p["c"], tuple(p["knots"]), tuple(p["slopes"]))
    assert float(R(5.0)) == pytest.approx(p["c"] + 5 * p["slopes"][0])
    assert np.all(np.diff(R(np.arange(0.0, 400.0))) > 0)
    assert PowerLawInstance.certified(p).n_star == 2
    assert hill_climb(R, PowerLawInstance.kernel(p), n0=122) == 9
    c = N_STAR.evaluate(p)
    assert (c.value, c.bound) == (9, 2)
    with mpmath.workdps(50):
        assert N_STAR.hp(p).margin < 0
    with pytest.raises(ValueError, match="slopes"):
        spline_response(0.1, (3,), (1.0, -1.0))
