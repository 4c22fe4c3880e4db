"""Render ``index.html`` from results.json data with jinja2 (inline CSS, inline SVG, no network)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import jinja2

from ..verify.claimlist import PAPERS, ClaimRow, claim_rows
from ..verify.registry import get
from .panel import theory_vs_practice
from .runner import safe_name

PAPER_NAMES = {
    "wsparq": "W-SparQ-GP-UCB (windowed sparse expert queries)",
    "sparq": "SparQ-GP-UCB (sparse expert queries)",
    "tvgpucb": "R-GP-UCB / TV-GP-UCB (time-varying GP bandits)",
    "bolt": "BOLT (response times and optimal dataset size n*)",
    "wgpucb": "WGP-UCB (weighted GP-UCB)",
}


def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("tvbo_verify.report", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = _num
    env.filters["pretty"] = lambda v: json.dumps(v, indent=1, ensure_ascii=False)
    return env


def _num(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return "—" if v is None else str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, list) and len(v) <= 4 and all(isinstance(x, (int, float)) for x in v):
        return "[" + ", ".join(_num(x) for x in v) + "]"
    s = str(v)
    return s if len(s) <= 60 else s[:57] + "…"


def _figures(out: Path, claim_id: str) -> list[str]:
    folder = out / "figures"
    if not folder.is_dir():
        return []
    files = sorted(folder.glob(f"{safe_name(claim_id)}-*.svg"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    return [f.read_text(encoding="utf-8") for f in files]


def _status(claim_id: str, by_id: dict[str, dict]) -> str:
    if claim_id in by_id:
        return by_id[claim_id]["verdict"]
    return "not run" if get(claim_id) is not None else "not implemented"


def _errata(rows: list[ClaimRow], by_id: dict[str, dict]) -> list[dict]:
    """Statements expected false as printed, next to their corrected forms and verdicts."""
    all_ids = {r.id: r for r in claim_rows()}
    items = []
    for r in rows:
        if r.expect != "fails-as-printed":
            continue
        corr = all_ids.get(r.id + "+corrected")
        items.append({
            "printed": r, "printed_result": by_id.get(r.id), "printed_status": _status(r.id, by_id),
            "corrected": corr, "corrected_result": by_id.get(corr.id) if corr else None,
            "corrected_status": _status(corr.id, by_id) if corr else "",
        })
    return items


def render_index(doc: dict, rows: list[ClaimRow], out: Path) -> str:
    """The full HTML page for the claims in ``rows`` with results from ``doc``."""
    by_id = {c["id"]: c for c in doc["claims"]}
    papers = []
    for p in PAPERS:
        prow = [r for r in rows if r.paper == p]
        if not prow:
            continue
        counts = Counter(by_id[r.id]["verdict"] if r.id in by_id else "not implemented" if get(r.id) is None
                         else "not run" for r in prow)
        claims = []
        for r in prow:
            res = by_id.get(r.id)
            spec = get(r.id)
            claims.append({
                "row": r, "res": res, "anchor": safe_name(r.id),
                "implemented": spec is not None,
                "method": spec.method if spec else "",
                "figures": _figures(out, r.id) if res else [],
                "instances": (res or {}).get("stats", {}).get("instances", []),
                "stats": {k: v for k, v in (res or {}).get("stats", {}).items() if k not in ("instances", "traceback")},
                "traceback": (res or {}).get("stats", {}).get("traceback"),
                "replay": f"tvbo-verify replay {r.id} {out / 'counterexamples' / (safe_name(r.id) + '.json')}",
            })
        papers.append({"key": p, "name": PAPER_NAMES[p], "counts": counts, "claims": claims,
                       "mismatches": sum(1 for c in claims if c["res"] and not c["res"]["matches"])})
    total = Counter(c["verdict"] for c in doc["claims"])
    return _env().get_template("index.html.j2").render(
        run=doc["run"], papers=papers, total=total, n_claims=len(doc["claims"]),
        n_match=sum(c["matches"] for c in doc["claims"]),
        errata=_errata(rows, by_id), panel=theory_vs_practice(),
    )
