"""The source digest in a run's cache key: SHA-256 of the code that can change the run.

A run of algorithm ``A`` on environment ``E`` (:class:`tvbo_verify.sweeps.spec.RunSpec`) is produced by

* the modules defining ``A``'s policy class and ``E``'s environment class (resolved through
  :data:`tvbo_verify.bandits.registry.ALGORITHMS` / ``ENVIRONMENTS``; a factory function contributes its
  own module and the modules of the classes it names), and the runner (``bandits/runner.py``), each with
  every project module they import, directly or not — gp, kernels, confidence, linalg, information,
  the β rules, dpp, nystrom … as far as they are used;
* the registry itself (``make_policy``/``make_env``, the factory functions) and ``sweeps/spec.py``
  (``RunSpec.execute``: the seed stream), followed without entering the implementation modules of the
  other registered algorithms and environments (nor this module, which computes keys, not runs);
* but not the executors (``execution.py``): which executor runs a job never changes its result (seeds
  travel with the jobs; ``tests/bandits/test_runner.py`` checks serial, process and Dask runs are
  bit-identical), so mending one keeps every cached run. The BLAS thread limit, which can change the
  last bits of a result, lives in ``blas.py`` and counts.

The digest hashes the code of those files (with their module names, not their paths, so identical
sources in two checkouts share a key): each file's syntax tree without its docstrings
(:func:`code_digest_of_source`; comments and layout are not in the tree), so editing the prose of a module
keeps every cached run, which a full-fidelity report, hours of runs, relies on. Editing the code of any of
them changes the key of exactly the runs that could change; editing a claim, the report, the command line
or another policy does not. Imports are
read from the source text (every ``import`` / ``from … import`` line, also inside functions), so a
module counts even when it is imported lazily. Parent packages are not followed implicitly: a
package's ``__init__`` counts when it is imported by name (``from .environments import X``).

Not covered, by construction: changes made at run time (monkeypatching a function, as the mutation
harness does) and the versions of numpy/scipy. Whoever patches code at run time must use a fresh
:class:`~tvbo_verify.sweeps.cache.RunCache` (the mutation harness always does). Parameters that reach a
run as data (presets, β rules, environment parameters) are in the key through the run's identity.

File digests and closures are computed once per process (``functools.lru_cache``); a process that edits
the source it is running must call :func:`clear_caches`.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..validation import check_choice

PACKAGE = "tvbo_verify"
RUNNER = f"{PACKAGE}.bandits.runner"
REGISTRY = f"{PACKAGE}.bandits.registry"
SPEC = f"{PACKAGE}.sweeps.spec"
#: distributes the jobs and never changes a result (serial, process and Dask runs are bit-identical)
EXECUTION = f"{PACKAGE}.execution"

#: ``from BASE import NAMES`` (names possibly parenthesised over several lines) or ``import MODULES``
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(?P<base>\.*[\w.]*)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n]*)"
                     r"|import[ \t]+(?P<modules>[^\n]*))", re.MULTILINE)


class SourceTree:
    """Module names → source files of one package, and the import closures and digests over them.

    ``SourceTree(Path("…/tvbo_verify"))`` reads the package at that directory (a copy gives the digests
    that copy would have). A module of another package (a policy registered by a plugin) is located
    with :mod:`importlib` and counts with its own file and the project modules it imports; its
    imports from other packages are not followed.
    """

    def __init__(self, root: Path, package: str = PACKAGE) -> None:
        self.root = Path(root)
        self.package = package
        self._path = functools.lru_cache(maxsize=None)(self._find)
        self._imports = functools.lru_cache(maxsize=None)(self._scan)
        self._file_digest = functools.lru_cache(maxsize=None)(self._hash_file)

    # -- locating modules ------------------------------------------------------------------------
    def _find(self, module: str) -> Path | None:
        parts = module.split(".")
        if parts[0] == self.package:
            base = self.root.joinpath(*parts[1:])
            for candidate in (base.with_suffix(".py"), base / "__init__.py"):
                if candidate.is_file():
                    return candidate
            return None
        loaded = sys.modules.get(module)
        origin = getattr(loaded, "__file__", None)
        if origin is None:
            try:
                spec = importlib.util.find_spec(module)
            except (ImportError, ValueError):
                return None
            origin = spec.origin if spec is not None else None
        return Path(origin) if origin and origin.endswith(".py") else None

    def path(self, module: str) -> Path | None:
        """The source file of ``module`` (``None`` when it has none, e.g. a built-in)."""
        return self._path(module)

    # -- reading imports ---------------------------------------------------------------------------
    def _scan(self, module: str) -> frozenset[str]:
        path = self.path(module)
        if path is None:
            return frozenset()
        text = path.read_text(encoding="utf-8")
        is_package = path.name == "__init__.py"
        out: set[str] = set()
        for match in _IMPORT.finditer(text):
            if match["modules"] is not None:
                out.update(_first_word(part) for part in _split_names(match["modules"]))
                continue
            base = match["base"]
            level = len(base) - len(base.lstrip("."))
            target = base[level:]
            if level:
                parent = module.split(".") if is_package else module.split(".")[:-1]
                parent = parent[: len(parent) - (level - 1)]
                target = ".".join([*parent, target] if target else parent)
            if not self._in_package(target):
                continue
            names = [_first_word(part) for part in _split_names(match["names"])]
            subs = [f"{target}.{name}" for name in names if name and self.path(f"{target}.{name}") is not None]
            out.update(subs or [target])
        return frozenset(name for name in out if self._in_package(name))

    def _in_package(self, module: str) -> bool:
        return module.split(".")[0] == self.package

    def imports(self, module: str) -> frozenset[str]:
        """Project modules ``module`` imports anywhere in its text (``a.b.c`` reduced to its module)."""
        found = set()
        for name in self._imports(module):
            while name and self.path(name) is None:  # "pkg.module.attribute" -> "pkg.module"
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
        return frozenset(found)

    def closure(self, roots: Iterable[str], stop: Iterable[str] = ()) -> frozenset[str]:
        """``roots`` and every project module they import, transitively, without entering ``stop``
        (a root is never stopped)."""
        roots = tuple(roots)
        blocked = set(stop) - set(roots)
        seen: set[str] = set()
        pending = list(roots)
        while pending:
            module = pending.pop()
            if module in seen:
                continue
            seen.add(module)
            pending.extend(m for m in self.imports(module) if m not in seen and m not in blocked)
        return frozenset(seen)

    # -- hashing -------------------------------------------------------------------------------------
    def _hash_file(self, module: str) -> str:
        path = self.path(module)
        return "no source" if path is None else code_digest_of_source(path.read_bytes())

    def digest(self, modules: Iterable[str]) -> str:
        """SHA-256 over ``module name, SHA-256 of its file`` for every module, in name order."""
        h = hashlib.sha256()
        for module in sorted(set(modules)):
            h.update(f"{module}\0{self._file_digest(module)}\n".encode())
        return h.hexdigest()


def code_digest_of_source(source: bytes) -> str:
    r"""SHA-256 of a module's code: its syntax tree (``ast.dump``, no line numbers) with every docstring
    removed, tagged with the Python version whose parser wrote it (the dump's form can change between
    versions: a key then changes, never collides). Source that does not parse is hashed as bytes.

    >>> code_digest_of_source(b"'Old words.'\nx = 1  # a comment\n") == code_digest_of_source(b"x = 1\n")
    True
    >>> code_digest_of_source(b"x = 1\n") == code_digest_of_source(b"x = 2\n")
    False
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return hashlib.sha256(source).hexdigest()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                node.body = node.body[1:] or [ast.Pass()]
    version = f"python {sys.version_info[0]}.{sys.version_info[1]}\n"
    return hashlib.sha256((version + ast.dump(tree, include_attributes=False)).encode()).hexdigest()


def _split_names(text: str) -> list[str]:
    lines = [line.split("#", 1)[0] for line in text.strip().strip("()").splitlines()]
    return [part.strip().rstrip("\\").strip() for part in " ".join(lines).split(",")]


def _first_word(part: str) -> str:
    """``"name as alias"`` → ``"name"`` (``""`` for text that is not a dotted name)."""
    word = part.split()[0] if part.split() else ""
    return word if re.fullmatch(r"[\w.]+", word) else ""


@functools.lru_cache(maxsize=1)
def installed_tree() -> SourceTree:
    """The :class:`SourceTree` of the running ``tvbo_verify`` package."""
    import tvbo_verify

    return SourceTree(Path(tvbo_verify.__file__).resolve().parent)


def factory_modules(factory: Callable[..., Any]) -> frozenset[str]:
    """Modules that define what ``factory`` builds: a class's module; for a function (or a
    ``functools.partial``), its own module and those of the classes it names in its body."""
    while isinstance(factory, functools.partial):
        factory = factory.func
    if isinstance(factory, type):
        return frozenset({factory.__module__})
    out = {getattr(factory, "__module__", None) or "__main__"}
    code = getattr(factory, "__code__", None)
    scope = dict(getattr(factory, "__globals__", {}))
    if code is not None and getattr(factory, "__closure__", None):
        for name, cell in zip(code.co_freevars, factory.__closure__):
            try:
                scope[name] = cell.cell_contents
            except ValueError:  # an empty cell
                continue
    stack = [code] if code is not None else []
    while stack:
        current = stack.pop()
        for name in (*current.co_names, *current.co_freevars):
            value = scope.get(name)
            if isinstance(value, type):
                out.add(value.__module__)
        stack.extend(c for c in current.co_consts if hasattr(c, "co_names"))
    return frozenset(out)


def _implementation_modules() -> tuple[frozenset[str], frozenset[str]]:
    from ..bandits.registry import ALGORITHMS, ENVIRONMENTS

    def modules(table: dict[str, Callable[..., Any]]) -> frozenset[str]:
        return frozenset(m for f in table.values() for m in factory_modules(f) if m != REGISTRY)

    return modules(ALGORITHMS), modules(ENVIRONMENTS)


def run_modules(algorithm: str, environment: str, tree: SourceTree | None = None) -> frozenset[str]:
    """Every module whose source can change a run of ``algorithm`` on ``environment`` (module docstring)."""
    from ..bandits.registry import ALGORITHMS, ENVIRONMENTS

    check_choice("algorithm", algorithm, tuple(ALGORITHMS))
    check_choice("environment", environment, tuple(ENVIRONMENTS))
    tree = tree or installed_tree()
    own = factory_modules(ALGORITHMS[algorithm]) | factory_modules(ENVIRONMENTS[environment])
    policies, environments = _implementation_modules()
    return _closure(own, (policies | environments) - own, tree)


@functools.lru_cache(maxsize=None)
def _closure(own: frozenset[str], others: frozenset[str], tree: SourceTree) -> frozenset[str]:
    return (tree.closure([*sorted(own), RUNNER], stop={EXECUTION})
            | tree.closure([REGISTRY, SPEC], stop=others | {__name__, EXECUTION}))


@functools.lru_cache(maxsize=None)
def _digest(modules: frozenset[str], tree: SourceTree) -> str:
    return tree.digest(modules)


def code_digest(algorithm: str, environment: str, tree: SourceTree | None = None) -> str:
    """SHA-256 of the source of :func:`run_modules` (computed once per process and module set)."""
    tree = tree or installed_tree()
    return _digest(run_modules(algorithm, environment, tree), tree)


def clear_caches() -> None:
    """Forget every file digest and closure of the installed package (after editing its source)."""
    installed_tree.cache_clear()
    _closure.cache_clear()
    _digest.cache_clear()
