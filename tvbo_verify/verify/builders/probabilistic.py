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
* **Negative controls.** ``controls``: the same event on runs of something that cannot satisfy it
  (random, fixed-arm or greedy policy, a policy that never forgets on a drift, a named mutant),
  decided by the same rule; each must come out violated. A regret-bound claim (and any claim that
  declares controls) is confirmed only when every control failed (the ones that did not are named).

* **Anytime events.** "For every ``t ≤ T`` simultaneously, ``R_t ≤ bound(t)``" is one Bernoulli per run — did
  the whole trajectory stay under the curve — built by :func:`anytime_trials` and decided by the same rule, with
  the same power (the sharpened curve on the same trajectories), vacuity (the trivial bound Σ_{s≤t}
  (max f_s − min f_s) against the curve at every ``t``) and controls. Per-horizon :class:`Trials` at sampled
  horizons check each ``R_T`` separately and miss a crossing between them.

Example (a regret bound decided from runs)::

    trials = [Trials.from_traces({"epsilon": e, "T": T}, runs, bound, sharpened) for ...]
    control = Trials.from_traces({"control": "greedy", "epsilon": e}, greedy_runs, bound_g, sharpened_g)
    probabilistic_evidence(ctx, trials, target=0.9, threshold=1.0, sharpened_threshold=0.0,
                           sharpening="√T dropped", controls=[control], what="(20)")
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ...jsonify import to_jsonable
from ..comparison import MATERIAL_CHANGE, SharpeningError
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
    """The repetitions of one configuration of a probabilistic claim: one measured score per repetition.

    For a regret bound on runs, build it with :meth:`from_traces`, which computes the scores and what any policy
    could have reached on each run.

    Parameters
    ----------
    config : dict
        The configuration (shown in the instance table).
    scores : numpy.ndarray
        One score per repetition; the event is "score ``sense`` threshold" of :func:`probabilistic_evidence`.
    extra : dict
        Further statistics of the configuration.
    attainable : numpy.ndarray or None
        The most extreme score any policy could have reached on each repetition: where no repetition could have
        failed the event, the configuration is vacuous (inconclusive).
    regret_bound : bool
        Whether the event is a bound on the regret of runs (it then needs ``attainable``).

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import Trials
    >>> t = Trials({"n": 100}, np.array([0.5, 2.0, 4.0]))
    >>> t.scores.tolist()
    [0.5, 2.0, 4.0]
    """

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
    """Decide "P(score ``sense`` threshold) ≥ target" on every configuration, with the power of the sharpened event.

    The success frequency of each configuration is decided by an exact binomial interval; vacuous configurations
    (no repetition could have failed) are inconclusive; controls are decided by the same rule and must fail.

    Parameters
    ----------
    ctx : Context
        The check's context.
    trials : sequence of Trials
        One per configuration.
    target : float
        The probability the statement asserts (1 − δ).
    threshold : float
        The event's threshold on the score.
    sense : str
        ``"<="`` or ``">="``.
    sharpening : str
        The sharpened statement in words.
    sharpened_threshold, sharpened_target : float or None
        The sharpened event: a stricter threshold and/or a higher target.
    what : str
        What is measured.
    score : str
        The score's name in tables.
    controls : sequence of Trials
        Negative controls.
    stats : dict or None
        Extra statistics.

    Returns
    -------
    Evidence
        The verdict, with the frequency and interval of every configuration.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import Context, RunCache, Trials, probabilistic_evidence
    >>> ctx = Context("doc:example", cache=RunCache(None))
    >>> scores = np.abs(np.random.default_rng(0).standard_normal((400, 100)).mean(axis=1)) * 10
    >>> ev = probabilistic_evidence(ctx, [Trials({"n": 100}, scores)], target=0.95, threshold=3.0,
    ...                             sharpening="threshold 1", sharpened_threshold=1.0, what="a z-score")
    >>> ev.verdict.value, ev.power.caught
    ('confirmed', True)
    """
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


def _curve(name: str, curve: Any, t: np.ndarray, runs: int) -> np.ndarray:
    """A curve over rounds ``t = 1..T`` as a ``(runs, T)`` array: a callable of the round array, or values."""
    values = np.asarray(curve(t) if callable(curve) else curve, dtype=float)
    if values.ndim == 2 and values.shape[1] > t.size:
        values = values[:, :t.size]
    elif values.ndim == 1 and values.size > t.size:
        values = values[:t.size]
    try:
        out = np.broadcast_to(values, (runs, t.size))
    except ValueError:
        raise ValueError(f"{name} must give one value per round t = 1..{t.size} (shape ({t.size},) or "
                         f"({runs}, {t.size})), got shape {values.shape}") from None
    if np.any(np.isnan(out)):
        raise ValueError(f"{name} must not be NaN")
    return out


def anytime_trials(config: dict[str, Any], traces: Sequence[Any], bound: Any, sharpened: Any, *,
                   horizon: int | None = None, extra: dict[str, Any] | None = None) -> Trials:
    """The anytime regret event "``R_t ≤ bound(t)`` for every ``t ≤ T`` simultaneously", one Bernoulli per run.

    A high-probability regret bound is usually stated for all ``T`` at once (e.g. Chowdhury & Gopalan 2017,
    Theorem 3: with probability at least ``1 − δ``, the bound holds for every ``T``, from one confidence event
    uniform in ``t``). Deciding it per horizon, at sampled ``T`` (:meth:`Trials.from_traces` with ``horizon``),
    checks a weaker event: a run may cross the curve between two sampled horizons. Here each run scores
    ``max_{t ≤ T} (R_t − B'_t)/(B_t − B'_t)`` against the sharpened curve ``B'``: ``≤ 1`` exactly when the whole
    trajectory stays under the curve, ``≤ 0`` exactly when it stays under the sharpened one. Decide it with
    :func:`probabilistic_evidence` (``threshold=1.0``, ``sharpened_threshold=0.0``) like any regret bound: the
    frequency of runs that stayed under the curve against ``1 − δ``; power from the sharpened curve on the same
    trajectories; vacuous (never confirmed) when no policy could have crossed the curve on those runs at any
    ``t`` (the trivial bound ``Σ_{s ≤ t} (max f_s − min f_s)`` read from the traces stays under it); and confirmed
    only when every negative control (the same event on runs of a policy that cannot satisfy it) comes out
    violated.

    Parameters
    ----------
    config
        The configuration's name in the evidence (e.g. ``{"T": 500, "event": "anytime"}``).
    traces
        The runs (:class:`~tvbo_verify.bandits.traces.Trace`, with ``max_regret``), each at least ``horizon`` rounds.
    bound, sharpened
        The curve ``B_t`` and the sharpened curve ``B'_t ≤ B_t`` (a divided constant, a lowered exponent, a
        misread convention): a callable of the rounds ``t = 1..T`` (an integer array) or values of shape ``(T,)``
        or ``(runs, T)``; a longer curve is cut at ``T``.
    horizon
        ``T``: the first ``horizon`` rounds of each run (default: all of the first run's rounds).
    extra
        More columns for the evidence's instance table.

    Returns
    -------
    Trials
        A regret-bound configuration (``regret_bound=True``, ``attainable`` from the trivial bound), with the
        columns ``rounds``, ``runs crossing the curve``, ``earliest crossing t`` and ``mean max_t R_t / B_t``.

    Examples
    --------
    Runs whose regret jumps to 5.5 at round 30 and stays there cross ``√t`` at ``t = 30`` only (``√30 ≈ 5.48``,
    ``√31 ≈ 5.57``): every per-horizon event at ``T = 40, 70, 100`` holds, the anytime event fails.

    >>> import numpy as np
    >>> from tvbo_verify.authoring import Context, Trials, anytime_trials, probabilistic_evidence
    >>> from tvbo_verify.bandits import Trace
    >>> def run(regret):  # a run with this per-round regret, on an objective of range 1 in every round
    ...     r = np.asarray(regret, float)
    ...     T, z, i = r.size, np.zeros(r.size), np.zeros(r.size, dtype=np.int64)
    ...     return Trace(i, np.zeros((T, 1)), z, r, np.cumsum(r), i, i, z, z, z, {}, max_regret=np.ones(T))
    >>> jump = np.zeros(100)
    >>> jump[29] = 5.5
    >>> runs, linear = [run(jump)] * 40, [run(np.ones(100))] * 40  # linear regret: the negative control
    >>> curve, sharp = (lambda t: np.sqrt(t)), (lambda t: np.sqrt(t) / 4)
    >>> kw = dict(target=0.9, threshold=1.0, sharpened_threshold=0.0, sharpening="the curve divided by 4",
    ...           what="R_t <= sqrt(t)", controls=[anytime_trials({"control": "linear regret"}, linear, curve, sharp)])
    >>> per_horizon = [Trials.from_traces({"T": T}, runs, curve(T), sharp(T), horizon=T) for T in (40, 70, 100)]
    >>> probabilistic_evidence(Context("demo:anytime"), per_horizon, **kw).verdict.value
    'confirmed'
    >>> anytime = anytime_trials({"T": 100}, runs, curve, sharp)  # no run stayed under the curve: violated
    >>> anytime.successes(1.0, "<="), anytime.could_fail(1.0, "<="), anytime.extra["earliest crossing t"]
    (0, True, 30)

    In a check, ``probabilistic_evidence(ctx, [anytime], **kw)`` decides it violated, with power: the weakened
    curve ``1.75 √t`` (the sharpening's step the other way) is not refuted on the same runs.
    """
    traces = list(traces)
    if not traces:
        raise ValueError(f"configuration {config} has no runs")
    T = traces[0].T if horizon is None else int(horizon)
    if T < 1:
        raise ValueError(f"horizon must be >= 1, got {T}")
    if any(tr.T < T for tr in traces):
        raise ValueError(f"horizon {T} exceeds a run of configuration {config}")
    t = np.arange(1, T + 1)
    b = _curve("bound", bound, t, len(traces))
    s = _curve("sharpened", sharpened, t, len(traces))
    measured = np.array([np.asarray(tr.cumulative[:T], float) for tr in traces])
    trivial = np.array([tr.trivial_bound[:T] for tr in traces])
    scores = affine_score(measured, b, s).max(axis=1)
    attainable = affine_score(trivial, b, s).max(axis=1)
    above = measured > b
    crossed = np.flatnonzero(above.any(axis=0))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(b > 0, measured / np.where(b > 0, b, 1.0), np.where(measured > 0, np.inf, 0.0))
    shown = {"rounds": T, "runs crossing the curve": int(above.any(axis=1).sum()),
             "earliest crossing t": int(crossed[0]) + 1 if crossed.size else None,
             "mean max_t R_t / B_t": float(np.mean(ratio.max(axis=1)))}
    return Trials(config, scores, {**shown, **(extra or {})}, attainable, regret_bound=True)
