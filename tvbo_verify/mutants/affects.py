"""Which claims a mutant can affect, derived from the code, and in which order to try them.

The ``tvbo_verify`` sources are parsed once (:mod:`ast`). A module depends on the modules that
*define* the names it imports: ``from ..verify.builders import exact_evidence`` is followed through
the package's re-export to ``verify/builders/exact.py``, not to every module the package
``__init__`` happens to import (following those would make every claim depend on every module). A
claim is a candidate for a mutant when the module holding its check reaches the mutated module
through these edges; the number of edges on the shortest path is its distance.

Candidates whose check function the symbol graph links to the mutated definition
(:mod:`~tvbo_verify.mutants.symbols`) come first, then the rest; within each group the
cheapest first: the expected cost of a claim is its measured runtime (this run's, an earlier
results file's, else :data:`tvbo_verify.fidelity.KIND_SECONDS` by kind) times its distance, since claims
close to the mutated code are the likeliest to notice. The profile of each claim then decides which candidates
actually run (:mod:`~tvbo_verify.mutants.harness`).
"""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Hashable, Iterable, Mapping

import tvbo_verify

from ..fidelity import expected_seconds as kind_seconds

ROOT = Path(tvbo_verify.__file__).resolve().parent


def _package_files(package: str, root: Path) -> dict[str, Path]:
    """Module name -> source file of every module of the package ``package`` in folder ``root``."""
    out: dict[str, Path] = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join([package, *parts])] = path
    return out


def _plugin_files() -> dict[str, Path]:
    """Every module of the packages holding the claim modules of the papers other packages register (found through
    the paper registry, :func:`tvbo_verify.papers.paper_module_files`), so that their claims are candidates too."""
    from ..papers import is_builtin, paper_module_files, papers

    out: dict[str, Path] = {}
    for paper in papers():
        if is_builtin(paper.id):
            continue
        for module, path in paper_module_files(paper.id).items():
            top = module.split(".")[0]
            depth = module.count(".") + (path.name == "__init__.py")
            out.update(_package_files(top, path.parents[depth - 1]) if depth else {module: path})
    return out


def _module_files() -> dict[str, Path]:
    """``tvbo_verify`` and the packages of plugin papers: module name -> source file."""
    return {**_plugin_files(), **_package_files("tvbo_verify", ROOT)}


def _is_package(files: Mapping[str, Path], module: str) -> bool:
    return files[module].name == "__init__.py"


def _absolute(files: Mapping[str, Path], module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if _is_package(files, module) else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


@dataclass(frozen=True)
class ImportGraph:
    """``edges[m]``: the ``tvbo_verify`` modules defining what module ``m`` imports."""

    edges: Mapping[str, frozenset[str]]

    def distances_to(self, target: str) -> dict[str, int]:
        """Shortest number of import edges from every module that reaches ``target`` (``target`` itself: 0)."""
        reverse: dict[str, set[str]] = {}
        for src, dsts in self.edges.items():
            for dst in dsts:
                reverse.setdefault(dst, set()).add(src)
        return distances_from(target, reverse)


def distances_from(start: Hashable, users: Mapping[Any, Iterable[Any]]) -> dict[Any, int]:
    """Breadth-first number of steps from ``start`` to every node that reaches it through ``users`` (node -> the
    nodes that use it); ``start`` itself: 0."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for user in users.get(node, ()):
            if user not in dist:
                dist[user] = dist[node] + 1
                queue.append(user)
    return dist


def _bindings(tree: ast.Module) -> dict[str, ast.ImportFrom | None]:
    """Top-level names a module binds: by ``from ... import`` (the node) or by its own definitions (None)."""
    out: dict[str, ast.ImportFrom | None] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                out[alias.asname or alias.name] = node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out[node.name] = None
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    out[t.id] = None
    return out


class Sources:
    """Every ``tvbo_verify`` module parsed once: files, syntax trees, top-level bindings, and the resolution of an
    imported name to the module that defines it (following re-exports of packages)."""

    def __init__(self) -> None:
        self.files = _module_files()
        self.trees = {m: ast.parse(p.read_text(encoding="utf-8")) for m, p in self.files.items()}
        self.binds = {m: _bindings(t) for m, t in self.trees.items()}

    def absolute(self, module: str, node: ast.ImportFrom) -> str:
        return _absolute(self.files, module, node)

    def defining(self, module: str, name: str, seen: frozenset[str] = frozenset()) -> tuple[str, str]:
        """``(module, name)`` where ``name`` as seen from ``module`` is defined (a submodule: ``(submodule, "*")``)."""
        sub = f"{module}.{name}"
        if sub in self.files:
            return sub, "*"
        node = self.binds.get(module, {}).get(name)
        if node is None or module in seen:
            return module, name
        source = self.absolute(module, node)
        if source not in self.files:
            return module, name
        original = next((a.name for a in node.names if (a.asname or a.name) == name), name)
        return self.defining(source, original, seen | {module})


def sources() -> Sources:
    """The sources of ``tvbo_verify`` and of the registered plugin papers (parsed again when a paper is registered
    or removed)."""
    from ..papers import paper_ids

    return _sources(paper_ids())


@lru_cache(maxsize=1)
def _sources(_papers: tuple[str, ...]) -> Sources:
    return Sources()


def _type_checking_only(tree: ast.Module) -> set[int]:
    """Ids of the nodes inside ``if TYPE_CHECKING:`` blocks: imports for annotations, never executed."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skip


def build_graph(src: Sources) -> ImportGraph:
    """Module edges: each module to the modules defining the names it imports (anywhere in its body, except
    the annotation-only imports under ``if TYPE_CHECKING:``)."""
    edges: dict[str, frozenset[str]] = {}
    for module, tree in src.trees.items():
        deps: set[str] = set()
        skip = _type_checking_only(tree)
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name in src.files)
            elif isinstance(node, ast.ImportFrom):
                source = src.absolute(module, node)
                if source in src.files:
                    deps.update(src.defining(source, a.name)[0] for a in node.names if a.name != "*")
        deps.discard(module)
        edges[module] = frozenset(deps)
    return ImportGraph(edges)


def import_graph() -> ImportGraph:
    return _graph(sources())


@lru_cache(maxsize=1)
def _graph(src: Sources) -> ImportGraph:
    return build_graph(src)


def expected_seconds(claim_id: str, kind: str, runtimes: Mapping[str, float]) -> float:
    """Measured runtime of a claim when known, else the default of its kind."""
    return kind_seconds(kind, runtimes.get(claim_id))


def order_candidates(candidates: Mapping[str, tuple[int, int]], kinds: Mapping[str, str],
                     runtimes: Mapping[str, float]) -> list[str]:
    """Candidates linked to the mutated definition first, then the others; within each, cheapest first by
    expected seconds times distance (ties by claim id)."""
    def cost(cid: str) -> tuple[int, float, str]:
        rank, distance = candidates[cid]
        return rank, expected_seconds(cid, kinds[cid], runtimes) * max(distance, 1), cid

    return sorted(candidates, key=cost)


def runtimes_from(docs: Iterable[dict]) -> dict[str, float]:
    """Claim runtimes recorded in earlier result files: a report's ``results.json`` (``claims[].runtime_s``) or a
    mutation run's file (``claims{}.baseline.runtime_s``); later documents win."""
    out: dict[str, float] = {}
    for doc in docs:
        claims = doc.get("claims")
        if isinstance(claims, list):
            for c in claims:
                if isinstance(c, dict) and isinstance(c.get("runtime_s"), (int, float)):
                    out[str(c.get("id"))] = float(c["runtime_s"])
        elif isinstance(claims, dict):
            for cid, c in claims.items():
                base = c.get("baseline") if isinstance(c, dict) else None
                if isinstance(base, dict) and isinstance(base.get("runtime_s"), (int, float)):
                    out[cid] = float(base["runtime_s"])
    return out
