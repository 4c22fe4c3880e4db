"""The report's result cache: a claim computed by the same code, libraries, fidelity and seed is reused,
anything else is recomputed, and a damaged entry is never trusted."""

from __future__ import annotations

import json

import pytest

from tvbo_verify.report import result_cache, runner
from tvbo_verify.report.result_cache import ResultCache, claim_key
from tvbo_verify.report.tasks import ClaimResult
from tvbo_verify.sweeps import RunCache
from tvbo_verify.verify import Evidence, Verdict, claim, registry

CHEAP = "sparq:lemma-1"  # an exact claim that takes about a second


def _entries(outcome):
    return {c["id"]: {k: v for k, v in c.items() if k not in ("digest", "reused")} for c in outcome.results["claims"]}


def test_a_second_report_reuses_each_result_and_fresh_recomputes_it(tmp_path):
    cache = RunCache(tmp_path / "cache")
    first = runner.run_report(ids=[CHEAP], out=tmp_path / "a", reproduce=False, cache=cache)
    assert list((tmp_path / "cache" / "results").rglob("*.json")), "the first report stores its result"
    lines: list[str] = []
    second = runner.run_report(ids=[CHEAP], out=tmp_path / "b", reproduce=False, cache=cache, progress=lines.append)
    assert _entries(second) == _entries(first)
    assert second.results["claims"][0]["reused"] is True and second.results["run"]["reused"] == 1
    assert any("reused" in line for line in lines)
    assert any(line.startswith("reused 1 results") for line in runner.summary_lines(second))
    assert sorted(p.name for p in (tmp_path / "b").rglob("*") if p.is_file()) == \
        sorted(p.name for p in (tmp_path / "a").rglob("*") if p.is_file())
    third = runner.run_report(ids=[CHEAP], out=tmp_path / "c", reproduce=False, cache=cache, fresh=True)
    assert "reused" not in third.results["claims"][0] and not third.results["run"]["reused"]


def test_a_damaged_entry_is_deleted_and_recomputed(tmp_path):
    cache = RunCache(tmp_path / "cache")
    runner.run_report(ids=[CHEAP], out=tmp_path / "a", reproduce=False, cache=cache)
    (path,) = (tmp_path / "cache" / "results").rglob("*.json")
    stored = json.loads(path.read_text())
    stored["body"]["entry"]["verdict"] = "violated"  # edited without its checksum
    path.write_text(json.dumps(stored))
    again = runner.run_report(ids=[CHEAP], out=tmp_path / "b", reproduce=False, cache=cache)
    assert "reused" not in again.results["claims"][0] and again.results["claims"][0]["verdict"] != "violated"
    assert json.loads(path.read_text())["body"]["entry"]["verdict"] == again.results["claims"][0]["verdict"]


def test_the_key_follows_seed_fidelity_check_code_and_every_package_file(tmp_path):
    keys = {claim_key(CHEAP, f, s) for f in ("quick", "full") for s in (0, 1)}
    assert len(keys) == 4 and all(len(k) == 64 for k in keys)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    (tmp_path / "pkg" / "claims.csv").write_text("id\n")
    before = result_cache._files_digest(tmp_path / "pkg")
    (tmp_path / "pkg" / "claims.csv").write_text("id \n")
    assert result_cache._files_digest(tmp_path / "pkg") != before
    (tmp_path / "pkg" / "__pycache__").mkdir()
    after = result_cache._files_digest(tmp_path / "pkg")
    (tmp_path / "pkg" / "__pycache__" / "a.cpython.pyc").write_bytes(b"\0")
    assert result_cache._files_digest(tmp_path / "pkg") == after  # byte-code is not source


@pytest.fixture
def replaced_check():
    registry.load_all()
    saved = registry._REGISTRY.pop(CHEAP)

    @claim(CHEAP)
    def on_the_fly(ctx):
        return Evidence(Verdict.INCONCLUSIVE, "registered inside a function")

    yield
    registry._REGISTRY[CHEAP] = saved


def test_a_check_registered_inside_a_function_is_never_stored_nor_an_error(replaced_check, tmp_path):
    assert claim_key(CHEAP, "quick", 0) is None
    store = ResultCache(tmp_path)
    store.put_claim(ClaimResult({"id": CHEAP, "verdict": "inconclusive"}), "quick", 0)
    assert not (tmp_path / "results").exists()


def test_an_error_is_not_stored(tmp_path):
    store = ResultCache(tmp_path)
    store.put_claim(ClaimResult({"id": CHEAP, "verdict": "error"}), "quick", 0)
    assert not (tmp_path / "results").exists() and store.claim(CHEAP, "quick", 0) is None
    store.put_claim(ClaimResult({"id": CHEAP, "verdict": "confirmed"}, {"f.svg": "<svg/>"}), "quick", 0)
    assert store.claim(CHEAP, "quick", 0).files == {"f.svg": "<svg/>"} and store.claim(CHEAP, "quick", 1) is None
