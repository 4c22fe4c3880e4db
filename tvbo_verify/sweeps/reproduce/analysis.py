"""Measured findings of a reproduction: orderings of algorithms with bootstrap confidence, slopes.

All intervals are percentile bootstraps over repetitions; comparisons between arms are paired by
repetition (the arms of a sweep share seeds), so the interval of a difference lies below 0 exactly
when the first arm's final regret is reliably lower.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ...sequential import bootstrap_draws
from ..results import SweepResult, bootstrap_mean_ci, paired_difference


@dataclass
class Finding:
    """What a reproduction measured: a sentence and the numbers behind it (JSON-serialisable).

    Parameters
    ----------
    text : str
        The finding in one sentence (the figure's caption).
    data : dict
        The numbers it rests on.

    Examples
    --------
    >>> from tvbo_verify.authoring import Finding
    >>> Finding("the fixed arm has no regret", {"first": [0.0, 0.0]}).data["first"]
    [0.0, 0.0]
    """

    text: str
    data: dict[str, Any] = field(default_factory=dict)


def final_table(result: SweepResult, rng: np.random.Generator, *, T: int | None = None,
                metric: str = "cumulative") -> dict[str, dict[str, Any]]:
    """Per arm: mean final cumulative (or average, R_T/T) regret with a bootstrap 95% interval.

    Parameters
    ----------
    result : SweepResult
        The runs.
    rng : numpy.random.Generator
        The source of the bootstrap resamples.
    T : int or None, optional
        The horizon read (default: the sweep's largest).
    metric : {"cumulative", "average"}, optional
        ``R_T`` or ``R_T / T``.

    Returns
    -------
    dict
        By arm label: ``mean``, ``ci95`` (``[low, high]``), ``sd`` and ``n`` (repetitions).

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import Arm, RunCache, Sweep, final_table, run_sweep
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> result = run_sweep(sweep, cache=RunCache(None))
    >>> table = final_table(result, np.random.default_rng(0), metric="average")
    >>> sorted(table), sorted(table["random"]), table["random"]["n"]
    (['GP-UCB', 'random'], ['ci95', 'mean', 'n', 'sd'], 2)
    """
    T = result.sweep.horizons[-1] if T is None else T
    out = {}
    for arm in result.sweep.arms:
        v = result.final(arm.label, T)
        if metric == "average":
            v = v / T
        mean, lo, hi = bootstrap_mean_ci(v, rng)
        out[arm.label] = {"mean": mean, "ci95": [lo, hi], "sd": float(np.std(v)), "n": int(v.size)}
    return out


def ordering(result: SweepResult, rng: np.random.Generator, *, T: int | None = None,
             labels: Sequence[str] | None = None) -> dict[str, Any]:
    """Arms sorted by mean final regret, and for each neighbouring pair the paired difference
    (lower minus higher) with its bootstrap interval and whether the order is established.

    Parameters
    ----------
    result : SweepResult
        The runs.
    rng : numpy.random.Generator
        The source of the bootstrap resamples.
    T : int or None, optional
        The horizon read (default: the sweep's largest).
    labels : sequence of str or None, optional
        The arms ordered (default: every arm).

    Returns
    -------
    dict
        ``T``; ``order`` (labels, lowest mean first); ``means`` by label; ``pairs``, one per neighbouring pair:
        ``lower``, ``higher``, the paired difference (``mean``, ``ci95``, ``n``) and ``established`` (the
        interval lies below 0).

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import Arm, RunCache, Sweep, ordering, run_sweep
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> result = run_sweep(sweep, cache=RunCache(None))
    >>> found = ordering(result, np.random.default_rng(0))
    >>> sorted(found["order"]), len(found["pairs"]), found["T"]
    (['GP-UCB', 'random'], 1, 8)
    """
    T = result.sweep.horizons[-1] if T is None else T
    labels = list(labels or [a.label for a in result.sweep.arms])
    means = {lab: float(result.final(lab, T).mean()) for lab in labels}
    order = sorted(labels, key=means.__getitem__)
    pairs = []
    for a, b in zip(order, order[1:]):
        d = paired_difference(result, a, b, rng, T=T)
        pairs.append({"lower": a, "higher": b, **d, "established": d["ci95"][1] < 0})
    return {"T": T, "order": order, "means": means, "pairs": pairs}


def compare(result: SweepResult, a: str, b: str, rng: np.random.Generator, *, T: int | None = None) -> dict[str, Any]:
    """Final regret of ``a`` minus ``b`` (paired) and of the ratio ``a / b`` of means, with intervals.

    The difference is paired by repetition (the arms of a sweep share seeds); the ratio's interval is a
    percentile bootstrap over repetitions.

    Parameters
    ----------
    result : SweepResult
        The runs.
    a, b : str
        Two arm labels of the sweep.
    rng : numpy.random.Generator
        The source of the bootstrap resamples.
    T : int or None, optional
        The horizon read (default: the sweep's largest).

    Returns
    -------
    dict
        ``a``, ``b``, ``T``; ``difference`` (``mean``, ``ci95``, ``n``); ``mean_a``, ``mean_b``; ``ratio``
        (of the means) and ``ratio_ci95``. What :func:`ordering_property`, :func:`ordering_part` and
        :func:`ratio_part` read.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import Arm, RunCache, Sweep, compare, run_sweep
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> result = run_sweep(sweep, cache=RunCache(None))
    >>> c = compare(result, "GP-UCB", "random", np.random.default_rng(0))
    >>> sorted(c), c["difference"]["n"]
    (['T', 'a', 'b', 'difference', 'mean_a', 'mean_b', 'ratio', 'ratio_ci95'], 2)
    """
    T = result.sweep.horizons[-1] if T is None else T
    va, vb = result.final(a, T), result.final(b, T)
    d = paired_difference(result, a, b, rng, T=T)
    idx = rng.integers(0, va.size, size=(2000, va.size))
    ratios = va[idx].mean(axis=1) / np.maximum(vb[idx].mean(axis=1), 1e-300)
    return {"a": a, "b": b, "T": T, "difference": d, "mean_a": float(va.mean()), "mean_b": float(vb.mean()),
            "ratio": float(va.mean() / max(vb.mean(), 1e-300)),
            "ratio_ci95": [float(np.quantile(ratios, 0.025)), float(np.quantile(ratios, 0.975))]}


def within_run_slope(result: SweepResult, label: str, rng: np.random.Generator, *, T: int | None = None,
                     start_fraction: float = 0.5, level: float = 0.95) -> dict[str, Any]:
    """Log–log slope of the mean cumulative regret R_t against t over the last part of one horizon
    (t from ``start_fraction``·T), with a bootstrap interval over repetitions: < 1 means sublinear.
    ``level``: the percentile level of the interval (kept under the key ``ci95``; a sequential look reads it
    at its own level, :mod:`tvbo_verify.sequential`), with enough draws for its tails.

    Parameters
    ----------
    result : SweepResult
        The runs.
    label : str
        The arm.
    rng : numpy.random.Generator
        The source of the bootstrap resamples.
    T : int or None, optional
        The horizon read (default: the sweep's largest).
    start_fraction : float, optional
        The fit starts at round ``max(2, start_fraction · T)``.
    level : float, optional
        The coverage of the interval.

    Returns
    -------
    dict
        ``label``, ``slope``, ``ci95``, ``from_t``, ``to_t``, ``n`` (repetitions) and, at a level other than the
        default, ``level``.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import Arm, RunCache, Sweep, run_sweep, within_run_slope
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> result = run_sweep(sweep, cache=RunCache(None))
    >>> s = within_run_slope(result, "random", np.random.default_rng(0))
    >>> s["from_t"], s["to_t"], s["n"], s["ci95"][0] <= s["slope"] <= s["ci95"][1]
    (4.0, 8.0, 2, True)
    """
    R = result.series(label, T=T)
    t = np.arange(1, R.shape[1] + 1, dtype=float)
    sel = t >= max(2.0, start_fraction * t[-1])

    u = np.log(t[sel]) - np.log(t[sel]).mean()

    def slopes(means: np.ndarray) -> np.ndarray:
        """Least-squares slopes of log(mean curve) against log t, one per row of ``means``."""
        return np.log(np.maximum(means[..., sel], 1e-12)) @ u / (u @ u)

    est = float(slopes(R.mean(axis=0)))
    draws = bootstrap_draws(level)
    boots = [est]
    if R.shape[0] > 1:
        boots = []
        for chunk in np.array_split(np.arange(draws), max(1, draws // 500)):
            idx = rng.integers(0, R.shape[0], size=(chunk.size, R.shape[0]))
            boots.extend(slopes(R[idx].mean(axis=1)).tolist())
    a = (1.0 - level) / 2.0
    return {"label": label, "slope": est, "ci95": [float(np.quantile(boots, a)), float(np.quantile(boots, 1.0 - a))],
            "from_t": float(t[sel][0]), "to_t": float(t[-1]), "n": int(R.shape[0]),
            **({"level": level} if level != 0.95 else {})}
