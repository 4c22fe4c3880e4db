"""The pytest plugin of tvbo-verify (entry point ``pytest11``): the claims of registered papers as test items.

In any repository of an environment where tvbo-verify is installed, with no conftest of its own::

    pytest --tvbo-paper srinivas2010             # one test item per claim of that paper
    pytest -m srinivas2010                       # the same: a paper id in the -m expression selects it
    pytest --tvbo-paper all --fidelity full -m rate

Options: ``--tvbo-paper PAPER`` (repeatable; ``all`` for every registered paper), ``--fidelity
quick|full``, ``--claim-seed``, ``--claim-executor serial|process``, ``--claim-cache=DIR``,
``--claim-no-cache`` and ``--time-limit S``. Pytest reads its configuration file before it knows a plugin's
options, so ``--claim-cache DIR`` with a space would let it take ``DIR`` for a test path and read the
configuration of the wrong folder (and, say, collect nothing): that spelling is refused with a line asking for
``--claim-cache=DIR`` whenever it could have done so (:func:`check_spaced_values`).
With ``--claim-executor process`` (the default) the selected claims run ahead
in one worker process per core and each item waits for its own claim (:func:`claim_evidence`). Every
item is marked with its paper id and its kind (``exact``, ``rate``, ...), so ``-m``, ``-k`` and node
ids select as usual. A test module may hold the claims too: ``test_claims =
ClaimSuite()`` collects every registered paper's claims (or those of ``--tvbo-paper``) at that place (this
project's ``checks/test_claims.py``).

An item passes by the pass rule of :mod:`tvbo_verify.verify.passing`, the one ``tvbo-verify report`` uses
for its exit code: the verdict is the expectation of the claim list or the verdict a recorded
disagreement says this toolkit measures at this fidelity (then a warning names it), and a confirmed or
violated verdict showed its power; an error never passes. A claim without a check is skipped as "not
implemented" (never passed).

Every claim item has a time limit, the report's CPU budget per claim of its fidelity (``claim_time_limit`` in
the pytest configuration, ``900`` s at quick fidelity); ``time_limit`` (seconds, default 0: none) limits every
other test item, ``@pytest.mark.time_limit(S)`` one test, and ``--time-limit S`` overrides them all for a session
(``0``: no limit, e.g. under a debugger). A test past its limit fails with the traceback of the line it was
stuck on: SIGALRM raises :class:`TimeLimitExceeded` in it (a ``BaseException``: neither hypothesis, nor
``CliRunner``, nor a claim check, which turns an ``Exception`` into an error verdict, can swallow it);
``time_limit_backstop`` seconds later (60: C code that never returned to Python to let the signal through),
faulthandler prints the traceback of every thread and ends the process with exit code 1. Without SIGALRM
(Windows) only the backstop applies.

The plugin is loaded by every pytest run in the environment, so this module imports only pytest, the standard
library and the paper registry; the claim engine is imported when a claim item is collected.
"""

from __future__ import annotations

import faulthandler
import os
import re
import signal
import time
import warnings
from pathlib import Path
from typing import Any, Callable, Generator, Iterator, Sequence

import pytest

from .budget import DEFAULT_CLAIM_BUDGET_S
from .fidelity import DEFAULT_FIDELITY, FIDELITIES
from .papers import KINDS, get_paper, paper_ids

#: ``--tvbo-paper`` value that selects every registered paper
ALL = "all"
CLAIM_KEY = pytest.StashKey[str]()
_TOKEN = re.compile(r"[\w:+\-.\[\]/]+")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tvbo-verify", "tvbo-verify claims")
    group.addoption("--tvbo-paper", action="append", default=[], metavar="PAPER", dest="tvbo_papers",
                    help="run the claims of this registered paper as test items (repeatable; 'all': every "
                         "registered paper; `tvbo-verify papers` lists them)")
    group.addoption("--fidelity", choices=FIDELITIES, default=DEFAULT_FIDELITY,
                    help=f"claim-check fidelity (default {DEFAULT_FIDELITY})")
    group.addoption("--claim-seed", type=int, default=0, help="run seed combined with each claim id")
    group.addoption("--claim-executor", choices=("serial", "process"), default="process",
                    help="where the claims run: in the pytest process, or ahead in one worker process per core "
                         "(default; results do not depend on it)")
    group.addoption("--claim-cache", default=None, metavar="DIR",
                    help="run cache of the checks (default $TVBO_VERIFY_CACHE or ~/.cache/tvbo_verify)")
    group.addoption("--claim-no-cache", action="store_true", help="the checks neither read nor write a run cache")
    group.addoption("--time-limit", type=float, default=None, metavar="S",
                    help="time limit in seconds of every test item of this session, overriding the configured ones "
                         "(0: no limit)")
    parser.addini("time_limit", "seconds a test item other than a claim may take (0: no limit)", default="0")
    claim_limits = " ".join(f"{fidelity}:{seconds:g}" for fidelity, seconds in DEFAULT_CLAIM_BUDGET_S.items())
    parser.addini("claim_time_limit", f"seconds a claim item may take, per fidelity ('{claim_limits}')",
                  default=claim_limits)
    parser.addini("time_limit_backstop", "seconds after the limit at which a test that does not react is ended "
                  "with the whole process", default="60")


#: options of this plugin that take a value (``--option VALUE``)
VALUE_OPTIONS = ("--tvbo-paper", "--fidelity", "--claim-seed", "--claim-executor", "--claim-cache", "--time-limit")


def check_spaced_values(config: pytest.Config) -> None:
    """Refuse ``--claim-cache DIR`` (a space, not ``=``) when it made pytest read another configuration file than
    the command line without it would (a usage error asking for ``--claim-cache=DIR``).

    Pytest finds its configuration file (and with it ``addopts`` and ``testpaths``) before any plugin has added
    its options, taking every word that is not a known option for a test path; an existing folder given as the
    value of a plugin option with a space then decides where the configuration is looked for, and a run may read
    none and collect nothing. ``--option=VALUE`` is never mistaken.
    """
    args = list(config.invocation_params.args)
    spaced = [(option, value) for option, value in zip(args, args[1:])
              if option in VALUE_OPTIONS and not value.startswith("-") and os.path.exists(value)]
    if not spaced:
        return
    expected = _configuration_file(config)
    if expected is False or expected == config.inipath:
        return
    option, value = spaced[0]
    raise pytest.UsageError(f"{option} {value}: write {option}={value}; with a space pytest took {value} for a test "
                            "path while it looked for its configuration file (before it knows this option) and read "
                            f"{config.inipath or 'none'} instead of {expected or 'none'}")


def _configuration_file(config: pytest.Config) -> Path | None | bool:
    """The configuration file pytest finds for this session's real test paths (False when it cannot be told:
    pytest's finder is private and its signature changes between versions)."""
    import inspect

    try:
        from _pytest.config.findpaths import determine_setup

        known = {"inifile": config.option.inifilename, "override_ini": config.option.override_ini,
                 "args": [str(a) for a in (config.option.file_or_dir or [])], "rootdir_cmd_arg": config.option.rootdir,
                 "invocation_dir": Path(config.invocation_params.dir), "config": None}
        wanted = inspect.signature(determine_setup).parameters
        found = determine_setup(**{name: value for name, value in known.items() if name in wanted})
        return found[1]
    except Exception:  # a pytest whose finder differs: no check rather than a wrong refusal
        return False


def requested_papers(config: pytest.Config) -> tuple[str, ...]:
    """The papers ``--tvbo-paper`` names (``all``: every registered paper), in registry order; a paper id
    that is not registered is a usage error naming the registered ids."""
    asked = list(config.getoption("tvbo_papers") or ())
    if ALL in asked:
        return paper_ids()
    for p in asked:
        try:
            get_paper(p)
        except ValueError as exc:
            raise pytest.UsageError(f"--tvbo-paper: {exc}") from None
    return tuple(p for p in paper_ids() if p in asked)


def marked_papers(config: pytest.Config) -> tuple[str, ...]:
    """Registered paper ids the ``-m`` expression names."""
    expr = config.getoption("markexpr", default="") or ""
    named = set(_TOKEN.findall(expr))
    return tuple(p for p in paper_ids() if p in named)


def pytest_configure(config: pytest.Config) -> None:
    check_spaced_values(config)
    for p in paper_ids():
        config.addinivalue_line("markers", f"{p}: claims of the paper {p} (tvbo-verify)")
    for k in KINDS:
        config.addinivalue_line("markers", f"{k}: claims of kind {k} (tvbo-verify)")
    config.addinivalue_line("markers", "time_limit(seconds): this test's own time limit")
    requested_papers(config)  # a mistyped paper id fails before anything is collected
    config.stash[_STDERR] = os.dup(2)  # the terminal: output capture is not active yet


def pytest_unconfigure(config: pytest.Config) -> None:
    if _STDERR in config.stash:
        os.close(config.stash[_STDERR])


# -- time limits -------------------------------------------------------------------------------------------------
_DEADLINE = pytest.StashKey[float]()
#: the test item whose protocol is running (a list: empty between items)
_RUNNING: list[pytest.Item] = []
_STDERR = pytest.StashKey[int]()


class TimeLimitExceeded(BaseException):
    """A test ran past its time limit (a ``BaseException``: nothing under test may catch it)."""


def time_limit(item: pytest.Item) -> float:
    """The item's limit in seconds (0: none): ``--time-limit``, else its ``time_limit`` marker, else the claim limit
    of the fidelity for an item that runs a claim (it uses the ``fidelity`` fixture), else ``time_limit``."""
    override = item.config.getoption("--time-limit")
    if override is not None:
        return max(float(override), 0.0)
    marker = item.get_closest_marker("time_limit")
    if marker is not None:
        return float(marker.args[0])
    if "fidelity" in getattr(item, "fixturenames", ()):
        fidelity = item.config.getoption("--fidelity", default=DEFAULT_FIDELITY)
        limits = dict(part.split(":") for part in str(item.config.getini("claim_time_limit")).split())
        if fidelity in limits:
            return float(limits[fidelity])
    return float(item.config.getini("time_limit") or 0)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, object, object]:
    limit = time_limit(item)
    if limit <= 0:
        return (yield)
    _RUNNING.append(item)
    _start_limit(item, limit)
    try:
        return (yield)
    finally:
        faulthandler.cancel_dump_traceback_later()
        _RUNNING.remove(item)


def _start_limit(item: pytest.Item, limit: float) -> None:
    """Start (or restart) ``item``'s time limit: its deadline, the SIGALRM timer of a phase already armed, and the
    faulthandler backstop that ends a process stuck where no signal gets through."""
    item.stash[_DEADLINE] = time.monotonic() + limit
    backstop = float(item.config.getini("time_limit_backstop"))
    faulthandler.dump_traceback_later(limit + backstop, exit=True, file=item.config.stash[_STDERR])
    if hasattr(signal, "SIGALRM") and signal.getitimer(signal.ITIMER_REAL)[0] > 0:
        signal.setitimer(signal.ITIMER_REAL, limit)


def restart_time_limit() -> None:
    """Restart the time limit of the item running now: a claim item waiting on claims run ahead in worker
    processes calls it whenever one of them finishes, so that its limit bounds each claim's own run, not the
    queue ahead of it (claims are run longest first, so the first item may wait on most of them)."""
    if _RUNNING and (limit := time_limit(_RUNNING[-1])) > 0:
        _start_limit(_RUNNING[-1], limit)


def _alarm_until_deadline(item: pytest.Item) -> Generator[None, object, object]:
    """Arm SIGALRM for what is left of the item's limit during one phase (setup, call, teardown) only, so
    that it never fires inside pytest's own reporting between phases."""
    deadline = item.stash.get(_DEADLINE, None)
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


# -- resources handed to every check -----------------------------------------------------------------
@pytest.fixture(scope="session")
def fidelity(request: pytest.FixtureRequest) -> str:
    """The claim-check fidelity of the session (``--fidelity``)."""
    return request.config.getoption("--fidelity")


@pytest.fixture(scope="session")
def claim_seed(request: pytest.FixtureRequest) -> int:
    """The run seed combined with each claim id (``--claim-seed``)."""
    return request.config.getoption("--claim-seed")


@pytest.fixture(scope="session")
def claim_cache(request: pytest.FixtureRequest) -> Any:
    """The run cache of the checks (``--claim-cache``, ``--claim-no-cache``)."""
    from .sweeps.cache import cache_from_options

    return cache_from_options(request.config.getoption("--claim-cache"),
                              request.config.getoption("--claim-no-cache"))


@pytest.fixture(scope="session")
def claim_evidence(request: pytest.FixtureRequest, fidelity: str, claim_seed: int,
                   claim_cache: Any) -> Iterator[Callable[[str], Any]]:
    """``claim_evidence(claim_id)``: the claim's evidence (without figures). With ``--claim-executor process``
    the claims of the session's items are run ahead in one worker process per core, longest first, as soon as
    the first claim item asks for its evidence (:func:`~tvbo_verify.report.plan.plan_tasks`); each item then
    waits for its own claim only. Every claim is seeded from its id and the run seed, so its evidence is the one
    a serial run gives."""
    from .execution import get_executor
    from .report.plan import plan_tasks
    from .report.tasks import ReportTask, task_evidence
    from .verify.claimlist import claim_row
    from .verify.registry import get

    cache = None if claim_cache.directory is None else str(claim_cache.directory)

    def here(claim_id: str) -> Any:
        return task_evidence(ReportTask((claim_id,), (), fidelity, claim_seed, cache))[0][1]

    if request.config.getoption("--claim-executor") == "serial":
        yield here
        return
    ids = dict.fromkeys(i for i in (item.stash.get(CLAIM_KEY, None) for item in request.session.items) if i)
    selected = [claim_row(i) for i in ids if get(i) is not None]
    tasks = plan_tasks(selected, [], fidelity=fidelity, seed=claim_seed, cache=cache)
    done: dict[str, Any] = {}
    received: set[str] = set()
    with get_executor("process") as ex:
        results = ex.map_unordered(task_evidence, tasks)

        def evidence(claim_id: str) -> Any:
            while claim_id not in done:
                try:
                    batch = dict(next(results))
                except StopIteration:  # not among the session's claims: run it here
                    return here(claim_id)
                received.update(batch)
                done.update(batch)
                restart_time_limit()  # a claim finished: the workers are not stuck
            return done.pop(claim_id)

        yield evidence
        if len(received) < len(selected):
            ex.abandon()  # the session ended early (-x, Ctrl-C): end the claims still running


# -- one claim -----------------------------------------------------------------------------------------
def judge_claim(claim_id: str, ev: Any, fidelity: str) -> None:
    """Judge the evidence of ``claim_id`` by the pass rule: fail with the reason when the verdict does not
    pass, warn when it passes as a recorded disagreement."""
    from .verify.claimlist import claim_row, matches
    from .verify.passing import judge_evidence

    row = claim_row(claim_id)
    judgement = judge_evidence(row, ev, fidelity)
    if not judgement.accepted:
        detail = f"{row.id}: verdict {ev.verdict.value}, expected {row.expect}: {judgement.reason} — {ev.summary}"
        if ev.verdict.value == "error":
            detail += "\n" + str(ev.stats.get("traceback", ""))
        pytest.fail(detail, pytrace=False)
    if not matches(ev.verdict, row.expect):
        warnings.warn(f"{row.id}: measured {ev.verdict.value}, the papers' reading expects {row.expect}; "
                      f"disagreement recorded in the claim list: {row.disagreement[:200]}", stacklevel=1)


def _claim_test(claim_id: str, title: str) -> Any:
    def claim(fidelity: str, claim_evidence: Callable[[str], Any]) -> None:
        from .verify.registry import get

        if get(claim_id) is None:
            pytest.skip("not implemented")
        judge_claim(claim_id, claim_evidence(claim_id), fidelity)

    claim.__doc__ = f"{claim_id}: {title}"
    return claim


class ClaimSuite:
    """Placed in a test module (``test_claims = ClaimSuite()``), collects one item per claim of ``papers``
    (default: those of ``--tvbo-paper``, else every registered paper)."""

    def __init__(self, papers: Sequence[str] = ()) -> None:
        self.papers = tuple(get_paper(p).id for p in papers)


class PaperClaims(pytest.Collector):
    """The claims of some registered papers, one :class:`pytest.Function` item per claim id, marked with its
    paper and kind."""

    def __init__(self, *, papers: Sequence[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.papers = tuple(papers)

    def collect(self) -> Iterator[pytest.Item]:
        from .verify.claimlist import paper_rows

        for paper in self.papers:
            for row in paper_rows(paper):
                item = pytest.Function.from_parent(self, name=row.id, callobj=_claim_test(row.id, row.title))
                item.add_marker(row.paper)
                item.add_marker(row.kind)
                item.stash[CLAIM_KEY] = row.id
                yield item


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: object) -> pytest.Collector | None:
    if not isinstance(obj, ClaimSuite):
        return None
    chosen = obj.papers or requested_papers(collector.config) or paper_ids()
    return PaperClaims.from_parent(collector, name=name, papers=chosen)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Add the claims of the papers ``--tvbo-paper`` or ``-m`` name that no test module collected already
    (before ``-k`` and ``-m`` deselect)."""
    wanted = [p for p in paper_ids() if p in set(requested_papers(config)) | set(marked_papers(config))]
    if not wanted:
        return
    present = {item.stash.get(CLAIM_KEY, None) for item in items}
    suite = PaperClaims.from_parent(session, name="tvbo-verify", nodeid="tvbo-verify", papers=wanted)
    added = [item for item in suite.collect() if item.stash[CLAIM_KEY] not in present]
    for item in added:
        session.ihook.pytest_itemcollected(item=item)
    # reported like a collected node, so that the count of collected items includes them
    session.ihook.pytest_collectreport(report=pytest.CollectReport(suite.nodeid, "passed", None, added))
    items.extend(added)
