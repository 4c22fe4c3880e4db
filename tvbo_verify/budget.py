"""A bound on the CPU time of one claim's check, so that no report runs unbounded.

A check that loops forever (a numerical loop that never meets its exit condition) would otherwise hold its
worker, and the report, for good. :func:`cpu_budget` arms the process's profiling timer (``ITIMER_PROF``,
CPU time of the process) for the duration of one claim; when the claim has used ``seconds`` of CPU, the
timer's signal raises :class:`ClaimOverBudget` inside the check, :func:`~tvbo_verify.verify.engine.run_claim`
(``cpu_budget_s``) turns it into an ``ERROR`` with that reason, and the report goes on with the next claim.
CPU time rather than wall time: a loaded machine slows a claim down without it using more of its budget, and
the timer is not the wall-clock one that the test suite's time limits use.

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
from contextlib import AbstractContextManager
from typing import Any

#: default CPU seconds per claim and fidelity (also the claim items' default time limits, ``claim_time_limit``
#: of the pytest plugin)
DEFAULT_CLAIM_BUDGET_S: dict[str, float] = {"quick": 900.0, "full": 14400.0}

#: after the budget, the signal repeats every this many CPU seconds (a check that swallows the first one
#: meets the next)
REPEAT_S = 1.0


class ClaimOverBudget(BaseException):
    """A claim used more CPU time than its budget (a ``BaseException``: a check's ``except Exception`` cannot
    swallow it)."""


#: the longest budget (seconds; about 30 years of CPU): beyond it the timer cannot be armed on every system
MAX_BUDGET_S = 1e9

_armed: list[float] = []  # the budget being enforced (at most one: budgets do not nest)


def _on_profiling_signal(signum: int, frame: Any) -> None:
    # ignored once the budget is lifted, and while it is being lifted (the signal may be handled at the first
    # instruction of the exit, before the timer is disarmed)
    if _armed and (frame is None or frame.f_code is not cpu_budget.__exit__.__code__):
        raise ClaimOverBudget(f"used more than its budget of {_armed[0]:g} CPU seconds")


def budget_applies() -> bool:
    """Whether a budget can be enforced here: in a process's main thread on a system with ``setitimer``."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


class cpu_budget(AbstractContextManager):  # noqa: N801 - used as a function: ``with cpu_budget(s):``
    """Raise :class:`ClaimOverBudget` in the body once this process has used ``seconds`` of CPU time in it
    (``None`` or where :func:`budget_applies` is false: no budget). Not reentrant.

    The handler of the profiling signal is installed when a budget is first armed and stays: a signal still
    pending when the budget is lifted must find a handler that ignores it, not the default action, which ends
    the process (a handler installed before, e.g. a profiler's, is replaced)."""

    def __init__(self, seconds: float | None) -> None:
        if seconds is not None and not 0 < seconds <= MAX_BUDGET_S:
            raise ValueError(f"seconds must be in (0, {MAX_BUDGET_S:g}] or None, got {seconds!r}")
        self.seconds = seconds
        self._on = False

    def __enter__(self) -> "cpu_budget":
        if self.seconds is None or not budget_applies():
            return self
        if _armed:
            raise RuntimeError("cpu_budget does not nest")
        signal.signal(signal.SIGPROF, _on_profiling_signal)
        self._on = True
        _armed.append(float(self.seconds))
        try:
            signal.setitimer(signal.ITIMER_PROF, float(self.seconds), REPEAT_S)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._on:  # the handler ignores the signal in this frame: nothing can interrupt the disarming
            _armed.clear()
            signal.setitimer(signal.ITIMER_PROF, 0.0)
            self._on = False
