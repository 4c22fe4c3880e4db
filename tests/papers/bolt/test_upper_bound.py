"""Helpers of the ``bolt`` App. D and §3.3 checks (``tvbo_verify.papers.bolt.checks.upper_bound``)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from tvbo_verify.papers.bolt.checks.upper_bound import (
    EQ_63,
    EQ_63_CORRECTED,
    LEMMA_D2,
    NO_REMOVAL,
    GrowingDataset,
    SlidingWindow,
)


def test_sliding_window_one_point_at_the_diameter_attains_71():
    p = {"kT": "matern12", "lT": 1.0, "lS": 0.7, "R": 0.5, "lam": 1.3, "noise": 0.2, "X": [[0.0]], "x": [1.0],
         "y": [0.3]}
    assert SlidingWindow.u2(p) == pytest.approx(math.exp(-1.0))
    c = LEMMA_D2.evaluate(p)
    assert c.value == pytest.approx(c.bound, rel=1e-12)  # one point at distance √d: (71) is an equality


def test_lemma_d2_holds_and_its_sharpening_breaks_somewhere():
    rng = np.random.default_rng(0)
    margins = [(LEMMA_D2.evaluate(p).margin, LEMMA_D2.evaluate(p, sharpened=True).margin)
               for p in (LEMMA_D2.sample(rng) for _ in range(40))]
    assert min(m for m, _ in margins) >= -1e-12 and min(s for _, s in margins) < 0


def test_width_63_identity_and_union_share():
    base = {"n": 7, "d": 1, "L": 1.0, "delta": 0.05}
    assert EQ_63.evaluate({**base, "part": "identity"}).margin >= 0  # d = 1, integer τ: (63) is exact
    assert EQ_63.evaluate({**base, "part": "union"}).margin >= -1e-12
    assert EQ_63.evaluate({**base, "part": "union", "d": 3, "delta": 0.5}).margin < 0  # δ > 1/6
    assert EQ_63_CORRECTED.evaluate({**base, "part": "union", "d": 3, "delta": 0.5, "L": 0.37}).margin >= -1e-12
    with mpmath.workdps(50):
        assert EQ_63.hp({**base, "part": "union", "d": 3, "delta": 0.5}).margin < 0
    with pytest.raises(ValueError, match="L d n"):
        EQ_63.evaluate({**base, "part": "union", "L": 0.1, "n": 1})


def test_prior_reversion_gap_is_below_its_bound_and_vanishes():
    p = NO_REMOVAL.sample(np.random.default_rng(2))
    p = {**p, "m": 60, "X": np.random.default_rng(3).uniform(0, 1, (60, len(p["x"]))).tolist(), "a": 1e-3 * p["lT"]}
    gap, bound, newest = GrowingDataset.gap(p)
    assert newest <= gap + 1e-15 <= bound + 1e-12
    assert GrowingDataset.gap({**p, "m": 5})[1] > bound  # the bound decreases as R grows
    assert GrowingDataset.times(p)[1] == pytest.approx(p["c"] + p["a"])


def test_eq_7_is_at_least_the_expected_trivial_bound_at_every_horizon_on_the_checks_instance():
    # papers/bolt/READING.md §bolt:theorem-3.8: (7) / (T E[max f_t − min f_t]) >= sqrt(β_T / (2 log M)) >= 1 whenever
    # (L d T² / (6δ))^d >= M, with E[max f_t − min f_t] <= 2 sqrt(2 λ (1 − κ) log M), κ = k_S(√d)/λ
    from tvbo_verify.authoring import sample_range
    from tvbo_verify.confidence import beta_bolt_as_printed
    from tvbo_verify.papers.bolt.reproductions.common import DELTA, LIPSCHITZ, N_STAR, make_bolt_env
    from tvbo_verify.papers.bolt.reproductions.regret import theorem_3_8_bound

    env = make_bolt_env()
    M, lam = env.grid.shape[0], env.signal_variance
    kappa = float(env.spatial.of_distance(math.sqrt(env.d))) / env.spatial.variance
    range_bound = 2 * math.sqrt(2 * lam * (1 - kappa) * math.log(M))
    assert (LIPSCHITZ * env.d / (6 * DELTA)) ** env.d >= M  # the condition holds from T = 1 on
    for T in (N_STAR, 200, 10**6, 10**12):
        floor = math.sqrt(beta_bolt_as_printed(T, env.d, LIPSCHITZ, DELTA) / (2 * math.log(M)))
        assert theorem_3_8_bound(T, N_STAR, env) / (T * range_bound) >= floor >= 1
    # the range bound is an upper bound of the expected range of an f_t (Monte Carlo on the grid)
    K = lam * np.asarray(env.spatial(env.grid, env.grid)) / env.spatial.variance
    assert sample_range([K], samples=500).mean <= range_bound
