"""Helpers of ``claims/sparq/experiments.py`` and of the ``sparq`` reproductions."""

from __future__ import annotations

from tvbo_verify.papers.sparq.checks.experiments import (
    figure_1_properties,
    figure_2_properties,
    gp_ucb_remark,
    regret_range_property,
    slope_property,
)
from tvbo_verify.papers.sparq.reproductions import (
    FIGURE_1_CONSTANTS,
    FIT_ON_F0,
    FIT_ON_HORIZON,
    FIT_ON_SEEN,
    ML,
    figure_1_parts,
    figure_1_sweeps,
    figure_2_sweeps,
    fit_text,
    preset_arms,
)
from tvbo_verify.sweeps.reproduce import Finding, get_reproduction
from tvbo_verify.verify.evidence import Verdict


def test_preset_arms_keep_the_papers_settings_and_one_model_for_all():
    arms = preset_arms("sparq:figure-1", {"grid_points": 1001, "noise_var": 0.01}, 500)
    assert [a.label for a in arms][0] == "SparQ-GP-UCB" and len(arms) == 6
    sparq = arms[0]
    assert sparq.params["queries"] == "experiments" and sparq.params["c_q"] == 6.0
    assert sparq.beta.kind == "kk" and sparq.beta.params["delta"] == 0.05 and sparq.beta.params["B"] == 5.0
    for a in arms:
        assert a.params["fit"] == "ml" and a.params["fit_on"] == "train" and a.params["lam"] == 0.01
        assert a.params["fit_params"].startswith("variance,lengthscale")
    wgp = arms[-1]
    assert wgp.algorithm == "wgp-ucb" and wgp.params["delta"] == 0.05 and wgp.params["B"] == 5.0


def test_figure_sweeps_follow_the_fidelity_and_the_fitting_data_is_a_constant():
    quick, full = figure_1_sweeps("quick"), figure_1_sweeps("full")
    assert set(quick) == {ML}
    assert full[ML].horizons == (500,) and full[ML].reps == 40
    assert quick[ML].horizons[0] < 500 and quick[ML].reps < 40
    fit = FIGURE_1_CONSTANTS[0]
    assert fit.paper == FIT_ON_F0 and fit.scale == "categorical"
    horizon = fit.apply(full[ML], FIT_ON_HORIZON)
    assert horizon.env_params["train_span"] == 500.0 and "train_span" not in full[ML].env_params
    seen = fit.apply(quick[ML], FIT_ON_SEEN)
    assert all(a.params["fit_on"] == "seen" and a.params["refit_every"] == 50
               for a in seen.arms if a.algorithm != "random")
    assert seen.arms[-1].params == {}  # the control keeps no model
    assert figure_2_sweeps("full")["ozone analogue"].reps == 20
    assert "analogue data" in get_reproduction("sparq:figure-2").data_note


def figure_1_finding(gp_ucb_slope: tuple[float, float]) -> Finding:
    comp = {"a": "SparQ-GP-UCB", "b": "GP-UCB", "difference": {"mean": -1.0, "ci95": [-1.5, -0.5]}, "ratio": 0.5,
            "ratio_ci95": [0.4, 0.6], "mean_a": 1.0, "mean_b": 2.0}
    control = {"a": "uniform random", "b": "GP-UCB", "difference": {"mean": 1.0, "ci95": [0.5, 1.5]}, "ratio": 1.5,
               "ratio_ci95": [1.3, 1.7], "mean_a": 3.0, "mean_b": 2.0}
    lo, hi = gp_ucb_slope
    slopes = {"SparQ-GP-UCB": {"slope": 0.3, "ci95": [0.2, 0.4], "from_t": 100.0},
              "GP-UCB": {"slope": (lo + hi) / 2, "ci95": [lo, hi], "from_t": 100.0}}
    return Finding("", {"comparisons": {"GP-UCB": comp}, "controls": {"GP-UCB": control}, "within_run_slopes": slopes})


def test_figure_1_parts_decide_as_the_claims_properties():
    finding = figure_1_finding((0.8, 1.05))
    props, parts = figure_1_properties(finding), figure_1_parts(finding)
    assert [p.controlled().verdict.value for p in props] == [p.verdict for p in parts]
    assert [p.verdict for p in parts] == ["confirmed", "confirmed"] and parts[0].control is True


def test_the_figures_comparison_decides_and_gp_ucbs_aside_is_only_reported():
    """The paper's aside "GP-UCB's average regret grows" is not a part of the figure's finding: the finding decides
    the same whether GP-UCB's slope lies above 1, below it or around it; the aside is the reproduction's remark."""
    rep = get_reproduction("sparq:figure-1")
    assert not rep.sequential and rep.remarks is not None
    verdicts = set()
    for slope in ((1.1, 1.3), (0.7, 0.9), (0.9, 1.1)):
        finding = figure_1_finding(slope)
        verdicts.add(tuple(p.verdict for p in rep.parts(finding)))
        (remark,) = rep.remarks(finding)
        assert remark.name == "GP-UCB's average regret grows"
        assert gp_ucb_remark(finding).verdict.value == remark.verdict
    assert verdicts == {("confirmed", "confirmed")}
    assert {p.name for p in figure_1_parts(figure_1_finding((0.7, 0.9)))} == {
        "SparQ-GP-UCB below GP-UCB", "SparQ-GP-UCB's average regret decreases"}
    arms = figure_1_sweeps("quick")[ML].arms
    assert arms[-1].algorithm == "random"  # the negative control runs on the same seeds


def test_fit_text_names_the_fitted_values():
    assert fit_text([]) == "no fit"
    assert fit_text([{"variance": 1.5, "lengthscale": 7.25, "noise_var": 0.011}]) == "M_k² = 1.5, ℓ = 7.25, σ² = 0.011"


def test_slope_property_decides_by_the_interval():
    def slope(lo, hi):
        return {"slope": (lo + hi) / 2, "ci95": [lo, hi], "from_t": 100.0}

    assert slope_property("sub", slope(0.2, 0.4), below=True).verdict is Verdict.CONFIRMED
    assert slope_property("sub", slope(1.1, 1.3), below=True).verdict is Verdict.VIOLATED
    assert slope_property("sub", slope(0.9, 1.1), below=True).verdict is Verdict.INCONCLUSIVE
    assert slope_property("super", slope(0.6, 0.8), below=False).verdict is Verdict.VIOLATED
    assert slope_property("super", slope(1.05, 1.2), below=False).verdict is Verdict.CONFIRMED


def test_a_refuted_slope_has_power_only_when_its_weakened_statement_stands():
    def slope(lo, hi):
        return {"slope": (lo + hi) / 2, "ci95": [lo, hi], "from_t": 100.0}

    grows = slope_property("super", slope(0.75, 0.9), below=False)
    assert grows.verdict is Verdict.VIOLATED and grows.power.caught  # "R_t grows at least like √t" stands
    assert not slope_property("super", slope(0.2, 0.4), below=False).power.caught
    assert slope_property("sub", slope(1.1, 1.3), below=True).power.caught
    assert not slope_property("sub", slope(1.6, 1.8), below=True).power.caught
    assert slope_property("super", slope(0.9, 1.1), below=False).power is None


def test_regret_range_property_catches_a_regret_above_two():
    assert regret_range_property(Finding("", {"regret_range": [0.0, 1.9]})).verdict is Verdict.CONFIRMED
    assert regret_range_property(Finding("", {"regret_range": [0.0, 2.1]})).verdict is Verdict.VIOLATED


def test_analogue_properties_stay_undecided_and_say_what_they_measured():
    comp = {"a": "SparQ-GP-UCB", "b": "GP-UCB", "difference": {"mean": 1.0, "ci95": [0.5, 1.5]}, "ratio": 2.0,
            "ratio_ci95": [1.5, 2.5]}
    track = {"arms": 144, "rounds": 48, "distinct_best_arms": 13, "best_arm_change_fraction": 0.6}
    props = figure_2_properties(Finding("", {"comparisons": {"GP-UCB": comp}, "tracking": track}))
    assert all(q.verdict is Verdict.INCONCLUSIVE for q in props)
    assert any("analogue data" in q.detail for q in props)
