"""Fixtures of the plugin tests: paper plugins registered at run time, and undone afterwards."""

from __future__ import annotations

import contextlib
import importlib
import sys
from pathlib import Path
from typing import Iterator

import pytest

from tvbo_verify import papers
from tvbo_verify.bandits import registry as bandits_registry
from tvbo_verify.sweeps.reproduce import registry as reproductions_registry
from tvbo_verify.verify import registry, statement

from .demo import PACKAGE, forget_modules, write_plugin

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "classic_controls"


@contextlib.contextmanager
def plugin_registered(root: Path, package: str, records: str, names: tuple[str, ...]) -> Iterator[list]:
    """The papers ``records:NAME`` of a package below ``root`` registered with :func:`register_paper`; every
    registration they make (papers, checks, statements, policies, environments, reproductions) is removed after."""
    # the registered papers' own modules first: what they register belongs to them, not to the plugin
    registry.load_all()
    papers.import_paper_modules("reproductions")
    sys.path.insert(0, str(root))
    tables = (registry._REGISTRY, statement._STATEMENTS, bandits_registry.ALGORITHMS, bandits_registry.ENVIRONMENTS,
              reproductions_registry._REGISTRY)
    before = [set(t) for t in tables]
    registered = []
    try:
        module = importlib.import_module(records)
        for name in names:
            registered.append(papers.register_paper(getattr(module, name)))
        yield registered
    finally:
        for p in registered:
            if p.id in papers.paper_ids():
                papers.unregister_paper(p.id)
            papers._IMPORTED.difference_update({(p.id, "modules"), (p.id, "reproductions")})
        for table, keep in zip(tables, before):
            for key in set(table) - keep:
                del table[key]
        sys.path.remove(str(root))
        forget_modules(package)


@pytest.fixture
def demo_paper(tmp_path):
    """The demo plugin (:mod:`tests.plugins.demo`) written to a temporary folder and registered at run time."""
    with plugin_registered(write_plugin(tmp_path / "plugin"), PACKAGE, f"{PACKAGE}.paper", ("DEMO",)) as found:
        yield found[0]


@pytest.fixture
def example_papers():
    """The two papers of the example plugin ``examples/classic_controls``, registered at run time."""
    with plugin_registered(EXAMPLE, "classic_controls", "classic_controls.paper",
                           ("SRINIVAS2010", "LATTIMORE2020")) as found:
        yield found
