"""``tvbo-verify report``: run the selected claims, write results.json after each, render the pages.

The claims and reproductions run as tasks on the report's executor (in this process, in worker
processes or on a Dask cluster; :mod:`~tvbo_verify.report.tasks`), each claim with its repetitions run
inside its task (on a Dask cluster, as jobs of their own) and its figures rendered there; this process
writes what the tasks return.
Every claim is judged by the one pass rule (:mod:`tvbo_verify.verify.passing`); its check receives the
report's run cache in its context. Progress goes to the ``progress`` callback, one line
per claim and per reproduction with the count done and the time left. The output folder is created
only once the checks are loaded, its ``figures`` and ``counterexamples`` folders only when a file goes
into them; a report that fails before it wrote anything removes the folder it created. From the first finished
claim on, ``index.html`` is a progress page rewritten after each one (:func:`write_progress_page`), so it can
be opened at once; the full pages replace it when the report ends. The folder has one writer at a time: a
second report into it is refused while the first holds its lock (:func:`~tvbo_verify.files.folder_lock`).
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from ..budget import DEFAULT_CLAIM_BUDGET_S, MAX_BUDGET_S
from ..execution import Executor, get_executor
from ..fidelity import check_fidelity
from ..files import atomic_write_bytes, folder_lock, removed_if_empty_on_error, writable_folder
from ..sweeps import RunCache
from ..validation import check_int, check_interval
from ..verify.claimlist import ClaimRow, check_paper, claim_row, claim_rows
from ..verify.evidence import Evidence
from ..verify.registry import ClaimSpec, get
from .coverage import coverage, coverage_text, scope_of
from .formulas import remember as remember_formulas
from .mutation import DEFAULT_MUTANTS, check_mutants_file, mutation_view
from .plan import earlier_runtimes, expected_seconds, plan_tasks
from .progress import Heartbeat, StepCounter
from .reproductions import FOLDER as REPRODUCTIONS
from .result_cache import ResultCache
from .results import SCHEMA, dump, load_results, now, run_header, write_atomic
from .tasks import ClaimResult, ReportTask, ReproductionResult, render_figures, run_task
from .trust import REPLAY_BY_RERUN, audit, counterexample_path, refresh, seal


@dataclass
class ReportOutcome:
    results: dict
    out: Path
    selected: list[ClaimRow]
    not_implemented: list[str] = field(default_factory=list)
    #: reproductions that could not be drawn, one line each
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every verdict in the results passes the pass rule and every reproduction was drawn."""
        return all(c.get("accepted") is True for c in self.results["claims"]) and not self.problems


def select(ids: Iterable[str] = (), papers: Iterable[str] = ()) -> list[ClaimRow]:
    """Claims chosen by id and/or paper (all when neither is given), in claim-list order."""
    ids, papers = list(ids), [check_paper(p) for p in papers]
    for i in ids:
        claim_row(i)
    return [r for r in claim_rows()
            if (not ids and not papers) or r.id in ids or r.paper in papers]


def prepare_out(out: Path) -> Path:
    """Create ``out`` and prove it writable; ``ValueError`` with one line otherwise. Its ``figures`` and
    ``counterexamples`` folders are created when the first file goes into them (:func:`write_atomic`)."""
    return writable_folder(out)


@contextlib.contextmanager
def output_folder(out: Path) -> Iterator[Path]:
    """:func:`prepare_out` for the body of a report, which holds the folder's lock meanwhile (a second report into
    the same folder is refused, :func:`~tvbo_verify.files.folder_lock`); when the body fails (or is interrupted),
    the folders this call created are removed again as long as they are still empty (nothing half-made left
    behind)."""
    out = Path(out)
    with removed_if_empty_on_error(out / "figures", out / "counterexamples", out / REPRODUCTIONS, out):
        folder = prepare_out(out)
        with folder_lock(folder, role="--out folder"):
            yield folder


def save_figures(out: Path, claim_id: str, ev: Evidence) -> list[dict[str, str | None]]:
    """Render the evidence's figures (:func:`~tvbo_verify.report.tasks.render_figures`) into
    ``out/figures/<id>-<k>.svg`` (the page loads them lazily); the ``figures`` list of the claim's entry."""
    listed, files = render_figures(claim_id, ev)
    for name, text in files.items():
        write_atomic(out / "figures" / name, text)
    return listed


def _kept_claims(doc: dict, out: Path, selected: set[str],
                 progress: Callable[[str], None]) -> tuple[dict[str, dict], list[str]]:
    """The records of an earlier run that pass every check of :func:`~tvbo_verify.report.trust.audit`,
    and the claims to run again: the selected ones that fail a check and every claim whose
    counterexample is replayed by a rerun. Other failing records are dropped."""
    kept: dict[str, dict] = {}
    rerun: list[str] = []
    for c in doc["claims"]:
        reason = audit(c, out)
        if reason is None:
            kept[c["id"]] = seal(refresh(c, doc.get("run", {}).get("fidelity")))
        elif c["id"] in selected or (reason == REPLAY_BY_RERUN and get(c["id"]) is not None):
            progress(f"{c['id']:<42} not kept: {reason}; rerunning")
            rerun.append(c["id"])
        else:
            progress(f"{c['id']:<42} dropped from the earlier results: {reason}")
    return kept, rerun


def run_report(
    *,
    ids: Iterable[str] = (),
    papers: Iterable[str] = (),
    fidelity: str = "quick",
    seed: int = 0,
    out: Path = Path("reports/latest"),
    resume: bool = False,
    executor: str | Executor = "serial",
    scheduler: str | None = None,
    progress: Callable[[str], None] = lambda s: None,
    reproduce: bool = True,
    cache: RunCache | None = None,
    fresh: bool = False,
    mutants: Path | None = DEFAULT_MUTANTS,
    claim_budget_s: float | None = None,
) -> ReportOutcome:
    """Run the selected implemented claims and write ``results.json`` and the pages into ``out``.

    The claims (and, with ``reproduce``, the reproductions of the selected papers or, when claim ids are given,
    those deciding or illustrating them, into ``out/reproductions``) run as tasks on ``executor``
    (:mod:`~tvbo_verify.report.plan`, :mod:`~tvbo_verify.report.tasks`): ``serial`` in this process, ``process``
    one worker process per core, ``dask`` on the Dask scheduler at ``scheduler``; each claim's repetitions run
    serially inside its task (on a Dask cluster, on the cluster too). Every task reads and writes the run cache
    ``cache`` (default: the cache at its default location; ``RunCache(None)`` reads and writes no run); the
    results do not depend on the executor.
    A claim or reproduction that an earlier report computed with the same code, libraries, fidelity and seed is
    reused from the result cache beside the runs (:mod:`~tvbo_verify.report.result_cache`) unless ``fresh``.
    The mutants each claim kills are shown from the mutation results in ``mutants`` when they were measured on
    this code (:mod:`~tvbo_verify.report.mutation`).
    ``results.json`` is written after each task; ``progress`` receives one line per claim and per
    reproduction: ``[done/total] ... eta <time left>``.
    Each claim may use ``claim_budget_s`` CPU seconds (None: :data:`~tvbo_verify.budget.DEFAULT_CLAIM_BUDGET_S`
    of the fidelity; 0: no bound), past which it ends in error (:mod:`~tvbo_verify.budget`).
    """
    check_fidelity(fidelity)
    seed = check_int("seed", seed, 0)
    budget = claim_budget(claim_budget_s, fidelity)
    check_mutants_file(mutants)  # a file that is not mutation results is refused before any claim runs
    rows = select(ids, papers)
    cache = cache if cache is not None else RunCache()
    specs = {r.id: get(r.id) for r in rows}  # loads every check before anything is written
    ex = get_executor(executor, scheduler=scheduler)
    with scratch_folder() as scratch, ex, output_folder(out) as out:
        runtimes = earlier_runtimes(out / "results.json", fidelity)
        doc, rows, not_impl, todo = _start_results(rows, specs, out, fidelity=fidelity, seed=seed, resume=resume,
                                                   progress=progress)
        stored = ResultCache(None if fresh else cache.directory)
        todo, drawn = reuse_results(stored, todo, chosen_reproductions(rows, ids) if reproduce else [], doc, out,
                                    fidelity=fidelity, seed=seed, progress=progress)
        tasks = plan_tasks(todo, drawn, fidelity=fidelity,
                           seed=seed, cache=None if cache.directory is None else str(cache.directory),
                           scratch=scratch, all_reproductions=chosen_reproductions(rows, ()), runtimes=runtimes,
                           longest_first=ex.name != "serial", nested=ex.name == "dask", claim_budget_s=budget)
        recorded = len(doc["claims"])
        try:
            problems = run_tasks(tasks, ex, doc, out, progress, stored, expected=expected_seconds(todo, runtimes))
        except KeyboardInterrupt:
            if len(doc["claims"]) > recorded:  # the progress page says so (a report that wrote nothing leaves none)
                done = {c["id"] for c in doc["claims"]}
                write_progress_page(out, doc, [r.id for r in todo if r.id not in done], StepCounter(len(todo)),
                                    state="interrupted")
            raise
    doc["run"]["reused"] = stored.hits
    doc["mutation"] = mutation_view(mutants)
    path = out / "results.json"
    order = {r.id: i for i, r in enumerate(claim_rows())}
    doc["claims"].sort(key=lambda c: order.get(c["id"], 10**6))
    doc["run"]["finished"] = now()
    dump(doc, path)
    from .html import write_pages

    write_pages(doc, rows, out)
    return ReportOutcome(doc, out, rows, not_impl, problems)


def claim_budget(seconds: float | None, fidelity: str) -> float | None:
    """The CPU seconds each claim may use: ``seconds``, the fidelity's default when it is None, no bound at 0.

    >>> claim_budget(None, "quick"), claim_budget(60, "full"), claim_budget(0, "full")
    (900.0, 60.0, None)
    """
    if seconds is None:
        return DEFAULT_CLAIM_BUDGET_S[fidelity]
    seconds = check_interval("claim_budget_s", seconds, 0.0, MAX_BUDGET_S)
    return None if seconds == 0 else float(seconds)


@contextlib.contextmanager
def scratch_folder() -> Iterator[str]:
    """A private temporary folder for the files tasks draw before the report writes them (removed afterwards,
    also after an error or Ctrl-C, once the workers are gone)."""
    folder = tempfile.mkdtemp(prefix="tvbo-verify-report-")
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _start_results(rows: list[ClaimRow], specs: dict[str, ClaimSpec | None], out: Path, *, fidelity: str,
                   seed: int, resume: bool,
                   progress: Callable[[str], None]) -> tuple[dict, list[ClaimRow], list[str], list[ClaimRow]]:
    """The results document to fill (with an earlier run's trusted records when ``resume``), the claims it
    covers, those not implemented and those still to run."""
    path = out / "results.json"
    done: dict[str, dict] = {}
    if resume and path.exists():
        old = load_results(path)
        if old["run"].get("fidelity") != fidelity:
            raise ValueError(f"results file {path} was written at fidelity {old['run'].get('fidelity')!r}; "
                             f"resume with --fidelity {old['run'].get('fidelity')}")
        if old["run"].get("seed") != seed:
            raise ValueError(f"results file {path} was written with seed {old['run'].get('seed')!r}, not {seed}; "
                             f"resume with --seed {old['run'].get('seed')} or use another --out")
        done, rerun = _kept_claims(old, out, {r.id for r in rows}, progress)
        extra = set(rerun) - {r.id for r in rows}
        rows = [r for r in claim_rows() if r in rows or r.id in extra]
        specs.update({i: get(i) for i in extra})
        doc = old
        doc["claims"] = list(done.values())
        doc["run"]["finished"] = None
    else:
        doc = {"schema": SCHEMA, "run": run_header(seed, fidelity), "claims": []}
    for row in rows:
        if row.id in done:
            progress(f"{row.id:<42} (kept from previous run) {done[row.id]['verdict']}")
    not_impl = [r.id for r in rows if r.id not in done and specs.get(r.id) is None]
    todo = [r for r in rows if r.id not in done and specs.get(r.id) is not None]
    return doc, rows, not_impl, todo


def chosen_reproductions(rows: list[ClaimRow], ids: Iterable[str]) -> list:
    """The reproductions of the papers of ``rows`` or, when claim ``ids`` are given, those deciding or
    illustrating one of them."""
    from ..sweeps.reproduce import reproductions

    ids = set(ids)
    papers = {r.paper for r in rows}
    return [rep for rep in reproductions()
            if (ids and ids & set(rep.claims)) or (not ids and rep.paper in papers)]


def reuse_results(stored: ResultCache, claims: list[ClaimRow], reproductions: list, doc: dict, out: Path, *,
                  fidelity: str, seed: int, progress: Callable[[str], None]) -> tuple[list[ClaimRow], list]:
    """Record the claims and write the reproductions that ``stored`` holds for this code, fidelity and seed
    (each claim judged again by today's pass rule and marked ``reused``); the claims and reproductions still to
    run."""

    def claim(row: ClaimRow) -> bool:
        res = stored.claim(row.id, fidelity, seed)
        if res is not None:
            res.entry = {**refresh(res.entry, fidelity), "reused": True}
            record_claim(res, doc, out)
            progress(f"{row.id:<42} {res.entry['verdict']:<12} reused (same code, fidelity and seed)")
        return res is not None

    def reproduction(rep) -> bool:
        drawn = stored.reproduction(rep.id, fidelity, seed)
        if drawn is not None:
            write_reproduction(drawn, out)
            progress(f"reproduction {rep.id:<42} reused (same code, fidelity and seed)")
        return drawn is not None

    return [r for r in claims if not claim(r)], [r for r in reproductions if not reproduction(r)]


def write_reproduction(rep: ReproductionResult, out: Path) -> None:
    for name, data in rep.files.items():
        (out / REPRODUCTIONS).mkdir(exist_ok=True)
        atomic_write_bytes(out / REPRODUCTIONS / name, data)


def run_tasks(tasks: list[ReportTask], executor: Executor, doc: dict, out: Path,
              progress: Callable[[str], None], stored: ResultCache | None = None,
              expected: dict[str, float] | None = None) -> list[str]:
    """Run ``tasks`` on ``executor`` and write what each returns as it finishes: the reproductions' files, the
    claims' figures and counterexamples, then ``results.json`` (atomically, so an interrupted report keeps
    every finished claim). Each result is kept in ``stored`` for the next report of the same code (a claim
    that ended in error is not: it is tried again). ``expected``: each claim's expected seconds, which weigh
    the estimate of the time left (:class:`~tvbo_verify.report.progress.StepCounter`). The problems of
    reproductions that could not be drawn."""
    stored = stored or ResultCache(None)
    fidelity, seed = (tasks[0].fidelity, tasks[0].seed) if tasks else ("quick", 0)  # shared by every task
    claims = StepCounter(sum(len(t.claims) for t in tasks), expected=expected)
    reproductions = StepCounter(sum(len(t.reproductions) for t in tasks), "reproduction")
    problems: list[str] = []
    # ids in submission order; a new tuple replaces the old one, so the heartbeat's thread never reads it mid-change
    unfinished = tuple(i for t in tasks for i in (*t.claims, *(f"reproduction {r}" for r in t.reproductions)))
    with Heartbeat(progress, lambda: unfinished_status(unfinished)) as beat:
        say = beat.say  # every line restarts the heartbeat's silence count
        for result in executor.map_unordered(run_task, tasks):
            done = {f"reproduction {r.id}" for r in result.reproductions} | {c.entry["id"] for c in result.claims}
            unfinished = tuple(i for i in unfinished if i not in done)
            for rep in result.reproductions:
                write_reproduction(rep, out)
                stored.put_reproduction(rep, fidelity, seed)
                reproductions.step()
                if rep.skipped is not None:
                    say(f"{reproductions.label()} {rep.id:<42} skipped: {rep.skipped}")
                elif rep.problem is not None:
                    problems.append(f"reproduction {rep.id} not drawn: {rep.problem}")
                    say(f"{reproductions.label()} {rep.id:<42} NOT DRAWN: {rep.problem}  "
                        f"{reproductions.remaining()}")
                else:
                    say(f"{reproductions.label()} {rep.id:<42} {rep.seconds:6.1f}s  {reproductions.remaining()}  "
                        f"{rep.finding[:90]}")
            for res in result.claims:
                stored.put_claim(res, fidelity, seed)
                record_claim(res, doc, out)
                claims.step(res.entry["id"])
                entry = res.entry
                mark = ("ok" if entry["matches"] else "disagreement (recorded)") if entry["accepted"] \
                    else f"FAILS: {entry['reason']}"
                say(f"{claims.label()} {entry['id']:<42} {entry['verdict']:<12} expect {entry['expect']:<22} "
                    f"{mark} {entry['runtime_s']:6.1f}s  {claims.remaining()}")
            if result.claims:
                write_progress_page(out, doc, unfinished, claims)
    return problems


def write_progress_page(out: Path, doc: dict, unfinished: Sequence[str], claims: StepCounter, *,
                        state: str = "running") -> None:
    """``index.html`` while the report runs (atomically; the full pages replace it at the end): how many claims
    are done of how many, the time left, every finished claim with its verdict and whether it passes, and what
    is still running or waiting (``unfinished``, in submission order: the running ones first). ``state``:
    ``"running"`` (the page reloads itself every 30 seconds) or ``"interrupted"``."""
    from html import escape

    done = sorted(doc["claims"], key=lambda c: c["id"])
    rows = "\n".join(
        f"<tr><td>{escape(c['id'])}</td><td>{escape(str(c['verdict']))}</td><td>{escape(str(c['expect']))}</td>"
        f"<td>{'passes' if c.get('accepted') is True else 'FAILS: ' + escape(str(c.get('reason') or ''))}</td></tr>"
        for c in done)
    waiting = "".join(f"<li>{escape(i)}</li>" for i in unfinished)
    if state == "interrupted":
        status = ("Interrupted: the claims below are kept in results.json; <code>tvbo-verify report --resume</code> "
                  "with the same options runs the others.")
        refresh = ""
    else:
        left = claims.remaining()
        earlier = len(done) - claims.done
        status = (f"Running: {claims.done} of {claims.total} claims to run are done"
                  f"{escape(f' ({left})') if left else ''}"
                  f"{f', and {earlier} were kept or reused from earlier runs' if earlier > 0 else ''}. "
                  "This page is replaced by the full report when the report ends.")
        refresh = '<meta http-equiv="refresh" content="30">'
    page = (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">{refresh}'
            f"<title>tvbo-verify report ({escape(state)})</title>"
            "<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:1em auto;padding:0 1.5em}"
            "table{border-collapse:collapse}td,th{border:1px solid #d0d7e2;padding:.2em .5em;text-align:left}"
            "</style></head><body>"
            f"<h1>tvbo-verify report: {escape(state)}</h1><p id=\"status\">{status}</p>"
            f"<p>Seed {escape(str(doc['run'].get('seed')))}, fidelity {escape(str(doc['run'].get('fidelity')))}, "
            f"started {escape(str(doc['run'].get('started')))}.</p>"
            f"<h2>Finished ({len(done)})</h2><table><tr><th>claim</th><th>verdict</th><th>expected</th>"
            f"<th>pass rule</th></tr>\n{rows}</table>"
            f"<h2>Running or waiting ({len(unfinished)})</h2><ol id=\"unfinished\">{waiting}</ol>"
            "</body></html>\n")
    write_atomic(out / "index.html", page)


def unfinished_status(ids: Sequence[str], shown: int = 3) -> str:
    """What a report still waits for: the count and the first ``shown`` of ``ids`` in submission order. Tasks
    start in that order, so the running tasks come first; an id leaves the list when its whole task has
    finished (a task may run several claims one after the other).

    >>> unfinished_status(["wgpucb:corollary-5", "wsparq:eq-18", "sparq:lemma-1", "bolt:table-3"])
    '4 unfinished, in submission order: wgpucb:corollary-5, wsparq:eq-18, sparq:lemma-1, …'
    """
    if not ids:
        return ""  # nothing to wait for: the heartbeat stays silent
    more = ", …" if len(ids) > shown else ""
    return f"{len(ids)} unfinished, in submission order: {', '.join(list(ids)[:shown])}{more}"


def record_claim(res: ClaimResult, doc: dict, out: Path) -> None:
    """Write a finished claim's figures and counterexample, add its sealed entry to ``doc`` and write
    ``results.json``."""
    for name, text in res.files.items():
        write_atomic(out / "figures" / name, text)
    remember_formulas(res.formulas)
    entry = res.entry
    ce_file = counterexample_path(out, entry["id"])
    if entry.get("counterexample") is not None:
        write_atomic(ce_file, json.dumps(entry["counterexample"], indent=1) + "\n")
    elif ce_file.exists():  # a counterexample of an earlier run no longer applies
        ce_file.unlink()
    doc["claims"].append(seal(entry))
    dump(doc, out / "results.json")


def summary_lines(outcome: ReportOutcome) -> list[str]:
    """The terminal summary: per paper, counts by verdict, not implemented and failing the pass rule; the
    coverage line of the selected claims; every recorded disagreement and every failing verdict with its
    reason."""
    cols = ("confirmed", "violated", "inconclusive", "error")
    head = f"{'paper':<9}" + "".join(f"{c:>13}" for c in cols) + f"{'not impl.':>11}{'failing':>10}"
    lines = [head, "-" * len(head)]
    papers = sorted({r.paper for r in outcome.selected}, key=lambda p: [r.paper for r in claim_rows()].index(p))
    for p in papers:
        cs = [c for c in outcome.results["claims"] if c["paper"] == p]
        ni = sum(1 for r in outcome.selected if r.paper == p and get(r.id) is None)
        counts = "".join(f"{sum(c['verdict'] == v for c in cs):>13}" for v in cols)
        lines.append(f"{p:<9}{counts}{ni:>11}{sum(c.get('accepted') is not True for c in cs):>10}")
    by_id = {c["id"]: c for c in outcome.results["claims"]}
    lines.append(coverage_text(coverage(outcome.selected, by_id, outcome.out,
                                        scope_of(outcome.selected, claim_rows()))))
    for c in outcome.results["claims"]:
        if c.get("accepted") is not True:
            why = f" ({c.get('summary', '')[:200]})" if c["verdict"] == "error" else ""  # which error, e.g. a budget
            lines.append(f"fails: {c['id']} verdict {c['verdict']}, expected {c['expect']}: "
                         f"{c.get('reason') or 'not judged by the pass rule'}{why}")
        elif not c["matches"]:
            lines.append(f"disagreement (recorded in the claim list): {c['id']} measured {c['verdict']}, "
                         f"the papers' reading expects {c['expect']}")
    lines += [f"fails: {problem}" for problem in outcome.problems]
    reused = outcome.results.get("run", {}).get("reused")
    if reused:
        lines.append(f"reused {reused} results computed earlier by the same code, libraries, "
                     "fidelity and seed (--fresh recomputes them)")
    lines.append(f"report: {outcome.out / 'index.html'}  results: {outcome.out / 'results.json'}")
    return lines
