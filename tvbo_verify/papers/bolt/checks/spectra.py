"""``bolt`` Assumption 3.3 (Sec. 3.1) and the remark after Corollary 3.7 (Sec. 3.2): temporal kernels and their
spectra.

* ``bolt:assumption-3.3`` — the usual temporal kernels (SE, Matérn-1/2, 3/2, 5/2, RQ) have ``k(0) = 1``,
  decrease to 0, have a spectral density of total mass 1 (ordinary frequency, READING.md §3.1) that is
  positive at every frequency; the band-limited sinc kernel is the counter-case the paper names.
* ``bolt:compact-spectrum`` — with a band-limited ``k_T`` (sinc, band ``B``) the floor ``σ_c²`` of
  eq. (5), hence ``ε_c``, is 0 once ``c <= 1/(2B)`` and positive beyond.

Readings: READING.md §bolt:assumption-3.3, §bolt:compact-spectrum.
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import numpy as np
from scipy import integrate

from tvbo_verify.authoring import Comparison, Context, Evidence, Params, Statement, claim, exact_evidence
from tvbo_verify.kernels import RationalQuadratic, Sinc, SquaredExponential, StationaryKernel, temporal_kernel
from tvbo_verify.spectral import log_spectral_density, spectral_density
from tvbo_verify.theory.lower_bounds import epsilon_c, sigma_c_squared

USUAL = ("se", "matern12", "matern32", "matern52", "rq")
PARTS = ("unit", "decreasing", "vanishing", "mass", "positive")


def kernel_of(p: Params) -> StationaryKernel:
    """The instance's unit-variance temporal kernel (``sinc``: band ``B = 1/(2l)``)."""
    if p["kernel"] == "sinc":
        return Sinc(1.0, p["l"])
    if p["kernel"] == "rq":
        return RationalQuadratic(p["alpha"], 1.0, p["l"])
    return temporal_kernel(p["kernel"], p["l"])


class KernelProperties(Statement):
    """One property of Assumption 3.3 per instance ``part``, on a named kernel with lengthscale ``l``."""

    name = "k_T(0) = 1, k_T decreasing to 0, ∫ S_T = 1 and S_T > 0 everywhere (Assumption 3.3)"
    sharpening = ("the spectral mass under the angular-frequency convention (∫ S = 2π k(0)); "
                  "positive spectra claimed for every stationary kernel, the band-limited sinc included")
    #: the sinc kernel: admitted only by the sharpened (over-general) statement
    sharpened_extra = tuple({"part": "positive", "kernel": "sinc", "l": ell, "alpha": 1.0} for ell in (0.25, 1.0, 4.0))
    plot_against = "l"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        k, ell = kernel_of(p), p["l"]
        if p["part"] == "unit":
            return Comparison(float(k.of_distance(0.0)), 1.0, "==")
        if p["part"] == "decreasing":  # largest increase between neighbours of a fine grid on [0, 50 l]
            values = k.of_distance(np.linspace(0.0, 50.0 * ell, 5001))
            return Comparison(float(np.max(np.diff(values))), 0.0, "<=", scale=1.0)
        if p["part"] == "vanishing":  # the limit read at 10⁸ lengthscales, to 1e-6
            return Comparison(float(k.of_distance(1e8 * ell)), 0.0, "==", tol=1e-6, scale=1.0)
        if p["part"] == "mass":  # ∫_R S = 2 ∫_0^∞ S (S even)
            half, _ = integrate.quad(lambda z: float(spectral_density(k, z)), 0.0, np.inf, limit=400,
                                     epsabs=1e-13, epsrel=1e-11)
            return Comparison(2.0 * half, 2.0 * math.pi if sharpened else 1.0, "==", tol=1e-8, scale=1.0)
        # positive: grid frequencies in [0, 10³/l] where S_T vanishes (log S = −inf)
        xi = np.concatenate([[0.0], np.geomspace(1e-3 / ell, 1e3 / ell, 600)])
        zeros = int(np.sum(~np.isfinite(log_spectral_density(k, xi))))
        return Comparison(zeros, 0, "==", scale=1.0)

    def hp(self, p: Params) -> Comparison:
        k, ell = kernel_of(p), p["l"]
        if p["part"] == "unit":
            return Comparison(k.rho_mp(mpmath.mpf(0)), 1, "==")
        if p["part"] == "decreasing":
            r2 = [(mpmath.mpf(t) / ell) ** 2 for t in np.linspace(0.0, 50.0 * ell, 5001)]
            vals = [k.rho_mp(v) for v in r2]
            return Comparison(max(b - a for a, b in zip(vals, vals[1:])), 0, "<=", scale=1)
        if p["part"] == "vanishing":
            return Comparison(k.rho_mp(mpmath.mpf(1e8) ** 2), 0, "==", tol=mpmath.mpf("1e-6"), scale=1)
        if p["part"] == "mass":
            half = mpmath.quad(lambda z: mpmath.mpf(float(spectral_density(k, float(z)))), [0, 1 / ell, mpmath.inf])
            return Comparison(2 * half, 1, "==", tol=mpmath.mpf("1e-8"), scale=1)
        return self.evaluate(p)

    def sample(self, rng: np.random.Generator) -> Params:
        return {"part": PARTS[int(rng.integers(len(PARTS)))], "kernel": USUAL[int(rng.integers(len(USUAL)))],
                "l": float(10 ** rng.uniform(-1, 1.5)), "alpha": float(rng.uniform(0.5, 5.0))}

    def describe(self, p: Params) -> dict[str, Any]:
        return {k: v for k, v in p.items() if k != "alpha" or p["kernel"] == "rq"}


ASSUMPTION_33 = KernelProperties()


@claim("bolt:assumption-3.3")
def assumption_3_3(ctx: Context) -> Evidence:
    """Assumption 3.3 (Sec. 3.1) on the usual temporal kernels (SE, Matérn-1/2, 3/2, 5/2, RQ) at random lengthscales,
    one property per instance: k(0) = 1, k non-increasing on a fine grid, k vanishing far out, ∫ S_T = 1 in the
    ordinary-frequency convention, and S_T > 0 on a frequency grid (log-space closed forms). Breaks are refereed with
    the mpmath profiles and quadrature. Power: the angular-frequency mass 2π must be caught, and so must "every
    stationary kernel has a positive spectrum" on the sinc kernel. Full reading: READING.md §bolt:assumption-3.3."""
    return exact_evidence(ctx, ASSUMPTION_33, n_random=ctx.pick(60, 300), n_starts=0, what="Assumption 3.3")


# ------------------------------------------------------------------------------------- sinc floor
class BandLimitedFloor(Statement):
    """``σ_c²`` of eq. (5) for the sinc kernel with band ``B``: 0 for ``c <= 1/(2B)``, positive beyond.

    The sampling period is ``c = ratio / (2B)`` (``ratio = c / Nyquist period``)."""

    name = "sinc k_T with band B: σ_c² = ε_c = 0 iff c <= 1/(2B)"
    sharpening = ("the band condition read at the sampling frequency: σ_c = 0 already for c <= 1/B "
                  "(Nyquist factor 2 lost)")
    continuous = ("ratio",)
    bounds = {"ratio": (1e-3, 100.0)}
    plot_against = "ratio"

    @staticmethod
    def period(p: Params) -> float:
        return p["ratio"] / (2.0 * p["B"])

    @classmethod
    def floor(cls, p: Params) -> tuple[float, float]:
        """``σ_c²`` (printed reading, ``theory.lower_bounds.sigma_c_squared``) and ``ε_c``."""
        sinc = Sinc(1.0, 1.0 / (2.0 * p["B"]))
        s2 = sigma_c_squared(sinc, cls.period(p), signal_variance=p["lam"], spatial=SquaredExponential(1.0, p["lS"]),
                             d=int(p["d"]))
        return s2, epsilon_c(math.sqrt(s2), p["L"], int(p["d"]))

    @staticmethod
    def closed_form(p: Params, edge: float) -> float:
        """``2λ(1 + k_S(√d)) max(0, 1 − edge/ratio)`` with the SE ``k_S`` (``edge = 1``: the Nyquist band)."""
        ks = math.exp(-int(p["d"]) / (2.0 * p["lS"] ** 2))
        return 2.0 * p["lam"] * (1.0 + ks) * max(0.0, 1.0 - edge / p["ratio"])

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        s2, eps = self.floor(p)
        if p["part"] == "epsilon" and p["ratio"] <= 1.0:  # inside the band: ε_c exactly 0
            return Comparison(eps, 0.0, "==", scale=1.0)
        stated = self.closed_form(p, 2.0 if sharpened else 1.0)
        return Comparison(s2, stated, "==", tol=1e-12 * 4.0 * p["lam"], scale=4.0 * p["lam"])

    def hp(self, p: Params) -> Comparison:
        lam, d, ratio = (mpmath.mpf(p[k]) for k in ("lam", "d", "ratio"))
        ks = mpmath.exp(-d / (2 * mpmath.mpf(p["lS"]) ** 2))
        s2 = 2 * lam * (1 + ks) * max(mpmath.mpf(0), 1 - 1 / ratio)  # sinc mass above the Nyquist frequency
        if p["part"] == "epsilon" and p["ratio"] <= 1.0:
            return Comparison(mpmath.mpf(self.floor(p)[1]), s2, "==", scale=1)
        return Comparison(mpmath.mpf(self.floor(p)[0]), s2, "==", tol=mpmath.mpf("1e-12") * 4 * lam, scale=4 * lam)

    def sample(self, rng: np.random.Generator) -> Params:
        part = ("sigma", "sigma", "epsilon")[int(rng.integers(3))]
        if part == "epsilon":
            ratio = float(10 ** rng.uniform(-1, 0))
        else:
            ratio = float(10 ** rng.uniform(-1, 1)) if rng.random() < 0.7 else float(rng.uniform(0.9, 2.1))
        return {"part": part, "B": float(10 ** rng.uniform(-1, 1)), "ratio": ratio, "lam": float(rng.uniform(0.5, 2.0)),
                "lS": float(rng.uniform(0.3, 2.0)), "d": int(rng.integers(1, 5)), "L": float(rng.uniform(0.5, 5.0))}

    def describe(self, p: Params) -> dict[str, Any]:
        return {**p, "c": self.period(p)}


COMPACT_SPECTRUM = BandLimitedFloor()


@claim("bolt:compact-spectrum")
def compact_spectrum(ctx: Context) -> Evidence:
    """The remark after Corollary 3.7 (Sec. 3.2): for the band-limited sinc kernel of band B, the printed σ_c² of Eq.
    (5) (``theory.lower_bounds.sigma_c_squared``) must equal 2λ(1 + k_S(√d)) max(0, 1 − 1/(2Bc)), which is zero
    exactly when c <= 1/(2B), and ε_c must then be exactly 0. B, c, λ, ℓ_S, d and L are random; Nelder–Mead pushes
    2Bc to the band edge; breaks are refereed with the sinc spectral mass in mpmath. Power: the band condition read
    at the sampling frequency, c <= 1/B, must be caught. Full reading: READING.md §bolt:compact-spectrum."""
    return exact_evidence(ctx, COMPACT_SPECTRUM, n_random=ctx.pick(60, 300), n_starts=ctx.pick(2, 5), maxfev=80,
                          what="band-limited regret floor")
