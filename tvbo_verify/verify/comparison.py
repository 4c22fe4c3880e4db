"""The named result of evaluating a statement at one instance: a measured value against a stated bound.

Every claim check, whatever its kind, ends in comparisons::

    Comparison(value=measured, bound=stated, sense="<=")   # measured <= stated
    Comparison(value=measured, bound=stated, sense=">=")   # measured >= stated
    Comparison(value=measured, bound=stated, sense="==", tol=1e-10 * scale)   # |measured - stated| <= tol

``value`` is what the toolkit measured; ``bound`` is what the paper's statement asserts about it.
A *sharpened* statement (the power of a check, docs/ARCHITECTURE.md §6) changes the bound, never the
measurement: :func:`check_sharpening` enforces that, so a variant that is "caught whatever was
measured" (a measured side altered, or a perturbation below the float tolerance) cannot pass as power.

``cond`` (condition number of the instance) and ``scale`` (natural magnitude of its terms) scale
the float tolerance of :class:`~tvbo_verify.verify.stats.TolerancePolicy`. The fields may be floats
or mpmath numbers (the referee evaluates the same comparison at 50+ digits).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

SENSES = ("<=", ">=", "==")

#: A sharpened bound must differ from the stated one by at least this fraction of the instance's
#: magnitude where it is caught: smaller changes only show that the tolerance is smaller than the
#: perturbation, not that the check could tell two plausible statements apart.
MATERIAL_CHANGE = 1e-3


class SharpeningError(ValueError):
    """A sharpened variant that is no evidence of power (it alters the measurement, or barely the bound)."""


def _abs(x: Any) -> Any:
    return x if x >= 0 else -x


@dataclass(frozen=True)
class Comparison:
    """A measured value against a stated bound: what a statement evaluates to at one instance.

    ``value`` is what the toolkit measured; ``bound`` is what the paper's statement asserts about it. A sharpened
    statement changes the bound, never the measurement (:meth:`with_bound`).

    Parameters
    ----------
    value : float or mpmath number
        The measured side.
    bound : float or mpmath number
        The stated side.
    sense : str
        ``"<="``, ``">="`` or ``"=="``.
    tol : float
        The stated agreement of an identity (``"=="`` only).
    cond : float
        The condition number of the instance (scales the float tolerance).
    scale : float
        The natural magnitude of its terms (scales the float tolerance).

    Raises
    ------
    ValueError
        For an unknown sense, or ``tol`` with an inequality.

    Examples
    --------
    >>> from tvbo_verify.authoring import Comparison
    >>> c = Comparison(0.25, 0.5, "<=")
    >>> c.margin, c.with_bound(0.125).margin
    (0.25, -0.125)
    """

    value: Any
    bound: Any
    sense: str = "<="
    tol: Any = 0.0
    cond: float = 1.0
    scale: float = 0.0

    def __post_init__(self) -> None:
        if self.sense not in SENSES:
            raise ValueError(f"sense must be one of {', '.join(SENSES)}, got {self.sense!r}")
        if self.sense != "==" and self.tol != 0:
            raise ValueError("tol is the stated agreement of an identity; use sense '==' with it")

    # the statement in the normal form lhs <= rhs --------------------------------------------
    @property
    def lhs(self) -> Any:
        if self.sense == "<=":
            return self.value
        if self.sense == ">=":
            return self.bound
        return _abs(self.value - self.bound)

    @property
    def rhs(self) -> Any:
        if self.sense == "<=":
            return self.bound
        if self.sense == ">=":
            return self.value
        return self.tol

    @property
    def margin(self) -> Any:
        """``rhs - lhs``: positive when the statement holds at this instance."""
        return self.rhs - self.lhs

    @property
    def magnitude(self) -> float:
        """The instance's magnitude ``max(|value|, |bound|, scale)`` (floor 1e-300)."""
        return max(abs(float(self.value)), abs(float(self.bound)), abs(float(self.scale)), 1e-300)

    def as_float(self) -> "Comparison":
        return replace(self, value=float(self.value), bound=float(self.bound), tol=float(self.tol))

    def with_bound(self, bound: Any) -> "Comparison":
        """The same measurement against another bound (the usual way to write a sharpening)."""
        return replace(self, bound=bound)

    def text(self, fmt: str = ".6g", *, broken: bool | None = None) -> str:
        """The comparison in words (:func:`comparison_text`); ``broken`` defaults to a negative margin."""
        v, b = float(self.value), float(self.bound)
        if broken is None:
            broken = float(self.margin) < 0
        text = comparison_text(v, self.sense, b, broken=broken, value_text=f"{v:{fmt}}", bound_text=f"{b:{fmt}}")
        if self.sense == "==":
            text += f" (stated agreement {float(self.tol):.2g})"
        return text


#: how each sense is written, and the relation that breaks it
SYMBOLS = {"<=": "≤", ">=": "≥", "==": "="}
_OPPOSITE = {"<=": ">", ">=": "<", "==": "≠"}


def comparison_text(value: float, sense: str, bound: float, *, broken: bool, value_text: str | None = None,
                    bound_text: str | None = None) -> str:
    """A measured value against a stated one, worded so that a broken statement reads as broken.

    The relation printed is the one between the two numbers, never the statement's own sense:
    ``measured 7.07 > stated 5: breaks ≤`` (broken), ``measured 3 ≤ stated 5: holds``, and
    ``measured 5.0000001 > stated 5: holds within the float tolerance`` for a break too small to count.
    """
    if sense not in SENSES:
        raise ValueError(f"sense must be one of {', '.join(SENSES)}, got {sense!r}")
    v = value_text if value_text is not None else f"{float(value):.6g}"
    b = bound_text if bound_text is not None else f"{float(bound):.6g}"
    v_f, b_f = float(value), float(bound)
    if sense == "==":
        relation = "=" if v_f == b_f else "≠" if broken else "≈"
    elif sense == "<=":
        relation = SYMBOLS[sense] if v_f <= b_f else _OPPOSITE[sense]
    else:
        relation = SYMBOLS[sense] if v_f >= b_f else _OPPOSITE[sense]
    head = f"measured {v} {relation} stated {b}"
    if broken:
        return f"{head}: breaks {SYMBOLS[sense]}"
    if relation in (SYMBOLS[sense], "≈"):
        return f"{head}: holds"
    return f"{head}: holds within the float tolerance"


def check_sharpening(original: Comparison, sharpened: Comparison, where: str = "") -> None:
    """Raise :class:`SharpeningError` unless ``sharpened`` is the same measurement against another statement:
    the measured ``value`` and the ``sense`` are unchanged (relative 1e-12)."""
    at = f" at {where}" if where else ""
    ov, sv = float(original.value), float(sharpened.value)
    if original.sense != sharpened.sense:
        raise SharpeningError(f"a sharpening keeps the sense of the statement{at}: "
                              f"{original.sense!r} became {sharpened.sense!r}")
    same = (ov == sv) or (math.isfinite(ov) and math.isfinite(sv)
                          and abs(ov - sv) <= 1e-12 * max(abs(ov), abs(sv), 1e-300))
    if not same and not (math.isnan(ov) and math.isnan(sv)):
        raise SharpeningError(f"a sharpening changes the statement, never the measurement{at}: "
                              f"measured value {ov:.17g} became {sv:.17g}")


def material(original: Comparison, sharpened: Comparison) -> bool:
    """True when the sharpened statement is materially another one at this instance: its stated value
    moves by at least :data:`MATERIAL_CHANGE` of the instance's magnitude (for identities a tighter
    ``tol`` alone never counts). A catch that is not material only shows that the float tolerance is
    smaller than the perturbation."""
    ob, sb = float(original.bound), float(sharpened.bound)
    if not (math.isfinite(ob) and math.isfinite(sb)):
        return ob != sb
    return abs(ob - sb) >= MATERIAL_CHANGE * original.as_float().magnitude
