"""Non-vacuity horizon of ``wgpucb`` Lemma 20's right side: the horizon is a crossing, every substitute for a
data-dependent sum is an upper bound on sequences that push it, and the horizon moves the right way."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from tvbo_verify.authoring import non_vacuity_horizon
from tvbo_verify.gp import DiscountedFeatureRegression
from tvbo_verify.papers.wgpucb.checks import regret_decomposition as rd
from tvbo_verify.papers.wgpucb.checks.confidence import grid_features
from tvbo_verify.papers.wgpucb.checks.variance_sums import e_sigma

SETUP = {**rd.SETUP, "env": "rotation", "budget": 5.0}


@pytest.fixture(scope="module")
def record():
    return rd.lemma_20_horizon(SETUP, 150.0, 1.0)[0]


def curve_of(rec):
    inst = rec["instance"]
    return rd.lemma_20_curve(SETUP, inst["γ"], inst["λ"], inst["B"])


def test_the_horizon_is_where_the_right_side_crosses_2BT(record):
    T = record["horizon"]
    assert T is not None and record["searched instances"] == 30
    curve = curve_of(record)
    assert curve.ratio(float(T)) < 1.0 <= curve.ratio(float(T - 1))
    assert curve.trivial(10.0) == 2.0 * record["instance"]["B"] * 10.0
    # no searched instance crosses earlier
    for c in rd.searched_curves(rd.lemma_20_curve, SETUP):
        assert c.ratio(float(T - 1)) >= 1.0


def test_with_theorem_4s_printed_pieces_the_right_side_is_theorem_4s_bound(record):
    # the proof's route from the lemma to the theorem: all three pieces put back give App. C.5's bound term for term
    curve = rd.lemma_20_curve(SETUP, 0.99, 1.0, 5.0, printed=frozenset(rd.PRINTED_PIECES))
    theorem = rd.theorem_4_curve(SETUP, 0.99, 1.0, 5.0)
    for T in (1e3, 1e6, 1e9):
        assert curve.bound(T) == pytest.approx(theorem.bound(T), rel=1e-12)
    assert rd.lemma_20_against_theorem_4(SETUP)[" and ".join(rd.PRINTED_PIECES.values())] == \
        rd.theorem_4_horizon(SETUP, 150.0, 1.0)[0]["horizon"]
    # and the lemma's valid right side is later than the theorem's printed bound (the feature dimension)
    assert record["horizon"] > rd.theorem_4_horizon(SETUP, 150.0, 1.0)[0]["horizon"]


def greedy_sequence(F: np.ndarray, lam: float, disc: float, T: int) -> list[int]:
    """The grid point of largest current std each round (it pushes Σ_t σ_{t−1}(x_t) up)."""
    model, seq = DiscountedFeatureRegression(F, lam, disc), []
    for _ in range(T):
        seq.append(int(np.argmax(model.variances()[0])))
        model.append(seq[-1], 0.0)
    return seq


def std_sum(F: np.ndarray, lam: float, disc: float, seq: list[int]) -> float:
    model, total = DiscountedFeatureRegression(F, lam, disc), 0.0
    for i in seq:
        total += math.sqrt(model.variances()[0][i])
        model.append(i, 0.0)
    return total


@pytest.mark.parametrize("lam", [0.02, 0.25, 1.0, 4.0])
def test_the_stationary_substitute_bounds_std_sums_where_lemma_16s_constant_fails(lam):
    disc, T, mbar = 0.95, 12, 20
    Q, eps = rd.qff_on_grid(0.2, 100, mbar)
    F = grid_features(0.2, 100)
    lg = math.log(1 / disc)
    gchk = 1.0 / (2 * lam * (1 - disc))
    for seq in (greedy_sequence(Q, lam, disc, T), list(np.random.default_rng(1).integers(0, 100, T))):
        # γ̌_T at the played points is below its Hadamard bound
        assert rd.gain_check(seq, Q, lam, disc) <= gchk
        bound = float(rd.qff_std_sum(T, rd.gain_check(seq, Q, lam, disc), lg, 1 / math.log1p(1 / lam), 2 * mbar))
        assert std_sum(Q, lam, disc, seq) <= bound
        assert std_sum(F, lam, disc, seq) <= bound + T * e_sigma(eps, lam, disc)  # σ̂ of the exact features
    # power: at T = 1 (σ̌_0 = 1) and γ near 1, Lemma 16's 2λ fails for small λ; 1/log(1 + 1/λ) never does
    near, gain = math.log(1 / 0.999), rd.gain_check([0], Q, lam, 0.999)
    assert float(rd.qff_std_sum(1, gain, near, 1 / math.log1p(1 / lam), 2 * mbar)) >= 1.0
    assert (float(rd.qff_std_sum(1, gain, near, 2 * lam, 2 * mbar)) < 1.0) == (lam < 0.3)


def window_sums(F: np.ndarray, lam: float, disc: float, seq: list[int]) -> np.ndarray:
    """W(c) at t − 1 = len(seq): Σ of σ̃_{t−1} over the last c played points, c = 1..len(seq)."""
    model = DiscountedFeatureRegression(F, lam, disc)
    for i in seq:
        model.append(i, 0.0)
    loose = np.sqrt(model.variances()[1])[seq]
    return rd.reverse_window_sums(loose, len(seq))


def test_the_window_substitute_bounds_window_sums_and_is_nearly_reached():
    lam, disc, mbar = 1.0, 0.99, 25
    F = grid_features(0.2, 100)
    c = 10_000
    # adversarial: one point for the older part of the window, a far one (k ~ e^-12.5) for its last 1000 rounds
    seq = [0] * (c - 1000) + [99] * 1000
    W = window_sums(F, lam, disc, seq)
    bound = rd.window_std_bound(np.arange(1, c + 1), disc, lam)
    assert np.all(W <= bound + 1e-9)
    assert W[-1] > 0.9 * bound[-1]  # the per-point bound is close on this sequence
    # ... where Lemma 19's bound (m = m̄, γ̌ at the played points, ε_m measured) is exceeded: it does not hold for
    # every c, so the horizon does not use it; with m = 2m̄ it is not exceeded here
    Q, eps = rd.qff_on_grid(0.2, 100, mbar)
    assert 2 * lam * mbar * math.log(1 / disc) + e_sigma(eps, lam, disc) < 1  # slope below 1 in c
    lemma_19 = [float(rd.qff_std_sum(c, rd.gain_check(seq, Q, lam, disc), math.log(1 / disc), 2 * lam, m))
                + c * e_sigma(eps, lam, disc) for m in (mbar, 2 * mbar)]
    assert lemma_19[0] < W[-1] < lemma_19[1]
    # and on the windows recorded in a WGP-UCB run
    setup = {**SETUP, "disc": 0.9, "T": 40, "cs": (1,)}
    run = rd.decomposition_run((np.random.SeedSequence(5), setup))
    assert np.all(run["windows"].max(axis=0) <= rd.window_std_bound(np.arange(1, 41), 0.9, lam) + 1e-9)


def test_a_halved_trivial_bound_or_a_doubled_right_side_moves_the_horizon_later(record):
    curve = curve_of(record)
    T = record["horizon"]
    halved = dataclasses.replace(curve, trivial=lambda t: curve.trivial(t) / 2)
    doubled = dataclasses.replace(curve, terms=lambda t: {k: 2 * v for k, v in curve.terms(t).items()})
    for other in (halved, doubled):
        h = non_vacuity_horizon(other, T_max=1e14, points=120).horizon
        assert h is None or h > T
