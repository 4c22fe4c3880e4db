"""The catalog of mutants: named, plausible bugs in every layer (ARCHITECTURE.md, "Power: a check must be able
to fail"). Each entry names its target, layer, the bug in one line and the run-time patch; see
:mod:`~tvbo_verify.verify.mutants.mutant`."""

from __future__ import annotations

from ..mutant import Mutant
from . import numerics, policies, runs, theory

CATALOG: tuple[Mutant, ...] = numerics.MUTANTS + theory.MUTANTS + policies.MUTANTS + runs.MUTANTS


def _index() -> dict[str, Mutant]:
    out: dict[str, Mutant] = {}
    for m in CATALOG:
        if m.name in out:
            raise ValueError(f"mutant name {m.name!r} is used twice in the catalog")
        out[m.name] = m
    return out


BY_NAME = _index()


def get_mutant(name: str) -> Mutant:
    """The catalog mutant ``name``; ``ValueError`` naming it otherwise."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown mutant {name!r} (see `tvbo-verify mutants --list`)") from None
