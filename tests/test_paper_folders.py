"""Each paper is one folder, a plugin like any other: what it holds, what it may import, what the engine
may not know about it.

* a paper folder (``tvbo_verify/papers/<id>/``) imports only the public API of the toolkit — the authoring
  API, the reusable statements of ``tvbo_verify.lemmas``, and the public numerics, theory and bandit modules,
  each name from the module's ``__all__`` — and its own folder; never another paper's folder;
* the claim engine (``verify/``, ``sweeps/``) names no paper;
* this package's papers and the example plugin have the same shape and are found through the same entry-point
  group.
"""

from __future__ import annotations

import ast
import csv
import importlib
import importlib.metadata as md
import re
from pathlib import Path

import pytest

import tvbo_verify
from tvbo_verify import papers

ROOT = Path(tvbo_verify.__file__).resolve().parent
REPO = ROOT.parent
FOLDERS = sorted(p for p in (ROOT / "papers").iterdir() if p.is_dir() and (p / "paper.py").exists())
#: the modules a paper folder may import from: the authoring API and the public numerics (by name)
PUBLIC_MODULES = {"tvbo_verify.authoring", "tvbo_verify.papers", "tvbo_verify.confidence",
                  "tvbo_verify.divergences", "tvbo_verify.dpp", "tvbo_verify.gp", "tvbo_verify.highprecision",
                  "tvbo_verify.information", "tvbo_verify.information_bounds", "tvbo_verify.information_rates",
                  "tvbo_verify.kernels",
                  "tvbo_verify.linalg", "tvbo_verify.nystrom", "tvbo_verify.qff", "tvbo_verify.sequential",
                  "tvbo_verify.spectral"}
#: the public packages whose every module may be imported from (their names from each module's ``__all__``)
PUBLIC_PACKAGES = ("tvbo_verify.theory", "tvbo_verify.bandits", "tvbo_verify.lemmas")
#: the files every paper folder holds (the example plugin holds the same, per paper)
SHAPE = ("paper.py", "claims.csv", "formulas.csv", "READING.md", "checks")


def is_public(module: str) -> bool:
    return module in PUBLIC_MODULES or any(module == p or module.startswith(p + ".") for p in PUBLIC_PACKAGES)


def module_of(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def foreign_imports(folder: Path) -> list[str]:
    """Every import of the files of ``folder`` that is neither its own nor a public name, as ``file:line what``."""
    own = module_of(folder / "__init__.py")
    problems = []
    for path in sorted(folder.rglob("*.py")):
        mod = module_of(path)
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(REPO)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("tvbo_verify") and not is_public(alias.name):
                        problems.append(f"{where} import {alias.name}")
                continue
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package.split(".")
                target = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("tvbo_verify"):
                continue
            if target == own or target.startswith(own + "."):
                continue
            if target == "tvbo_verify":  # ``from tvbo_verify import kernels``: each name is a module
                problems.extend(f"{where} from tvbo_verify import {a.name}" for a in node.names
                                if not is_public(f"tvbo_verify.{a.name}"))
                continue
            if not is_public(target):
                problems.append(f"{where} from {target} import {', '.join(a.name for a in node.names)}")
                continue
            exported = set(getattr(importlib.import_module(target), "__all__", ()))
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                if alias.name not in exported and not (is_public(submodule) and _is_module(submodule)):
                    problems.append(f"{where} {alias.name} is not in {target}.__all__")
    return problems


def _is_module(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def test_there_is_a_folder_for_every_paper_of_this_package():
    own = sorted(ep.name for ep in md.entry_points(group=papers.ENTRY_POINT_GROUP)
                 if ep.value.startswith("tvbo_verify."))
    assert [f.name for f in FOLDERS] == own and len(own) >= 5


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_a_paper_folder_imports_only_the_public_api_and_its_own_modules(folder):
    problems = foreign_imports(folder)
    assert not problems, "\n".join(problems)


def test_the_import_rule_sees_an_internal_import_a_private_name_and_another_paper(tmp_path, monkeypatch):
    folder = ROOT / "papers" / FOLDERS[0].name
    planted = folder / "checks" / "_planted_for_the_test.py"
    planted.write_text("from tvbo_verify.verify.engine import Context\n"
                       "from tvbo_verify.kernels import _norm_sq\n"
                       f"from tvbo_verify.papers.{FOLDERS[1].name}.checks import *\n"
                       "from tvbo_verify.kernels import SquaredExponential\n"
                       "from .. import paper\n", encoding="utf-8")
    try:
        problems = foreign_imports(folder)
    finally:
        planted.unlink()
    planted_lines = [p for p in problems if "_planted_for_the_test" in p]
    assert len(planted_lines) == 3, problems
    assert any("tvbo_verify.verify.engine" in p for p in planted_lines)
    assert any("_norm_sq is not in tvbo_verify.kernels.__all__" in p for p in planted_lines)
    assert any(f"tvbo_verify.papers.{FOLDERS[1].name}.checks" in p for p in planted_lines)


def engine_files() -> list[Path]:
    return sorted(p for layer in ("verify", "sweeps") for p in (ROOT / layer).rglob("*") if p.is_file()
                  and p.suffix in (".py", ".csv", ".json", ".md") and "__pycache__" not in p.parts)


def test_the_claim_engine_names_no_paper():
    ids = [p.id for p in papers.papers() if papers.is_builtin(p.id)]
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, ids)) + r")\b")
    hits = [f"{path.relative_to(REPO)}:{n}: {line.strip()}" for path in engine_files()
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert not hits, "\n".join(hits)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_a_paper_folder_holds_its_record_claims_formulas_reading_and_checks(folder):
    missing = [name for name in SHAPE if not (folder / name).exists()]
    assert not missing, f"{folder.name} lacks {missing}"
    record = papers.get_paper(folder.name)
    ep = {e.name: e.value for e in md.entry_points(group=papers.ENTRY_POINT_GROUP)}[folder.name]
    assert ep == f"tvbo_verify.papers.{folder.name}.paper:PAPER"
    assert record.modules == (f"tvbo_verify.papers.{folder.name}.checks",)
    with open(folder / "claims.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows and {r["paper"] for r in rows} == {folder.name}
    assert all(r["id"].startswith(f"{folder.name}:") for r in rows)


def test_the_example_plugin_has_the_shape_of_a_paper_folder():
    example = REPO / "examples" / "classic_controls" / "classic_controls"
    if not example.exists():
        pytest.skip("the example plugin is not in this checkout")
    present = {p.name for p in example.iterdir()}
    assert set(SHAPE) <= present, f"the example plugin lacks {sorted(set(SHAPE) - present)}"
