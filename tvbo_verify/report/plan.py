"""Which tasks a report runs: its claims grouped by the reproductions they share, longest first.

Claims that measure the same reproduction (its ``claims``) go into one task, so the task measures it
once (:func:`~tvbo_verify.verify.builders.experiment.reproduction_outcome`) and draws it for the figures section from
that measurement; a reproduction none of whose claims runs in this report is a task of its own. Tasks run
on parallel executors longest first, by the claims' runtimes in an earlier ``results.json`` of the same
report folder (or, for claims not in it, by a rough weight of their kind), so that a long claim does not
start last and keep every other worker waiting; a serial report keeps the claim-list order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..fidelity import expected_seconds as kind_seconds
from ..verify.claimlist import ClaimRow
from .tasks import ReportTask

#: rough seconds of drawing a reproduction's figure (PNG and SVG) from its measurement
DRAW_SECONDS = 2.0


def earlier_runtimes(results: Path, fidelity: str) -> dict[str, float]:
    """Each claim's ``runtime_s`` in an earlier results file at ``fidelity`` (empty when there is none or it
    cannot be read): a hint for the order of the tasks, nothing else is taken from it."""
    try:
        doc = json.loads(Path(results).read_text(encoding="utf-8"))
        if doc["run"]["fidelity"] != fidelity:
            return {}
        return {str(c["id"]): float(c["runtime_s"]) for c in doc["claims"]
                if isinstance(c, dict) and isinstance(c.get("runtime_s"), (int, float))}
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError):
        return {}


def expected_seconds(claims: Sequence[ClaimRow], runtimes: dict[str, float] | None = None) -> dict[str, float]:
    """Each claim's expected seconds: its runtime in an earlier report (``runtimes``), else
    :data:`tvbo_verify.fidelity.KIND_SECONDS` of its kind (the order of the tasks and the estimate of the time
    left depend on them, never a result).

    >>> from tvbo_verify.verify.claimlist import claim_row
    >>> expected_seconds([claim_row("wsparq:window-count")], {"wsparq:window-count": 0.6})
    {'wsparq:window-count': 0.6}
    """
    runtimes = runtimes or {}
    return {r.id: kind_seconds(r.kind, runtimes.get(r.id)) for r in claims}


def _groups(claims: Sequence[ClaimRow], shared: Iterable[tuple[str, ...]]) -> list[list[ClaimRow]]:
    """``claims`` partitioned so that the claims of each tuple of ``shared`` land in one group (claim-list order
    inside a group, groups ordered by their first claim)."""
    parent = {r.id: r.id for r in claims}

    def root(i: str) -> str:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for ids in shared:
        present = [i for i in ids if i in parent]
        for i in present[1:]:
            parent[root(i)] = root(present[0])
    groups: dict[str, list[ClaimRow]] = {}
    for r in claims:
        groups.setdefault(root(r.id), []).append(r)
    return list(groups.values())


def plan_tasks(claims: Sequence[ClaimRow], reproductions: Sequence[Any], *, fidelity: str, seed: int,
               cache: str | None, scratch: str | None = None, all_reproductions: Sequence[Any] = (),
               runtimes: dict[str, float] | None = None, longest_first: bool = True,
               nested: bool = False, claim_budget_s: float | None = None) -> list[ReportTask]:
    """The tasks of a report: ``claims`` (claim rows to run) grouped through the ``claims`` of every
    reproduction in ``all_reproductions`` and ``reproductions`` (those the report draws), each reproduction
    drawn by the task of its claims or by a task of its own.

    With ``longest_first`` the tasks are sorted by their expected seconds (``runtimes`` of earlier runs, else
    :data:`tvbo_verify.fidelity.KIND_SECONDS`), else they keep the claim-list order (reproduction-only tasks
    last). ``nested``: the
    tasks send their repetitions to the Dask cluster they run on (:class:`~tvbo_verify.report.tasks.ReportTask`);
    ``claim_budget_s``: the CPU seconds each claim may use (None: no bound).
    """
    runtimes = runtimes or {}
    groups = _groups(claims, [tuple(rep.claims) for rep in (*all_reproductions, *reproductions)])
    drawn: list[list[str]] = [[] for _ in groups]
    alone: list[str] = []
    where = {r.id: k for k, group in enumerate(groups) for r in group}
    for rep in reproductions:
        homes = [where[c] for c in rep.claims if c in where]
        (drawn[homes[0]] if homes else alone).append(rep.id)
    tasks = [ReportTask(tuple(r.id for r in group), tuple(reps), fidelity, int(seed), cache, scratch, nested,
                        claim_budget_s) for group, reps in zip(groups, drawn)]
    tasks += [ReportTask((), (rep_id,), fidelity, int(seed), cache, scratch, nested, claim_budget_s)
              for rep_id in alone]
    if not longest_first:
        return tasks
    expected = expected_seconds(claims, runtimes)

    def seconds(task: ReportTask) -> float:
        return sum(expected[i] for i in task.claims) + DRAW_SECONDS * len(task.reproductions)

    return sorted(tasks, key=seconds, reverse=True)  # stable: equal estimates keep the claim-list order
