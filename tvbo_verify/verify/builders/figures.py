"""Figures the builders attach to every claim: the margin over the instance parameter, success
frequencies against 1 − δ. Factories return matplotlib figures (rendered to inline SVG by the report)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

WIDTH = 7.5  # inches: the report's content width


def _symlog_threshold(values: np.ndarray) -> float:
    nz = np.abs(values[np.isfinite(values) & (values != 0)])
    return float(max(np.min(nz), 1e-16)) if nz.size else 1e-12


def margin_figure(xs: Sequence[Any], margins: Sequence[float], broken: Sequence[bool],
                  sharpened: Sequence[float] | None, *, xlabel: str,
                  counterexample: tuple[Any, float] | None = None, title: str = ""):
    """Relative margin of each instance (> 0: the statement holds) against ``xlabel``; the sharpened
    statement's margins in grey; breaks beyond the float tolerance in red; the counterexample as a star."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(WIDTH, 3.4), layout="constrained")
    x = np.asarray([float(v) if isinstance(v, (int, float)) else i for i, v in enumerate(xs)], float)
    m = np.asarray(margins, float)
    allm = m if sharpened is None else np.concatenate([m, np.asarray(sharpened, float)])
    if sharpened is not None:
        ax.scatter(x, sharpened, s=10, marker="x", color="0.6", label="sharpened statement")
    ok = ~np.asarray(broken, bool)
    ax.scatter(x[ok], m[ok], s=12, color="tab:blue", label="holds (within float tolerance)")
    if np.any(~ok):
        ax.scatter(x[~ok], m[~ok], s=16, color="tab:red", label="breaks beyond float tolerance")
    if counterexample is not None:
        ax.scatter([float(counterexample[0])], [counterexample[1]], s=160, marker="*", color="tab:red",
                   edgecolor="k", zorder=5, label="shrunk counterexample")
    ax.axhline(0.0, color="k", lw=0.8)
    ax.set_yscale("symlog", linthresh=_symlog_threshold(allm))
    finite = x[np.isfinite(x)]
    if finite.size and np.all(finite > 0) and finite.max() / max(finite.min(), 1e-300) > 100:
        ax.set_xscale("log")
    if finite.size and finite.max() > finite.min():
        ax.set_xlim(finite.min(), finite.max())
    ax.set_xlabel(xlabel)
    ax.set_ylabel("relative margin (rhs − lhs)/scale")
    if title:
        ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def frequency_figure(labels: Sequence[str], freq: Sequence[float], lo: Sequence[float], hi: Sequence[float],
                     target: float):
    """Success frequency per configuration with its 95% Clopper–Pearson interval against 1 − δ."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(WIDTH, 3.2), layout="constrained")
    y = np.arange(len(labels))
    f = np.asarray(freq, float)
    ax.errorbar(f, y, xerr=[f - np.asarray(lo), np.asarray(hi) - f], fmt="o", capsize=3, label="frequency, 95% CI")
    ax.axvline(target, color="tab:red", ls="--", label=f"1 − δ = {target:g}")
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_xlim(max(0.0, min(float(np.min(lo)), target) - 0.05), 1.0)
    ax.set_xlabel("success frequency")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig
