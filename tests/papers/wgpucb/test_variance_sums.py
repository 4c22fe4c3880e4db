"""Helpers and statements of ``claims/wgpucb/variance_sums.py`` (Lemmas 15–19, 21)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from tvbo_verify.gp import weighted_posterior
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.papers.wgpucb.checks.variance_sums import (
    LEMMA_15,
    LEMMA_16,
    LEMMA_18,
    LEMMA_19,
    LEMMA_21,
    M_READINGS,
    Trace,
    TraceMp,
    e_sigma,
    grid,
    lemma_15_probes,
    long_window_probes,
    played,
    runs_instance,
    shorter,
    shorter_runs,
    tight_probes,
)
from tvbo_verify.verify.comparison import check_sharpening, material
from tvbo_verify.verify.stats import DEFAULT_POLICY, Instance

P = {"lengthscale": 0.3, "mbar": 12, "lam": 0.5, "disc": 0.95, "T": 6, "sequence": "random", "m": M_READINGS[0],
     "seq": [3, 50, 50, 71, 12, 99]}


def test_trace_matches_the_kernel_forms_and_its_mpmath_twin():
    tr = Trace.of(P)
    X = grid()
    res = weighted_posterior(SquaredExponential(1.0, 0.3), X[P["seq"][:4]], np.zeros(4), X, lam=0.5, discount=0.95)
    np.testing.assert_allclose(tr.hat[4], np.sqrt(res.var), atol=1e-7)
    np.testing.assert_allclose(tr.loose[4], np.sqrt(res.loose_var), atol=1e-7)
    assert tr.eps < 1e-3 and tr.gain_check[0] == 0.0
    mpmath.mp.dps = 30
    mp = TraceMp(P)
    assert float(mp.std("check", 3, [P["seq"][3]])[0]) == pytest.approx(tr.check[3][P["seq"][3]], abs=1e-9)
    assert float(mp.gain_check(6)) == pytest.approx(tr.gain_check[6], rel=1e-8)
    assert float(mp.eps) == pytest.approx(tr.eps, rel=1e-3, abs=1e-12)


def test_one_observation_breaks_lemma_16_for_small_lambda():
    # T = 1: Σ σ̌_0(x_1) = 1 while √(2λ log(1 + 1/λ) + 2λ m log(1/γ)) < 1 for small λ (papers/wgpucb/READING.md §5.5)
    p = {**P, "lam": 0.02, "T": 1, "seq": [40]}
    c = LEMMA_16.evaluate(p)
    assert float(c.value) == pytest.approx(1.0)
    expected = math.sqrt(2 * 0.02 * math.log1p(1 / 0.02) + 2 * 0.02 * 12 * -math.log(0.95))
    assert float(c.bound) == pytest.approx(expected, rel=1e-9)
    mpmath.mp.dps = 50
    assert LEMMA_16.hp(p).margin < 0
    assert Instance(P, LEMMA_16.evaluate({**P, "lam": 1.0})).margin > 0


def test_shrink_windows_sharpenings_and_probes():
    assert [q["T"] for q in shorter({**P, "T": 9, "seq": list(range(9))})] == [1, 4, 8]
    assert [q["T"] for q in shorter({**P, "c": 5, "T": 9, "seq": list(range(9))})] == [6, 8]
    w = {**P, "T": 30, "seq": list(np.random.default_rng(2).integers(0, 100, 30)), "c": 5}
    c, s = LEMMA_18.evaluate(w), LEMMA_18.evaluate(w, sharpened=True)
    check_sharpening(c, s)
    assert float(s.bound) < float(c.bound)
    assert e_sigma(1e-6, 1.0, 0.9) == pytest.approx(math.sqrt(1e-6 * 121 + 1e-12 * 10))
    assert [p["T"] for p in tight_probes()] == [5, 10, 20]


def test_lemma_21_holds_and_sharpens():
    p = {"lengthscale": 0.2, "lam": 0.5, "disc": 0.9, "t": 12, "c": 5, "p": 9,
         "seq": np.random.default_rng(1).integers(0, 100, 12).tolist()}
    c = LEMMA_21.evaluate(p)
    assert Instance(p, c).margin > 0
    check_sharpening(c, LEMMA_21.evaluate(p, sharpened=True))


def test_lemma_15_sharpening_is_not_caught_by_the_rounding_of_the_stds():
    """With ε_m at the float floor (many nodes, a long lengthscale) the gap |σ̂ − σ̌| is the rounding of two O(1)
    stds (~1e-11) and e_σ² lies below it: the statement and its sharpening differ by ~1e-7 of the stds' magnitude
    1, so the builder does not count the float-level "break" as power (it did, at seeds 0 and 2)."""
    p = {"lengthscale": 0.48, "mbar": 24, "lam": 1.0, "disc": 0.94, "T": 15, "sequence": "greedy", "m": M_READINGS[0]}
    p["seq"] = played(np.random.default_rng(0), p)
    assert Trace.of(p).eps < 1e-13
    stated, sharp = LEMMA_15.evaluate(p), LEMMA_15.evaluate(p, sharpened=True)
    assert 0 < float(sharp.bound) < float(stated.value) < 1e-9  # a float-level "break" of the sharpening
    assert not Instance({}, stated.as_float()).broken(DEFAULT_POLICY)
    assert not material(stated, sharp)


def test_lemma_15_tightest_probes_leave_room_for_no_sharpening():
    for p in lemma_15_probes():
        c = LEMMA_15.evaluate(p)
        assert float(c.value) <= 0.2 * float(c.bound)  # the explicit constant is at least 5 times the gap
        assert float(c.value) < math.sqrt(Trace.of(p).eps)  # even the constant √ε_m would hold


RUNS = {"lengthscale": 0.2, "mbar": 25, "lam": 1.0, "disc": 0.9, "m": M_READINGS[0]}


@pytest.mark.parametrize("st", [LEMMA_18, LEMMA_19], ids=["lemma-18", "lemma-19"])
def test_a_runs_window_is_the_step_by_step_window_in_float_and_mpmath(st):
    # the same sequence as runs (closed-form appends, pooled mpmath weights) and as a list (one append per round)
    p = runs_instance(RUNS, 11, 4)
    listed = {**RUNS, "sequence": "random", "T": 12, "c": 11, "seq": [0] * 8 + [99] * 4}
    a, b = st.evaluate(p), st.evaluate(listed)
    assert float(a.value) == pytest.approx(float(b.value), rel=1e-10)
    assert float(a.bound) == pytest.approx(float(b.bound), rel=1e-10)
    with mpmath.workdps(40):
        ha, hb = st.hp(p), st.hp(listed)
        assert abs(ha.value - hb.value) < mpmath.mpf(10) ** -30 and abs(ha.bound - hb.bound) < mpmath.mpf(10) ** -30
    assert [q["c"] for q in shorter_runs(p)] == [5, 8]
    assert all(sum(n for _, n in q["runs"]) == q["T"] == q["c"] + 1 for q in shorter_runs(p))


@pytest.mark.parametrize("st", [LEMMA_18, LEMMA_19], ids=["lemma-18", "lemma-19"])
def test_long_windows_break_the_bound_at_50_digits_in_both_readings_of_m(st):
    probes = long_window_probes()
    assert {p["m"] for p in probes} == set(M_READINGS)
    for p in probes:
        c = int(p["c"])
        with mpmath.workdps(50):
            h = st.hp(p)
            assert h.value <= c + 1  # every std is at most k(x, x) = 1
            assert h.bound - h.value < -400  # the right side is exceeded by hundreds, far above any rounding
        assert st.replay(p).violated
    # power the other way: the same family on a short window holds, and the sharpened bound (c dropped) breaks there
    short = runs_instance(RUNS, 50, 10)
    c, s = st.evaluate(short), st.evaluate(short, sharpened=True)
    assert Instance(short, c).margin > 0 and Instance(short, s).margin < 0
    with mpmath.workdps(50):
        assert st.hp(short).margin > 0
    w = {**P, "T": 30, "seq": list(np.random.default_rng(2).integers(0, 100, 30)), "c": 5}
    assert Instance(w, st.evaluate(w)).margin > 0
