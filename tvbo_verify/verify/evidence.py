"""Verdicts, evidence and power records: what a claim check returns (docs/ARCHITECTURE.md §4)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Callable


class Verdict(str, enum.Enum):
    """Outcome of one claim check, decided from the measurement alone.

    ``ERROR`` is not a decision: the check raised, and the report shows the exception for that claim.
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

    ``caught`` True means the same procedure declared the sharpened statement violated, so a confirmed
    verdict is evidence; False means the check has no power against that sharpening.
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
    """A negative control: the claim's own measurement and deciding rule applied to something that cannot
    satisfy the statement (a uniform-random, fixed-arm or greedy policy, a policy that never forgets on a
    drifting model, a named mutant). It must come out ``violated`` (``failed``); a run-based check whose
    every control passes cannot tell a working method from a broken one (docs/ARCHITECTURE.md §6).

    ``statistic`` is the control's own measured statistic (slope and interval, frequency, difference).
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
    """Everything a check measured.

    * ``instances``: rows (dicts) with the instance parameters and, for inequalities, ``lhs``,
      ``rhs`` and ``margin`` (margin > 0 means the statement holds at that instance).
    * ``margin``: worst margin over all instances (None when not meaningful).
    * ``counterexample``: JSON-serialisable instance that ``tvbo-verify replay`` re-evaluates.
    * ``stats``: n, confidence intervals, fitted slopes, numerical notes (JSON-serialisable).
    * ``figures``: (title, factory) pairs; each factory returns a matplotlib figure.
    * ``power``: the sharpened variant and whether it was caught (None means "no power").
    * ``controls``: the negative controls run through the same measurement and rule (each must fail).
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
