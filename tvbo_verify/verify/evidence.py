"""Verdicts, evidence and power records: what a claim check returns (docs/ARCHITECTURE.md §4)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Callable


class Verdict(str, enum.Enum):
    """The outcome of one claim check, decided from the measurement alone.

    ``ERROR`` is not a decision: the check raised, and the report shows the exception for that claim.

    Parameters
    ----------
    value : str
        ``"confirmed"``, ``"violated"``, ``"inconclusive"`` or ``"error"``.

    Examples
    --------
    >>> from tvbo_verify.authoring import Verdict
    >>> Verdict("violated") is Verdict.VIOLATED, str(Verdict.CONFIRMED)
    (True, 'confirmed')
    """

    CONFIRMED = "confirmed"
    VIOLATED = "violated"
    INCONCLUSIVE = "inconclusive"
    ERROR = "error"

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.value


@dataclass
class Power:
    """Whether the check caught a sharpened (deliberately false) variant of its own statement.

    ``caught`` True means the same procedure declared the sharpened statement violated, so a confirmed verdict is
    evidence; False means the check has no power against that sharpening (its verdict does not pass).

    Parameters
    ----------
    sharpening : str
        The sharpened statement in words (``"constant halved"``).
    caught : bool
        Whether it was caught.
    detail : str
        Where and how.

    Examples
    --------
    >>> from tvbo_verify.authoring import Power
    >>> Power("constant halved", True, "broken at x = 0.7").caught
    True
    """

    sharpening: str
    caught: bool
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"sharpening": self.sharpening, "caught": bool(self.caught), "detail": self.detail}

    @property
    def label(self) -> str:
        return "caught" if self.caught else "no power"


@dataclass
class Control:
    """A negative control: the claim's own measurement and rule applied to something that cannot satisfy the
    statement (a uniform-random, fixed-arm or greedy policy, a policy that never forgets on a drift, a named
    mutant). It must come out violated (:attr:`failed`); a run-based check whose every control passes cannot tell
    a working method from a broken one. The builders make controls from the ``controls=`` they are given.

    Parameters
    ----------
    name : str
        What was run.
    description : str
        Why it cannot satisfy the statement.
    verdict : Verdict
        The verdict of the claim's rule on it.
    detail : str
        Its measurement in words.
    statistic : dict
        Its measured statistic (slope and interval, frequency, difference).

    Examples
    --------
    >>> from tvbo_verify.authoring import Control, Verdict
    >>> Control("random", "uniform play cannot reach a sublinear rate", Verdict.VIOLATED).failed
    True
    """

    name: str
    description: str
    verdict: Verdict
    detail: str = ""
    statistic: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.verdict = Verdict(self.verdict)

    @property
    def failed(self) -> bool:
        """True when the control came out violated, as a control must."""
        return self.verdict is Verdict.VIOLATED

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "verdict": self.verdict.value,
                "failed": self.failed, "detail": self.detail, "statistic": dict(self.statistic)}

    def row(self) -> dict[str, Any]:
        """The control as a row of the claim's table."""
        return {"negative control": self.name, "verdict": self.verdict.value, "detail": self.detail}


FigureFactory = Callable[[], Any]


@dataclass
class Evidence:
    """Everything a check measured and its verdict: what an evidence builder returns and a check passes on.

    Build it with a builder (:func:`exact_evidence`, :func:`rate_evidence`, :func:`probabilistic_evidence`,
    :func:`properties_evidence`, :func:`experiment_evidence`), which decides the verdict by one rule and fills the
    rest.

    Parameters
    ----------
    verdict : Verdict
        The decision.
    summary : str
        One paragraph on what was measured and why the verdict follows.
    instances : list of dict
        Rows of the instance table: the instance's parameters and, for inequalities, ``lhs``, ``rhs`` and
        ``margin`` (> 0: the statement holds there).
    margin : float or None
        The worst margin over all instances.
    counterexample : dict or None
        A JSON-serialisable instance that ``tvbo-verify replay`` re-evaluates.
    stats : dict
        Sizes, intervals, slopes, notes (JSON-serialisable).
    power : Power or None
        The sharpened variant and whether it was caught (None: no power).
    figures : list of tuple
        ``(title, factory)`` pairs; each factory returns a matplotlib figure.
    seed, runtime_s : int or None, float or None
        Filled by :func:`run_claim`.
    method : str
        The check's docstring (filled by :func:`run_claim`).
    controls : list of Control
        The negative controls, each of which must fail.

    Examples
    --------
    >>> from tvbo_verify.authoring import Evidence, Power, Verdict
    >>> ev = Evidence(Verdict.CONFIRMED, "holds at 30 instances", power=Power("halved", True))
    >>> ev.verdict.value, ev.power.caught
    ('confirmed', True)
    """

    verdict: Verdict
    summary: str
    instances: list[dict[str, Any]] = field(default_factory=list)
    margin: float | None = None
    counterexample: dict[str, Any] | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    power: Power | None = None
    figures: list[tuple[str, FigureFactory]] = field(default_factory=list)
    seed: int | None = None
    runtime_s: float | None = None
    method: str = ""
    controls: list[Control] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.verdict = Verdict(self.verdict)

    @property
    def power_label(self) -> str:
        return self.power.label if self.power is not None else "no power"
