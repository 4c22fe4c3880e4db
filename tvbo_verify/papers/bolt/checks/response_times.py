"""``bolt`` Definition 3.5 (Sec. 3.1) and Sec. 4: response times ``R(n)`` and BOLT's cubic fit of measured times.

* ``bolt:definition-3.5`` — (i) ``R(0) > 0``, (ii) ``R(n + 1) > R(n)``, (iii) ``R(n) → ∞`` for the
  response-time models of the toolkit (power laws ``c + a n^p``, logarithmic growth, and the fixed power laws
  :data:`PAPER_MODELS`, which are the toolkit's choices: the paper prints no constants for ``R``). BOLT's
  estimator (Sec. 4: a cubic fitted to measured ``(n, R(n))`` pairs) is fitted to synthetic timings, with
  non-negative coefficients as :func:`tvbo_verify.theory.response.ResponseModel.fit_cubic` does and
  unconstrained as printed, and the fits that break (i)–(iii) are flagged, not asserted: whether a fit breaks
  depends on the timings drawn (nearly flat noisy timings give a constant non-negative fit), not on the
  definition. Reading: READING.md §bolt:definition-3.5.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import sympy as sp

from tvbo_verify.authoring import Comparison, Context, Evidence, Params, Statement, claim, exact_evidence
from tvbo_verify.theory.response import N_SYMBOL, ResponseModel

from .plotting import finish, new_axes

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: the families the definition is asserted on (the fitted cubics are flagged, :class:`FittedCubics`)
FAMILIES = ("power", "log")
PARTS = ("origin", "increasing", "unbounded")
#: fixed response times R(n) = c + a n^p (toolkit choices, the paper prints none; READING.md §bolt:definition-3.5)
PAPER_MODELS = ({"c": 0.1, "a": 1e-6, "p": 3.0}, {"c": 0.1, "a": 1e-4, "p": 2.0}, {"c": 0.1, "a": 1e-3, "p": 1.0})


class SyntheticTimings:
    """Noisy timings ``R_true(n)(1 + noise ε)`` of a power-law response time at a few dataset sizes."""

    @staticmethod
    def true_model(p: Params) -> ResponseModel:
        return ResponseModel.from_expression(f"{p['c']!r} + {p['a']!r}*n**{p['p']}")

    @staticmethod
    def sample(rng: np.random.Generator) -> Params:
        """A power law, a few dataset sizes up to ``n_max`` and multiplicative noise."""
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
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}, got {p['family']!r}")

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        model = self.model(p)
        return self.check(model, p, sharpened)

    @staticmethod
    def check(model: ResponseModel, p: Params, sharpened: bool = False) -> Comparison:
        """One part of Definition 3.5 (``p["part"]``) on ``model`` over ``0 … p["n_max"]``."""
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
        family = FAMILIES[int(rng.integers(len(FAMILIES)))]
        part = ("origin", "increasing", "increasing", "unbounded")[int(rng.integers(4))]
        p: Params = {"part": part, "family": family, "c": float(10 ** rng.uniform(-2, 0)),
                     "a": float(10 ** rng.uniform(-7, -1)), "n_max": 1000}
        return {**p, "p": float(rng.uniform(0.2, 3.0)) if family == "power" else 0.0}

    def describe(self, p: Params) -> dict[str, Any]:
        return {k: v for k, v in p.items() if k not in ("sizes", "noise")}


DEFINITION_35 = ResponseTimeDefinition()


def paper_instances() -> list[Params]:
    """Every part of Definition 3.5 at each fixed response time (:data:`PAPER_MODELS`)."""
    return [{"part": part, "family": "power", "n_max": 1000, **m} for m in PAPER_MODELS for part in PARTS]


class FittedCubics:
    """BOLT's §4 estimator on synthetic timings, flagged where it breaks Definition 3.5, not asserted:
    the non-negative cubic of the toolkit (a constant when the timings are flat within their noise) and the
    paper's literal unconstrained cubic (which can start at R(0) <= 0 or decrease)."""

    KINDS = {"non-negative": True, "unconstrained": False}

    def __init__(self, instances: list[Params]) -> None:
        self.instances = instances
        self.flagged: dict[str, list[Params]] = {kind: [] for kind in self.KINDS}
        for p in self.instances:
            for kind, nonnegative in self.KINDS.items():
                if self.breaks(SyntheticTimings.fit(p, nonnegative=nonnegative), int(p["n_max"])):
                    self.flagged[kind].append(p)

    @staticmethod
    def breaks(model: ResponseModel, n_max: int) -> list[str]:
        """The properties of Definition 3.5 a fitted cubic breaks, strictly: (i) R(0) <= 0, (ii) some
        R(n + 1) <= R(n) for n < ``n_max``, (iii) a finite limit (every coefficient beyond the constant 0)."""
        out = []
        if float(model(0.0)) <= 0:
            out.append("(i)")
        if SyntheticTimings.min_increment(model, n_max) <= 0:
            out.append("(ii)")
        if sp.Poly(model.expr, N_SYMBOL).degree() < 1:
            out.append("(iii)")
        return out

    def text(self) -> str:
        return "; ".join(f"the {kind} cubic breaks (i), (ii) or (iii) on {len(f)} of {len(self.instances)}"
                         for kind, f in self.flagged.items())

    def stats(self) -> dict[str, Any]:
        return {"fitted": len(self.instances),
                **{f"{kind} fits that break definition 3.5": len(f) for kind, f in self.flagged.items()},
                "examples": {kind: [DEFINITION_35.describe(p) for p in f[:3]] for kind, f in self.flagged.items()}}

    def figure(self) -> Figure:
        """Timings, the non-negative fit and the unconstrained fit of the first flagged instance (or the first)."""
        fig, ax = new_axes()
        p = (self.flagged["non-negative"] or self.flagged["unconstrained"] or self.instances)[0]
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
    """Definition 3.5 (Sec. 3.1): R(0) > 0, R strictly increasing, R(n) → ∞, read as membership of the response-time
    models the toolkit uses (power laws c + a n^p, logarithmic growth, and the fixed power laws ``PAPER_MODELS``),
    one property per instance: the intercept, the smallest float increment, a sympy limit. BOLT's cubic fit of Sec.
    4, fitted to synthetic noisy timings with non-negative and with unconstrained coefficients, is flagged where it
    breaks the definition, not asserted. Power: the convex reading R(n + 1) − R(n) >= R(1) − R(0) must be caught.
    Full reading: READING.md §bolt:definition-3.5."""
    ev = exact_evidence(ctx, DEFINITION_35, n_random=ctx.pick(60, 300), n_starts=0, extra=paper_instances(),
                        what="Definition 3.5")
    fits = FittedCubics([SyntheticTimings.sample(rng) for rng in ctx.spawn(ctx.pick(40, 200))])
    ev.stats["fitted_cubics"] = fits.stats()
    if fits.instances:
        ev.summary += f" BOLT's §4 cubic fitted to synthetic timings (flagged, not asserted): {fits.text()}."
        ev.figures.append(("BOLT's cubic fit of response times", fits.figure))
    return ev
