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
    """Register the decorated function as the check of a claim of a registered paper.

    The check receives a :class:`~tvbo_verify.authoring.Context` and returns the
    :class:`~tvbo_verify.authoring.Evidence` of one of the evidence builders. Its docstring is the claim's
    *method* in the report: it says which statement of the paper it checks and how, and cites the claim's
    section of its paper folder's reading document (``READING`` in ``papers/<paper>/``); the numbers (sizes,
    tolerances, horizons) are left to the code. The check never reads the claim's expectation.

    Parameters
    ----------
    claim_id : str
        An id of the claim list of a registered paper (``"<paper>:<name>"``); an unknown id is refused with
        ``ValueError`` when the decorator is applied, before the check is defined.

    Returns
    -------
    Callable[[Callable], Callable]
        The decorator; it returns the check unchanged, with ``claim_id`` set on it.

    Raises
    ------
    ValueError
        When ``claim_id`` is in no registered paper's claim list.

    Examples
    --------
    >>> from tvbo_verify.authoring import claim
    >>> claim("nopaper:lemma-1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ...'nopaper:lemma-1'...

    A complete check, registered for a paper of one's own, is in the walk-through of
    :mod:`tvbo_verify.authoring`.
    """
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
