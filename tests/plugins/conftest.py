"""Fixtures of the plugin tests: the demonstration paper plugin registered at run time, and undone afterwards."""

from __future__ import annotations

import sys

import pytest

from tvbo_verify import papers
from tvbo_verify.bandits import registry as bandits_registry
from tvbo_verify.sweeps.reproduce import registry as reproductions_registry
from tvbo_verify.verify import registry, statement

from .demo import PACKAGE, PAPER_ID, forget_modules, write_plugin


@pytest.fixture
def demo_paper(tmp_path):
    """The demo plugin written to a temporary folder and registered with :func:`register_paper`; every
    registration it made (paper, checks, statements, policy, environment, reproduction) is removed after."""
    root = write_plugin(tmp_path / "plugin")
    sys.path.insert(0, str(root))
    before = (set(registry._REGISTRY), set(statement._STATEMENTS), set(bandits_registry.ALGORITHMS),
              set(bandits_registry.ENVIRONMENTS), set(reproductions_registry._REGISTRY))
    try:
        from demo_plugin.paper import DEMO

        yield papers.register_paper(DEMO)
    finally:
        if PAPER_ID in papers.paper_ids():
            papers.unregister_paper(PAPER_ID)
        papers._IMPORTED.difference_update({(PAPER_ID, "modules"), (PAPER_ID, "reproductions")})
        for table, keep in zip((registry._REGISTRY, statement._STATEMENTS, bandits_registry.ALGORITHMS,
                                bandits_registry.ENVIRONMENTS, reproductions_registry._REGISTRY), before):
            for key in set(table) - keep:
                del table[key]
        sys.path.remove(str(root))
        forget_modules(PACKAGE)
