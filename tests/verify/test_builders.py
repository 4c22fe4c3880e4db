"""The evidence builders and the sharpening rules of the claim-authoring model."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from tvbo_verify.verify import (
    Comparison,
    Context,
    Property,
    RateMeasurement,
    SharpeningError,
    Statement,
    Trials,
    Verdict,
    claim,
    exact_evidence,
    probabilistic_evidence,
    properties_evidence,
    rate_evidence,
    registry,
    replay,
    run_claim,
)
from tvbo_verify.verify.builders import on_analogue_data, tracking_text, unshipped_data
from tvbo_verify.verify.comparison import material
from tvbo_verify.verify.evidence import Power
from tvbo_verify.verify.statement import lookup_statement

EXACT = "wsparq:assumption-1"
PROB = "wsparq:assumption-2"
RATE = "wsparq:proposition-2.2"
ALGO = "wsparq:algorithm-1"


@pytest.fixture
def slots():
    registry.load_all()
    ids = (EXACT, PROB, RATE, ALGO)
    saved = {i: registry._REGISTRY.pop(i, None) for i in ids}
    yield ids
    for i, s in saved.items():
        registry._REGISTRY.pop(i, None)
        if s is not None:
            registry._REGISTRY[i] = s


# ------------------------------------------------------------------------------------- Comparison
def test_comparison_normal_form_and_margin():
    assert Comparison(1.0, 2.0, "<=").margin == 1.0
    assert Comparison(3.0, 2.0, ">=").margin == 1.0
    eq = Comparison(1.0, 1.0 + 1e-12, "==", tol=1e-10)
    assert eq.lhs == pytest.approx(1e-12) and eq.margin > 0
    with pytest.raises(ValueError, match="sense"):
        Comparison(1.0, 2.0, "<")
    with pytest.raises(ValueError, match="tol"):
        Comparison(1.0, 2.0, "<=", tol=1e-3)


def test_material_change_is_relative_to_the_instance():
    c = Comparison(1.0, 1.0, "==")
    assert material(c, c.with_bound(2.0))
    assert not material(c, c.with_bound(1.0 + 1e-8))


def _statement(name, sharpen):
    return Statement(
        name=name,
        evaluate=lambda p, sharpened=False: sharpen(p, sharpened),
        sample=lambda rng: {"x": float(rng.uniform(0.5, 1.5))},
        hp=lambda p: Comparison(mpmath.mpf(p["x"]) ** 2, 2 * mpmath.mpf(p["x"])),
        sharpening=name,
    )


def test_a_sharpening_that_alters_the_measurement_is_rejected(slots):
    st = _statement("lhs + 10 rhs", lambda p, s: Comparison(p["x"] ** 2 + (10 * 2 * p["x"] if s else 0.0),
                                                            2 * p["x"]))

    @claim(EXACT)
    def check(ctx):
        return exact_evidence(ctx, st, n_random=5, n_starts=0)

    ev = run_claim(EXACT)
    assert ev.verdict is Verdict.ERROR and "never the measurement" in ev.summary


def test_a_perturbation_below_materiality_is_not_power():
    st = _statement("identity perturbed by 1e-8", lambda p, s: Comparison(
        p["x"], p["x"] * (1 + 1e-8) if s else p["x"], "==", tol=1e-12))
    ev = exact_evidence(Context(EXACT), st, n_random=10, n_starts=0)
    assert ev.verdict is Verdict.CONFIRMED and not ev.power.caught and "immaterial" in ev.power.detail


def test_a_misreading_is_power_and_is_counted_only_where_the_statement_holds():
    st = _statement("1/2 log det read as log det", lambda p, s: Comparison(
        0.5 * p["x"], p["x"] if s else 0.5 * p["x"], "==", tol=1e-12))
    ev = exact_evidence(Context(EXACT), st, n_random=10, n_starts=0)
    assert ev.verdict is Verdict.CONFIRMED and ev.power.caught and ev.power.detail.startswith("10/10")


def test_statements_are_found_by_name_for_replay():
    st = _statement("x^2 <= 2x (replay lookup)", lambda p, s: Comparison(p["x"] ** 2, 2 * p["x"]))
    assert lookup_statement(st.name) is st
    with pytest.raises(ValueError, match="no statement named"):
        lookup_statement("nothing of that name")


def test_exact_evidence_separates_fixed_from_searched_breaks():
    st = Statement(name="x <= 1 (seeded break)", evaluate=lambda p, sharpened=False: Comparison(p["x"], 1.0),
                   sample=lambda rng: {"x": float(rng.uniform(0, 0.9))},
                   hp=lambda p: Comparison(mpmath.mpf(p["x"]), 1))
    ev = exact_evidence(Context(EXACT), st, n_random=20, n_starts=0, extra=[{"x": 1.5}])
    assert ev.verdict is Verdict.VIOLATED
    assert ev.stats["float_breaks_at_fixed_instances"] == 1 and ev.stats["float_breaks_found_by_search"] == 0
    assert "0 break(s) found by the search itself" in ev.summary


# ---------------------------------------------------------------------------------- probabilistic
def _bernoulli_scores(rng, p_success, n):
    return np.where(rng.random(n) < p_success, 0.5, 2.0)  # score <= 1 with probability p_success


def test_probabilistic_builder_confirms_a_known_bernoulli_and_shows_power():
    rng = np.random.default_rng(0)
    trials = [Trials({"p": 0.99}, np.r_[rng.uniform(0.0, 0.9, 300), [2.0]])]
    ev = probabilistic_evidence(Context(PROB), trials, target=0.95, threshold=1.0, sharpening="band halved",
                                sharpened_threshold=0.45, what="synthetic band")
    assert ev.verdict is Verdict.CONFIRMED and ev.power.caught
    assert ev.instances[0]["successes"] == 300


def test_probabilistic_builder_refutes_a_low_success_rate_with_a_rerun_record():
    rng = np.random.default_rng(1)
    trials = [Trials({"p": 0.7}, _bernoulli_scores(rng, 0.7, 400))]
    ev = probabilistic_evidence(Context(PROB), trials, target=0.8, sharpening="probability 0.99",
                                sharpened_target=0.99, what="synthetic")
    assert ev.verdict is Verdict.VIOLATED
    assert ev.counterexample["rerun"] == {"fidelity": "quick", "seed": 0}
    assert ev.power.caught and ev.power.sharpening.startswith("weakened")


def test_a_probabilistic_event_no_run_could_fail_is_inconclusive():
    rng = np.random.default_rng(2)
    scores = rng.uniform(0.0, 0.05, 100)
    kwargs = dict(target=0.9, threshold=1.0, sharpening="band halved", sharpened_threshold=0.5, what="bound")
    vacuous = probabilistic_evidence(Context(PROB), [Trials({}, scores, attainable=np.full(100, 0.4))], **kwargs)
    assert vacuous.verdict is Verdict.INCONCLUSIVE and "No run could have failed" in vacuous.summary
    one_could = np.r_[np.full(99, 0.4), 1.5]  # a single run where some policy could have broken the bound
    decided = probabilistic_evidence(Context(PROB), [Trials({}, scores, attainable=one_could)], **kwargs)
    assert decided.verdict is Verdict.CONFIRMED
    with pytest.raises(ValueError, match="attainable"):
        Trials({}, scores, attainable=np.ones(3))


def test_probabilistic_sharpening_must_be_stronger():
    trials = [Trials({}, np.zeros(10))]
    with pytest.raises(SharpeningError):
        probabilistic_evidence(Context(PROB), trials, target=0.9, sharpening="wider", sharpened_threshold=2.0, what="x")
    with pytest.raises(SharpeningError):
        probabilistic_evidence(Context(PROB), trials, target=0.9, sharpening="p=1", sharpened_target=1.0, what="x")


# ------------------------------------------------------------------------------------------- rate
def _curves(exponent, reps=12, seed=0):
    rng = np.random.default_rng(seed)
    x = np.geomspace(100, 10_000, 5)
    return x, x[None, :] ** exponent * np.exp(rng.normal(0, 0.05, (reps, x.size)))


@pytest.mark.parametrize("true, claimed, verdict, by", [(0.5, 0.5, "confirmed", 0.2), (0.8, 0.5, "violated", 0.4)])
def test_rate_builder_on_known_exponents(true, claimed, verdict, by):
    x, y = _curves(true)
    ev = rate_evidence(Context(RATE), RateMeasurement(x, y, exponent=claimed, label="R_T"), lowered_by=by,
                       what="synthetic")
    assert ev.verdict.value == verdict and ev.power.caught
    assert len(ev.figures) == 1


def test_rate_builder_is_inconclusive_when_the_growth_is_at_the_edge():
    x, y = _curves(0.5, reps=3, seed=4)
    y = y * np.exp(np.random.default_rng(2).normal(0, 0.6, y.shape))  # noisy: wide CI around the allowance
    ev = rate_evidence(Context(RATE), RateMeasurement(x, y, exponent=0.5), lowered_by=0.2, what="noisy")
    assert ev.verdict is Verdict.INCONCLUSIVE


def test_rate_builder_deterministic_family_and_explicit_bound():
    x = np.geomspace(10, 1000, 4)
    family = np.vstack([x ** 0.5, 2 * x ** 0.5])
    m = RateMeasurement(x, family, exponent=0.5, random=False, bound=3 * x ** 0.5)
    ev = rate_evidence(Context(RATE), m, lowered_by=0.1, what="deterministic")
    assert ev.verdict is Verdict.CONFIRMED and ev.stats["resampled"].startswith("none")
    m_bad = RateMeasurement(x, family, exponent=0.5, random=False, bound=1.5 * x ** 0.5)
    assert rate_evidence(Context(RATE), m_bad, lowered_by=0.1, what="bound").verdict is Verdict.VIOLATED


def test_a_violated_rate_without_a_weakened_pass_has_no_power():
    x, y = _curves(0.9)
    ev = rate_evidence(Context(RATE), RateMeasurement(x, y, exponent=0.5), lowered_by=0.1, what="x")
    assert ev.verdict is Verdict.VIOLATED and not ev.power.caught


def test_rate_ladder_must_be_long_enough_for_the_fidelity():
    x, y = _curves(0.5)
    with pytest.raises(ValueError, match="at least 5 sizes"):
        rate_evidence(Context(RATE, fidelity="full"), RateMeasurement(x[:4], y[:, :4], exponent=0.5),
                      lowered_by=0.2, what="x")
    with pytest.raises(ValueError, match="at least 3 sizes"):
        rate_evidence(Context(RATE), RateMeasurement(x[:2], y[:, :2], exponent=0.5), lowered_by=0.2, what="x")


def test_rate_sharpening_must_be_material():
    x, y = _curves(0.5)
    with pytest.raises(SharpeningError):
        rate_evidence(Context(RATE), RateMeasurement(x, y, exponent=0.5), lowered_by=0.001, what="x")


# ------------------------------------------------------------------------------------- properties
def test_properties_builder_with_sharpened_property_and_mutant():
    props = [Property.compare("queries", Comparison(6, 6, "=="), sharpened=Comparison(6, 7, "==")),
             Property.boolean("trace records beta", True)]
    mutant = [Property.compare("queries", Comparison(7, 6, "=="))]
    ev = properties_evidence(Context(ALGO), props, what="W-SparQ", sharpening="one query more",
                             mutants={"one query too many": mutant})
    assert ev.verdict is Verdict.CONFIRMED and ev.power.caught
    assert ev.stats["mutants"] == {"one query too many": "violated"}
    failing = properties_evidence(Context(ALGO), mutant, what="mutant")
    assert failing.verdict is Verdict.VIOLATED and failing.counterexample["rerun"]["seed"] == 0


def test_properties_without_power_say_so():
    ev = properties_evidence(Context(ALGO), [Property.boolean("x", True)], what="x")
    assert not ev.power.caught


# ----------------------------------------------------------------------------------------- replay
def test_replay_of_a_rerun_record_reproduces_the_statistic(slots):
    @claim(PROB)
    def check(ctx):
        scores = [float(g.random() < 0.6) * 2 for g in ctx.spawn(200)]  # score 2 (a failure) in 60 %
        return probabilistic_evidence(ctx, [Trials({}, scores)], target=0.9, sharpening="p=0.95",
                                      sharpened_target=0.95, what="rerun")

    ev = run_claim(PROB, seed=7)
    assert ev.verdict is Verdict.VIOLATED
    res = replay(PROB, ev.counterexample)
    assert res.violated and "reproduced" in res.detail


# ------------------------------------------------------------------------------------- real data
def test_analogue_properties_are_reported_and_undecided():
    for verdict in (Verdict.CONFIRMED, Verdict.VIOLATED):
        p = Property("a below b", verdict, detail="CI", power=Power("x", True, "y"))
        q = on_analogue_data(p)
        assert q.verdict is Verdict.INCONCLUSIVE and f"measured {verdict.value}" in q.detail and q.power is p.power
        assert q.name == "a below b [analogue data]"


def test_unshipped_data_keeps_the_experiment_undecided_and_says_what_stood_in():
    track = {"arms": 144, "rounds": 48, "distinct_best_arms": 13, "best_arm_change_fraction": 0.6}
    text = tracking_text(track, "plyr/ozone sites", "sites")
    assert text == "144 plyr/ozone sites over 48 months (13 distinct best sites, the best one changes in 60% of months)"
    p = unshipped_data("28 sensors", text)
    assert p.verdict is Verdict.INCONCLUSIVE and p.name == "the paper's data (28 sensors)"
    assert p.detail == "analogue data: " + text
