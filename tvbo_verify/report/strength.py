"""How strong the evidence behind a verdict is, read from what its record in ``results.json`` holds.

A verdict alone does not say how much was measured: a rate refuted from 3 runs over 0.6 decades of T and
an inequality broken at an instance refereed at 50 digits are both "violated". The label derived here
names what the evidence consists of (docs/ARCHITECTURE.md §4):

=====================  ===================================================================
evidence               label
=====================  ===================================================================
exact, violated        "50-digit counterexample" (the mpmath referee's digits)
exact, otherwise       "n instances searched"
rate                   "n runs over d decades of T" (``stats``: n, decades, decades_of)
probabilistic          "k/n trials in the worst of c configurations"
properties             "m properties (f fail, u undecided)"
negative controls      "negative control failed" (``controls``: name, verdict, detail)
power                  "no power" when the check caught no sharpened statement
=====================  ===================================================================

A label is *weak* when it cannot carry its verdict on its own: no power, a rate over less than one
decade or from fewer than :data:`FEW_RUNS` runs, or a negative control that did not fail.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: fewer runs than this make a rate or a frequency thin evidence
FEW_RUNS = 5
#: a rate decided over fewer decades than this is extrapolated from a short ladder
FEW_DECADES = 1.0


@dataclass(frozen=True)
class Strength:
    """``label``: what the evidence consists of; ``weak``: it cannot carry the verdict on its own."""

    label: str
    weak: bool


def _number(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _exact(entry: dict[str, Any], stats: dict[str, Any]) -> tuple[str, bool] | None:
    ce = entry.get("counterexample")
    if isinstance(ce, dict) and "statement" in ce:
        hp = _number(ce.get("hp_margin"))
        digits = ce.get("mp_digits")
        if hp is not None and hp < 0 and isinstance(digits, int):
            return f"{digits}-digit counterexample", False
        return "float64 counterexample, not refereed", True
    n = stats.get("n")
    if entry.get("kind") == "exact" and isinstance(n, int):
        return f"{n} instances searched", n < FEW_RUNS
    return None


def _rate(stats: dict[str, Any]) -> tuple[str, bool] | None:
    n, decades = stats.get("n"), _number(stats.get("decades"))
    if not isinstance(n, int) or decades is None:
        return None
    unit = "runs" if str(stats.get("resampled", "")).startswith("repetitions") else "instances"
    ladder = stats.get("decades_of") or "the ladder"
    weak = decades < FEW_DECADES or (unit == "runs" and n < FEW_RUNS)
    return f"{n} {unit} over {decades:.2g} decades of {ladder}", weak


def _trials(stats: dict[str, Any]) -> tuple[str, bool] | None:
    n, k = stats.get("n"), stats.get("successes")
    if not isinstance(n, int) or not isinstance(k, int):
        return None
    configs = stats.get("configurations")
    where = f" in the worst of {configs} configurations" if isinstance(configs, int) and configs > 1 else ""
    return f"{k}/{n} trials{where}", n < FEW_RUNS


def _properties(stats: dict[str, Any]) -> tuple[str, bool] | None:
    m = stats.get("properties")
    if not isinstance(m, int):
        return None
    failed, undecided = len(stats.get("failed") or []), len(stats.get("undecided") or [])
    parts = [f"{failed} fail{'s' if failed == 1 else ''}"] * bool(failed) + [f"{undecided} undecided"] * bool(undecided)
    return f"{m} propert{'y' if m == 1 else 'ies'}" + (f" ({', '.join(parts)})" if parts else ""), False


def _controls(entry: dict[str, Any]) -> tuple[str, bool] | None:
    controls = [c for c in entry.get("controls") or [] if isinstance(c, dict)]
    if not controls:
        return None
    held = [str(c.get("name", "?")) for c in controls if c.get("verdict") != "violated"]
    if held:
        return f"negative control not failed ({', '.join(held)})", True
    return ("negative control failed" if len(controls) == 1 else f"{len(controls)} negative controls failed"), False


def evidence_strength(entry: dict[str, Any]) -> Strength:
    """The strength of the evidence behind one ``claims[]`` entry of ``results.json``.

    Read from the entry's ``counterexample`` (refereed digits), ``stats`` (runs, decades, trials,
    properties), ``controls`` (negative controls, when recorded) and ``power``; see the module docstring.
    """
    if entry.get("verdict") == "error":
        return Strength("no evidence (the check raised)", True)
    stats = entry.get("stats") or {}
    parts: list[tuple[str, bool]] = []
    for derive in (lambda: _exact(entry, stats), lambda: _rate(stats), lambda: _trials(stats),
                   lambda: _properties(stats)):
        found = derive()
        if found:
            parts.append(found)
            break
    control = _controls(entry)
    if control:
        parts.append(control)
    power = entry.get("power") or {}
    if not power.get("caught"):
        parts.append(("no power", True))
    if not parts:
        return Strength("not recorded", True)
    return Strength("; ".join(p for p, _ in parts), any(w for _, w in parts))
