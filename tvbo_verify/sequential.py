"""Sequential repetitions: a measurement that leaves its decision open gathers more repetitions, up to a cap.

A verdict decided from a handful of repetitions moves with the seed when its interval straddles the threshold,
and a percentile bootstrap over ``n`` repetitions covers less than its level when ``n`` is small (about 75 % for
a nominal 95 % at n = 3, 82 % at n = 5, 89 % at n = 10 for the mean of normal draws: it resamples the sample's
own spread, ``(n − 1)/n`` of the variance, with normal rather than Student quantiles, and never reaches beyond
the sample's range). A check whose verdict moves with the seed therefore decides by a
group-sequential design:

* **Looks.** ``start``, ``2·start``, ``4·start``, … repetitions, the ``cap`` always the last look
  (:meth:`SequentialDesign.looks`). The repetitions of a look are the first ``n`` streams of the run seed, so
  a look extends the previous one (paired, never a fresh draw).
* **Level per look.** Each look's interval is at level ``1 − α/K`` for ``K`` planned looks (Bonferroni), so the
  chance that some look decides wrongly is at most ``α = 1 − level`` at whatever look the design stops
  (:meth:`SequentialDesign.look_level`).
* **Small samples.** A percentile bootstrap interval at ``n`` repetitions is read at the *expanded* level
  of Hesterberg (2015, "What teachers should know about the bootstrap", §4.3): the percentile level
  ``1 − α'`` with ``z_{1 − α'/2} = √(n/(n − 1)) · t_{n − 1, 1 − α/2}`` (:func:`expanded_level`), which
  brings the coverage close to the level (90 % at n = 5, 94 % at n = 10 in the example above; nothing reaches
  beyond the range of three repetitions, so a design should start at five or more).
* **Stop rule.** The design stops at the first look whose verdict is decided (``confirmed`` or ``violated``),
  or at the cap with ``inconclusive`` and the spread it saw (:func:`run_sequential`).

The decision at a look is the caller's (a rate rule, an interval against a threshold): this module only
plans the looks, sets their levels and records what each look measured.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from scipy import stats as _st

from .validation import check_int

__all__ = [
    "UNDECIDED", "SequentialDesign", "expanded_level", "bootstrap_draws", "Look", "SequentialRecord",
    "run_sequential",
]

#: the verdict of a look that leaves the decision open (the string value of ``Verdict.INCONCLUSIVE``)
UNDECIDED = "inconclusive"
#: bootstrap draws: enough for ``TAIL_DRAWS`` draws beyond each end of the interval, at least ``MIN_DRAWS``,
#: at most ``MAX_DRAWS`` (an interval read beyond them is the range of the bootstrap distribution)
MIN_DRAWS, MAX_DRAWS, TAIL_DRAWS = 500, 8000, 10


@dataclass(frozen=True)
class SequentialDesign:
    """The looks of a sequential measurement.

    Parameters
    ----------
    start
        Repetitions of the first look (at least 2).
    cap
        Repetitions of the last look (at least ``start``).
    level
        Overall confidence level ``1 − α`` shared by the looks (in (0, 1)).
    """

    start: int
    cap: int
    level: float = 0.95

    def __post_init__(self) -> None:
        check_int("start", self.start, 2)
        check_int("cap", self.cap, self.start)
        if not 0.0 < self.level < 1.0:
            raise ValueError(f"level must be in (0, 1), got {self.level!r}")

    def looks(self) -> tuple[int, ...]:
        """``start, 2·start, 4·start, …`` below ``cap``, then ``cap``."""
        out, n = [], self.start
        while n < self.cap:
            out.append(n)
            n *= 2
        return (*out, self.cap)

    def look_level(self) -> float:
        """The level of each look's interval: ``1 − α/K`` for ``K`` looks (Bonferroni)."""
        return 1.0 - (1.0 - self.level) / len(self.looks())

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "cap": self.cap, "level": self.level, "looks": list(self.looks()),
                "look_level": self.look_level(),
                "rule": "stop at the first decided look; each look's interval at level 1 − α/K (Bonferroni over "
                        "K looks), percentile bootstrap intervals read at Hesterberg's expanded level"}


def expanded_level(n: int, level: float) -> float:
    """The percentile level that gives a bootstrap interval over ``n`` repetitions the coverage ``level``.

    Hesterberg (2015), §4.3: ``1 − α'`` with ``z_{1 − α'/2} = √(n/(n − 1)) · t_{n − 1, 1 − α/2}``, where
    ``α = 1 − level``; ``level`` itself when ``n`` < 2 (no spread to expand). At very small ``n`` the expanded
    level rounds to 1: the interval is then the range of the bootstrap distribution.
    """
    n = check_int("n", n, 1)
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    if n < 2:
        return level
    z = math.sqrt(n / (n - 1.0)) * float(_st.t.ppf(0.5 + level / 2.0, n - 1))
    return float(1.0 - 2.0 * _st.norm.sf(z))


def bootstrap_draws(level: float) -> int:
    """Bootstrap draws for an interval at ``level`` (in (0, 1]): :data:`TAIL_DRAWS` beyond each end, within
    [:data:`MIN_DRAWS`, :data:`MAX_DRAWS`]."""
    if not 0.0 < level <= 1.0:
        raise ValueError(f"level must be in (0, 1], got {level!r}")
    if level >= 1.0:
        return MAX_DRAWS
    tail = (1.0 - level) / 2.0
    return int(min(MAX_DRAWS, max(MIN_DRAWS, math.ceil(TAIL_DRAWS / tail))))


@dataclass
class Look:
    """One look: its repetitions, the percentile level its interval was read at, its verdict and what it
    measured (the caller's record: estimate, interval)."""

    n: int
    level: float
    verdict: str
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "level": self.level, "verdict": self.verdict, **self.detail}


@dataclass
class SequentialRecord:
    """What a sequential measurement did: its design, every look, the verdict and why it stopped."""

    design: SequentialDesign
    looks: list[Look]

    @property
    def last(self) -> Look:
        return self.looks[-1]

    @property
    def verdict(self) -> str:
        return self.last.verdict

    @property
    def capped(self) -> bool:
        """Stopped at the cap with the decision still open."""
        return self.last.verdict == UNDECIDED and self.last.n >= self.design.cap

    def text(self) -> str:
        """``"decided violated at 20 repetitions (looks 5, 10, 20 of 5…80)"`` or the cap reached."""
        seen = ", ".join(str(lk.n) for lk in self.looks)
        plan = f"{self.design.looks()[0]}…{self.design.cap}"
        if self.capped:
            return f"undecided at the cap of {self.design.cap} repetitions (looks {seen})"
        return f"decided {self.verdict} at {self.last.n} repetitions (looks {seen} of {plan})"

    def to_dict(self) -> dict[str, Any]:
        return {"design": self.design.to_dict(), "looks": [lk.to_dict() for lk in self.looks],
                "verdict": self.verdict, "repetitions": self.last.n, "capped": self.capped, "stopped": self.text()}


def run_sequential(design: SequentialDesign, decide: Callable[[int, float], tuple[str, dict[str, Any]]]
                   ) -> SequentialRecord:
    """Look at ``design.looks()`` in turn until a look is decided.

    ``decide(n, level)`` measures with the first ``n`` repetitions, reads its percentile interval at ``level``
    (the look level expanded for ``n``, :func:`expanded_level`) and returns its verdict (``"confirmed"``,
    ``"violated"`` or :data:`UNDECIDED`) and a JSON-serialisable record of what it measured.
    """
    looks: list[Look] = []
    for n in design.looks():
        level = expanded_level(n, design.look_level())
        verdict, detail = decide(n, level)
        looks.append(Look(n, level, str(getattr(verdict, "value", verdict)), dict(detail)))
        if looks[-1].verdict != UNDECIDED:
            break
    return SequentialRecord(design, looks)
