"""Engine tests with small synthetic claims registered under ids of the claim list."""

from __future__ import annotations

import json

import mpmath
import numpy as np
import pytest

from tvbo_verify.verify import (
    Comparison,
    Context,
    Evidence,
    Power,
    Statement,
    Verdict,
    claim,
    claim_rows,
    exact_evidence,
    matches,
    registry,
    run_claim,
)
from tvbo_verify.verify.claimlist import EXPECTED_VERDICT, claim_row
from tvbo_verify.verify.engine import claim_seed, replay
from tvbo_verify.verify.search import search

SLOT = "wsparq:assumption-1"  # an exact claim id used as a slot for synthetic checks


@pytest.fixture
def slot():
    """Temporarily free the registry slot ``SLOT`` and restore whatever was there."""
    registry.load_all()
    saved = registry._REGISTRY.pop(SLOT, None)
    yield SLOT
    registry._REGISTRY.pop(SLOT, None)
    if saved is not None:
        registry._REGISTRY[SLOT] = saved


def test_claim_list_has_every_row_and_valid_expectations():
    rows = claim_rows()
    assert len(rows) == 209
    assert len({r.id for r in rows}) == len(rows)
    assert all(r.expect in EXPECTED_VERDICT for r in rows)
    for r in rows:
        if r.id.endswith("+corrected"):
            assert r.expect in ("holds-corrected", "inconclusive-expected", "holds")


def test_expectation_map():
    assert matches("confirmed", "holds") and matches("confirmed", "holds-corrected")
    assert matches("violated", "fails-as-printed") and not matches("confirmed", "fails-as-printed")
    assert matches("inconclusive", "inconclusive-expected")
    assert not matches("error", "holds")
    with pytest.raises(ValueError, match="expect must be one of"):
        matches("confirmed", "maybe")


def test_claim_decorator_takes_metadata_from_the_claim_list(slot):
    with pytest.raises(ValueError, match="unknown claim id"):
        claim("nopaper:nothing")

    @claim(slot)
    def check(ctx):
        """Synthetic."""

    spec = registry.get(slot)
    row = claim_row(slot)
    assert (spec.ref, spec.kind) == (row.ref, row.kind) and spec.module.endswith("test_engine")


def test_a_claim_id_cannot_be_registered_by_two_functions(slot):
    @claim(slot)
    def first(ctx):
        """One."""

    with pytest.raises(ValueError, match="claim name .* is taken by .*first"):
        @claim(slot)
        def second(ctx):
            """Two."""


def test_a_recorded_disagreement_accepts_exactly_the_measured_verdict():
    from dataclasses import replace

    row = claim_row("wsparq:assumption-1")  # expect holds
    assert row.accepts("confirmed") and not row.accepts("inconclusive")
    moved = replace(row, disagreement="Measured inconclusive, not holds: evidence ...")
    assert moved.recorded_verdict is Verdict.INCONCLUSIVE
    assert moved.accepts("inconclusive") and moved.accepts("confirmed") and not moved.accepts("violated")
    assert not moved.accepts("error")
    remark = replace(row, disagreement="partial: the catalog quotes 0.55")
    assert remark.recorded_verdict is None and not remark.accepts("inconclusive")


def test_a_disagreement_can_record_one_verdict_per_fidelity():
    from dataclasses import replace

    row = replace(claim_row("wsparq:assumption-1"),
                  disagreement="Measured inconclusive at quick fidelity, violated at full fidelity, not holds: ...")
    assert row.recorded_verdicts == {"quick": Verdict.INCONCLUSIVE, "full": Verdict.VIOLATED}
    assert row.recorded_verdict is None
    assert row.accepts("inconclusive", "quick") and not row.accepts("violated", "quick")
    assert row.accepts("violated", "full") and not row.accepts("inconclusive", "full")
    assert row.accepts("confirmed", "quick") and row.accepts("violated")
    one = replace(row, disagreement="Measured violated at full fidelity, not holds: ...")
    assert one.accepts("violated", "full") and not one.accepts("violated", "quick")


def test_pass_rule_needs_acceptance_and_power_for_a_decision():
    from dataclasses import replace

    from tvbo_verify.verify.passing import judge, judge_evidence, judge_record

    holds = claim_row("wsparq:assumption-1")  # expect holds
    caught, none = Power("bound halved", True), Power("bound halved", False, "slope CI too wide")
    assert judge_evidence(holds, Evidence(Verdict.CONFIRMED, "x", power=caught))
    j = judge_evidence(holds, Evidence(Verdict.CONFIRMED, "x", power=none))
    assert not j and "without power" in j.reason and "slope CI too wide" in j.reason
    assert "without power" in judge_evidence(holds, Evidence(Verdict.CONFIRMED, "x")).reason
    j = judge_evidence(holds, Evidence(Verdict.VIOLATED, "x", power=caught))
    assert not j and "neither the expectation" in j.reason
    j = judge(holds, Verdict.ERROR, power_caught=True)
    assert not j and "error" in j.reason
    # a recorded violation still needs power; an inconclusive verdict does not
    moved = replace(holds, disagreement="Measured violated, not holds: ...")
    assert judge(moved, "violated", power_caught=True) and not judge(moved, "violated", power_caught=False)
    unsure = replace(holds, disagreement="Measured inconclusive at quick fidelity, not holds: ...")
    assert judge(unsure, "inconclusive", power_caught=False, fidelity="quick")
    assert not judge(unsure, "inconclusive", power_caught=False, fidelity="full")
    # a results.json record is judged the same way as the evidence it came from
    assert judge_record(holds, {"verdict": "confirmed", "power": caught.to_dict()})
    assert not judge_record(holds, {"verdict": "confirmed", "power": none.to_dict()})
    assert not judge_record(holds, {"verdict": "confirmed", "power": None})


def test_seed_is_stable_and_depends_on_id_and_run_seed():
    assert claim_seed("a:b", 3) == claim_seed("a:b", 3)
    assert claim_seed("a:b", 3) != claim_seed("a:c", 3)
    x1 = Context("wsparq:lemma-3.8", seed=1).rng.random(3)
    x2 = Context("wsparq:lemma-3.8", seed=1).rng.random(3)
    x3 = Context("wsparq:lemma-3.8", seed=2).rng.random(3)
    assert np.array_equal(x1, x2) and not np.array_equal(x1, x3)


def test_context_rejects_bad_fidelity():
    with pytest.raises(ValueError, match="fidelity"):
        Context(SLOT, fidelity="medium")


def _square_statement(c: float) -> Statement:
    """x^2 <= c x on x in [0, 2]: true for c >= 2, false for c < 2 (break near x = 2)."""
    return Statement(
        name=f"x^2 <= {c} x",
        evaluate=lambda p, sharpened=False: Comparison(p["x"] ** 2, (c / 2 if sharpened else c) * p["x"]),
        sample=lambda rng: {"x": float(rng.uniform(0, 1.5))},
        hp=lambda p: Comparison(mpmath.mpf(p["x"]) ** 2, mpmath.mpf(c) * mpmath.mpf(p["x"])),
        sharpening="bound halved",
        continuous=("x",),
        bounds={"x": (0.0, 2.0)},
        shrink=lambda p: [{"x": round(p["x"], 1)}, {"x": 2.0}],
    )


def test_search_confirms_true_statement_with_power():
    res = search(_square_statement(2.0), np.random.default_rng(0), n_random=30)
    assert res.decision.verdict is Verdict.CONFIRMED
    assert res.power.caught  # bound halved: x^2 <= x breaks for x > 1


def test_adversarial_search_finds_violation_outside_random_range_and_shrinks():
    st = _square_statement(1.9)
    res = search(st, np.random.default_rng(0), n_random=20)
    assert res.decision.verdict is Verdict.VIOLATED
    assert res.counterexample is not None and res.counterexample.params["x"] > 1.9
    assert res.counterexample.params["x"] in (2.0, round(res.counterexample.params["x"], 1))
    assert st.replay(res.counterexample.params).violated


def test_float_break_refuted_by_mpmath_is_not_a_violation():
    # In float64, (1 + 1e-16) - 1 == 0 < 1e-30 is never broken; we fake a float-only break instead.
    st = Statement(
        name="fake float break",
        evaluate=lambda p, sharpened=False: Comparison(1.0 + 1e-9, 1.0),  # float says broken
        sample=lambda rng: {"x": 0.0},
        hp=lambda p: Comparison(mpmath.mpf(1), mpmath.mpf(1)),  # referee says equal: holds
    )
    res = search(st, np.random.default_rng(0), n_random=3)
    assert res.decision.verdict is Verdict.CONFIRMED
    assert res.decision.refuted_by_referee == 3


def test_float_break_without_referee_is_inconclusive():
    st = Statement(name="no referee", evaluate=lambda p, sharpened=False: Comparison(2.0, 1.0),
                   sample=lambda rng: {"x": 0.0})
    assert search(st, np.random.default_rng(0), n_random=2).decision.verdict is Verdict.INCONCLUSIVE


def test_tolerance_scales_with_condition():
    from tvbo_verify.verify.stats import TolerancePolicy

    pol = TolerancePolicy()
    assert pol.tolerance(1.0, 1.0, cond=1e6) == pytest.approx(1e6 * pol.tolerance(1.0, 1.0, 1.0), rel=1e-6)
    with pytest.raises(ValueError, match="mp_digits"):
        TolerancePolicy(mp_digits=30)


def test_run_claim_records_error_instead_of_crashing(slot):
    @claim(slot)
    def broken(ctx):
        raise RuntimeError("boom")

    ev = run_claim(slot)
    assert ev.verdict is Verdict.ERROR and "boom" in ev.summary
    assert not matches(ev.verdict, claim_row(slot).expect)


def test_the_run_cache_reaches_a_check_through_its_context(slot, tmp_path, monkeypatch):
    from tvbo_verify.sweeps import RunCache

    monkeypatch.setenv("TVBO_VERIFY_CACHE", str(tmp_path / "default"))
    assert Context(SLOT).cache.directory == tmp_path / "default"  # the variable only sets the default location
    seen = []

    @claim(slot)
    def check(ctx):
        """Synthetic: records the cache it was given."""
        seen.append(ctx.cache)
        return Evidence(Verdict.INCONCLUSIVE, "nothing measured")

    none = RunCache(None)
    run_claim(slot, cache=none)
    run_claim(slot)
    assert seen[0] is none and seen[1].directory == tmp_path / "default"


def test_run_claim_with_statement_and_replay(slot):
    st = _square_statement(1.9)

    @claim(slot)
    def check(ctx):
        """Synthetic: x^2 <= 1.9 x."""
        return exact_evidence(ctx, st, n_random=20)
    ev = run_claim(slot, seed=5)
    assert ev.verdict is Verdict.VIOLATED and ev.seed == 5 and ev.runtime_s >= 0
    assert ev.method.startswith("Synthetic")
    ce = json.loads(json.dumps(ev.counterexample))
    assert ce["claim"] == slot and ce["hp_margin"] < 0
    assert replay(slot, ce).violated
    with pytest.raises(ValueError, match="belongs to"):
        replay(slot, {**ce, "claim": "wsparq:lemma-3.8"})


def test_unimplemented_claim_returns_none(slot):
    assert run_claim(slot) is None
    with pytest.raises(ValueError, match="unknown claim id"):
        run_claim("wsparq:nope")


def test_checks_return_evidence_type(slot):
    @claim(slot)
    def bad(ctx):
        return {"verdict": "confirmed"}

    assert run_claim(slot).verdict is Verdict.ERROR


def test_evidence_without_power_is_labelled_no_power():
    assert Evidence(Verdict.CONFIRMED, "x").power_label == "no power"


def test_claim_list_matches_the_spec_ids_and_expectations():
    import csv
    from pathlib import Path

    spec = Path(__file__).resolve().parents[3] / "shared" / "spec" / "claims.csv"
    if not spec.exists():
        pytest.skip("spec claims.csv not available in this checkout")
    rows = {r["id"]: r for r in csv.DictReader(spec.open(encoding="utf-8"))}
    ours = {r.id: r for r in claim_rows()}
    assert set(rows) == set(ours)
    for cid, r in rows.items():
        assert (ours[cid].paper, ours[cid].kind, ours[cid].expect) == (r["paper"], r["kind"], r["expect"])


def test_every_slice_claim_is_registered_with_the_listed_kind():
    from tvbo_verify.verify import registered

    reg = registered()
    for cid in ("wsparq:lemma-3.8", "wsparq:window-partition", "wsparq:window-count", "wsparq:lemma-2.3",
                "wsparq:l-star", "wsparq:l-star+corrected", "wsparq:proposition-3.2",
                "wsparq:proposition-3.2+corrected", "sparq:definition-1", "tvgpucb:eq-21", "tvgpucb:eq-21+corrected",
                "tvgpucb:algorithm-1+corrected", "tvgpucb:theorem-4.1", "bolt:n-star", "bolt:lemma-c.3",
                "bolt:lemma-c.3+corrected", "wgpucb:theorem-6", "wgpucb:lemma-13"):
        assert cid in reg and reg[cid].kind == claim_row(cid).kind and reg[cid].method


def test_run_is_reproducible_and_independent_of_the_executor():
    from tvbo_verify.execution import get_executor
    from tvbo_verify.report.results import claim_entry

    row = claim_row("tvgpucb:theorem-4.1")

    def entry(seed, executor):
        with get_executor(executor, workers=2) as ex:
            e = claim_entry(row, run_claim(row.id, seed=seed, executor=ex))
        e.pop("runtime_s")
        return e

    a = entry(3, "serial")
    assert a == entry(3, "process")
    assert a["summary"] != entry(4, "serial")["summary"]
