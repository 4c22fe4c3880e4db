"""Evidence of an experiment claim decided over the admissible range of the constants its paper leaves open.

ARCHITECTURE.md, "Deciding", experiment row: a finding is confirmed when the runs reproduce it over the
whole admissible range of the constants the paper leaves open, violated when they contradict it over that
whole range, and otherwise inconclusive, with where it holds and where it fails.

:func:`sensitivity_evidence` measures the reproduction with its sensitivity
(:func:`~tvbo_verify.sweeps.reproduce.measure` with ``sensitivity=True``: the paper's setting and every
one-at-a-time setting of its :class:`~tvbo_verify.sweeps.reproduce.constants.FreeConstant` items). At the
paper's setting the claim's properties are decided as for any experiment claim (with their power, in the
evidence's table); the verdict is that of the finding over every setting
(:func:`~tvbo_verify.sweeps.reproduce.constants.over_range`), combined with the structural properties
(facts that hold of every run whatever the constants, e.g. a regret range). The ``sensitivity`` record —
per constant its values, the finding's margin with its 95% interval, the verdict at each value, the paper's
setting, the statement "holds for … , fails for …" — goes to the evidence's statistics (``results.json``),
and its figure is an evidence figure.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ...sweeps.reproduce import Finding, get_reproduction, measure
from ...sweeps.reproduce.constants import all_of
from ..engine import Context
from ..evidence import Evidence, Verdict
from .common import combine, rerun_record
from .experiment import outcome_evidence
from .properties import Property


def sensitivity_evidence(ctx: Context, reproduction_id: str, decide: Callable[[Finding], Sequence[Property]], *,
                         what: str, structural: Callable[[Finding], Sequence[Property]] | None = None) -> Evidence:
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
    """
    rep = get_reproduction(reproduction_id)
    if not rep.constants:
        raise ValueError(f"reproduction {reproduction_id} declares no free constants; use experiment_evidence")
    outcome = measure(rep, cache=ctx.cache, fidelity=ctx.fidelity, executor=ctx.executor, seed=ctx.seed,
                      progress=False, sensitivity=True)
    finding_props = list(decide(outcome.finding))
    fixed = list(structural(outcome.finding)) if structural is not None else []
    ev = outcome_evidence(ctx, outcome, finding_props + fixed, what=what)
    record = outcome.sensitivity
    assert record is not None and rep.parts is not None
    at_paper = Verdict(all_of("finding", rep.parts(outcome.finding)).verdict)
    decided = combine(p.verdict for p in finding_props)
    if decided is not at_paper:
        raise RuntimeError(f"{reproduction_id}: the claim's properties decide {decided.value} at the paper's setting "
                           f"but the reproduction's parts decide {at_paper.value}")
    over = Verdict(record["verdict"])
    verdict = combine([over, *(p.verdict for p in fixed)])
    at_paper_evidence = ev.verdict
    if verdict is Verdict.CONFIRMED and at_paper_evidence is not Verdict.CONFIRMED:
        # the rules of the paper's setting (a negative control that must fail, power per part) bind the range too
        verdict = Verdict.INCONCLUSIVE
    broken = [p.name for p in fixed if p.verdict is Verdict.VIOLATED]
    ev.stats["verdict_at_paper_setting"] = ev.verdict.value
    ev.stats["sensitivity"] = record
    ev.summary = (f"{what}: {over.value} over the admissible range of {len(rep.constants)} free constants "
                  f"({record['settings']} settings, one at a time around the paper's setting, {record['runs']} runs): "
                  f"{record['statement']}."
                  + (f" Structural properties fail: {'; '.join(broken)}." if broken else "")
                  + (f" Not confirmed: the evidence at the paper's setting is {at_paper_evidence.value} (a negative "
                     "control that did not fail, or a part without power)."
                     if over is Verdict.CONFIRMED and verdict is Verdict.INCONCLUSIVE and not broken else "")
                  + f" At the paper's setting: {ev.summary}")
    if verdict is Verdict.VIOLATED and ev.counterexample is None:
        ev.counterexample = rerun_record(ctx, {"sensitivity_verdict": over.value, "failed": broken},
                                         {"reproduction": rep.id, "fidelity": ctx.fidelity})
    elif verdict is not Verdict.VIOLATED:
        ev.counterexample = None
    ev.verdict = verdict
    ev.figures.append((f"{rep.title}: sensitivity to the constants the paper leaves open", outcome.sensitivity_figure))
    return ev
