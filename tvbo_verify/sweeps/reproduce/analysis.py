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
    """Per arm: mean final cumulative (or average, R_T/T) regret with a bootstrap 95% interval."""
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
    (lower minus higher) with its bootstrap interval and whether the order is established."""
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
    """Final regret of ``a`` minus ``b`` (paired) and of the ratio ``a / b`` of means, with intervals."""
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
    at its own level, :mod:`tvbo_verify.sequential`), with enough draws for its tails."""
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
