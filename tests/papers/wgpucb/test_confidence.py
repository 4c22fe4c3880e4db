"""Run helpers of ``claims/wgpucb/confidence.py`` (Theorems 2–3, Lemmas 10–11)."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.information import max_weighted_information_gain
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.papers.wgpucb.checks import confidence as cf
from tvbo_verify.verify.builders import Trials
from tvbo_verify.verify.engine import Context
from tvbo_verify.verify.evidence import Verdict


def test_greedy_ladder_prefixes_are_the_greedy_values_of_shorter_horizons():
    ladder = cf.greedy_gain_ladder(0.2, 30, 1.0, 0.9, 40)
    X = np.linspace(0.0, 1.0, 30)[:, None]
    for t in (1, 7, 40):
        g = max_weighted_information_gain(SquaredExponential(1.0, 0.2), X, t, 1.0, 0.9, "bar")
        assert ladder[t - 1] == pytest.approx(g.lower, rel=1e-12)


def test_random_rkhs_function_has_the_norm_b():
    rng = np.random.default_rng(0)
    f = cf.random_rkhs_function(rng, 0.2, 100, 0.7)
    F = cf.grid_features(0.2, 100)
    theta = (F.T @ f) / np.einsum("ij,ij->j", F, F)
    assert np.linalg.norm(theta) == pytest.approx(0.7, rel=1e-8)


def test_runs_return_every_score():
    seed = np.random.SeedSequence(0)
    band = cf.stationary_band_run((seed, {**cf.STATIONARY, "T": 20, "actions": "ucb", "lam": 1.0, "disc": 0.9}))
    assert set(band) == {f"{r} δ={d:g}" for r in cf.BETA_RULES for d in cf.DELTAS} | {cf.POSTERIOR_GAP}
    assert all(0 < band[f"{r} δ={d:g}"] < 1 for r in cf.BETA_RULES for d in cf.DELTAS)
    assert band[cf.POSTERIOR_GAP] < 1e-8  # the policy's posterior is the exact-feature regression's
    drift = cf.surrogate_band_run((seed, {**cf.DRIFTING, "T": 20, "env": "abrupt", "switches": 2, "actions": "random",
                                          "disc": 0.9}))
    assert 0 <= drift["f_t in C_t"] <= 1 and drift["σ̃ realised δ=0.1"] >= drift["σ̂ realised δ=0.1"] - 1e-12
    noise = cf.noise_sum_run((seed, {**cf.NOISE, "T": 30, "actions": "adversarial", "lam": 1.0, "disc": 0.9}))
    assert noise["realised/hadamard"] <= 1.0
    # the greedy G_t <= γ̄_t <= Hadamard: the greedy ratio is the larger one
    assert noise["lemma-11 simultaneous δ=0.1"] >= noise["lemma-11 hadamard δ=0.1"]


def test_bracketed_decision_uses_the_weaker_event_to_refute_and_the_stronger_to_confirm():
    ctx = Context("wgpucb:lemma-11")
    ok, bad = np.full(50, 0.3), np.full(50, 2.0)
    t = {d: [Trials({"c": 1}, ok)] for d in cf.DELTAS}
    f = {d: [Trials({"c": 1}, bad)] for d in cf.DELTAS}
    kw = {"what": "x", "score": "s", "sharpening": "halved", "sharpened_threshold": 0.5}
    assert cf.bracketed_evidence(ctx, t, t, **kw).verdict is Verdict.CONFIRMED
    assert cf.bracketed_evidence(ctx, f, t, **kw).verdict is Verdict.INCONCLUSIVE  # only the stronger event fails
    assert cf.bracketed_evidence(ctx, f, f, **kw).verdict is Verdict.VIOLATED
    assert cf.bracketed_evidence(ctx, f, None, **kw).verdict is Verdict.VIOLATED


def test_the_runs_read_the_posterior_of_the_projects_wgpucb(monkeypatch):
    """μ̃_t and σ̂_t come from ``bandits.WGPUCB``: a policy whose weights are squared (γ^{2(t−s)}) changes the
    scores, and the reported gap to the exact-feature regression shows it."""
    from tvbo_verify.bandits import window

    setup = {**cf.STATIONARY, "T": 20, "actions": "random", "lam": 1.0, "disc": 0.9}
    honest = cf.stationary_band_run((np.random.SeedSequence(2), setup))
    real = window.WeightedArmPosterior.compute

    def squared_weights(self, idx, y):
        kept, self.discount = self.discount, self.discount**2
        try:
            return real(self, idx, y)
        finally:
            self.discount = kept

    monkeypatch.setattr(window.WeightedArmPosterior, "compute", squared_weights)
    broken = cf.stationary_band_run((np.random.SeedSequence(2), setup))
    assert honest[cf.POSTERIOR_GAP] < 1e-8 < 1e-3 < broken[cf.POSTERIOR_GAP]
    assert broken["realised δ=0.1"] != pytest.approx(honest["realised δ=0.1"], rel=1e-6)


def test_the_ucb_designs_are_the_policys_actions(monkeypatch):
    from tvbo_verify.bandits.window import WGPUCB

    monkeypatch.setattr(WGPUCB, "select", lambda self, step, time: 7)
    learner = cf.Learner.start({**cf.NOISE, "T": 5, "actions": "ucb", "lam": 1.0, "disc": 0.9},
                               np.random.default_rng(0))
    assert [cf.choose(learner.setup, learner, t, np.random.default_rng(t)) for t in (1, 2, 3)] == [7, 7, 7]


def test_bracketed_power_needs_every_deciding_part():
    """Power is counted per part: a sharpening caught at δ = 0.1 does not lend its power to δ = 0.05."""
    ctx = Context("wgpucb:theorem-2")
    near, far = np.full(50, 0.8), np.full(50, 0.3)  # "β halved" (threshold 0.5) refuted / not refuted
    kw = {"what": "x", "score": "s", "sharpening": "halved", "sharpened_threshold": 0.5}
    both = {d: [Trials({"c": 1}, near)] for d in cf.DELTAS}
    one = {cf.DELTAS[0]: [Trials({"c": 1}, near)], cf.DELTAS[1]: [Trials({"c": 1}, far)]}
    assert cf.bracketed_evidence(ctx, both, both, **kw).power.caught
    ev = cf.bracketed_evidence(ctx, one, one, **kw)
    assert ev.verdict is Verdict.CONFIRMED and not ev.power.caught


def test_bracketed_confirmation_needs_a_failed_control():
    ctx = Context("wgpucb:theorem-3")
    ok, bad = np.full(50, 0.8), np.full(50, 2.0)
    kw = {"what": "x", "score": "s", "sharpening": "halved", "sharpened_threshold": 0.5}
    t = {d: [Trials({"c": 1}, ok)] for d in cf.DELTAS}
    held = {d: [Trials({"control": "c"}, ok)] for d in cf.DELTAS}
    failed = {d: [Trials({"control": "c"}, bad)] for d in cf.DELTAS}
    assert cf.bracketed_evidence(ctx, t, t, controls=held, **kw).verdict is Verdict.INCONCLUSIVE
    ev = cf.bracketed_evidence(ctx, t, t, controls=failed, **kw)
    assert ev.verdict is Verdict.CONFIRMED and ev.controls and all(c.failed for c in ev.controls)


def test_control_policies_are_the_projects_wgpucb_without_exploration_or_forgetting():
    rng = np.random.default_rng(0)
    setup = {**cf.STATIONARY, "T": 30, "actions": "ucb", "lam": 1.0, "disc": 0.9}
    healthy = cf.Learner.start(setup, rng)
    greedy = cf.Learner.start({**setup, "policy_control": "greedy"}, rng)
    never = cf.Learner.start({**setup, "policy_control": "never forgets"}, rng)
    for t in range(1, 6):
        for learner in (healthy, greedy, never):
            i = learner.select(t)
            learner.append(t, i, float(np.sin(7.0 * i / 100)))
    mean, _ = greedy.policy.posterior()
    assert greedy.select(6) == int(np.argmax(mean))  # β ≡ 0: the arm of the highest mean
    assert never.policy.discount == 1.0 and healthy.policy.discount == 0.9
    # the statement's β_{t−1} is the healthy rule's whatever the control uses
    assert greedy.used_beta(6) == pytest.approx(healthy.rules[cf.UCB_DELTA].value(5))
    with pytest.raises(ValueError, match="control"):
        cf.Learner.start({**setup, "policy_control": "blind"}, rng)


@pytest.mark.parametrize("fidelity", ["quick", "full"])
def test_theorem_2_runs_at_least_200_repetitions_per_configuration(monkeypatch, fidelity):
    """With 40 runs a band of true coverage 0.90 against 1 − δ = 0.95 is confirmed one time in five (at most 2
    failures); Theorem 2 is decided from at least 200 runs of every configuration, its control included."""
    from tvbo_verify.sweeps.cache import RunCache
    from tvbo_verify.verify.stats import decide_probabilistic

    seen = []

    class Stop(Exception):
        pass

    def capture(ctx, fn, configs, reps, **kw):
        seen.append((len(configs), len(kw.get("controls", ())), reps))
        raise Stop

    monkeypatch.setattr(cf, "decide_bands", capture)
    with pytest.raises(Stop):
        cf.theorem_2(Context("wgpucb:theorem-2", fidelity=fidelity, cache=RunCache(None)))
    (configs, controls, reps), = seen
    assert configs >= 4 and controls == 1 and reps >= 200
    assert decide_probabilistic(reps - 3, reps, 0.95)[0] is Verdict.CONFIRMED  # 3 failures: coverage 0.985
    assert decide_probabilistic(int(0.9 * reps), reps, 0.95)[0] is Verdict.VIOLATED  # coverage 0.90 is refuted
