"""Verdicts, evidence and power records: what a claim check returns (ARCHITECTURE.md, "Claims, evidence, verdicts")."""

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

    def __post_init__(self) -> None:
        self.verdict = Verdict(self.verdict)

    @property
    def power_label(self) -> str:
        return self.power.label if self.power is not None else "no power"
