"""Helpers and statements of ``claims/wgpucb/information_gain.py`` (Theorems 6–7)."""

from __future__ import annotations

import mpmath
import pytest

from tvbo_verify.bandits.environments.base import unit_grid
from tvbo_verify.information import max_information_gain, weighted_information_gain
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.papers.wgpucb.checks.grids import SEGrid
from tvbo_verify.papers.wgpucb.checks.information_gain import (
    THEOREM_6,
    THEOREM_7,
    best_sequence,
    eigen_decay_fit,
    greedy_gain_curve,
    sequence_gain_hp,
)


def test_exact_part_enumerates_every_sequence():
    p = {"part": "exact", "lengthscale": 0.3, "lam": 0.5, "disc": 0.9, "n": 3, "T": 3}
    gain, seq = best_sequence(p)
    X = SEGrid.points(p)
    assert gain == pytest.approx(weighted_information_gain(SEGrid.kernel(p), X[seq], 0.5, 0.9, "bar"))
    greedy, _ = best_sequence({**p, "part": "greedy"})
    assert greedy <= gain + 1e-12
    mpmath.mp.dps = 50
    assert float(sequence_gain_hp(p, seq, "bar")) == pytest.approx(gain, rel=1e-12)


@pytest.mark.parametrize("st,p", [
    (THEOREM_6, {"part": "greedy", "lengthscale": 0.2, "lam": 1.0, "disc": 0.95, "n": 30, "T": 50}),
    (THEOREM_7, {"kind": "tilde", "lengthscale": 0.2, "lam": 1.0, "disc": 0.9, "n": 30, "T": 50}),
])
def test_bounds_hold_and_agree_with_the_referee(st, p):
    c = st.evaluate(p)
    assert float(c.value) <= float(c.bound)
    assert float(st.evaluate(p, sharpened=True).bound) == pytest.approx(float(c.bound) / 2)
    mpmath.mp.dps = 50
    h = st.hp(p)
    assert float(h.value) == pytest.approx(float(c.value), rel=1e-9)
    assert float(h.bound) == pytest.approx(float(c.bound), rel=1e-6)


def test_greedy_curve_prefixes_are_the_greedy_values_and_decay_fit():
    curve = greedy_gain_curve(1, [4, 16, 64])
    X = unit_grid(100, 1)
    for T, v in zip([4, 16, 64], curve):
        assert v == pytest.approx(max_information_gain(SquaredExponential(1.0, 0.2), X, T, 1.0).lower, rel=1e-12)
    fit = eigen_decay_fit(1)
    assert fit["slope"] < 0 and fit["r2"] > 0.9
