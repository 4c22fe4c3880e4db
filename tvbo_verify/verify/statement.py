"""A checkable statement: what an exact claim measures at one instance, and what it asserts there.

A statement is a small class (its helpers are its methods, so they need no name prefixes)::

    class ResidualTraceIsMonotone(Statement):
        name = "tr(K~ - U~) <= tr(K - U)"
        sharpening = "bound halved"
        continuous = ("X",)
        bounds = {"X": (0.0, 10.0)}

        def sample(self, rng): ...                      # a random instance (dict of JSON values)
        def evaluate(self, p, sharpened=False):         # float64 -> Comparison
            value, bound = ..., ...
            return Comparison(value, bound / 2 if sharpened else bound, "<=")
        def hp(self, p):                                # the mpmath twin (optional) -> Comparison

    LEMMA_38 = ResidualTraceIsMonotone()

``evaluate(p, sharpened=True)`` is the sharpened variant of the statement (the power of the check):
the same measured value against a stronger, plausible bound (a misread convention, a lowered
exponent, a divided constant); :func:`~tvbo_verify.verify.comparison.check_sharpening` rejects a
variant that alters the measurement or moves the bound immaterially. Instances the sharpened
statement admits beyond the original's domain go in ``sharpened_extra``.

Every statement registers under its ``name`` when it is created, so ``tvbo-verify replay`` finds it
from a stored counterexample without rerunning the check. Small statements can be written inline,
``Statement(name=..., evaluate=..., sample=...)``.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Iterable

import numpy as np

from ..jsonify import to_jsonable
from ..registry import Registry
from .comparison import Comparison, check_sharpening
from .registry import ReplayResult
from .stats import DEFAULT_POLICY, Instance, TolerancePolicy, referee, short_params

Params = dict[str, Any]



def _statement_class(st: "Statement") -> tuple[str, str]:
    return type(st).__module__, type(st).__qualname__


def _load_statements(name: str | None) -> None:
    from .registry import load_all

    load_all()


#: name -> statement: two different statements (classes of other names) may not share a name; a class defined
#: again under its own name, as a reloaded module or a rerun doctest does, replaces the first
_STATEMENTS: Registry = Registry("statement", load=_load_statements,
                                 same=lambda a, b: _statement_class(a) == _statement_class(b),
                                 describe=lambda st: ".".join(_statement_class(st)))


class Statement:
    """A checkable statement: what an exact claim measures at one instance, and what it asserts there.

    Subclass it (its helpers are its methods) or build a small one inline with keyword fields. A statement
    registers under its ``name`` when created, so ``tvbo-verify replay`` finds it from a stored counterexample.

    Parameters
    ----------
    **fields
        Any of the fields below, set on the instance (an unknown one is refused with ``TypeError``).

    Other Parameters
    ----------------
    name : str
        Unique; keys replays.
    sharpening : str
        The sharpened variant in words (``"bound halved"``).
    continuous : tuple of str
        The parameters the adversarial search moves, within ``bounds``.
    bounds : dict
        ``{parameter: (low, high)}``.
    evaluate : Callable
        ``evaluate(p, sharpened=False) -> Comparison``: the float64 measurement at instance ``p`` against the
        statement's bound, or the sharpened bound.
    sample : Callable
        ``sample(rng) -> Params``: a random instance.
    hp : Callable or None
        The mpmath twin ``hp(p) -> Comparison``; a float violation counts once it confirms it.
    corrected : Callable or None
        ``corrected(p) -> Comparison``: the corrected form of an erratum on the same measurement.
    sharpened_extra : tuple of Params
        Instances only the sharpened statement admits.

    Raises
    ------
    ValueError
        Without a name.

    Examples
    --------
    >>> from tvbo_verify.authoring import Comparison, Statement
    >>> class SquareBelowIdentity(Statement):
    ...     name = "doc: x^2 <= x on [0, 1]"
    ...     sharpening = "bound halved"
    ...     continuous = ("x",)
    ...     bounds = {"x": (0.0, 1.0)}
    ...     def sample(self, rng):
    ...         return {"x": float(rng.uniform(0.0, 1.0))}
    ...     def evaluate(self, p, sharpened=False):
    ...         return Comparison(p["x"] ** 2, p["x"] / 2 if sharpened else p["x"], "<=")
    >>> SquareBelowIdentity().evaluate({"x": 0.5}).margin
    0.25
    """

    name: str = ""
    sharpening: str = ""
    continuous: tuple[str, ...] = ()
    bounds: dict[str, tuple[float, float]] = {}
    #: instances admitted only by the sharpened statement (a widened domain); evaluated with sharpened=True
    sharpened_extra: tuple[Params, ...] = ()
    #: mpmath twin ``hp(p) -> Comparison`` evaluated inside ``mpmath.workdps``; None: no referee
    hp: Callable[[Params], Comparison] | None = None
    #: the scalar parameter the margin figure is drawn against (None: the instances in search order)
    plot_against: str | None = None
    #: the corrected statement ``corrected(p) -> Comparison`` on the same measurement (None: there is none): where the
    #: printed statement breaks and the corrected one holds on the same instances, the check has told a true
    #: statement from a false one — the power of a violation when the statement holds nowhere (its positive contrast)
    corrected: Callable[[Params], Comparison] | None = None

    FIELDS: ClassVar[tuple[str, ...]] = ("name", "sharpening", "continuous", "bounds", "sharpened_extra", "hp",
                                         "evaluate", "sample", "shrink", "describe", "plot_against", "corrected")

    def __init__(self, **fields: Any) -> None:
        for key, value in fields.items():
            if key not in self.FIELDS:
                raise TypeError(f"Statement has no field {key!r} (fields: {', '.join(self.FIELDS)})")
            setattr(self, key, value)
        if not self.name:
            raise ValueError(f"{type(self).__name__} needs a name (it keys replay of its counterexamples)")
        register_statement(self)

    # what a statement defines ----------------------------------------------------------------
    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:  # pragma: no cover - abstract
        raise NotImplementedError(f"{type(self).__name__}.evaluate")

    def sample(self, rng: np.random.Generator) -> Params:  # pragma: no cover - abstract
        raise NotImplementedError(f"{type(self).__name__}.sample")

    def shrink(self, p: Params) -> Iterable[Params]:
        """Smaller candidate instances, tried in order when a violation is shrunk."""
        return ()

    def describe(self, p: Params) -> dict[str, Any]:
        """The columns of the instances table (default: the scalar parameters)."""
        return {k: v for k, v in p.items() if isinstance(v, (int, float, str, bool))}

    # what the search and the builders use ------------------------------------------------------
    @property
    def has_referee(self) -> bool:
        return self.hp is not None

    def instance(self, p: Params, *, sharpened: bool = False) -> Instance:
        c = self.evaluate(p, sharpened) if sharpened else self.evaluate(p)
        if not isinstance(c, Comparison):
            raise TypeError(f"{self.name}: evaluate returns a Comparison, got {type(c).__name__}")
        return Instance(p, c)

    def sharpened(self, inst: Instance) -> Instance:
        """The sharpened statement at ``inst``, checked to be the same measurement against another bound."""
        sharp = self.instance(inst.params, sharpened=True)
        check_sharpening(inst.comparison, sharp.comparison, where=f"{self.name} {self._short(inst.params)}")
        return sharp

    def row(self, inst: Instance) -> dict[str, Any]:
        c = inst.comparison
        shown = self.describe(inst.params)
        return to_jsonable({**shown, "measured": float(c.value), "sense": c.sense, "stated": float(c.bound),
                            "margin": inst.margin, "relative margin": inst.relative})

    def replay(self, p: Params, policy: TolerancePolicy = DEFAULT_POLICY) -> ReplayResult:
        """Re-evaluate ``p`` in float64 and, when a referee exists, in mpmath."""
        inst = self.instance(p)
        hp_margin = None
        if self.hp is not None:
            m, broken = referee(p, self.hp, policy, inst.scale)
            hp_margin = float(m)
            violated = broken
        else:
            violated = inst.broken(policy)
        return ReplayResult(inst.lhs, inst.rhs, inst.margin, hp_margin, bool(violated),
                            f"{self.name}: {inst.comparison.as_float().text()}")

    _short = staticmethod(short_params)


def register_statement(st: Statement) -> None:
    """Register ``st`` under its name (:data:`_STATEMENTS`)."""
    _STATEMENTS.register(st.name, st)


def lookup_statement(name: str) -> Statement:
    """The statement registered under ``name`` (after the claim modules are imported)."""
    try:
        return _STATEMENTS.lookup(name)
    except ValueError:
        raise ValueError(f"no statement named {name!r}; the counterexample is from another version") from None
