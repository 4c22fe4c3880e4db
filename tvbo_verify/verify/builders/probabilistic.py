"""Evidence of a probabilistic claim: success frequencies over seeded repetitions (ARCHITECTURE.md).

A statement "with probability at least 1 − δ, score <= threshold" is measured as one score per
repetition (e.g. the worst ratio |μ − f| / (β σ) over a run) for each configuration. The rule of
:func:`~tvbo_verify.verify.stats.decide_probabilistic` decides each configuration; the worst
decides the claim. The sharpened statement reads the *same* scores against a shrunk threshold
(a narrower band) or a raised probability.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ...jsonify import to_jsonable
from ..comparison import MATERIAL_CHANGE, SharpeningError
from ..engine import Context
from ..evidence import Evidence, Power, Verdict
from ..stats import decide_probabilistic
from .common import combine, rerun_record


@dataclass
class Trials:
    """The repetitions of one configuration: one measured score per repetition.

    ``attainable`` (optional, one per repetition) is the most extreme score *any* policy could have reached
    on that repetition (e.g. Σ_t (max f_t − min f_t) over a regret bound): where no repetition of any
    configuration could have failed the event, the event cannot fail on these runs and a confirmation
    is not evidence (the claim is then inconclusive)."""

    config: dict[str, Any]
    scores: np.ndarray
    extra: dict[str, Any] = field(default_factory=dict)
    attainable: np.ndarray | None = None

    def __post_init__(self) -> None:
        self.scores = np.asarray(self.scores, float).ravel()
        if self.scores.size == 0:
            raise ValueError(f"configuration {self.config} has no repetitions")
        if self.attainable is not None:
            self.attainable = np.asarray(self.attainable, float).ravel()
            if self.attainable.shape != self.scores.shape:
                raise ValueError(f"attainable must have one value per repetition ({self.scores.size}), "
                                 f"got {self.attainable.size}")

    def could_fail(self, threshold: float, sense: str) -> bool:
        """False when ``attainable`` shows that no repetition could have failed the event."""
        if self.attainable is None:
            return True
        a = self.attainable
        return bool(np.any(a > threshold if sense == "<=" else a < threshold))

    def successes(self, threshold: float, sense: str) -> int:
        ok = self.scores <= threshold if sense == "<=" else self.scores >= threshold
        return int(np.sum(ok & ~np.isnan(self.scores)))


def _check_sharpening(threshold: float, target: float, s_threshold: float | None, s_target: float | None,
                      sense: str) -> None:
    if s_threshold is None and s_target is None:
        raise SharpeningError("a probabilistic sharpening shrinks the threshold or raises the probability")
    if s_threshold is not None:
        stronger = s_threshold < threshold if sense == "<=" else s_threshold > threshold
        if not stronger or abs(s_threshold - threshold) < MATERIAL_CHANGE * max(abs(threshold), 1e-300):
            raise SharpeningError(f"sharpened threshold {s_threshold:g} is not materially stronger than {threshold:g}")
    if s_target is not None and not (target < s_target < 1.0):
        raise SharpeningError(f"sharpened probability {s_target:g} must lie in ({target:g}, 1)")


def _weakened_power(t: Trials, threshold: float, target: float, s_threshold: float | None,
                    s_target: float | None, sense: str) -> Power:
    """For a refuted event: the same check must not refute the weakened event (threshold moved the other
    way by the sharpening's factor, or the probability lowered by as much), or it refutes by construction."""
    w_thr = threshold if s_threshold is None else threshold * threshold / s_threshold
    w_tgt = target if s_target is None else max(target - (s_target - target), 1e-6)
    k, n = t.successes(w_thr, sense), t.scores.size
    v, _ = decide_probabilistic(k, n, w_tgt)
    return Power(f"weakened: threshold {w_thr:g} at probability {w_tgt:g} must not be refuted",
                 v is not Verdict.VIOLATED, f"{k}/{n} successes for the weakened event in the worst configuration")


def probabilistic_evidence(
    ctx: Context,
    trials: Sequence[Trials],
    *,
    target: float,
    threshold: float = 1.0,
    sense: str = "<=",
    sharpening: str,
    sharpened_threshold: float | None = None,
    sharpened_target: float | None = None,
    what: str,
    score: str = "score",
    stats: dict[str, Any] | None = None,
) -> Evidence:
    """Decide "P(score ``sense`` threshold) >= target" on every configuration; power from the sharpened event."""
    if not trials:
        raise ValueError("trials must hold at least one configuration")
    _check_sharpening(threshold, target, sharpened_threshold, sharpened_target, sense)
    rows, verdicts, decided = [], [], []
    caught = []
    for t in trials:
        k, n = t.successes(threshold, sense), t.scores.size
        v, st = decide_probabilistic(k, n, target)
        s_thr = threshold if sharpened_threshold is None else sharpened_threshold
        s_tgt = target if sharpened_target is None else sharpened_target
        sv, _ = decide_probabilistic(t.successes(s_thr, sense), n, s_tgt)
        caught.append(sv is Verdict.VIOLATED and v is not Verdict.VIOLATED)
        verdicts.append(v)
        decided.append(st)
        rows.append(to_jsonable({**t.config, "runs": n, "successes": k, "frequency": k / n, "target": target,
                                 "ci95 low": st["ci95"][0], "ci95 high": st["ci95"][1],
                                 f"worst {score}": float(np.nanmax(t.scores) if sense == "<=" else np.nanmin(t.scores)),
                                 f"median {score}": float(np.nanmedian(t.scores)), **t.extra}))
    worst = int(np.argmin([r["frequency"] for r in rows]))
    verdict = combine(verdicts)
    order = np.argsort([r["frequency"] for r in rows], kind="stable")
    w = decided[worst]
    summary = (f"{what}: worst configuration {score} {sense} {threshold:g} in {w['successes']}/{w['n']} runs "
               f"(frequency {w['frequency']:.3f}, 95% CI {w['ci95'][0]:.3f}..{w['ci95'][1]:.3f}) against "
               f"1 − δ = {target:g}; {sum(v is Verdict.CONFIRMED for v in verdicts)} of {len(trials)} "
               f"configurations reach it.")
    power = Power(sharpening, any(caught),
                  f"sharpened event refuted (99% upper bound below its target) in {sum(caught)} of {len(trials)} "
                  f"configurations where the stated event was not")
    if verdict is Verdict.CONFIRMED and not any(t.could_fail(threshold, sense) for t in trials):
        extreme = (max(float(np.max(t.attainable)) for t in trials) if sense == "<=" else
                   min(float(np.min(t.attainable)) for t in trials))
        verdict = Verdict.INCONCLUSIVE
        summary += (f" No run could have failed: the most extreme {score} any policy could reach is {extreme:.3g} "
                    f"(threshold {threshold:g}), so the event is vacuous on these runs and does not decide the claim.")
    if verdict is Verdict.VIOLATED and not any(caught):
        power = _weakened_power(trials[worst], threshold, target, sharpened_threshold, sharpened_target, sense)
    record = rerun_record(ctx, {"worst_frequency": w["frequency"], "successes": w["successes"], "n": w["n"]},
                          rows[worst]) if verdict is Verdict.VIOLATED else None
    labels = [", ".join(f"{k}={v}" for k, v in t.config.items()) or f"configuration {j}" for j, t in enumerate(trials)]

    def figure():
        from .figures import frequency_figure

        return frequency_figure(labels, [d["frequency"] for d in decided], [d["ci95"][0] for d in decided],
                                [d["ci95"][1] for d in decided], target)

    return Evidence(verdict, summary, instances=[rows[i] for i in order], margin=w["frequency"] - target,
                    figures=[("success frequency per configuration", figure)],
                    counterexample=record,
                    stats={**w, "configurations": len(trials), "threshold": threshold, "sense": sense,
                           "margin_of": "worst configuration (frequency − target)", **(stats or {})},
                    power=power)
