"""Helpers of ``claims/wsparq/lower_bound_runs.py``: ladders, random play, garbling and the Ω(T) rule with its
controls."""

from __future__ import annotations

import dataclasses
import math
from types import SimpleNamespace

import numpy as np

from tvbo_verify.papers.wsparq.checks import lower_bound_runs as lb
from tvbo_verify.sweeps import RunCache, run_sweep
from tvbo_verify.verify.builders.rate import LADDER
from tvbo_verify.verify.engine import Context
from tvbo_verify.verify.evidence import Control, Verdict


def short(alpha: float):
    sweep = dataclasses.replace(lb.bump_sweep(alpha, "quick", 0), horizons=(40, 80, 160), reps=2)
    return run_sweep(sweep, cache=RunCache(None), progress=False)


class Ladder:
    """Stands for a SweepResult: runs whose cumulative regret is ``growth(T)`` times a factor per repetition."""

    def __init__(self, growth, horizons=(500, 1581, 5000), reps=8):
        self.sweep = SimpleNamespace(name="stub", environment="stub", env_params={}, horizons=horizons, reps=reps,
                                     seed=0, arm=lambda label: None)
        self.growth, self.factors = growth, np.linspace(0.9, 1.1, reps)

    def runs(self, label, T):
        out = []
        for f in self.factors:
            cumulative = f * self.growth(np.arange(1, T + 1, dtype=float))
            out.append(SimpleNamespace(T=T, cumulative=cumulative, trivial_bound=2.0 * np.arange(1, T + 1)))
        return out


LINEAR, SQRT = Ladder(lambda t: 0.8 * t), Ladder(lambda t: 5 * np.sqrt(t))
FAILED = Control("learner", "must fail", Verdict.VIOLATED, "slope −0.4")
HELD = Control("learner", "must fail", Verdict.CONFIRMED, "slope 0")


def test_ladders_and_repetitions():
    for fidelity in ("quick", "full"):
        sizes, decades = LADDER[fidelity]
        horizons = lb.ladder(fidelity)
        assert len(horizons) >= sizes and math.log10(horizons[-1] / horizons[0]) >= decades - 1e-9
    assert lb.ladder("quick") == (500, 1581, 5000)
    assert lb.repetitions("quick", 1.0) == 6 and lb.repetitions("quick", lb.ABOVE_ONE) == 12
    assert lb.bump_sweep(lb.ABOVE_ONE, "quick", 0).reps == 12
    assert [a.label for a in lb.bump_sweep(1.0, "quick", 0).arms] == [lb.gpucb_label(1.0), lb.RANDOM.label]


def test_random_play_regret_is_below_the_peak():
    r = lb.random_play_regret()
    assert 0.5 < r < 2 * lb.BUMPS["gamma"]


def test_garbling_needs_a_larger_exponent():
    ctx = Context("wsparq:eq-18")
    res = short(2.0)
    ok = lb.garbling_properties(ctx, 2.0, res)
    assert all(p.verdict is Verdict.CONFIRMED for p in ok)
    reversed_models = lb.garbling_properties(ctx, 2.0, res, alpha1=3.0)  # "model 1" noisier than model 2
    assert reversed_models[0].verdict is Verdict.VIOLATED and reversed_models[1].verdict is Verdict.VIOLATED


def test_linear_rule_tells_linear_from_square_root_growth():
    ctx = Context("wsparq:eq-18")
    v, st, text = lb.linear_rule(ctx, LINEAR, "linear")
    assert v is Verdict.CONFIRMED and abs(st["slope"]) < 1e-9 and "R_T/T" in text
    v, st, _ = lb.linear_rule(ctx, SQRT, "square root")
    assert v is Verdict.VIOLATED and abs(st["slope"] + 0.5) < 0.01
    assert st["resolution"] >= lb.LINEAR_ALLOWANCE


def test_confirmed_linear_growth_needs_its_control_to_fail():
    ctx = Context("wsparq:eq-18")
    with_power = lb.linear_property(ctx, "Ω(T)", LINEAR, "linear", control=FAILED).controlled()
    assert with_power.verdict is Verdict.CONFIRMED and with_power.power.caught and with_power.controls == [FAILED]
    without = lb.linear_property(ctx, "Ω(T)", LINEAR, "linear", control=HELD).controlled()
    assert without.verdict is Verdict.INCONCLUSIVE and not without.power.caught


def test_refuted_linear_growth_takes_its_power_from_random_play():
    ctx = Context("wsparq:proposition-5.1")
    mixed = Ladder(lambda t: 5 * np.sqrt(t))
    linear_random = Ladder(lambda t: 0.8 * t)
    mixed.runs = lambda label, T, a=mixed.runs, b=linear_random.runs: (b if label == lb.RANDOM.label else a)(label, T)
    prop = lb.linear_property(ctx, "Ω(T)", mixed, "square root")
    assert prop.verdict is Verdict.VIOLATED and prop.power.caught and "uniform random" in prop.power.sharpening
    # a check that would refute Ω(T) on random play too has no power
    prop = lb.linear_property(ctx, "Ω(T)", SQRT, "square root")
    assert prop.verdict is Verdict.VIOLATED and not prop.power.caught
