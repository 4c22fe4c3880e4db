"""Evidence of a probabilistic claim: success frequencies over seeded repetitions (docs/ARCHITECTURE.md §5).

A statement "with probability at least 1 − δ, score <= threshold" is measured as one score per
repetition (e.g. the worst ratio |μ − f| / (β σ) over a run) for each configuration. The rule of
:func:`~tvbo_verify.verify.stats.decide_probabilistic` decides each configuration; every configuration
is a part of the claim (confirmed when all are, violated when one is). The sharpened statement reads
the *same* scores against a shrunk threshold (a narrower band) or a raised probability.

The contract:

* **Power per part.** A confirmation has power only when every deciding configuration catches the
  sharpened event; a violation, decided by any one failing configuration, has power when some failing
  configuration passes the weakened event (that configuration alone refutes the statement).
* **Vacuity.** A configuration whose event no repetition could have failed (``Trials.attainable``,
  the most extreme score any policy could reach) is inconclusive, never confirmed. For a regret
  bound the builder computes it itself: :meth:`Trials.from_traces` reads the trivial bound
  Σ_t (max f_t − min f_t) from every run (per round for a per-step bound), and a regret-bound
  :class:`Trials` without it is refused.
* **Bounds fixed before the measurement.** :meth:`Trials.against` takes the measured values and a bound built
  by the builder from constants the check fixed with ``ctx.fix`` before drawing anything; a bound that reads
  the measurement it is compared with (η set to the observed mean) is refused
  (:class:`~tvbo_verify.verify.comparison.CircularBoundError`). A check that divides its scores by a bound
  itself must compute that bound from the statement and the repetition, never from the measured sample.
* **Negative controls.** ``controls``: the same event on runs of something that cannot satisfy it
  (random, fixed-arm or greedy policy, a policy that never forgets on a drift, a named mutant),
  decided by the same rule; each must come out violated. A regret-bound claim (and any claim that
  declares controls) is confirmed only when every control failed (the ones that did not are named).

Example (a regret bound decided from runs)::

    trials = [Trials.from_traces({"epsilon": e, "T": T}, runs, bound, sharpened) for ...]
    control = Trials.from_traces({"control": "greedy", "epsilon": e}, greedy_runs, bound_g, sharpened_g)
    probabilistic_evidence(ctx, trials, target=0.9, threshold=1.0, sharpened_threshold=0.0,
                           sharpening="√T dropped", controls=[control], what="(20)")
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from ...jsonify import to_jsonable
from ..comparison import MATERIAL_CHANGE, Fixed, SharpeningError, fixed_bound
from ..engine import Context
from ..evidence import Control, Evidence, Power, Verdict
from ..stats import decide_probabilistic, parts_power, refutation_power, require_failed_control
from .common import combine, rerun_record


def affine_score(measured: Any, bound: Any, sharpened: Any) -> np.ndarray:
    """(m − B')/(B − B'): <= 1 exactly when m <= B, <= 0 exactly when m <= B'. Where B = B' (no gap between
    the statement and its sharpening) the score is −inf when m <= B and +inf otherwise."""
    m, b, s = np.broadcast_arrays(np.asarray(measured, float), np.asarray(bound, float), np.asarray(sharpened, float))
    if np.any(b < s):
        raise ValueError("the sharpened bound must not lie above the bound")
    gap = b - s
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(gap > 0, (m - s) / np.where(gap > 0, gap, 1.0), np.where(m <= b, -np.inf, np.inf))
    return out


@dataclass
class Trials:
    """The repetitions of one configuration: one measured score per repetition.

    ``attainable`` (optional, one per repetition) is the most extreme score *any* policy could have reached
    on that repetition (e.g. the score of Σ_t (max f_t − min f_t) against a regret bound): where no
    repetition could have failed the event, the configuration is vacuous (inconclusive).
    ``regret_bound``: the event is a bound on the regret of runs; it then needs ``attainable`` (the builder
    refuses it otherwise) — build it with :meth:`from_traces`, which computes both from the traces."""

    config: dict[str, Any]
    scores: np.ndarray
    extra: dict[str, Any] = field(default_factory=dict)
    attainable: np.ndarray | None = None
    regret_bound: bool = False

    def __post_init__(self) -> None:
        self.scores = np.asarray(self.scores, float).ravel()
        if self.scores.size == 0:
            raise ValueError(f"configuration {self.config} has no repetitions")
        if self.attainable is not None:
            self.attainable = np.asarray(self.attainable, float).ravel()
            if self.attainable.shape != self.scores.shape:
                raise ValueError(f"attainable must have one value per repetition ({self.scores.size}), "
                                 f"got {self.attainable.size}")
        elif self.regret_bound:
            raise ValueError(f"the regret bound of configuration {self.config} comes without the trivial bound of "
                             "its runs: build it with Trials.from_traces, which reads Σ_t (max f_t − min f_t) from "
                             "the traces")

    @classmethod
    def from_traces(cls, config: dict[str, Any], traces: Sequence[Any], bound: Any, sharpened: Any, *,
                    horizon: int | None = None, per_step: bool = False,
                    extra: dict[str, Any] | None = None) -> "Trials":
        """The regret bound "R_T <= bound" on each run (``per_step``: "r_t <= bound_t for every t <= T"),
        scored (m − B')/(B − B') against the sharpened bound B' (<= 1: the bound holds, <= 0: the sharpened one
        holds), with the trivial bound of every run computed from its ``max_regret``: Σ_{t<=T} (max f_t −
        min f_t) for R_T, max f_t − min f_t for r_t.

        ``bound`` and ``sharpened``: one value per run (or one for all) for R_T; shape (runs, T) or (T,) per
        step. ``horizon``: read the first ``horizon`` rounds of each run (default: all)."""
        traces = list(traces)
        if not traces:
            raise ValueError(f"configuration {config} has no runs")
        T = traces[0].T if horizon is None else int(horizon)
        if any(tr.T < T for tr in traces):
            raise ValueError(f"horizon {T} exceeds a run of configuration {config}")
        if per_step:
            measured = np.array([tr.regret[:T] for tr in traces])
            trivial = np.array([np.diff(tr.trivial_bound[:T], prepend=0.0) for tr in traces])
            b = np.broadcast_to(np.asarray(bound, float), measured.shape)
            s = np.broadcast_to(np.asarray(sharpened, float), measured.shape)
            scores, attainable = affine_score(measured, b, s).max(axis=1), affine_score(trivial, b, s).max(axis=1)
            shown = {"mean max_t r_t / bound_t": float(np.mean(np.max(measured / b, axis=1)))}
        else:
            measured = np.array([tr.cumulative[T - 1] for tr in traces])
            trivial = np.array([tr.trivial_bound[T - 1] for tr in traces])
            b = np.broadcast_to(np.asarray(bound, float), measured.shape)
            s = np.broadcast_to(np.asarray(sharpened, float), measured.shape)
            scores, attainable = affine_score(measured, b, s), affine_score(trivial, b, s)
            shown = {"mean R_T": float(measured.mean()), "mean bound": float(b.mean()),
                     "mean sharpened bound": float(s.mean()), "mean trivial bound": float(trivial.mean())}
        return cls(config, scores, {**shown, **(extra or {})}, attainable, regret_bound=True)

    @classmethod
    def against(cls, config: dict[str, Any], measured: Any, fixed: Fixed, bound: Callable[[Fixed], Any] | str,
                sharpened: Callable[[Fixed], Any] | str | None = None, *,
                extra: dict[str, Any] | None = None) -> "Trials":
        """The event "measured <= bound" on every repetition, with ``bound`` (and its ``sharpened`` variant) built
        from ``fixed`` (the constants ``ctx.fix`` fixed before the measurement) only, scored
        (m − B')/(B − B') as :func:`affine_score` (<= 1: the bound holds, <= 0: the sharpened one holds); without
        ``sharpened`` the score is m/B (the sharpening is then a threshold below 1 of the builder).
        ``measured``: one value per repetition; ``bound``/``sharpened``: functions of the fixed constants (or the
        name of one), giving one value for all repetitions or one per repetition. A bound not built from ``ctx.fix``
        raises :class:`~tvbo_verify.verify.comparison.CircularBoundError`."""
        where = ", ".join(f"{k}={v}" for k, v in config.items()) or "configuration"
        m = np.asarray(measured, float).ravel()
        b = np.broadcast_to(np.asarray(fixed_bound(fixed, bound, where), float), m.shape)
        s = np.zeros(m.shape) if sharpened is None else \
            np.broadcast_to(np.asarray(fixed_bound(fixed, sharpened, where), float), m.shape)
        shown = {"fixed constants": dict(fixed), "mean measured": float(m.mean()) if m.size else float("nan"),
                 "bound": float(b.mean()) if np.all(b == b.flat[0]) else "per repetition"}
        return cls(config, affine_score(m, b, s), {**shown, **(extra or {})})

    @property
    def name(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.config.items()) or "configuration"

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


def _weakened_caught(t: Trials, threshold: float, target: float, s_threshold: float | None,
                     s_target: float | None, sense: str) -> tuple[bool, str]:
    """For a refuted event: the same check must not refute the weakened event (threshold moved the other
    way by the sharpening's factor, or the probability lowered by as much), or it refutes by construction."""
    if s_threshold is None:
        w_thr = threshold
    elif s_threshold > 0 and threshold > 0:
        w_thr = threshold * threshold / s_threshold  # the sharpening's factor, the other way
    else:
        w_thr = 2 * threshold - s_threshold  # the sharpening's step, the other way
    w_tgt = target if s_target is None else max(target - (s_target - target), 1e-6)
    k, n = t.successes(w_thr, sense), t.scores.size
    v, _ = decide_probabilistic(k, n, w_tgt)
    return v is not Verdict.VIOLATED, f"{t.name}: {k}/{n} for threshold {w_thr:g} at probability {w_tgt:g}"


def _control(t: Trials, threshold: float, target: float, sense: str) -> Control:
    k, n = t.successes(threshold, sense), t.scores.size
    v, st = decide_probabilistic(k, n, target)
    return Control(t.name, f"the claim's event (score {sense} {threshold:g} with probability >= {target:g}) on "
                   f"{t.name}; it must come out violated", v,
                   f"{k}/{n} successes (frequency {k / n:.3f}, 99% upper bound {st['upper99']:.3f})",
                   {"successes": k, "n": n, "frequency": k / n, "upper99": st["upper99"]})


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
    controls: Sequence[Trials] = (),
    stats: dict[str, Any] | None = None,
) -> Evidence:
    """Decide "P(score ``sense`` threshold) >= target" on every configuration; power from the sharpened event,
    per configuration; vacuous configurations inconclusive; controls decided by the same rule (module
    docstring)."""
    if not trials:
        raise ValueError("trials must hold at least one configuration")
    _check_sharpening(threshold, target, sharpened_threshold, sharpened_target, sense)
    s_thr = threshold if sharpened_threshold is None else sharpened_threshold
    s_tgt = target if sharpened_target is None else sharpened_target
    rows, verdicts, decided, caught, vacuous = [], [], [], [], []
    for t in trials:
        k, n = t.successes(threshold, sense), t.scores.size
        v, st = decide_probabilistic(k, n, target)
        can_fail = t.could_fail(threshold, sense)
        if not can_fail:
            v = Verdict.INCONCLUSIVE
            vacuous.append(t)
        sv, _ = decide_probabilistic(t.successes(s_thr, sense), n, s_tgt)
        caught.append(sv is Verdict.VIOLATED and v is not Verdict.VIOLATED)
        verdicts.append(v)
        decided.append(st)
        row = {**t.config, "runs": n, "successes": k, "frequency": k / n, "target": target,
               "ci95 low": st["ci95"][0], "ci95 high": st["ci95"][1],
               f"worst {score}": float(np.nanmax(t.scores) if sense == "<=" else np.nanmin(t.scores)),
               f"median {score}": float(np.nanmedian(t.scores)), **t.extra}
        if not can_fail:
            row["vacuous"] = "no run could fail the event"
        rows.append(to_jsonable(row))
    deciding = [j for j, t in enumerate(trials) if t.could_fail(threshold, sense)]
    worst = min(deciding or range(len(trials)), key=lambda j: rows[j]["frequency"])
    verdict = combine(verdicts)
    order = np.argsort([r["frequency"] for r in rows], kind="stable")
    w = decided[worst]
    summary = (f"{what}: worst configuration {score} {sense} {threshold:g} in {w['successes']}/{w['n']} runs "
               f"(frequency {w['frequency']:.3f}, 95% CI {w['ci95'][0]:.3f}..{w['ci95'][1]:.3f}) against "
               f"1 − δ = {target:g}; {sum(v is Verdict.CONFIRMED for v in verdicts)} of {len(trials)} "
               f"configurations reach it.")
    if vacuous:
        summary += _vacuity_sentence(vacuous, len(trials), score, threshold, sense)
    if verdict is Verdict.VIOLATED:
        failing = [j for j, v in enumerate(verdicts) if v is Verdict.VIOLATED]
        checks = [_weakened_caught(trials[j], threshold, target, sharpened_threshold, sharpened_target, sense)
                  for j in failing]
        power = Power(f"weakened {sharpening}: must not be refuted where the stated event is (in some failing "
                      "configuration, which then decides the refutation)",
                      refutation_power([c for c, _ in checks]), "; ".join(d for _, d in checks))
    else:
        got = [caught[j] for j in deciding]
        power = Power(sharpening, parts_power(got),
                      f"sharpened event refuted (99% upper bound below its target) in {sum(got)} of {len(got)} "
                      f"deciding configurations where the stated event was not (power needs every one)")
    ctrl = [_control(c, threshold, target, sense) for c in controls]
    if any(t.regret_bound for t in trials) or ctrl:
        _, reason = require_failed_control(Verdict.CONFIRMED, ctrl)
        if ctrl:
            summary += " Negative controls: " + "; ".join(f"{c.name} {c.verdict.value} ({c.detail})"
                                                          for c in ctrl) + "."
        if reason and verdict is not Verdict.VIOLATED:
            verdict = Verdict.INCONCLUSIVE
            summary += f" No power: {reason}."
    record = rerun_record(ctx, {"worst_frequency": w["frequency"], "successes": w["successes"], "n": w["n"]},
                          rows[worst]) if verdict is Verdict.VIOLATED else None
    labels = [t.name if t.config else f"configuration {j}" for j, t in enumerate(trials)]

    def figure():
        from .figures import frequency_figure

        return frequency_figure(labels, [d["frequency"] for d in decided], [d["ci95"][0] for d in decided],
                                [d["ci95"][1] for d in decided], target)

    return Evidence(verdict, summary, instances=[rows[i] for i in order] + [c.row() for c in ctrl],
                    margin=w["frequency"] - target,
                    figures=[("success frequency per configuration", figure)],
                    counterexample=record,
                    stats={**w, "configurations": len(trials), "vacuous_configurations": len(vacuous),
                           "threshold": threshold, "sense": sense,
                           "margin_of": "worst configuration (frequency − target)", **(stats or {})},
                    power=power, controls=ctrl)


def _vacuity_sentence(vacuous: Sequence[Trials], total: int, score: str, threshold: float, sense: str) -> str:
    """Which configurations no run could fail, with the bound against the trivial bound where known."""
    t = vacuous[0]
    if "mean bound" in t.extra and "mean trivial bound" in t.extra:
        example = (f"vacuous at this set-up: bound {t.extra['mean bound']:.4g} ≥ trivial "
                   f"{t.extra['mean trivial bound']:.4g} at {t.name}")
    else:
        extreme = float(np.max(t.attainable)) if sense == "<=" else float(np.min(t.attainable))
        example = (f"no run could have failed at {t.name}: the most extreme {score} any policy could reach is "
                   f"{extreme:.3g} (threshold {threshold:g})")
    return (f" {len(vacuous)} of {total} configurations are vacuous and undecided ({example}); a bound no run "
            "could break is not evidence.")
