"""``results.json``: schema 1, written atomically (temporary file + ``os.replace``) after each claim.

Layout::

    {"schema": 1,
     "run": {"version", "git", "seed", "fidelity", "started", "finished", "machine", "reused"},
     "claims": [{"id", "paper", "ref", "kind", "expect", "verdict", "matches", "accepted", "reason",
                 "summary", "margin", "power", "counterexample", "stats", "runtime_s",
                 "controls": [{"name", "description", "verdict", "failed", "detail", "statistic"}],
                 "figures": [{"title", "file"}], "digest"}]}

``matches``: the verdict is the one the expectation calls for; ``accepted`` and ``reason``: the pass
rule of :mod:`tvbo_verify.verify.passing` (the reason is null when the verdict passes).
``run.reused`` counts the claims and reproductions taken from the result cache
(:mod:`tvbo_verify.report.result_cache`), each such claim marked ``"reused": true``. ``mutation`` (null
when there is none): the mutation results the pages show (:func:`tvbo_verify.report.mutation.mutation_view`).
``figures`` lists the files written to ``OUT/figures``; ``digest`` seals the record
(:mod:`tvbo_verify.report.trust`), so that ``--resume`` detects an edited record and reruns the claim.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import __version__
from ..files import atomic_write_text
from ..jsonify import to_jsonable
from ..verify.claimlist import ClaimRow, matches
from ..verify.evidence import Evidence, Verdict
from ..verify.passing import judge_evidence

SCHEMA = 1
CLAIM_KEYS = ("id", "paper", "ref", "kind", "expect", "verdict", "matches", "summary", "margin", "power",
              "counterexample", "stats", "runtime_s")
#: written with every record since the report checks its own trust (absent in older files: those are rerun)
OPTIONAL_KEYS = ("figures", "digest", "accepted", "reason", "controls")
VERDICTS = {v.value for v in Verdict}


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def git_revision() -> str | None:
    """The commit of the source tree, when it is a git checkout (else None)."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=Path(__file__).resolve().parent,
                             capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def run_header(seed: int, fidelity: str) -> dict[str, Any]:
    return {
        "version": __version__,
        "git": git_revision(),
        "seed": int(seed),
        "fidelity": fidelity,
        "started": now(),
        "finished": None,
        "machine": {"platform": platform.platform(), "python": platform.python_version(),
                    "cpus": os.cpu_count()},
    }


def claim_entry(row: ClaimRow, ev: Evidence, fidelity: str | None = None) -> dict[str, Any]:
    """One ``claims[]`` entry of results.json from a claim row and its evidence measured at ``fidelity``."""
    stats = dict(ev.stats)
    judgement = judge_evidence(row, ev, fidelity)
    if ev.instances:
        stats.setdefault("instances", ev.instances)
    return to_jsonable({
        "id": row.id,
        "paper": row.paper,
        "ref": row.ref,
        "kind": row.kind,
        "expect": row.expect,
        "verdict": ev.verdict.value,
        "matches": matches(ev.verdict, row.expect),
        "accepted": judgement.accepted,
        "reason": judgement.reason,
        "summary": ev.summary,
        "margin": ev.margin,
        "power": ev.power.to_dict() if ev.power is not None else None,
        "counterexample": ev.counterexample,
        "stats": stats,
        "runtime_s": ev.runtime_s,
        "controls": [c.to_dict() for c in ev.controls],
    })


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (:func:`tvbo_verify.files.atomic_write_text`), creating its
    folder first (the report's ``figures`` and ``counterexamples`` appear with their first file)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text)


def dump(doc: dict[str, Any], path: Path) -> None:
    write_atomic(path, json.dumps(doc, indent=1, allow_nan=False) + "\n")


def load_results(path: Path) -> dict[str, Any]:
    """Read and validate a results file; ``ValueError`` with one clear line when it is corrupt."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read results file {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"results file {path} is corrupt (invalid JSON at line {exc.lineno}); "
                         "delete it or run without --resume") from None
    problem = _schema_problem(doc)
    if problem:
        raise ValueError(f"results file {path} is corrupt ({problem}); delete it or run without --resume")
    return doc


def _schema_problem(doc: Any) -> str | None:
    if not isinstance(doc, dict):
        return "top level is not an object"
    if doc.get("schema") != SCHEMA:
        return f"schema is {doc.get('schema')!r}, expected {SCHEMA}"
    if not isinstance(doc.get("run"), dict) or not isinstance(doc.get("claims"), list):
        return "missing run or claims"
    for i, c in enumerate(doc["claims"]):
        if not isinstance(c, dict) or set(CLAIM_KEYS) - set(c):
            return f"claims[{i}] lacks required keys"
        if c["verdict"] not in VERDICTS:
            return f"claims[{i}] has unknown verdict {c['verdict']!r}"
    return None
