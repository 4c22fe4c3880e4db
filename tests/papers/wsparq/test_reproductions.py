"""The ``wsparq`` reproductions: arms from the presets, the tuning protocol, the finding's comparisons."""

from __future__ import annotations

import numpy as np

from tvbo_verify.papers.wsparq import reproductions as rw
from tvbo_verify.sweeps.reproduce import get_reproduction


class FinalStub:
    """Stands for a SweepResult in ``tuned_choice``: final regrets per label."""

    def __init__(self, means: dict[str, float]) -> None:
        self.means = means

    def final(self, label: str) -> np.ndarray:
        return np.array([self.means[label], self.means[label]])


TUNED_ALGOS = {"w-sparq-gp-ucb", "tv-gp-ucb", "r-gp-ucb", "sw-gp-ucb", "wgp-ucb"}


def test_arms_hold_every_tuned_variant_and_the_reference():
    _, env = rw.presets.preset("wsparq:figure-2").env()
    arms = rw.preset_arms("wsparq:figure-2", env, 100)
    labels = [a.label for a in arms]
    assert len(labels) == 2 + 5 * 3 + 1 and rw.RANDOM in labels
    assert rw.variant_label("w-sparq-gp-ucb", 2.0) in labels and rw.variant_label("tv-gp-ucb", 0.001) in labels
    assert rw.variant_label("sw-gp-ucb", 4.0) == "SW-GP-UCB (s = 4)" and "SW-GP-UCB (s = 4)" in labels
    tuned = rw.preset_arms("wsparq:figure-2", env, 100, tuned_only=True)
    assert {a.algorithm for a in tuned} == TUNED_ALGOS and len(tuned) == 15
    alphas = sorted(a.params["alpha"] for a in tuned if a.algorithm == "w-sparq-gp-ucb")
    assert alphas == [0.5, 1.0, 2.0]
    scales = sorted(a.params["memory_scale"] for a in tuned if a.algorithm == "wgp-ucb")
    assert scales == [0.25, 1.0, 4.0]


def test_every_method_with_a_constant_of_its_own_gets_the_same_tuning_budget():
    # the paper tunes α and ε on training data; the order-wise rules of R-, SW- and W-GP-UCB fix their memory
    # only up to a constant factor, which gets as many candidates on the same seeds
    assert set(rw.TUNED) == TUNED_ALGOS
    assert {len(grid) for _, _, grid in rw.TUNED.values()} == {3}
    own = rw.figure_2_own()
    for algo, (name, _, grid) in rw.TUNED.items():
        assert all(name in own[rw.variant_label(algo, v)] for v in grid)


def test_tuning_picks_the_lowest_training_regret():
    means = {rw.variant_label("w-sparq-gp-ucb", v): m for v, m in ((0.5, 3.0), (1.0, 1.0), (2.0, 2.0))}
    means |= {rw.variant_label("tv-gp-ucb", v): m for v, m in ((0.001, 5.0), (0.01, 6.0), (0.1, 4.0))}
    for algo, best in (("r-gp-ucb", 0.25), ("sw-gp-ucb", 1.0), ("wgp-ucb", 4.0)):
        means |= {rw.variant_label(algo, v): (1.0 if v == best else 2.0) for v in (0.25, 1.0, 4.0)}
    choice = rw.tuned_choice(FinalStub(means))
    assert choice["w-sparq-gp-ucb"]["value"] == 1.0 and choice["tv-gp-ucb"]["value"] == 0.1
    assert [choice[a]["value"] for a in ("r-gp-ucb", "sw-gp-ucb", "wgp-ucb")] == [0.25, 1.0, 4.0]
    labels = rw.chosen_labels(None, choice)
    assert labels["w-sparq-gp-ucb"] == rw.variant_label("w-sparq-gp-ucb", 1.0)
    assert labels["wgp-ucb"] == rw.variant_label("wgp-ucb", 4.0)
    assert labels["gp-ucb"] == "GP-UCB" and len(labels) == 7


def test_figure_2_arms_differ_only_in_what_the_paper_says_differs_at_every_setting():
    from tvbo_verify.sweeps.reproduce.constants import shared_values, undeclared_differences

    rep = get_reproduction("wsparq:figure-2")
    assert {c.symbol for c in rep.constants} == {"c_β", "B/‖f‖", "δ", "σ²", "n"}
    assert not any(c.own for c in rep.constants) and all(c.source for c in rep.constants)
    for fidelity in ("quick", "full"):
        for constant, value, plan in rep.plans(fidelity):
            for sweep in plan.values():
                gp = [a for a in sweep.arms if a.algorithm != "random"]
                assert {a.label for a in gp} <= set(rep.own)
                assert undeclared_differences(sweep, rep.own) == [], (constant and constant.name, value)
                # λ is the environment's σ² for every model, WGP-UCB's own λ included
                assert {shared_values(a)["lam"] for a in gp} == {sweep.env_params["noise_var"]}
                assert {shared_values(a)["delta"] for a in gp} == {shared_values(gp[0])["delta"]}


def test_each_shared_constant_reaches_all_seven_methods_and_the_tuning_sweep():
    from tvbo_verify.sweeps.reproduce.constants import shared_values

    rep = get_reproduction("wsparq:figure-2")
    base = rep.plan("quick")
    keys = {"c_β": "beta_scale", "B/‖f‖": "bound_scale", "δ": "delta", "σ²": "lam"}
    for constant, value, plan in rep.plans("quick")[1:]:
        assert plan[rw.TEST].arm(rw.RANDOM) == base[rw.TEST].arm(rw.RANDOM)
        for name, sweep in plan.items():
            for arm in (a for a in sweep.arms if a.algorithm != "random"):
                if constant.symbol in keys:
                    assert shared_values(arm)[keys[constant.symbol]] == value, (constant.name, arm.label)
                else:  # the number of centres lives in the environment
                    assert sweep.env_params["n_centres"] == value and arm == base[name].arm(arm.label)
        if constant.symbol == "σ²":
            assert all(sw.env_params["noise_var"] == value for sw in plan.values())


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


def test_the_sparse_arms_are_the_papers_own_algorithms_1_and_2():
    """wsparq's experiments run its own SparQ-GP-UCB (Algorithm 1: the expert's answers only, Σ = σ²I) and W-SparQ
    (Algorithm 2), both asking Q_t = ⌈6 log t⌉ at query time t — not the sparq paper's SparQ (recent observations
    kept, ⌈6 log T⌉ at every round)."""
    for rep_id in ("wsparq:figure-2", "wsparq:real-data"):
        for sweep in get_reproduction(rep_id).plan("quick").values():
            sparse = [a for a in sweep.arms if "sparq" in a.algorithm]
            assert sparse, rep_id
            for arm in sparse:
                assert arm.params["queries"] == "log" and arm.params["c_q"] == 6.0, (rep_id, arm.label)
                if arm.algorithm == "sparq-gp-ucb":
                    assert arm.params["keep_recent"] is False, (rep_id, arm.label)
