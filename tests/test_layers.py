"""The package's layers (docs/ARCHITECTURE.md §2): imports only point downward and form no cycle.

core numerics <- theory <- bandits <- sweeps <- verify <- papers <- mutants <- report <- cli. Every module is
imported, and every ``import`` statement (at the top or inside a function) is read with :mod:`ast`. The paper
registry (``tvbo_verify.papers`` itself) is core; the paper folders (``tvbo_verify.papers.<id>``) are the papers
layer. Two top-level modules are façades above the core: the authoring API (``tvbo_verify.authoring``, the names
a paper plugin uses, at the level of verify, with the reusable statements of ``tvbo_verify.lemmas``) and the
pytest plugin (an entry point, like the command line).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import tvbo_verify

ROOT = Path(tvbo_verify.__file__).resolve().parent
LAYERS = ("core", "theory", "bandits", "sweeps", "verify", "papers", "mutants", "report", "cli")
FACADES = {"tvbo_verify.authoring": "verify", "tvbo_verify.pytest_plugin": "cli",
           # the high-precision twins of the numerics, closed-form bounds of theory included
           "tvbo_verify.highprecision": "theory"}


def _modules() -> dict[str, Path]:
    out = {"tvbo_verify": ROOT / "__init__.py"}
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(["tvbo_verify", *parts])] = path
    return out


MODULES = _modules()


def layer(module: str) -> str:
    if module in FACADES:
        return FACADES[module]
    parts = module.split(".")
    if module == "tvbo_verify.papers":
        return "core"
    if len(parts) > 1 and parts[1] == "lemmas":
        return "verify"
    if len(parts) > 1 and parts[1] in LAYERS[1:]:
        return parts[1]
    return "core"


def _resolve(module: str, node: ast.ImportFrom) -> list[str]:
    is_package = MODULES[module].name == "__init__.py"
    base = module.split(".") if is_package else module.split(".")[:-1]
    if node.level:
        base = base[: len(base) - (node.level - 1)]
        target = ".".join([*base, node.module] if node.module else base)
    else:
        target = node.module or ""
    found = [f"{target}.{alias.name}" for alias in node.names if f"{target}.{alias.name}" in MODULES]
    return found or [target]


def imports_of(module: str) -> set[str]:
    """Every module (of any package) that ``module`` imports, anywhere in its body."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.update(_resolve(module, node))
    return out


def internal_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module in MODULES:
        targets = set()
        for name in imports_of(module):
            while name and name not in MODULES:  # "tvbo_verify.theory.response.n_star" -> the module
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def strongly_connected_cycles() -> list[list[str]]:
    """Groups of modules that import each other (Tarjan's strongly connected components, size > 1)."""
    graph = internal_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_imports(module):
    imported = importlib.import_module(module)
    assert imported.__name__ == module
    assert (imported.__doc__ or "").strip(), f"{module} has no module docstring (say what it implements)"


def test_imports_point_downward():
    rank = {name: i for i, name in enumerate(LAYERS)}
    upward = sorted(f"{m} ({layer(m)}) imports {t} ({layer(t)})" for m, targets in internal_graph().items()
                    for t in targets if rank[layer(t)] > rank[layer(m)])
    assert not upward, "\n".join(upward)


def test_only_the_command_line_imports_click():
    offenders = sorted(m for m in MODULES if layer(m) != "cli" and any(
        name == "click" or name.startswith("click.") for name in imports_of(m)))
    assert not offenders, offenders


def test_no_import_cycles():
    cycles = strongly_connected_cycles()
    assert not cycles, cycles


def test_the_scanner_sees_a_planted_upward_import_and_a_cycle(monkeypatch):
    tree = ast.parse("from ..cli import main\n")
    node = tree.body[0]
    assert isinstance(node, ast.ImportFrom)
    assert _resolve("tvbo_verify.theory.response", node) == ["tvbo_verify.cli.main"]
    assert layer("tvbo_verify.cli.main") == "cli" and layer("tvbo_verify.kernels") == "core"
    fake = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    monkeypatch.setattr(__import__(__name__, fromlist=["x"]), "internal_graph", lambda: fake)
    assert strongly_connected_cycles() == [["a", "b", "c"]]
