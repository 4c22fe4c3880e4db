"""The report names, per claim, the mutants it kills — only from mutation results measured on this code."""

from __future__ import annotations

import json

from tvbo_verify.mutants.results import code_digest
from tvbo_verify.report import runner
from tvbo_verify.report.mutation import mutation_view
from tvbo_verify.sweeps import RunCache

CHEAP = "sparq:lemma-1"


def _doc(digest: str) -> dict:
    return {"schema": 1, "kind": "mutants", "run": {"code_digest": digest, "git": "abc", "fidelity": "quick",
                                                     "seed": 0, "finished": "today"},
            "claims": {CHEAP: {"kills": ["beta-halved"], "error_kills": ["kernel-nan"], "tried_by": 3}},
            "score": {"killed": 2, "considered": 3, "score": 2 / 3, "equivalent": 0}}


def test_the_pages_name_the_mutants_a_claim_kills_when_measured_on_this_code(tmp_path):
    mutants = tmp_path / "mutants.json"
    mutants.write_text(json.dumps(_doc(code_digest())))
    view = mutation_view(mutants)
    assert view["current"] and view["kills"][CHEAP] == ["beta-halved", "kernel-nan (error)"]
    out = runner.run_report(ids=[CHEAP], out=tmp_path / "r", reproduce=False, cache=RunCache(None), mutants=mutants)
    assert out.results["mutation"]["current"] is True
    page = (tmp_path / "r" / "sparq.html").read_text()
    assert "kills <b>beta-halved, kernel-nan (error)</b>" in page and "of the 3 that ran it" in page
    assert "Mutation score of this code: <b>2/3</b>" in (tmp_path / "r" / "index.html").read_text()


def test_mutation_results_of_other_code_are_called_stale_and_show_no_kills(tmp_path):
    mutants = tmp_path / "mutants.json"
    mutants.write_text(json.dumps(_doc("0" * 16)))
    assert mutation_view(mutants)["kills"] == {}
    runner.run_report(ids=[CHEAP], out=tmp_path / "r", reproduce=False, cache=RunCache(None), mutants=mutants)
    assert "beta-halved" not in (tmp_path / "r" / "sparq.html").read_text()
    assert "measured on other code" in (tmp_path / "r" / "index.html").read_text()
    mutants.write_text("{not json")
    assert mutation_view(mutants) is None and mutation_view(None) is None
