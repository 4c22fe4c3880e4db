"""The catalog of mutants: named, plausible bugs in every layer (docs/ARCHITECTURE.md §6). Each entry names its target,
layer, the bug in one line and the run-time patch; see :mod:`~tvbo_verify.mutants.mutant`."""

from __future__ import annotations

from ...registry import Registry
from ..mutant import Mutant
from . import numerics, policies, runs, theory

CATALOG: tuple[Mutant, ...] = numerics.MUTANTS + theory.MUTANTS + policies.MUTANTS + runs.MUTANTS


#: the catalog by mutant name (a name used twice is refused)
BY_NAME: Registry = Registry("mutant", same=lambda a, b: a is b, hint="see `tvbo-verify mutants --list`")
for _mutant in CATALOG:
    BY_NAME.register(_mutant.name, _mutant)


def get_mutant(name: str) -> Mutant:
    """The catalog mutant ``name``; ``ValueError`` naming it otherwise."""
    return BY_NAME.lookup(name)
