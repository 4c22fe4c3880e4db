"""The mutation results: the document written to ``reports/mutants.json``, its scores and its text rendering.

Schema (``"schema": 1``)::

    {"schema": 1, "kind": "mutants",
     "run": {"version", "git", "code_digest", "probes_digest", "fidelity", "seed", "exhaustive", "budget_s",
             "wall_budget_s", "probe_workers",
             "filters": {"papers", "kinds", "mutants"}, "started", "finished", "wall_s", "baseline_s"},
     "mutants": [{"name", "target", "layer", "policy", "description", "patch", "equivalent",
                  "status", "killers": [ID], "error_killers": [ID], "candidates": [ID],
                  "tried": [{"claim", "verdict", "accepted", "baseline_verdict", "kill", "runtime_s", "summary"}],
                  "seconds", "note", "run_based_search_incomplete"}],
     "claims": {ID: {"paper", "kind", "kills": [mutant], "error_kills": [mutant], "tried_by": N,
                     "baseline": {"verdict", "power_caught", "accepted", "runtime_s", "called": [target]} | null}},
     "score": {"killed", "killed_by_error", "considered", "equivalent", "not_reached", "score",
               "score_by_verdict", "not_run": [name], "not_finished": [name], "score_counting_not_run",
               "survivors": [{"name", "status"}],
               "per_paper": {P: {"reachable", "killed"}}, "per_kind": {K: {"reachable", "killed"}},
               "policies": {FAMILY: {"mutants", "run_based", "exact_only", "not_killed", "search_incomplete"}}}}

``status`` is one of ``killed`` (a verdict stopped being accepted), ``killed-by-error`` (only crashes of
claims that do not crash unmutated), ``survived`` (every claim that executes the mutated function ran, none
killed), ``timed-out`` (the budget ran out first), ``not-applied`` (the patch no longer fits the code),
``not-reached`` (no selected claim with an accepted verdict executes the mutated function), ``equivalent``
(argued harmless, not run) or ``not-run`` (the wall-time budget of the run ended first). ``candidates`` lists
the claims found to execute the mutated function with an accepted unmutated verdict, in the order tried;
``claims[ID].baseline.called`` is the profile behind it (the catalog targets the claim executes when run
alone). ``score`` is killed (either kind) over considered (every mutant except equivalent, not reached and not
run); ``score_by_verdict`` counts verdict kills only; ``score_counting_not_run`` counts the mutants not run as
survivors. ``not_finished`` names the mutants the budgets cut (timed out or not run). Without ``exhaustive``
each mutant stops at its first verdict kill (a policy mutant at its first kill by a claim decided from runs,
when the budget allows: ``run_based_search_incomplete`` otherwise), so ``killers`` and the per-paper and
per-kind counts are lower bounds. ``claims[ID].kills`` is what the report shows per claim. """

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Iterable, Mapping

from .. import __version__
from ..files import atomic_write_text
from ..verify.claimlist import claim_row
from .affects import ROOT
from .catalog import CATALOG
from .harness import (
    EQUIVALENT,
    KILLED,
    KILLED_BY_ERROR,
    NOT_REACHED,
    NOT_RUN,
    TIMED_OUT,
    Baselines,
    MutantRun,
    Settings,
)

SCHEMA = 1
DEFAULT_OUT = Path("reports/mutants.json")


def code_digest() -> str:
    """SHA-256 over the sources a claim's verdict can depend on (the package without the command line, the report
    and the mutation harness) and the claim list: baselines measured with another digest are measured again."""
    h = hashlib.sha256()
    skip = [ROOT / "cli", ROOT / "report", ROOT / "verify" / "mutants"]
    for path in sorted(p for p in ROOT.rglob("*") if p.suffix in (".py", ".csv", ".json")):
        if not any(folder in path.parents for folder in skip):
            h.update(str(path.relative_to(ROOT)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def probes_digest() -> str:
    """Digest of the catalog's targets: a profile records which of these a claim calls."""
    return hashlib.sha256("\n".join(sorted({m.target for m in CATALOG})).encode()).hexdigest()[:16]


def reusable_baselines(doc: Mapping[str, Any] | None, settings: Settings, digest: str) -> dict[str, dict[str, Any]]:
    """Baselines of an earlier results document measured on the same code, fidelity and seed, and profiled for
    the same catalog targets."""
    if not doc or doc.get("schema") != SCHEMA:
        return {}
    run = doc.get("run", {})
    same = (run.get("code_digest"), run.get("probes_digest"), run.get("fidelity"), run.get("seed"))
    if same != (digest, probes_digest(), settings.fidelity, settings.seed):
        return {}
    return {cid: c["baseline"] for cid, c in doc.get("claims", {}).items()
            if isinstance(c, dict) and isinstance(c.get("baseline"), dict) and c["baseline"].get("verdict")}


def _killed(run: MutantRun) -> bool:
    return run.status in (KILLED, KILLED_BY_ERROR)


def reaching(run: MutantRun, baselines: Baselines) -> set[str]:
    """Claims known to be able to notice the mutant: its candidates and every claim profiled so far with an
    accepted verdict that executes its target."""
    target = run.mutant.target
    profiled = {cid for cid, b in baselines.outcomes.items()
                if b.get("accepted") and target in (b.get("called") or ())}
    return profiled | set(run.candidates)


def _reach_and_kills(runs: list[MutantRun], baselines: Baselines, key: str) -> dict[str, dict[str, int]]:
    """Per paper or kind (``key``): mutants reaching a claim there, and those killed by a claim there."""
    out: dict[str, dict[str, int]] = {}
    for run in runs:
        reach = {getattr(claim_row(c), key) for c in reaching(run, baselines)}
        kill = {getattr(claim_row(c), key) for c in run.killers + run.error_killers}
        for value in reach:
            slot = out.setdefault(value, {"reachable": 0, "killed": 0})
            slot["reachable"] += 1
            slot["killed"] += value in kill
    return dict(sorted(out.items()))


def _policies(runs: list[MutantRun]) -> dict[str, dict[str, list[str]]]:
    """Per policy family: its mutants killed by a claim decided from runs (by its verdict, or refused by its
    definition audit), killed only by exact or structural claims (or other errors), not killed; and those whose
    search for a run-based kill the budget cut short."""
    out: dict[str, dict[str, list[str]]] = {}
    for run in runs:
        family = run.mutant.policy
        if family is None:
            continue
        slot = out.setdefault(family, {"mutants": [], "run_based": [], "exact_only": [], "not_killed": [],
                                       "search_incomplete": []})
        slot["mutants"].append(run.mutant.name)
        if run.killed_by_a_run:
            slot["run_based"].append(run.mutant.name)
        elif _killed(run):
            slot["exact_only"].append(run.mutant.name)
        else:
            slot["not_killed"].append(run.mutant.name)
        if run.incomplete:
            slot["search_incomplete"].append(run.mutant.name)
    return out


def score(runs: Iterable[MutantRun], baselines: Baselines) -> dict[str, Any]:
    """The mutation score and its breakdowns (see the module docstring)."""
    runs = list(runs)
    considered = [r for r in runs if r.status not in (EQUIVALENT, NOT_REACHED, NOT_RUN)]
    not_run = [r.mutant.name for r in runs if r.status == NOT_RUN]
    killed = [r for r in considered if _killed(r)]
    by_verdict = [r for r in considered if r.status == KILLED]
    return {
        "killed": len(killed),
        "killed_by_error": len(killed) - len(by_verdict),
        "considered": len(considered),
        "equivalent": sum(r.status == EQUIVALENT for r in runs),
        "not_reached": sum(r.status == NOT_REACHED for r in runs),
        "score": len(killed) / len(considered) if considered else None,
        "score_by_verdict": len(by_verdict) / len(considered) if considered else None,
        "not_run": not_run,
        "not_finished": [r.mutant.name for r in considered if r.status == TIMED_OUT] + not_run,
        "score_counting_not_run": (len(killed) / (len(considered) + len(not_run))
                                   if considered or not_run else None),
        "survivors": [{"name": r.mutant.name, "status": r.status} for r in considered if not _killed(r)],
        "per_paper": _reach_and_kills(considered, baselines, "paper"),
        "per_kind": _reach_and_kills(considered, baselines, "kind"),
        "policies": _policies(considered),
    }


def unkilled(doc: Mapping[str, Any]) -> list[str]:
    """The mutants of a results document that are neither killed nor argued equivalent (survived, timed out, not
    run, not applied, not reached): a run passes only when there is none."""
    return [m["name"] for m in doc["mutants"] if m["status"] not in (KILLED, KILLED_BY_ERROR, EQUIVALENT)]


def claims_section(runs: Iterable[MutantRun], baselines: Baselines) -> dict[str, dict[str, Any]]:
    """Per claim that ran: the mutants it kills (by verdict and by error) and its unmutated outcome."""
    out: dict[str, dict[str, Any]] = {}

    def slot(cid: str) -> dict[str, Any]:
        if cid not in out:
            row = claim_row(cid)
            out[cid] = {"paper": row.paper, "kind": row.kind, "kills": [], "error_kills": [], "tried_by": 0,
                        "baseline": baselines.outcomes.get(cid)}
        return out[cid]

    for run in runs:
        for t in run.trials:
            s = slot(t.claim)
            s["tried_by"] += 1
            if t.kill == "verdict":
                s["kills"].append(run.mutant.name)
            elif t.kill == "error":
                s["error_kills"].append(run.mutant.name)
    for cid in baselines.outcomes:
        slot(cid)
    return dict(sorted(out.items()))


def document(header: dict[str, Any], runs: list[MutantRun], baselines: Baselines) -> dict[str, Any]:
    return {"schema": SCHEMA, "kind": "mutants", "run": header, "mutants": [r.to_dict() for r in runs],
            "claims": claims_section(runs, baselines), "score": score(runs, baselines)}


def header(settings: Settings, filters: dict[str, Any], digest: str, started: str,
           git: str | None = None) -> dict[str, Any]:
    """The ``run`` record; ``git`` is the commit of the source tree when the caller knows it."""
    return {"version": __version__, "git": git, "code_digest": digest, "probes_digest": probes_digest(),
            "fidelity": settings.fidelity, "seed": settings.seed, "exhaustive": settings.exhaustive,
            "budget_s": settings.budget_s, "wall_budget_s": settings.wall_budget_s,
            "probe_workers": settings.probe_workers, "filters": filters,
            "started": started, "finished": None, "wall_s": None, "baseline_s": None}


def write(doc: dict[str, Any], path: Path) -> None:
    """Write ``doc`` atomically (the folder is created)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(doc, indent=1, allow_nan=False) + "\n")


def load(path: Path) -> dict[str, Any] | None:
    """An earlier results document, or None when there is none or it cannot be read."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def _pct(killed: int, total: int) -> str:
    return f"{killed}/{total} ({100.0 * killed / total:.0f} %)" if total else "0/0"


def render(doc: dict[str, Any]) -> list[str]:
    """The terminal view: kill matrix, score per paper and kind, survivors, policies by killing claim."""
    lines = [f"{'mutant':<40} {'layer':<12} {'status':<16} killing claims"]
    for m in doc["mutants"]:
        killers = ", ".join(m["killers"] + [f"{c} (error)" for c in m["error_killers"]]) or m["note"]
        lines.append(f"{m['name']:<40} {m['layer']:<12} {m['status']:<16} {killers}")
    s = doc["score"]
    lines.append("")
    lines.append(f"mutation score: {_pct(s['killed'], s['considered'])} killed "
                 f"({s['killed_by_error']} only by errors), {s['equivalent']} argued equivalent, "
                 f"{s['not_reached']} not reached by any claim")
    if not doc["run"]["exhaustive"]:
        lines.append("first-kill mode: each mutant stopped at its first kill; per-paper and per-kind counts are lower "
                     "bounds (--exhaustive fills the matrix)")
    for title, key in (("paper", "per_paper"), ("kind of claim", "per_kind")):
        parts = [f"{k} {_pct(v['killed'], v['reachable'])}" for k, v in s[key].items()]
        lines.append(f"killed per {title} (of the mutants reaching it): " + "; ".join(parts))
    if s.get("not_run"):
        lines.append(f"not run (wall-time budget ended): {', '.join(s['not_run'])}; score counting them as "
                     f"survivors: {100.0 * s['score_counting_not_run']:.0f} %")
    surv = ", ".join(f"{x['name']} ({x['status']})" for x in s["survivors"]) or "none"
    lines.append(f"survivors: {surv}")
    unaccepted = [f"{cid} ({c['baseline']['verdict']})" for cid, c in doc["claims"].items()
                  if c["baseline"] and not c["baseline"]["accepted"]]
    if unaccepted:
        lines.append("claims not accepted unmutated (they cannot kill): " + ", ".join(unaccepted))
    for family, p in s["policies"].items():
        lines.append(f"policy {family}: killed by a run-based claim: {', '.join(p['run_based']) or '-'}; "
                     f"only by exact/structural claims: {', '.join(p['exact_only']) or '-'}; "
                     f"not killed: {', '.join(p['not_killed']) or '-'}"
                     + (f" (run-based search cut by the budget: {', '.join(p['search_incomplete'])})"
                        if p["search_incomplete"] else ""))
    return lines
