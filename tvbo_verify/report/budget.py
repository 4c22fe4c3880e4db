"""A bound on the CPU time of each claim of a report, so that no report runs unbounded.

A check that loops forever (a numerical loop that never meets its exit condition) would otherwise hold its
worker, and the report, for good. :func:`cpu_budget` arms the process's profiling timer (``ITIMER_PROF``,
CPU time of the process) for the duration of one claim; when the claim has used ``seconds`` of CPU, the
timer's signal raises :class:`ClaimOverBudget` inside the check, and the report records the claim as an
error with that reason and goes on. CPU time rather than wall time: a loaded machine slows a claim down
without it using more of its budget, and the timer is not the wall-clock one that the test suite's time
limits use.

The signal can only be handled in a process's main thread: the claims of ``--executor process`` and
``--executor serial`` run there; on a Dask worker a task runs in a thread of the worker and the budget does
not apply (the report's heartbeat names the claims still running).

Examples
--------
>>> with cpu_budget(None):  # no budget: a no-op
...     pass
>>> try:
...     with cpu_budget(0.05):
...         while True:
...             pass
... except ClaimOverBudget as exc:
...     print(exc)
used more than its budget of 0.05 CPU seconds
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: default CPU seconds per claim and fidelity (the claim suite's time limits, ``claim_time_limit``)
DEFAULT_CLAIM_BUDGET_S: dict[str, float] = {"quick": 900.0, "full": 14400.0}

#: after the budget, the signal repeats every this many CPU seconds (a check that swallows the first one
#: meets the next)
REPEAT_S = 1.0


class ClaimOverBudget(BaseException):
    """A claim used more CPU time than its budget (a ``BaseException``: a check's ``except Exception`` cannot
    swallow it)."""


_armed: list[float] = []  # the budget being enforced (at most one: budgets do not nest)


def _on_profiling_signal(signum: int, frame: Any) -> None:
    if _armed:  # a signal delivered just after the budget was lifted is ignored
        raise ClaimOverBudget(f"used more than its budget of {_armed[0]:g} CPU seconds")


def budget_applies() -> bool:
    """Whether a budget can be enforced here: in a process's main thread on a system with ``setitimer``."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def cpu_budget(seconds: float | None) -> Iterator[None]:
    """Raise :class:`ClaimOverBudget` in the body once this process has used ``seconds`` of CPU time in it
    (``None`` or where :func:`budget_applies` is false: no budget). Not reentrant."""
    if seconds is None or not budget_applies():
        yield
        return
    if not seconds > 0:
        raise ValueError(f"seconds must be > 0 or None, got {seconds!r}")
    if _armed:
        raise RuntimeError("cpu_budget does not nest")
    # installed for good, never restored: a profiling signal still pending when the budget ends must find a
    # handler that ignores it, not the default action, which ends the process
    signal.signal(signal.SIGPROF, _on_profiling_signal)
    _armed.append(float(seconds))
    signal.setitimer(signal.ITIMER_PROF, float(seconds), REPEAT_S)
    try:
        yield
    finally:
        while True:  # the signal may arrive here, before the budget is lifted: lift it all the same
            try:
                _armed.clear()  # from here on the handler ignores the signal
                signal.setitimer(signal.ITIMER_PROF, 0.0)
                break
            except ClaimOverBudget:
                continue
