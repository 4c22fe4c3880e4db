"""``wgpucb`` §2 and App. A–C: weighted GP regression, its feature forms and its reformulation.

* Lemma 12 (``wgpucb:lemma-12``): the variance (3) equals ``λ_t ‖φ(x)‖²_{V_t⁻¹}``.
* Lemma 13 (``wgpucb:lemma-13``): for increasing weights ``σ̃_t(x) <= σ̂_t(x)`` and ``Ṽ_t ⪯ w_t V_t``.
* App. C (``wgpucb:appendix-c``): weights ``(w_s, λ_t = λ w_t)`` are the relative weights ``w_s/w_t`` with
  a fixed ``λ``; ``μ̃_t`` and ``σ̂_t`` are invariant under ``w -> c·w``.

Every check runs on SE kernels on grids of [0, 1], where the Mercer features of the grid Gram make the
feature-space objects exact (``wgpucb.md`` §5.1); the kernel forms come from ``gp.weighted_posterior``.
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np

from ....gp import WeightedFeatureRegression, weighted_posterior, weighted_posterior_mp
from ... import referee as rf
from ...builders import exact_evidence
from ...comparison import Comparison
from ...engine import Context
from ...evidence import Evidence
from ...registry import claim
from ...statement import Params, Statement
from .grids import PlayedSequence, SEGrid


def feature_model(p: Params) -> tuple[WeightedFeatureRegression, np.ndarray]:
    """The feature-space regression on the played points of ``p`` and the grid features (rows ``φ(x_i)``)."""
    Phi = SEGrid.mercer(p).features
    model = WeightedFeatureRegression(Phi[np.asarray(p["played"], int)], np.asarray(p["weights"], float), p["lam"])
    return model, Phi


def kernel_posterior(p: Params, Xstar: np.ndarray, y: np.ndarray | None = None, *, weights: Any = None,
                     lam: float | None = None, form: str = "relative"):
    """``gp.weighted_posterior`` of the played points of ``p`` (outputs ``y``, default zeros) at ``Xstar``."""
    X = SEGrid.points(p)
    idx = np.asarray(p["played"], int)
    y = np.zeros(len(idx)) if y is None else y
    w = np.asarray(p["weights"] if weights is None else weights, float)
    return weighted_posterior(SEGrid.kernel(p), X[idx], y, Xstar, lam=p["lam"] if lam is None else lam, weights=w,
                              form=form)


def kernel_posterior_hp(p: Params, xs: list[int], y: list | None = None, *, weights: Any = None,
                        form: str = "relative") -> tuple[list, list, list]:
    """The mpmath twin of :func:`kernel_posterior` at the grid points ``xs``."""
    G = SEGrid.gram_hp(p)
    idx = [int(i) for i in p["played"]]
    K = rf.sub(G, idx, idx)
    Ks = rf.sub(G, idx, xs)
    w = p["weights"] if weights is None else weights
    return weighted_posterior_mp(K, Ks, [G[x, x] for x in xs], [0.0] * len(idx) if y is None else y,
                                 lam=p["lam"], weights=w, form=form)


# ------------------------------------------------------------------------------------------ Lemma 12
class VarianceFeatureForm(Statement):
    """(3) from the kernel form against ``λ_t φ(x)ᵀ V_t⁻¹ φ(x)`` from the grid features."""

    name = "σ̂_t²(x) = λ_t ‖φ(x)‖²_{V_t⁻¹}"
    sharpening = "λ_t read as λ (the regulariser without its weight w_t): σ̂_t² = λ ‖φ(x)‖²_{V_t⁻¹}"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        model, Phi = feature_model(p)
        x = int(p["x"])
        feature_form = model.variance(Phi[x])  # λ φᵀ (V_t / w_t)⁻¹ φ = λ_t φᵀ V_t⁻¹ φ
        kernel_form = float(kernel_posterior(p, SEGrid.points(p)[[x]]).var[0])
        stated = feature_form / p["weights"][-1] if sharpened else feature_form
        return Comparison(kernel_form, stated, "==", tol=1e-9, cond=min(model.condition, 1e8), scale=1.0)

    def hp(self, p: Params) -> Comparison:
        x = int(p["x"])
        kernel_form = kernel_posterior_hp(p, [x])[1][0]
        mercer = SEGrid.mercer_hp(p)
        phi = mercer.features()
        r = PlayedSequence.relative_weights_hp(p)
        idx = [int(i) for i in p["played"]]
        m = len(mercer.eigenvalues)
        lam = mpmath.mpf(p["lam"])
        V = mpmath.matrix([[mpmath.fsum(r[s] * phi[idx[s]][i] * phi[idx[s]][j] for s in range(len(idx)))
                            + (lam if i == j else 0) for j in range(m)] for i in range(m)])
        fx = mpmath.matrix(phi[x])
        feature_form = lam * mpmath.fsum(a * b for a, b in zip(fx, mpmath.lu_solve(V, fx)))
        return Comparison(kernel_form, feature_form, "==", tol=mpmath.mpf("1e-9"), scale=1)

    def sample(self, rng: np.random.Generator) -> Params:
        return {**PlayedSequence.sample(rng), "part": "variance", "x": int(rng.integers(0, 8))}

    def describe(self, p: Params) -> dict[str, Any]:
        return PlayedSequence.describe(p)


LEMMA_12 = VarianceFeatureForm()


@claim("wgpucb:lemma-12")
def lemma_12(ctx: Context) -> Evidence:
    """Random increasing weights, played sequences and λ on 8–30 grid points of [0, 1] (SE): the
    predictive variance (3) from ``gp.weighted_posterior`` must equal λ_t φ(x)ᵀ V_t⁻¹ φ(x) computed with
    the exact grid features (``gp.WeightedFeatureRegression``, relative-weight form) to 1e-9, the
    tolerance scaled with cond(V). Breaks are refereed in mpmath (kernel form against features from
    mpmath eigenpairs). Power: the misreading λ_t → λ (the regulariser without its weight, i.e. the
    feature form divided by w_t) must be caught; the weights' magnitudes make the two readings differ."""
    return exact_evidence(ctx, LEMMA_12, n_random=ctx.pick(40, 200), n_starts=0, what="feature form of (3)")


# ------------------------------------------------------------------------------------------ Lemma 13
class LooseVarianceBelowPredictive(Statement):
    """``σ̃_t²(x) <= σ̂_t²(x)`` (part ``variance``) and ``Ṽ_t ⪯ w_t V_t`` (part ``psd``) for increasing weights."""

    name = "σ̃_t(x) <= σ̂_t(x) for increasing weights (and Ṽ_t ⪯ w_t V_t)"
    sharpening = ("w_t read as w_{t−1} (index shifted by one): Ṽ_t ⪯ w_{t−1} V_t, hence "
                  "σ̃_t² <= (w_{t−1}/w_t) σ̂_t²; the psd step has no sharpened variant")

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        model, Phi = feature_model(p)
        if p["part"] == "psd":  # Ṽ_t ⪯ w_t V_t, relative form: smallest eigenvalue of V − Ṽ >= 0
            smallest = float(np.linalg.eigvalsh(model.V - model.V_double)[0])
            return Comparison(smallest, 0.0, ">=", scale=float(np.linalg.norm(model.V, 2)))
        x = int(p["x"])
        loose = model.loose_variance(Phi[x])
        predictive = float(kernel_posterior(p, SEGrid.points(p)[[x]]).var[0])
        stated = predictive * p["weights"][-2] / p["weights"][-1] if sharpened else predictive
        return Comparison(loose, stated, "<=", cond=min(model.condition, 1e10), scale=1.0)

    def hp(self, p: Params) -> Comparison:
        idx = [int(i) for i in p["played"]]
        r = PlayedSequence.relative_weights_hp(p)
        if p["part"] == "psd":
            # V − Ṽ = Σ_s (r_s − r_s²) φ_s φ_sᵀ: its nonzero spectrum is that of the Gram D K D, D = diag(√(r − r²))
            G = SEGrid.gram_hp(p)
            t = len(idx)
            B = mpmath.matrix([[mpmath.sqrt(r[i] - r[i] ** 2) * G[idx[i], idx[j]] * mpmath.sqrt(r[j] - r[j] ** 2)
                                for j in range(t)] for i in range(t)])
            ev = mpmath.eigsy(B)[0]
            smallest = min(ev[i] for i in range(t))
            if t < G.rows:
                smallest = min(smallest, mpmath.mpf(0))
            return Comparison(smallest, 0, ">=")
        _, predictive, loose = kernel_posterior_hp(p, [int(p["x"])])
        return Comparison(loose[0], predictive[0], "<=")

    def sample(self, rng: np.random.Generator) -> Params:
        return PlayedSequence.sample(rng)

    def describe(self, p: Params) -> dict[str, Any]:
        return PlayedSequence.describe(p)


LEMMA_13 = LooseVarianceBelowPredictive()


def decreasing_weights_excess(ctx: Context, n: int) -> float:
    """Negative control of Lemma 13: the largest relative excess ``(σ̃² − σ̂²)/σ̂²`` under *decreasing*
    weights (nothing is claimed there; the excess shows that the hypothesis matters)."""
    worst = 0.0
    for _ in range(n):
        p = PlayedSequence.sample(ctx.rng, decreasing=True)
        if p["part"] == "variance":
            c = LEMMA_13.evaluate(p)
            worst = max(worst, (float(c.value) - float(c.bound)) / max(float(c.bound), 1e-300))
    return worst


@claim("wgpucb:lemma-13")
def lemma_13(ctx: Context) -> Evidence:
    """Random increasing weights (cumulative sums of exponential steps, with ties), random played
    sequences on 8–30 grid points of [0, 1] (SE) and random λ. The loose variance σ̃²(x) = λ‖φ(x)‖² in
    V⁻¹ṼV⁻¹ is computed from exact finite-grid features (``gp.WeightedFeatureRegression``), the
    predictive variance σ̂²(x) by ``gp.weighted_posterior``; a second part checks the proof step
    Ṽ_t ⪯ w_t V_t by the smallest eigenvalue of V − Ṽ (relative weights). Tolerances scale with
    cond(V); breaks are refereed by the kernel-trick forms in mpmath. Power: the index shift
    w_t → w_{t−1} in the proof step (σ̃_t² <= (w_{t−1}/w_t) σ̂_t²) must be caught. Negative control:
    the same comparison on decreasing weights is reported (nothing is claimed there)."""
    ev = exact_evidence(ctx, LEMMA_13, n_random=ctx.pick(60, 300), n_starts=0,
                        what="loose variance below predictive")
    ev.stats["negative_control_decreasing_weights_max_relative_excess"] = decreasing_weights_excess(
        ctx, ctx.pick(30, 100))
    return ev


# ---------------------------------------------------------------------------------------- Appendix C
class RelativeWeightReformulation(Statement):
    """``μ̃_t, σ̂²_t`` for weights ``c·w`` and for the direct form (2)–(3) against the relative-weight problem.

    Four comparisons on the whole grid (means and variances, scaled weights and direct form); the
    instance reports the grid entry with the largest discrepancy (the value measured there against
    the value the relative-weight problem states).
    """

    name = "μ̃_t, σ̂_t unchanged by w -> c·w and equal to the relative-weight problem"
    sharpening = ("λ_t read as a fixed λ: scaling the weights by c then divides the regulariser by c, and the "
                  "relative-weight problem keeps λ_t = λ w_t")
    COMPONENTS = ("scaled mean", "scaled variance", "direct mean", "direct variance")

    def posteriors(self, p: Params) -> tuple[Any, Any, Any]:
        X = SEGrid.points(p)
        y = np.asarray(p["y"], float)
        w = np.asarray(p["weights"], float)
        return (kernel_posterior(p, X, y), kernel_posterior(p, X, y, weights=w * p["c"]),
                kernel_posterior(p, X, y, form="direct"))

    def worst_entry(self, p: Params) -> tuple[int, int, Any]:
        base, scaled, direct = self.posteriors(p)
        diffs = [np.abs(base.mean - scaled.mean), np.abs(base.var - scaled.var), np.abs(base.mean - direct.mean),
                 np.abs(base.var - direct.var)]
        comp = int(np.argmax([float(np.max(d)) for d in diffs]))
        return comp, int(np.argmax(diffs[comp])), (base, scaled, direct)

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        comp, x, (base, scaled, direct) = self.worst_entry(p)
        measured = {0: scaled.mean, 1: scaled.var, 2: direct.mean, 3: direct.var}[comp][x]
        stated = (base.mean if comp in (0, 2) else base.var)[x]
        if sharpened:
            lam = p["lam"] / p["c"] if comp < 2 else p["lam"] * p["weights"][-1]
            misread = kernel_posterior(p, SEGrid.points(p)[[x]], np.asarray(p["y"], float), lam=lam)
            stated = (misread.mean if comp in (0, 2) else misread.var)[0]
        scale = max(1.0, float(np.max(np.abs(p["y"]))))
        return Comparison(float(measured), float(stated), "==", tol=1e-9 * scale, scale=scale)

    def hp(self, p: Params) -> Comparison:
        comp, x, _ = self.worst_entry(p)
        y = p["y"]
        if comp < 2:
            w = [mpmath.mpf(v) * mpmath.mpf(p["c"]) for v in p["weights"]]
            measured = kernel_posterior_hp(p, [x], y, weights=w, form="direct")
        else:
            measured = kernel_posterior_hp(p, [x], y, form="direct")
        stated = kernel_posterior_hp(p, [x], y)
        j = 0 if comp in (0, 2) else 1
        scale = max(1, max(abs(mpmath.mpf(v)) for v in y))
        return Comparison(measured[j][0], stated[j][0], "==", tol=mpmath.mpf("1e-9") * scale, scale=scale)

    def sample(self, rng: np.random.Generator) -> Params:
        q = PlayedSequence.sample(rng)
        q["weights"] = (np.asarray(q["weights"]) * 10 ** rng.uniform(-2, 2)).tolist()
        return {**q, "part": "scale", "c": float(10 ** rng.uniform(-3, 3)),
                "y": rng.normal(0, 1, len(q["played"])).tolist()}

    def describe(self, p: Params) -> dict[str, Any]:
        comp, x, _ = self.worst_entry(p)
        return {"n": p["n"], "t": len(p["played"]), "lam": p["lam"], "c": p["c"], "w_t": p["weights"][-1],
                "worst entry": f"{self.COMPONENTS[comp]} at x_{x}"}


APPENDIX_C = RelativeWeightReformulation()


@claim("wgpucb:appendix-c")
def appendix_c(ctx: Context) -> Evidence:
    """Random increasing weights of random magnitude (w_t ∈ 10^(−2..2)·[1, 25]), played sequences,
    outputs and λ on 8–30 grid points (SE): ``gp.weighted_posterior`` must give the same μ̃_t and σ̂²_t
    for weights w and c·w (c ∈ 10^(−3..3)), and the direct form (2)–(3) must equal the relative-weight
    problem (weights w_s/w_t, fixed λ), to 1e-9 of the output scale at every grid point; each instance
    reports its largest discrepancy. Breaks are refereed with the direct form in mpmath. Power: the
    misreading "λ_t is a fixed λ" must be caught on the same measurements — scaled weights c·w then
    amount to the regulariser λ/c, and the relative-weight problem keeps λ w_t."""
    return exact_evidence(ctx, APPENDIX_C, n_random=ctx.pick(30, 150), n_starts=0,
                          what="relative-weight reformulation")
