"""The ``@claim`` registry: one check function per claim id of a registered paper's claim list.

``ref``, ``kind``, expectation and title come from the paper's claim list only; a check is registered
with its id alone, so code and list cannot disagree. The checks live in the modules each registered
paper names (:attr:`tvbo_verify.papers.Paper.modules`; this package's in
``papers/<paper>/checks/<topic>.py``) and are imported by :func:`load_all`.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable

from ..papers import import_paper_modules
from ..registry import Registry
from .claimlist import ClaimRow, check_paper, claim_row, claim_rows, paper_rows


def _check_of(spec: "ClaimSpec") -> tuple[str, str]:
    return spec.func.__module__, spec.func.__qualname__


#: id -> registered check (the same function again, e.g. from a reloaded module, replaces it)
_REGISTRY: Registry = Registry("claim", same=lambda a, b: _check_of(a) == _check_of(b),
                               describe=lambda spec: ".".join(_check_of(spec)))


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
        """The module of the check (its full name, the same for every paper)."""
        return self.func.__module__

    @property
    def method(self) -> str:
        """The check's docstring: how the claim is measured."""
        return inspect.cleandoc(self.func.__doc__ or "")


def claim(claim_id: str) -> Callable[[Callable], Callable]:
    """Register ``func(ctx) -> Evidence`` as the check of ``claim_id`` (which must be in a registered paper's
    claim list)."""
    claim_row(claim_id)

    def decorate(func: Callable) -> Callable:
        _REGISTRY.register(claim_id, ClaimSpec(claim_id, func))
        func.claim_id = claim_id  # type: ignore[attr-defined]
        return func

    return decorate


def load_all() -> None:
    """Import the claim modules of every registered paper, so that their checks and statements register
    (each paper's once; a paper registered later is loaded on the next call)."""
    import_paper_modules("modules")


def registered(paper: str | None = None) -> dict[str, ClaimSpec]:
    """All registered checks by claim id, or those of one registered ``paper`` (claim-list order; only that
    paper's claim modules are imported)."""
    if paper is None:  # the checks of the papers registered now (a paper removed at run time takes its own)
        load_all()
        listed = {r.id for r in claim_rows()}
        return {k: v for k, v in _REGISTRY.items() if k in listed}
    import_paper_modules("modules", [check_paper(paper)])
    return {r.id: _REGISTRY[r.id] for r in paper_rows(paper) if r.id in _REGISTRY}


def get(claim_id: str) -> ClaimSpec | None:
    """The check registered for ``claim_id`` (None when the claim is not implemented yet); only the claim
    modules of its own paper are imported."""
    import_paper_modules("modules", [claim_row(claim_id).paper])
    return _REGISTRY.get(claim_id)
