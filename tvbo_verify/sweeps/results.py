"""What a sweep measured, by arm, horizon and repetition: regret curves, final regret, ladders,
paired differences with bootstrap confidence intervals."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..bandits.runner import Trace
from .spec import Sweep

#: the per-round arrays of a trace that :meth:`SweepResult.series` (and ``final``, ``ladder``) can read
TRACE_ARRAYS: tuple[str, ...] = (*Trace.ARRAYS, *Trace.OPTIONAL_ARRAYS, "trivial_bound")


def check_array(array: str, parameter: str = "name") -> str:
    """``array`` if it names a per-round array of a trace (:data:`TRACE_ARRAYS`), else ``ValueError`` naming
    ``parameter``, the value and the arrays there are."""
    if not isinstance(array, str) or array not in TRACE_ARRAYS:
        raise ValueError(f"{parameter} must name a per-round trace array, one of {', '.join(TRACE_ARRAYS)}; "
                         f"got {array!r}")
    return array


@dataclass
class SweepResult:
    """The traces of a sweep, keyed by run key."""

    sweep: Sweep
    traces: dict[str, Trace]

    def trace(self, label: str, T: int, rep: int) -> Trace:
        return self.traces[self.sweep.spec(label, T, rep).key]

    def runs(self, label: str, T: int | None = None) -> list[Trace]:
        """The repetitions of ``label`` at horizon ``T`` (default: the longest)."""
        T = self.sweep.horizons[-1] if T is None else T
        return [self.trace(label, T, r) for r in range(self.sweep.reps)]

    def series(self, label: str, name: str = "cumulative", T: int | None = None) -> np.ndarray:
        """A per-round array of every repetition, shape (reps, T)."""
        check_array(name)
        return np.array([getattr(t, name) for t in self.runs(label, T)])

    def final(self, label: str, T: int | None = None, name: str = "cumulative") -> np.ndarray:
        """The last value of a per-round array (default cumulative regret R_T), one per repetition."""
        return self.series(label, name, T)[:, -1]

    def ladder(self, label: str, name: str = "cumulative") -> tuple[np.ndarray, np.ndarray]:
        """``(horizons, values)`` with values of shape (reps, horizons): R_T measured on each horizon's own run."""
        x = np.asarray(self.sweep.horizons, float)
        return x, np.column_stack([self.final(label, T, name) for T in self.sweep.horizons])

    def meta(self, label: str, T: int | None = None) -> dict:
        return self.runs(label, T)[0].meta


def bootstrap_mean_ci(values: np.ndarray, rng: np.random.Generator, *, B: int = 2000,
                      level: float = 0.95) -> tuple[float, float, float]:
    """Mean of ``values`` and its percentile bootstrap interval (over repetitions)."""
    v = np.asarray(values, float).ravel()
    if v.size == 1:
        return float(v[0]), float(v[0]), float(v[0])
    means = v[rng.integers(0, v.size, size=(B, v.size))].mean(axis=1)
    a = (1 - level) / 2
    return float(v.mean()), float(np.quantile(means, a)), float(np.quantile(means, 1 - a))


def paired_difference(result: SweepResult, a: str, b: str, rng: np.random.Generator, *, T: int | None = None,
                      name: str = "cumulative") -> dict[str, float]:
    """Final value of arm ``a`` minus arm ``b``, paired by repetition (common random numbers), with a
    bootstrap 95% interval; the ordering "a below b" is established when the interval lies below 0."""
    d = result.final(a, T, name) - result.final(b, T, name)
    mean, lo, hi = bootstrap_mean_ci(d, rng)
    return {"mean": mean, "ci95": [lo, hi], "n": int(d.size)}
