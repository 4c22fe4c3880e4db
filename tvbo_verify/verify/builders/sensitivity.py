"""Evidence of an experiment claim decided over the admissible range of the constants its paper leaves open.

docs/ARCHITECTURE.md §5, experiment row: a finding is confirmed when the runs reproduce it over the
whole admissible range of the constants the paper leaves open, violated when they contradict it over that
whole range, and otherwise inconclusive, with where it holds and where it fails.

:func:`sensitivity_evidence` measures the reproduction with its sensitivity
(:func:`~tvbo_verify.sweeps.reproduce.measure` with ``sensitivity=True``: the paper's setting and every
one-at-a-time setting of its :class:`~tvbo_verify.sweeps.reproduce.constants.FreeConstant` items). At the
paper's setting the claim's properties are decided as for any experiment claim (with their power, in the
evidence's table); the verdict is that of the finding over every setting
(:func:`~tvbo_verify.sweeps.reproduce.constants.over_range`), combined with the structural properties
(facts that hold of every run whatever the constants, e.g. a regret range). A reproduction's ``remarks``
(statements the paper makes beside its finding, e.g. an aside about one baseline) are measured at every setting
and reported in the record and the summary, never in the verdict. The ``sensitivity`` record —
per constant its values, the finding's margin with its 95% interval, the verdict at each value, the paper's
setting, the statement "holds for … , fails for …" — goes to the evidence's statistics (``results.json``),
and its figure is an evidence figure.

Negative controls. A comparison of methods is established only when its negative control failed
(:meth:`~tvbo_verify.verify.builders.Property.controlled`). A reproduction carries its controls per setting by
running the control policy as one more arm of its sweeps and giving its comparison parts their control
(:class:`~tvbo_verify.sweeps.reproduce.constants.Part` ``control``), so every setting is decided by the same
rule; at the paper's setting the claim's properties, under that rule, must then decide as the parts do. A
reproduction whose parts carry no control is checked on the intervals alone, and its finding is not confirmed
over the range unless the claim's properties at the paper's setting are confirmed under the control rule.

``analogue`` names the stand-in for data that cannot be shipped: the record is measured and reported as usual,
the verdict stays inconclusive (an analogue neither confirms nor refutes a statement about the paper's data).
"""

from __future__ import annotations

from typing import Callable, Sequence

from ...errors import MissingExtraError
from ...sweeps.reproduce import Finding, get_reproduction
from ...sweeps.reproduce.constants import all_of
from ...sweeps.reproduce.tuning import tuning_text
from ..engine import Context
from ..evidence import Evidence, Verdict
from .common import combine, rerun_record
from .experiment import audited_outcome, missing_extra_evidence, on_analogue_data, outcome_evidence
from .properties import Property


def sequential_text(record: dict) -> str:
    """What the sequential parts of a sensitivity record did (:mod:`tvbo_verify.sweeps.reproduce.sequential`):
    the settings where a part needed more than its first look, or that none did."""
    out = []
    for part, by_setting in (record.get("sequential") or {}).items():
        extended = [f"{where}: {r['stopped']}" for where, r in by_setting.items() if len(r["looks"]) > 1]
        first = min(r["design"]["start"] for r in by_setting.values())
        out.append(f" {part}: repetitions by a sequential design at {len(by_setting)} settings; "
                   + ("; ".join(extended) if extended else f"each decided at its first look ({first} runs)") + ".")
    return "".join(out)


def remarks_text(record: dict) -> str:
    """The remarks of the finding, measured at every setting and reported without deciding the verdict."""
    remarks = record.get("remarks") or {}
    return "".join(f" Reported beside the finding, not deciding it: {name}: {r['statement']}."
                   for name, r in remarks.items())


def tuned_text(tuning: dict) -> str:
    """What each method's own constants were tuned to at the paper's setting (:mod:`~tvbo_verify.sweeps.reproduce.
    tuning`; retuned at every setting), or nothing when the reproduction tunes none."""
    at_paper = tuning.get("the paper's setting") if tuning else None
    if not at_paper:
        return ""
    first = next(iter(next(iter(at_paper.values())).values()))
    return (f" Each method's own constants tuned with the same budget ({len(first['candidates'])} values, "
            f"{first['reps']} training runs each) on training seeds at every setting; at the paper's setting: "
            f"{tuning_text(at_paper)}.")


def sensitivity_evidence(ctx: Context, reproduction_id: str, decide: Callable[[Finding], Sequence[Property]], *,
                         what: str, structural: Callable[[Finding], Sequence[Property]] | None = None,
                         analogue: str = "") -> Evidence:
    """Decide the finding of ``reproduction_id`` over the admissible range of its free constants.

    Parameters
    ----------
    ctx
        The claim's context (fidelity, seed, executor, run cache).
    reproduction_id
        A reproduction that declares free constants and the parts its finding is decided by.
    decide
        The claim's properties of the finding at one setting (paired orderings, slopes), with their power;
        at the paper's setting their combined verdict must equal that of the reproduction's parts.
    what
        What the claim measures (the summary's subject).
    structural
        Properties that must hold whatever the constants (decided at the paper's setting).
    analogue
        What stands in for the paper's unshipped data (empty: the paper's own set-up); when given, the verdict
        is inconclusive whatever the record measures.

    Returns
    -------
    Evidence
        The verdict over the range (combined with the structural properties; never confirmed when the evidence
        at the paper's setting is not), the properties at the paper's setting as its table, the ``sensitivity``
        record and ``verdict_at_paper_setting`` in its statistics, and the sensitivity figure.

    Raises
    ------
    ValueError
        If the reproduction is unknown or declares no free constants.
    RuntimeError
        If the claim's properties and the reproduction's parts decide differently at the paper's setting.

    Examples
    --------
    The environment's lengthscale is a free constant here, a setting every compared method sees alike (a method's
    own constant is tuned, never swept alone); "the fixed arm below random" holds at one lengthscale and is
    undecided at the other, so the finding is undecided over the range, with where it holds:

    >>> import uuid
    >>> from tvbo_verify.authoring import (Arm, Context, Finding, FreeConstant, Reproduction, Sweep, compare,
    ...                                    ordering_part, ordering_property, sensitivity_evidence, set_env_param)
    >>> from tvbo_verify.sweeps.reproduce import register
    >>> sweep = Sweep("doc", (Arm("fixed", "fixed-arm", {"arm": 0}), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> lengthscale = FreeConstant("the lengthscale", "l", 0.2, (0.2, 1.0), (0.2, 1.0), "the set-up leaves it open",
    ...                            set_env=set_env_param("lengthscale"))
    >>> def analyse(results, rng):
    ...     return Finding("fixed against random", {"comparison": compare(results["main"], "fixed", "random", rng)})
    >>> rep = register(Reproduction(
    ...     f"doc:example-{uuid.uuid4().hex[:8]}", "doc", "a figure", setup="two arms", expected="fixed below random",
    ...     sweeps=lambda fidelity: {"main": sweep}, analyse=analyse, figure=lambda results, finding: None,
    ...     constants=(lengthscale,),
    ...     parts=lambda finding: [ordering_part("fixed below random", finding.data["comparison"])]))
    >>> ev = sensitivity_evidence(Context("doc:example"), rep.id, what="an ordering",
    ...     decide=lambda finding: [ordering_property("fixed below random", finding.data["comparison"])])
    >>> ev.verdict.value, ev.stats["sensitivity"]["statement"]
    ('inconclusive', 'the lengthscale: holds for l ≤ 0.2, undecided for l ≥ 1')
    """
    rep = get_reproduction(reproduction_id)
    if not rep.constants:
        raise ValueError(f"reproduction {reproduction_id} declares no free constants; use experiment_evidence")
    try:
        outcome = audited_outcome(ctx, rep, sensitivity=True)
    except MissingExtraError as exc:
        return missing_extra_evidence(exc, rep.id)
    finding_props = list(decide(outcome.finding))
    fixed = list(structural(outcome.finding)) if structural is not None else []
    shown = [on_analogue_data(p.controlled()) for p in finding_props] if analogue else finding_props
    ev = outcome_evidence(ctx, outcome, shown + fixed, what=what)
    record = outcome.sensitivity
    assert record is not None and rep.parts is not None
    parts = rep.parts(outcome.finding)
    at_paper = all_of("finding", parts)
    controlled = combine(p.controlled().verdict for p in finding_props)
    carries_controls = any(p.control is not None for p in parts)
    decided, expected = ((controlled, Verdict(at_paper.verdict)) if carries_controls else
                         (combine(p.verdict for p in finding_props), Verdict(at_paper.interval_verdict)))
    if decided is not expected:
        raise RuntimeError(f"{reproduction_id}: the claim's properties decide {decided.value} at the paper's setting "
                           f"but the reproduction's parts decide {expected.value}")
    over = Verdict(record["verdict"])
    uncontrolled = over is Verdict.CONFIRMED and controlled is not Verdict.CONFIRMED
    if uncontrolled:
        over = Verdict.INCONCLUSIVE
    verdict = combine([over, *(p.verdict for p in fixed)])
    at_paper_evidence = ev.verdict
    if verdict is Verdict.CONFIRMED and at_paper_evidence is not Verdict.CONFIRMED:
        # the rules of the paper's setting (a negative control that must fail, power per part) bind the range too
        verdict = Verdict.INCONCLUSIVE
    broken = [p.name for p in fixed if p.verdict is Verdict.VIOLATED]
    ev.stats["verdict_at_paper_setting"] = ev.verdict.value
    ev.stats["sensitivity"] = record
    measured = f"measured {record['verdict']} on analogue data ({analogue})" if analogue else over.value
    ev.summary = (f"{what}: {measured} over the admissible range of {len(rep.constants)} free constants "
                  f"({record['settings']} settings, one at a time around the paper's setting, {record['runs']} runs): "
                  f"{record['statement']}."
                  + (" Not confirmed: no negative control failed at the paper's setting." if uncontrolled else "")
                  + (f" Structural properties fail: {'; '.join(broken)}." if broken else "")
                  + (f" Not confirmed: the evidence at the paper's setting is {at_paper_evidence.value} (a negative "
                     "control that did not fail, or a part without power)."
                     if over is Verdict.CONFIRMED and verdict is Verdict.INCONCLUSIVE and not broken else "")
                  + sequential_text(record)
                  + tuned_text(outcome.tuning)
                  + remarks_text(record)
                  + f" At the paper's setting: {ev.summary}")
    if analogue:
        verdict = Verdict.INCONCLUSIVE
        ev.stats["reason"] = f"analogue data: {analogue}"
    if verdict is Verdict.VIOLATED and ev.counterexample is None:
        ev.counterexample = rerun_record(ctx, {"sensitivity_verdict": over.value, "failed": broken},
                                         {"reproduction": rep.id, "fidelity": ctx.fidelity})
    elif verdict is not Verdict.VIOLATED:
        ev.counterexample = None
    ev.verdict = verdict
    ev.figures.append((f"{rep.title}: sensitivity to the constants the paper leaves open", outcome.sensitivity_figure))
    return ev
