"""Which top-level definitions use which, across ``tvbo_verify``: the static ordering of candidate claims.

A node is ``(module, name)`` for a top-level function, class or assigned name, and ``(module, "*")``
for a module's top-level statements. A node uses what its body refers to: names defined in its
module and imported names (resolved to their defining module, ``module.attr`` of an imported module
included). Registration is followed in the direction calls take: a definition decorated by, or a
module-level statement calling, a function of module ``D`` is used by ``(D, "*")``, which the
definitions of ``D`` reading one of its module-level containers (``{}``, ``[]``, ``dict()``, ...) use: a
registry reaches what was registered in it. Methods count as their class. The graph
over-approximates names and misses dynamic lookups, so it only *orders* the candidates: the
profile of each claim (:mod:`~tvbo_verify.mutants.harness`) decides.
"""

from __future__ import annotations

import ast
from collections import deque
from functools import lru_cache
from typing import Mapping

from .affects import Sources, distances_from, import_graph, sources

Node = tuple[str, str]
STAR = "*"
#: the calls that make a container a registry's store
CONTAINERS = ("dict", "list", "set", "defaultdict", "OrderedDict", "Registry")


def _top_level(tree: ast.Module) -> list[tuple[str, ast.AST]]:
    """``(name, statement)`` per top-level statement (``STAR`` for those binding no single name)."""
    out: list[tuple[str, ast.AST]] = []
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append((stmt.name, stmt))
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)] or [STAR]
            out.extend((n, stmt) for n in names)
        elif not isinstance(stmt, (ast.Import, ast.ImportFrom)):
            out.append((STAR, stmt))
    return out


class _Resolver:
    """Names of one module resolved to nodes: its own definitions, imported names and imported modules."""

    def __init__(self, src: Sources, module: str, own: set[str]) -> None:
        self.module, self.own = module, own
        self.names: dict[str, Node] = {}
        self.modules: dict[str, str] = {}
        for node in ast.walk(src.trees[module]):
            if isinstance(node, ast.ImportFrom):
                origin = src.absolute(module, node)
                if origin in src.files:
                    for a in node.names:
                        self.names[a.asname or a.name] = src.defining(origin, a.name)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in src.files:
                        self.modules[a.asname or a.name] = a.name

    def refs(self, stmt: ast.AST) -> set[Node]:
        """Nodes ``stmt`` refers to; a definition's decorators are registration (:func:`_registrars`), not use."""
        out: set[Node] = set()
        decorators = {id(d) for d in getattr(stmt, "decorator_list", [])}
        for node in _walk_skipping(stmt, decorators):
            if isinstance(node, ast.Name):
                if node.id in self.own:
                    out.add((self.module, node.id))
                elif node.id in self.names:
                    out.add(self.names[node.id])
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                base = self.names.get(node.value.id)
                if node.value.id in self.modules:
                    out.add((self.modules[node.value.id], node.attr))
                elif base is not None and base[1] == STAR:
                    out.add((base[0], node.attr))
        return out


def _walk_skipping(root: ast.AST, skip: set[int]):  # noqa: ANN202 - a generator of nodes
    """:func:`ast.walk` that does not enter the nodes whose ``id`` is in ``skip``."""
    queue = deque([root])
    while queue:
        node = queue.popleft()
        yield node
        queue.extend(child for child in ast.iter_child_nodes(node) if id(child) not in skip)


def _registrars(stmt: ast.AST, resolver: _Resolver) -> set[str]:
    """Modules whose functions register ``stmt``: its decorators, or the function a module-level call names."""
    heads: list[ast.AST] = list(getattr(stmt, "decorator_list", []))
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        heads.append(stmt.value.func)
    mods = set()
    for head in heads:
        for node in resolver.refs(head):  # a decorator is not itself decorated: refs(head) covers all of it
            if node[0] != resolver.module:
                mods.add(node[0])
    return mods


def _containers(statements: list[tuple[str, ast.AST]]) -> set[str]:
    """Module-level names bound to a container display, an empty container call or a
    :class:`~tvbo_verify.registry.Registry` (the registries)."""
    out = set()
    for name, stmt in statements:
        value = getattr(stmt, "value", None)
        func = value.func if isinstance(value, ast.Call) else None
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if isinstance(value, (ast.Dict, ast.List, ast.Set)) or called in CONTAINERS:
            out.add(name)
    return out


def symbol_users() -> dict[Node, frozenset[Node]]:
    """``node -> the nodes that use it`` over every module (:func:`~.affects.sources`)."""
    return _users(sources())


@lru_cache(maxsize=1)
def _users(src: Sources) -> dict[Node, frozenset[Node]]:
    users: dict[Node, set[Node]] = {}
    for module, tree in src.trees.items():
        statements = _top_level(tree)
        own = {name for name, _ in statements if name != STAR}
        resolver = _Resolver(src, module, own)
        registries = {(module, name) for name in _containers(statements)}
        for name, stmt in statements:
            node = (module, name)
            refs = resolver.refs(stmt)
            for ref in refs:
                if ref != node:
                    users.setdefault(ref, set()).add(node)
            for registry in _registrars(stmt, resolver):
                users.setdefault(node, set()).add((registry, STAR))
            if refs & registries:
                users.setdefault((module, STAR), set()).add(node)
    return {k: frozenset(v) for k, v in users.items()}


def symbol_distances(target: str) -> dict[Node, int]:
    """Shortest number of uses from the mutated definition of ``module:qualname`` to every node that reaches it."""
    module, _, qualname = target.partition(":")
    start = (module, qualname.split(".")[0])
    return distances_from(start, symbol_users())


def candidate_claims(target: str, claims: Mapping[str, tuple[str, str]]) -> dict[str, tuple[int, int]]:
    """Claims whose check module reaches the module of ``target`` (``module:qualname``), as ``claim id -> (rank,
    distance)``: rank 0 with the number of uses between the check function and the mutated definition when the
    symbol graph links them (:mod:`~tvbo_verify.mutants.symbols`), else rank 1 with the number of module
    imports. ``claims`` maps a claim id to ``(module, function name)`` of its check."""
    module = target.partition(":")[0]
    by_module = import_graph().distances_to(module)
    by_symbol = symbol_distances(target)
    out = {}
    for cid, (mod, func) in claims.items():
        if (mod, func) in by_symbol:
            out[cid] = (0, by_symbol[(mod, func)])
        elif mod in by_module:
            out[cid] = (1, by_module[mod])
    return out
