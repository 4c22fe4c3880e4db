"""pytest plugin for the claim suite: ``--fidelity``, the run resources (executor, run cache) handed to
every check in its context, one marker per paper and per kind.

With ``--claim-executor process`` (the default) the selected claims are run ahead in worker processes,
one per core, longest first, as soon as the first claim item asks for its evidence; each item then waits
for its own claim only. The evidence is the one a serial run gives (every claim is seeded from its id
and the run seed), so the items pass and fail alike under both executors.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

import pytest

from tvbo_verify.verify.claimlist import KINDS, PAPERS


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tvbo-verify claims")
    group.addoption("--fidelity", choices=("quick", "full"), default="quick",
                    help="claim-check fidelity (default quick)")
    group.addoption("--claim-seed", type=int, default=0, help="run seed combined with each claim id")
    group.addoption("--claim-executor", choices=("serial", "process"), default="process",
                    help="where the claims run: in the pytest process, or ahead in one worker process per core "
                         "(default; results do not depend on it)")
    group.addoption("--claim-cache", default=None, metavar="DIR",
                    help="run cache of the checks (default $TVBO_VERIFY_CACHE or ~/.cache/tvbo_verify)")
    group.addoption("--claim-no-cache", action="store_true", help="the checks neither read nor write a run cache")


def pytest_configure(config: pytest.Config) -> None:
    for p in PAPERS:
        config.addinivalue_line("markers", f"{p}: claims of the {p} paper")
    for k in KINDS:
        config.addinivalue_line("markers", f"{k}: claims of kind {k}")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Remember the claims of the items that will run (after ``-k`` and marker selection)."""
    config.stash[SELECTED] = [item.callspec.params["row"] for item in items
                              if hasattr(item, "callspec") and "row" in item.callspec.params]


SELECTED = pytest.StashKey[list]()


@pytest.fixture(scope="session")
def fidelity(request: pytest.FixtureRequest) -> str:
    return request.config.getoption("--fidelity")


@pytest.fixture(scope="session")
def claim_seed(request: pytest.FixtureRequest) -> int:
    return request.config.getoption("--claim-seed")


@pytest.fixture(scope="session")
def claim_cache(request: pytest.FixtureRequest):
    from tvbo_verify.sweeps.cache import cache_from_options

    return cache_from_options(request.config.getoption("--claim-cache"),
                              request.config.getoption("--claim-no-cache"))


@pytest.fixture(scope="session")
def claim_evidence(request: pytest.FixtureRequest, fidelity: str, claim_seed: int,
                   claim_cache) -> Iterator[Callable[[str], Any]]:
    """``claim_evidence(claim_id)``: the claim's evidence (without figures), run here or ahead in the workers."""
    from tvbo_verify.execution import get_executor
    from tvbo_verify.report.plan import plan_tasks
    from tvbo_verify.report.tasks import ReportTask, task_evidence
    from tvbo_verify.verify import get

    cache = None if claim_cache.directory is None else str(claim_cache.directory)
    if request.config.getoption("--claim-executor") == "serial":
        yield lambda claim_id: task_evidence(ReportTask((claim_id,), (), fidelity, claim_seed, cache))[0][1]
        return
    selected = [r for r in request.config.stash.get(SELECTED, []) if get(r.id) is not None]
    tasks = plan_tasks(selected, [], fidelity=fidelity, seed=claim_seed, cache=cache)
    done: dict[str, Any] = {}
    received: set[str] = set()
    with get_executor("process") as ex:
        results = ex.map_unordered(task_evidence, tasks)

        def evidence(claim_id: str) -> Any:
            while claim_id not in done:
                try:
                    batch = dict(next(results))
                except StopIteration:  # not among the selected claims: run it here
                    return task_evidence(ReportTask((claim_id,), (), fidelity, claim_seed, cache))[0][1]
                received.update(batch)
                done.update(batch)
            return done.pop(claim_id)

        yield evidence
        if len(received) < len(selected):
            ex.abandon()  # the session ended early (-x, Ctrl-C): end the claims still running
