"""One evidence from several decisions of the same builder (per δ, per dimension, stronger/weaker events)."""

from __future__ import annotations

from typing import Any

from tvbo_verify.authoring import Evidence, Power, Verdict, claim_power


def merge(parts: list[Evidence], verdict: Any, *, note: str = "", margin_of: str = "worst part",
          deciding: list[Evidence] | None = None) -> Evidence:
    """One evidence with ``verdict`` from several decisions: every part's rows, figures, statistics and negative
    controls; the margin is the worst part's; the counterexample comes from the parts that decide the verdict
    (``deciding``, by default those whose verdict is ``verdict``, else all), and power is counted part by part
    (docs/ARCHITECTURE.md §6): every deciding part must have caught its sharpening."""
    if deciding is None:
        deciding = [p for p in parts if p.verdict is verdict] or parts
    main = deciding[0]
    out = Evidence(verdict, " ".join(p.summary for p in parts) + (f" {note}" if note else ""),
                   instances=[row for p in parts for row in p.instances],
                   margin=min(p.margin for p in parts if p.margin is not None),
                   counterexample=next((p.counterexample for p in deciding if p.counterexample is not None), None),
                   stats={**main.stats, "parts": [p.stats for p in parts],
                          "margin_of": margin_of},
                   figures=[fig for p in parts for fig in p.figures],
                   controls=list({(c.name, c.detail): c for p in parts for c in p.controls}.values()))
    caught = [p.power is not None and p.power.caught for p in deciding]
    sharpenings = list(dict.fromkeys(p.power.sharpening for p in deciding if p.power is not None))
    refuted = Verdict(verdict) is Verdict.VIOLATED
    out.power = Power("; ".join(sharpenings) or "none declared", claim_power(caught, refuted),
                      f"caught in {sum(caught)} of {len(caught)} deciding parts (power needs "
                      f"{'one failing part' if refuted else 'every one'}): "
                      + " | ".join(p.power.detail for p in deciding if p.power is not None))
    return out
