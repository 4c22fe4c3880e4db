"""The CPU budget of a report's claims: a claim that loops forever is stopped, and nothing else is touched."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from tvbo_verify.budget import ClaimOverBudget, budget_applies, cpu_budget


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_claim_past_its_budget_is_stopped_and_the_timer_is_lifted():
    start = time.process_time()
    with pytest.raises(ClaimOverBudget, match="budget of 0.1 CPU seconds"):
        with cpu_budget(0.1):
            _spin(30.0)
    assert time.process_time() - start < 5.0
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    _spin(0.3)  # no signal left to arrive


def test_a_claim_within_its_budget_runs_to_the_end():
    with cpu_budget(5.0):
        _spin(0.1)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_a_check_that_swallows_exceptions_meets_the_repeated_signal():
    caught = []

    def swallowing() -> None:
        for _ in range(3):
            try:
                _spin(30.0)
            except BaseException:  # a check catching everything: the signal repeats every second of CPU
                caught.append(True)
        _spin(30.0)

    start = time.process_time()
    with pytest.raises(ClaimOverBudget):
        with cpu_budget(0.05):
            swallowing()
    assert caught == [True] * 3 and time.process_time() - start < 15.0
    with pytest.raises(ClaimOverBudget):
        with cpu_budget(0.05):
            try:
                _spin(30.0)
            except Exception:  # ClaimOverBudget is not an Exception
                pytest.fail("an 'except Exception' caught the budget")


def test_no_budget_outside_the_main_thread_and_bad_budgets_are_refused():
    assert budget_applies()
    done = []

    def worker() -> None:
        assert not budget_applies()
        with cpu_budget(0.01):  # a no-op in a thread: it cannot be interrupted there
            _spin(0.1)
        done.append(True)

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert done == [True]
    for bad in (-1, 0, 1e20):
        with pytest.raises(ValueError, match=r"seconds must be in \(0, 1e\+09\] or None, got "):
            cpu_budget(bad)
    with pytest.raises(RuntimeError, match="does not nest"):
        with cpu_budget(10.0), cpu_budget(10.0):
            pass
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def _spin_past_a_budget(seconds: float) -> tuple[bool, str]:
    """In a worker process: whether a budget applies there, and what stopped the spin."""
    try:
        with cpu_budget(seconds):
            _spin(30.0)
    except ClaimOverBudget as exc:
        return budget_applies(), str(exc)
    return budget_applies(), "ran to the end"


def test_the_budget_applies_in_the_worker_processes_of_a_report():
    from tvbo_verify.execution import ProcessExecutor

    with ProcessExecutor(max_workers=2) as ex:
        got = ex.map(_spin_past_a_budget, [0.2, 0.3])
    assert got == [(True, "used more than its budget of 0.2 CPU seconds"),
                   (True, "used more than its budget of 0.3 CPU seconds")]
