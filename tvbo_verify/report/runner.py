"""``tvbo-verify report``: run the selected claims, write results.json after each, render index.html."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from ..errors import MissingExtraError
from ..execution import Executor, get_executor
from ..files import safe_name
from ..sweeps import RunCache
from ..validation import check_choice
from ..verify.claimlist import ClaimRow, check_paper, claim_row, claim_rows
from ..verify.engine import FIDELITIES, run_claim
from ..verify.evidence import Evidence, Verdict
from ..verify.registry import get
from .coverage import coverage, coverage_text
from .figures import instance_margins_figure, to_svg
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
        return all(c.get("accepted", c["matches"]) for c in self.results["claims"])


def select(ids: Iterable[str] = (), papers: Iterable[str] = ()) -> list[ClaimRow]:
    """Claims chosen by id and/or paper (all when neither is given), in claim-list order."""
    ids, papers = list(ids), [check_paper(p) for p in papers]
    for i in ids:
        claim_row(i)
    return [r for r in claim_rows()
            if (not ids and not papers) or r.id in ids or r.paper in papers]


def prepare_out(out: Path) -> Path:
    """Create ``out`` and prove it writable; ``ValueError`` with one line otherwise."""
    out = Path(out)
    try:
        (out / "figures").mkdir(parents=True, exist_ok=True)
        (out / "counterexamples").mkdir(exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=out, prefix=".probe")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise ValueError(f"output folder {out} is not writable: {exc.strerror or exc}") from None
    return out


def save_figures(out: Path, claim_id: str, ev: Evidence) -> list[dict[str, str | None]]:
    """Render the evidence's figures to ``out/figures/<id>-<k>.svg``.

    A violated claim whose check attaches no figure gets one drawn from its instance table (the
    margin of each row, the counterexample starred). A figure that fails to render is listed with
    its problem (shown in the report), never dropped silently.
    """
    figures = list(ev.figures)
    if ev.verdict is Verdict.VIOLATED and not figures and ev.instances:
        figures.append((f"margins of the instances of {claim_id} (drawn by the report)",
                        lambda: instance_margins_figure(ev.instances, title=claim_id)))
    listed: list[dict[str, str | None]] = []
    for k, (title, factory) in enumerate(figures):
        name = f"{safe_name(claim_id)}-{k}.svg"
        try:
            svg = to_svg(factory)
        except Exception as exc:  # a broken figure must not lose the verdict
            problem = f"{type(exc).__name__}: {exc}"
            ev.stats.setdefault("notes", []).append(f"figure {title!r} failed: {problem}")
            listed.append({"title": title, "file": None, "problem": problem})
            continue
        write_atomic(out / "figures" / name, f"<!-- {title} -->\n{svg}")
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

    With ``reproduce`` the reproductions of the selected papers (or, when claim ids are given, those
    deciding or illustrating them) are run too, on the same executor and run cache, into
    ``out/reproductions`` for the figures section of the page.
    """
    check_choice("fidelity", fidelity, FIDELITIES)
    rows = select(ids, papers)
    ex = get_executor(executor, scheduler=scheduler)
    out = prepare_out(out)
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
        doc = old
        doc["claims"] = list(done.values())
        doc["run"]["finished"] = None
    else:
        doc = {"schema": SCHEMA, "run": run_header(seed, fidelity), "claims": []}
    seed = int(doc["run"]["seed"])  # a resumed run keeps its seed (and every claim already in the file)
    not_impl = []
    try:
        for row in rows:
            if row.id in done:
                progress(f"{row.id:<42} (kept from previous run) {done[row.id]['verdict']}")
                continue
            if get(row.id) is None:
                not_impl.append(row.id)
                continue
            ev = run_claim(row.id, fidelity=fidelity, seed=seed, executor=ex)
            assert ev is not None
            figures = save_figures(out, row.id, ev)
            entry = claim_entry(row, ev, fidelity)
            entry["figures"] = figures
            ce_file = counterexample_path(out, row.id)
            if ev.counterexample is not None:
                write_atomic(ce_file, json.dumps(entry["counterexample"], indent=1) + "\n")
            elif ce_file.exists():  # a counterexample of an earlier run no longer applies
                ce_file.unlink()
            doc["claims"].append(seal(entry))
            dump(doc, path)
            mark = "ok " if entry["matches"] else "disagreement (recorded)" if entry["accepted"] else "MISMATCH"
            progress(f"{row.id:<42} {ev.verdict.value:<12} expect {row.expect:<22} {mark} {ev.runtime_s:6.1f}s")
        if reproduce:
            run_selected_reproductions(rows, ids, out, fidelity=fidelity, executor=ex, cache=cache, seed=seed,
                                       progress=progress)
    finally:
        ex.close()
    order = {r.id: i for i, r in enumerate(claim_rows())}
    doc["claims"].sort(key=lambda c: order.get(c["id"], 10**6))
    doc["run"]["finished"] = now()
    dump(doc, path)
    from .html import render_index

    write_atomic(out / "index.html", render_index(doc, rows, out))
    return ReportOutcome(doc, out, rows, not_impl)


def run_selected_reproductions(rows: list[ClaimRow], ids: Iterable[str], out: Path, *, fidelity: str,
                               executor: Executor, cache: RunCache | None, seed: int,
                               progress: Callable[[str], None]) -> list[str]:
    """Reproduce the figures of the selected papers (or of the given claim ids) into ``out/reproductions``."""
    from ..sweeps.reproduce import reproductions, run_reproduction

    ids = set(ids)
    papers = {r.paper for r in rows}
    chosen = [rep for rep in reproductions()
              if (ids and ids & set(rep.claims)) or (not ids and rep.paper in papers)]
    done = []
    for rep in chosen:
        try:
            outcome = run_reproduction(rep, out / "reproductions", fidelity=fidelity, executor=executor,
                                       cache=cache, seed=seed, progress=False)
        except MissingExtraError as exc:  # e.g. the real-data analogues without the extra 'data'
            progress(f"{'reproduction ' + rep.id:<42} skipped: {exc}")
            continue
        progress(f"{'reproduction ' + rep.id:<42} {outcome.seconds:6.1f}s  {outcome.finding.text[:90]}")
        done.append(rep.id)
    return done


def summary_lines(outcome: ReportOutcome) -> list[str]:
    """The terminal summary: per paper, counts by verdict, not implemented and mismatches; the coverage line."""
    cols = ("confirmed", "violated", "inconclusive", "error")
    head = f"{'paper':<9}" + "".join(f"{c:>13}" for c in cols) + f"{'not impl.':>11}{'mismatch':>10}"
    lines = [head, "-" * len(head)]
    papers = sorted({r.paper for r in outcome.selected}, key=lambda p: [r.paper for r in claim_rows()].index(p))
    for p in papers:
        cs = [c for c in outcome.results["claims"] if c["paper"] == p]
        ni = sum(1 for r in outcome.selected if r.paper == p and get(r.id) is None)
        counts = "".join(f"{sum(c['verdict'] == v for c in cs):>13}" for v in cols)
        lines.append(f"{p:<9}{counts}{ni:>11}{sum(not c.get('accepted', c['matches']) for c in cs):>10}")
    by_id = {c["id"]: c for c in outcome.results["claims"]}
    lines.append(coverage_text(coverage(claim_rows(), by_id, outcome.out)))
    for c in outcome.results["claims"]:
        if c["matches"]:
            continue
        if c.get("accepted"):
            lines.append(f"disagreement (recorded in the claim list): {c['id']} measured {c['verdict']}, "
                         f"the papers' reading expects {c['expect']}")
        else:
            lines.append(f"mismatch: {c['id']} verdict {c['verdict']} but expected {c['expect']}")
    lines.append(f"report: {outcome.out / 'index.html'}  results: {outcome.out / 'results.json'}")
    return lines
