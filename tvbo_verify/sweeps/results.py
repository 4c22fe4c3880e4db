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
    """The traces of a sweep, by arm label, horizon and repetition (what :func:`run_sweep` returns).

    Every method names an arm by its label and a per-round trace array by ``name``: ``cumulative`` (R_t, the
    default), ``regret`` (r_t), ``expert_queries``, ``dataset_size``, ``beta``, ``index``, ``x``, ``y``,
    ``time``, ``seconds``, ``max_regret`` or ``trivial_bound`` (:data:`TRACE_ARRAYS`).

    Parameters
    ----------
    sweep : Sweep
        The sweep.
    traces : dict
        Its traces by run key.

    Examples
    --------
    >>> from tvbo_verify.authoring import Arm, RunCache, Sweep, run_sweep
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> result = run_sweep(sweep, cache=RunCache(None))
    >>> x, values = result.ladder("GP-UCB")
    >>> x.tolist(), values.shape
    ([4.0, 8.0], (2, 2))
    >>> len(result.runs("random", T=4)), result.runs("random")[0].T
    (2, 8)
    """

    sweep: Sweep
    traces: dict[str, Trace]

    def trace(self, label: str, T: int, rep: int) -> Trace:
        """The trace of arm ``label`` at horizon ``T``, repetition ``rep``."""
        return self.traces[self.sweep.spec(label, T, rep).key]

    def runs(self, label: str, T: int | None = None) -> list[Trace]:
        """The traces of every repetition of arm ``label`` at one horizon, in repetition order.

        This is what :meth:`Trials.from_traces` and :meth:`RateMeasurement.from_traces` take (one list per horizon).

        Parameters
        ----------
        label : str
            An arm label of the sweep.
        T : int or None
            A horizon of the sweep; None: the longest.

        Returns
        -------
        list of Trace
            One trace per repetition: per-round arrays (``cumulative``, ``regret``, ...), ``T`` and ``meta``.
        """
        T = self.sweep.horizons[-1] if T is None else T
        return [self.trace(label, T, r) for r in range(self.sweep.reps)]

    def series(self, label: str, name: str = "cumulative", T: int | None = None) -> np.ndarray:
        """A per-round trace array of every repetition of arm ``label``, shape (reps, T).

        Parameters
        ----------
        label : str
            An arm label of the sweep.
        name : str
            The trace array (:data:`TRACE_ARRAYS`); an unknown name is refused with ``ValueError`` naming them.
        T : int or None
            A horizon of the sweep; None: the longest.

        Returns
        -------
        numpy.ndarray
            Shape (reps, T).
        """
        check_array(name)
        return np.array([getattr(t, name) for t in self.runs(label, T)])

    def final(self, label: str, T: int | None = None, name: str = "cumulative") -> np.ndarray:
        """The last value of a per-round array (default: R_T), one per repetition; arguments as :meth:`series`."""
        return self.series(label, name, T)[:, -1]

    def ladder(self, label: str, name: str = "cumulative") -> tuple[np.ndarray, np.ndarray]:
        """``(horizons, values)``: the last value of array ``name`` (default R_T) on each horizon's own run; ``values``
        has shape (reps, horizons).
        """
        x = np.asarray(self.sweep.horizons, float)
        return x, np.column_stack([self.final(label, T, name) for T in self.sweep.horizons])

    def meta(self, label: str, T: int | None = None) -> dict:
        """The metadata of the first repetition of ``label`` at horizon ``T`` (the policy, its β rule, ...)."""
        return self.runs(label, T)[0].meta


def bootstrap_mean_ci(values: np.ndarray, rng: np.random.Generator, *, B: int = 2000,
                      level: float = 0.95) -> tuple[float, float, float]:
    """The mean of ``values`` and its percentile bootstrap interval over repetitions.

    Parameters
    ----------
    values : numpy.ndarray
        One value per repetition (flattened).
    rng : numpy.random.Generator
        The resampling generator (a check passes ``ctx.rng``).
    B : int
        The number of bootstrap resamples.
    level : float
        The interval's level.

    Returns
    -------
    tuple of float
        ``(mean, lower, upper)``; a single value is its own interval.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import bootstrap_mean_ci
    >>> mean, lo, hi = bootstrap_mean_ci(np.arange(10.0), np.random.default_rng(0))
    >>> mean, lo < mean < hi
    (4.5, True)
    """
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
