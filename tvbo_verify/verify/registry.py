"""The ``@claim`` registry: one check function per claim id of the project's claim list."""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from typing import Any, Callable

from .claimlist import PAPERS, claim_row

#: id -> registered check
_REGISTRY: dict[str, "ClaimSpec"] = {}


@dataclass
class ReplayResult:
    """Re-evaluation of a stored counterexample (float64 and, when available, mpmath)."""

    lhs: float | None
    rhs: float | None
    margin: float
    hp_margin: float | None
    violated: bool
    detail: str = ""


@dataclass
class ClaimSpec:
    id: str
    ref: str
    kind: str
    func: Callable[[Any], Any]
    replay: Callable[[dict[str, Any]], ReplayResult] | None = None

    @property
    def method(self) -> str:
        """The check's docstring: how the claim is measured."""
        return inspect.cleandoc(self.func.__doc__ or "")


def claim(claim_id: str, *, ref: str, kind: str) -> Callable[[Callable], Callable]:
    """Register ``func(ctx) -> Evidence`` as the check of ``claim_id``.

    The id must be in the project's claim list with the same kind. The decorated function gains a
    ``replayer`` decorator that registers ``replay(instance) -> ReplayResult`` for stored
    counterexamples.
    """
    row = claim_row(claim_id)
    if kind != row.kind:
        raise ValueError(f"kind of {claim_id} must be {row.kind!r} (claim list), got {kind!r}")

    def decorate(func: Callable) -> Callable:
        if claim_id in _REGISTRY and _REGISTRY[claim_id].func.__qualname__ != func.__qualname__:
            raise ValueError(f"claim {claim_id} registered twice")
        spec = ClaimSpec(claim_id, ref, kind, func)
        _REGISTRY[claim_id] = spec

        def replayer(rfunc: Callable[[dict[str, Any]], ReplayResult]) -> Callable:
            spec.replay = rfunc
            return rfunc

        func.replayer = replayer  # type: ignore[attr-defined]
        func.claim_id = claim_id  # type: ignore[attr-defined]
        return func

    return decorate


def load_all() -> None:
    """Import every ``claims/<paper>.py`` module so that its checks register themselves."""
    for paper in PAPERS:
        importlib.import_module(f"{__package__}.claims.{paper}")


def registered() -> dict[str, ClaimSpec]:
    """All registered checks (after :func:`load_all`)."""
    load_all()
    return dict(_REGISTRY)


def get(claim_id: str) -> ClaimSpec | None:
    """The check registered for ``claim_id`` (None when the claim is not implemented yet)."""
    claim_row(claim_id)
    load_all()
    return _REGISTRY.get(claim_id)


def _register_spec(spec: ClaimSpec) -> None:
    """Register a prepared spec (used by tests that define synthetic checks)."""
    _REGISTRY[spec.id] = spec


def _unregister(claim_id: str) -> None:
    _REGISTRY.pop(claim_id, None)
