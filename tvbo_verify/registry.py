"""One registry style for every registered concept (docs/ARCHITECTURE.md §13).

Papers, claims, statements, reproductions, presets, policies and environments are each kept in a
:class:`Registry`: a dictionary from a name to the object the module defining it registered at import.
Registering the same object again (or the same definition from a reloaded module) is harmless; another object
under a taken name is refused; an unknown name is refused with the registered choices or the closest names,
after the registry's loader had its chance to import the modules that define it.

Examples
--------
>>> colours = Registry("colour")
>>> colours.register("red", (255, 0, 0))
(255, 0, 0)
>>> colours.lookup("red")
(255, 0, 0)
>>> colours.register("red", (254, 0, 0))
Traceback (most recent call last):
...
ValueError: colour name 'red' is taken by (255, 0, 0); choose another name
>>> colours.lookup("green")
Traceback (most recent call last):
...
ValueError: colour must be one of red, got 'green'
"""

from __future__ import annotations

import difflib
from typing import Any, Callable, Generic, TypeVar

__all__ = ["Registry", "definition"]

T = TypeVar("T")
#: up to this many registered names, an unknown name is answered with all of them; beyond, with the closest
LISTED = 20


def definition(obj: Any) -> tuple[str, str] | None:
    """Where ``obj`` is defined, ``(module, qualified name)``, for a function or a class (None otherwise): a
    module imported again defines new objects with the same definition."""
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str) and (callable(obj) or isinstance(obj, type)):
        return module, qualname
    return None


def _describe(obj: Any) -> str:
    where = definition(obj)
    return ".".join(where) if where else repr(obj)


class Registry(dict, Generic[T]):  # type: ignore[type-arg]
    """Objects of one kind by name.

    Parameters
    ----------
    what
        What a name names, for messages (``"algorithm"``, ``"reproduction"``).
    load
        Called with the unknown name (or None: everything) before an unknown name is refused: it imports the
        modules that register such objects (the modules the registered papers name).
    same
        Whether a second object is the same registration as the first (default: the same object, equal
        objects, or the same definition of a function or class).
    describe
        How a registered object is named in the message refusing another one under its name.
    hint
        Appended to the message refusing an unknown name (e.g. the command that lists the names).
    """

    def __init__(self, what: str, *, load: Callable[[str | None], None] | None = None,
                 same: Callable[[Any, Any], bool] | None = None, describe: Callable[[Any], str] = _describe,
                 hint: str = "") -> None:
        super().__init__()
        self.what, self._load, self._same, self._describe, self.hint = what, load, same, describe, hint

    def __repr__(self) -> str:
        return f"Registry({self.what!r}, {len(self)} names)"

    def is_same(self, old: Any, new: Any) -> bool:
        """Whether ``new`` is the same registration as ``old``."""
        if self._same is not None:
            return bool(self._same(old, new))
        if old is new:
            return True
        where = definition(old)
        if where is not None:
            return where == definition(new)
        try:
            return bool(old == new)
        except Exception:  # an object whose equality raises is only ever the same as itself
            return False

    def register(self, name: str, obj: T) -> T:
        """Register ``obj`` under ``name`` and return it; another object under a taken name is refused."""
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"{self.what} name must be a non-empty string, got {name!r}")
        old = self.get(name)
        if old is not None and not self.is_same(old, obj):
            raise ValueError(f"{self.what} name {name!r} is taken by {self._describe(old)}; choose another name")
        self[name] = obj
        return obj

    def load(self, name: str | None = None) -> None:
        """Let the loader import what registers ``name`` (None: everything it knows)."""
        if self._load is not None:
            self._load(name)

    def lookup(self, name: str) -> T:
        """The object registered under ``name``; an unknown name first runs the loader, then is refused."""
        if name not in self:
            self.load(name)
        if name in self:
            return self[name]
        raise ValueError(self.unknown(name))

    def unknown(self, name: Any) -> str:
        """The message refusing the unknown ``name``: every registered name when there are few, else
        "unknown", and the closest names when some are close."""
        hint = f" ({self.hint})" if self.hint else ""
        close = difflib.get_close_matches(str(name), list(self), n=3, cutoff=0.6)
        closest = f"; closest: {', '.join(close)}" if close else ""
        if len(self) <= LISTED:
            return f"{self.what} must be one of {', '.join(self)}, got {name!r}{closest}{hint}"
        return f"unknown {self.what} {name!r}{closest}{hint}"
