"""``tvbo-verify report``: run the selected claims, write results.json after each, render index.html.

Every claim is judged by the one pass rule (:mod:`tvbo_verify.verify.passing`); its check receives the
report's executor and run cache in its context. Progress goes to the ``progress`` callback, one line
per claim and per reproduction with the count done and the time left. The output folder is created
only once the checks are loaded, its ``figures`` and ``counterexamples`` folders only when a file goes
into them; a report that fails before it wrote anything removes the folder it created.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..errors import MissingExtraError
from ..execution import Executor, get_executor
from ..files import removed_if_empty_on_error, safe_name, writable_folder
from ..sweeps import RunCache
from ..validation import check_choice
from ..verify.claimlist import ClaimRow, check_paper, claim_row, claim_rows
from ..verify.engine import FIDELITIES, run_claim
from ..verify.evidence import Evidence, Verdict
from ..verify.registry import ClaimSpec, get
from .coverage import coverage, coverage_text, scope_of
from .figures import instance_margins_figure, to_svg
from .progress import StepCounter
from .results import SCHEMA, claim_entry, dump, load_results, now, run_header, write_atomic
from .trust import REPLAY_BY_RERUN, audit, counterexample_path, refresh, seal


@dataclass
class ReportOutcome:
    results: dict
    out: Path
    selected: list[ClaimRow]
    not_implemented: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every verdict in the results passes the pass rule."""
        return all(c.get("accepted") is True for c in self.results["claims"])


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
    """:func:`prepare_out` for the body of a report; when the body fails (or is interrupted), the folders
    this call created are removed again as long as they are still empty (nothing half-made left behind)."""
    out = Path(out)
    with removed_if_empty_on_error(out / "figures", out / "counterexamples", out):
        yield prepare_out(out)


def save_figures(out: Path, claim_id: str, ev: Evidence) -> list[dict[str, str | None]]:
    """Render the evidence's figures to ``out/figures/<id>-<k>.svg`` (the page loads them lazily).

    A violated claim whose check attaches no figure gets one drawn from its instance table (the
    margin of each row, the counterexample starred). A figure that fails to render is listed with
    its problem (shown in the report), never dropped silently; a figure that draws a title of
    several lines gets a note (its details belong in the caption).
    """
    figures = list(ev.figures)
    if ev.verdict is Verdict.VIOLATED and not figures and ev.instances:
        figures.append((f"margins of the instances of {claim_id} (drawn by the report)",
                        lambda: instance_margins_figure(ev.instances, title=claim_id)))
    listed: list[dict[str, str | None]] = []
    for k, (title, factory) in enumerate(figures):
        name = f"{safe_name(claim_id)}-{k}.svg"
        problems: list[str] = []
        try:
            svg = to_svg(factory, problems)
        except Exception as exc:  # a broken figure must not lose the verdict
            problem = f"{type(exc).__name__}: {exc}"
            ev.stats.setdefault("notes", []).append(f"figure {title!r} failed: {problem}")
            listed.append({"title": title, "file": None, "problem": problem})
            continue
        if problems:
            ev.stats.setdefault("notes", []).extend(f"figure {title!r} draws {p}" for p in problems)
        comment = title.replace("--", "- -")  # an XML comment holds no "--": the file stays a valid image
        write_atomic(out / "figures" / name, f"<!-- {comment} -->\n{svg}")
        listed.append({"title": title, "file": name})
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
    executor: str = "serial",
    scheduler: str | None = None,
    progress: Callable[[str], None] = lambda s: None,
    reproduce: bool = True,
    cache: RunCache | None = None,
) -> ReportOutcome:
    """Run the selected implemented claims and write ``results.json`` and ``index.html`` into ``out``.

    Every check and reproduction uses ``executor`` and the run cache ``cache`` (default: the cache at its
    default location; ``RunCache(None)`` reads and writes no run). With ``reproduce`` the reproductions
    of the selected papers (or, when claim ids are given, those deciding or illustrating them) are run
    too, into ``out/reproductions`` for the figures section of the page. ``progress`` receives one line
    per claim and per reproduction: ``[done/total] ... eta <time left>``.
    """
    check_choice("fidelity", fidelity, FIDELITIES)
    rows = select(ids, papers)
    cache = cache if cache is not None else RunCache()
    specs = {r.id: get(r.id) for r in rows}  # loads every check before anything is written
    ex = get_executor(executor, scheduler=scheduler)
    try:
        with output_folder(out) as out:
            doc, rows, not_impl = _run_claims(rows, specs, out, fidelity=fidelity, seed=seed, resume=resume,
                                              executor=ex, cache=cache, progress=progress)
            if reproduce:
                run_selected_reproductions(rows, ids, out, fidelity=fidelity, executor=ex, cache=cache,
                                           seed=int(doc["run"]["seed"]), progress=progress)
    finally:
        ex.close()
    path = out / "results.json"
    order = {r.id: i for i, r in enumerate(claim_rows())}
    doc["claims"].sort(key=lambda c: order.get(c["id"], 10**6))
    doc["run"]["finished"] = now()
    dump(doc, path)
    from .html import write_pages

    write_pages(doc, rows, out)
    return ReportOutcome(doc, out, rows, not_impl)


def _run_claims(rows: list[ClaimRow], specs: dict[str, ClaimSpec | None], out: Path, *, fidelity: str, seed: int,
                resume: bool, executor: Executor, cache: RunCache,
                progress: Callable[[str], None]) -> tuple[dict, list[ClaimRow], list[str]]:
    """Run the claims of ``rows`` (keeping an earlier run's trusted records with ``resume``), writing
    ``results.json`` after each; the results document, the claims covered and those not implemented."""
    path = out / "results.json"
    done: dict[str, dict] = {}
    if resume and path.exists():
        old = load_results(path)
        if old["run"].get("fidelity") != fidelity:
            raise ValueError(f"results file {path} was written at fidelity {old['run'].get('fidelity')!r}; "
                             f"resume with --fidelity {old['run'].get('fidelity')}")
        done, rerun = _kept_claims(old, out, {r.id for r in rows}, progress)
        extra = set(rerun) - {r.id for r in rows}
        rows = [r for r in claim_rows() if r in rows or r.id in extra]
        specs.update({i: get(i) for i in extra})
        doc = old
        doc["claims"] = list(done.values())
        doc["run"]["finished"] = None
    else:
        doc = {"schema": SCHEMA, "run": run_header(seed, fidelity), "claims": []}
    seed = int(doc["run"]["seed"])  # a resumed run keeps its seed (and every claim already in the file)
    for row in rows:
        if row.id in done:
            progress(f"{row.id:<42} (kept from previous run) {done[row.id]['verdict']}")
    not_impl = [r.id for r in rows if r.id not in done and specs.get(r.id) is None]
    todo = [r for r in rows if r.id not in done and specs.get(r.id) is not None]
    counter = StepCounter(len(todo))
    for row in todo:
        ev = run_claim(row.id, fidelity=fidelity, seed=seed, executor=executor, cache=cache)
        assert ev is not None
        entry = claim_entry(row, ev, fidelity)
        entry["figures"] = save_figures(out, row.id, ev)
        ce_file = counterexample_path(out, row.id)
        if ev.counterexample is not None:
            write_atomic(ce_file, json.dumps(entry["counterexample"], indent=1) + "\n")
        elif ce_file.exists():  # a counterexample of an earlier run no longer applies
            ce_file.unlink()
        doc["claims"].append(seal(entry))
        dump(doc, path)
        counter.step()
        mark = ("ok" if entry["matches"] else "disagreement (recorded)") if entry["accepted"] \
            else f"FAILS: {entry['reason']}"
        progress(f"{counter.label()} {row.id:<42} {ev.verdict.value:<12} expect {row.expect:<22} {mark} "
                 f"{ev.runtime_s:6.1f}s  {counter.remaining()}")
    return doc, rows, not_impl


def run_selected_reproductions(rows: list[ClaimRow], ids: Iterable[str], out: Path, *, fidelity: str,
                               executor: Executor, cache: RunCache, seed: int,
                               progress: Callable[[str], None]) -> list[str]:
    """Reproduce the figures of the selected papers (or of the given claim ids) into ``out/reproductions``."""
    from ..sweeps.reproduce import reproductions, run_reproduction

    ids = set(ids)
    papers = {r.paper for r in rows}
    chosen = [rep for rep in reproductions()
              if (ids and ids & set(rep.claims)) or (not ids and rep.paper in papers)]
    done = []
    counter = StepCounter(len(chosen), "reproduction")
    for rep in chosen:
        try:
            outcome = run_reproduction(rep, out / "reproductions", fidelity=fidelity, executor=executor,
                                       cache=cache, seed=seed, progress=False)
        except MissingExtraError as exc:  # e.g. the real-data analogues without the extra 'data'
            counter.step()
            progress(f"{counter.label()} {rep.id:<42} skipped: {exc}")
            continue
        counter.step()
        progress(f"{counter.label()} {rep.id:<42} {outcome.seconds:6.1f}s  {counter.remaining()}  "
                 f"{outcome.finding.text[:90]}")
        done.append(rep.id)
    return done


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
            lines.append(f"fails: {c['id']} verdict {c['verdict']}, expected {c['expect']}: "
                         f"{c.get('reason') or 'not judged by the pass rule'}")
        elif not c["matches"]:
            lines.append(f"disagreement (recorded in the claim list): {c['id']} measured {c['verdict']}, "
                         f"the papers' reading expects {c['expect']}")
    lines.append(f"report: {outcome.out / 'index.html'}  results: {outcome.out / 'results.json'}")
    return lines
