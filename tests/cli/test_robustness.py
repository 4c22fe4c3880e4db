"""The command line as a program: quick start-up, Ctrl-C at any moment, unusable output folders.

Ctrl-C is simulated as a terminal does it: SIGINT to the whole process group (workers included).
Moments are chosen from what the process has written so far (``-X importtime`` lines, progress
lines), not from sleeps, so that a loaded machine does not move them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tvbo_verify.cli import main

HEAVY = ("numpy", "scipy", "sympy", "matplotlib", "mpmath", "tvbo_verify.verify")
ENTRY = "import sys; from tvbo_verify.cli import main; sys.argv = ['tvbo-verify', *sys.argv[1:]]; main()"


def _modules_after(args: list[str]) -> list[str]:
    """The heavy modules loaded once the root command has answered ``args`` in a fresh interpreter."""
    code = ("import sys\nfrom tvbo_verify.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            f"print([m for m in {HEAVY!r} if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return eval(done.stdout.strip().splitlines()[-1])


def test_version_and_the_import_of_the_package_load_no_heavy_module():
    assert _modules_after(["--version"]) == []
    done = subprocess.run([sys.executable, "-c", f"import sys, tvbo_verify; print([m for m in {HEAVY!r} "
                                                  "if m in sys.modules])"], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_subcommands_are_imported_on_first_use_and_all_listed():
    assert "numpy" in _modules_after(["info"])
    res = CliRunner().invoke(main, ["--help"])
    assert res.exit_code == 0
    listed = res.output.split("Commands:", 1)[1].split()
    for name in ("calc", "info", "list", "replay", "report", "reproduce", "run", "run-list"):
        assert name in listed
    assert "version" in CliRunner().invoke(main, ["--version"]).output


class _Watched:
    """A ``tvbo-verify`` process in its own process group, its stderr read line by line as it comes."""

    def __init__(self, args: list[str], cwd: Path, *, importtime: bool = False) -> None:
        flags = ["-X", "importtime"] if importtime else []
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen([sys.executable, *flags, "-c", ENTRY, *args], cwd=cwd, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     start_new_session=True)
        self.lines: list[str] = []
        self._changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self._changed:
                self.lines.append(line.rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self.lines.append(None)  # type: ignore[arg-type]  # end of stream
            self._changed.notify_all()

    def wait_for(self, fragment: str, timeout: float) -> None:
        """Block until a stderr line contains ``fragment``."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not any(ln is not None and fragment in ln for ln in self.lines):
                assert None not in self.lines, f"ended before {fragment!r}: {self.text()[-2000:]}"
                left = deadline - time.monotonic()
                assert left > 0, f"no line with {fragment!r} after {timeout} s"
                self._changed.wait(left)

    def interrupt(self, timeout: float = 60, times: int = 1) -> int:
        """Ctrl-C in a terminal (``times`` presses, 0.1 s apart): SIGINT to the whole foreground process group;
        the exit code."""
        for press in range(times):
            if press:
                time.sleep(0.1)
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGINT)
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)

    def text(self) -> str:
        return "\n".join(ln for ln in self.lines if ln is not None)

    def messages(self) -> list[str]:
        """Non-empty stderr lines other than ``-X importtime`` lines."""
        return [ln for ln in self.text().splitlines() if ln.strip() and not ln.startswith("import time:")]


def _assert_interrupted(watched: _Watched, code: int) -> None:
    watched.proc.wait()
    time.sleep(0.2)  # let the reader thread take the last lines
    assert "Traceback" not in watched.text() and "Exception ignored" not in watched.text(), watched.text()[-3000:]
    assert code == 130, (code, watched.messages()[-5:])
    assert watched.messages()[-1] == "interrupted", watched.messages()[-5:]


@pytest.mark.parametrize("moment", ["tvbo_verify.kernels", "tvbo_verify.papers.sparq.reproductions"])
def test_ctrl_c_during_the_start_up_imports_of_report_exits_130_without_a_traceback(tmp_path, moment):
    watched = _Watched(["report", "--paper", "sparq", "--out", str(tmp_path / "r"), "--no-cache"], tmp_path,
                       importtime=True)
    watched.wait_for(moment, timeout=120)
    _assert_interrupted(watched, watched.interrupt())


def test_ctrl_c_while_report_runs_its_claims_exits_130_and_keeps_finished_claims(tmp_path):
    out = tmp_path / "r"
    watched = _Watched(["report", "sparq:lemma-1", "sparq:figure-1", "--out", str(out), "--no-cache",
                        "--no-reproductions"], tmp_path)
    watched.wait_for("sparq:lemma-1", timeout=300)  # the first claim is done, the experiment is running
    time.sleep(1.0)
    _assert_interrupted(watched, watched.interrupt())
    assert (out / "results.json").exists()
    assert not [p for p in out.rglob("*.tmp")], "half-written files left behind"


def test_ctrl_c_inside_the_workers_of_run_exits_130_without_a_traceback(tmp_path):
    out = tmp_path / "w"
    watched = _Watched(["run", "gp-ucb", "--env", "tvgpucb-markov", "-T", "3000", "--reps", "4", "--out", str(out),
                        "--executor", "process", "--workers", "2", "--quiet", "--no-plot"], tmp_path)
    deadline = time.monotonic() + 120
    while not (out / "run.json").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    _assert_interrupted(watched, watched.interrupt())


def test_ctrl_c_pressed_again_while_run_stops_still_exits_130_without_a_traceback(tmp_path):
    out = tmp_path / "w"
    watched = _Watched(["run", "gp-ucb", "--env", "tvgpucb-markov", "-T", "3000", "--reps", "4", "--out", str(out),
                        "--executor", "process", "--workers", "2", "--quiet"], tmp_path)
    deadline = time.monotonic() + 120
    while not (out / "run.json").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    _assert_interrupted(watched, watched.interrupt(times=4))


def test_ctrl_c_in_process_reaches_the_caller(monkeypatch):
    """Invoked in-process (pytest, hypothesis), Ctrl-C must stop the caller, not become an exit code."""
    import tvbo_verify.cli.info as info_module

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(info_module.platform, "python_version", interrupted)
    with pytest.raises(KeyboardInterrupt):
        CliRunner().invoke(main, ["info"])


def test_reproduce_out_under_a_file_is_one_error_line(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    res = CliRunner().invoke(main, ["reproduce", "sparq:figure-1", "--out", str(blocker / "sub"), "--no-cache"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and str(blocker / "sub") in lines[0] and "not writable" in lines[0], res.stderr


def _one_line(res) -> str:
    assert res.exit_code == 2, (res.exit_code, res.output)
    assert "Traceback" not in res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    return lines[0]


@pytest.mark.parametrize("args,first,second", [
    (["--list", "sparq:figure-1"], "--list", "reproduction ids"),
    (["--list", "--all"], "--list", "--all"),
    (["sparq:figure-1", "--no-cache", "--cache", "CACHE"], "--no-cache", "--cache"),
])
def test_conflicting_reproduce_options_are_refused_naming_both(tmp_path, args, first, second):
    out = tmp_path / "figs"
    args = [str(tmp_path / "c") if a == "CACHE" else a for a in args]
    line = _one_line(CliRunner().invoke(main, ["reproduce", *args, "--out", str(out)]))
    assert f"{first} and {second} cannot be combined" in line
    assert not out.exists() and not (tmp_path / "c").exists()


def test_reproduce_refuses_a_negative_seed(tmp_path):
    line = _one_line(CliRunner().invoke(main, ["reproduce", "sparq:figure-1", "--seed", "-1", "--out",
                                               str(tmp_path / "f")]))
    assert "--seed" in line and "-1" in line


def test_mutants_out_that_cannot_be_created_is_refused_before_any_mutant_runs(tmp_path, monkeypatch):
    import tvbo_verify.mutants.analysis as analysis

    def never(*args, **kwargs):
        raise AssertionError("the mutants ran before --out was checked")

    monkeypatch.setattr(analysis, "analyse", never)
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    line = _one_line(CliRunner().invoke(main, ["mutants", "--subset", "ci", "--out", str(blocker / "sub" / "m.json")]))
    assert str(blocker / "sub") in line and "not writable" in line and "--out" in line


def test_a_second_mutants_run_into_the_same_file_is_refused(tmp_path, monkeypatch):
    import tvbo_verify.mutants.analysis as analysis

    out = tmp_path / "m.json"
    inner = {}

    def analyse(**kwargs):  # while the first run works, a second one starts
        inner["res"] = CliRunner().invoke(main, ["mutants", "--subset", "ci", "--out", str(out)])
        raise KeyboardInterrupt

    monkeypatch.setattr(analysis, "analyse", analyse)
    with pytest.raises(KeyboardInterrupt):
        CliRunner().invoke(main, ["mutants", "--subset", "ci", "--out", str(out)])
    line = _one_line(inner["res"])
    assert f"--out file {out} is being written by" in line
    assert list(tmp_path.iterdir()) == []  # the lock went with the first run


def test_a_second_run_into_a_folder_another_process_writes_is_refused_until_that_process_dies(tmp_path):
    """The lock is the kernel's: refused while the first run lives, free once it is killed (SIGKILL, no clean-up),
    even while the worker processes it forked still run."""
    from tvbo_verify.files import LOCK_NAME, folder_lock

    out = tmp_path / "w"
    args = ["run", "gp-ucb", "--env", "tvgpucb-markov", "-T", "3000", "--reps", "4", "--out", str(out),
            "--executor", "process", "--workers", "2", "--quiet", "--no-plot"]
    first = _Watched(args, tmp_path)
    try:
        deadline = time.monotonic() + 120
        while not (out / "run.json").exists():
            assert first.proc.poll() is None and time.monotonic() < deadline, first.text()[-2000:]
            time.sleep(0.05)
        line = _one_line(CliRunner().invoke(main, [*args[:-4], "--quiet", "--no-plot", "--resume"]))
        assert f"--out folder {out} is being written by another tvbo-verify process (pid {first.proc.pid}," in line
        os.kill(first.proc.pid, signal.SIGKILL)  # the parent only: its workers live on for a while
        first.proc.wait(timeout=30)
        assert (out / LOCK_NAME).exists()  # a crash leaves the file, not the lock
        with folder_lock(out, role="--out folder"):
            pass
    finally:
        try:
            os.killpg(first.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        first.proc.wait(timeout=30)
