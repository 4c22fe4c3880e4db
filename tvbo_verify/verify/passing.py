"""The one pass rule: whether a verdict measured for a claim is accepted (docs/ARCHITECTURE.md §6).

A verdict passes when

1. the claim list accepts it at the fidelity it was measured at — it is the verdict the expectation
   calls for, or the verdict a recorded disagreement says this toolkit measures
   (:meth:`~tvbo_verify.verify.claimlist.ClaimRow.accepts`), and
2. when it is a decision (confirmed or violated), the check showed its power: the sharpened variant
   of its own statement was caught. A decision without power is no evidence.

An error never passes. ``tvbo-verify report`` (its exit code and the ``accepted`` and ``reason`` of
every ``results.json`` entry), ``--resume`` and ``pytest checks`` all judge through :func:`judge`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .claimlist import ClaimRow
from .evidence import Evidence, Power, Verdict

#: the verdicts that decide a claim and therefore need power
DECISIONS = (Verdict.CONFIRMED, Verdict.VIOLATED)


@dataclass(frozen=True)
class Judgement:
    """Whether a verdict passes; ``reason`` says why not (None when it passes)."""

    accepted: bool
    reason: str | None = None

    def __bool__(self) -> bool:
        return self.accepted


def judge(row: ClaimRow, verdict: Verdict | str, *, power_caught: bool, fidelity: str | None = None,
          power_detail: str = "") -> Judgement:
    """Apply the pass rule to ``verdict`` of the claim ``row`` measured at ``fidelity``.

    Parameters
    ----------
    row
        The claim's row of the claim list (expectation and recorded disagreement).
    verdict
        The measured verdict.
    power_caught
        Whether the check caught its sharpened statement (``Power.caught``; False when it has none).
    fidelity
        ``"quick"`` or ``"full"``: a disagreement may be recorded for one fidelity only. None accepts a
        disagreement recorded for any fidelity.
    power_detail
        What the power record says, quoted in the reason of a decision without power.

    Returns
    -------
    Judgement
        ``accepted`` and, when it is False, a one-line ``reason``.
    """
    verdict = Verdict(verdict)
    if verdict is Verdict.ERROR:
        return Judgement(False, "the check raised an error (an error is never a verdict)")
    if not row.accepts(verdict, fidelity):
        at = f" at {fidelity} fidelity" if fidelity else ""
        return Judgement(False, f"verdict {verdict.value}{at} is neither the expectation ({row.expect}) "
                                "nor a disagreement recorded in the claim list")
    if verdict in DECISIONS and not power_caught:
        detail = f": {power_detail}" if power_detail else ""
        return Judgement(False, f"{verdict.value} without power (the sharpened statement was not caught{detail})")
    return Judgement(True)


def judge_evidence(row: ClaimRow, ev: Evidence, fidelity: str | None = None) -> Judgement:
    """:func:`judge` on the evidence a check returned."""
    return judge(row, ev.verdict, fidelity=fidelity, **_power_args(ev.power))


def judge_record(row: ClaimRow, record: dict[str, Any], fidelity: str | None = None) -> Judgement:
    """:func:`judge` on a ``claims[]`` entry of ``results.json`` (its ``verdict`` and ``power``)."""
    power = record.get("power")
    power = Power(str(power.get("sharpening", "")), bool(power.get("caught")), str(power.get("detail", ""))) \
        if isinstance(power, dict) else None
    return judge(row, record["verdict"], fidelity=fidelity, **_power_args(power))


def _power_args(power: Power | None) -> dict[str, Any]:
    if power is None:
        return {"power_caught": False, "power_detail": "no sharpening recorded"}
    return {"power_caught": bool(power.caught), "power_detail": f"{power.sharpening}; {power.detail}".strip("; ")}
