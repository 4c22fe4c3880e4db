"""Helpers of ``claims/sparq/experiments.py`` and of the ``sparq`` reproductions."""

from __future__ import annotations

from tvbo_verify.sweeps.reproduce import Finding, get_reproduction
from tvbo_verify.sweeps.reproduce.sparq import (
    FIT_KEYS,
    LENGTHSCALES,
    ML,
    figure_1_sweeps,
    figure_2_sweeps,
    fit_text,
    preset_arms,
    sensitivity_name,
)
from tvbo_verify.verify.claims.sparq.experiments import (
    figure_2_properties,
    regret_range_property,
    slope_property,
)
from tvbo_verify.verify.evidence import Verdict


def test_preset_arms_keep_the_papers_settings_and_drop_only_the_fit():
    fitted = preset_arms("sparq:figure-1", {"grid_points": 1001, "noise_var": 0.01}, 500)
    fixed = preset_arms("sparq:figure-1", {"grid_points": 1001, "noise_var": 0.01}, 500, fitted=False)
    assert [a.label for a in fitted][0] == "SparQ-GP-UCB" and len(fitted) == 6
    sparq = fitted[0]
    assert sparq.params["queries"] == "experiments" and sparq.params["c_q"] == 6.0
    assert sparq.beta.kind == "kk" and sparq.beta.params["delta"] == 0.05
    assert sparq.params.get("fit") == "ml"
    for a, b in zip(fitted, fixed):
        assert not set(b.params) & set(FIT_KEYS)
        assert {k: v for k, v in a.params.items() if k not in FIT_KEYS} == b.params
        assert a.beta == b.beta


def test_figure_sweeps_follow_the_fidelity():
    quick, full = figure_1_sweeps("quick"), figure_1_sweeps("full")
    assert set(quick) == {ML, *(sensitivity_name(ell) for ell in LENGTHSCALES)}
    assert full[ML].horizons == (500,) and full[ML].reps == 40
    assert quick[ML].horizons[0] < 500 and quick[ML].reps < 40
    for ell in LENGTHSCALES:
        assert quick[sensitivity_name(ell)].env_params["lengthscale"] == ell
    assert figure_2_sweeps("full")["ozone analogue"].reps == 20
    assert "analogue data" in get_reproduction("sparq:figure-2").data_note


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
