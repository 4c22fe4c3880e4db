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
    res = _invoke(base)
    assert res.exit_code == 2 and finished_reps(out) == [0]
    monkeypatch.setattr(traces_mod, "save_trace", real_save)
    assert _invoke(base).exit_code == 2  # refuses to overwrite without --resume
    res = _invoke(base + ["--resume"])
    assert res.exit_code == 0, res.output
    assert finished_reps(out) == [0, 1, 2]
    fresh = str(tmp_path / "fresh")
    assert _invoke(args(fresh)).exit_code == 0
    for r in range(3):
        assert load_trace(out, r).same_run(load_trace(fresh, r))
