"""Evidence of ingredient, algorithm and experiment claims: named properties of a measurement.

An *ingredient* claim checks the computable steps of a proof; an *algorithm* claim the properties a
run must have (query counts, window sizes, costs); an *experiment* claim the qualitative finding of
a paper's figure (an ordering of methods, a sublinear curve). Each property is a
:class:`Property`: a :class:`~tvbo_verify.verify.comparison.Comparison` of a measured value with
the stated one (decided with the float tolerance of the policy), a sub-verdict (e.g. an exact
search of one proof step), or a plain boolean for structural facts. All hold → confirmed, one
fails → violated, otherwise inconclusive.

Power comes from either (or both):

* the *sharpened* comparison of a property: the same measured value against a stronger statement;
* *mutants*: the same properties measured on a deliberately broken implementation (the printed
  reset test of R-GP-UCB, a window one step too long), which the check must call violated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ...jsonify import to_jsonable
from ..comparison import Comparison, check_sharpening, material
from ..engine import Context
from ..evidence import Evidence, Power, Verdict
from ..stats import DEFAULT_POLICY, Instance, TolerancePolicy
from .common import combine, rerun_record


@dataclass
class Property:
    """One named property: ``verdict`` decided from ``comparison`` (or given), an optional sharpened comparison."""

    name: str
    verdict: Verdict
    comparison: Comparison | None = None
    sharpened: Comparison | None = None
    detail: str = ""
    power: Power | None = None

    @classmethod
    def compare(cls, name: str, comparison: Comparison, *, sharpened: Comparison | None = None, detail: str = "",
                policy: TolerancePolicy = DEFAULT_POLICY) -> "Property":
        """A measured comparison, decided by the float tolerance of ``policy``."""
        broken = Instance({}, comparison.as_float()).broken(policy)
        return cls(name, Verdict.VIOLATED if broken else Verdict.CONFIRMED, comparison, sharpened, detail)

    @classmethod
    def boolean(cls, name: str, holds: bool | None, detail: str = "") -> "Property":
        """A structural fact (True/False), or None when it could not be decided."""
        v = Verdict.INCONCLUSIVE if holds is None else Verdict.CONFIRMED if holds else Verdict.VIOLATED
        return cls(name, v, detail=detail)

    @classmethod
    def from_evidence(cls, name: str, ev: Evidence) -> "Property":
        """A sub-claim decided by another builder (e.g. an exact search of one proof step), with its power."""
        return cls(name, ev.verdict, detail=ev.summary, power=ev.power)

    def sharpened_caught(self, policy: TolerancePolicy) -> bool:
        if self.sharpened is None or self.comparison is None:
            return False
        original = Instance({}, self.comparison.as_float())
        sharp = Instance({}, self.sharpened.as_float())
        check_sharpening(self.comparison, self.sharpened, where=self.name)
        return sharp.broken(policy) and not original.broken(policy) and material(self.comparison, self.sharpened)

    def row(self) -> dict[str, Any]:
        r: dict[str, Any] = {"property": self.name, "verdict": self.verdict.value}
        if self.comparison is not None:
            c = self.comparison.as_float()
            r.update({"measured": c.value, "sense": c.sense, "stated": c.bound, "margin": float(c.margin)})
        if self.detail:
            r["detail"] = self.detail
        return to_jsonable(r)


def decide_properties(props: Sequence[Property]) -> Verdict:
    return combine(p.verdict for p in props)


def properties_evidence(
    ctx: Context,
    properties: Sequence[Property],
    *,
    what: str,
    sharpening: str = "",
    mutants: Mapping[str, Sequence[Property]] | None = None,
    stats: dict[str, Any] | None = None,
    configuration: dict[str, Any] | None = None,
) -> Evidence:
    """Decide every property; power from sharpened comparisons, sub-claim powers and mutants."""
    if not properties:
        raise ValueError("properties must not be empty")
    verdict = decide_properties(properties)
    policy = ctx.tolerance
    caught_sharp = [p.name for p in properties if p.sharpened_caught(policy)]
    caught_sub = [p.name for p in properties if p.power is not None and p.power.caught]
    mutant_verdicts = {name: decide_properties(ps) for name, ps in (mutants or {}).items()}
    caught_mut = [n for n, v in mutant_verdicts.items() if v is Verdict.VIOLATED]
    parts = []
    if sharpening or caught_sharp:
        parts.append(f"sharpened properties caught: {', '.join(caught_sharp) or 'none'}")
    if any(p.power is not None for p in properties):
        parts.append(f"sub-claims with power: {', '.join(caught_sub) or 'none'}")
    if mutants:
        parts.append(f"mutants called violated: {len(caught_mut)} of {len(mutant_verdicts)} "
                     f"({', '.join(f'{n}: {v.value}' for n, v in mutant_verdicts.items())})")
    sub = list(dict.fromkeys(p.power.sharpening for p in properties if p.power is not None))
    texts = [t for t in (sharpening, "; ".join(sub), ", ".join(f"mutant {n}" for n in mutant_verdicts)) if t]
    power = Power("; ".join(texts) or "none declared", bool(caught_sharp or caught_sub or caught_mut),
                  "; ".join(parts) or "no sharpened property, sub-claim or mutant")
    failed = [p.name for p in properties if p.verdict is Verdict.VIOLATED]
    undecided = [p.name for p in properties if p.verdict is Verdict.INCONCLUSIVE]
    if verdict is Verdict.VIOLATED:
        summary = f"{what}: {len(failed)} of {len(properties)} properties fail ({'; '.join(failed)})."
    elif verdict is Verdict.CONFIRMED:
        summary = f"{what}: all {len(properties)} properties hold."
    else:
        summary = f"{what}: {len(undecided)} of {len(properties)} properties undecided ({'; '.join(undecided)})."
    rows = [p.row() for p in properties]
    rows.sort(key=lambda r: {"violated": 0, "inconclusive": 1, "confirmed": 2}.get(r["verdict"], 3))
    margins = [float(p.comparison.as_float().margin) for p in properties if p.comparison is not None]
    record = rerun_record(ctx, {"failed": failed}, configuration) if verdict is Verdict.VIOLATED else None
    return Evidence(verdict, summary, instances=rows, margin=min(margins) if margins else None,
                    counterexample=record,
                    stats={"properties": len(properties), "failed": failed, "undecided": undecided,
                           "mutants": {n: v.value for n, v in mutant_verdicts.items()},
                           "margin_of": "worst measured property", **(stats or {})},
                    power=power)


#: ingredient claims are decided by the same rule (every computable ingredient holds)
ingredient_evidence = properties_evidence
