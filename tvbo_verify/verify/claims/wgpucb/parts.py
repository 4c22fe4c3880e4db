"""One evidence from several decisions of the same builder (per δ, per dimension, stronger/weaker events)."""

from __future__ import annotations

from typing import Any

from ...evidence import Evidence


def merge(parts: list[Evidence], verdict: Any, *, note: str = "", margin_of: str = "worst part") -> Evidence:
    """One evidence with ``verdict`` from several decisions: every part's rows, figures and statistics; the
    margin is the worst part's; power and counterexample come from the parts that decide the verdict."""
    deciding = [p for p in parts if p.verdict is verdict] or parts
    main = deciding[0]
    out = Evidence(verdict, " ".join(p.summary for p in parts) + (f" {note}" if note else ""),
                   instances=[row for p in parts for row in p.instances],
                   margin=min(p.margin for p in parts if p.margin is not None),
                   counterexample=next((p.counterexample for p in deciding if p.counterexample is not None), None),
                   stats={**main.stats, "parts": [p.stats for p in parts],
                          "margin_of": margin_of},
                   power=main.power, figures=[fig for p in parts for fig in p.figures])
    caught = [p.power for p in deciding if p.power is not None and p.power.caught]
    if caught:
        out.power = caught[0]
    return out
