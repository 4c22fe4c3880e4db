"""Every test item of the repository (``tests`` and the claim suite ``checks``) has a time limit.

A test that runs past its limit fails loudly, with the traceback of the line it was stuck on, instead
of stalling the run:

* at the limit, SIGALRM raises :class:`TimeLimitExceeded` in the test. It derives from
  ``BaseException``, so neither hypothesis (which would otherwise shrink, i.e. rerun the stuck
  example), nor ``CliRunner``, nor a claim check (which turns an ``Exception`` into an ERROR
  verdict) can swallow it; pytest reports the item as failed and goes on with the next one;
* ``time_limit_backstop`` seconds later (60: when C code never returned to Python to let the signal
  through), faulthandler prints the traceback of every thread and ends the process with exit code 1.

Limits (seconds; ``[tool.pytest.ini_options]`` of ``pyproject.toml``): ``time_limit`` for every test,
``claim_time_limit`` per fidelity for the items that run claims (those using the ``fidelity`` fixture; by
default the report's CPU budget per claim, ``tvbo_verify.budget.DEFAULT_CLAIM_BUDGET_S``),
``@pytest.mark.time_limit(S)`` for one test; ``--time-limit S`` overrides them all for a session (``0``: no
limit, e.g. under a debugger). Without SIGALRM (Windows) only the faulthandler backstop applies.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import time
from collections.abc import Generator

import pytest

from tvbo_verify.budget import DEFAULT_CLAIM_BUDGET_S

_deadline_key = pytest.StashKey[float]()
_stderr_key = pytest.StashKey[int]()


class TimeLimitExceeded(BaseException):
    """A test ran past its time limit (a ``BaseException``: nothing under test may catch it)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("time_limit", "seconds a test item may take (0: no limit)", default="300")
    claim_limits = " ".join(f"{fidelity}:{seconds:g}" for fidelity, seconds in DEFAULT_CLAIM_BUDGET_S.items())
    parser.addini("claim_time_limit", f"seconds a claim item may take, per fidelity ('{claim_limits}')",
                  default=claim_limits)
    parser.addini("time_limit_backstop", "seconds after the limit at which a test that does not react is ended "
                  "with the whole process", default="60")
    parser.getgroup("time limits").addoption(
        "--time-limit", type=float, default=None, metavar="S",
        help="time limit in seconds for every test item of this session, overriding the configured ones "
             "(0: no limit)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "time_limit(seconds): this test's own time limit")
    config.stash[_stderr_key] = os.dup(2)  # the terminal: output capture is not active yet


def pytest_unconfigure(config: pytest.Config) -> None:
    if _stderr_key in config.stash:
        os.close(config.stash[_stderr_key])


def time_limit(item: pytest.Item) -> float:
    """The item's limit in seconds (0: none)."""
    override = item.config.getoption("--time-limit")
    if override is not None:
        return max(float(override), 0.0)
    marker = item.get_closest_marker("time_limit")
    if marker is not None:
        return float(marker.args[0])
    if "fidelity" in getattr(item, "fixturenames", ()):
        fidelity = item.config.getoption("--fidelity", default="quick")
        limits = dict(part.split(":") for part in str(item.config.getini("claim_time_limit")).split())
        if fidelity in limits:
            return float(limits[fidelity])
    return float(item.config.getini("time_limit"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, object, object]:
    limit = time_limit(item)
    if limit <= 0:
        return (yield)
    item.stash[_deadline_key] = time.monotonic() + limit
    backstop = float(item.config.getini("time_limit_backstop"))
    faulthandler.dump_traceback_later(limit + backstop, exit=True, file=item.config.stash[_stderr_key])
    try:
        return (yield)
    finally:
        faulthandler.cancel_dump_traceback_later()


def _alarm_until_deadline(item: pytest.Item) -> Generator[None, object, object]:
    """Arm SIGALRM for what is left of the item's limit during one phase (setup, call, teardown) only, so
    that it never fires inside pytest's own reporting between phases."""
    deadline = item.stash.get(_deadline_key, None)
    if deadline is None or not hasattr(signal, "SIGALRM"):
        return (yield)
    limit = time_limit(item)

    def on_alarm(signum: int, frame: object) -> None:
        raise TimeLimitExceeded(f"{item.nodeid} ran past its time limit of {limit:g} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, max(deadline - time.monotonic(), 0.001))
    try:
        return (yield)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _alarm_until_deadline(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _alarm_until_deadline(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _alarm_until_deadline(item))
