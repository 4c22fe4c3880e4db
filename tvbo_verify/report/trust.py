"""What ``--resume`` checks before it keeps a claim of an earlier run (nothing read back is trusted).

* Each claim's record carries a digest (SHA-256 of its canonical JSON without the digest): an edited
  verdict, margin or counterexample no longer matches it.
* ``paper``, ``ref``, ``kind``, ``expect``, ``matches``, ``accepted`` and ``reason`` are recomputed from the
  claim list and the pass rule (:mod:`tvbo_verify.verify.passing`).
* A violated claim's counterexample file must exist and equal the record's counterexample; an exact
  counterexample must replay (float64 and mpmath) to a violation. A rerun record is a run
  configuration: replaying it *is* rerunning the claim with its fidelity and seed, so such a claim
  is always rerun (:data:`REPLAY_BY_RERUN`).
* Every figure the record lists must exist.

A record that fails any check is rerun when it is selected (or replayed by a rerun), else dropped.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ..files import safe_name
from ..jsonify import to_jsonable
from ..verify.claimlist import claim_row, matches
from ..verify.passing import judge_record

DIGEST_KEY = "digest"
#: the audit's answer for a violated claim whose counterexample is a run configuration
REPLAY_BY_RERUN = "its counterexample is a run configuration, replayed by rerunning the claim"


def counterexample_path(out: Path, claim_id: str) -> Path:
    return Path(out) / "counterexamples" / f"{safe_name(claim_id)}.json"


def digest(entry: dict[str, Any]) -> str:
    """SHA-256 of the record's canonical JSON (sorted keys), the digest itself left out."""
    body = {k: v for k, v in entry.items() if k != DIGEST_KEY}
    text = json.dumps(to_jsonable(body), sort_keys=True, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def seal(entry: dict[str, Any]) -> dict[str, Any]:
    """``entry`` with its digest (recomputed)."""
    entry = {k: v for k, v in entry.items() if k != DIGEST_KEY}
    entry[DIGEST_KEY] = digest(entry)
    return entry


def refresh(entry: dict[str, Any], fidelity: str | None = None) -> dict[str, Any]:
    """The record (measured at ``fidelity``) with ``paper``, ``ref``, ``kind``, ``expect`` and ``matches`` taken
    from the claim list, ``accepted`` and ``reason`` from the pass rule."""
    row = claim_row(entry["id"])
    judgement = judge_record(row, entry, fidelity)
    return {**entry, "paper": row.paper, "ref": row.ref, "kind": row.kind, "expect": row.expect,
            "matches": matches(entry["verdict"], row.expect), "accepted": judgement.accepted,
            "reason": judgement.reason}


def _replays(claim_id: str, ce: dict[str, Any]) -> str | None:
    from ..verify.engine import replay

    try:
        res = replay(claim_id, ce)
    except Exception as exc:  # a counterexample that cannot be re-evaluated is not trusted
        return f"its counterexample does not replay ({type(exc).__name__}: {exc})"
    return None if res.violated else "its counterexample no longer breaks the statement"


def audit(entry: dict[str, Any], out: Path) -> str | None:
    """Why the stored record of a claim cannot be kept (None: every check passed)."""
    try:
        claim_row(entry["id"])
    except ValueError:
        return "the claim is not in the claim list"
    if entry.get(DIGEST_KEY) != digest(entry):
        return "its record does not match its digest (edited or written by another version)"
    for fig in entry.get("figures") or []:
        if not (Path(out) / "figures" / str(fig.get("file", ""))).is_file():
            return f"figure file {fig.get('file')!r} is missing"
    ce = entry.get("counterexample")
    if entry["verdict"] == "violated" and ce:
        path = counterexample_path(out, entry["id"])
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return f"its counterexample file {path.name} is missing or unreadable"
        if to_jsonable(stored) != to_jsonable(ce):
            return f"its counterexample file {path.name} differs from the record"
        if "statement" in ce:
            return _replays(entry["id"], ce)
        return REPLAY_BY_RERUN
    return None
