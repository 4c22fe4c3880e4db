"""Progress of a long run: steps done out of a total and an estimate of the time left.

The estimate is the wall time so far times the work still to do over the work done; it is shown once
the first step has finished. Work is counted in steps, or, when each step's expected seconds are given, in
expected seconds. A report runs its longest claims first, so counting steps takes the first, slowest ones
for typical (a full-fidelity segment estimated 8 h 53 min left after its first claim and finished 48 minutes
later); its claims are weighed by their runtimes in the previous report written to the same folder. Without
one they are weighed by a guess per kind at quick-fidelity scale, and the estimate stays rough: a fresh
full-fidelity report estimated 77 hours after its first claim, an experiment of 54 minutes.

The estimate shown (:meth:`StepCounter.remaining`) is smoothed: after each step it moves only a fraction
(:data:`SMOOTHING`) of the way from the estimate it showed, counted down by the time since, to the new one, so
that one claim far slower or faster than expected does not make it jump by hours (a report on a busy machine
showed 1 h 40 min, then 5 h, then 2 h for the same work left).

``tvbo-verify report`` prints one line per claim and per reproduction, e.g. ``[37/209] wgpucb:remark-5
confirmed ...  eta 4 min``, and, when nothing has finished for five minutes (a full-fidelity claim can run
for an hour), a line naming what is still running (:class:`Heartbeat`).
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Mapping


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


#: weight of the newest estimate of the time left in the one shown (:meth:`StepCounter.smoothed_eta`)
SMOOTHING = 0.3


class StepCounter:
    """``total`` steps of one phase: call :meth:`step` when one finishes, read :meth:`label` and :meth:`eta`.

    ``expected``: the expected seconds of each step by its key (steps without one count for the mean of
    those given), which then weigh the work done and left; :meth:`step` names the step that finished.
    """

    def __init__(self, total: int, what: str = "", clock: Callable[[], float] = time.monotonic,
                 expected: Mapping[str, float] | None = None) -> None:
        if total < 0:
            raise ValueError(f"total must be >= 0, got {total}")
        self.total, self.what, self.clock = int(total), what, clock
        self.done = 0
        self.started = clock()
        self._left = {str(k): float(v) for k, v in (expected or {}).items() if v > 0}
        self._mean = sum(self._left.values()) / len(self._left) if self._left else 1.0
        self._work_done = 0.0
        self._work = sum(self._left.values()) + self._mean * max(self.total - len(self._left), 0)
        self._smooth: float | None = None  # the smoothed estimate at the time of the last step
        self._smoothed_at = self.started

    def step(self, key: str | None = None) -> None:
        """One more step finished (``key``: which one, for its expected seconds)."""
        self.done = min(self.done + 1, self.total)
        self._work_done += self._left.pop(str(key), self._mean) if key is not None else self._mean
        raw, now = self.eta(), self.clock()
        if raw is not None:
            shown = self.smoothed_eta()
            self._smooth = raw if shown is None else SMOOTHING * raw + (1.0 - SMOOTHING) * shown
            self._smoothed_at = now

    def smoothed_eta(self) -> float | None:
        """The time left as shown: an exponentially weighted mean of the estimates of :meth:`eta` at each step
        (weight :data:`SMOOTHING` for the newest), counted down since the last step (None before the first step,
        0 after the last)."""
        if self.done >= self.total and self.total:
            return 0.0
        if self._smooth is None:
            return None
        return max(self._smooth - (self.clock() - self._smoothed_at), 0.0)

    def eta(self) -> float | None:
        """Seconds left by the wall time per unit of work done (None before the first step)."""
        if self.done == 0:
            return None
        if self.done >= self.total:
            return 0.0
        return (self.clock() - self.started) * max(self._work - self._work_done, 0.0) / self._work_done

    def label(self) -> str:
        """``"[37/209]"`` (``"[reproduction 3/12]"`` with ``what``)."""
        return f"[{self.what + ' ' if self.what else ''}{self.done}/{self.total}]"

    def remaining(self) -> str:
        """``"eta 4 min"`` (:meth:`smoothed_eta`), ``"done"`` after the last step, ``""`` before the first."""
        if self.done >= self.total:
            return "done"
        eta = self.smoothed_eta()
        return "" if eta is None else f"eta {format_duration(eta)}"


#: seconds without a progress line after which :class:`Heartbeat` says what is still running
HEARTBEAT_S = 300.0


class Heartbeat:
    """A line every ``every`` seconds in which nothing else was said, so a long silent step shows it is alive.

    Wraps the ``say`` callback (use :meth:`say` for every progress line; lines from both threads are never
    interleaved) and, between entering and leaving, watches from a daemon thread: after ``every`` seconds
    of silence it says ``"… 5 min since the last result; <status()>"``, then again after each further
    ``every`` seconds; an empty status (nothing left to wait for) says nothing.

    >>> lines = []
    >>> with Heartbeat(lines.append, lambda: "2 claims unfinished", every=0.01) as beat:
    ...     time.sleep(0.3)
    ...     beat.say("[1/2] done")
    >>> lines[0]
    '… 0 s since the last result; 2 claims unfinished'
    >>> lines[-1]
    '[1/2] done'
    """

    def __init__(self, say: Callable[[str], None], status: Callable[[], str], every: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        every = HEARTBEAT_S if every is None else every
        if not every > 0:
            raise ValueError(f"every must be > 0 seconds, got {every!r}")
        self._say, self.status, self.every, self.clock = say, status, float(every), clock
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._last_result = self._last_line = clock()
        self._thread: threading.Thread | None = None

    def say(self, line: str) -> None:
        """Pass ``line`` on and restart the silence count."""
        with self._lock:
            self._say(line)
            self._last_result = self._last_line = self.clock()

    def _watch(self) -> None:
        while not self._stop.wait(self.every / 4):
            with self._lock:
                now = self.clock()
                status = self.status() if now - self._last_line >= self.every and not self._stop.is_set() else ""
                if status:
                    self._say(f"… {format_duration(now - self._last_result)} since the last result; {status}")
                    self._last_line = now

    def __enter__(self) -> "Heartbeat":
        self._last_result = self._last_line = self.clock()
        self._thread = threading.Thread(target=self._watch, name="heartbeat", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
