"""How much of the claim list a report covers: claims checked, errata established, power shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from ..verify.claimlist import ClaimRow
from .trust import counterexample_path

#: verdicts that are decisions (an error is not one)
CHECKED = ("confirmed", "violated", "inconclusive")


def established(res: dict[str, Any] | None, out: Path) -> bool:
    """An erratum is established when its claim is violated with a stored counterexample that a
    reviewer can re-evaluate: an exact one refereed at 50+ digits (negative mpmath margin), or a
    rerun record of the run configuration."""
    if not res or res.get("verdict") != "violated":
        return False
    ce = res.get("counterexample")
    if not isinstance(ce, dict) or not counterexample_path(out, res["id"]).is_file():
        return False
    if "statement" in ce:
        hp = ce.get("hp_margin")
        return isinstance(hp, (int, float)) and hp < 0
    return isinstance(ce.get("rerun"), dict)


def scope_of(selected: Iterable[ClaimRow], every: Iterable[ClaimRow]) -> str:
    """What a selection of claims is, for the coverage line: ``""`` (the whole claim list), ``"of wgpucb"``
    (whole papers, ``"of wgpucb and bolt"``) or ``"selected"`` (claims picked by id)."""
    selected, every = list(selected), list(every)
    chosen = {r.id for r in selected}
    if chosen == {r.id for r in every}:
        return ""
    papers = list(dict.fromkeys(r.paper for r in selected))
    if papers and chosen == {r.id for r in every if r.paper in papers}:
        return "of " + (papers[0] if len(papers) == 1 else ", ".join(papers[:-1]) + " and " + papers[-1])
    return "selected"


def coverage(rows: Iterable[ClaimRow], by_id: dict[str, dict], out: Path, scope: str = "") -> dict[str, Any]:
    """Claims checked (a verdict other than error), errata established, and checks with power shown, among
    ``rows`` (``scope`` names them in :func:`coverage_text`, see :func:`scope_of`)."""
    rows = list(rows)
    res = [by_id.get(r.id) for r in rows]
    checked = [c for c in res if c and c["verdict"] in CHECKED]
    errata = [r for r in rows if r.expect == "fails-as-printed"]
    controls = [r for r in rows if r.is_control]
    return {
        "total": len(rows),
        "checked": len(checked),
        "errata": len(errata),
        "established": sum(established(by_id.get(r.id), out) for r in errata),
        "power": sum(1 for c in checked if (c.get("power") or {}).get("caught")),
        "controls": len(controls),
        "controls_violated": sum(1 for r in controls if (by_id.get(r.id) or {}).get("verdict") == "violated"),
        "scope": scope,
    }


def coverage_text(c: dict[str, Any]) -> str:
    """The coverage line: "N/209 claims checked; E/35 errata established; P with power shown", or for a
    selection "39/39 claims of wgpucb checked; ..." or "4/5 selected claims checked; ..."."""
    scope = c.get("scope") or ""
    noun = "selected claims" if scope == "selected" else f"claims {scope}" if scope else "claims"
    text = (f"{c['checked']}/{c['total']} {noun} checked; {c['established']}/{c['errata']} errata established; "
            f"{c['power']} with power shown")
    if c.get("controls"):
        text += f"; {c['controls_violated']}/{c['controls']} deliberate controls came out violated"
    return text
