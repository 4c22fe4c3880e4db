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

Power is counted part by part: a confirmed claim has power when every property that declares a
sharpening (a sharpened comparison or a sub-claim's power) catches it, a violated claim when some
failing property has power (its sub-claim's, or a measured comparison that breaks): that property
refutes the statement on its own; or when a mutant is called violated. One powered property among many
does not lend its power to the others of a confirmation.

A property measured from runs that compares methods (an ordering, see
:func:`~tvbo_verify.verify.builders.experiment.ordering_property`) sets ``needs_control``: it is
established only when one of its ``controls`` — the same comparison with a control policy in place
of the method — came out violated; otherwise it is undecided ("no negative control failed"). Every
property's controls are collected into the evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from ...jsonify import to_jsonable
from ..comparison import Comparison, check_sharpening, material
from ..engine import Context
from ..evidence import Control, Evidence, Power, Verdict
from ..stats import DEFAULT_POLICY, Instance, TolerancePolicy, claim_power, require_failed_control
from .common import combine, rerun_record


@dataclass
class Property:
    """One named property of a claim, decided on its own: a measured comparison, a structural fact or a sub-claim.

    Build it with :meth:`compare`, :meth:`boolean` or :meth:`from_evidence`; :func:`properties_evidence`
    combines properties into a claim's verdict.

    Parameters
    ----------
    name : str
        What the property says.
    verdict : Verdict
        Its decision.
    comparison, sharpened : Comparison or None
        The measurement and its sharpened variant (the property's power).
    detail : str
        Its measurement in words.
    power : Power or None
        Its power when decided by another builder.
    controls : list of Control
        Its negative controls.
    needs_control : bool
        Whether it is decided from runs and so needs a failing negative control.

    Examples
    --------
    >>> from tvbo_verify.authoring import Comparison, Property
    >>> p = Property.compare("1 + 1 = 2", Comparison(1 + 1, 2, "==", tol=1e-12),
    ...                      sharpened=Comparison(1 + 1, 3, "==", tol=1e-12))
    >>> p.verdict.value, Property.boolean("sorted", True).verdict.value
    ('confirmed', 'confirmed')
    """

    name: str
    verdict: Verdict
    comparison: Comparison | None = None
    sharpened: Comparison | None = None
    detail: str = ""
    power: Power | None = None
    controls: list[Control] = field(default_factory=list)
    needs_control: bool = False

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
        """A sub-claim decided by another builder (e.g. an exact search of one proof step), with its power and
        its negative controls (already applied to its verdict)."""
        return cls(name, ev.verdict, detail=ev.summary, power=ev.power, controls=list(ev.controls))

    def controlled(self) -> "Property":
        """This property under the run-based rule: one that needs a negative control is undecided unless one
        of its controls came out violated."""
        if not self.needs_control:
            return self
        verdict, reason = require_failed_control(self.verdict, self.controls)
        if verdict is self.verdict:
            return self
        return replace(self, verdict=verdict, detail=f"{self.detail}; {reason}" if self.detail else reason)

    def part_power(self, policy: TolerancePolicy) -> bool | None:
        """Whether this part shows power: for a failing part, its sub-claim's power or a measured break; for
        any other, its sharpened comparison caught or its sub-claim's power. None: it declares no sharpening."""
        if self.verdict is Verdict.VIOLATED:
            if self.power is not None:
                return self.power.caught
            return True if self.comparison is not None else None
        if self.sharpened is not None:
            return self.sharpened_caught(policy)
        return None if self.power is None else self.power.caught

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
    """Decide a claim from named properties: violated if one is, confirmed when all are and each shows its power.

    Power is taken part by part from sharpened comparisons and sub-claim powers, or from ``mutants``.
    ``ingredient_evidence`` is the same builder, for claims of kind ``ingredient``.

    Parameters
    ----------
    ctx : Context
        The check's context.
    properties : sequence of Property
        The properties.
    what : str
        What is checked.
    sharpening : str
        The sharpening in words, when the power comes from ``mutants``.
    mutants : mapping or None
        ``{mutant name: its properties}``: the same properties measured on named broken variants, each of which
        must fail.
    stats, configuration : dict or None
        Extra statistics and rerun record.

    Returns
    -------
    Evidence
        The verdict with a row per property.

    Examples
    --------
    >>> from tvbo_verify.authoring import Comparison, Context, Property, RunCache, properties_evidence
    >>> one = Property.compare("1 + 1 = 2", Comparison(1 + 1, 2, "==", tol=1e-12),
    ...                        sharpened=Comparison(1 + 1, 3, "==", tol=1e-12))
    >>> properties_evidence(Context("doc:example", cache=RunCache(None)), [one], what="arithmetic").verdict.value
    'confirmed'
    """
    if not properties:
        raise ValueError("properties must not be empty")
    properties = [p.controlled() for p in properties]
    verdict = decide_properties(properties)
    policy = ctx.tolerance
    deciding = [p for p in properties if p.verdict is Verdict.VIOLATED] if verdict is Verdict.VIOLATED \
        else properties
    part_power = {p.name: p.part_power(policy) for p in deciding}
    declared = {n: c for n, c in part_power.items() if c is not None}
    mutant_verdicts = {name: decide_properties(ps) for name, ps in (mutants or {}).items()}
    caught_mut = [n for n, v in mutant_verdicts.items() if v is Verdict.VIOLATED]
    parts = []
    if declared:
        missing = [n for n, c in declared.items() if not c]
        parts.append(f"{len(declared) - len(missing)} of {len(declared)} "
                     f"{'failing ' if verdict is Verdict.VIOLATED else ''}properties with a sharpening catch it"
                     + (f" (not: {'; '.join(missing)})" if missing else ""))
    elif sharpening:
        parts.append("no property declares a sharpened comparison")
    if mutants:
        parts.append(f"mutants called violated: {len(caught_mut)} of {len(mutant_verdicts)} "
                     f"({', '.join(f'{n}: {v.value}' for n, v in mutant_verdicts.items())})")
    sub = list(dict.fromkeys(p.power.sharpening for p in properties if p.power is not None))
    texts = [t for t in (sharpening, "; ".join(sub), ", ".join(f"mutant {n}" for n in mutant_verdicts)) if t]
    power = Power("; ".join(texts) or "none declared",
                  claim_power(list(declared.values()), verdict is Verdict.VIOLATED) or bool(caught_mut),
                  "; ".join(parts) or "no sharpened property, sub-claim or mutant")
    controls = list({(c.name, c.description, c.detail): c for p in properties for c in p.controls}.values())
    failed = [p.name for p in properties if p.verdict is Verdict.VIOLATED]
    undecided = [p.name for p in properties if p.verdict is Verdict.INCONCLUSIVE]
    if verdict is Verdict.VIOLATED:
        summary = f"{what}: {len(failed)} of {len(properties)} properties fail ({'; '.join(failed)})."
    elif verdict is Verdict.CONFIRMED:
        summary = f"{what}: all {len(properties)} properties hold."
    else:
        summary = f"{what}: {len(undecided)} of {len(properties)} properties undecided ({'; '.join(undecided)})."
    if controls:
        summary += (f" Negative controls: {sum(c.failed for c in controls)} of {len(controls)} came out violated, "
                    "as they must.")
    rows = [p.row() for p in properties]
    rows.sort(key=lambda r: {"violated": 0, "inconclusive": 1, "confirmed": 2}.get(r["verdict"], 3))
    rows += [c.row() for c in controls]
    margins = [float(p.comparison.as_float().margin) for p in properties if p.comparison is not None]
    record = rerun_record(ctx, {"failed": failed}, configuration) if verdict is Verdict.VIOLATED else None
    return Evidence(verdict, summary, instances=rows, margin=min(margins) if margins else None,
                    counterexample=record,
                    stats={"properties": len(properties), "failed": failed, "undecided": undecided,
                           "mutants": {n: v.value for n, v in mutant_verdicts.items()},
                           "margin_of": "worst measured property", **(stats or {})},
                    power=power, controls=controls)


#: ingredient claims are decided by the same rule (every computable ingredient holds)
ingredient_evidence = properties_evidence
