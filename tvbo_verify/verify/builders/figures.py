"""Figures the builders attach to every claim: the margin over the instance parameter, success
frequencies against 1 − δ. Factories return matplotlib figures (rendered to SVG files beside the report's page)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ...style import FIGURE_WIDTH as WIDTH

if TYPE_CHECKING:
    from matplotlib.figure import Figure



def _sparse_symlog_ticks(ax, values: np.ndarray, linthresh: float, per_side: int = 4) -> None:
    """Ticks 0 and ±10^k with at most ``per_side`` decades on each side, so labels near 0 never overlap."""
    v = values[np.isfinite(values)]
    ticks = [0.0]
    for sign in (1.0, -1.0):
        side = v[sign * v > linthresh] * sign
        if side.size == 0:
            continue
        lo, hi = int(np.floor(np.log10(linthresh))) + 1, int(np.ceil(np.log10(side.max())))
        step = max(1, -(-(hi - lo + 1) // per_side))
        ticks += [sign * 10.0 ** k for k in range(hi, lo - 1, -step)]
    ax.set_yticks(sorted(ticks))


def _symlog_threshold(values: np.ndarray) -> float:
    nz = np.abs(values[np.isfinite(values) & (values != 0)])
    return float(max(np.min(nz), 1e-16)) if nz.size else 1e-12


def margin_figure(xs: Sequence[Any], margins: Sequence[float], broken: Sequence[bool],
                  sharpened: Sequence[float] | None, *, xlabel: str,
                  counterexample: tuple[Any, float] | None = None, title: str = "") -> Figure:
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
        ax.scatter(x[~ok], m[~ok], s=16, color="tab:red",
                   label="float64 break beyond tolerance (refereed at 50 digits)")
    if counterexample is not None:
        ax.scatter([float(counterexample[0])], [counterexample[1]], s=160, marker="*", color="tab:red",
                   edgecolor="k", zorder=5, label="shrunk counterexample")
    ax.axhline(0.0, color="k", lw=0.8)
    linthresh = _symlog_threshold(allm)
    ax.set_yscale("symlog", linthresh=linthresh)
    _sparse_symlog_ticks(ax, allm, linthresh)
    ax.set_ymargin(0.1)
    finite = x[np.isfinite(x)]
    if finite.size and np.all(finite > 0) and finite.max() / max(finite.min(), 1e-300) > 100:
        ax.set_xscale("log")
    if finite.size and finite.max() > finite.min():
        pad = 0.02 * (finite.max() - finite.min())
        if ax.get_xscale() == "log":
            ax.set_xlim(finite.min() / 1.05, finite.max() * 1.05)
        else:
            ax.set_xlim(finite.min() - pad, finite.max() + pad)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("relative margin (rhs − lhs)/scale")
    if title:
        ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


#: characters per line of a configuration label on the frequency axis
LABEL_WIDTH = 34


def configuration_labels(labels: Sequence[str], sep: str = ", ") -> tuple[list[str], str]:
    """Short tick labels for configurations written ``"k=v, k=v, ..."``: the parts every label shares are
    taken out (returned once, for the axis label) and the rest wrapped at :data:`LABEL_WIDTH` characters,
    so that long configurations never squeeze the plot into a strip beside its tick labels."""
    import textwrap

    parts = [str(lab).split(sep) for lab in labels]
    common = [p for p in parts[0] if all(p in q for q in parts[1:])] if len(parts) > 1 else []
    short = [sep.join(p for p in q if p not in common) or f"configuration {i}" for i, q in enumerate(parts)]
    return ["\n".join(textwrap.wrap(t, LABEL_WIDTH, break_on_hyphens=False)) for t in short], sep.join(common)


def frequency_figure(labels: Sequence[str], freq: Sequence[float], lo: Sequence[float], hi: Sequence[float],
                     target: float) -> Figure:
    """Success frequency per configuration with its 95% Clopper–Pearson interval against 1 − δ; what every
    configuration shares is named once under the axis, the legend sits above the plot."""
    import matplotlib.pyplot as plt

    ticks, common = configuration_labels(labels)
    lines = sum(t.count("\n") + 1 for t in ticks)
    fig, ax = plt.subplots(figsize=(WIDTH, max(3.2, 1.3 + 0.16 * lines)), layout="constrained")
    y = np.arange(len(labels))
    f = np.asarray(freq, float)
    ax.errorbar(f, y, xerr=[f - np.asarray(lo), np.asarray(hi) - f], fmt="o", capsize=3, label="frequency, 95% CI")
    ax.axvline(target, color="tab:red", ls="--", label=f"1 − δ = {target:g}")
    ax.set_yticks(y, ticks, fontsize=7)
    ax.set_xlim(max(0.0, min(float(np.min(lo)), target) - 0.05), 1.02)
    ax.set_ylim(-0.6, len(labels) - 0.4)
    ax.set_xlabel("success frequency" + (f" (every configuration: {common})" if common else ""))
    ax.legend(fontsize=7, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=2, frameon=False)
    return fig
