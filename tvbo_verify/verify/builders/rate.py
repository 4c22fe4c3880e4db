"""Evidence of a rate claim: measured growth against a claimed order ``x^exponent`` (ARCHITECTURE.md).

The measured quantity (cumulative regret R_T, a count, a variance sum) is taken on a geometric
ladder of sizes ``x``. Its ratio to ``x^exponent`` must show no growth beyond the stated polylog
allowance: for random repetitions the bootstrap CI of the log–log slope decides
(:func:`~tvbo_verify.verify.stats.decide_rate`); for a deterministic family of instances the worst
curve decides (:func:`~tvbo_verify.verify.stats.decide_rate_deterministic`) — never a bootstrap over
fixed instances. Where the paper gives the bound with its constants, ``bound`` is compared with the
measurement at every size as well. The sharpened statement lowers the exponent (raises it for a
lower rate) by ``lowered_by``, on the same measurements.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...jsonify import to_jsonable
from ..comparison import SharpeningError
from ..engine import Context
from ..evidence import Evidence, Power, Verdict
from ..stats import decide_probabilistic, decide_rate, decide_rate_deterministic, polylog_allowance, rate_power
from .common import combine, rerun_record

#: floor applied to non-positive measurements before the log–log fit (recorded in the evidence)
FLOOR = 1e-12


@dataclass
class RateMeasurement:
    """A measured quantity on a ladder of sizes.

    ``measured`` has shape (repetitions or instances, sizes). ``polylog`` is the power of log x the
    statement allows on top of ``x^exponent`` (its slope allowance is ``polylog / ln x_min``);
    ``extra_allowance`` is the slope resolution of a finite ladder (lower-order terms still visible at
    the smallest sizes); a claim that changes it says why in ``allowance_reason``.
    ``bound`` (shape (sizes,) or like ``measured``) is the explicit bound with its constants, which
    must hold in at least ``bound_target`` of the repetitions at every size (1.0: every one).
    ``configuration`` is what a rerun needs to know beyond fidelity and seed (set by :meth:`from_sweep`).
    ``size`` (with ``size_label``) is the size the claim is about when ``x`` is a transform of it (e.g.
    ``x = log T`` for a polylog rate, ``size = T``): the ladder's decades are counted in ``size``, which must
    increase with ``x``; by default ``x`` is that size.
    """

    x: np.ndarray
    measured: np.ndarray
    exponent: float
    polylog: float = 0.0
    sense: str = "<="
    random: bool = True
    extra_allowance: float = 0.05
    allowance_reason: str = "slope resolution of a finite ladder"
    bound: np.ndarray | None = None
    bound_target: float = 1.0
    label: str = "measured"
    xlabel: str = "T"
    labels: list[str] = field(default_factory=list)
    configuration: dict[str, Any] = field(default_factory=dict)
    size: np.ndarray | None = None
    size_label: str = ""

    def __post_init__(self) -> None:
        self.x = np.asarray(self.x, float)
        self.measured = np.atleast_2d(np.asarray(self.measured, float))
        if self.measured.shape[1] != self.x.size:
            raise ValueError(f"measured must have {self.x.size} columns (one per size), got {self.measured.shape}")
        if self.x.size < 2 or np.any(np.diff(self.x) <= 0) or self.x[0] <= 0:
            raise ValueError("x must be at least 2 increasing positive sizes")
        if self.sense not in ("<=", ">="):
            raise ValueError(f"sense must be '<=' or '>=', got {self.sense!r}")
        if self.size is not None:
            self.size = np.asarray(self.size, float)
            if self.size.shape != self.x.shape or self.size[0] <= 0 or np.any(np.diff(self.size) <= 0):
                raise ValueError(f"size must be {self.x.size} increasing positive values (one per x), got "
                                 f"{self.size.tolist()}")

    @classmethod
    def from_sweep(cls, result: Any, label: str, *, exponent: float, name: str = "cumulative",
                   **kwargs: Any) -> "RateMeasurement":
        """R_T (or another per-round array's last value) of arm ``label`` on each horizon of a sweep
        (:meth:`tvbo_verify.sweeps.SweepResult.ladder`), one row per repetition."""
        x, values = result.ladder(label, name)
        kwargs.setdefault("label", "R_T" if name == "cumulative" else name)
        sweep = result.sweep
        kwargs.setdefault("configuration", {"sweep": sweep.name, "arm": label, "environment": sweep.environment,
                                            "env_params": sweep.env_params, "horizons": list(sweep.horizons),
                                            "repetitions": sweep.reps, "seed": sweep.seed})
        return cls(x, values, exponent, **kwargs)

    @property
    def allowance(self) -> float:
        return polylog_allowance(self.polylog, float(self.x[0])) + self.extra_allowance

    def ratio(self) -> np.ndarray:
        return np.maximum(self.measured, FLOOR) / self.x[None, :] ** self.exponent

    @property
    def sizes(self) -> np.ndarray:
        """The sizes the ladder's decades are counted in: ``size`` when declared, else ``x``."""
        return self.x if self.size is None else self.size

    @property
    def size_name(self) -> str:
        return (self.size_label or "size") if self.size is not None else self.xlabel

    @property
    def decades(self) -> float:
        """Decades of the size the claim is about spanned by the ladder (``log10(size_max / size_min)``)."""
        return float(np.log10(self.sizes[-1] / self.sizes[0]))


def _bound_verdict(m: RateMeasurement) -> tuple[Verdict, list[dict[str, Any]]]:
    bound = np.broadcast_to(np.asarray(m.bound, float), m.measured.shape)
    ok = m.measured <= bound if m.sense == "<=" else m.measured >= bound
    rows, verdicts = [], []
    for j, x in enumerate(m.x):
        k, n = int(ok[:, j].sum()), m.measured.shape[0]
        if m.bound_target >= 1.0:
            v = Verdict.CONFIRMED if k == n else Verdict.VIOLATED
        else:
            v = decide_probabilistic(k, n, m.bound_target)[0]
        verdicts.append(v)
        rows.append({"x": x, "bound": float(np.mean(bound[:, j])), "holds in": f"{k}/{n}"})
    return combine(verdicts), rows


#: the smallest ladder a rate may be decided on, per fidelity: (sizes, decades spanned)
LADDER = {"quick": (3, 0.0), "full": (5, 1.5)}


def rate_evidence(ctx: Context, m: RateMeasurement, *, lowered_by: float, what: str,
                  stats: dict[str, Any] | None = None, configuration: dict[str, Any] | None = None) -> Evidence:
    """Decide the rate (and the explicit bound, when given); power from the exponent moved by ``lowered_by``.

    The ladder must have at least 3 sizes at quick fidelity and 5 spanning 1.5 decades at full, decades of
    the size the claim is about (:attr:`RateMeasurement.decades`). A violated rate carries a rerun record
    (fidelity, seed and ``configuration``, e.g. the environment and the ladder).
    """
    sizes, decades = LADDER[ctx.fidelity]
    if m.x.size < sizes or m.decades < decades - 1e-9:
        raise ValueError(f"a rate at {ctx.fidelity} fidelity needs at least {sizes} sizes spanning {decades:g} "
                         f"decades of {m.size_name}, got {m.x.size} spanning {m.decades:.2g}")
    if not 0.05 <= lowered_by <= 1.0:
        raise SharpeningError(f"lowered_by must be a material change of the exponent in [0.05, 1], got {lowered_by}")
    ratio = m.ratio()
    floored = int(np.sum(m.measured <= FLOOR))
    if m.random:
        v, s = decide_rate(m.x, ratio, ctx.rng, allowance=m.allowance, sense=m.sense)
        lo, hi = s["slope_ci95"]
        slope_text = f"log–log slope of {m.label}/x^{m.exponent:g}: {s['slope']:.3g} (95% CI {lo:.3g}..{hi:.3g})"
    else:
        v, s = decide_rate_deterministic(m.x, ratio, allowance=m.allowance, sense=m.sense)
        slope_text = (f"worst log–log slope of {m.label}/x^{m.exponent:g} over {ratio.shape[0]} instances: "
                      f"{s['slope']:.3g}")
    power = rate_power(m.x, ratio, ctx.rng, lowered_by=lowered_by, allowance=m.allowance, sense=m.sense,
                       deterministic=not m.random)
    if v is Verdict.VIOLATED:  # a stronger exponent is refuted wherever the stated one is: show the converse
        weak = rate_power(m.x, ratio, ctx.rng, lowered_by=-lowered_by, allowance=m.allowance, sense=m.sense,
                          deterministic=not m.random)
        power = Power(f"weakened: exponent {'raised' if m.sense == '<=' else 'lowered'} by {lowered_by:g} "
                      "must not be refuted", not weak.caught, weak.detail)
    verdicts = [v]
    bound_rows: list[dict[str, Any]] = []
    if m.bound is not None:
        bv, bound_rows = _bound_verdict(m)
        verdicts.append(bv)
        slope_text += f"; explicit bound {'holds' if bv is Verdict.CONFIRMED else bv.value} at every size"
    verdict = combine(verdicts)
    rows = []
    for j, x in enumerate(m.x):
        col = m.measured[:, j]
        row = {m.xlabel: x, f"mean {m.label}": float(col.mean()), f"min {m.label}": float(col.min()),
               f"max {m.label}": float(col.max()), f"{m.label}/x^{m.exponent:g}": float(ratio[:, j].mean())}
        if bound_rows:
            row.update({"bound": bound_rows[j]["bound"], "bound holds in": bound_rows[j]["holds in"]})
        rows.append(row)
    summary = (f"{what}: {slope_text}; allowance {m.allowance:.3g} "
               f"({'polylog power ' + format(m.polylog, 'g') if m.polylog else 'no polylog'}"
               f"{', ' + m.allowance_reason if m.allowance_reason else ''}) over {m.decades:.2g} decades of "
               f"{m.size_name}.")
    record = (rerun_record(ctx, {"slope": s["slope"]}, configuration or m.configuration)
              if verdict is Verdict.VIOLATED else None)
    extra = {"floored_measurements": floored} if floored else {}
    ev = Evidence(verdict, summary, instances=to_jsonable(rows),
                  margin=(m.allowance - s.get("slope_ci95", [0, s["slope"]])[1]) if m.sense == "<=" else
                  (s.get("slope_ci95", [s["slope"], 0])[0] + m.allowance),
                  counterexample=record,
                  stats={**s, "x": m.x.tolist(), "exponent": m.exponent, "polylog": m.polylog,
                         "decades": m.decades, "decades_of": m.size_name,
                         **({"sizes": m.sizes.tolist()} if m.size is not None else {}),
                         "margin_of": "allowance minus the slope's CI end", **extra,
                         **(stats or {})},
                  power=power)
    ev.figures.append((f"{m.label} against {m.xlabel}", lambda: rate_figure(m)))
    return ev


def rate_figure(m: RateMeasurement):
    """Mean ± range of the measurement on log–log axes; the claimed order with its constant fitted on
    the first half of the ladder (labelled "order only"), or the explicit bound when there is one."""
    import matplotlib.pyplot as plt

    from ...sweeps.reproduce.figures import ORDER_ONLY, fit_order

    fig, ax = plt.subplots(figsize=(7.5, 3.6), layout="constrained")
    mean = m.measured.mean(axis=0)
    if m.random:
        ax.fill_between(m.x, m.measured.min(axis=0), m.measured.max(axis=0), alpha=0.25, label="range over repetitions")
        ax.plot(m.x, mean, marker="o", label=f"mean {m.label}")
    else:
        for i, row in enumerate(m.measured):
            ax.plot(m.x, row, marker="o", ms=3, label=m.labels[i] if i < len(m.labels) else None)
    ax.plot(m.x, fit_order(mean, m.x ** m.exponent), "k--", label=f"x^{m.exponent:g} ({ORDER_ONLY})")
    if m.bound is not None:
        b = np.broadcast_to(np.asarray(m.bound, float), m.measured.shape).mean(axis=0)
        ax.plot(m.x, b, "r-", label="stated bound with its constants")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(m.x[0], m.x[-1])
    ax.set_xlabel(m.xlabel)
    ax.set_ylabel(m.label)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig
