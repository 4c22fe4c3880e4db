"""A paper that is not one of this package's, registered at run time: its claims, checks, counterexamples,
runs of its own policy, report section and reproduction work like those of the built-in papers."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tvbo_verify import papers
from tvbo_verify.authoring import make_policy, register_policy
from tvbo_verify.bandits import registry as bandits_registry
from tvbo_verify.bandits.policy import RandomPolicy
from tvbo_verify.cli import main
from tvbo_verify.report.runner import run_report
from tvbo_verify.sweeps import RunCache
from tvbo_verify.verify import registry, run_claim
from tvbo_verify.verify.claimlist import claim_row
from tvbo_verify.verify.passing import judge_evidence

from .demo import PAPER_ID, forget_modules


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_the_checks_of_a_plugin_paper_register_and_are_listed(demo_paper):
    assert sorted(registry.registered(PAPER_ID)) == ["demo2024:fixed-arm-rate", "demo2024:square",
                                                    "demo2024:square-wide"]
    listed = invoke("list", "--paper", PAPER_ID)
    assert listed.exit_code == 0 and "3 of 3 claims implemented" in listed.output
    assert registry.get("demo2024:square").module == "demo_plugin.checks"
    shown = json.loads(invoke("papers", "--json").output)
    demo = [p for p in shown if p["id"] == PAPER_ID][0]
    assert demo["origin"] == papers.RUNTIME_ORIGIN and demo["implemented"] == 3
    assert demo["reproductions"] == ["demo2024:figure-1"]


def test_a_violated_rate_of_a_plugin_paper_records_its_rerun_and_replays(demo_paper, tmp_path):
    ev = run_claim("demo2024:fixed-arm-rate", cache=RunCache(tmp_path / "cache"))
    assert ev.verdict.value == "violated", ev.summary
    assert ev.counterexample["kind"] == "rate" and ev.counterexample["claim"] == "demo2024:fixed-arm-rate"
    assert judge_evidence(claim_row(ev.counterexample["claim"]), ev, "quick").accepted
    stored = tmp_path / "ce.json"
    stored.write_text(json.dumps(ev.counterexample))
    replayed = invoke("replay", "demo2024:fixed-arm-rate", str(stored))
    assert replayed.exit_code == 0 and "violated (reproduced)" in replayed.output


def test_an_exact_counterexample_of_a_plugin_paper_replays_from_its_statement(demo_paper, tmp_path):
    assert run_claim("demo2024:square").verdict.value == "confirmed"
    ev = run_claim("demo2024:square-wide")
    assert ev.verdict.value == "violated" and ev.counterexample["statement"] == "demo2024: x^2 <= x on [0, 2]"
    stored = tmp_path / "ce.json"
    stored.write_text(json.dumps(ev.counterexample))
    replayed = invoke("replay", "demo2024:square-wide", str(stored))
    assert replayed.exit_code == 0 and "violated (reproduced)" in replayed.output


def test_the_report_of_a_plugin_paper_has_its_section_citation_formula_and_reproduction(demo_paper, tmp_path):
    out = tmp_path / "report"
    outcome = run_report(papers=[PAPER_ID], out=out, executor="serial", cache=RunCache(tmp_path / "cache"))
    assert outcome.ok, [c.get("reason") for c in outcome.results["claims"]]
    assert {c["id"]: c["verdict"] for c in outcome.results["claims"]} == {
        "demo2024:square": "confirmed", "demo2024:square-wide": "violated", "demo2024:fixed-arm-rate": "violated"}
    page = (out / f"{PAPER_ID}.html").read_text()
    assert "Ada Author and Bo Writer. <i>A Demonstration of Plugin Papers</i>. Proceedings of Nothing, 2024; " \
           "arXiv:2401.00001." in page
    assert "Paper registered at run time" in page and 'class="formula"' in page
    assert "Regret of a fixed arm" in page and (out / "reproductions" / "demo2024_figure-1.json").is_file()
    index = (out / "index.html").read_text()
    assert f'href="{PAPER_ID}.html"' in index and "theory-practice" not in index  # no panel of other papers


def test_reproduce_lists_and_runs_a_plugin_reproduction(demo_paper, tmp_path):
    listed = invoke("reproduce", "--list", "--paper", PAPER_ID)
    assert listed.exit_code == 0 and "demo2024:figure-1" in listed.output and "1 reproductions" in listed.output
    done = invoke("reproduce", "demo2024:figure-1", "--executor", "serial", "--out", str(tmp_path / "r"),
                  "--cache", str(tmp_path / "cache"))
    assert done.exit_code == 0 and "regret at T = 1000 is 500" in done.output
    assert (tmp_path / "r" / "demo2024_figure-1.svg").is_file()


def test_a_fresh_worker_process_finds_a_plugin_policy_by_its_name(demo_paper):
    registry.load_all()
    assert "demo-fixed-arm" in bandits_registry.ALGORITHMS
    # what a spawned worker has: the paper registered, none of its modules imported
    del bandits_registry.ALGORITHMS["demo-fixed-arm"]
    papers._IMPORTED.discard((PAPER_ID, "modules"))
    forget_modules("demo_plugin")
    assert make_policy("demo-fixed-arm", {"arm": 1}).arm == 1


def test_a_plugin_cannot_take_the_name_of_another_policy():
    register_policy("random", RandomPolicy)  # the same factory again is harmless
    with pytest.raises(ValueError, match="algorithm name 'random' is taken by tvbo_verify.bandits.policy.RandomPolicy"):
        register_policy("random", lambda **kw: RandomPolicy())
    with pytest.raises(ValueError, match="algorithm name must be a non-empty string without spaces"):
        register_policy("two words", RandomPolicy)


def test_the_checks_of_a_removed_paper_are_no_longer_listed(demo_paper):
    assert "demo2024:square" in registry.registered()
    papers.unregister_paper(PAPER_ID)
    assert not any(i.startswith("demo2024:") for i in registry.registered())


def test_the_files_of_a_plugin_papers_checks_are_found_through_the_registry(demo_paper):
    files = papers.paper_module_files(PAPER_ID)
    assert set(files) == {"demo_plugin.checks"} and files["demo_plugin.checks"].name == "checks.py"
    assert set(papers.paper_module_files(PAPER_ID, "reproductions")) == {"demo_plugin.figures"}
    assert "tvbo_verify.papers.bolt.checks.nstar" in papers.paper_module_files("bolt")
