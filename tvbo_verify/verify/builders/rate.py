"""Evidence of a rate claim: measured growth against a claimed order ``x^exponent`` (docs/ARCHITECTURE.md §5).

The measured quantity (cumulative regret R_T, a count, a variance sum) is taken on a geometric
ladder of sizes ``x``. Its ratio to ``x^exponent`` must show no growth beyond the stated polylog
allowance: for random repetitions the bootstrap CI of the log–log slope decides
(:func:`~tvbo_verify.verify.stats.decide_rate`); for a deterministic family of instances the worst
curve decides (:func:`~tvbo_verify.verify.stats.decide_rate_deterministic`) — never a bootstrap over
fixed instances. Where the paper gives the bound with its constants, ``bound`` is compared with the
measurement at every size as well. The sharpened statement lowers the exponent (raises it for a
lower rate) by ``lowered_by``, on the same measurements.

The contract of a rate measured from runs (``random=True``):

* **Ladder.** At least 3 sizes spanning one decade of the size the claim is about at quick fidelity,
  5 sizes over 1.5 decades at full (:data:`LADDER`); a shorter ladder is refused.
* **Resolution.** The check reports the smallest exponent change it can detect,
  ``stats["resolution"]`` = allowance + half-width of the slope interval
  (:func:`~tvbo_verify.verify.stats.rate_resolution`). A confirmation stands only when the resolution
  separates the claimed exponent from linear regret (``max_exponent``, the growth of the most any
  policy could incur: 1 for a cumulative regret against T, 0 for an average regret) and from the
  nearest plausible misreading (``misreading``); otherwise the verdict is inconclusive with the
  reason. The sharpening gives power only when ``lowered_by`` is at or beyond the resolution.
* **Feasibility.** A sharpened lower rate above ``max_exponent`` (Ω(T^1.25) for the cumulative regret
  of a bounded objective) is never counted: nothing could satisfy it, so catching it proves nothing. Without
  negative controls such a call is refused; with them (a lower rate at ``max_exponent``, e.g. E[R_T] ∈ Ω(T),
  has no feasible sharpening) the claim's power is that of its controls — every control (each grows more
  slowly) must come out violated — and ``lowered_by`` only sets the weakened rate a violated verdict must not
  refute.
* **Vacuity.** An explicit regret ``bound`` is compared with the trivial bound Σ_t (max f_t − min f_t)
  that :meth:`RateMeasurement.from_traces` / :meth:`RateMeasurement.from_sweep` compute from the
  runs; at a size where it is at or above the trivial bound in every run it is vacuous (inconclusive).
* **Negative control.** ``controls``: the same measurement on something that cannot satisfy the
  statement (a random or fixed-arm policy, a policy that never forgets on a drift, a named mutant),
  decided with the claim's exponent, allowance and bound. A rate from runs is confirmed only when
  every control comes out violated (:func:`~tvbo_verify.verify.stats.require_failed_control`).

Example (a rate in the drift ε, from runs)::

    m = RateMeasurement.from_traces(x, columns, -1 / 6, average=True, max_exponent=0.0, misreading=-1 / 3,
                                    misreading_label="the bound's ε^{1/3}", label="R_T/T", xlabel="1/ε")
    control = RateMeasurement.from_traces(x, gp_ucb_columns, -1 / 6, average=True, name="GP-UCB (never forgets)")
    return rate_evidence(ctx, m, lowered_by=0.5, controls=[control], what="TV-GP-UCB in ε")
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from ...jsonify import to_jsonable
from ...sequential import SequentialDesign, bootstrap_draws, run_sequential
from ..comparison import SharpeningError
from ..engine import Context
from ..evidence import Control, Evidence, Power, Verdict
from ..stats import (
    decide_probabilistic,
    decide_rate,
    decide_rate_deterministic,
    loglog_slope,
    polylog_allowance,
    rate_power,
    rate_resolution,
    require_failed_control,
    unresolved,
    vacuity_text,
    vacuous_bound,
)
from .common import combine, rerun_record

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: floor applied to non-positive measurements before the log–log fit (recorded in the evidence)
FLOOR = 1e-12


@dataclass
class RateMeasurement:
    """A measured quantity on a ladder of sizes, to be decided against a claimed order ``x^exponent`` by
    :func:`rate_evidence`.

    From runs, build it with :meth:`from_sweep` (an arm of a sweep) or :meth:`from_traces` (lists of traces),
    which also record the trivial bound of every run; a deterministic family of instances passes
    ``random=False``.

    Parameters
    ----------
    x : array_like
        At least 2 increasing positive sizes.
    measured : array_like
        Shape (repetitions or instances, sizes).
    exponent : float
        The claimed exponent.
    polylog : float
        The power of log x the statement allows on top of ``x^exponent`` (slope allowance ``polylog / ln x_min``).
    sense : str
        ``"<="`` (an upper rate, O) or ``">="`` (a lower rate, Ω).
    random : bool
        Random repetitions (a bootstrap interval of the slope decides) or fixed instances (the worst curve does).
    extra_allowance : float
        The slope resolution of a finite ladder; a claim that changes it says why in ``allowance_reason``.
    allowance_reason : str
        Why.
    bound : array_like or None
        An explicit bound with its constants, shape (sizes,) or like ``measured``, which must hold in at least
        ``bound_target`` of the repetitions at every size.
    bound_target : float
        The fraction of repetitions the bound must hold in.
    label, xlabel : str
        The measured quantity and the size, for tables and figures.
    labels : list of str
        A label per row.
    configuration : dict
        What a rerun needs beyond fidelity and seed (set by :meth:`from_sweep`).
    size, size_label : array_like or None, str
        The size the claim is about when ``x`` is a transform of it (``x = log T``, ``size = T``).
    trivial : array_like or None
        The most any policy could incur on each run (set by :meth:`from_traces`); required with a bound on runs.
    max_exponent : float or None
        The exponent of the most any policy could incur (1 for R_T against T, 0 for R_T/T; None for a quantity
        that is not a regret).
    misreading, misreading_label : float or None, str
        The exponent of the nearest plausible misreading, and which it is.
    name : str
        What was run (a control's name).

    Raises
    ------
    ValueError
        For sizes that are not increasing and positive, a shape mismatch, an unknown sense, or a bound on runs
        without their trivial bound.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import RateMeasurement
    >>> T = np.array([10, 100, 1000])
    >>> m = RateMeasurement(T, [[n * (n + 1) / 2 for n in T]], exponent=2.0, random=False, label="1 + ... + T")
    >>> m.decades, m.ratio().round(3).tolist()
    (2.0, [[0.55, 0.505, 0.5]])

    From a sweep (``array`` names the per-round trace array; ``name=``, its former spelling, still works with a
    ``DeprecationWarning``):

    >>> from tvbo_verify.authoring import Arm, RunCache, Sweep, run_sweep
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> result = run_sweep(sweep, cache=RunCache(None))
    >>> RateMeasurement.from_sweep(result, "GP-UCB", exponent=0.5).measured.shape
    (2, 2)
    >>> RateMeasurement.from_sweep(result, "GP-UCB", exponent=0.5, array="GP-UCB")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: array must name a per-round trace array, one of index, x, y, regret, cumulative, ...; got 'GP-UCB'
    """

    x: np.ndarray
    measured: np.ndarray
    exponent: float
    polylog: float = 0.0
    sense: str = "<="
    random: bool = True
    extra_allowance: float = 0.05
    allowance_reason: str = "slope resolution of a finite ladder"
    bound: np.ndarray | None = None
    bound_target: float = 1.0
    label: str = "measured"
    xlabel: str = "T"
    labels: list[str] = field(default_factory=list)
    configuration: dict[str, Any] = field(default_factory=dict)
    size: np.ndarray | None = None
    size_label: str = ""
    trivial: np.ndarray | None = None
    max_exponent: float | None = None
    misreading: float | None = None
    misreading_label: str = "nearest plausible misreading"
    name: str = ""

    def __post_init__(self) -> None:
        self.x = np.asarray(self.x, float)
        self.measured = np.atleast_2d(np.asarray(self.measured, float))
        if self.measured.shape[1] != self.x.size:
            raise ValueError(f"measured must have {self.x.size} columns (one per size), got {self.measured.shape}")
        if self.x.size < 2 or np.any(np.diff(self.x) <= 0) or self.x[0] <= 0:
            raise ValueError("x must be at least 2 increasing positive sizes")
        if self.sense not in ("<=", ">="):
            raise ValueError(f"sense must be '<=' or '>=', got {self.sense!r}")
        if self.size is not None:
            self.size = np.asarray(self.size, float)
            if self.size.shape != self.x.shape or self.size[0] <= 0 or np.any(np.diff(self.size) <= 0):
                raise ValueError(f"size must be {self.x.size} increasing positive values (one per x), got "
                                 f"{self.size.tolist()}")
        if self.trivial is not None:
            self.trivial = np.atleast_2d(np.asarray(self.trivial, float))
            if self.trivial.shape != self.measured.shape:
                raise ValueError(f"trivial must have the shape of measured {self.measured.shape}, "
                                 f"got {self.trivial.shape}")
        if self.bound is not None and self.trivial is None and self.random:
            raise ValueError("a bound on a measurement from runs needs the trivial bound of its runs (the most any "
                             "policy could incur there): build the measurement with RateMeasurement.from_traces or "
                             "from_sweep")

    @classmethod
    def from_traces(cls, x: Sequence[float], columns: Sequence[Sequence[Any]], exponent: float, *,
                    average: bool = False, **kwargs: Any) -> "RateMeasurement":
        """R_T (``average``: R_T/T) of runs, one list of traces per size, with each run's trivial bound.

        Parameters
        ----------
        x : sequence of float
            The sizes (usually the horizons).
        columns : sequence of sequence of Trace
            One list of traces per size, repetitions in the same order in every list (:meth:`SweepResult.runs`).
        exponent : float
            The claimed exponent.
        average : bool
            Measure R_T/T instead of R_T.
        **kwargs
            The other fields; ``max_exponent`` defaults to 1 (0 for an average regret).

        Returns
        -------
        RateMeasurement
            With ``trivial`` set from the runs' ``max_regret``.
        """
        def value(tr: Any, arr: np.ndarray) -> float:
            return float(arr[-1]) / (tr.T if average else 1.0)

        measured = np.column_stack([[value(tr, tr.cumulative) for tr in col] for col in columns])
        trivial = np.column_stack([[value(tr, tr.trivial_bound) for tr in col] for col in columns])
        kwargs.setdefault("max_exponent", 0.0 if average else 1.0)
        kwargs.setdefault("label", "R_T/T" if average else "R_T")
        return cls(np.asarray(x, float), measured, exponent, trivial=trivial, **kwargs)

    @classmethod
    def from_sweep(cls, result: Any, label: str, *, exponent: float, array: str = "cumulative",
                   name: str | None = None, **kwargs: Any) -> "RateMeasurement":
        """The last value of a per-round array (default R_T) of arm ``label`` on every horizon of a sweep, one row per
        repetition; for R_T the trivial bound of every run comes with it.

        Parameters
        ----------
        result : SweepResult
            What :func:`run_sweep` returned.
        label : str
            An arm label of the sweep; the measurement's ``name`` defaults to it.
        exponent : float
            The claimed exponent.
        array : str
            The per-round trace array read (``"cumulative"``: R_T; see :data:`TRACE_ARRAYS`).
        name : str or None
            Deprecated spelling of ``array`` (a ``DeprecationWarning``); refused with ``ValueError`` when it names no
            trace array, before any trace is read.
        **kwargs
            The other fields of :class:`RateMeasurement`.

        Returns
        -------
        RateMeasurement
            With ``configuration`` recording the sweep (a rerun record).

        Raises
        ------
        ValueError
            For an unknown arm label (naming the sweep's arms) or trace array (naming the arrays).
        """
        from ...sweeps.results import TRACE_ARRAYS, check_array

        if name is not None:
            if name not in TRACE_ARRAYS:
                raise ValueError(f"from_sweep's name= is the deprecated spelling of array=, the per-round trace "
                                 f"array read ({', '.join(TRACE_ARRAYS)}); got name={name!r}. The measurement is "
                                 f"named after the arm label {label!r}")
            if array != "cumulative":
                raise TypeError(f"from_sweep got both array={array!r} and its deprecated spelling name={name!r}")
            warnings.warn("RateMeasurement.from_sweep(name=...) is deprecated: use array=... (the per-round trace "
                          "array)", DeprecationWarning, stacklevel=2)
            array = name
        check_array(array, "array")
        sweep = result.sweep
        sweep.arm(label)  # an unknown label is refused with the sweep's arms
        kwargs.setdefault("configuration", {"sweep": sweep.name, "arm": label, "environment": sweep.environment,
                                            "env_params": sweep.env_params, "horizons": list(sweep.horizons),
                                            "repetitions": sweep.reps, "seed": sweep.seed})
        kwargs.setdefault("name", label)
        if array == "cumulative":
            columns = [result.runs(label, T) for T in sweep.horizons]
            return cls.from_traces(sweep.horizons, columns, exponent, **kwargs)
        x, values = result.ladder(label, array)
        kwargs.setdefault("label", array)
        return cls(x, values, exponent, **kwargs)

    @property
    def allowance(self) -> float:
        return polylog_allowance(self.polylog, float(self.x[0])) + self.extra_allowance

    def ratio(self, exponent: float | None = None) -> np.ndarray:
        """measured / x^exponent (default: the claimed exponent)."""
        e = self.exponent if exponent is None else exponent
        return np.maximum(self.measured, FLOOR) / self.x[None, :] ** e

    @property
    def sizes(self) -> np.ndarray:
        """The sizes the ladder's decades are counted in: ``size`` when declared, else ``x``."""
        return self.x if self.size is None else self.size

    @property
    def size_name(self) -> str:
        return (self.size_label or "size") if self.size is not None else self.xlabel

    @property
    def decades(self) -> float:
        """Decades of the size the claim is about spanned by the ladder (``log10(size_max / size_min)``)."""
        return float(np.log10(self.sizes[-1] / self.sizes[0]))


def _bound_verdict(m: RateMeasurement, bound: np.ndarray | None = None) -> tuple[Verdict, list[dict[str, Any]]]:
    """The explicit bound at every size: vacuous (inconclusive) where it is at or above the trivial bound of
    every run, else decided against ``bound_target``."""
    bound = np.broadcast_to(np.asarray(m.bound if bound is None else bound, float), m.measured.shape)
    ok = m.measured <= bound if m.sense == "<=" else m.measured >= bound
    rows, verdicts = [], []
    for j, x in enumerate(m.x):
        k, n = int(ok[:, j].sum()), m.measured.shape[0]
        row = {"x": x, "bound": float(np.mean(bound[:, j])), "holds in": f"{k}/{n}"}
        if m.trivial is not None:
            row["trivial"] = float(np.mean(m.trivial[:, j]))
        if m.sense == "<=" and m.trivial is not None and vacuous_bound(bound[:, j], m.trivial[:, j]):
            v = Verdict.INCONCLUSIVE
            row["vacuous"] = vacuity_text(bound[:, j], m.trivial[:, j])
        elif m.bound_target >= 1.0:
            v = Verdict.CONFIRMED if k == n else Verdict.VIOLATED
        else:
            v = decide_probabilistic(k, n, m.bound_target)[0]
        verdicts.append(v)
        rows.append(row)
    return combine(verdicts), rows


#: the smallest ladder a rate may be decided on, per fidelity: (sizes, decades spanned of the claim's own size)
LADDER = {"quick": (3, 1.0), "full": (5, 1.5)}


def rate_horizons(start: int, fidelity: str) -> tuple[int, ...]:
    """The shortest ladder of integer horizons a rate may be decided on at ``fidelity`` (:data:`LADDER`): its
    number of sizes, geometric from ``start`` over its decades, rounded to integers, the top one rounded up
    where rounding to the nearest would leave the ladder a hair short of its decades (and the rate refused).

    >>> rate_horizons(1000, "quick")
    (1000, 3162, 10000)
    >>> rate_horizons(500, "full")  # 500·10^1.5 = 15811.4, and 15811 spans 1.499995 decades only
    (500, 1186, 2812, 6668, 15812)
    """
    sizes, decades = LADDER[fidelity]
    horizons = [int(round(T)) for T in np.geomspace(start, start * 10**decades, sizes)]
    while np.log10(horizons[-1] / horizons[0]) < decades:
        horizons[-1] += 1
    return tuple(horizons)


def _decide(m: RateMeasurement, ratio: np.ndarray, ctx: Context,
            level: float = 0.95) -> tuple[Verdict, dict[str, Any], str]:
    """The rate rule on ``ratio`` with the allowance and sense of ``m`` (its interval at the percentile
    ``level``): verdict, statistics, a sentence."""
    if m.random:
        v, s = decide_rate(m.x, ratio, ctx.rng, allowance=m.allowance, sense=m.sense, level=level,
                           B=bootstrap_draws(level))
        lo, hi = s["slope_ci95"]
        what = "95% CI" if level == 0.95 else f"interval at percentile level {level:.4g}"
        return v, s, f"log–log slope of {m.label}/x^{m.exponent:g}: {s['slope']:.3g} ({what} {lo:.3g}..{hi:.3g})"
    v, s = decide_rate_deterministic(m.x, ratio, allowance=m.allowance, sense=m.sense)
    return v, s, (f"worst log–log slope of {m.label}/x^{m.exponent:g} over {ratio.shape[0]} instances: "
                  f"{s['slope']:.3g}")


def _control(ctx: Context, m: RateMeasurement, c: RateMeasurement, contrast: bool = False,
             level: float = 0.95) -> Control:
    """The claim's rate rule (its exponent, allowance, sense, explicit bound and interval ``level``) on the
    control's measurement (``contrast``: a positive control, which must not come out violated)."""
    if not c.name:
        raise ValueError("a control measurement needs a name (what was run in place of the method)")
    if c.x.shape != m.x.shape or not np.allclose(c.x, m.x):
        raise ValueError(f"control {c.name!r} must be measured on the claim's ladder {m.x.tolist()}, "
                         f"got {c.x.tolist()}")
    probe = RateMeasurement(c.x, c.measured, m.exponent, polylog=m.polylog, sense=m.sense, random=m.random,
                            extra_allowance=m.extra_allowance, bound=m.bound, bound_target=m.bound_target,
                            label=m.label, trivial=c.trivial, max_exponent=m.max_exponent, name=c.name)
    v, s, text = _decide(probe, probe.ratio(), ctx, level)
    verdicts = [v]
    if m.bound is not None:
        bv, _ = _bound_verdict(probe)
        verdicts.append(bv)
        text += f"; explicit bound {bv.value}"
    return Control(c.name, f"the claim's rate check (exponent {m.exponent:g}, allowance {m.allowance:.3g}) on "
                   f"{c.name}; it must {'not ' if contrast else ''}come out violated", combine(verdicts), text,
                   {k: s[k] for k in ("slope", "slope_ci95", "tail_slope") if k in s})


def _check_ladder_and_sharpening(ctx: Context, m: RateMeasurement, lowered_by: float, controlled: bool) -> bool:
    """Refuse a ladder too short for the fidelity and an immaterial sharpening; True when the sharpened lower
    rate is infeasible (its power must then come from the negative controls, ``controlled``: some given)."""
    sizes, decades = LADDER[ctx.fidelity]
    if m.x.size < sizes or m.decades < decades - 1e-9:
        raise ValueError(f"a rate at {ctx.fidelity} fidelity needs at least {sizes} sizes spanning {decades:g} "
                         f"decades of {m.size_name}, got {m.x.size} spanning {m.decades:.2g}")
    if not 0.05 <= lowered_by <= 1.0:
        raise SharpeningError(f"lowered_by must be a material change of the exponent in [0.05, 1], got {lowered_by}")
    infeasible = m.sense == ">=" and m.max_exponent is not None and m.exponent + lowered_by > m.max_exponent + 1e-12
    if infeasible and not controlled:
        raise SharpeningError(f"the sharpened lower rate x^{m.exponent + lowered_by:g} exceeds x^{m.max_exponent:g}, "
                              "the most any policy could incur on a bounded objective: no objective satisfies it "
                              f"(a lower rate at x^{m.max_exponent:g} has no feasible sharpening: its power comes "
                              "from a negative control that grows more slowly)")
    return infeasible


def rate_evidence(ctx: Context, m: RateMeasurement, *, lowered_by: float, what: str,
                  controls: RateMeasurement | Sequence[RateMeasurement] = (),
                  contrasts: Sequence[RateMeasurement] = (),
                  stats: dict[str, Any] | None = None, configuration: dict[str, Any] | None = None,
                  level: float = 0.95) -> Evidence:
    """Decide a rate claim (and its explicit bound, when given) from a :class:`RateMeasurement`, with the power of
    the exponent moved by ``lowered_by``.

    The ladder must have at least 3 sizes over one decade at quick fidelity and 5 over 1.5 decades at full. A
    rate from runs is confirmed only when its resolution separates the claimed exponent from linear regret and
    from ``m.misreading``, and every negative control comes out violated; a violated rate carries a rerun record.

    Parameters
    ----------
    ctx : Context
        The check's context.
    m : RateMeasurement
        The claim's measurement.
    lowered_by : float
        How far the sharpened statement moves the exponent (lowers it for an upper rate).
    what : str
        What is measured (the summary's subject).
    controls : RateMeasurement or sequence of RateMeasurement
        Negative controls: the same measurement on something that cannot satisfy the statement.
    contrasts : sequence of RateMeasurement
        Positive controls: the same measurement on something known to reach the rate (the power of a violated
        rate whose weakened exponent shows nothing).
    stats : dict or None
        Extra statistics to record.
    configuration : dict or None
        Extra rerun record.
    level : float
        The percentile level of the slope intervals.

    Returns
    -------
    Evidence
        The verdict with its resolution, allowance, power and controls in ``stats``.

    Examples
    --------
    >>> from tvbo_verify.authoring import Context, RunCache
    >>> ctx = Context("doc:example", cache=RunCache(None))
    >>> import numpy as np
    >>> from tvbo_verify.authoring import RateMeasurement, rate_evidence
    >>> T = np.array([10, 100, 1000])
    >>> m = RateMeasurement(T, [[n * (n + 1) / 2 for n in T]], exponent=2.0, random=False)
    >>> ev = rate_evidence(ctx, m, lowered_by=0.25, what="triangular numbers")
    >>> ev.verdict.value, ev.power.caught
    ('confirmed', True)
    """
    control_list = [controls] if isinstance(controls, RateMeasurement) else list(controls)
    infeasible = _check_ladder_and_sharpening(ctx, m, lowered_by, bool(control_list))
    ratio = m.ratio()
    floored = int(np.sum(m.measured <= FLOOR))
    v, s, slope_text = _decide(m, ratio, ctx, level)
    resolution = rate_resolution(m.allowance, s.get("slope_ci95"))
    alternatives = {}
    if m.max_exponent is not None and m.sense == "<=":
        alternatives["linear regret: the growth of the most any policy could incur"] = m.max_exponent
    if m.misreading is not None:
        alternatives[m.misreading_label] = m.misreading
    unseparated = unresolved(m.exponent, alternatives, resolution)
    # no objective satisfies an infeasible sharpened lower rate: its power is that of the controls (set below)
    power = None if infeasible else rate_power(m.x, ratio, ctx.rng, lowered_by=lowered_by, allowance=m.allowance,
                                               sense=m.sense, deterministic=not m.random)
    if power is not None and power.caught and lowered_by < resolution:
        power = Power(power.sharpening, False, f"{power.detail}; the sharpening {lowered_by:g} lies within the "
                      f"resolution {resolution:.3g}, so catching it shows nothing")
    if v is Verdict.VIOLATED:  # a stronger exponent is refuted wherever the stated one is: show the converse
        weak = rate_power(m.x, ratio, ctx.rng, lowered_by=-lowered_by, allowance=m.allowance, sense=m.sense,
                          deterministic=not m.random)
        power = Power(f"weakened: exponent {'raised' if m.sense == '<=' else 'lowered'} by {lowered_by:g} "
                      "must not be refuted", not weak.caught, weak.detail)
        if m.sense == "<=" and m.max_exponent is not None and m.exponent + lowered_by >= m.max_exponent - 1e-12:
            power = Power(power.sharpening, False, f"{weak.detail}; the weakened x^{m.exponent + lowered_by:g} reaches "
                          f"x^{m.max_exponent:g}, the most any policy could incur, so no run could refute it and "
                          "not refuting it shows nothing")
    verdicts = [v]
    bound_rows: list[dict[str, Any]] = []
    if m.bound is not None:
        bv, bound_rows = _bound_verdict(m)
        verdicts.append(bv)
        vac = [r["vacuous"] for r in bound_rows if "vacuous" in r]
        slope_text += (f"; explicit bound {'holds' if bv is Verdict.CONFIRMED else bv.value} at every size"
                       + (f" ({len(vac)} of {len(bound_rows)} sizes {vac[0]})" if vac else ""))
    verdict = combine(verdicts)
    reasons = []
    if verdict is Verdict.CONFIRMED and unseparated:
        verdict = Verdict.INCONCLUSIVE
        reasons += unseparated
    ctrl = [_control(ctx, m, c, level=level) for c in control_list]
    held = [_control(ctx, m, c, contrast=True, level=level) for c in contrasts]
    if v is Verdict.VIOLATED and held and not power.caught:
        kept = [c for c in held if not c.failed]
        power = Power("positive contrast: the same rule must not refute a method that reaches the rate", bool(kept),
                      "; ".join(f"{c.name}: {c.verdict.value} ({c.detail})" for c in held))
    if power is None:
        power = Power(f"no feasible sharpening of a lower rate at x^{m.max_exponent:g}: a negative control that grows "
                      "more slowly must be refuted", bool(ctrl) and all(c.failed for c in ctrl),
                      "; ".join(f"{c.name}: {c.verdict.value}" for c in ctrl))
    if m.random:
        _, reason = require_failed_control(Verdict.CONFIRMED, ctrl)
        if reason and verdict is not Verdict.VIOLATED:
            verdict = Verdict.INCONCLUSIVE
            reasons.append(reason)
    rows = []
    for j, x in enumerate(m.x):
        col = m.measured[:, j]
        row = {m.xlabel: x, f"mean {m.label}": float(col.mean()), f"min {m.label}": float(col.min()),
               f"max {m.label}": float(col.max()), f"{m.label}/x^{m.exponent:g}": float(ratio[:, j].mean())}
        if m.trivial is not None:
            row["mean trivial bound"] = float(m.trivial[:, j].mean())
        if bound_rows:
            row.update({"bound": bound_rows[j]["bound"], "bound holds in": bound_rows[j]["holds in"]})
        rows.append(row)
    rows += [c.row() for c in ctrl]
    summary = (f"{what}: {slope_text}; allowance {m.allowance:.3g} "
               f"({'polylog power ' + format(m.polylog, 'g') if m.polylog else 'no polylog'}"
               f"{', ' + m.allowance_reason if m.allowance_reason else ''}) over {m.decades:.2g} decades of "
               f"{m.size_name}; "
               f"resolution {resolution:.3g}.")
    if ctrl:
        summary += " Negative control" + ("s" if len(ctrl) > 1 else "") + ": " + "; ".join(
            f"{c.name} {c.verdict.value} ({c.detail})" for c in ctrl) + "."
    if held:
        summary += " Positive contrast" + ("s" if len(held) > 1 else "") + " (must not be refuted): " + "; ".join(
            f"{c.name} {c.verdict.value}" for c in held) + "."
    if reasons:
        summary += " Inconclusive: " + "; ".join(reasons) + "."
    record = (rerun_record(ctx, {"slope": s["slope"]}, configuration or m.configuration)
              if verdict is Verdict.VIOLATED else None)
    extra = {"floored_measurements": floored} if floored else {}
    ev = Evidence(verdict, summary, instances=to_jsonable(rows),
                  margin=(m.allowance - s.get("slope_ci95", [0, s["slope"]])[1]) if m.sense == "<=" else
                  (s.get("slope_ci95", [s["slope"], 0])[0] + m.allowance),
                  counterexample=record,
                  stats={**s, "x": m.x.tolist(), "exponent": m.exponent, "polylog": m.polylog,
                         "decades": m.decades, "decades_of": m.size_name,
                         **({"sizes": m.sizes.tolist()} if m.size is not None else {}),
                         "resolution": resolution,
                         "separated_from": {k: a for k, a in alternatives.items()},
                         "unresolved": unseparated, "margin_of": "allowance minus the slope's CI end", **extra,
                         **({"contrasts": [c.to_dict() for c in held]} if held else {}),
                         **(stats or {})},
                  power=power, controls=ctrl)
    ev.figures.append((f"{m.label} against {m.xlabel}", lambda: rate_figure(m, control_list)))
    return ev


def sequential_rate_evidence(ctx: Context, measure: Callable[[int], tuple[RateMeasurement, list[RateMeasurement]]],
                             design: SequentialDesign, *, lowered_by: float, what: str,
                             stats: dict[str, Any] | None = None) -> tuple[Evidence, RateMeasurement]:
    """:func:`rate_evidence` on repetitions gathered by a sequential design (:mod:`tvbo_verify.sequential`).

    ``measure(n)`` gives the claim's measurement and its negative controls on the first ``n`` repetitions of
    the run seed (paired: the same streams at every look). At each look of ``design`` the rate is decided by
    :func:`rate_evidence` with its intervals at the look's level (Bonferroni over the looks, Hesterberg's
    expansion for ``n`` repetitions); the design stops at the first decided look or at its cap, inconclusive
    with the spread it saw. The evidence is that of the last look, with the record of every look in
    ``stats["sequential"]``; also returns the last look's measurement.
    """
    last: dict[str, Any] = {}

    def decide(n: int, level: float) -> tuple[str, dict[str, Any]]:
        m, controls = measure(n)
        ev = rate_evidence(ctx, m, lowered_by=lowered_by, what=what, controls=controls, level=level,
                           stats={**(stats or {}), "repetitions": n})
        last.update(ev=ev, m=m)
        return ev.verdict.value, {"slope": ev.stats["slope"], "interval": ev.stats["slope_ci95"],
                                  "allowance": ev.stats["allowance"], "resolution": ev.stats["resolution"],
                                  "per_repetition_slopes": _row_slopes(m)}

    record = run_sequential(design, decide)
    ev: Evidence = last["ev"]
    ev.stats["sequential"] = record.to_dict()
    spread = record.last.detail["per_repetition_slopes"]
    ev.summary += (f" Repetitions by a sequential design: {record.text()}; per-repetition slopes "
                   f"{min(spread):.3g}..{max(spread):.3g} at the last look.")
    return ev, last["m"]


def _row_slopes(m: RateMeasurement) -> list[float]:
    """The log–log slope of each repetition's ratio (the spread a sequential record reports)."""
    return [loglog_slope(m.x, row) for row in m.ratio()]


def rate_figure(m: RateMeasurement, controls: Sequence[RateMeasurement] = ()) -> Figure:
    """Mean ± range of the measurement on log–log axes; the claimed order with its constant fitted on
    the first half of the ladder (labelled "order only"), or the explicit bound when there is one; the mean
    of each negative control."""
    import matplotlib.pyplot as plt

    from ...sweeps.reproduce.figures import ORDER_ONLY, fit_order

    fig, ax = plt.subplots(figsize=(7.5, 3.6), layout="constrained")
    mean = m.measured.mean(axis=0)
    if m.random:
        ax.fill_between(m.x, m.measured.min(axis=0), m.measured.max(axis=0), alpha=0.25, label="range over repetitions")
        ax.plot(m.x, mean, marker="o", label=f"mean {m.label}")
    else:
        for i, row in enumerate(m.measured):
            ax.plot(m.x, row, marker="o", ms=3, label=m.labels[i] if i < len(m.labels) else None)
    for c in controls:
        ax.plot(c.x, np.maximum(c.measured.mean(axis=0), FLOOR), marker="s", ms=3, ls=":",
                label=f"negative control: {c.name}")
    ax.plot(m.x, fit_order(mean, m.x ** m.exponent), "k--", label=f"x^{m.exponent:g} ({ORDER_ONLY})")
    if m.bound is not None:
        b = np.broadcast_to(np.asarray(m.bound, float), m.measured.shape).mean(axis=0)
        ax.plot(m.x, b, "r-", label="stated bound with its constants")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(m.x[0], m.x[-1])
    ax.set_xlabel(m.xlabel)
    ax.set_ylabel(m.label)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig
