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


def coverage(rows: Iterable[ClaimRow], by_id: dict[str, dict], out: Path) -> dict[str, int]:
    """Claims checked (a verdict other than error), errata established, and checks with power shown."""
    rows = list(rows)
    res = [by_id.get(r.id) for r in rows]
    checked = [c for c in res if c and c["verdict"] in CHECKED]
    errata = [r for r in rows if r.expect == "fails-as-printed"]
    return {
        "total": len(rows),
        "checked": len(checked),
        "errata": len(errata),
        "established": sum(established(by_id.get(r.id), out) for r in errata),
        "power": sum(1 for c in checked if (c.get("power") or {}).get("caught")),
    }


def coverage_text(c: dict[str, int]) -> str:
    """The coverage line: "N/209 claims checked; E/35 errata established; P with power shown"."""
    return (f"{c['checked']}/{c['total']} claims checked; {c['established']}/{c['errata']} errata established; "
            f"{c['power']} with power shown")
