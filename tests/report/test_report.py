"""Report, results.json and the list/report/replay commands (synthetic claims in registry slots)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import mpmath
import pytest
from click.testing import CliRunner

from tvbo_verify.cli.main import main
from tvbo_verify.report.results import CLAIM_KEYS, load_results
from tvbo_verify.verify import Comparison, Evidence, Power, Statement, Verdict, claim, claim_rows, exact_evidence, registry

OK_ID = "wsparq:assumption-1"  # expect holds
BAD_ID = "wsparq:synthetic-norm-bound"  # expect fails-as-printed
ERR_ID = "wsparq:assumption-2"  # a slot for a check that raises


def _fig():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([1, 2, 3], [1, 4, 9], label="x²")
    ax.set_title("β_t growth")
    return fig


ST = Statement(
    name="x^2 <= 1.9 x",
    evaluate=lambda p, sharpened=False: Comparison(p["x"] ** 2, 1.9 * p["x"]),
    sample=lambda rng: {"x": float(rng.uniform(0, 1.5))},
    hp=lambda p: Comparison(mpmath.mpf(p["x"]) ** 2, mpmath.mpf("1.9") * mpmath.mpf(p["x"])),
    continuous=("x",),
    bounds={"x": (0.0, 2.0)},
)


@pytest.fixture
def synthetic():
    registry.load_all()
    ids = (OK_ID, BAD_ID, ERR_ID)
    saved = {i: registry._REGISTRY.pop(i, None) for i in ids}

    @claim(OK_ID)
    def ok(ctx):
        """A check that always measures a true inequality."""
        return Evidence(Verdict.CONFIRMED, "1 <= 2 holds", instances=[{"a": 1, "lhs": 1.0, "rhs": 2.0, "margin": 1.0}],
                        margin=1.0, power=Power("bound divided by 4", True), figures=[("growth", _fig)])

    @claim(BAD_ID)
    def bad(ctx):
        return exact_evidence(ctx, ST, n_random=10)

    @claim(ERR_ID)
    def err(ctx):
        raise ZeroDivisionError("synthetic failure")

    yield ids
    for i, s in saved.items():
        registry._REGISTRY.pop(i, None)
        if s is not None:
            registry._REGISTRY[i] = s


def invoke(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_list_json_covers_every_claim():
    res = invoke("list", "--json")
    assert res.exit_code == 0
    items = json.loads(res.output)
    assert len(items) == len(claim_rows()) == 209
    assert set(items[0]) == {"id", "paper", "ref", "kind", "expect", "title", "implemented", "module"}
    assert all(isinstance(i["implemented"], bool) for i in items)


def test_list_rejects_unknown_paper():
    res = invoke("list", "--paper", "nope")
    assert res.exit_code == 2


def test_report_writes_results_and_html(synthetic, tmp_path):
    out = tmp_path / "rep"
    res = invoke("report", OK_ID, BAD_ID, "--out", str(out))
    assert res.exit_code == 0, res.output
    doc = load_results(out / "results.json")
    assert doc["schema"] == 1
    assert set(doc["run"]) == {"version", "git", "seed", "fidelity", "started", "finished", "machine"}
    assert [c["id"] for c in doc["claims"]] == [OK_ID, BAD_ID]
    for c in doc["claims"]:
        assert set(c) == set(CLAIM_KEYS) and c["matches"] is True
    bad = doc["claims"][1]
    assert bad["verdict"] == "violated" and bad["counterexample"]["instance"]["x"] > 1.9
    html = (out / "index.html").read_text()
    assert "<svg" in html and "β_t growth" in html
    assert "Errata" in html and "Theory versus practice" in html
    assert f"tvbo-verify replay {BAD_ID}" in html
    # the stored counterexample replays
    ce_file = out / "counterexamples" / "wsparq_synthetic-norm-bound.json"
    rep = invoke("replay", BAD_ID, str(ce_file))
    assert rep.exit_code == 0 and "violated" in rep.output
    rep2 = invoke("replay", BAD_ID, str(out / "results.json"))
    assert rep2.exit_code == 0


def test_html_has_no_network_references(synthetic, tmp_path):
    out = tmp_path / "rep"
    invoke("report", OK_ID, BAD_ID, ERR_ID, "--out", str(out))
    html = (out / "index.html").read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert not re.search(r"@import|url\(\s*['\"]?https?:", html, re.I)
    assert "<script" not in html.lower() and "<link" not in html.lower()


def test_error_claim_is_reported_not_crash_and_exit_1(synthetic, tmp_path):
    out = tmp_path / "rep"
    res = invoke("report", OK_ID, ERR_ID, "--out", str(out))
    assert res.exit_code == 1
    doc = json.loads((out / "results.json").read_text())
    err = [c for c in doc["claims"] if c["id"] == ERR_ID][0]
    assert err["verdict"] == "error" and not err["matches"] and "synthetic failure" in err["summary"]
    assert "mismatch" in res.output


def test_resume_skips_finished_claims(synthetic, tmp_path):
    out = tmp_path / "rep"
    invoke("report", OK_ID, "--out", str(out))
    first = json.loads((out / "results.json").read_text())["claims"][0]
    res = invoke("report", OK_ID, BAD_ID, "--out", str(out), "--resume")
    assert res.exit_code == 0
    doc = json.loads((out / "results.json").read_text())
    assert [c["id"] for c in doc["claims"]] == [OK_ID, BAD_ID]
    assert doc["claims"][0] == first
    assert "kept from previous run" in res.output


def test_corrupt_results_on_resume_is_one_line_exit_2(synthetic, tmp_path):
    out = tmp_path / "rep"
    out.mkdir()
    (out / "results.json").write_text('{"schema": 1, "run": ')
    res = invoke("report", OK_ID, "--out", str(out), "--resume")
    assert res.exit_code == 2
    assert "corrupt" in res.output and len(res.output.strip().splitlines()) == 1
    assert (out / "results.json").read_text() == '{"schema": 1, "run": '


@pytest.mark.parametrize("args,needle", [
    (("report", "wsparq:no-such-claim"), "unknown claim id"),
    (("report", "--paper", "nopaper"), "paper must be one of"),
    (("replay", "wsparq:no-such-claim", "x.json"), "unknown claim id"),
])
def test_user_errors_exit_2(args, needle, tmp_path):
    (tmp_path / "x.json").write_text("{}")
    res = CliRunner().invoke(main, list(args) + (["--out", str(tmp_path / "o")] if args[0] == "report" else []))
    if args[0] == "replay":
        res = CliRunner().invoke(main, [args[0], args[1], str(tmp_path / "x.json")])
    assert res.exit_code == 2 and needle in res.output


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_unwritable_out_is_exit_2(synthetic, tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        res = invoke("report", OK_ID, "--out", str(ro / "sub"))
    finally:
        ro.chmod(0o700)
    assert res.exit_code == 2 and "not writable" in res.output


def test_out_is_a_file_is_exit_2(synthetic, tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    res = invoke("report", OK_ID, "--out", str(f))
    assert res.exit_code == 2 and "not writable" in res.output


CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed")
def test_report_renders_in_headless_chromium(synthetic, tmp_path):
    out = tmp_path / "rep"
    invoke("report", OK_ID, BAD_ID, "--out", str(out))
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
             "--dump-dom", (out / "index.html").resolve().as_uri()],
            capture_output=True, text=True, timeout=120,
        )
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    assert "tvbo-verify" in dom and OK_ID in dom and "<svg" in dom


def test_theory_panel_computes_tables_and_degrades(monkeypatch):
    from tvbo_verify.report import panel

    out = panel.theory_vs_practice()
    titles = [t["title"] for t in out["tables"]]
    assert any("Expert-query budget" in t for t in titles) and any("Exploration weight" in t for t in titles)
    q = [t for t in out["tables"] if "Expert-query" in t["title"]][0]
    row500 = [r for r in q["rows"] if r[0] == 500][0]
    assert row500[1] > row500[2]  # theory budget exceeds the experiments' 6 log T
    monkeypatch.setattr(panel, "_beta_table", lambda: (_ for _ in ()).throw(ImportError("no module")))
    out = panel.theory_vs_practice()
    assert out["notes"] and "not available" in out["notes"][0]


def test_results_file_is_world_readable(synthetic, tmp_path):
    out = tmp_path / "rep"
    invoke("report", OK_ID, "--out", str(out))
    umask = os.umask(0)
    os.umask(umask)
    for name in ("results.json", "index.html"):
        assert (out / name).stat().st_mode & 0o777 == 0o666 & ~umask


def test_replay_of_a_real_counterexample(tmp_path):
    from tvbo_verify.verify import run_claim

    ev = run_claim("wsparq:l-star")
    assert ev.verdict.value == "violated"
    f = tmp_path / "ce.json"
    f.write_text(json.dumps(ev.counterexample))
    res = invoke("replay", "wsparq:l-star", str(f))
    assert res.exit_code == 0 and "violated (reproduced)" in res.output
    # a corrupt instance is a user error (one line, exit 2)
    f.write_text(json.dumps(dict(ev.counterexample, instance={"alpha": -1.0, "T": 1000})))
    res = CliRunner().invoke(main, ["replay", "wsparq:l-star", str(f)])
    assert res.exit_code == 2


def test_resume_with_a_narrower_selection_keeps_earlier_results(synthetic, tmp_path):
    out = tmp_path / "rep"
    invoke("report", OK_ID, BAD_ID, "--out", str(out))
    res = invoke("report", OK_ID, "--out", str(out), "--resume")
    assert res.exit_code == 0
    doc = json.loads((out / "results.json").read_text())
    assert [c["id"] for c in doc["claims"]] == [OK_ID, BAD_ID]
    assert doc["run"]["finished"] is not None
