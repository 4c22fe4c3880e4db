"""Mutation harness: the suite is only as good as the bugs it catches (docs/ARCHITECTURE.md §6).

A catalog of named, plausible bugs (:mod:`.catalog`) in every layer — kernels, GP posteriors,
information gain, confidence widths, schedules, DPP sampling, divergences, ``n*``, every policy
family, the environments and the runner — is applied one mutant at a time at run time
(:mod:`.apply`: the function is replaced wherever it is bound, never edited in a file), each in its
own worker process with a fresh run cache (:mod:`.workers`, :mod:`.worker`). The claims whose
checks can reach the mutated module (:mod:`.affects`, derived from the imports) run cheapest first;
a mutant is killed when a verdict stops being accepted (:mod:`.judge`, :mod:`.harness`). The
results document (:mod:`.results`, its schema in the module docstring) holds the kill matrix, the
score per paper and per kind of claim, the survivors, and per claim the mutants it kills; the
command line is ``tvbo-verify mutants`` and the figure is recorded by ``benchmarks/bench_mutants.py``.

A survivor that is harmless for every statement is marked equivalent in the catalog with its
argument, and a unit test demonstrates the equivalence.
"""

from .catalog import CATALOG, get_mutant
from .mutant import LAYERS, Mutant, Rewrite, Wrap

__all__ = ["CATALOG", "LAYERS", "Mutant", "Rewrite", "Wrap", "get_mutant"]
