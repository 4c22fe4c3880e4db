"""A mutation analysis from selection to results file: which mutants, which candidate claims, in which
order, and the document written after every mutant (so an interrupted run keeps what finished)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..validation import check_choice
from ..verify.claimlist import KINDS, check_paper, claim_row
from ..verify.registry import registered
from .affects import order_candidates, runtimes_from
from .catalog import CATALOG, get_mutant
from .harness import Baselines, MutantRun, Settings, run_mutants
from .mutant import Mutant
from .results import code_digest, document, header, load, reusable_baselines, write
from .subsets import subset
from .symbols import candidate_claims


def select_mutants(names: Sequence[str] = ()) -> list[Mutant]:
    """The named catalog mutants (in the given order), or the whole catalog."""
    return [get_mutant(n) for n in names] if names else list(CATALOG)


def selected_claims(papers: Sequence[str] = (), kinds: Sequence[str] = ()) -> dict[str, tuple[str, str]]:
    """Implemented claims of the chosen papers and kinds (all when none is given): ``id -> (module, function)``
    of its check."""
    for p in papers:
        check_paper(p)
    for k in kinds:
        check_choice("kind", k, KINDS)
    out = {}
    for cid, spec in registered().items():
        row = claim_row(cid)
        if (not papers or row.paper in papers) and (not kinds or row.kind in kinds):
            out[cid] = (spec.func.__module__, spec.func.__name__)
    return out


def planner(claims: dict[str, tuple[str, str]], earlier: dict[str, float], baselines: Baselines,
            only: Mapping[str, Sequence[str]] | None = None) -> Callable[[Mutant], list[str]]:
    """``mutant -> candidate claims`` (those whose check reaches the mutated module), cheapest first by the
    runtimes measured so far (this run's baselines, else earlier files, else the default of the kind); with
    ``only``, a mutant's candidates are restricted to the claims ``only`` names for it."""
    kinds = {cid: claim_row(cid).kind for cid in claims}

    def candidates(mutant: Mutant) -> list[str]:
        runtimes = {**earlier, **{cid: b["runtime_s"] for cid, b in baselines.outcomes.items()
                                  if b.get("runtime_s") is not None}}
        found = candidate_claims(mutant.target, claims)
        if only is not None:
            found = {cid: v for cid, v in found.items() if cid in only.get(mutant.name, ())}
        return order_candidates(found, kinds, runtimes)

    return candidates


def analyse(*, names: Sequence[str] = (), papers: Sequence[str] = (), kinds: Sequence[str] = (),
            settings: Settings, out: Path | None, git: str | None = None, subset_name: str | None = None,
            earlier: Sequence[Path] = (), progress: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """Run the selected mutants and return the results document (also written to ``out`` after each mutant).

    ``earlier`` lists result files (a report's ``results.json``, an earlier mutation file) whose claim
    runtimes order the candidates and whose baselines are reused when measured on the same code.
    ``subset_name`` names a subset (:mod:`~tvbo_verify.mutants.subsets`): its mutants (unless ``names``
    are given), each tried only on the claims the subset names for it.
    """
    only = subset(subset_name) if subset_name else None
    if only is not None and not names:
        names = tuple(only)
    mutants = select_mutants(names)
    claims = selected_claims(papers, kinds)
    docs = [d for d in (load(p) for p in [*earlier, *([out] if out else [])]) if d]
    digest = code_digest()
    known: dict[str, dict[str, Any]] = {}
    for d in docs:
        known.update(reusable_baselines(d, settings, digest))
    filters = {"papers": list(papers), "kinds": list(kinds), "mutants": list(names), "subset": subset_name}
    started, t0 = time.strftime("%Y-%m-%dT%H:%M:%S%z"), time.monotonic()
    head = header(settings, filters, digest, started, git)
    baselines = Baselines(settings, known, progress)
    candidates = planner(claims, runtimes_from(docs), baselines, only)
    runs: list[MutantRun] = []

    def save(run: MutantRun) -> None:
        runs.append(run)
        if out is not None:
            write(document(head, runs, baselines), out)

    try:
        run_mutants(mutants, candidates, settings, baselines, progress=progress, on_result=save)
    finally:
        baselines.close()
    head["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    head["wall_s"] = round(time.monotonic() - t0, 1)
    head["baseline_s"] = round(baselines.seconds, 1)
    doc = document(head, runs, baselines)
    if out is not None:
        write(doc, out)
    return doc
