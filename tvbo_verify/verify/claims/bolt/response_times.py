"""``bolt`` Definition 3.5 (§1.6) and §4: response times ``R(n)`` and BOLT's cubic fit of measured times.

* ``bolt:definition-3.5`` — (i) ``R(0) > 0``, (ii) ``R(n + 1) > R(n)``, (iii) ``R(n) → ∞`` for the
  response-time models of the toolkit (power laws ``c + a n^p`` with any ``p > 0``, logarithmic growth)
  and for BOLT's estimator (§4: a cubic fitted to measured ``(n, R(n))`` pairs, with non-negative
  coefficients as :func:`tvbo_verify.theory.response.ResponseModel.fit_cubic` does); the paper's
  unconstrained least-squares cubic is fitted to the same timings and its breaks are reported.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from ....theory.response import N_SYMBOL, ResponseModel
from ...builders import exact_evidence
from ...comparison import Comparison
from ...engine import Context
from ...evidence import Evidence
from ...registry import claim
from ...statement import Params, Statement
from .plotting import finish, new_axes

FAMILIES = ("power", "log", "fit")


class SyntheticTimings:
    """Noisy timings ``R_true(n)(1 + noise ε)`` of a power-law response time at a few dataset sizes."""

    @staticmethod
    def true_model(p: Params) -> ResponseModel:
        return ResponseModel.from_expression(f"{p['c']!r} + {p['a']!r}*n**{p['p']}")

    @staticmethod
    def sample(rng: np.random.Generator) -> Params:
        """A power law (``p ∈ {1, 2, 3}``), 8 sizes up to ``n_max ∈ [40, 400)`` and 5–30 % noise."""
        pw = int(rng.integers(1, 4))
        top = int(rng.integers(40, 400))
        sizes = np.unique(np.linspace(1, top, 8).round()).astype(int)
        noise = np.clip(float(rng.uniform(0.05, 0.3)) * rng.standard_normal(sizes.size), -0.9, None)
        a = float({1: 1e-3, 2: 1e-5, 3: 1e-7}[pw] * 10 ** rng.uniform(-0.5, 0.5))
        return {"family": "fit", "c": float(10 ** rng.uniform(-2, 0)), "p": pw, "a": a, "sizes": sizes.tolist(),
                "noise": noise.tolist(), "n_max": top}

    @classmethod
    def pairs(cls, p: Params) -> tuple[np.ndarray, np.ndarray]:
        sizes = np.asarray(p["sizes"], float)
        return sizes, cls.true_model(p)(sizes) * (1.0 + np.asarray(p["noise"], float))

    @classmethod
    def fit(cls, p: Params, *, nonnegative: bool) -> ResponseModel:
        """BOLT §4: a cubic least-squares fit (non-negative coefficients, or unconstrained as printed)."""
        return ResponseModel.fit_cubic(*cls.pairs(p), nonnegative=nonnegative)

    @staticmethod
    def min_increment(model: ResponseModel, n_max: int) -> float:
        values = model(np.arange(0, n_max + 1, dtype=float))
        return float(np.min(np.diff(values)))


class ResponseTimeDefinition(Statement):
    """Definition 3.5 (i)–(iii), one property per instance ``part``."""

    name = "R(0) > 0, R(n + 1) > R(n), R(n) -> oo for the toolkit's response-time models and BOLT's cubic fit"
    sharpening = ("R convex: every added observation costs at least the first one, R(n + 1) − R(n) >= R(1) − R(0) "
                  "(the reading an O(n³) cost suggests)")

    @staticmethod
    def model(p: Params) -> ResponseModel:
        if p["family"] == "power":
            return ResponseModel.from_expression(f"{p['c']!r} + {p['a']!r}*n**{p['p']!r}")
        if p["family"] == "log":
            return ResponseModel.from_expression(f"{p['c']!r} + {p['a']!r}*log(1 + n)")
        return SyntheticTimings.fit(p, nonnegative=True)

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        model = self.model(p)
        if p["part"] == "origin":
            return Comparison(float(model(0.0)), 0.0, ">=")
        if p["part"] == "unbounded":  # 1 / lim R(n), exactly 0 when R diverges (sympy, at n = oo)
            limit = model.expr.subs(N_SYMBOL, sp.oo)
            if limit.has(sp.nan, sp.zoo) or not (limit is sp.oo or limit.is_finite):
                limit = sp.limit(model.expr, N_SYMBOL, sp.oo)
            return Comparison(0.0 if limit is sp.oo else 1.0 / float(limit), 0.0, "==")
        stated = float(model(1.0) - model(0.0)) if sharpened else 0.0
        return Comparison(SyntheticTimings.min_increment(model, int(p["n_max"])), stated, ">=",
                          scale=float(model(float(p["n_max"]))))

    def sample(self, rng: np.random.Generator) -> Params:
        family = FAMILIES[int(rng.integers(3))]
        part = ("origin", "increasing", "increasing", "unbounded")[int(rng.integers(4))]
        p: Params = {"part": part, "family": family, "c": float(10 ** rng.uniform(-2, 0)),
                     "a": float(10 ** rng.uniform(-7, -1)), "n_max": 1000}
        if family == "power":
            return {**p, "p": float(rng.uniform(0.2, 3.0))}
        if family == "log":
            return {**p, "p": 0.0}
        return {**p, **SyntheticTimings.sample(rng)}

    def describe(self, p: Params) -> dict[str, Any]:
        return {k: v for k, v in p.items() if k not in ("sizes", "noise")}


DEFINITION_35 = ResponseTimeDefinition()


class UnconstrainedFits:
    """The paper's literal §4 estimator (an unconstrained cubic) on the fit instances: flagged, not asserted."""

    def __init__(self, instances: list[Params]) -> None:
        self.instances = instances
        self.flagged: list[Params] = []
        for p in self.instances:
            model = SyntheticTimings.fit(p, nonnegative=False)
            if float(model(0.0)) <= 0 or SyntheticTimings.min_increment(model, int(p["n_max"])) <= 0:
                self.flagged.append(p)

    def figure(self):
        """Timings, the non-negative fit and the unconstrained fit of the first flagged instance (or the first)."""
        fig, ax = new_axes()
        p = (self.flagged or self.instances)[0]
        sizes, seconds = SyntheticTimings.pairs(p)
        n = np.linspace(0, p["n_max"], 400)
        ax.plot(sizes, seconds, "o", label="synthetic timings")
        ax.plot(n, SyntheticTimings.true_model(p)(n), "k:", label=f"true R(n) = c + a n^{p['p']}")
        ax.plot(n, SyntheticTimings.fit(p, nonnegative=True)(n), label="cubic fit, coefficients >= 0 (toolkit)")
        ax.plot(n, SyntheticTimings.fit(p, nonnegative=False)(n), "--", label="unconstrained cubic fit (§4 as printed)")
        finish(ax, xlabel="dataset size n", ylabel="response time R(n) [s]", xlim=(0, p["n_max"]))
        return fig


@claim("bolt:definition-3.5")
def definition_3_5(ctx: Context) -> Evidence:
    """Response-time models R(n): power laws c + a n^p with p ∈ [0.2, 3] (including sub-linear growth),
    logarithmic growth c + a log(1 + n) (``theory.response.ResponseModel``), and BOLT's §4 estimator —
    a cubic with non-negative coefficients (``ResponseModel.fit_cubic``) fitted to synthetic timings of a
    power-law R at 8 dataset sizes with 5–30 % multiplicative noise. Each instance checks one property of
    Definition 3.5: R(0) > 0; min_{n < n_max} R(n + 1) − R(n) > 0; R(n) → ∞ (sympy limit). The power and
    logarithmic families satisfy the definition by construction (the check confirms their evaluation);
    the fitted cubics could fail (a constant fit). The paper's literal
    unconstrained least-squares cubic is fitted to the same timings and the fits that break (i) or (ii)
    on [0, n_max] are counted and shown, not asserted (the paper does not say whether it constrains the
    fit, catalog §8 A15). Power: the convex reading R(n + 1) − R(n) >= R(1) − R(0) must be caught."""
    ev = exact_evidence(ctx, DEFINITION_35, n_random=ctx.pick(60, 300), n_starts=0, what="Definition 3.5")
    fits = UnconstrainedFits([SyntheticTimings.sample(rng) for rng in ctx.spawn(ctx.pick(40, 200))])
    ev.stats["unconstrained_cubic_fits"] = {"fitted": len(fits.instances), "break_definition_3_5": len(fits.flagged),
                                           "examples": [DEFINITION_35.describe(p) for p in fits.flagged[:3]]}
    if fits.instances:
        ev.summary += (f" The unconstrained cubic of §4 breaks (i) or (ii) on {len(fits.flagged)} of "
                       f"{len(fits.instances)} synthetic timing sets (flagged, not asserted).")
        ev.figures.append(("BOLT's cubic fit of response times", fits.figure))
    return ev
