"""A plugin author's mistake in a β rule, an algorithm, an environment or a rate measurement is refused where it
is made, before any run starts, by a message naming the parameter, its value and the names it could be."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tvbo_verify.authoring import Arm, BetaRule, RateMeasurement, RunCache, Sweep, make_env, make_policy, run_sweep
from tvbo_verify.bandits import beta as beta_rules
from tvbo_verify.bandits.registry import ENVIRONMENTS, check_env, check_policy, register_environment
from tvbo_verify.sweeps import execute
from tvbo_verify.sweeps.results import TRACE_ARRAYS

# ------------------------------------------------------------------------------------------------ β rules


@pytest.mark.parametrize("kind", beta_rules.KINDS)
def test_a_missing_parameter_of_every_beta_rule_is_named_with_the_rule_s_parameters(kind):
    info = beta_rules.RULES[kind]
    for missing in info.required:
        params = {k: v for k, v in _valid_params(kind).items() if k != missing}
        with pytest.raises(ValueError) as err:
            BetaRule(kind, params)
        message = str(err.value)
        assert f"needs parameter {missing!r}" in message and "missing" in message
        assert all(name in message for name in info.names), message


@pytest.mark.parametrize("kind", beta_rules.KINDS)
def test_a_misspelt_parameter_of_every_beta_rule_is_named_with_its_value_and_the_closest_name(kind):
    params = _valid_params(kind)
    params["deltaa"] = 0.25
    with pytest.raises(ValueError) as err:
        BetaRule(kind, params)
    message = str(err.value)
    assert "no parameter 'deltaa'" in message and "deltaa=0.25" in message
    if "delta" in beta_rules.RULES[kind].names:
        assert "did you mean 'delta'?" in message


def test_the_bare_key_error_of_a_missing_delta_is_gone():
    with pytest.raises(ValueError, match=r"beta rule 'kk' needs parameter 'delta', which is missing; "
                                         r"its parameters: B, delta; optional: R, lam, B_from"):
        BetaRule("kk", {"B": 1.0})


def test_parameters_that_go_together_are_refused_alone():
    with pytest.raises(ValueError, match=r"needs R and lam together or neither, got R=1.0"):
        BetaRule("kk", {"B": 1.0, "delta": 0.1, "R": 1.0})


def test_a_value_out_of_range_is_refused_with_its_range():
    with pytest.raises(ValueError, match=r"delta must be in \(0, 1\), got 2.0"):
        BetaRule("finite-domain", {"delta": 2.0})


def test_every_valid_rule_of_the_table_builds():
    for kind in beta_rules.KINDS:
        rule = BetaRule(kind, _valid_params(kind))
        assert rule.convention == (beta_rules.RULES[kind].convention if kind != "constant" else "sqrt")


def _valid_params(kind: str) -> dict:
    values = {"beta": 1.0, "c1": 0.8, "c2": 4.0, "delta": 0.1, "r": 1.0, "a": 1.0, "b": 1.0, "B": 1.0, "R": 1.0,
              "lam": 1.0, "discount": 0.9, "L": 1.0}
    return {k: values[k] for k in beta_rules.RULES[kind].required}


# ------------------------------------------------------------------------------- algorithms, environments


def test_a_misspelt_algorithm_parameter_is_named_with_its_value_and_the_closest_name():
    with pytest.raises(ValueError) as err:
        make_policy("sw-gp-ucb", {"windw": 30})
    message = str(err.value)
    assert "algorithm sw-gp-ucb has no parameter 'windw' (got windw=30)" in message
    assert "did you mean 'window'?" in message and "allowed: window, memory_scale, kernel" in message


def test_a_misspelt_model_option_is_answered_with_the_model_options():
    with pytest.raises(ValueError, match=r"no parameter 'lenghtscale'.*did you mean 'lengthscale'\?"):
        make_policy("gp-ucb", {"lenghtscale": 0.2})


def test_an_unknown_algorithm_or_environment_is_refused_with_the_choices():
    with pytest.raises(ValueError, match=r"algorithm must be one of .*gp-ucb.*got 'gp-ucbb'.*closest: gp-ucb"):
        check_policy("gp-ucbb")
    with pytest.raises(ValueError, match=r"environment must be one of .*got 'wgpucb-papr'.*closest: wgpucb-paper"):
        check_env("wgpucb-papr")


def test_a_misspelt_environment_parameter_is_named_with_its_value_and_the_closest_name():
    with pytest.raises(ValueError, match=r"environment wgpucb-paper has no parameter 'scenaro' \(got scenaro='x'\) "
                                         r"\(did you mean 'scenario'\?\); allowed: scenario, grid_points"):
        make_env("wgpucb-paper", {"scenaro": "x"})


@pytest.mark.parametrize("name", ["bolt-st", "seattle-temps", "sf-temps"])
def test_environments_built_by_a_function_check_the_parameters_of_what_they_build(name):
    with pytest.raises(ValueError, match=rf"environment {name} has no parameter 'noise_fractoin'"):
        check_env(name, {"noise_fractoin": 0.1})


def test_a_missing_required_environment_parameter_is_named(monkeypatch):
    class Needs:
        def __init__(self, *, gap: float, grid_points: int = 3) -> None:
            pass

    monkeypatch.setitem(ENVIRONMENTS, "test-needs-gap", Needs)
    with pytest.raises(ValueError, match=r"environment test-needs-gap needs parameter 'gap', which is missing; "
                                         r"allowed: gap, grid_points"):
        make_env("test-needs-gap")


def test_a_beta_that_is_not_a_rule_is_refused():
    with pytest.raises(TypeError, match="beta of algorithm gp-ucb must be a BetaRule or None, got str"):
        check_policy("gp-ucb", {}, "log")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------ sweeps, before runs


def test_a_sweep_with_a_misspelt_parameter_is_refused_at_construction():
    with pytest.raises(ValueError, match=r"algorithm sw-gp-ucb has no parameter 'windw'"):
        Sweep("s", (Arm("a", "random"), Arm("b", "sw-gp-ucb", {"windw": 3})), "wgpucb-paper", (10,), reps=1)
    with pytest.raises(ValueError, match=r"environment wgpucb-paper has no parameter 'gird_points'"):
        Sweep("s", (Arm("a", "random"),), "wgpucb-paper", (10,), reps=1, env_params={"gird_points": 5})


def test_a_sweep_naming_a_policy_registered_later_is_checked_before_its_first_run(monkeypatch):
    sweep = Sweep("s", (Arm("a", "random"), Arm("b", "test-later-policy", {"windw": 3})), "wgpucb-paper",
                  (5,), reps=1, env_params={"grid_points": 5})
    ran: list = []
    monkeypatch.setattr(execute, "execute_spec", lambda spec: ran.append(spec) or (spec.key, None))
    from tvbo_verify.bandits.registry import ALGORITHMS
    from tvbo_verify.bandits.window import SWGPUCB

    monkeypatch.setitem(ALGORITHMS, "test-later-policy", SWGPUCB)
    with pytest.raises(ValueError, match=r"algorithm test-later-policy has no parameter 'windw'"):
        run_sweep(sweep, cache=RunCache(None))
    assert ran == []  # not one run started, not even the valid arm's


# ------------------------------------------------------------------------------- RateMeasurement.from_sweep


@pytest.fixture(scope="module")
def tiny_result():
    sweep = Sweep("tiny", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "wgpucb-paper", (4, 8), reps=2,
                  env_params={"grid_points": 5})
    return run_sweep(sweep, cache=RunCache(None), progress=False)


def test_from_sweep_reads_the_array_named_by_array(tiny_result):
    m = RateMeasurement.from_sweep(tiny_result, "GP-UCB", exponent=0.5, array="expert_queries")
    assert m.label == "expert_queries" and m.measured.shape == (2, 2) and m.name == "GP-UCB"


def test_from_sweep_s_old_name_spelling_still_works_with_a_deprecation_warning(tiny_result):
    new = RateMeasurement.from_sweep(tiny_result, "GP-UCB", exponent=0.5, array="regret")
    with pytest.warns(DeprecationWarning, match=r"from_sweep\(name=\.\.\.\) is deprecated: use array="):
        old = RateMeasurement.from_sweep(tiny_result, "GP-UCB", exponent=0.5, name="regret")
    np.testing.assert_array_equal(old.measured, new.measured)
    assert old.label == new.label == "regret"


def test_from_sweep_refuses_a_name_that_is_no_trace_array_before_reading_a_trace(tiny_result):
    class Unread:  # a result whose traces must not be touched
        sweep = tiny_result.sweep

        def __getattr__(self, attr):
            raise AssertionError(f"read {attr}")

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError) as err:
            RateMeasurement.from_sweep(Unread(), "GP-UCB", exponent=0.5, name="GP-UCB")
    message = str(err.value)
    assert "name='GP-UCB'" in message and "deprecated spelling of array=" in message
    assert all(a in message for a in TRACE_ARRAYS)
    with pytest.raises(ValueError, match=r"array must name a per-round trace array, one of index, .*got 'regrets'"):
        RateMeasurement.from_sweep(Unread(), "GP-UCB", exponent=0.5, array="regrets")


def test_from_sweep_refuses_an_unknown_arm_label_with_the_sweep_s_arms(tiny_result):
    with pytest.raises(ValueError, match=r"no arm 'GP-UCBB' in sweep tiny; arms: GP-UCB, random"):
        RateMeasurement.from_sweep(tiny_result, "GP-UCBB", exponent=0.5)


def test_from_sweep_refuses_both_spellings_at_once(tiny_result):
    with pytest.raises(TypeError, match="both array='regret' and its deprecated spelling name='y'"):
        RateMeasurement.from_sweep(tiny_result, "GP-UCB", exponent=0.5, array="regret", name="y")


def test_sweep_result_series_refuses_an_unknown_array(tiny_result):
    with pytest.raises(ValueError, match=r"name must name a per-round trace array.*got 'GP-UCB'"):
        tiny_result.series("random", "GP-UCB")


def test_registering_an_environment_keeps_refusing_a_taken_name():
    with pytest.raises(ValueError, match="is taken"):
        register_environment("wgpucb-paper", lambda **kw: None)
