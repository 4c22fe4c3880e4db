"""One badge per property: a claim decided by several properties (algorithm, experiment and ingredient
claims, e.g. the eight properties of a reproduced figure) shows the verdict of each, so that one failing
property out of eight is not read as a failed figure."""

from __future__ import annotations

from collections import Counter
from typing import Any

#: the order badges are listed in (failures first)
ORDER = {"violated": 0, "error": 0, "inconclusive": 1, "confirmed": 2}


def property_verdicts(res: dict[str, Any] | None) -> list[dict[str, str]]:
    """The ``{"name", "verdict", "detail"}`` of every property in the record's instance table (rows with a
    ``property`` and a ``verdict``), failures first; empty for claims not decided by properties."""
    if not res:
        return []
    rows = (res.get("stats") or {}).get("instances") or []
    props = [{"name": str(r["property"]), "verdict": str(r["verdict"]), "detail": str(r.get("detail") or "")}
             for r in rows if isinstance(r, dict) and "property" in r and "verdict" in r]
    return sorted(props, key=lambda p: ORDER.get(p["verdict"], 3))


def property_tally(props: list[dict[str, str]]) -> str:
    """"1 of 8 properties violated, 7 confirmed" (empty without properties)."""
    if not props:
        return ""
    counts = Counter(p["verdict"] for p in props)
    parts = [f"{counts[v]} {v}" for v in sorted(counts, key=lambda v: ORDER.get(v, 3))]
    return f"{len(props)} propert{'y' if len(props) == 1 else 'ies'}: " + ", ".join(parts)
