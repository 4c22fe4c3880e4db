"""The deciding rules (docs/ARCHITECTURE.md §5), in one place.

=============  ==========================================  ===========================================
kind           confirmed                                   violated
=============  ==========================================  ===========================================
exact          no instance breaks ``lhs <= rhs`` beyond    an instance breaks it beyond that tolerance
               ``tol = rtol * max(1, cond) * scale``        and the break survives re-evaluation in
               (``scale = max(|lhs|, |rhs|)``, ``cond``     mpmath at ``>= 50`` digits (a float-only
               the instance's condition number); a float   break without re-evaluation -> inconclusive)
               break counts as refuted only when the
               mpmath twin that overrules it first
               reproduces the float value and bound at
               that instance (relative
               ``1e-6 * max(1, cond)``), else *error*
probabilistic  observed success frequency ``>= 1 - delta``  the 99% upper Clopper–Pearson bound of the
               (Clopper–Pearson interval reported) in       success probability is ``< 1 - delta`` in
               every configuration; a regret bound at or    some configuration
               above the trivial bound Σ_t (max f_t −
               min f_t) of every run is *vacuous* there
               (inconclusive); for a regret bound, a
               negative control failed
rate           bootstrap CI (over repetitions) of the       the whole CI lies above the claimed exponent
               log–log slope of measured/bound lies below   plus the polylog allowance
               the polylog allowance (no growth); the
               resolution (allowance + CI half-width)
               separates the claimed exponent from linear
               regret and from the nearest misreading; a
               negative control failed
ingredient,    every computable ingredient/property holds   one ingredient/property fails
algorithm,     (an ordering of runs: and its negative
experiment     control failed)
=============  ==========================================  ===========================================

Anything else is ``inconclusive``. Power (a sharpened variant caught as violated) is decided with
the same functions, part by part: a claim decided by several parts (configurations, properties) has
power only when every deciding part catches its sharpening (for a violated verdict: every failing
part). A negative control (:class:`~tvbo_verify.verify.evidence.Control`) is the same measurement
and rule on something that cannot satisfy the statement; it must come out violated
(:func:`require_failed_control`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import mpmath
import numpy as np
from scipy import stats as sps

from ..jsonify import to_jsonable
from ..validation import check_int, check_open_interval, check_positive
from .comparison import Comparison, material
from .evidence import Control, Power, Verdict

EPS = float(np.finfo(float).eps)


# --------------------------------------------------------------------------------------------- exact
@dataclass(frozen=True)
class TolerancePolicy:
    """Float tolerance scaled to the instance, and the precision of the mpmath referee.

    ``tolerance(lhs, rhs, cond, scale) = rtol * max(1, cond) * max(|lhs|, |rhs|, scale) + atol``, where
    ``scale`` is the natural magnitude of the instance's terms (e.g. ``tr K`` for a residual trace).
    A float break is re-evaluated at ``mp_digits`` decimal digits; there it counts as a break when
    the high-precision margin is below ``-10**(-(mp_digits - 10)) * scale``.
    """

    rtol: float = 64 * EPS
    atol: float = 1e-300
    mp_digits: int = 50
    max_referee: int = 25

    def __post_init__(self) -> None:
        check_positive("rtol", self.rtol)
        check_positive("atol", self.atol)
        if int(self.mp_digits) < 50:
            raise ValueError(f"mp_digits must be >= 50, got {self.mp_digits}")

    def tolerance(self, lhs: float, rhs: float, cond: float = 1.0, scale: float = 0.0) -> float:
        scale = max(abs(float(lhs)), abs(float(rhs)), abs(float(scale)))
        if not math.isfinite(scale):
            return math.inf
        return self.rtol * max(1.0, float(cond)) * scale + self.atol

    def hp_tolerance(self, lhs: Any, rhs: Any, scale: float = 0.0) -> Any:
        scale = max(abs(mpmath.mpf(lhs)), abs(mpmath.mpf(rhs)), abs(mpmath.mpf(scale)), mpmath.mpf(10) ** -300)
        return mpmath.mpf(10) ** (-(self.mp_digits - 10)) * scale


DEFAULT_POLICY = TolerancePolicy()


@dataclass
class Instance:
    """One evaluated instance: its parameters and the :class:`Comparison` measured there."""

    params: dict[str, Any]
    comparison: Comparison

    @property
    def lhs(self) -> float:
        return float(self.comparison.lhs)

    @property
    def rhs(self) -> float:
        return float(self.comparison.rhs)

    @property
    def cond(self) -> float:
        return float(self.comparison.cond)

    @property
    def scale(self) -> float:
        return float(self.comparison.scale)

    @property
    def margin(self) -> float:
        """``rhs - lhs`` of the normal form (> 0: the statement holds here)."""
        return self.rhs - self.lhs

    @property
    def relative(self) -> float:
        """Margin relative to the instance's magnitude ``max(|lhs|, |rhs|, |value|, |bound|, scale)``."""
        mag = max(abs(self.lhs), abs(self.rhs), self.comparison.as_float().magnitude)
        m = self.margin / mag
        return m if math.isfinite(m) else -math.inf

    def tolerance(self, policy: "TolerancePolicy") -> float:
        return policy.tolerance(self.lhs, self.rhs, self.cond, max(self.scale, abs(float(self.comparison.value)),
                                                                    abs(float(self.comparison.bound))))

    def broken(self, policy: "TolerancePolicy") -> bool:
        """True when the float margin is below minus the float tolerance (or a side is NaN)."""
        m = self.margin
        return math.isnan(m) or m < -self.tolerance(policy)

    def row(self) -> dict[str, Any]:
        c = self.comparison
        return {**self.params, "measured": float(c.value), "stated": float(c.bound), "sense": c.sense,
                "margin": self.margin}


#: mpmath twin of a statement: the same comparison at the current ``mpmath.mp.dps``
HighPrecision = Callable[[dict[str, Any]], Comparison]


@dataclass
class ExactDecision:
    verdict: Verdict
    worst: Instance | None
    counterexample: Instance | None = None
    hp_margin: Any = None
    flagged: int = 0
    refuted_by_referee: int = 0
    notes: list[str] = field(default_factory=list)

    def stats(self) -> dict[str, Any]:
        return {
            "float_breaks": self.flagged,
            "float_breaks_refuted_in_mpmath": self.refuted_by_referee,
            "hp_margin": None if self.hp_margin is None else float(self.hp_margin),
            "notes": list(self.notes),
        }


class RefereeDisagreement(RuntimeError):
    """The mpmath twin of a statement does not compute what the float check computes at the same instance:
    it may not overrule (or confirm) a float break, and the claim ends in error."""


#: relative agreement (times ``max(1, cond)``) the twin must reach with the float value and bound
TWIN_RTOL = 1e-6


def twin_disagreement(reference: Comparison, twin: Comparison, policy: TolerancePolicy = DEFAULT_POLICY
                      ) -> str | None:
    """None when the twin reproduces the float comparison ``reference`` (value and bound within
    ``TWIN_RTOL * max(1, cond)`` of the instance's magnitude), else the disagreement as one sentence."""
    fv, fb = float(reference.value), float(reference.bound)
    tv, tb = float(twin.value), float(twin.bound)
    mag = max(abs(fv), abs(fb), abs(tv), abs(tb), abs(float(reference.scale)))
    tol = TWIN_RTOL * max(1.0, float(reference.cond)) * mag + policy.atol
    if reference.sense == twin.sense and abs(fv - tv) <= tol and abs(fb - tb) <= tol:
        return None
    return (f"referee twin disagrees with the check: float {fv:.10g} {reference.sense} {fb:.10g} vs twin "
            f"{tv:.10g} {twin.sense} {tb:.10g} (agreement needed {tol:.3g})")


def referee(
    params: dict[str, Any], hp: HighPrecision, policy: TolerancePolicy = DEFAULT_POLICY, scale: float = 0.0,
    reference: Comparison | None = None,
) -> tuple[Any, bool]:
    """Re-evaluate an instance in mpmath at ``policy.mp_digits``; return (margin, broken).

    ``reference`` is the float comparison at the same instance (a float break): before the twin may
    overrule it (find no break), it must reproduce it (:func:`twin_disagreement`), else
    :class:`RefereeDisagreement` is raised. A twin that confirms the break overrules nothing.
    """
    with mpmath.workdps(policy.mp_digits):
        c = hp(params)
        if not isinstance(c, Comparison):
            raise TypeError(f"a high-precision twin returns a Comparison, got {type(c).__name__}")
        lhs, rhs = mpmath.mpf(c.lhs), mpmath.mpf(c.rhs)
        margin = rhs - lhs
        magnitude = max(abs(mpmath.mpf(v)) for v in (scale, c.scale, c.value, c.bound))
        broken = bool(margin < -policy.hp_tolerance(lhs, rhs, magnitude))
        if reference is not None and not broken:
            problem = twin_disagreement(reference, c, policy)
            if problem is not None:
                raise RefereeDisagreement(f"{problem} at {short_params(params)}")
        return margin, broken


def short_params(params: dict[str, Any]) -> str:
    """The scalar parameters of an instance as short text (for messages)."""
    text = str(to_jsonable({k: v for k, v in params.items() if isinstance(v, (int, float, str, bool))}))
    return text if len(text) < 160 else text[:157] + "..."


def decide_exact(
    instances: Sequence[Instance],
    hp: HighPrecision | None,
    policy: TolerancePolicy = DEFAULT_POLICY,
) -> ExactDecision:
    """Exact rule: confirmed unless a float break beyond tolerance survives the mpmath referee.

    Float breaks are re-evaluated most-negative first (at most ``policy.max_referee``). Breaks the
    referee refutes are recorded as numerical; breaks left unexamined (no referee, or past the cap)
    make the verdict inconclusive. The twin must reproduce the float comparison at each instance it
    referees (:func:`referee` with ``reference``), or :class:`RefereeDisagreement` ends the claim in error.
    """
    if not instances:
        return ExactDecision(Verdict.INCONCLUSIVE, None, notes=["no instance evaluated"])
    finite = [i for i in instances if math.isfinite(i.margin)]
    if len(finite) < len(instances):
        notes = [f"{len(instances) - len(finite)} instance(s) with a non-finite side"]
    else:
        notes = []
    if not finite:
        return ExactDecision(Verdict.INCONCLUSIVE, None, notes=notes + ["no finite instance"])
    worst = min(finite, key=lambda i: i.relative)
    flagged = [i for i in finite if i.broken(policy)]
    if not flagged:
        return ExactDecision(Verdict.CONFIRMED, worst, notes=notes)
    if hp is None:
        return ExactDecision(
            Verdict.INCONCLUSIVE, worst, flagged=len(flagged),
            notes=notes + ["float breaks found but no high-precision evaluator to referee them"],
        )
    flagged.sort(key=lambda i: i.relative)
    refuted = 0
    for inst in flagged[: policy.max_referee]:
        margin, broken = referee(inst.params, hp, policy, inst.scale, inst.comparison)
        if broken:
            return ExactDecision(Verdict.VIOLATED, worst, inst, margin, len(flagged), refuted, notes)
        refuted += 1
    if refuted == len(flagged):
        notes.append(f"{refuted} float64 break(s) vanished at {policy.mp_digits} digits (numerical)")
        return ExactDecision(Verdict.CONFIRMED, worst, None, None, len(flagged), refuted, notes)
    notes.append(f"{len(flagged) - refuted} float break(s) left without referee")
    return ExactDecision(Verdict.INCONCLUSIVE, worst, None, None, len(flagged), refuted, notes)


def exact_power(
    sharpening: str,
    pairs: Iterable[tuple[Instance | None, Instance]],
    policy: TolerancePolicy = DEFAULT_POLICY,
) -> Power:
    """Power of an exact check: the sharpened statement breaks beyond tolerance at some instance where
    the statement itself holds, and is materially another statement there
    (:func:`~tvbo_verify.verify.comparison.material`). ``pairs`` are (original, sharpened); original is
    None for instances only the sharpened statement admits. A break where the original already breaks,
    or an immaterial one, proves nothing and is not counted."""
    items = list(pairs)
    caught = immaterial = 0
    for o, s in items:
        if not (math.isfinite(s.margin) and s.broken(policy)) or (o is not None and o.broken(policy)):
            continue
        if o is None or material(o.comparison, s.comparison):
            caught += 1
        else:
            immaterial += 1
    detail = f"{caught}/{len(items)} instances break the sharpened statement where the statement holds"
    if immaterial:
        detail += f" ({immaterial} more break it by an immaterial change, not counted)"
    return Power(sharpening, bool(caught), detail)


# ------------------------------------------------------------------------------------- probabilistic
def clopper_pearson(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Two-sided Clopper–Pearson interval for a binomial proportion at confidence ``level``."""
    n = check_int("n", n, minimum=1)
    k = check_int("successes", successes, minimum=0)
    if k > n:
        raise ValueError(f"successes must be <= n = {n}, got {k}")
    level = check_open_interval("level", level, 0.0, 1.0)
    a = 1.0 - level
    lo = 0.0 if k == 0 else float(sps.beta.ppf(a / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(sps.beta.ppf(1 - a / 2, k + 1, n - k))
    return lo, hi


def upper_bound(successes: int, n: int, level: float = 0.99) -> float:
    """One-sided upper Clopper–Pearson bound at ``level``."""
    k = check_int("successes", successes, minimum=0)
    n = check_int("n", n, minimum=1)
    return 1.0 if k >= n else float(sps.beta.ppf(level, k + 1, n - k))


def decide_probabilistic(successes: int, n: int, target: float) -> tuple[Verdict, dict[str, Any]]:
    """Probabilistic rule: confirmed if k/n >= target; violated if the 99% upper bound < target."""
    target = check_open_interval("target", target, 0.0, 1.0, "(0, 1)")
    freq = successes / n
    ci = clopper_pearson(successes, n, 0.95)
    ub = upper_bound(successes, n, 0.99)
    if freq >= target:
        v = Verdict.CONFIRMED
    elif ub < target:
        v = Verdict.VIOLATED
    else:
        v = Verdict.INCONCLUSIVE
    return v, {"n": n, "successes": successes, "frequency": freq, "target": target, "ci95": list(ci), "upper99": ub}


def probabilistic_power(sharpening: str, successes: int, n: int, target: float) -> Power:
    v, s = decide_probabilistic(successes, n, target)
    return Power(sharpening, v is Verdict.VIOLATED, f"{successes}/{n} successes against target {target:.4g}")


# ---------------------------------------------------------------------------------------------- rate
def loglog_slope(x: np.ndarray, y: np.ndarray) -> float:
    """Least-squares slope of ``log y`` against ``log x``: the exponent ``a`` of a power law ``y ∝ x^a``.

    Parameters
    ----------
    x : numpy.ndarray
        The sizes (positive), shape ``(n,)`` with ``n >= 2``.
    y : numpy.ndarray
        The measured values at those sizes (positive), shape ``(n,)``.

    Returns
    -------
    float
        The slope of the least-squares line through ``(log x, log y)``.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import loglog_slope
    >>> round(loglog_slope(np.array([10, 100, 1000]), 3 * np.array([10, 100, 1000]) ** 1.5), 6)
    1.5
    """
    lx, ly = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    return float(np.polyfit(lx, ly, 1)[0])


def bootstrap_slope_ci(
    x: Sequence[float], Y: np.ndarray, rng: np.random.Generator, *, B: int = 500, level: float = 0.95
) -> tuple[float, tuple[float, float]]:
    """Slope of ``log(mean over repetitions of Y)`` against ``log x``, and its percentile bootstrap interval
    over repetitions.

    Resampling draws whole repetitions (rows of ``Y``) with replacement, so the interval reflects the spread
    between runs, not between sizes. One repetition gives the degenerate interval ``(slope, slope)``.

    Parameters
    ----------
    x : sequence of float
        The sizes (positive), at least two.
    Y : numpy.ndarray
        The measurements (positive), shape ``(repetitions, len(x))``; a 1-D array is one repetition.
    rng : numpy.random.Generator
        The source of the bootstrap resamples.
    B : int, optional
        The number of bootstrap resamples.
    level : float, optional
        The coverage of the two-sided percentile interval, in ``(0, 1]``.

    Returns
    -------
    slope : float
        The slope of the mean curve (:func:`loglog_slope`).
    ci : tuple of float
        ``(low, high)``: the ``(1 − level)/2`` and ``(1 + level)/2`` quantiles of the resampled slopes.

    Raises
    ------
    ValueError
        If ``Y`` does not have ``len(x)`` columns, fewer than two sizes are given, a value is not positive,
        or ``level`` is outside ``(0, 1]``.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import bootstrap_slope_ci
    >>> rng = np.random.default_rng(0)
    >>> x = np.array([10.0, 100.0, 1000.0])
    >>> Y = x ** 0.5 * rng.uniform(0.9, 1.1, size=(20, 1))  # 20 runs, each sqrt(x) times its own constant
    >>> slope, (lo, hi) = bootstrap_slope_ci(x, Y, rng, B=200)
    >>> round(slope, 6), lo <= slope <= hi
    (0.5, True)
    """
    x = np.asarray(x, float)
    Y = np.atleast_2d(np.asarray(Y, float))
    if Y.shape[1] != x.size or x.size < 2:
        raise ValueError(f"Y must have shape (reps, {x.size}) with at least 2 sizes, got {Y.shape}")
    if np.any(Y <= 0) or np.any(x <= 0):
        raise ValueError("x and Y must be positive for a log-log fit")
    est = loglog_slope(x, Y.mean(axis=0))
    reps = Y.shape[0]
    if reps == 1:
        return est, (est, est)
    if not 0.0 < level <= 1.0:
        raise ValueError(f"level must be in (0, 1], got {level!r}")
    idx = rng.integers(0, reps, size=(B, reps))
    slopes = np.array([loglog_slope(x, Y[i].mean(axis=0)) for i in idx])
    a = (1 - level) / 2
    return est, (float(np.quantile(slopes, a)), float(np.quantile(slopes, 1 - a)))


def polylog_allowance(power: float, x_min: float) -> float:
    """The largest log–log slope of ``log^power x`` over ``x >= x_min``: what a polylogarithmic factor can add
    to a measured exponent on a ladder that starts at ``x_min``.

    ``d log(log^p x) / d log x = p / ln x`` decreases in ``x``, so the maximum over the ladder is at its first
    size. A rate stated up to polylog factors (``Õ(x^a)``) is decided against this allowance rather than 0.
    ``x_min`` below ``e`` is treated as ``e``.

    Parameters
    ----------
    power : float
        The power ``p`` of the logarithm the statement hides (e.g. the power of ``log T`` in ``Õ``).
    x_min : float
        The smallest size of the ladder.

    Returns
    -------
    float
        ``power / ln(max(x_min, e))``.

    Examples
    --------
    >>> import math
    >>> from tvbo_verify.authoring import polylog_allowance
    >>> polylog_allowance(2.0, math.e ** 4)
    0.5
    >>> polylog_allowance(0.0, 100)  # no hidden logarithm, no allowance
    0.0
    """
    return float(power) / math.log(max(float(x_min), math.e))


def decide_rate(
    x: Sequence[float],
    ratio: np.ndarray,
    rng: np.random.Generator,
    *,
    allowance: float = 0.0,
    B: int = 500,
    sense: str = "<=",
    level: float = 0.95,
) -> tuple[Verdict, dict[str, Any]]:
    """The rate rule (docs/ARCHITECTURE.md §5): decide a rate from ``ratio = measured / x^exponent`` over random
    repetitions × sizes.

    ``sense="<="`` (an upper rate, ``measured = O(x^exponent polylog)``): confirmed when the upper end
    of the bootstrap CI of the log–log slope is <= ``allowance`` (no growth beyond the polylog
    allowance); violated when its lower end is > ``allowance``. ``sense=">="`` (a lower rate,
    ``measured = Ω(x^exponent / polylog)``): confirmed when the lower end is >= ``-allowance``,
    violated when the upper end is < ``-allowance``. Inconclusive otherwise. ``level``: the percentile
    level of the interval (0.95; a sequential look reads it at its own level,
    :mod:`tvbo_verify.sequential`, recorded as ``interval_level``; the key stays ``slope_ci95``).

    Parameters
    ----------
    x : sequence of float
        The sizes of the ladder (positive), at least two.
    ratio : numpy.ndarray
        ``measured / x^exponent`` (positive), shape ``(repetitions, len(x))``.
    rng : numpy.random.Generator
        The source of the bootstrap resamples (:func:`bootstrap_slope_ci`).
    allowance : float, optional
        The slope a hidden polylog factor may add (:func:`polylog_allowance`); 0 for a plain power.
    B : int, optional
        The number of bootstrap resamples.
    sense : {"<=", ">="}, optional
        An upper rate (``O``) or a lower rate (``Ω``).
    level : float, optional
        The coverage of the slope interval.

    Returns
    -------
    verdict : Verdict
        Confirmed, violated or inconclusive, as above.
    stats : dict
        ``slope``, ``slope_ci95`` (the interval at ``level``), ``allowance``, ``sense``, ``n`` (repetitions),
        ``resampled`` and, at a level other than the default, ``interval_level``.

    Raises
    ------
    ValueError
        If ``sense`` is neither ``"<="`` nor ``">="``, or the data cannot be fitted (see
        :func:`bootstrap_slope_ci`).

    Examples
    --------
    A measurement that grows like ``x^0.75``, against the claimed ``O(x)``: the ratio falls, the upper rate
    holds; against a claimed ``O(x^0.5)`` the ratio still grows, the rate is broken.

    >>> import numpy as np
    >>> from tvbo_verify.authoring import decide_rate
    >>> rng = np.random.default_rng(1)
    >>> x = np.array([10.0, 100.0, 1000.0])
    >>> measured = x ** 0.75 * rng.uniform(0.9, 1.1, size=(30, 3))
    >>> verdict, stats = decide_rate(x, measured / x, rng, B=200)
    >>> verdict.value, stats["n"]
    ('confirmed', 30)
    >>> decide_rate(x, measured / x ** 0.5, rng, B=200)[0].value
    'violated'
    """
    est, (lo, hi) = bootstrap_slope_ci(x, ratio, rng, B=B, level=level)
    return _rate_verdict(lo, hi, allowance, sense), {
        "slope": est, "slope_ci95": [lo, hi], "allowance": allowance, "sense": sense,
        "n": int(np.atleast_2d(ratio).shape[0]), "resampled": "repetitions",
        **({"interval_level": level} if level != 0.95 else {})}


def _rate_verdict(lo: float, hi: float, allowance: float, sense: str) -> Verdict:
    if sense == "<=":
        return Verdict.CONFIRMED if hi <= allowance else Verdict.VIOLATED if lo > allowance else Verdict.INCONCLUSIVE
    if sense == ">=":
        return Verdict.CONFIRMED if lo >= -allowance else Verdict.VIOLATED if hi < -allowance else Verdict.INCONCLUSIVE
    raise ValueError(f"sense must be '<=' or '>=', got {sense!r}")


def decide_rate_deterministic(
    x: Sequence[float], curves: np.ndarray, *, allowance: float = 0.0, sense: str = "<=",
) -> tuple[Verdict, dict[str, Any]]:
    """Rate rule for deterministic curves (a family of instances, not random repetitions).

    No bootstrap: each row of ``curves`` (ratios measured / x^exponent) is fitted by least squares
    and the worst row decides. For an upper rate the worst row is the steepest: confirmed when its
    slope is <= ``allowance``; violated when both its whole-ladder slope and its slope over the last
    two sizes exceed ``allowance`` (the growth is not dying out); inconclusive otherwise. Lower rates
    mirror this with the flattest row against ``-allowance``.
    """
    x = np.asarray(x, float)
    C = np.atleast_2d(np.asarray(curves, float))
    if C.shape[1] != x.size or x.size < 2:
        raise ValueError(f"curves must have shape (instances, {x.size}) with at least 2 sizes, got {C.shape}")
    if np.any(C <= 0) or np.any(x <= 0):
        raise ValueError("x and curves must be positive for a log-log fit")
    slopes = np.array([loglog_slope(x, c) for c in C])
    tails = np.array([loglog_slope(x[-2:], c[-2:]) for c in C])
    if sense == "<=":
        i = int(np.argmax(slopes))
        worst, tail = float(slopes[i]), float(tails[i])
        v = (Verdict.CONFIRMED if worst <= allowance else
             Verdict.VIOLATED if tail > allowance else Verdict.INCONCLUSIVE)
    elif sense == ">=":
        i = int(np.argmin(slopes))
        worst, tail = float(slopes[i]), float(tails[i])
        v = (Verdict.CONFIRMED if worst >= -allowance else
             Verdict.VIOLATED if tail < -allowance else Verdict.INCONCLUSIVE)
    else:
        raise ValueError(f"sense must be '<=' or '>=', got {sense!r}")
    return v, {"slope": worst, "tail_slope": tail, "worst_instance": i, "slopes": slopes.tolist(),
               "allowance": allowance, "sense": sense, "n": int(C.shape[0]), "resampled": "none (deterministic)"}


def rate_power(
    x: Sequence[float], ratio: np.ndarray, rng: np.random.Generator, *, lowered_by: float, allowance: float = 0.0,
    sense: str = "<=", deterministic: bool = False,
) -> Power:
    """Power of a rate check: the exponent moved by ``lowered_by`` towards a stronger claim.

    For an upper rate the sharpened exponent is ``exponent - lowered_by`` (ratio × x^lowered_by); for
    a lower rate it is ``exponent + lowered_by`` (ratio / x^lowered_by). The sharpened ratios are decided
    by the same rule as the statement (:func:`decide_rate`, or the deterministic rule for a family of
    instances); the sharpening is caught when that verdict is violated.

    Parameters
    ----------
    x : sequence of float
        The sizes of the ladder.
    ratio : numpy.ndarray
        ``measured / x^exponent`` of the statement, shape ``(repetitions or instances, len(x))``.
    rng : numpy.random.Generator
        The source of the bootstrap resamples (unused when ``deterministic``).
    lowered_by : float
        How far the exponent is moved towards a stronger statement.
    allowance : float, optional
        The polylog allowance of the rule (:func:`polylog_allowance`).
    sense : {"<=", ">="}, optional
        An upper or a lower rate.
    deterministic : bool, optional
        True for a deterministic family of instances (each row fitted, the worst row decides, no bootstrap).

    Returns
    -------
    Power
        Named "exponent lowered by …" (or "raised" for a lower rate); ``caught`` when the sharpened rate is
        refuted; ``detail`` gives the sharpened slope and its interval.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import rate_power
    >>> rng = np.random.default_rng(2)
    >>> x = np.array([10.0, 100.0, 1000.0])
    >>> power = rate_power(x, rng.uniform(0.9, 1.1, size=(30, 3)), rng, lowered_by=0.25)
    >>> power.sharpening, power.caught
    ('exponent lowered by 0.25', True)
    """
    x = np.asarray(x, float)
    factor = x[None, :] ** (lowered_by if sense == "<=" else -lowered_by)  # negative: a weakened statement
    sharp = np.atleast_2d(ratio) * factor
    if deterministic:
        v, s = decide_rate_deterministic(x, sharp, allowance=allowance, sense=sense)
        ci = f"worst slope {s['slope']:.3g}"
    else:
        v, s = decide_rate(x, sharp, rng, allowance=allowance, sense=sense)
        ci = f"slope {s['slope']:.3g}, CI [{s['slope_ci95'][0]:.3g}, {s['slope_ci95'][1]:.3g}]"
    word = "lowered" if sense == "<=" else "raised"
    return Power(f"exponent {word} by {lowered_by:g}", v is Verdict.VIOLATED, f"sharpened {ci}")


def rate_resolution(allowance: float, ci: Sequence[float] | None = None) -> float:
    """The smallest exponent change a rate check can detect: its allowance plus the half-width of its slope
    interval (0 for a deterministic family). An exponent ``e'`` above the true one by more than this is
    refuted by the rule; one within it is not.

    Parameters
    ----------
    allowance : float
        The polylog allowance of the rule (:func:`polylog_allowance`).
    ci : sequence of float, optional
        The slope interval ``(low, high)`` of the check (``slope_ci95`` of :func:`decide_rate`); None for a
        deterministic family.

    Returns
    -------
    float
        ``allowance + max((high − low)/2, 0)``.

    Examples
    --------
    >>> from tvbo_verify.authoring import rate_resolution
    >>> rate_resolution(0.1, (0.2, 0.4))
    0.2
    >>> rate_resolution(0.1)
    0.1
    """
    half = 0.0 if ci is None else (float(ci[1]) - float(ci[0])) / 2.0
    return float(allowance) + max(half, 0.0)


def unresolved(exponent: float, alternatives: dict[str, float], resolution: float) -> list[str]:
    """The alternatives (name -> exponent) the check cannot tell from the claimed ``exponent``: those within
    ``resolution`` of it, each as "resolution R cannot separate e from e' (name): needed < |e − e'|"."""
    out = []
    for name, alt in alternatives.items():
        gap = abs(float(alt) - float(exponent))
        if gap <= resolution:
            out.append(f"resolution {resolution:.3g} cannot separate exponent {exponent:.4g} from {alt:.4g} "
                       f"({name}): needed < {gap:.3g}")
    return out


# ------------------------------------------------------------------- power of checks decided from runs
NO_FAILED_CONTROL = "no negative control failed"
NOT_EVERY_CONTROL_FAILED = "a negative control was not refuted"


def require_failed_control(verdict: Verdict, controls: Sequence[Control]) -> tuple[Verdict, str]:
    """Run-based rule: a confirmation stands only when every negative control came out violated (a control is by
    construction something that cannot satisfy the statement: one that does not fail is a broken control or a
    rule too weak to tell it from the method, and the check has no power against it); otherwise the verdict is
    inconclusive, with the reason naming the controls that were not refuted (empty when nothing changes)."""
    if verdict is not Verdict.CONFIRMED or (controls and all(c.failed for c in controls)):
        return verdict, ""
    if not any(c.failed for c in controls):
        seen = "; ".join(f"{c.name}: {c.verdict.value}" for c in controls) or "none run"
        return Verdict.INCONCLUSIVE, f"{NO_FAILED_CONTROL} ({seen})"
    standing = "; ".join(f"{c.name}: {c.verdict.value}" for c in controls if not c.failed)
    return Verdict.INCONCLUSIVE, f"{NOT_EVERY_CONTROL_FAILED} (not refuted: {standing})"


def vacuous_bound(bound: Any, trivial: Any) -> bool:
    """True when a regret bound is at or above the trivial bound (the most regret any policy could incur on
    the same run) in every repetition: no run could break it."""
    b, t = np.broadcast_arrays(np.asarray(bound, float), np.asarray(trivial, float))
    return bool(b.size) and bool(np.all(b >= t))


def vacuity_text(bound: Any, trivial: Any) -> str:
    """"vacuous at this set-up: bound X ≥ trivial Y" (means over repetitions)."""
    return (f"vacuous at this set-up: bound {float(np.mean(bound)):.4g} ≥ trivial "
            f"{float(np.mean(trivial)):.4g} (the most regret any policy could incur, Σ_t max f_t − min f_t)")


def parts_power(caught: Sequence[bool]) -> bool:
    """Power of a confirmation decided by several parts: every deciding part must have it (none: no power)."""
    return bool(caught) and all(bool(c) for c in caught)


def refutation_power(caught: Sequence[bool]) -> bool:
    """Power of a refutation decided by several failing parts: one failing part refutes the statement on its
    own, so the refutation has power when some failing part has it (that part is the one that decides; a part
    that fails even its weakened statement is a stronger failure, not a weaker check)."""
    return any(bool(c) for c in caught)


def claim_power(caught: Sequence[bool], refuted: bool) -> bool:
    """Whether a claim decided by several parts has power: the rule for combining the ``caught`` flags of
    its parts (:class:`Power` of each configuration or property).

    A confirmation has power only when every deciding part caught its sharpening (no part: no power); a
    refutation has power when some failing part caught its sharpening, because one failing part refutes the
    statement on its own.

    Parameters
    ----------
    caught : sequence of bool
        Whether each deciding part caught its sharpening (for a refuted claim: each failing part).
    refuted : bool
        True when the claim's verdict is violated.

    Returns
    -------
    bool
        All of ``caught`` (and at least one part) for a confirmation; any of ``caught`` for a refutation.

    Examples
    --------
    >>> from tvbo_verify.authoring import claim_power
    >>> claim_power([True, False], refuted=False), claim_power([True, False], refuted=True)
    (False, True)
    >>> claim_power([], refuted=False)
    False
    """
    return refutation_power(caught) if refuted else parts_power(caught)


# ------------------------------------------------------------------------------- ingredient/algorithm
def decide_all(results: Iterable[tuple[str, bool | None]]) -> tuple[Verdict, list[str]]:
    """Ingredient / algorithm / experiment rule: all hold -> confirmed, one fails -> violated."""
    items = [(name, None if ok is None else bool(ok)) for name, ok in results]
    failed = [name for name, ok in items if ok is False]
    unknown = [name for name, ok in items if ok is None]
    if not items:
        return Verdict.INCONCLUSIVE, ["nothing evaluated"]
    if failed:
        return Verdict.VIOLATED, failed
    if unknown:
        return Verdict.INCONCLUSIVE, unknown
    return Verdict.CONFIRMED, []
