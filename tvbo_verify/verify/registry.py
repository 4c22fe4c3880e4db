"""The ``@claim`` registry: one check function per claim id of the project's claim list.

``ref``, ``kind``, expectation and title come from the claim list only (``claims.csv``); a check is
registered with its id alone, so code and list cannot disagree. Claim modules live in
``verify/claims/<paper>/<topic>.py`` and are found by :func:`load_all` (``pkgutil``).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable

from .claimlist import ClaimRow, claim_row

#: id -> registered check
_REGISTRY: dict[str, "ClaimSpec"] = {}
_LOADED = False


@dataclass
class ReplayResult:
    """Re-evaluation of a stored counterexample (float64 and, when available, mpmath)."""

    lhs: float | None
    rhs: float | None
    margin: float | None
    hp_margin: float | None
    violated: bool
    detail: str = ""


@dataclass
class ClaimSpec:
    """A registered check: its id, the function and the module that holds it."""

    id: str
    func: Callable[[Any], Any]

    @cached_property
    def row(self) -> ClaimRow:
        return claim_row(self.id)

    @property
    def ref(self) -> str:
        return self.row.ref

    @property
    def kind(self) -> str:
        return self.row.kind

    @property
    def module(self) -> str:
        """The module of the check, relative to the claims package (e.g. ``wsparq.nystrom``)."""
        prefix = f"{__package__}.claims."
        mod = self.func.__module__
        return mod[len(prefix):] if mod.startswith(prefix) else mod

    @property
    def method(self) -> str:
        """The check's docstring: how the claim is measured."""
        return inspect.cleandoc(self.func.__doc__ or "")


def claim(claim_id: str) -> Callable[[Callable], Callable]:
    """Register ``func(ctx) -> Evidence`` as the check of ``claim_id`` (which must be in the claim list)."""
    claim_row(claim_id)

    def decorate(func: Callable) -> Callable:
        old = _REGISTRY.get(claim_id)
        if old is not None and (old.func.__module__, old.func.__qualname__) != (func.__module__, func.__qualname__):
            raise ValueError(f"claim {claim_id} registered twice: {old.func.__module__}.{old.func.__qualname__} "
                             f"and {func.__module__}.{func.__qualname__}")
        _REGISTRY[claim_id] = ClaimSpec(claim_id, func)
        func.claim_id = claim_id  # type: ignore[attr-defined]
        return func

    return decorate


def load_all() -> None:
    """Import every module below ``verify/claims`` so that its checks and statements register."""
    global _LOADED
    if _LOADED:
        return
    package = importlib.import_module(f"{__package__}.claims")
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
        importlib.import_module(info.name)
    _LOADED = True


def registered() -> dict[str, ClaimSpec]:
    """All registered checks."""
    load_all()
    return dict(_REGISTRY)


def get(claim_id: str) -> ClaimSpec | None:
    """The check registered for ``claim_id`` (None when the claim is not implemented yet)."""
    claim_row(claim_id)
    load_all()
    return _REGISTRY.get(claim_id)
