"""Anytime regret events ("R_t <= bound(t) for every t <= T simultaneously", one Bernoulli per run) in the
probabilistic builder: decided by the same rule as per-horizon events, with the same power, vacuity and controls,
and able to fail where every per-horizon event at sampled horizons holds."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.authoring import Arm, Context, RunCache, Sweep, Trials, anytime_trials, probabilistic_evidence
from tvbo_verify.bandits.beta import igpucb_theory
from tvbo_verify.bandits.traces import Trace
from tvbo_verify.sweeps import run_sweep
from tvbo_verify.verify.evidence import Verdict


class _Ctx(Context):
    """A context for a probabilistic claim that no paper lists (the builder asks the kind only for a replay)."""

    @property
    def kind(self) -> str:
        return "probabilistic"


def ctx() -> Context:
    return _Ctx("test:anytime", cache=RunCache(None))


def run_of(regret: np.ndarray, spread: float = 1.0) -> Trace:
    """A run with per-round regret ``regret`` on an objective whose range is ``spread`` in every round."""
    r = np.asarray(regret, float)
    T, z, i = r.size, np.zeros(r.size), np.zeros(r.size, dtype=np.int64)
    return Trace(i, np.zeros((T, 1)), z, r, np.cumsum(r), i, i, z, z, z, {}, max_regret=np.full(T, spread))


def curve(t):
    return np.sqrt(t)


def sharp(t):
    return np.sqrt(t) / 4.0


KW = dict(target=0.9, threshold=1.0, sharpened_threshold=0.0, sharpening="the curve divided by 4",
          what="R_t <= sqrt(t)")


def crossing_once(rng: np.random.Generator) -> Trace:
    """Regret 0 until round 30, a jump to R_30 in (√30, √31) (above the curve at t = 30 only), then slow growth
    that the curve outruns."""
    r = np.zeros(100)
    r[29] = rng.uniform(5.49, 5.55)
    r[30:] = 1e-3
    return run_of(r)


def test_a_crossing_at_one_intermediate_round_fails_the_anytime_event_only():
    rng = np.random.default_rng(0)
    runs = [crossing_once(rng) for _ in range(60)]
    R = np.array([tr.cumulative for tr in runs])
    t = np.arange(1, 101)
    assert np.all((R > curve(t)).sum(axis=1) == 1) and np.all(R[:, 29] > curve(30))  # the one crossing: t = 30
    control = anytime_trials({"control": "linear regret"}, [run_of(np.full(100, 0.8))] * 60, curve, sharp)
    for T in (10, 40, 70, 100):  # every per-horizon event at the sampled horizons holds, with its power
        per_horizon = Trials.from_traces({"T": T}, runs, curve(T), sharp(T), horizon=T)
        ev = probabilistic_evidence(ctx(), [per_horizon], controls=[control], **KW)
        assert ev.verdict is Verdict.CONFIRMED, ev.summary
        if T > 30:  # before the jump no run breaks the sharpened curve either: no power there, as for any bound
            assert ev.power.caught, ev.power.detail
    anytime = anytime_trials({"T": 100}, runs, curve, sharp)
    assert anytime.extra["earliest crossing t"] == 30 and anytime.extra["runs crossing the curve"] == 60
    ev = probabilistic_evidence(ctx(), [anytime], controls=[control], **KW)
    assert ev.verdict is Verdict.VIOLATED and ev.power.caught, ev.summary  # the weakened curve 1.75 √t holds
    assert ev.counterexample is not None


def test_the_anytime_score_is_the_worst_round_of_the_affine_score():
    r = np.array([0.0, 3.0, 0.0, 0.0])
    trials = anytime_trials({}, [run_of(r, 4.0)], bound=np.array([1.0, 2.0, 4.0, 4.0]), sharpened=0.0)
    assert trials.scores[0] == pytest.approx(1.5)  # R_2 = 3 against 2
    assert trials.attainable[0] == pytest.approx(4.0)  # the trivial bound 4t against the curve, worst at t = 4
    assert trials.regret_bound and trials.extra["rounds"] == 4
    with pytest.raises(ValueError, match="bound must give one value per round"):
        anytime_trials({}, [run_of(r)], bound=np.ones(3), sharpened=0.0)
    with pytest.raises(ValueError, match="sharpened bound must not lie above the bound"):
        anytime_trials({}, [run_of(r)], bound=1.0, sharpened=2.0)
    with pytest.raises(ValueError, match="exceeds a run"):
        anytime_trials({}, [run_of(r)], bound=1.0, sharpened=0.0, horizon=5)


def test_a_curve_no_run_could_cross_is_vacuous_never_confirmed():
    runs = [run_of(np.full(50, 0.01), 0.1)] * 40  # the most regret any policy could incur: 0.1 t < 5 + t
    ev = probabilistic_evidence(ctx(), [anytime_trials({}, runs, lambda t: 5.0 + t, lambda t: 1.0 + t / 4)],
                                controls=[anytime_trials({"control": "x"}, [run_of(np.ones(50))] * 40, curve, sharp)],
                                **KW)
    assert ev.verdict is Verdict.INCONCLUSIVE and "vacuous" in ev.summary


def test_gp_ucb_stays_under_its_curve_at_every_round_and_random_play_cannot():
    sweep = Sweep("anytime", (Arm("IGP-UCB", "gp-ucb", {}, igpucb_theory(B=2.0, R=0.1, gamma="queried")),
                              Arm("random", "random")), "gp-sample", horizons=(100,), reps=30,
                  env_params={"points_per_dim": 30})
    result = run_sweep(sweep, cache=RunCache(None), progress=False)

    def bound(t):
        return 5.0 * np.sqrt(t)

    def sharpened(t):
        return 1.25 * np.sqrt(t)

    random = anytime_trials({"control": "uniformly random play"}, result.runs("random"), bound, sharpened)
    method = anytime_trials({"T": 100}, result.runs("IGP-UCB"), bound, sharpened)
    kw = {**KW, "sharpening": "the constant 5 divided by 4", "what": "R_t <= 5 sqrt(t) for all t <= 100"}
    ev = probabilistic_evidence(ctx(), [method], controls=[random], **kw)
    assert ev.verdict is Verdict.CONFIRMED and ev.power.caught, ev.summary
    assert [c.verdict for c in ev.controls] == [Verdict.VIOLATED]
    alone = probabilistic_evidence(ctx(), [random], **kw)  # the policy that cannot satisfy it, decided on its own
    assert alone.verdict is Verdict.VIOLATED
