"""O-equalities between iterated logarithms, read with the dimension d explicit (as the papers write them) and
for each fixed d.

``wsparq`` Eq. (30) and ``sparq`` Eq. (31) both rewrite ``O(d log^k(log^d T))`` as ``O(d log^k(d log T))``
(``k = d + 1`` and ``k = d + 3``). Inside the O the two expressions differ,
``log(log^d T) = d log log T`` while ``log(d log T) = log d + log log T``, but an O-equality for a fixed d
only asks that their ratio stays between two positive constants for all large T. With
``L = log log T >= 1`` (``T >= e^e``) the textbook proof gives the constants::

    A / B = (d L)^k / (log d + L)^k,    L^k <= (log d + L)^k <= (1 + log d)^k L^k,
    so  (d / (1 + log d))^k  <=  A / B  <=  d^k.

:class:`FixedDimensionOrderEquality` evaluates both expressions as written (``log`` of the power
``(log T)^d``, not the identity) at instances ``(d, log10 log T)`` reaching ``log T = 10^300`` and
compares their ratio with these constants; the 50-digit twin evaluates ``T``'s logarithms in mpmath.
The sharpened statement reads the upper side "uniform in d" (the constant 1 of ``d = 1`` for every d, which
the factor ``d^k`` dropped inside the O breaks at every ``d >= 2``) and doubles the lower constant (which is
attained at ``L = 1``, so a check that cannot tell the proof's constant from twice it has no power).

Both papers keep ``d`` explicit inside these O's (``O(d log^k(...))``): the O then hides only a constant
independent of ``d``. :class:`ExplicitDimensionOrderEquality` reads the equality so: ``B <= A <= C B`` for every
``d = 1..12`` with one constant ``C = ABSOLUTE_CONSTANT = 10^6`` fixed beforehand (the lower side holds with 1 at
every d, since ``d >= 1 + log d``). The constant each d needs is ``sup_T A/B = d^k`` (``L → ∞``), which no fixed
constant covers: ``10^6`` fails from ``d = 7`` for ``k = d + 1`` and from ``d = 6`` for ``k = d + 3``, and any
larger one at a larger d. :func:`order_equality_evidence` decides both readings; the d-explicit one decides the verdict.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterator

import mpmath
import numpy as np

from ..verify.builders import exact_evidence
from ..verify.comparison import Comparison
from ..verify.engine import Context
from ..verify.evidence import Evidence
from ..verify.statement import Params, Statement

__all__ = [
    "LOG10_LOG_T", "ABSOLUTE_CONSTANT", "iterated_log_orders", "FixedDimensionOrderEquality",
    "ExplicitDimensionOrderEquality", "order_equality_evidence",
]

#: the constant independent of d that the d-explicit reading allows, fixed before any instance is evaluated: far
#: above every constant the papers' proofs carry, so that a break is not an artefact of a tight choice
ABSOLUTE_CONSTANT = 1e6

#: ``log10(log T)`` of the instances: from just above ``log T = e`` (``L = log log T >= 1``) to ``log T = 10^300``
LOG10_LOG_T = (math.log10(math.e) + 1e-9, 300.0)


def iterated_log_orders(d: int, log_t: Any, power: int) -> tuple[Any, Any]:
    """``(log^k(log^d T), log^k(d log T))`` with ``k = power``, from ``log T`` (float or mpmath).

    The first expression is evaluated as written, the logarithm of the power ``(log T)^d``: in mpmath
    directly, in float64 through ``log((log T)^d) = d log log T`` only where the power overflows.
    """
    if isinstance(log_t, mpmath.mpf):
        return mpmath.log(log_t ** d) ** power, mpmath.log(d * log_t) ** power
    try:
        inner = math.log(log_t ** d)
    except OverflowError:
        inner = d * math.log(log_t)
    return inner ** power, math.log(d * log_t) ** power


class FixedDimensionOrderEquality(Statement):
    """``c_d B <= A <= C_d B`` (part ``upper`` or ``lower``) for ``A = log^k(log^d T)``, ``B = log^k(d log T)``,
    ``k = exponent(d)``, with the proof's constants ``C_d = d^k`` and ``c_d = (d / (1 + log d))^k``."""

    plot_against = "d"
    continuous = ("log10_log_T",)
    bounds = {"log10_log_T": LOG10_LOG_T}

    def __init__(self, *, name: str, exponent: Callable[[int], int], max_d: int = 8) -> None:
        super().__init__(name=name, sharpening="upper constant 1 for every d (uniform in d); lower constant doubled")
        self.exponent = exponent
        self.max_d = max_d

    def _compare(self, p: Params, A: Any, B: Any, log: Callable[[Any], Any], sharpened: bool) -> Comparison:
        d, k = int(p["d"]), self.exponent(int(p["d"]))
        if p["part"] == "upper":
            constant = 1 if sharpened else d ** k
            return Comparison(A, constant * B, "<=", scale=abs(constant * B))
        constant = (2 if sharpened else 1) * (d / (1 + log(d))) ** k
        return Comparison(A, constant * B, ">=", scale=abs(B))

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        d = int(p["d"])
        A, B = iterated_log_orders(d, 10.0 ** float(p["log10_log_T"]), self.exponent(d))
        return self._compare(p, A, B, math.log, sharpened)

    def hp(self, p: Params) -> Comparison:
        d = int(p["d"])
        A, B = iterated_log_orders(d, mpmath.mpf(10) ** mpmath.mpf(p["log10_log_T"]), self.exponent(d))
        return self._compare(p, A, B, lambda x: mpmath.log(mpmath.mpf(x)), False)

    def sample(self, rng: np.random.Generator) -> Params:
        return {"d": int(rng.integers(1, self.max_d + 1)), "log10_log_T": float(rng.uniform(*LOG10_LOG_T)),
                "part": str(rng.choice(["upper", "lower"]))}

    def corners(self) -> list[Params]:
        """Both ends of the ``log T`` range at every d, for both parts: where the ratio is smallest and largest."""
        return [{"d": d, "log10_log_T": u, "part": part} for d in range(1, self.max_d + 1)
                for u in LOG10_LOG_T for part in ("upper", "lower")]


class ExplicitDimensionOrderEquality(FixedDimensionOrderEquality):
    """``B <= A <= C B`` with one constant for every d (d explicit in the O): ``C = ABSOLUTE_CONSTANT`` and 1
    below, for ``A = log^k(log^d T)``, ``B = log^k(d log T)``, ``d = 1..max_d`` (12 keeps the largest ratio,
    ``12^{15}``, within float64's resolution of the bound)."""

    def __init__(self, *, name: str, exponent: Callable[[int], int], max_d: int = 12) -> None:
        super().__init__(name=name, exponent=exponent, max_d=max_d)
        self.sharpening = "upper constant 1, the one d = 1 needs (A = B there); lower constant 2"

    def _compare(self, p: Params, A: Any, B: Any, log: Callable[[Any], Any], sharpened: bool) -> Comparison:
        if p["part"] == "upper":
            constant = 1 if sharpened else ABSOLUTE_CONSTANT
            return Comparison(A, constant * B, "<=", scale=abs(constant * B))
        return Comparison(A, (2 if sharpened else 1) * B, ">=", scale=abs(B))

    def shrink(self, p: Params) -> Iterator[Params]:
        """The same ``log T`` one dimension lower: a counterexample shrinks to the first d that breaks."""
        if int(p["d"]) > 1:
            yield {**p, "d": int(p["d"]) - 1}

    def needed_constants(self) -> dict[int, float]:
        """``sup_T A/B = d^k`` for every d: the upper constant each dimension needs."""
        return {d: float(d) ** self.exponent(d) for d in range(1, self.max_d + 1)}


def order_equality_evidence(ctx: Context, explicit: ExplicitDimensionOrderEquality,
                            fixed: FixedDimensionOrderEquality, *, n_random: int, what: str) -> Evidence:
    """Decide an O-equality of this module under both readings: with d explicit (``explicit``, which decides the
    verdict, as the papers write d inside the O) and for each fixed d (``fixed``, reported in the summary and under
    ``stats["fixed_d_reading"]``)."""
    ev = exact_evidence(ctx, explicit, n_random=n_random, n_starts=2, extra=explicit.corners(),
                        what=f"{what}, d explicit (one constant {ABSOLUTE_CONSTANT:g} for every d)")
    other = exact_evidence(ctx, fixed, n_random=n_random, n_starts=2, extra=fixed.corners(),
                           what=f"{what} for each fixed d (constants may depend on d)")
    needed = explicit.needed_constants()
    first = min((d for d, c in needed.items() if c > ABSOLUTE_CONSTANT), default=None)
    ev.summary += (f" The constant each d needs is d^k: {needed[2]:.3g} at d = 2, {needed[explicit.max_d]:.3g} at "
                   f"d = {explicit.max_d}" + (f" (above {ABSOLUTE_CONSTANT:g} from d = {first})" if first else "")
                   + f". Read for each fixed d instead: {other.verdict.value} — {other.summary}")
    ev.stats.update({"reading": "d explicit inside the O (decides the verdict)", "absolute_constant": ABSOLUTE_CONSTANT,
                     "needed_constant_by_d": needed, "first_d_above_constant": first,
                     "fixed_d_reading": {"verdict": other.verdict.value, "summary": other.summary,
                                         "instances": other.stats.get("n"),
                                         "power": None if other.power is None else other.power.detail}})
    return ev
