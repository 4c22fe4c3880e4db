"""Applying a mutant at run time: bind the mutated function everywhere the original is bound, and undo it.

The target ``module:qualname`` is resolved to its owner (the module, or the class for a method) and
the attribute is replaced there. A module that did ``from x import f`` holds its own reference to
``f``: every loaded ``tvbo_verify`` module is searched for attributes (and values of module-level
dicts) bound to the original object, and those are replaced too. Modules imported later read the
already patched attribute of the defining module. Worker processes inherit the patch when they are
forked after it is applied (:func:`use_fork_for_workers`; the serial executor needs nothing).

The same binding serves :func:`probe`: every target wrapped by a recorder that notes it was called
(the profile that tells which claims execute which mutated function). :func:`applied` is a context
manager that restores every replaced binding on exit.
"""

from __future__ import annotations
import __future__

import functools
import importlib
import inspect
import multiprocessing
import sys
import textwrap
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from .mutant import Mutant, Rewrite

_FACTORY = "__mutant_factory__"


class MutantError(ValueError):
    """The mutant cannot be applied (stale target or fragment): the catalog needs mending."""


@dataclass
class Applied:
    """What a binding changed: ``(container, key, old value, container is a dict)`` per binding, for undoing."""

    label: str
    bindings: list[tuple[Any, str, Any, bool]] = field(default_factory=list)
    aliases: int = 0  # bindings replaced besides the targets themselves

    def undo(self) -> None:
        for container, key, old, is_dict in reversed(self.bindings):
            if is_dict:
                container[key] = old
            else:
                setattr(container, key, old)
        self.bindings.clear()


def resolve(target: str) -> tuple[Any, str, Any]:
    """``(owner, attribute name, raw original)`` of ``module:qualname``; the raw original of a method is the
    class ``__dict__`` entry (a function, property or staticmethod)."""
    module_name, _, qualname = target.partition(":")
    try:
        owner: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise MutantError(f"target module {module_name!r} cannot be imported: {exc}") from None
    *path, attr = qualname.split(".")
    for part in path:
        if not hasattr(owner, part):
            raise MutantError(f"target {target!r}: {part!r} not found")
        owner = getattr(owner, part)
    if isinstance(owner, type):
        if attr not in owner.__dict__:
            raise MutantError(f"target {target!r}: {owner.__name__} does not define {attr!r} itself")
        return owner, attr, owner.__dict__[attr]
    if not hasattr(owner, attr):
        raise MutantError(f"target {target!r}: {attr!r} not found")
    return owner, attr, getattr(owner, attr)


def _function_of(raw: Any) -> Any:
    """The plain function behind a property, staticmethod or classmethod (or ``raw`` itself)."""
    if isinstance(raw, property):
        return raw.fget
    if isinstance(raw, (staticmethod, classmethod)):
        return raw.__func__
    return raw


def rewritten(mutant: Mutant, owner: Any, raw: Any) -> Any:
    """The target recompiled from its source with the fragment of ``mutant.patch`` (a :class:`Rewrite`) replaced.

    Fragments match the dedented source of the target. The definition is compiled inside a factory
    taking ``__class__``, so a method using ``super()`` keeps working, with the globals of the target's
    module and its ``from __future__ import annotations``.
    """
    patch = mutant.patch
    assert isinstance(patch, Rewrite)
    func = inspect.unwrap(_function_of(raw))
    try:
        source = textwrap.dedent(inspect.getsource(func))
    except (OSError, TypeError) as exc:
        raise MutantError(f"mutant {mutant.name}: no source for {mutant.target}: {exc}") from None
    found = source.count(patch.old)
    if found != patch.count:
        raise MutantError(f"mutant {mutant.name}: fragment {patch.old!r} occurs {found} times in {mutant.target}, "
                          f"expected {patch.count}")
    body = textwrap.indent(source.replace(patch.old, patch.new), "    ")
    code = f"def {_FACTORY}(__class__):\n{body}\n    return {func.__name__}\n"
    namespace: dict[str, Any] = {}
    module = sys.modules[func.__module__]
    try:
        compiled = compile(code, f"<mutant {mutant.name}: {mutant.target}>", "exec",
                           flags=__future__.annotations.compiler_flag, dont_inherit=True)
        exec(compiled, module.__dict__, namespace)  # noqa: S102 - the catalog's own, reviewed fragments
    except SyntaxError as exc:
        raise MutantError(f"mutant {mutant.name}: the rewritten source does not compile: {exc}") from None
    return namespace[_FACTORY](owner if isinstance(owner, type) else None)


def replacement_for(mutant: Mutant, owner: Any, raw: Any) -> Any:
    """The object bound in place of ``raw``."""
    if isinstance(mutant.patch, Rewrite):
        return rewritten(mutant, owner, raw)
    return mutant.patch.factory(raw)


def _rebind_aliases(original: Any, replacement: Any, record: Applied, skip: tuple[Any, str]) -> None:
    """Replace every module attribute (and module-level dict value) of loaded ``tvbo_verify`` modules bound to
    ``original`` by ``replacement``."""
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "tvbo_verify" or name.startswith("tvbo_verify.")):
            continue
        for key, value in list(vars(module).items()):
            if value is original and (module, key) != skip:
                record.bindings.append((module, key, value, False))
                record.aliases += 1
                setattr(module, key, replacement)
            elif isinstance(value, dict):
                for k, v in list(value.items()):
                    if v is original:
                        record.bindings.append((value, k, v, True))
                        record.aliases += 1
                        value[k] = replacement


def bind(target: str, make: Callable[[Any, Any], Any], record: Applied) -> None:
    """Bind ``make(owner, raw original)`` in place of ``target`` wherever the original is bound; note every
    binding in ``record``."""
    owner, attr, raw = resolve(target)
    replacement = make(owner, raw)
    record.bindings.append((owner, attr, raw, False))
    setattr(owner, attr, replacement)
    if not isinstance(owner, type):  # a module-level function may be imported elsewhere under any name
        _rebind_aliases(raw, replacement, record, (owner, attr))


def apply(mutant: Mutant) -> Applied:
    """Bind the mutated target in place of the original, everywhere it is bound; return the undo record."""
    record = Applied(mutant.name)
    bind(mutant.target, lambda owner, raw: replacement_for(mutant, owner, raw), record)
    return record


@contextmanager
def applied(mutant: Mutant) -> Iterator[Applied]:
    """Apply ``mutant`` for the duration of the block, then restore every binding."""
    record = apply(mutant)
    try:
        yield record
    finally:
        record.undo()


def _recording(target: str, raw: Any, called: set[str]) -> Any:
    """``raw`` (function, property, staticmethod or classmethod) with a call noting ``target`` in ``called``."""
    func = _function_of(raw)

    @functools.wraps(func)
    def recorder(*args: Any, **kwargs: Any) -> Any:
        called.add(target)
        return func(*args, **kwargs)

    if isinstance(raw, property):
        return property(recorder, raw.fset, raw.fdel, raw.__doc__)
    if isinstance(raw, staticmethod):
        return staticmethod(recorder)
    if isinstance(raw, classmethod):
        return classmethod(recorder)
    return recorder


def probe(targets: Iterable[str], called: set[str]) -> Applied:
    """Wrap every target so that a call adds it to ``called`` (behaviour unchanged); return the undo record."""
    record = Applied("probe")
    for target in sorted(set(targets)):
        bind(target, lambda owner, raw, t=target: _recording(t, raw, called), record)
    return record


def use_fork_for_workers() -> None:
    """Make process pools fork (so workers inherit the patched functions); call before any pool exists."""
    multiprocessing.set_start_method("fork", force=True)
