"""Evidence of an experiment claim, decided from the reproduction of the paper's figure.

The claim runs the reproduction (:mod:`tvbo_verify.sweeps.reproduce`, on the context's run cache, at the
claim's fidelity), turns the measured finding into :class:`Property` items and decides them with
:func:`properties_evidence`; the reproduction's figure becomes the claim's figure and its finding
the claim's statistics. An ordering of two algorithms is established when the paired bootstrap
interval of the difference of final regrets lies below 0, contradicted when it lies above, and
undecided otherwise; its sharpening claims a lower regret by a factor.

An ordering is a run-based comparison: it needs a negative control. ``experiment_evidence(...,
control=Arm("random", "random"))`` reruns the reproduction's sweeps with the control policy added as an
arm (same environment, horizons, repetitions and seeds: the other arms are read from the run cache and
the comparison stays paired) and hands ``decide`` a :class:`ControlRuns`; ``ordering_property(name,
comparison, control=runs.comparison(sweep, b))`` then decides "control below b" by the same rule, which
must come out violated. An ordering whose controls did not all fail is undecided.

Example::

    def decide(finding, runs):
        return [ordering_property(f"TV-GP-UCB below R-GP-UCB at {name}", comp,
                                  control=runs.comparison(name, "R-GP-UCB"))
                for name, comp in finding.data["comparisons"].items()]

    return experiment_evidence(ctx, "demo:figure-2", decide, what="...", control=Arm("uniform random",
                               "random"))

A claim decided over the constants its paper leaves open (:func:`~.sensitivity.sensitivity_evidence`) needs
its control at every setting: its reproduction runs the control policy as an arm of its own sweeps and its
finding carries the control comparisons.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

import numpy as np

from ...errors import MissingExtraError
from ...sweeps import Arm, Sweep, SweepResult, run_sweep
from ...sweeps.audit import audit_summary, require_definitions
from ...sweeps.reproduce import Outcome, Reproduction, get_reproduction
from ...sweeps.reproduce.analysis import compare
from ...sweeps.reproduce.registry import seeded
from ...sweeps.run_audit import require_runs
from ..engine import Context
from ..evidence import Control, Evidence, Power, Verdict
from .properties import Property, properties_evidence


def on_analogue_data(prop: Property) -> Property:
    """A property measured on data that stands in for a paper's unshippable data: reported with what it
    measured, decided as undecided (an analogue can neither confirm nor refute the paper's experiment).

    Parameters
    ----------
    prop : Property
        The property as measured on the analogue data.

    Returns
    -------
    Property
        The same property named "… [analogue data]", inconclusive, with the analogue's verdict and detail in
        its detail and its power and controls kept.

    Examples
    --------
    >>> from tvbo_verify.authoring import Property, on_analogue_data
    >>> p = on_analogue_data(Property.boolean("a below b", True))
    >>> p.name, p.verdict.value, p.detail
    ('a below b [analogue data]', 'inconclusive', 'measured confirmed on the analogue: ')
    """
    return Property(f"{prop.name} [analogue data]", Verdict.INCONCLUSIVE,
                    detail=f"measured {prop.verdict.value} on the analogue: {prop.detail}", power=prop.power,
                    controls=list(prop.controls))


def unshipped_data(description: str, stand_in: str) -> Property:
    """The property that keeps a real-data experiment undecided: the paper's data (``description``) are not
    shipped, and ``stand_in`` says what was measured in their place.

    Parameters
    ----------
    description : str
        The paper's data set, in words.
    stand_in : str
        What was measured in its place (e.g. from :func:`tracking_text`).

    Returns
    -------
    Property
        An inconclusive property named "the paper's data (…)".

    Examples
    --------
    >>> from tvbo_verify.authoring import unshipped_data
    >>> p = unshipped_data("hourly sensor readings", "a synthetic drift of the same size")
    >>> p.name, p.verdict.value
    ("the paper's data (hourly sensor readings)", 'inconclusive')
    """
    return Property(f"the paper's data ({description})", Verdict.INCONCLUSIVE, detail=f"analogue data: {stand_in}")


def tracking_text(track: dict[str, Any], arms: str, best: str, rounds: str = "months") -> str:
    """How much an analogue data set tracks, in one phrase, from the tracking statistics of a real-data
    environment: "<arms> <arms word> over <rounds> <rounds word> (<k> distinct best <best word>, the best one
    changes in <p>% of <rounds word>)".

    Parameters
    ----------
    track : dict
        The tracking statistics: ``arms``, ``rounds``, ``distinct_best_arms`` and
        ``best_arm_change_fraction`` (a fraction in ``[0, 1]``).
    arms : str
        What an arm is, plural (e.g. ``"sites"``).
    best : str
        What a best arm is, plural.
    rounds : str, optional
        What a round is, plural.

    Returns
    -------
    str
        The phrase.

    Examples
    --------
    >>> from tvbo_verify.authoring import tracking_text
    >>> tracking_text({"arms": 20, "rounds": 12, "distinct_best_arms": 3, "best_arm_change_fraction": 0.25},
    ...               "sensors", "sensors", "days")
    '20 sensors over 12 days (3 distinct best sensors, the best one changes in 25% of days)'
    """
    return (f"{track['arms']} {arms} over {track['rounds']} {rounds} ({track['distinct_best_arms']} distinct best "
            f"{best}, the best one changes in {track['best_arm_change_fraction']:.0%} of {rounds})")


def with_control(sweep: Sweep, control: Arm) -> Sweep:
    """``sweep`` with the control policy as one more arm: the same environment, horizons, repetitions and
    seeds, so its runs are paired with every other arm's (which the run cache already holds)."""
    if any(a.label == control.label for a in sweep.arms):
        raise ValueError(f"the control arm's label {control.label!r} is already an arm of sweep {sweep.name}")
    return replace(sweep, name=f"{sweep.name} with control {control.label}", arms=sweep.arms + (control,))


def reproduction_outcome(ctx: Context, reproduction: "Reproduction | str", *, sensitivity: bool = False) -> Outcome:
    """The reproduction measured at the context's fidelity and run seed, on its run cache and executor
    (:func:`tvbo_verify.sweeps.reproduce.measure`; with ``sensitivity``, also over its free constants); an
    outcome already in ``ctx.measured`` is reused when it holds what is asked, a new one replaces it, so a
    report measures each reproduction once. (A function of the builders rather than a method of
    :class:`Context`, so that the context does not depend on the sweeps.)

    Parameters
    ----------
    ctx : Context
        The claim's context: its fidelity, seed, run cache, executor and measured outcomes.
    reproduction : Reproduction or str
        The reproduction, or its registered id.
    sensitivity : bool, optional
        Also measure every one-at-a-time setting of its free constants (when it declares some).

    Returns
    -------
    Outcome
        Its ``finding``, its sweep ``results`` by name, and (with ``sensitivity``) its ``sensitivity`` record.

    Raises
    ------
    ValueError
        If ``reproduction`` is an unknown id.

    Examples
    --------
    >>> from tvbo_verify.authoring import Arm, Context, Finding, Reproduction, Sweep, reproduction_outcome
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> rep = Reproduction("doc:example", "doc", "a figure", setup="two arms", expected="GP-UCB below random",
    ...                    sweeps=lambda fidelity: {"main": sweep},
    ...                    analyse=lambda results, rng: Finding("measured", {"n": len(results["main"].traces)}),
    ...                    figure=lambda results, finding: None)
    >>> reproduction_outcome(Context("doc:example"), rep).finding.data
    {'n': 8}
    """
    from ...sweeps import reproduce  # looked up at call time: a measurement patched there is the one used

    rep = reproduce.get_reproduction(reproduction) if isinstance(reproduction, str) else reproduction
    key = (rep.id, ctx.fidelity, int(ctx.seed))
    wants_sensitivity = sensitivity and bool(rep.constants)
    known = None if ctx.measured is None else ctx.measured.get(key)
    if known is not None and (known.sensitivity is not None or not wants_sensitivity):
        return known
    outcome = reproduce.measure(rep, cache=ctx.cache, fidelity=ctx.fidelity, executor=ctx.executor, seed=ctx.seed,
                      progress=False, sensitivity=wants_sensitivity)
    if ctx.measured is not None:
        ctx.measured[key] = outcome
    return outcome


def audited_outcome(ctx: Context, rep: Reproduction, *, sensitivity: bool = False) -> Outcome:
    """:func:`reproduction_outcome` after the definition audit of the methods of the reproduction's sweeps at the
    context's fidelity and seed (:func:`~tvbo_verify.sweeps.audit.require_definitions`): a method that does not
    implement its definition, or runs another paper's version of an algorithm the reproduction's paper defines
    itself, ends the claim in error before any run is made."""
    require_definitions(seeded(rep.plan(ctx.fidelity), ctx.seed).values(), cache=ctx.cache, paper=rep.paper)
    return reproduction_outcome(ctx, rep, sensitivity=sensitivity)


@dataclass
class ControlRuns:
    """The reproduction's sweeps rerun with a control policy as one more arm (:func:`with_control`), by the
    reproduction's sweep names."""

    arm: Arm
    results: dict[str, SweepResult]
    rng: np.random.Generator
    _seen: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict, repr=False)

    def comparison(self, sweep: str, b: str) -> dict[str, Any]:
        """The control's final regret against arm ``b`` of sweep ``sweep`` (paired), as
        :func:`~tvbo_verify.sweeps.reproduce.analysis.compare` gives it (measured once per pair)."""
        if sweep not in self.results:
            raise ValueError(f"no control runs for sweep {sweep!r}; sweeps: {', '.join(self.results)}")
        if (sweep, b) not in self._seen:
            self._seen[(sweep, b)] = compare(self.results[sweep], self.arm.label, b, self.rng)
        return self._seen[(sweep, b)]


def ordering_verdict(comparison: dict[str, Any]) -> Verdict:
    """"a has lower final regret than b": established when the paired interval of a − b lies below 0,
    contradicted when it lies above 0."""
    lo, hi = comparison["difference"]["ci95"]
    return Verdict.CONFIRMED if hi < 0 else Verdict.VIOLATED if lo > 0 else Verdict.INCONCLUSIVE


def comparison_text(comparison: dict[str, Any]) -> str:
    lo, hi = comparison["difference"]["ci95"]
    r_lo, r_hi = comparison["ratio_ci95"]
    return (f"{comparison['a']} − {comparison['b']}: mean {comparison['difference']['mean']:.4g}, "
            f"95% CI [{lo:.4g}, {hi:.4g}]; ratio of means {comparison['ratio']:.3g} (CI {r_lo:.3g}..{r_hi:.3g})")


def comparison_control(comparison: dict[str, Any], rule: Callable[[dict[str, Any]], Verdict],
                       statement: str) -> Control:
    """A negative control of a comparison property: ``rule`` (the property's own) on the comparison of the
    control arm with the same ``b``; it must come out violated.

    Parameters
    ----------
    comparison : dict
        The control arm (as ``a``) against ``b``, as :func:`compare` returns it.
    rule : callable
        The property's rule: a comparison to a :class:`Verdict`.
    statement : str
        The property's statement with the control in place of the method.

    Returns
    -------
    Control
        Named "<control> vs <b>", with the rule's verdict, the comparison in words and its difference and ratio
        as statistic.

    Examples
    --------
    >>> from tvbo_verify.authoring import Verdict, comparison_control
    >>> comp = {"a": "random", "b": "method", "difference": {"mean": 2.0, "ci95": [1.0, 3.0]}, "ratio": 1.5,
    ...         "ratio_ci95": [1.2, 1.8]}
    >>> below = lambda c: Verdict.CONFIRMED if c["difference"]["ci95"][1] < 0 else Verdict.VIOLATED
    >>> control = comparison_control(comp, below, "random below method")
    >>> control.name, control.failed
    ('random vs method', True)
    """
    return Control(f"{comparison['a']} vs {comparison['b']}", f"{statement} with {comparison['a']} in place of the "
                   "method; it must come out violated", rule(comparison), comparison_text(comparison),
                   {"difference": comparison["difference"], "ratio": comparison["ratio"],
                    "ratio_ci95": comparison["ratio_ci95"]})


def ratio_bound_power(ratio_ci95: Sequence[float], stated: float, sharpened: float, sharpening: str) -> Power:
    """Power of a confirmed bound on a ratio of means against a stronger bound: "at most ``stated``" against
    "at most ``sharpened``" (``sharpened < stated``), or "at least ``stated``" against "at least ``sharpened``"
    (``sharpened > stated``). The interval must tell the two apart. It does when it refutes the sharpening
    (it lies wholly on the far side of ``sharpened``), or when it is narrower than the distance between the
    two: an interval that cannot hold both values would have lain beyond ``stated`` had the true ratio been
    past it by that width, so the confirmation could have come out violated. The width, not the side of
    ``sharpened`` the interval falls on, decides: the further the ratio lies past the sharpened bound, the
    less a refutation of it is possible, and a rule asking for one would call the clearest confirmations
    powerless.

    Parameters
    ----------
    ratio_ci95 : sequence of float
        The interval ``(low, high)`` of the ratio of means (``ratio_ci95`` of :func:`compare`).
    stated : float
        The bound the claim states.
    sharpened : float
        The stronger bound (below ``stated`` for an upper bound, above it for a lower bound).
    sharpening : str
        The sharpened statement in words.

    Returns
    -------
    Power
        ``caught`` as above; ``detail`` says which case decided.

    Raises
    ------
    ValueError
        If ``sharpened`` equals ``stated``.

    Examples
    --------
    >>> from tvbo_verify.authoring import ratio_bound_power
    >>> ratio_bound_power([0.67, 0.74], 1.25, 1.0, "no increase at all").caught   # clearly below 1: resolved
    True
    >>> ratio_bound_power([0.4, 1.2], 1.25, 1.0, "no increase at all").caught     # too wide to tell 1 from 1.25
    False
    >>> ratio_bound_power([1.5, 2.5], 1.0, 3.0, "trails by a factor 3").caught    # ends below 3: refuted
    True
    """
    lo, hi = (float(v) for v in ratio_ci95)
    if sharpened == stated:
        raise ValueError(f"sharpened must differ from stated, got {sharpened} for both")
    upper = sharpened < stated
    if (lo > sharpened) if upper else (hi < sharpened):
        end, value = ("lower", lo) if upper else ("upper", hi)
        return Power(sharpening, True, f"ratio CI {end} end {value:.3g} {'>' if upper else '<'} {sharpened:.3g}")
    gap = abs(stated - sharpened)
    resolved = hi - lo < gap
    return Power(sharpening, resolved, f"ratio CI width {hi - lo:.3g} {'<' if resolved else '>='} {gap:.3g}, "
                 f"the distance from {sharpened:.3g} to {stated:.3g}")


def ordering_property(name: str, comparison: dict[str, Any], *, factor: float = 3.0,
                      control: dict[str, Any] | None = None) -> Property:
    """"a has lower final regret than b" from :func:`~tvbo_verify.sweeps.reproduce.compare`; power: the
    ratio's interval must tell the ordering from the stronger "a's regret is below b's divided by ``factor``"
    (:func:`ratio_bound_power`; for a refuted ordering: the weakened "a's regret is below ``factor`` times b's"
    not refuted). ``control``: the comparison of a control policy with the same b
    (:meth:`ControlRuns.comparison`); the ordering is established only when the control's ordering comes out
    violated.

    The ordering is confirmed when the paired interval of the difference of final regrets ``a − b`` lies below
    0, violated when it lies above 0, inconclusive otherwise.

    Parameters
    ----------
    name : str
        What the property says.
    comparison : dict
        ``a`` against ``b``, as :func:`compare` returns it.
    factor : float, optional
        The factor of the sharpened (or, for a refuted ordering, the weakened) statement.
    control : dict or None, optional
        The comparison of a control policy with the same ``b``; its ordering must come out violated.

    Returns
    -------
    Property
        The ordering, decided, with its power and control; marked as needing a control.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import Arm, RunCache, Sweep, compare, ordering_property, run_sweep
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> result = run_sweep(sweep, cache=RunCache(None))
    >>> rng = np.random.default_rng(0)
    >>> prop = ordering_property("GP-UCB below random", compare(result, "GP-UCB", "random", rng),
    ...                          control=compare(result, "random", "random", rng))
    >>> prop.verdict.value in ("confirmed", "violated", "inconclusive"), prop.needs_control, len(prop.controls)
    (True, True, 1)
    """
    verdict = ordering_verdict(comparison)
    r_lo, _ = comparison["ratio_ci95"]
    if verdict is Verdict.VIOLATED:  # a refuted ordering: the weakened statement, the factor the other way, must stand
        caught = r_lo <= factor
        power = Power(f"weakened: {comparison['a']}'s regret below {factor:g} × {comparison['b']}'s must not be "
                      "refuted", caught, f"ratio CI lower end {r_lo:.3g} {'<=' if caught else '>'} {factor:g}")
    else:
        power = ratio_bound_power(comparison["ratio_ci95"], 1.0, 1.0 / factor,
                                  f"{comparison['a']}'s regret below 1/{factor:g} of {comparison['b']}'s")
    controls = [] if control is None else [
        comparison_control(control, ordering_verdict, f"{control['a']} below {control['b']}")]
    return Property(name, verdict, detail=comparison_text(comparison), power=power, controls=controls,
                    needs_control=True)


def experiment_evidence(ctx: Context, reproduction_id: str, decide: Callable[..., Sequence[Property]], *,
                        what: str, control: Arm | None = None,
                        control_sweeps: Sequence[str] | None = None) -> Evidence:
    """Run the reproduction (its runs read from or written to ``ctx.cache``; measured once per report,
    :func:`~tvbo_verify.verify.builders.experiment.reproduction_outcome`), decide its properties, attach its figure.

    With ``control`` (a control policy), the reproduction's sweeps named in ``control_sweeps`` (default: all)
    are rerun with it as one more arm and ``decide(finding, runs)`` receives the :class:`ControlRuns`;
    without, ``decide(finding)``. Inconclusive, with the install command as the reason, when the
    reproduction needs an optional extra that is not installed (the real-data analogues need the extra
    ``data``).

    Every compared method is first replayed against its definition
    (:func:`~tvbo_verify.sweeps.audit.require_definitions`, as :func:`run_audited_sweep` does): a method that
    does not implement its definition ends the claim in error.

    Parameters
    ----------
    ctx : Context
        The claim's context.
    reproduction_id : str
        The id of a registered reproduction (:func:`register_reproduction`).
    decide : callable
        ``decide(finding)`` (or ``decide(finding, runs)`` with ``control``): the properties to decide.
    what : str
        What is measured, for the evidence's summary.
    control : Arm or None, optional
        A control policy, run as one more arm of the reproduction's sweeps.
    control_sweeps : sequence of str or None, optional
        The names of the sweeps rerun with the control (default: all).

    Returns
    -------
    Evidence
        The properties decided (:func:`properties_evidence`), with the finding and set-up as statistics and the
        reproduction's figure.

    Raises
    ------
    ValueError
        If ``reproduction_id`` is not registered.

    Examples
    --------
    >>> import uuid
    >>> from tvbo_verify.authoring import (Arm, Context, Finding, Reproduction, Sweep, compare,
    ...                                    experiment_evidence, ordering_property)
    >>> from tvbo_verify.sweeps.reproduce import register
    >>> sweep = Sweep("doc", (Arm("arm 0", "fixed-arm", {"arm": 0}), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> def analyse(results, rng):
    ...     return Finding("arm 0 against random", {"comparison": compare(results["main"], "arm 0", "random", rng)})
    >>> rep = register(Reproduction(f"doc:example-{uuid.uuid4().hex[:8]}", "doc", "a figure", setup="two arms",
    ...                             expected="arm 0 below random", sweeps=lambda fidelity: {"main": sweep},
    ...                             analyse=analyse, figure=lambda results, finding: None))
    >>> def decide(finding, runs):
    ...     return [ordering_property("arm 0 below random", finding.data["comparison"],
    ...                               control=runs.comparison("main", "random"))]
    >>> ev = experiment_evidence(Context("doc:example"), rep.id, decide, what="an ordering",
    ...                          control=Arm("arm 4", "fixed-arm", {"arm": 4}))
    >>> ev.verdict.value, ev.controls[0].failed, ev.stats["reproduction"] == rep.id
    ('confirmed', True, True)
    """
    rep = get_reproduction(reproduction_id)
    try:
        outcome = audited_outcome(ctx, rep)
    except MissingExtraError as exc:
        return missing_extra_evidence(exc, rep.id)
    if control is None:
        props = list(decide(outcome.finding))
    else:
        names = list(outcome.results) if control_sweeps is None else list(control_sweeps)
        results = {n: run_sweep(with_control(outcome.results[n].sweep, control), executor=ctx.executor,
                                cache=ctx.cache, progress=False) for n in names}
        props = list(decide(outcome.finding, ControlRuns(control, results, ctx.rng)))
    return outcome_evidence(ctx, outcome, props, what=what)


def missing_extra_evidence(exc: MissingExtraError, reproduction_id: str) -> Evidence:
    """Inconclusive, with the install command as the reason: the reproduction needs an extra that is missing."""
    return Evidence(Verdict.INCONCLUSIVE, f"not measured: {exc}",
                    stats={"reason": str(exc), "missing_extra": exc.extra, "reproduction": reproduction_id})


def outcome_evidence(ctx: Context, outcome: Outcome, props: Sequence[Property], *, what: str) -> Evidence:
    """Decide ``props`` measured on a reproduction's ``outcome``; its finding and set-up become the statistics,
    its figure the claim's figure. Every compared method is first replayed against its definition
    (:func:`~tvbo_verify.sweeps.audit.require_definitions`): a method that does not implement its definition
    raises :class:`~tvbo_verify.sweeps.audit.DefinitionMismatch`, which ends the claim in error (the comparison
    would not be the paper's), also when a caller goes on to decide from the outcome's constants."""
    rep = outcome.reproduction
    audits = require_definitions((r.sweep for r in outcome.results.values()), cache=ctx.cache, paper=rep.paper)
    runs = require_runs(outcome.results.values(), cache=ctx.cache)
    audit = {"summary": f"{audit_summary(audits)}; {runs.summary()}", "methods": [a.to_dict() for a in audits],
             "runs": runs.to_dict()}
    ev = properties_evidence(ctx, props, what=what,
                             stats={"reproduction": rep.id, "finding": outcome.finding.text,
                                    "measured": outcome.finding.data, "setup": rep.setup,
                                    "data_note": rep.data_note, "definition_audit": audit},
                             configuration={"reproduction": rep.id, "fidelity": ctx.fidelity})
    ev.summary = f"{ev.summary}; {audit['summary']}"
    ev.figures.append((rep.title, lambda: rep.figure(outcome.results, outcome.finding)))
    return ev
