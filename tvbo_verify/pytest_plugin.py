"""The pytest plugin of tvbo-verify (entry point ``pytest11``): the claims of registered papers as test items.

In any repository of an environment where tvbo-verify is installed, with no conftest of its own::

    pytest --tvbo-paper srinivas2010             # one test item per claim of that paper
    pytest -m srinivas2010                       # the same: a paper id in the -m expression selects it
    pytest --tvbo-paper all --fidelity full -m rate

Options: ``--tvbo-paper PAPER`` (repeatable; ``all`` for every registered paper), ``--fidelity
quick|full``, ``--claim-seed``, ``--claim-executor serial|process``, ``--claim-cache DIR`` and
``--claim-no-cache``. With ``--claim-executor process`` (the default) the selected claims run ahead
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

The plugin is loaded by every pytest run in the environment, so this module imports only pytest and the
paper registry; the claim engine is imported when a claim item is collected.
"""

from __future__ import annotations

import re
import warnings
from typing import Any, Callable, Iterator, Sequence

import pytest

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
    for p in paper_ids():
        config.addinivalue_line("markers", f"{p}: claims of the paper {p} (tvbo-verify)")
    for k in KINDS:
        config.addinivalue_line("markers", f"{k}: claims of kind {k} (tvbo-verify)")
    requested_papers(config)  # a mistyped paper id fails before anything is collected


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
