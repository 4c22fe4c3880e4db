"""pytest plugin for the claim suite: ``--fidelity``, the run resources (executor, run cache) handed to
every check in its context, one marker per paper and per kind."""

from __future__ import annotations

import pytest

from tvbo_verify.verify.claimlist import KINDS, PAPERS


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tvbo-verify claims")
    group.addoption("--fidelity", choices=("quick", "full"), default="quick",
                    help="claim-check fidelity (default quick)")
    group.addoption("--claim-seed", type=int, default=0, help="run seed combined with each claim id")
    group.addoption("--claim-executor", choices=("serial", "process"), default="process",
                    help="where the repetitions and runs of a claim go (default: one process per core, shared "
                         "by every claim of the session; results do not depend on it)")
    group.addoption("--claim-cache", default=None, metavar="DIR",
                    help="run cache of the checks (default $TVBO_VERIFY_CACHE or ~/.cache/tvbo_verify)")
    group.addoption("--claim-no-cache", action="store_true", help="the checks neither read nor write a run cache")


def pytest_configure(config: pytest.Config) -> None:
    for p in PAPERS:
        config.addinivalue_line("markers", f"{p}: claims of the {p} paper")
    for k in KINDS:
        config.addinivalue_line("markers", f"{k}: claims of kind {k}")


@pytest.fixture(scope="session")
def fidelity(request: pytest.FixtureRequest) -> str:
    return request.config.getoption("--fidelity")


@pytest.fixture(scope="session")
def claim_executor(request: pytest.FixtureRequest):
    from tvbo_verify.execution import get_executor

    with get_executor(request.config.getoption("--claim-executor")) as ex:
        yield ex


@pytest.fixture(scope="session")
def claim_seed(request: pytest.FixtureRequest) -> int:
    return request.config.getoption("--claim-seed")


@pytest.fixture(scope="session")
def claim_cache(request: pytest.FixtureRequest):
    from tvbo_verify.sweeps.cache import cache_from_options

    return cache_from_options(request.config.getoption("--claim-cache"),
                              request.config.getoption("--claim-no-cache"))
