"""Tests of the mutation harness: application and undoing of mutants, candidate claims, kill judgement,
budgets, the catalog's coverage and the command line."""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest
from click.testing import CliRunner

from tvbo_verify import confidence, information
from tvbo_verify.bandits import beta as beta_module
from tvbo_verify.bandits.registry import ALGORITHMS
from tvbo_verify.cli.main import main
from tvbo_verify.execution import ProcessExecutor
from tvbo_verify.mutants.analysis import planner, selected_claims
from tvbo_verify.mutants.apply import MutantError, applied, apply, use_fork_for_workers
from tvbo_verify.mutants.catalog import CATALOG, get_mutant
from tvbo_verify.mutants.harness import (
    KILLED,
    NOT_RUN,
    SURVIVED,
    TIMED_OUT,
    Baselines,
    MutantRun,
    Settings,
    Trial,
    judge,
    run_mutant,
    run_mutants,
)
from tvbo_verify.mutants.judge import is_accepted
from tvbo_verify.mutants.mutant import LAYERS, Mutant, Rewrite
from tvbo_verify.mutants.results import score, unkilled
from tvbo_verify.mutants.subsets import SUBSETS, subset
from tvbo_verify.mutants.symbols import candidate_claims
from tvbo_verify.mutants.worker import is_referee_disagreement
from tvbo_verify.verify.evidence import Evidence, Verdict
from tvbo_verify.verify.stats import RefereeDisagreement

GRAM = np.array([[1.0, 0.5], [0.5, 1.0]])
#: A cheap exact claim that checks the chain rule of the information gain (tvgpucb eq. (26)).
CHAIN_RULE_CLAIM = "tvgpucb:eq-26"


def _log_det_ratio_in_worker(scale: float) -> float:
    """Runs in a pool worker: the log-det ratio through the alias held by ``tvbo_verify.bandits.beta``."""
    return scale * beta_module.log_det_ratio_from_gram(GRAM, 0.1)


# -- application ------------------------------------------------------------------------------------------------


def test_application_reaches_from_import_aliases_and_is_undone():
    original = information.log_det_ratio_from_gram
    value = original(GRAM, 0.1)
    beta = confidence.beta_wsparq_log_det(GRAM, 0.1, 0.1, 1.0)
    expected_beta_halved = np.sqrt((beta - 1.0) ** 2 - value / 2) + 1.0  # wsparq eq. (12) with the ratio halved
    mutant = get_mutant("log-det-ratio-halved")
    with applied(mutant) as record:
        assert information.log_det_ratio_from_gram(GRAM, 0.1) == pytest.approx(value / 2)
        # a module that did `from ..information import log_det_ratio_from_gram` at import time sees the mutant,
        # and so does one importing it inside a function (at call time)
        assert beta_module.log_det_ratio_from_gram(GRAM, 0.1) == pytest.approx(value / 2)
        assert confidence.beta_wsparq_log_det(GRAM, 0.1, 0.1, 1.0) == pytest.approx(expected_beta_halved)
        assert record.aliases >= 1
    for module in (information, beta_module):
        assert module.log_det_ratio_from_gram is original
    assert confidence.beta_wsparq_log_det(GRAM, 0.1, 0.1, 1.0) == pytest.approx(beta)


def test_application_reaches_forked_worker_processes():
    value = information.log_det_ratio_from_gram(GRAM, 0.1)
    use_fork_for_workers()
    with applied(get_mutant("log-det-ratio-halved")):
        with ProcessExecutor(max_workers=1) as ex:  # created after the patch, as the worker does
            got = ex.map(_log_det_ratio_in_worker, [1.0, 2.0])
    assert got == pytest.approx([value / 2, value])
    with ProcessExecutor(max_workers=1) as ex:
        assert ex.map(_log_det_ratio_in_worker, [1.0, 1.0]) == pytest.approx([value, value])


def test_rewrite_of_a_method_keeps_super_working_and_is_undone():
    from tvbo_verify.bandits.gpucb import RGPUCB

    original = RGPUCB.__dict__["select"]
    with applied(get_mutant("rgpucb-never-restarts")):
        assert RGPUCB.__dict__["select"] is not original
        from tvbo_verify.bandits.environments import MarkovGP
        from tvbo_verify.bandits.runner import run

        trace = run(RGPUCB(block=3), MarkovGP(points_per_dim=5), 7, np.random.default_rng(0))
        assert trace.dataset_size.tolist() == list(range(1, 8))  # never restarted
    assert RGPUCB.__dict__["select"] is original


def test_stale_fragment_is_refused():
    stale = Mutant("stale", "tvbo_verify.confidence:beta_finite_domain", "confidence", "no such code",
                   Rewrite("this text is not in the function", "x"))
    with pytest.raises(MutantError, match="occurs 0 times"):
        apply(stale)
    with pytest.raises(ValueError, match="target must look like"):
        Mutant("bad", "beta_finite_domain", "confidence", "no module", Rewrite("a", "b"))


# -- catalog ----------------------------------------------------------------------------------------------------


def test_catalog_covers_every_layer_and_policy_family_and_every_mutant_applies():
    assert len(CATALOG) >= 30
    assert {m.layer for m in CATALOG} == set(LAYERS)
    families = [m.policy for m in CATALOG if m.policy]
    for family in set(ALGORITHMS) - {"random", "fixed-arm"}:  # controls without a learning rule to bend
        assert families.count(family) >= 2, family
    assert sum(m.is_equivalent for m in CATALOG) <= 0.1 * len(CATALOG)
    for m in CATALOG:
        with applied(m) as record:
            assert record.bindings
        assert record.bindings == []  # every binding restored


# -- candidate claims and judgement -----------------------------------------------------------------------------


def test_candidates_follow_the_code_a_claim_uses():
    claims = selected_claims()
    dpp = candidate_claims("tvbo_verify.dpp:_exact_one", claims)
    bolt_policy = candidate_claims("tvbo_verify.bandits.wdbo:BOLT.observe", claims)
    assert dpp["wsparq:definition-3.1"][0] == 0  # its check samples the DPP: linked by the symbol graph
    assert dpp["sparq:definition-1"][0] == 1  # its module imports the DPP module, its check never samples
    # a claim on the information gain does not run BOLT, although its builders package imports the sweeps
    assert CHAIN_RULE_CLAIM not in bolt_policy
    gain = candidate_claims("tvbo_verify.information:information_gain_from_gram", claims)
    assert gain[CHAIN_RULE_CLAIM][0] == 0
    # BOLT is reached by the experiments through the registry of algorithms and the reproductions
    assert bolt_policy["bolt:figure-2"][0] == 0


def test_pass_rule_of_the_harness():
    assert is_accepted(CHAIN_RULE_CLAIM, "confirmed", True, "quick")
    assert not is_accepted(CHAIN_RULE_CLAIM, "confirmed", False, "quick")  # no power
    assert not is_accepted(CHAIN_RULE_CLAIM, "inconclusive", None, "quick")
    assert not is_accepted(CHAIN_RULE_CLAIM, "error", None, "quick")


#: Equivalent mutants of the catalog and the test demonstrating each equivalence (none is argued today: a
#: mutant marked equivalent without a demonstration here fails ``test_every_equivalent_mutant_is_demonstrated``).
EQUIVALENCE_DEMOS: dict[str, str] = {}


def test_every_equivalent_mutant_is_demonstrated():
    argued = {m.name for m in CATALOG if m.is_equivalent}
    assert argued == set(EQUIVALENCE_DEMOS)
    for name in argued:
        assert callable(globals()[EQUIVALENCE_DEMOS[name]])


ALGORITHM_CLAIM, RUN_CLAIM, EXACT_CLAIM = "tvgpucb:algorithm-1+corrected", "tvgpucb:theorem-4.3", CHAIN_RULE_CLAIM


def _run_with_kills(mutant: str, *killers: str) -> MutantRun:
    run = MutantRun(get_mutant(mutant), SURVIVED)
    run.trials = [Trial(c, "violated", False, 1.0, "confirmed", "verdict") for c in killers]
    return run


def test_first_kill_search_goes_on_to_a_run_based_kill_for_policies_only():
    first_kill, exhaustive = Settings(), Settings(exhaustive=True)
    policy = _run_with_kills("rgpucb-never-restarts", ALGORITHM_CLAIM)  # killed by a structural claim only
    assert not policy.settled(first_kill)
    assert policy.wants(RUN_CLAIM, first_kill) and not policy.wants(EXACT_CLAIM, first_kill)
    assert _run_with_kills("rgpucb-never-restarts", ALGORITHM_CLAIM, RUN_CLAIM).settled(first_kill)
    numeric = _run_with_kills("information-gain-half-dropped", EXACT_CLAIM)
    assert numeric.settled(first_kill) and not numeric.wants(RUN_CLAIM, first_kill)
    assert not numeric.settled(exhaustive) and numeric.wants(RUN_CLAIM, exhaustive)
    assert _run_with_kills("greedy-ucb").wants(EXACT_CLAIM, first_kill)  # nothing killed yet: everything


def test_a_run_based_claim_refused_by_the_definition_audit_is_a_run_based_kill():
    refused = MutantRun(get_mutant("wdbo-budget-not-consumed"), SURVIVED)
    refused.trials = [Trial("bolt:table-3", "error", False, 1.0, "inconclusive", "error",
                            "check raised DefinitionMismatch: w-dbo does not implement its definition: first "
                            "divergence at round 7")]
    assert refused.audit_killers == ["bolt:table-3"] and refused.killed_by_a_run
    assert refused.settled(Settings()) and not refused.wants(EXACT_CLAIM, Settings())
    crashed = MutantRun(get_mutant("wdbo-budget-not-consumed"), SURVIVED)
    crashed.trials = [Trial("bolt:table-3", "error", False, 1.0, "inconclusive", "error", "check raised ValueError")]
    assert not crashed.audit_killers and not crashed.killed_by_a_run and not crashed.settled(Settings())


def test_a_run_based_claim_refused_by_the_run_audit_settles_an_environment_mutant():
    refused = MutantRun(get_mutant("markov-gp-wrong-decay"), SURVIVED)
    refused.trials = [Trial("tvgpucb:theorem-4.3", "error", False, 1.0, "inconclusive", "error",
                            "check raised RunAuditFailure: the environment tvgpucb-markov of these runs contradicts "
                            "its definition: lag correlation")]
    assert refused.audit_killers == ["tvgpucb:theorem-4.3"] and refused.settled(Settings())
    assert not refused.wants(RUN_CLAIM, Settings())


def test_score_counts_kills_and_classifies_policies_by_killing_claim():
    runs = [_run_with_kills("rgpucb-never-restarts", ALGORITHM_CLAIM),
            _run_with_kills("rgpucb-reset-off-by-one", RUN_CLAIM),
            _run_with_kills("information-gain-half-dropped"),
            MutantRun(get_mutant("greedy-ucb"), TIMED_OUT)]
    for run in runs[:2]:
        run.status = KILLED
    s = score(runs, Baselines(Settings()))
    assert (s["killed"], s["considered"], s["score"]) == (2, 4, 0.5)
    assert [x["name"] for x in s["survivors"]] == ["information-gain-half-dropped", "greedy-ucb"]
    assert s["policies"]["r-gp-ucb"]["run_based"] == ["rgpucb-reset-off-by-one"]
    assert s["policies"]["r-gp-ucb"]["exact_only"] == ["rgpucb-never-restarts"]
    assert s["policies"]["gp-ucb"]["not_killed"] == ["greedy-ucb"]


def _accepted_baseline(claim_id: str) -> Baselines:
    return Baselines(Settings(), known={claim_id: {"verdict": "confirmed", "power_caught": True, "accepted": True,
                                                   "runtime_s": 1.0, "called": []}})


def test_a_referee_disagreement_is_a_verdict_kill_and_any_other_error_a_kill_by_error():
    baselines = _accepted_baseline(EXACT_CLAIM)
    error = {"verdict": "error", "power_caught": None, "runtime_s": 1.0}
    referee = judge(EXACT_CLAIM, {**error, "referee_disagreement": True}, baselines, "quick")
    crash = judge(EXACT_CLAIM, {**error, "referee_disagreement": False}, baselines, "quick")
    assert (referee.kill, crash.kill) == ("verdict", "error")
    assert judge(EXACT_CLAIM, {"verdict": "confirmed", "power_caught": True}, baselines, "quick").kill is None
    # what the engine makes of a check that raised RefereeDisagreement, and of one that raised anything else
    raised = Evidence(Verdict.ERROR, f"check raised {RefereeDisagreement.__name__}: referee twin disagrees")
    assert is_referee_disagreement(raised)
    assert not is_referee_disagreement(Evidence(Verdict.ERROR, "check raised ValueError: bad"))
    assert not is_referee_disagreement(Evidence(Verdict.VIOLATED, "check raised RefereeDisagreement: (text)"))


def test_mutants_left_when_the_wall_budget_ends_are_not_run_and_never_counted_killed():
    settings = Settings(wall_budget_s=1.0)
    settings.deadline = time.monotonic() - 1.0  # the budget is already spent: no worker may start
    baselines = Baselines(settings)
    names = ["greedy-ucb", "information-gain-half-dropped"]
    runs = run_mutants([get_mutant(n) for n in names], lambda m: [EXACT_CLAIM], settings, baselines)
    assert [r.status for r in runs] == [NOT_RUN, NOT_RUN] and baselines.outcomes == {}
    s = score(runs, baselines)
    assert (s["killed"], s["considered"], s["score"]) == (0, 0, None)
    assert s["not_run"] == names == s["not_finished"] and s["score_counting_not_run"] == 0.0


def test_a_subset_names_catalog_mutants_and_restricts_their_candidates_to_its_claims():
    claims = selected_claims()
    for name, killers in subset("ci").items():
        get_mutant(name)
        assert set(killers) <= set(claims)
    with pytest.raises(ValueError, match="subset"):
        subset("nosuch")
    only = {"information-gain-half-dropped": (CHAIN_RULE_CLAIM,)}
    plan = planner(claims, {}, Baselines(Settings()), only)
    assert plan(get_mutant("information-gain-half-dropped")) == [CHAIN_RULE_CLAIM]
    assert plan(get_mutant("greedy-ucb")) == []  # not in the subset: nothing to try
    assert len(planner(claims, {}, Baselines(Settings()))(get_mutant("information-gain-half-dropped"))) > 1
    assert "ci" in SUBSETS


# -- the harness in worker processes ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def chain_rule_run():
    settings = Settings(budget_s=300.0)
    baselines = Baselines(settings)
    try:
        run = run_mutant(get_mutant("information-gain-half-dropped"), [CHAIN_RULE_CLAIM], settings, baselines)
    finally:
        baselines.close()
    return run, baselines


def test_trivially_killable_mutant_on_a_cheap_exact_claim_is_killed(chain_rule_run):
    run, baselines = chain_rule_run
    assert run.status == KILLED, run.to_dict()
    assert run.killers == [CHAIN_RULE_CLAIM]
    assert baselines.outcomes[CHAIN_RULE_CLAIM]["accepted"]
    assert run.trials[0].verdict != baselines.outcomes[CHAIN_RULE_CLAIM]["verdict"]


def test_mutant_does_not_leak_out_of_its_worker(chain_rule_run):
    run, _ = chain_rule_run
    assert run.status == KILLED  # the mutant was active in the worker ...
    K = np.array([[2.0]])
    assert information.information_gain_from_gram(K, 1.0) == pytest.approx(0.5 * np.log(3.0))  # ... not here


def test_a_mutant_out_of_budget_is_timed_out_not_killed():
    settings = Settings(budget_s=1.0)
    baselines = Baselines(settings)
    try:
        run = run_mutant(get_mutant("information-gain-half-dropped"), [CHAIN_RULE_CLAIM], settings, baselines)
    finally:
        baselines.close()
    assert baselines.can_kill(CHAIN_RULE_CLAIM, "tvbo_verify.information:information_gain_from_gram")
    assert run.status == TIMED_OUT and not run.killers and not run.trials


# -- command line -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args, word", [(["--mutant", "no-such-bug"], "no-such-bug"),
                                        (["--paper", "nopaper"], "nopaper"),
                                        (["--kind", "nokind"], "nokind"),
                                        (["--subset", "nosuch"], "nosuch"),
                                        (["--budget", "inf"], "budget_s"),  # would wait on a hung worker for good
                                        (["--budget", "nan"], "budget_s"),
                                        (["--wall-budget", "1e12"], "wall_budget_s")])
def test_bad_command_line_input_exits_2_with_one_line(args, word):
    result = CliRunner().invoke(main, ["mutants", *args, "--list"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and word in lines[0] and "Traceback" not in result.output


def test_list_prints_the_catalog():
    result = CliRunner().invoke(main, ["mutants", "--list"])
    assert result.exit_code == 0
    assert all(m.name in result.stdout for m in CATALOG)


def test_a_run_cut_by_its_wall_budget_exits_1_and_names_the_mutants_not_run(tmp_path):
    out = tmp_path / "mutants.json"
    args = ["mutants", "--mutant", "information-gain-half-dropped", "--mutant", "kl-log-det-missing",
            "--wall-budget", "1", "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert [m["status"] for m in doc["mutants"]][1:] == ["not-run"]
    assert doc["score"]["killed"] == 0 and "kl-log-det-missing" in doc["score"]["not_finished"]
    assert "not run (wall-time budget ended): kl-log-det-missing" in result.stdout


def test_a_run_passes_only_when_every_mutant_is_killed_or_argued_equivalent():
    doc = {"mutants": [{"name": "a", "status": "killed"}, {"name": "b", "status": "killed-by-error"},
                       {"name": "c", "status": "equivalent"}]}
    assert unkilled(doc) == []
    for status in ("survived", "timed-out", "not-run", "not-applied", "not-reached"):
        assert unkilled({"mutants": [*doc["mutants"], {"name": "d", "status": status}]}) == ["d"], status


def test_annotation_only_imports_are_not_edges_of_the_import_graph():
    import ast

    from tvbo_verify.mutants.affects import _type_checking_only

    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a.b\nimport c\n")
    skipped = _type_checking_only(tree)
    imports = {n.names[0].name: id(n) in skipped for n in ast.walk(tree) if isinstance(n, ast.Import)}
    assert imports == {"a.b": True, "c": False}


class _Unmutated:
    """A baseline whose unmutated verdict of every claim is ``verdict``, accepted."""

    def __init__(self, verdict: str) -> None:
        self.verdict = verdict

    def get(self, claim_id: str) -> dict:
        return {"verdict": self.verdict, "accepted": True}


def test_a_verdict_a_mutant_makes_more_favourable_to_the_paper_is_a_kill():
    # wgpucb:lemma-15 accepts both: its expectation (holds) and its recorded measurement (inconclusive)
    claim_id = "wgpucb:lemma-15"
    trial = judge(claim_id, {"verdict": "confirmed", "power_caught": True}, _Unmutated("inconclusive"), "quick")
    assert trial.accepted and trial.kill == "verdict" and "more favourable" in trial.summary
    same = judge(claim_id, {"verdict": "inconclusive", "power_caught": None}, _Unmutated("inconclusive"), "quick")
    assert same.accepted and same.kill is None
    worse = judge(claim_id, {"verdict": "inconclusive", "power_caught": None}, _Unmutated("confirmed"), "quick")
    assert worse.accepted and worse.kill is None  # less favourable and still accepted: not this rule's business


class _FakeProbe:
    """A probing worker that answers after a short sleep and records how many answer at once."""

    running, most, lock = 0, 0, threading.Lock()

    def __init__(self, mutant):
        self.mutant = mutant

    def start(self, timeout=None):
        return {"ready": True}

    def ask(self, request, timeout):
        with _FakeProbe.lock:
            _FakeProbe.running += 1
            _FakeProbe.most = max(_FakeProbe.most, _FakeProbe.running)
        time.sleep(0.2)
        with _FakeProbe.lock:
            _FakeProbe.running -= 1
        return {"verdict": "confirmed", "power_caught": True, "runtime_s": 0.2, "called": [request["claim"]]}

    def close(self):
        pass


@pytest.mark.parametrize("workers", [1, 3])
def test_several_probing_workers_measure_a_mutants_candidates_at_once_with_the_outcomes_of_one(monkeypatch, workers):
    from tvbo_verify.mutants import harness

    monkeypatch.setattr(harness, "WorkerProcess", _FakeProbe)
    monkeypatch.setattr(harness, "is_accepted", lambda *a: True)
    _FakeProbe.running, _FakeProbe.most = 0, 0
    claims = [f"doc:c{i}" for i in range(7)]
    baselines = Baselines(Settings(probe_workers=workers))
    baselines.prefetch(claims + claims[:2])  # repeated ids are measured once
    if workers == 1:  # one worker measures on demand, as each claim is needed
        assert baselines.outcomes == {} and _FakeProbe.most == 0
        [baselines.get(c) for c in claims]
    assert _FakeProbe.most == workers and sorted(baselines.outcomes) == sorted(claims)
    assert all(o["accepted"] and o["called"] == [c] for c, o in baselines.outcomes.items())


def test_probing_stops_taking_claims_when_the_wall_budget_ends(monkeypatch):
    from tvbo_verify.mutants import harness

    monkeypatch.setattr(harness, "WorkerProcess", _FakeProbe)
    settings = Settings(probe_workers=4, wall_budget_s=1.0)
    settings.deadline = time.monotonic() - 1.0
    baselines = Baselines(settings)
    baselines.prefetch([f"doc:c{i}" for i in range(5)])
    assert baselines.outcomes == {}


def test_probe_workers_out_of_range_are_refused():
    with pytest.raises(ValueError, match="probe_workers"):
        Settings(probe_workers=0)
