"""``bolt`` Lemma C.4 (App. C, eqs. (46)–(59)): the two bounds behind ``σ_c`` and ``−L√d`` in eq. (45).

* ``bolt:eq-46`` / ``+corrected`` — the Lipschitz lower bound on the oracle's mean gap
  ``μ_r = wᵀ(f(x*, ·) − f(x, ·))``, ``w = K_T⁻¹ k_T``: printed with ``wᵀ1`` (needs ``w >= 0``, READING.md §5.2),
  corrected with ``||w||₁``.
* ``bolt:eq-59`` / ``+corrected`` — the oracle's explained variance ``q_n = k_Tᵀ K_T⁻¹ k_T`` read as the
  in-band spectral mass ``F_T(1/2c)`` (printed), against the Szegő–Kolmogorov limit of ``1 − q_n`` and the
  inequality ``1 − q_∞ >= 1 − F_T(1/2c)`` (READING.md §5.3).

Times ``t_j = jc`` (``j < n``) with the query at ``t_n = nc``; unit-variance ``k_T`` of unit lengthscale.

Readings: READING.md §bolt:eq-46, §bolt:eq-46+corrected, §bolt:eq-59, §bolt:eq-59+corrected.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import mpmath
import numpy as np

from tvbo_verify import highprecision as rf
from tvbo_verify.authoring import Comparison, Context, Evidence, Params, Statement, claim, exact_evidence
from tvbo_verify.kernels import StationaryKernel, temporal_kernel
from tvbo_verify.spectral import log_spectral_density, log_spectral_survival
from tvbo_verify.theory.circulant import (
    circulant_first_row,
    circulant_matrix,
    one_step_prediction,
    szego_prediction_variance,
)

MATERN = ("matern12", "matern32", "matern52")


# ------------------------------------------------------------------------------------ eq. (46)
@lru_cache(maxsize=64)
def weights_mp(kT: str, c: float, n: int, dps: int) -> tuple[Any, ...]:
    """``w = K_T⁻¹ k_T(t_n)`` solved in mpmath at ``dps`` digits (cached: the shrinking revisits instances)."""
    with mpmath.workdps(dps):
        w, _ = rf.one_step_prediction_mp(temporal_kernel(kT, 1.0), c, n)
        return tuple(w)


class LipschitzMeanGap(Statement):
    """``μ_r = wᵀδ`` for a Lipschitz difference ``δ_j = f(x*, t_j) − f(x, t_j) ∈ [−Lr, Lr]`` against (46)."""

    continuous = ("delta",)
    corrected: bool = False
    plot_against = "c"

    @staticmethod
    def weights(p: Params) -> np.ndarray:
        return one_step_prediction(temporal_kernel(p["kT"], 1.0), p["c"], int(p["n"])).weights

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        w = self.weights(p)
        Lr = p["Lr"]
        delta = np.clip(np.asarray(p["delta"], float), -Lr, Lr)  # any value in the box is some Lipschitz f
        mean_gap = float(w @ delta)
        if p["part"] == "markov":  # Matérn-1/2: w >= 0 with wᵀ1 = exp(−c/l)
            stated = math.exp(-(2.0 if sharpened else 1.0) * p["c"])
            return Comparison(float(np.sum(w)), stated, "==", tol=1e-10, scale=1.0)
        if self.corrected:
            stated = -Lr * float(np.sum(w if sharpened else np.abs(w)))
        else:
            stated = -(Lr / 2 if sharpened else Lr) * float(np.sum(w))
        return Comparison(mean_gap, stated, ">=", scale=Lr * float(np.sum(np.abs(w))))

    def hp(self, p: Params) -> Comparison:
        w = weights_mp(p["kT"], p["c"], int(p["n"]), mpmath.mp.dps)
        n, Lr = int(p["n"]), mpmath.mpf(p["Lr"])
        if p["part"] == "markov":
            return Comparison(mpmath.fsum(w), mpmath.exp(-mpmath.mpf(p["c"])), "==", tol=mpmath.mpf("1e-10"), scale=1)
        delta = [min(max(mpmath.mpf(v), -Lr), Lr) for v in p["delta"]]
        gap = mpmath.fsum(w[i] * delta[i] for i in range(n))
        stated = -Lr * mpmath.fsum(abs(w[i]) if self.corrected else w[i] for i in range(n))
        return Comparison(gap, stated, ">=", scale=Lr * mpmath.fsum(abs(w[i]) for i in range(n)))

    def sample(self, rng: np.random.Generator) -> Params:
        n = int(rng.integers(2, 25))
        Lr = float(10 ** rng.uniform(-1, 1))
        kT = ("matern12", "matern32", "matern52", "se")[int(rng.integers(4))]
        c = float(10 ** rng.uniform(math.log10(0.5 if kT == "se" else 0.05), math.log10(2.0)))
        if self.corrected and kT == "matern12" and rng.random() < 0.4:
            return {"part": "markov", "kT": kT, "c": c, "n": n, "Lr": Lr, "delta": [0.0] * n}
        kind = int(rng.integers(3))
        if kind == 0:  # a vertex of the box: the extreme Lipschitz differences
            delta = Lr * rng.choice([-1.0, 1.0], n)
        elif kind == 1:  # the difference of two GP slices, scaled into the box
            g = rng.standard_normal(n)
            delta = Lr * g / max(1.0, float(np.max(np.abs(g))))
        else:
            delta = rng.uniform(-Lr, Lr, n)
        return {"part": "lipschitz", "kT": kT, "c": c, "n": n, "Lr": Lr, "delta": delta.tolist()}

    def shrink(self, p: Params) -> list[Params]:
        if p["part"] != "lipschitz":
            return []
        w = self.weights(p)
        vertex = (-p["Lr"] * np.sign(w)).tolist()  # the worst difference for these weights
        out = [{**p, "delta": vertex}, {**p, "Lr": 1.0, "delta": np.sign(w * -1).tolist()}]
        if p["n"] > 2:  # keep the most recent half of the slices
            half = max(2, int(p["n"]) // 2)
            out.append({**p, "n": half, "delta": p["delta"][-half:]})
        return out

    def describe(self, p: Params) -> dict[str, Any]:
        return {k: p[k] for k in ("part", "kT", "c", "n", "Lr")}


class PrintedMeanGap(LipschitzMeanGap):
    name = "μ_r = wᵀ(f(x*,·) − f(x,·)) >= −L ||x* − x|| wᵀ1  (46 as printed)"
    sharpening = "the diameter read as the radius: −(L r / 2) wᵀ1"
    corrected = False


class CorrectedMeanGap(LipschitzMeanGap):
    name = "μ_r >= −L ||x* − x|| ||w||₁, and wᵀ1 = exp(−c/l) with w >= 0 for Matérn-1/2"
    sharpening = "the printed wᵀ1 in place of ||w||₁, and wᵀ1 read as the explained variance exp(−2c/l)"
    corrected = True


EQ_46 = PrintedMeanGap()
EQ_46_CORRECTED = CorrectedMeanGap()


@claim("bolt:eq-46")
def eq_46(ctx: Context) -> Evidence:
    """Lemma C.4, Eq. (46) as printed: the oracle's mean gap μ_r = wᵀδ, with w = K_T⁻¹ k_T
    (``theory.circulant.one_step_prediction``), must be at least −Lr wᵀ1 for every Lipschitz difference δ in the box
    [−Lr, Lr]^n. Matérn and SE k_T with random c and n; δ at box vertices, scaled GP slices or uniform draws, and
    Nelder–Mead moves δ inside the box. Breaks are refereed with w solved in mpmath and shrunk to the vertex −Lr
    sign(w). Power (where (46) holds): the radius reading −(Lr/2) wᵀ1 must be caught. Full reading: READING.md
    §bolt:eq-46."""
    return exact_evidence(ctx, EQ_46, n_random=ctx.pick(80, 400), n_starts=ctx.pick(2, 5), maxfev=150,
                          what="Lipschitz bound (46) as printed")


@claim("bolt:eq-46+corrected")
def eq_46_corrected(ctx: Context) -> Evidence:
    """Eq. (46) corrected by Hölder's inequality: on the instances of ``bolt:eq-46`` the mean gap must be at least
    −Lr ||w||₁, and for Matérn-1/2 the Markov facts w >= 0 and wᵀ1 = exp(−c/l) must hold. Breaks are refereed in
    mpmath. Power: the printed wᵀ1 in place of ||w||₁ (caught where weights are negative) and wᵀ1 read as exp(−2c/l)
    must be caught. Full reading: READING.md §bolt:eq-46+corrected."""
    return exact_evidence(ctx, EQ_46_CORRECTED, n_random=ctx.pick(80, 400), n_starts=ctx.pick(2, 5), maxfev=150,
                          what="Lipschitz bound with ||w||₁")


# ------------------------------------------------------------------------------------ eq. (59)
#: past slices used for the exact one-step prediction (converged far below the tolerances used here)
N_PAST = 100


def kernel_of(p: Params) -> StationaryKernel:
    return temporal_kernel(p["kT"], 1.0)


class InBandMass(Statement):
    """(56)–(59): ``1 − q_n`` against ``1 − F_T(1/2c)``, agreement within a factor 2 (log space)."""

    name = "1 − k_Tᵀ K_T⁻¹ k_T ≈ 1 − 2∫_0^{1/2c} S_T  (59 as printed; within a factor 2)"
    sharpening = "the Nyquist frequency 1/2c read as c/2"
    continuous = ("c",)
    bounds = {"c": (0.05, 50.0)}
    plot_against = "c"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        k, c = kernel_of(p), p["c"]
        pred = one_step_prediction(k, c, N_PAST)
        log_mass = log_spectral_survival(k, c / 2.0 if sharpened else 1.0 / (2.0 * c))
        return Comparison(math.log(pred.variance), log_mass, "==", tol=math.log(2.0), scale=1.0)

    def hp(self, p: Params) -> Comparison:
        k, c = kernel_of(p), mpmath.mpf(p["c"])
        _, var = rf.one_step_prediction_mp(k, p["c"], N_PAST)
        above = 2 * mpmath.quad(lambda z: rf.spectral_density_mp(k, z), [1 / (2 * c), mpmath.inf])
        return Comparison(mpmath.log(var), mpmath.log(above), "==", tol=mpmath.log(2), scale=1)

    def sample(self, rng: np.random.Generator) -> Params:
        kT = ("matern12", "matern32", "matern52", "se")[int(rng.integers(4))]
        low = 0.5 if kT == "se" else 0.1
        return {"kT": kT, "c": float(10 ** rng.uniform(math.log10(low), math.log10(30.0)))}


EQ_59 = InBandMass()


def circulant_quadratic_form(kernel_name: str, c: float, n: int) -> float:
    """``k̃ᵀ K̃⁻¹ k̃`` of (56): Gray's circulant ``K̃`` on ``t_0 … t_{n−1}`` and ``k̃_j`` from (23) at ``i = n``,
    ``k_T(c(n − j)) + k_T(cj)`` (READING.md §5.3: about 1, because ``t_n`` wraps around to ``t_0``)."""
    k = temporal_kernel(kernel_name, 1.0)
    K = circulant_matrix(circulant_first_row(k, c, n))
    j = np.arange(n, dtype=float)
    kt = k.of_distance(c * (n - j)) + k.of_distance(c * j)
    return float(kt @ np.linalg.solve(K, kt))


@claim("bolt:eq-59")
def eq_59(ctx: Context) -> Evidence:
    """Lemma C.4, Eqs. (56)–(59) as printed: the oracle's one-step prediction variance 1 − q_n from ``N_PAST`` past
    slices must agree with the out-of-band mass 1 − F_T(1/2c) up to a constant factor, a generous reading of "≈".
    Unit-lengthscale Matérn and SE kernels; Nelder–Mead moves c; breaks are refereed by conditioning and quadrature
    in mpmath. Reported: the exact circulant quadratic form of (56), about 1 because t_n wraps around to t_0. Power
    (slow sampling, where (59) holds): the Nyquist frequency read as c/2 must be caught. Full reading: READING.md
    §bolt:eq-59."""
    ev = exact_evidence(ctx, EQ_59, n_random=ctx.pick(40, 200), n_starts=ctx.pick(2, 4), maxfev=40,
                        what="in-band mass (59) as printed")
    ev.stats["circulant_quadratic_form_n64"] = {f"{name}, c = {c:g}": circulant_quadratic_form(name, c, 64)
                                                for name, c in (("matern12", 0.5), ("matern32", 1.0), ("se", 1.0))}
    return ev


class PredictionLimit(Statement):
    """Part ``szego``: ``1 − q_n`` equals the Szegő limit; part ``inequality``: ``1 − q_∞ >= 1 − F_T(1/2c)``."""

    name = "1 − q_n -> exp ∫ log f_d (Szegő), and 1 − q_∞ >= 1 − F_T(1/2c)"
    sharpening = "the limit without aliasing (f_d(ν) read as S_T(ν/c)/c), and 1/2c read as c/2 in the inequality"
    plot_against = "c"

    @staticmethod
    def unaliased_szego(p: Params) -> float:
        """``exp(2 ∫_0^{1/2} log(S_T(ν/c)/c) dν)``: the limit with the aliasing of (28) dropped."""
        k, c = kernel_of(p), p["c"]
        nu = np.linspace(0.0, 0.5, 2001)
        vals = log_spectral_density(k, nu / c) - math.log(c)
        return math.exp(2.0 * float(np.trapezoid(vals, nu)))

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        k, c = kernel_of(p), p["c"]
        limit = szego_prediction_variance(k, c)
        if p["part"] == "szego":
            stated = self.unaliased_szego(p) if sharpened else limit
            return Comparison(one_step_prediction(k, c, N_PAST).variance, stated, "==", tol=1e-6 * limit,
                              scale=limit)
        log_mass = log_spectral_survival(k, c / 2.0 if sharpened else 1.0 / (2.0 * c))
        return Comparison(math.log(limit), log_mass, ">=", scale=1.0)

    def hp(self, p: Params) -> Comparison:
        k, c = kernel_of(p), mpmath.mpf(p["c"])
        limit = rf.szego_prediction_variance_mp(k, p["c"])
        if p["part"] == "szego":
            _, var = rf.one_step_prediction_mp(k, p["c"], N_PAST)
            return Comparison(var, limit, "==", tol=mpmath.mpf("1e-6") * limit, scale=limit)
        above = 2 * mpmath.quad(lambda z: rf.spectral_density_mp(k, z), [1 / (2 * c), mpmath.inf])
        return Comparison(mpmath.log(limit), mpmath.log(above), ">=", scale=1)

    def sample(self, rng: np.random.Generator) -> Params:
        kT = ("matern12", "matern32", "matern52", "se")[int(rng.integers(4))]
        low = 0.5 if kT == "se" else 0.2
        return {"part": ("szego", "inequality")[int(rng.integers(2))], "kT": kT,
                "c": float(10 ** rng.uniform(math.log10(low), math.log10(5.0)))}


EQ_59_CORRECTED = PredictionLimit()


@claim("bolt:eq-59+corrected")
def eq_59_corrected(ctx: Context) -> Evidence:
    """Eqs. (56)–(59) replaced by the limit that holds: (szego) 1 − q_n from ``N_PAST`` slices must equal the
    Szegő–Kolmogorov prediction error exp ∫ log f_d of the aliased density f_d(ν) = (1/c) Σ_m S_T((ν + m)/c)
    (``theory.circulant.szego_prediction_variance``); (inequality) that limit must be at least 1 − F_T(1/2c), an
    unproved conjecture which would keep the printed σ_c conservative. Breaks are refereed in mpmath. Power: the
    limit without aliasing, and 1/2c read as c/2 in the inequality, must be caught. Full reading: READING.md
    §bolt:eq-59+corrected."""
    return exact_evidence(ctx, EQ_59_CORRECTED, n_random=ctx.pick(30, 150), n_starts=0,
                          what="Szegő limit and out-of-band mass")
