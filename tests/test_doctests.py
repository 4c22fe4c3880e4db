"""Every example in the package's docstrings runs and prints what it shows (``doctest``), so the examples a
reader copies stay true. The authoring walk-through and the paper registry run in a fresh process of their
own (:mod:`tests.test_authoring`): they register a paper, a policy and an environment."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import tvbo_verify

#: run by tests/test_authoring.py in a process of their own
OWN_PROCESS = {"tvbo_verify.authoring", "tvbo_verify.papers"}


def _modules_with_examples() -> list[str]:
    root = Path(tvbo_verify.__file__).parent
    names = []
    for info in pkgutil.walk_packages([str(root)], prefix="tvbo_verify."):
        path = root.joinpath(*info.name.split(".")[1:])
        source = path / "__init__.py" if info.ispkg else path.with_suffix(".py")
        if info.name not in OWN_PROCESS and ">>>" in source.read_text(encoding="utf-8"):
            names.append(info.name)
    return sorted(names)


MODULES = _modules_with_examples()


def test_the_public_calculators_and_numerics_show_examples():
    shown = set(MODULES) | OWN_PROCESS
    wanted = {"tvbo_verify.theory.calculators", "tvbo_verify.kernels", "tvbo_verify.gp",
              "tvbo_verify.confidence", "tvbo_verify.information"}
    assert wanted <= shown, f"no example in {sorted(wanted - shown)}"


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_a_module_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                             verbose=False, report=True)
    assert result.attempted > 0 and result.failed == 0, f"{result.failed} of {result.attempted} examples failed"
