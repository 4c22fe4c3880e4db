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
from tvbo_verify.verify.comparison import CircularBoundError, material
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


def test_a_probabilistic_refutation_is_powered_by_one_failing_configuration_that_passes_the_weakened_event():
    rng = np.random.default_rng(3)
    mild = Trials({"c": "mild"}, rng.uniform(0.5, 1.5, 200))  # fails <= 1 at 0.95, passes the weakened <= 3
    gross = Trials({"c": "gross"}, rng.uniform(5.0, 9.0, 200))  # fails even the weakened event
    kwargs = dict(target=0.95, threshold=1.0, sharpening="band halved", sharpened_threshold=0.5, what="band")
    both = probabilistic_evidence(Context(PROB), [mild, gross], **kwargs)
    assert both.verdict is Verdict.VIOLATED and both.power.caught
    only_gross = probabilistic_evidence(Context(PROB), [gross], **kwargs)
    assert only_gross.verdict is Verdict.VIOLATED and not only_gross.power.caught


def test_a_probabilistic_event_no_run_could_fail_is_inconclusive():
    rng = np.random.default_rng(2)
    scores = rng.uniform(0.0, 0.05, 100)
    kwargs = dict(target=0.9, threshold=1.0, sharpening="band halved", sharpened_threshold=0.5, what="bound")
    vacuous = probabilistic_evidence(Context(PROB), [Trials({}, scores, attainable=np.full(100, 0.4))], **kwargs)
    assert vacuous.verdict is Verdict.INCONCLUSIVE and "no run could have failed" in vacuous.summary
    assert vacuous.stats["vacuous_configurations"] == 1
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


# ------------------------------------------------------------------- bounds fixed before the measurement
def _markov_draws(ctx, n=2000):
    """Draws of a law with 10 % of its mass at 30 and the rest uniform on [0, 0.8] (mean 3.36): with η set to the
    observed mean, Markov's P(X <= 2η/δ) >= 1 − δ/2 holds whatever the law; with η = 0.05 fixed beforehand
    (δ = 0.05, bound 2), it fails."""
    rng = np.random.default_rng(ctx.seeds(1)[0])
    return np.where(rng.random(n) < 0.1, 30.0, rng.uniform(0.0, 0.8, n))


def test_a_bound_fixed_from_the_observed_mean_is_refused():
    """The old sparq:eq-24: η set to the mean of what was drawn, then KL <= 2η/δ 'tested' — Markov holds for every
    law, so the check cannot fail. The constants of a bound are fixed before anything is drawn."""
    ctx = Context(PROB)
    pilot = _markov_draws(ctx)
    with pytest.raises(CircularBoundError, match="after ctx.seeds started the measurement"):
        ctx.fix(eta=float(pilot.mean()), delta=0.05)
    for start in (lambda c: c.rng, lambda c: c.spawn(1), lambda c: c.map(abs, [1])):
        late = Context(PROB)
        start(late)
        with pytest.raises(CircularBoundError):
            late.fix(delta=0.05)


def test_trials_against_build_their_bound_from_fixed_constants_only():
    ctx = Context(PROB)
    with pytest.raises(CircularBoundError, match="not built from constants fixed before the measurement"):
        Trials.against({}, np.zeros(5), {"eta": 1.0, "delta": 0.05}, lambda c: 2 * c["eta"] / c["delta"],
                       lambda c: c["eta"])
    fixed = ctx.fix(eta=0.05, delta=0.05)
    with pytest.raises(TypeError, match="read-only"):
        fixed["eta"] = 1.0
    with pytest.raises(TypeError, match="function of the fixed constants"):
        Trials.against({}, np.zeros(5), fixed, 2.0, "eta")
    draws = _markov_draws(ctx)
    trials = Trials.against({"law": "10 % at 30"}, draws, fixed, lambda c: 2 * c["eta"] / c["delta"], "eta")
    assert trials.extra["fixed constants"] == {"eta": 0.05, "delta": 0.05} and trials.extra["bound"] == 2.0
    ev = probabilistic_evidence(ctx, [trials], target=0.975, threshold=1.0, sharpening="Markov's 2/δ dropped",
                                sharpened_threshold=0.0, what="Markov step")
    assert ev.verdict is Verdict.VIOLATED  # the stated η = 0.05 is below the mean 1.0: the event fails
    generous = Trials.against({}, draws, fixed, lambda c: 40.0, "eta")
    assert probabilistic_evidence(ctx, [generous], target=0.85, threshold=1.0, sharpening="η", sharpened_threshold=0.0,
                                  what="x").verdict is Verdict.CONFIRMED


def test_property_against_builds_its_bound_from_fixed_constants_only():
    ctx = Context(ALGO)
    fixed = ctx.fix(c=2.0)
    ok = Property.against("x <= c", 1.5, fixed, "c", sharpened=lambda f: f["c"] / 2)
    assert ok.verdict is Verdict.CONFIRMED and ok.sharpened.bound == 1.0
    with pytest.raises(CircularBoundError):
        Property.against("x <= c", 1.5, {"c": 2.0}, "c")


# ------------------------------------------------------------------------------------------- rate
def _curves(exponent, reps=12, seed=0):
    rng = np.random.default_rng(seed)
    x = np.geomspace(100, 10_000, 5)
    return x, x[None, :] ** exponent * np.exp(rng.normal(0, 0.05, (reps, x.size)))


def _linear_control(name="fixed arm", seed=9):
    x, y = _curves(1.0, seed=seed)
    return RateMeasurement(x, y, exponent=0.5, name=name)


@pytest.mark.parametrize("true, claimed, verdict, by", [(0.5, 0.5, "confirmed", 0.2), (0.8, 0.5, "violated", 0.4)])
def test_rate_builder_on_known_exponents(true, claimed, verdict, by):
    x, y = _curves(true)
    ev = rate_evidence(Context(RATE), RateMeasurement(x, y, exponent=claimed, label="R_T"), lowered_by=by,
                       what="synthetic", controls=[_linear_control()])
    assert ev.verdict.value == verdict and ev.power.caught
    assert len(ev.figures) == 1
    assert ev.controls[0].failed and ev.controls[0].name == "fixed arm"
    assert 0.05 < ev.stats["resolution"] < by


def test_rate_builder_is_inconclusive_when_the_growth_is_at_the_edge():
    x, y = _curves(0.5, reps=3, seed=4)
    y = y * np.exp(np.random.default_rng(2).normal(0, 0.6, y.shape))  # noisy: wide CI around the allowance
    ev = rate_evidence(Context(RATE), RateMeasurement(x, y, exponent=0.5), lowered_by=0.2, what="noisy")
    assert ev.verdict is Verdict.INCONCLUSIVE


def test_rate_builder_deterministic_family_and_explicit_bound():
    x = np.geomspace(10, 1000, 4)
    family = np.vstack([x ** 0.5, 2 * x ** 0.5])
    m = RateMeasurement(x, family, exponent=0.5, random=False, bound=3 * x ** 0.5, max_exponent=None)
    ev = rate_evidence(Context(RATE), m, lowered_by=0.1, what="deterministic")
    assert ev.verdict is Verdict.CONFIRMED and ev.stats["resampled"].startswith("none")
    assert ev.stats["resolution"] == pytest.approx(m.allowance)  # no interval: the allowance alone
    m_bad = RateMeasurement(x, family, exponent=0.5, random=False, bound=1.5 * x ** 0.5, max_exponent=None)
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
    with pytest.raises(ValueError, match="spanning 1 decades"):  # quick spans a decade of the claim's size
        short = np.geomspace(100, 500, 3)
        rate_evidence(Context(RATE), RateMeasurement(short, y[:, :3], exponent=0.5), lowered_by=0.2, what="x")


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


# ------------------------------------------------------------- rules of checks decided from runs
def _trace(regret, max_regret):
    """A run with per-round regret ``regret`` on an environment whose per-round range is ``max_regret``."""
    from tvbo_verify.bandits.traces import Trace

    r = np.asarray(regret, float)
    T, z = r.size, np.zeros(r.size)
    return Trace(np.zeros(T, dtype=np.int64), np.zeros((T, 1)), z, r, np.cumsum(r), np.zeros(T, dtype=np.int64),
                 np.zeros(T, dtype=np.int64), z, z, z, {},
                 max_regret=None if max_regret is None else np.broadcast_to(np.asarray(max_regret, float), r.shape))


def test_a_rate_whose_control_does_not_fail_is_inconclusive():
    x, y = _curves(0.5)
    passing_control = RateMeasurement(*_curves(0.5, seed=3), exponent=0.5, name="a copy of the method")
    ev = rate_evidence(Context(RATE), RateMeasurement(x, y, exponent=0.5), lowered_by=0.2, what="x",
                       controls=[passing_control])
    assert ev.verdict is Verdict.INCONCLUSIVE and "no negative control failed" in ev.summary
    assert ev.controls[0].verdict is Verdict.CONFIRMED and not ev.controls[0].failed
    assert {"negative control": "a copy of the method", "verdict": "confirmed"}.items() <= ev.instances[-1].items()
    none = rate_evidence(Context(RATE), RateMeasurement(x, y, exponent=0.5), lowered_by=0.2, what="x")
    assert none.verdict is Verdict.INCONCLUSIVE and "none run" in none.summary
    # a deterministic family is not a run: no control is needed
    det = rate_evidence(Context(RATE), RateMeasurement(x, y[:2], exponent=0.5, random=False), lowered_by=0.2,
                        what="x")
    assert det.verdict is Verdict.CONFIRMED


def test_a_rate_needs_every_control_refuted_and_names_the_one_that_was_not():
    x, y = _curves(0.5)
    passing_control = RateMeasurement(*_curves(0.5, seed=3), exponent=0.5, name="a copy of the method")
    both = [_linear_control(), passing_control]
    ev = rate_evidence(Context(RATE), RateMeasurement(x, y, exponent=0.5), lowered_by=0.2, what="x", controls=both)
    assert [c.failed for c in ev.controls] == [True, False]
    assert ev.verdict is Verdict.INCONCLUSIVE
    assert "a negative control was not refuted (not refuted: a copy of the method: confirmed)" in ev.summary
    refuted = [_linear_control(), _linear_control("uniform random", seed=4)]
    ok = rate_evidence(Context(RATE), RateMeasurement(x, y, exponent=0.5), lowered_by=0.2, what="x", controls=refuted)
    assert ok.verdict is Verdict.CONFIRMED


def test_a_rate_control_is_named_and_measured_on_the_claims_ladder():
    x, y = _curves(0.5)
    m = RateMeasurement(x, y, exponent=0.5)
    with pytest.raises(ValueError, match="needs a name"):
        rate_evidence(Context(RATE), m, lowered_by=0.2, what="x", controls=[RateMeasurement(x, y, exponent=0.5)])
    other = RateMeasurement(x * 2, y, exponent=0.5, name="elsewhere")
    with pytest.raises(ValueError, match="claim's ladder"):
        rate_evidence(Context(RATE), m, lowered_by=0.2, what="x", controls=[other])


def test_a_rate_that_cannot_resolve_its_exponent_is_inconclusive():
    x, y = _curves(0.97)
    m = RateMeasurement(x, y, exponent=0.97, max_exponent=1.0)  # a cumulative regret: linear is 1, a gap of 0.03
    ev = rate_evidence(Context(RATE), m, lowered_by=0.3, what="x", controls=[_linear_control()])
    assert ev.verdict is Verdict.INCONCLUSIVE and ev.stats["resolution"] > 0.05
    assert "cannot separate exponent 0.97 from 1 (linear regret" in ev.summary
    resolved = RateMeasurement(*_curves(0.8), exponent=0.8, max_exponent=1.0)  # a gap of 0.2: resolved
    assert rate_evidence(Context(RATE), resolved, lowered_by=0.3, what="x", controls=[
        RateMeasurement(*_curves(1.0, seed=9), exponent=0.8, name="fixed arm")]).verdict is Verdict.CONFIRMED
    near = RateMeasurement(x, _curves(0.5)[1], exponent=0.5, misreading=0.45, misreading_label="a dropped factor")
    ev2 = rate_evidence(Context(RATE), near, lowered_by=0.2, what="x", controls=[_linear_control()])
    assert ev2.verdict is Verdict.INCONCLUSIVE and "(a dropped factor): needed < 0.05" in ev2.summary
    far = RateMeasurement(x, _curves(0.5)[1], exponent=0.5, misreading=0.25)
    assert rate_evidence(Context(RATE), far, lowered_by=0.2, what="x",
                         controls=[_linear_control()]).verdict is Verdict.CONFIRMED


def test_a_rate_sharpening_within_the_resolution_is_no_power():
    x, y = _curves(0.5)
    y = y * x[None, :] ** 0.04  # measured slope just inside the allowance: a tiny sharpening is "caught"
    ev = rate_evidence(Context(RATE), RateMeasurement(x, y, exponent=0.5), lowered_by=0.05, what="x",
                       controls=[_linear_control()])
    assert not ev.power.caught and "within the resolution" in ev.power.detail


def test_an_infeasible_lower_rate_sharpening_is_refused():
    x, y = _curves(1.0)
    with pytest.raises(SharpeningError, match="no objective satisfies it"):
        rate_evidence(Context(RATE), RateMeasurement(x, y, exponent=1.0, sense=">=", max_exponent=1.0), lowered_by=0.25,
                      what="x")
    x, y = _curves(0.6)
    ok = rate_evidence(Context(RATE), RateMeasurement(x, y, exponent=0.5, sense=">="), lowered_by=0.25, what="x",
                       controls=[RateMeasurement(*_curves(0.2), exponent=0.5, sense=">=", name="slower")])
    assert ok.verdict is Verdict.CONFIRMED and ok.power.caught


def test_a_linear_lower_rate_takes_its_power_from_a_control_that_grows_more_slowly():
    x, y = _curves(1.0)
    linear = RateMeasurement(x, y, exponent=1.0, sense=">=", max_exponent=1.0)
    learns = RateMeasurement(*_curves(0.5, seed=3), exponent=1.0, sense=">=", max_exponent=1.0, name="a learner")
    ev = rate_evidence(Context(RATE), linear, lowered_by=0.5, what="x", controls=[learns])
    assert ev.verdict is Verdict.CONFIRMED and ev.power.caught and "no feasible sharpening" in ev.power.sharpening
    assert ev.controls[0].verdict is Verdict.VIOLATED
    # a control that grows as fast as the method cannot fail: no power, and no confirmation
    same = RateMeasurement(*_curves(1.0, seed=4), exponent=1.0, sense=">=", max_exponent=1.0, name="a copy")
    ev = rate_evidence(Context(RATE), linear, lowered_by=0.5, what="x", controls=[same])
    assert ev.verdict is Verdict.INCONCLUSIVE and not ev.power.caught
    # a sublinear method is refuted, and the weakened rate (exponent lowered by 0.5) is not
    sub = RateMeasurement(*_curves(0.5), exponent=1.0, sense=">=", max_exponent=1.0)
    ev = rate_evidence(Context(RATE), sub, lowered_by=0.5, what="x", controls=[learns])
    assert ev.verdict is Verdict.VIOLATED and ev.power.caught and ev.power.sharpening.startswith("weakened")


def test_rate_from_traces_carries_the_trivial_bound_and_a_vacuous_bound_is_inconclusive():
    x = np.array([10.0, 40.0, 160.0])
    rng = np.random.default_rng(0)
    columns = [[_trace(rng.uniform(0, 1, int(T)) / np.sqrt(np.arange(1, T + 1)), 2.0) for _ in range(6)] for T in x]
    m = RateMeasurement.from_traces(x, columns, 0.5, bound=3.0 * x ** 0.5)
    np.testing.assert_allclose(m.trivial, np.broadcast_to(2.0 * x, m.measured.shape))
    assert m.max_exponent == 1.0 and m.label == "R_T"
    assert RateMeasurement(x, m.measured, 0.5).max_exponent is None  # not declared a regret
    vac = RateMeasurement.from_traces(x, columns, 0.5, bound=5.0 * x)  # above 2T: no run could break it
    ev = rate_evidence(Context(RATE), vac, lowered_by=0.2, what="x", controls=[
        RateMeasurement.from_traces(x, [[_trace(np.ones(int(T)), 2.0)] * 6 for T in x], 0.5, name="fixed arm")])
    assert ev.verdict is Verdict.INCONCLUSIVE and "vacuous at this set-up" in ev.summary
    with pytest.raises(ValueError, match="trivial bound of its runs"):  # a bound on runs without it
        RateMeasurement(x, m.measured, 0.5, bound=3.0 * x ** 0.5)
    with pytest.raises(ValueError, match="max_regret"):
        RateMeasurement.from_traces(x, [[_trace(np.ones(int(T)), None)] for T in x], 0.5)
    avg = RateMeasurement.from_traces(x, columns, -0.5, average=True)
    assert avg.max_exponent == 0.0 and avg.label == "R_T/T"
    np.testing.assert_allclose(avg.measured, m.measured / x[None, :])


def test_a_regret_bound_trials_needs_the_trivial_bound():
    with pytest.raises(ValueError, match="Trials.from_traces"):
        Trials({"T": 10}, np.zeros(5), regret_bound=True)
    runs = [_trace(np.full(10, 0.5), 1.0) for _ in range(20)]
    t = Trials.from_traces({"T": 10}, runs, bound=8.0, sharpened=4.0)
    assert t.regret_bound and np.allclose(t.scores, 0.25) and np.allclose(t.attainable, 1.5)
    assert t.extra["mean trivial bound"] == pytest.approx(10.0)
    vacuous = Trials.from_traces({"T": 10}, runs, bound=12.0, sharpened=4.0)
    assert not vacuous.could_fail(1.0, "<=")
    with pytest.raises(ValueError, match="max_regret"):
        Trials.from_traces({}, [_trace(np.ones(4), None)], bound=8.0, sharpened=4.0)
    per_step = Trials.from_traces({}, runs, bound=np.full(10, 0.75), sharpened=np.full(10, 0.25), per_step=True)
    assert np.allclose(per_step.scores, 0.5) and np.allclose(per_step.attainable, 1.5)


PROB_KW = dict(target=0.9, threshold=1.0, sharpened_threshold=0.0, sharpening="bound halved", what="regret bound")


def test_a_vacuous_regret_bound_is_inconclusive_and_a_failing_control_is_needed():
    runs = [_trace(np.full(10, 0.5), 1.0) for _ in range(40)]
    bad = [_trace(np.full(10, 0.95), 1.0) for _ in range(40)]
    control = Trials.from_traces({"control": "fixed arm"}, bad, bound=8.0, sharpened=4.0)
    ok = probabilistic_evidence(Context(PROB), [Trials.from_traces({"T": 10}, runs, 8.0, 4.0)], controls=[control],
                                **PROB_KW)
    assert ok.verdict is Verdict.CONFIRMED and ok.controls[0].failed and ok.power.caught
    no_control = probabilistic_evidence(Context(PROB), [Trials.from_traces({"T": 10}, runs, 8.0, 4.0)], **PROB_KW)
    assert no_control.verdict is Verdict.INCONCLUSIVE and "no negative control failed (none run)" in no_control.summary
    weak = Trials.from_traces({"control": "a good policy"}, runs, bound=8.0, sharpened=4.0)
    passing = probabilistic_evidence(Context(PROB), [Trials.from_traces({"T": 10}, runs, 8.0, 4.0)],
                                     controls=[weak], **PROB_KW)
    assert passing.verdict is Verdict.INCONCLUSIVE and "a good policy: confirmed" in passing.summary
    vac = probabilistic_evidence(Context(PROB), [Trials.from_traces({"T": 10}, runs, 8.0, 4.0),
                                                 Trials.from_traces({"T": 5}, runs, 12.0, 4.0)],
                                 controls=[control], **PROB_KW)
    assert vac.verdict is Verdict.INCONCLUSIVE and "vacuous at this set-up: bound 12 ≥ trivial 10" in vac.summary


def test_probabilistic_power_needs_every_configuration():
    rng = np.random.default_rng(5)
    tight = Trials({"c": "tight"}, rng.uniform(0.0, 0.3, 200))   # the sharpened threshold 0.45 holds here
    loose = Trials({"c": "loose"}, rng.uniform(0.6, 0.9, 200))   # and is refuted here
    kw = dict(target=0.95, threshold=1.0, sharpening="band halved", sharpened_threshold=0.45, what="x")
    both = probabilistic_evidence(Context(PROB), [loose, loose], **kw)
    assert both.verdict is Verdict.CONFIRMED and both.power.caught
    one = probabilistic_evidence(Context(PROB), [loose, tight], **kw)
    assert one.verdict is Verdict.CONFIRMED and not one.power.caught and "1 of 2" in one.power.detail


def test_properties_power_needs_every_sharpened_part():
    caught = Property.compare("a", Comparison(1.0, 1.0, "=="), sharpened=Comparison(1.0, 2.0, "=="))
    missed = Property.compare("b", Comparison(1.0, 3.0, "<="), sharpened=Comparison(1.0, 2.0, "<="))
    assert properties_evidence(Context(ALGO), [caught, caught], what="x").power.caught
    ev = properties_evidence(Context(ALGO), [caught, missed], what="x")
    assert ev.verdict is Verdict.CONFIRMED and not ev.power.caught and "not: b" in ev.power.detail
    # a structural fact declares no sharpening and neither lends nor takes power
    assert properties_evidence(Context(ALGO), [caught, Property.boolean("fact", True)], what="x").power.caught


def _comparison(a, b, lo, hi):
    return {"a": a, "b": b, "difference": {"mean": (lo + hi) / 2, "ci95": [lo, hi]}, "ratio": 0.5,
            "ratio_ci95": [0.4, 0.6]}


def test_an_ordering_needs_a_control_that_fails():
    from tvbo_verify.verify.builders import ordering_property

    better = _comparison("TV-GP-UCB", "R-GP-UCB", -3.0, -1.0)
    none = properties_evidence(Context(ALGO), [ordering_property("TV below R", better)], what="x")
    assert none.verdict is Verdict.INCONCLUSIVE and "no negative control failed" in none.instances[0]["detail"]
    failing = ordering_property("TV below R", better, control=_comparison("random", "R-GP-UCB", 5.0, 9.0))
    ev = properties_evidence(Context(ALGO), [failing], what="x")
    assert ev.verdict is Verdict.CONFIRMED and ev.controls[0].failed and ev.controls[0].name == "random vs R-GP-UCB"
    assert "1 of 1 came out violated" in ev.summary
    passing = ordering_property("TV below R", better, control=_comparison("random", "R-GP-UCB", -2.0, -1.0))
    assert properties_evidence(Context(ALGO), [passing], what="x").verdict is Verdict.INCONCLUSIVE
    # a contradicted ordering stays contradicted whatever its control
    worse = ordering_property("TV below R", _comparison("TV-GP-UCB", "R-GP-UCB", 1.0, 2.0))
    assert properties_evidence(Context(ALGO), [worse], what="x").verdict is Verdict.VIOLATED


def test_a_claim_whose_twin_disagrees_with_its_float_check_ends_in_error(slots):
    st = Statement(name="x <= 1 (a twin of another statement)",
                   evaluate=lambda p, sharpened=False: Comparison(p["x"], 1.0),
                   sample=lambda rng: {"x": float(rng.uniform(1.1, 1.5))},
                   hp=lambda p: Comparison(mpmath.mpf(p["x"]) / 2, 1))  # computes x/2: it would "refute" every break

    @claim(EXACT)
    def check(ctx):
        return exact_evidence(ctx, st, n_random=5, n_starts=0)

    ev = run_claim(EXACT)
    assert ev.verdict is Verdict.ERROR and "referee twin disagrees with the check: float" in ev.summary


def test_a_violated_rate_whose_weakened_exponent_reaches_linear_regret_has_no_power():
    """Not refuting x^(e + lowered_by) >= x^1 shows nothing for a regret (no run can exceed linear growth)."""
    x, y = _curves(1.0)
    m = RateMeasurement(x, y, exponent=0.5, max_exponent=1.0)
    ev = rate_evidence(Context(RATE), m, lowered_by=0.5, what="linear regret against √T")
    assert ev.verdict is Verdict.VIOLATED and not ev.power.caught and "reaches x^1" in ev.power.detail
    narrow = rate_evidence(Context(RATE), m, lowered_by=0.3, what="x")  # x^0.8 is still refutable
    assert narrow.verdict is Verdict.VIOLATED and "reaches" not in narrow.power.detail


def test_a_violated_rate_takes_its_power_from_a_positive_contrast_that_the_rule_does_not_refute():
    x, y = _curves(1.0)
    m = RateMeasurement(x, y, exponent=0.5, max_exponent=1.0)
    _, root = _curves(0.5)
    reaches = RateMeasurement(x, root, exponent=0.5, name="a method at the rate")
    ev = rate_evidence(Context(RATE), m, lowered_by=0.5, contrasts=[reaches], what="linear regret against √T")
    assert ev.verdict is Verdict.VIOLATED and ev.power.caught and ev.stats["contrasts"][0]["verdict"] != "violated"
    linear = RateMeasurement(x, y, exponent=0.5, name="another linear method")
    broken = rate_evidence(Context(RATE), m, lowered_by=0.5, contrasts=[linear], what="linear regret against √T")
    assert broken.verdict is Verdict.VIOLATED and not broken.power.caught


def test_an_experiment_whose_compared_method_differs_from_its_definition_ends_in_error(tmp_path):
    from tvbo_verify.bandits.beta import log_rule
    from tvbo_verify.mutants.apply import applied
    from tvbo_verify.mutants.catalog import get_mutant
    from tvbo_verify.sweeps import Arm, Sweep, SweepResult
    from tvbo_verify.sweeps.audit import DefinitionMismatch
    from tvbo_verify.sweeps.cache import RunCache
    from tvbo_verify.sweeps.reproduce.analysis import Finding
    from tvbo_verify.sweeps.reproduce.registry import Outcome, Reproduction
    from tvbo_verify.verify.builders.experiment import outcome_evidence

    sweep = Sweep("sw", (Arm("SW-GP-UCB", "sw-gp-ucb", {"window": 8}, log_rule()), Arm("random", "random")),
                  "tvgpucb-markov", (40,), 1, {"points_per_dim": 60, "d": 1})
    rep = Reproduction("test:sw", "wgpucb", "a test", "set-up", "expected", lambda f: {"sw": sweep},
                       lambda r, g: Finding("found"), lambda r, f: None)
    outcome = Outcome(rep, "quick", Finding("found"), {"sw": SweepResult(sweep, {})}, 0.0)
    props = [Property.boolean("a property", True)]
    ok = outcome_evidence(Context(ALGO, cache=RunCache(tmp_path / "a")), outcome, props, what="x")
    assert ok.verdict is Verdict.CONFIRMED
    audited = "definition audit: 1/1 methods reproduce their definition (not audited: random, keeps no model)"
    assert audited in ok.summary
    assert ok.stats["definition_audit"]["methods"][0]["reproduces"]
    with applied(get_mutant("swgpucb-window-off-by-one")), pytest.raises(
            DefinitionMismatch, match="^sw-gp-ucb does not implement its definition: first divergence at round"):
        outcome_evidence(Context(ALGO, cache=RunCache(tmp_path / "b")), outcome, props, what="x")


def test_an_experiment_runs_the_algorithms_as_its_figures_paper_defines_them(tmp_path):
    """SparQ-GP-UCB of the sparq paper (recent observations kept, ⌈6 log T⌉ queries) is not the SparQ-GP-UCB the
    wsparq paper defines (its Algorithm 1: expert answers only, Q_t = ⌈6 log t⌉): a wsparq experiment running the
    former ends in error, and each paper's experiment runs with its own."""
    from tvbo_verify.sweeps import Arm, Sweep, SweepResult
    from tvbo_verify.sweeps.audit import DefinitionMismatch
    from tvbo_verify.sweeps.cache import RunCache
    from tvbo_verify.sweeps.reproduce.analysis import Finding
    from tvbo_verify.sweeps.reproduce.registry import Outcome, Reproduction
    from tvbo_verify.verify.builders.experiment import outcome_evidence

    env = {"points_per_dim": 60, "d": 1}
    sparq_arm = Arm("SparQ-GP-UCB", "sparq-gp-ucb", {"queries": "experiments", "c_q": 6.0})
    wsparq_arm = Arm("SparQ-GP-UCB", "sparq-gp-ucb", {"queries": "log", "c_q": 6.0, "keep_recent": False})
    props = [Property.boolean("a property", True)]

    def evidence(paper: str, arm: Arm, cache: str):
        sweep = Sweep("sparse", (arm,), "tvgpucb-markov", (30,), 1, env)
        rep = Reproduction(f"test:{paper}", paper, "a test", "set-up", "expected", lambda f: {"s": sweep},
                           lambda r, g: Finding("found"), lambda r, f: None)
        outcome = Outcome(rep, "quick", Finding("found"), {"s": SweepResult(sweep, {})}, 0.0)
        return outcome_evidence(Context(ALGO, cache=RunCache(tmp_path / cache)), outcome, props, what="x")

    with pytest.raises(DefinitionMismatch, match="replays sparq Algorithm 1 .*but wsparq defines its own sparq-gp-ucb"):
        evidence("wsparq", sparq_arm, "a")
    with pytest.raises(DefinitionMismatch, match="replays wsparq Algorithm 1 .*but sparq defines its own sparq-gp-ucb"):
        evidence("sparq", wsparq_arm, "b")
    ok = evidence("wsparq", wsparq_arm, "c")
    assert ok.verdict is Verdict.CONFIRMED and "replayed: SparQ-GP-UCB as wsparq Algorithm 1" in ok.summary
    assert ok.stats["definition_audit"]["methods"][0]["paper"] == "wsparq"
    assert evidence("sparq", sparq_arm, "d").stats["definition_audit"]["methods"][0]["paper"] == "sparq"


def test_an_experiment_audits_its_methods_before_any_run(tmp_path, monkeypatch):
    from tvbo_verify.mutants.apply import applied
    from tvbo_verify.mutants.catalog import get_mutant
    from tvbo_verify.sweeps import Arm, Sweep, reproduce
    from tvbo_verify.sweeps.audit import DefinitionMismatch
    from tvbo_verify.sweeps.cache import RunCache
    from tvbo_verify.sweeps.reproduce.analysis import Finding
    from tvbo_verify.sweeps.reproduce.registry import Reproduction
    from tvbo_verify.verify.builders.experiment import audited_outcome

    sweep = Sweep("fifo", (Arm("FIFO", "fifo-gp-ucb", {"size": 8}),), "bolt-st", (40,), 3)
    rep = Reproduction("test:fifo", "bolt", "a test", "set-up", "expected", lambda f: {"fifo": sweep},
                       lambda r, g: Finding("found"), lambda r, f: None)
    measured = []
    monkeypatch.setattr(reproduce, "measure", lambda *a, **k: measured.append(1))
    with applied(get_mutant("fifo-size-off-by-one")), pytest.raises(DefinitionMismatch, match="round 9"):
        audited_outcome(Context(ALGO, cache=RunCache(tmp_path)), rep)
    assert not measured


def test_a_claim_over_free_constants_ends_in_error_when_a_compared_method_differs_from_its_definition(tmp_path):
    from tvbo_verify.mutants.apply import applied
    from tvbo_verify.mutants.catalog import get_mutant
    from tvbo_verify.sweeps.cache import RunCache
    from tvbo_verify.verify import run_claim

    with applied(get_mutant("wdbo-budget-not-consumed")):
        ev = run_claim("bolt:table-3", seed=0, cache=RunCache(tmp_path))
    assert ev.verdict is Verdict.ERROR and "w-dbo does not implement its definition" in ev.summary


def test_an_ordering_has_power_from_the_resolution_of_its_ratio_wherever_it_lies():
    from tvbo_verify.verify.builders import ordering_property

    far_below = {**_comparison("TV", "R", -3.0, -1.0), "ratio_ci95": [0.05, 0.1]}
    assert ordering_property("TV below R", far_below).power.caught  # nothing left to refute, fully resolved
    just_below = {**_comparison("TV", "R", -3.0, -1.0), "ratio_ci95": [0.4, 0.9]}
    assert ordering_property("TV below R", just_below).power.caught  # refutes "below a third"
    vague = {**_comparison("TV", "R", -3.0, -1.0), "ratio_ci95": [0.1, 0.9]}
    assert not ordering_property("TV below R", vague).power.caught  # could not tell 1/3 from 1


def _false_everywhere(corrected: bool, corrected_breaks: bool = False):
    """x² <= x²/2: an identity printed without its ½, false at every x != 0 (an erratum that holds nowhere)."""
    import mpmath

    from tvbo_verify.verify.comparison import Comparison
    from tvbo_verify.verify.statement import Statement

    class PrintedWithoutItsHalf(Statement):
        name = f"demo: x^2 <= x^2 / 2 (contrast {corrected}, {corrected_breaks})"
        sharpening = "bound halved"

        def sample(self, rng):
            return {"x": float(rng.uniform(0.5, 2.0))}

        def evaluate(self, p, sharpened=False):
            bound = p["x"] ** 2 / 2
            return Comparison(p["x"] ** 2, bound / 2 if sharpened else bound, "<=")

        def hp(self, p):  # the 50-digit referee of a break
            x = mpmath.mpf(p["x"])
            return Comparison(x * x, x * x / 2, "<=")

    if corrected:
        PrintedWithoutItsHalf.corrected = staticmethod(
            lambda p: Comparison(p["x"] ** 2 / (1 if corrected_breaks else 2), p["x"] ** 2 / 2, "<="))
    return PrintedWithoutItsHalf()


@pytest.mark.parametrize("corrected, corrected_breaks, caught", [(False, False, False), (True, False, True),
                                                                 (True, True, False)])
def test_a_violation_of_a_statement_false_everywhere_has_power_from_its_corrected_form(corrected, corrected_breaks,
                                                                                         caught):
    from tvbo_verify.verify.evidence import Verdict
    from tvbo_verify.verify.search import search

    res = search(_false_everywhere(corrected, corrected_breaks), np.random.default_rng(0), n_random=20, n_starts=0)
    assert res.decision.verdict is Verdict.VIOLATED
    assert bool(res.power and res.power.caught) is caught
    if corrected:
        assert "positive contrast" in res.power.sharpening


def test_a_control_must_come_out_violated_and_cannot_record_a_disagreement():
    from tvbo_verify.verify.claimlist import ClaimRow, _parse

    row = ClaimRow("demo:false", "demo", "Lemma 1 (control)", "exact", "control", "a deliberately false identity")
    assert row.is_control and row.accepts("violated") and not row.accepts("confirmed")
    text = ("id,paper,ref,kind,expect,title,spec,disagreement\n"
            "demo:false,demo,Lemma 1,exact,control,t,,\"Measured confirmed, not control: it held\"\n")
    with pytest.raises(ValueError, match="a control must come out violated"):
        _parse(text, "demo.csv")
