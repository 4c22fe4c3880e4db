"""O-equalities between iterated logarithms read as the papers write them: for each fixed dimension d.

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
"""

from __future__ import annotations

import math
from typing import Any, Callable

import mpmath
import numpy as np

from ..verify.comparison import Comparison
from ..verify.statement import Params, Statement

__all__ = [
    "LOG10_LOG_T", "iterated_log_orders", "FixedDimensionOrderEquality",
]

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
