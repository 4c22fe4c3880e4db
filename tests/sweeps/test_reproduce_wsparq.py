"""The ``wsparq`` reproductions: arms from the presets, the tuning protocol, the finding's comparisons."""

from __future__ import annotations

import numpy as np

from tvbo_verify.sweeps.reproduce import get_reproduction
from tvbo_verify.sweeps.reproduce import wsparq as rw


class FinalStub:
    """Stands for a SweepResult in ``tuned_choice``: final regrets per label."""

    def __init__(self, means: dict[str, float]) -> None:
        self.means = means

    def final(self, label: str) -> np.ndarray:
        return np.array([self.means[label], self.means[label]])


def test_arms_hold_every_tuned_variant_and_the_reference():
    _, env = rw.presets.preset("wsparq:figure-2").env()
    arms = rw.preset_arms("wsparq:figure-2", env, 100)
    labels = [a.label for a in arms]
    assert len(labels) == 5 + 3 + 3 + 1 and rw.RANDOM in labels
    assert rw.variant_label("w-sparq-gp-ucb", 2.0) in labels and rw.variant_label("tv-gp-ucb", 0.001) in labels
    tuned = rw.preset_arms("wsparq:figure-2", env, 100, tuned_only=True)
    assert {a.algorithm for a in tuned} == {"w-sparq-gp-ucb", "tv-gp-ucb"} and len(tuned) == 6
    alphas = sorted(a.params["alpha"] for a in tuned if a.algorithm == "w-sparq-gp-ucb")
    assert alphas == [0.5, 1.0, 2.0]


def test_tuning_picks_the_lowest_training_regret():
    means = {rw.variant_label("w-sparq-gp-ucb", v): m for v, m in ((0.5, 3.0), (1.0, 1.0), (2.0, 2.0))}
    means |= {rw.variant_label("tv-gp-ucb", v): m for v, m in ((0.001, 5.0), (0.01, 6.0), (0.1, 4.0))}
    choice = rw.tuned_choice(FinalStub(means))
    assert choice["w-sparq-gp-ucb"]["value"] == 1.0 and choice["tv-gp-ucb"]["value"] == 0.1
    labels = rw.chosen_labels(None, choice)
    assert labels["w-sparq-gp-ucb"] == rw.variant_label("w-sparq-gp-ucb", 1.0)
    assert labels["gp-ucb"] == "GP-UCB" and len(labels) == 7


def test_reproductions_are_registered_with_their_claims():
    fig = get_reproduction("wsparq:figure-2")
    assert fig.claims == ("wsparq:figure-2",)
    plan = fig.plan("quick")
    assert plan[rw.TRAINING].seed != plan[rw.TEST].seed
    assert plan[rw.TEST].horizons == (250,) and fig.plan("full")[rw.TEST].horizons == (500,)
    real = get_reproduction("wsparq:real-data")
    assert "not shipped" in real.data_note and real.plan("quick")["ozone anomalies"].reps == 8


def test_summary_compares_uniform_random_play_with_every_baseline():
    import dataclasses

    from tvbo_verify.sweeps import Arm, RunCache, Sweep, run_sweep

    labels = {algo: rw.LABELS[algo] for algo in rw.presets.preset("wsparq:figure-2").algorithms}
    arms = tuple(Arm(lab, "random", {}, None) for lab in labels.values()) + (Arm(rw.RANDOM, "random", {}, None),)
    sweep = Sweep("stub", arms, "index-noise", (20,), 3, env_params={"grid_points": 11})
    result = run_sweep(dataclasses.replace(sweep), cache=RunCache(None), progress=False)
    data = rw.regret_summary(result, labels, np.random.default_rng(0))
    for algo in ("gp-ucb", "tv-gp-ucb", "r-gp-ucb", "sw-gp-ucb", "wgp-ucb", "w-sparq-gp-ucb"):
        comp = data["comparisons"][rw.control_key(labels[algo])]
        assert comp["a"] == rw.RANDOM and comp["b"] == labels[algo]
