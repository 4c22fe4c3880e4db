"""Progress of a long run: steps done out of a total and an estimate of the time left.

The estimate is the mean wall time of the steps finished so far times the steps still to do; it is
shown once the first step has finished. ``tvbo-verify report`` prints one line per claim and per
reproduction, e.g. ``[37/209] wgpucb:remark-5  confirmed ...  eta 4 min``.
"""

from __future__ import annotations

import time
from typing import Callable


def format_duration(seconds: float) -> str:
    """``"40 s"``, ``"4 min"``, ``"1 h 05 min"`` (rounded to whole seconds or minutes)."""
    if seconds < 0 or seconds != seconds:
        raise ValueError(f"seconds must be a non-negative number, got {seconds!r}")
    if seconds < 59.5:
        return f"{round(seconds)} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


class StepCounter:
    """``total`` steps of one phase: call :meth:`step` when one finishes, read :meth:`label` and :meth:`eta`."""

    def __init__(self, total: int, what: str = "", clock: Callable[[], float] = time.monotonic) -> None:
        if total < 0:
            raise ValueError(f"total must be >= 0, got {total}")
        self.total, self.what, self.clock = int(total), what, clock
        self.done = 0
        self.started = clock()

    def step(self) -> None:
        """One more step finished."""
        self.done = min(self.done + 1, self.total)

    def eta(self) -> float | None:
        """Seconds left by the mean time per finished step (None before the first one)."""
        if self.done == 0:
            return None
        return (self.clock() - self.started) / self.done * (self.total - self.done)

    def label(self) -> str:
        """``"[37/209]"`` (``"[reproduction 3/12]"`` with ``what``)."""
        return f"[{self.what + ' ' if self.what else ''}{self.done}/{self.total}]"

    def remaining(self) -> str:
        """``"eta 4 min"``, ``"done"`` after the last step, ``""`` before the first."""
        if self.done >= self.total:
            return "done"
        eta = self.eta()
        return "" if eta is None else f"eta {format_duration(eta)}"
