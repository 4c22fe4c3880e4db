"""No test can stall silently: the time limits of the pytest plugin and Ctrl-C, in a pytest of its own.

Each case runs pytest in a subprocess on a small test file in a folder of its own, outside the repository (the
limits come from the plugin ``tvbo_verify.pytest_plugin``, which pytest loads wherever tvbo-verify is installed);
the subprocess itself gets a bounded wait, so a stall here is a failure, not a hang.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

INI = """[pytest]
time_limit = 300
time_limit_backstop = 3
"""

LONG_RUN = ('["run", "gp-ucb", "--env", "tvgpucb-markov", "-T", "3000", "--reps", "2", "--executor", "process", '
            '"--workers", "2", "--quiet", "--no-plot", "--out", str(out)]')

PRELUDE = """
import os

def started():  # tells the parent that the stuck part has begun (where no other file shows it)
    if os.environ.get("STARTED"):
        open(os.environ["STARTED"], "w").close()
"""

CASES = {
    "hypothesis": PRELUDE + """
import time, pytest
from hypothesis import given, strategies as st

@pytest.mark.time_limit(3)
@given(st.integers())
def test_stuck(n):
    started()
    while True:  # an example that never ends: hypothesis must not get to shrink it
        time.sleep(0.05)

def test_after():
    pass
""",
    "cli": PRELUDE + f"""
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st
from tvbo_verify.cli import main

@pytest.mark.time_limit(5)
@settings(max_examples=3, deadline=None)
@given(st.integers(0, 2))
def test_stuck(tmp_path_factory, n):
    out = tmp_path_factory.mktemp("r")
    started()
    CliRunner().invoke(main, {LONG_RUN})

def test_after():
    pass
""",
    "mpmath": PRELUDE + """
import mpmath, pytest

@pytest.mark.time_limit(3)
def test_stuck():
    started()
    k = 0
    while True:  # a series that never converges, term by term in mpmath
        k += 1
        mpmath.zeta(mpmath.mpf(1) + mpmath.mpf(1) / k, k)

def test_after():
    pass
""",
}


def _pytest(tmp_path: Path, source: str, *args: str, ini: str = INI, started: Path | None = None) -> subprocess.Popen:
    (tmp_path / "pytest.ini").write_text(ini)
    (tmp_path / "test_case.py").write_text(source)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "PYTHONDONTWRITEBYTECODE": "1",
           "STARTED": str(started or "")}
    return subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--basetemp",
                             str(tmp_path / "bt"), "test_case.py", *args],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _finish(proc: subprocess.Popen, timeout: float) -> tuple[str, str]:
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"pytest stalled for {timeout} s:\n{out[-2000:]}\n{err[-2000:]}")


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_stuck_test_fails_with_its_traceback_and_the_run_goes_on(tmp_path, case):
    out, err = _finish(_pytest(tmp_path, CASES[case]), timeout=180)
    assert "1 failed, 1 passed" in out, out[-3000:] + err[-2000:]
    assert "TimeLimitExceeded" in out and "ran past its time limit" in out
    assert "test_case.py" in out.split("TimeLimitExceeded", 1)[0]  # the traceback shows where it was stuck


def test_a_test_deaf_to_the_signal_is_ended_by_the_backstop_with_every_thread_s_traceback(tmp_path):
    source = """
import signal, time, pytest

@pytest.mark.time_limit(1)
def test_deaf():
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # as C code that never returns to Python
    time.sleep(600)
"""
    proc = _pytest(tmp_path, source)
    out, err = _finish(proc, timeout=120)
    assert proc.returncode != 0
    assert "Timeout" in err and "test_deaf" in err, err[-3000:]


def test_a_claim_item_waiting_on_workers_restarts_its_limit_whenever_one_of_their_claims_finishes(tmp_path):
    """The limit bounds each claim's own run, not the queue ahead of it: an item that restarts its limit every
    second (as a claim item does whenever a claim run ahead in the workers finishes) outlives its 2 s limit; the
    same wait without restarts, and a restarted one whose last wait is longer than the limit, fail; the backstop
    (limit + 3 s) moves with the limit, or the first item would end the whole run."""
    source = """
import time, pytest
from tvbo_verify.pytest_plugin import restart_time_limit

@pytest.mark.time_limit(2)
def test_restarted():
    for _ in range(6):
        time.sleep(1)
        restart_time_limit()

@pytest.mark.time_limit(2)
def test_not_restarted():
    time.sleep(6)

@pytest.mark.time_limit(2)
def test_restarted_then_stuck():
    time.sleep(1)
    restart_time_limit()
    time.sleep(6)
"""
    out, err = _finish(_pytest(tmp_path, source), timeout=120)
    assert "2 failed, 1 passed" in out, out[-3000:] + err[-2000:]
    assert "FAILED test_case.py::test_not_restarted" in out and "FAILED test_case.py::test_restarted_then_stuck" in out


@pytest.mark.parametrize(("case", "sign"), [("cli", "bt/**/run.json"), ("mpmath", "started")])
def test_ctrl_c_stops_pytest_even_inside_a_command_or_mpmath(tmp_path, case, sign):
    """``sign``: the file whose appearance shows that the test is inside the command's run (its workers)
    or the series."""
    proc = _pytest(tmp_path, CASES[case], "--time-limit", "0", started=tmp_path / "started")
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(sign)):
        assert proc.poll() is None and time.monotonic() < deadline, "the test did not start"
        time.sleep(0.05)
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C in a terminal
    out, err = _finish(proc, timeout=60)
    assert proc.returncode == 2, (proc.returncode, out[-2000:], err[-2000:])  # pytest: interrupted
    assert "KeyboardInterrupt" in out and "passed" not in out.splitlines()[-1], out[-2000:]


def test_claim_items_are_limited_to_the_reports_budget_per_claim(pytestconfig):
    """One number per fidelity: a claim item of the suite may take what a claim of the report may use."""
    from tvbo_verify.budget import DEFAULT_CLAIM_BUDGET_S

    limits = dict(part.split(":") for part in str(pytestconfig.getini("claim_time_limit")).split())
    assert {fidelity: float(s) for fidelity, s in limits.items()} == DEFAULT_CLAIM_BUDGET_S
