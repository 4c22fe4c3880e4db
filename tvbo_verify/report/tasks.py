"""The work of a report as tasks that run in any process: claims and the reproductions they measure.

A :class:`ReportTask` names its work by id only (claim ids, reproduction ids, fidelity, run seed, the run
cache folder), so it pickles to any worker, a local process or a Dask worker on another machine, and
needs nothing of the process that made it: every check and reproduction is looked up by id in the worker.
The worker runs the claims one after the other (their repetitions serially, as the report runs its tasks
in parallel; on a Dask cluster as jobs of their own), renders their figures to SVG text, typesets their
formulas, and draws the reproductions of the task from the outcomes its claims measured
(:func:`~tvbo_verify.verify.builders.experiment.reproduction_outcome`), so that a reproduction is measured once per
report. It returns plain data (:class:`TaskResult`) and writes nothing into the report folder: the report
writes the files, task by task, atomically (:mod:`tvbo_verify.report.runner`).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..budget import ClaimOverBudget, cpu_budget
from ..errors import MissingExtraError
from ..execution import DaskExecutor, Executor
from ..files import safe_name
from ..sweeps import RunCache
from ..verify.claimlist import claim_row
from ..verify.engine import Measured, run_claim
from ..verify.evidence import Evidence, Verdict
from .figures import instance_margins_figure, to_svg
from .formulas import typeset_claim
from .results import claim_entry
from .ticks import plain_log_ticks


@dataclass(frozen=True)
class ReportTask:
    """Claims to run and reproductions to draw, at ``fidelity`` and run ``seed``, on the run cache in folder
    ``cache`` (None: no run cache). ``scratch`` is a folder for the reproductions' files while they are
    drawn (used when it exists in the worker's file system, else a temporary folder of the worker).
    ``nested``: a task running on a Dask worker sends its claims' repetitions and runs to the same cluster
    (:meth:`~tvbo_verify.execution.DaskExecutor.of_this_worker`), so a long claim spreads over the cluster."""

    claims: tuple[str, ...]
    reproductions: tuple[str, ...]
    fidelity: str
    seed: int
    cache: str | None
    scratch: str | None = None
    #: on a Dask worker, submit the claims' repetitions to the cluster too (else they run serially)
    nested: bool = False
    #: CPU seconds each claim may use (None: no bound; :mod:`~tvbo_verify.budget`)
    claim_budget_s: float | None = None


@dataclass
class ClaimResult:
    """One claim's ``results.json`` entry (``figures`` listing its figure files, no digest yet), the text of
    those files by name (``figures/<name>``) and the claim's formulas typeset for the pages
    (:func:`~tvbo_verify.report.formulas.typeset_claim`)."""

    entry: dict[str, Any]
    files: dict[str, str] = field(default_factory=dict)
    formulas: dict[str, str] = field(default_factory=dict)


@dataclass
class ReproductionResult:
    """A drawn reproduction: the files of ``reproductions/`` by name, its seconds and finding, or the problem
    that kept it from being drawn, or why it was skipped (an optional extra it needs is not installed)."""

    id: str
    files: dict[str, bytes] = field(default_factory=dict)
    seconds: float = 0.0
    finding: str = ""
    problem: str | None = None
    skipped: str | None = None


@dataclass
class TaskResult:
    """What a task sends back: its claims' results and its drawn reproductions."""

    claims: list[ClaimResult]
    reproductions: list[ReproductionResult]


def render_figures(claim_id: str, ev: Evidence) -> tuple[list[dict[str, str | None]], dict[str, str]]:
    """The evidence's figures as SVG files ``<id>-<k>.svg``: the ``figures`` list of the claim's entry and the
    text of each file by name.

    A violated claim whose check attaches no figure gets one drawn from its instance table (the margin of
    each row, the counterexample starred). Log axes are labelled in plain text (:mod:`.ticks`). A figure
    that fails to render is listed with its problem (shown in the report), never dropped silently; a
    figure that draws a title of several lines gets a note (its details belong in the caption). Problems
    and notes go to ``ev.stats["notes"]``.
    """
    figures = list(ev.figures)
    if ev.verdict is Verdict.VIOLATED and not figures and ev.instances:
        figures.append((f"margins of the instances of {claim_id} (drawn by the report)",
                        lambda: instance_margins_figure(ev.instances, title=claim_id)))
    listed: list[dict[str, str | None]] = []
    files: dict[str, str] = {}
    for k, (title, factory) in enumerate(figures):
        name = f"{safe_name(claim_id)}-{k}.svg"
        problems: list[str] = []
        try:
            svg = to_svg(lambda factory=factory: plain_log_ticks(factory()), problems)
        except Exception as exc:  # a broken figure must not lose the verdict
            problem = f"{type(exc).__name__}: {exc}"
            ev.stats.setdefault("notes", []).append(f"figure {title!r} failed: {problem}")
            listed.append({"title": title, "file": None, "problem": problem})
            continue
        if problems:
            ev.stats.setdefault("notes", []).extend(f"figure {title!r} draws {p}" for p in problems)
        comment = title.replace("--", "- -")  # an XML comment holds no "--": the file stays a valid image
        files[name] = f"<!-- {comment} -->\n{svg}"
        listed.append({"title": title, "file": name})
    return listed, files


def claim_result(claim_id: str, ev: Evidence, fidelity: str, formulas: Path | None = None) -> ClaimResult:
    """The entry of a finished claim with its figures rendered (their notes included in the entry) and its
    formulas typeset (kept in the folder ``formulas``, when given, for the next report)."""
    listed, files = render_figures(claim_id, ev)
    entry = claim_entry(claim_row(claim_id), ev, fidelity)
    entry["figures"] = listed
    return ClaimResult(entry, files, typeset_claim(claim_id, formulas))


def draw_reproduction(rep_id: str, task: ReportTask, cache: RunCache, measured: Measured) -> ReproductionResult:
    """Draw the reproduction ``rep_id`` (from its outcome in ``measured`` when a claim of the task measured it)
    into a scratch folder and read its files back; a failure (also past the task's CPU budget) is returned as
    the problem, a missing optional extra as the reason it was skipped."""
    from ..sweeps.reproduce import get_reproduction, run_reproduction

    scratch = task.scratch if task.scratch and os.path.isdir(task.scratch) else None
    try:
        with tempfile.TemporaryDirectory(prefix="reproduction-", dir=scratch) as tmp, cpu_budget(task.claim_budget_s):
            outcome = run_reproduction(get_reproduction(rep_id), tmp, cache=cache, fidelity=task.fidelity,
                                       executor=repetitions_executor(task), seed=task.seed, progress=False,
                                       measured=measured.get((rep_id, task.fidelity, int(task.seed))))
            files = {p.name: p.read_bytes() for p in sorted(Path(tmp).iterdir()) if p.is_file()}
    except MissingExtraError as exc:  # e.g. the real-data analogues without the extra 'data'
        return ReproductionResult(rep_id, skipped=str(exc))
    except ClaimOverBudget as exc:  # measured again here (no claim of the task measured it) and stopped
        return ReproductionResult(rep_id, problem=f"it {exc} and was stopped (--claim-budget SECONDS)")
    except Exception as exc:  # the claims of the task keep their results
        return ReproductionResult(rep_id, problem=f"{type(exc).__name__}: {exc}")
    return ReproductionResult(rep_id, files, outcome.seconds, outcome.finding.text)


def repetitions_executor(task: ReportTask) -> Executor:
    """Where the repetitions of the task's claims run: the Dask cluster the task runs on when ``nested``, else
    serially in the task."""
    return (DaskExecutor.of_this_worker() if task.nested else None) or Executor()


def run_claims(task: ReportTask, cache: RunCache, measured: Measured) -> list[tuple[str, Evidence]]:
    """The evidence of each claim of ``task``, its repetitions on :func:`repetitions_executor`; the claims share
    the reproductions they measure through ``measured``. A claim that uses more than ``task.claim_budget_s`` CPU
    seconds is stopped and gives ``ERROR`` (:mod:`~tvbo_verify.budget`)."""
    executor = repetitions_executor(task)
    out = []
    for claim_id in task.claims:
        ev = run_claim(claim_id, fidelity=task.fidelity, seed=task.seed, executor=executor, cache=cache,
                       measured=measured, cpu_budget_s=task.claim_budget_s)
        if ev is None:
            raise ValueError(f"claim {claim_id} has no check")
        out.append((claim_id, ev))
    return out


def run_task(task: ReportTask) -> TaskResult:
    """Run the claims of ``task`` and draw its reproductions (module level: picklable for every executor)."""
    cache = RunCache(task.cache)
    measured: Measured = {}
    formulas = None if task.cache is None else Path(task.cache) / "formulas"  # typeset lines, beside the runs
    claims = [claim_result(claim_id, ev, task.fidelity, formulas)
              for claim_id, ev in run_claims(task, cache, measured)]
    reproductions = [draw_reproduction(rep_id, task, cache, measured) for rep_id in task.reproductions]
    return TaskResult(claims, reproductions)


def task_evidence(task: ReportTask) -> list[tuple[str, Evidence]]:
    """The evidence of each claim of ``task`` without its figures (figure factories do not pickle, and the claim
    suite judges verdicts, it draws nothing)."""
    evidence = run_claims(task, RunCache(task.cache), {})
    for _, ev in evidence:
        ev.figures = []
    return evidence
