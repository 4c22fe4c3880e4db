"""Helpers and statements of ``claims/wgpucb/information_gain.py`` (Theorems 6–7)."""

from __future__ import annotations

import mpmath
import pytest

from tvbo_verify.bandits.environments.base import unit_grid
from tvbo_verify.information import max_information_gain, weighted_information_gain
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.papers.wgpucb.checks.grids import SEGrid
from tvbo_verify.papers.wgpucb.checks.information_gain import (
    CONTROL_KERNELS,
    REMARK_5_GRIDS,
    THEOREM_6,
    THEOREM_7,
    best_sequence,
    eigen_decay_fit,
    gain_measurement,
    greedy_gain_curve,
    sequence_gain_hp,
    told_apart,
)
from tvbo_verify.verify import Context, Verdict, rate_evidence


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
    X = unit_grid(REMARK_5_GRIDS[1], 1)
    for T, v in zip([4, 16, 64], curve):
        assert v == pytest.approx(max_information_gain(SquaredExponential(1.0, 0.2), X, T, 1.0).lower, rel=1e-12)
    fit = eigen_decay_fit(1)
    assert fit["slope"] < 0 and fit["r2"] > 0.9


def test_a_finite_grid_rate_stands_only_where_the_rule_tells_the_kernels_apart():
    """On a finite grid γ_T is O(log T) for every kernel, so a confirmation of SE's log^{d+1} T rate says something
    only when the same rule refutes a kernel whose γ_T is a power of T on the continuum (Matérn-1/2) on the same grid
    and ladder, and when the grid does not cap SE's γ_T."""
    H = [2**k for k in range(4, 11)]
    se = greedy_gain_curve(1, H, points=200)
    matern = greedy_gain_curve(1, H, points=200, kernel=CONTROL_KERNELS["Matérn-1/2"])
    ctx = Context("wgpucb:remark-5")

    def decided(control, refinement=0.0):
        ev = rate_evidence(ctx, gain_measurement(1, H, se), lowered_by=1.0, what="SE",
                           controls=[gain_measurement(1, H, control, "control")])
        return told_apart(ev, refinement, 1)

    assert decided(matern).verdict is Verdict.CONFIRMED
    alike = decided(se)  # a "control" the rule cannot refute: the grid tells nothing apart
    assert alike.verdict is Verdict.INCONCLUSIVE and "cannot tell the kernels apart" in alike.summary
    capped = decided(matern, refinement=0.05)
    assert capped.verdict is Verdict.INCONCLUSIVE and "caps it" in capped.summary
