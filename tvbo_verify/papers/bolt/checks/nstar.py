"""``bolt`` Recommendation 1 / eq. (9): the maximal dataset size ``n* = argmax_n ||u_n||²`` (Sec. 3.3).

* ``bolt:n-star`` — the paper's sign iteration from ``n₀`` reaches the certified brute-force maximum;
  ``n*`` is invariant when ``R`` and ``l_T`` are scaled together; constant ``R`` has no finite ``n*``.
* ``bolt:n-star-unimodal`` — ``||u_n||²`` has one local maximum and the relaxed objective
  ``g(x) = ∫_1^x k_T²(s R(x)) ds`` (Sec. 3.3) has its maximiser within one step of ``n*``.

Instances: temporal kernels Matérn-1/2, 3/2, 5/2, SE and RQ with response times of the whole class of
Definition 3.5 — power laws ``R(n) = c + a n^p`` and piecewise-linear ``R`` with steps in the growth rate
(``c + Σ`` slopes between knots, every slope positive), the "tabulated" response times a measured clock
produces (:mod:`tvbo_verify.theory.response`).

Readings: READING.md §bolt:n-star, §bolt:n-star-unimodal.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import mpmath
import numpy as np
import sympy as sp

from tvbo_verify import highprecision as rf
from tvbo_verify.authoring import Comparison, Context, Evidence, Params, Statement, claim, exact_evidence
from tvbo_verify.kernels import StationaryKernel, temporal_kernel
from tvbo_verify.theory.response import (
    N_SYMBOL,
    NStarResult,
    ResponseModel,
    hill_climb,
    log_u2_curve,
    n_star,
    relaxed_maximiser,
)

from .plotting import finish, new_axes

if TYPE_CHECKING:
    from matplotlib.figure import Figure

KERNELS = ("matern12", "matern32", "matern52", "se", "rq")


# --------------------------------------------------------------------------------------- instances
@lru_cache(maxsize=512)
def power_law_response(c: float, a: float, p: int) -> ResponseModel:
    """``R(n) = c + a n^p`` (constant ``c`` when ``a = 0``)."""
    text = f"{c!r} + {a!r}*n**{p}" if a > 0 else repr(c)
    return ResponseModel.from_expression(text)


@lru_cache(maxsize=512)
def certified_n_star(kernel: str, lT: float, c: float, a: float, p: int) -> NStarResult:
    """``n*`` by certified brute force (and hill-climb from 1) for ``R(n) = c + a n^p``."""
    return n_star(power_law_response(c, a, p), temporal_kernel(kernel, lT))


@lru_cache(maxsize=512)
def sign_iteration(kernel: str, lT: float, c: float, a: float, p: int, start: float) -> int:
    """The paper's sign iteration (``hill_climb``) from ``n₀ = max(1, round(start · n*))``."""
    n0 = max(1, int(round(start * certified_n_star(kernel, lT, c, a, p).n_star)))
    return hill_climb(power_law_response(c, a, p), temporal_kernel(kernel, lT), n0=n0)


@lru_cache(maxsize=512)
def spline_response(c: float, knots: tuple[int, ...], slopes: tuple[float, ...]) -> ResponseModel:
    """Piecewise-linear ``R(n) = c + s_0 n + Σ_k (s_{k+1} − s_k) max(0, n − knot_k)``: slope ``s_k`` between
    consecutive knots, every slope positive (strictly increasing, ``R(0) = c > 0``, diverging: Definition 3.5)."""
    if not (c > 0 and all(s > 0 for s in slopes) and len(slopes) == len(knots) + 1):
        raise ValueError(f"a spline response time needs c > 0 and positive slopes, got c={c!r}, slopes={slopes!r}")
    n = N_SYMBOL
    expr = sp.Float(c) + sp.Float(slopes[0]) * n
    for knot, (before, after) in zip(knots, zip(slopes, slopes[1:])):
        expr += sp.Float(after - before) * sp.Max(0, n - int(knot))
    return ResponseModel(expr, "spline", f"c = {c:g}, knots {list(knots)}, slopes {[float(v) for v in slopes]}")


@lru_cache(maxsize=512)
def certified_spline_n_star(kernel: str, lT: float, c: float, knots: tuple[int, ...],
                            slopes: tuple[float, ...]) -> NStarResult:
    """``n*`` by certified brute force for a spline ``R`` (Definition 3.5 holds by construction, see
    :func:`spline_response`; ``validate_response`` cannot take the limit of a ``Max`` expression)."""
    return n_star(spline_response(c, knots, slopes), temporal_kernel(kernel, lT), n_cap=20000, validate=False)


@lru_cache(maxsize=512)
def spline_sign_iteration(kernel: str, lT: float, c: float, knots: tuple[int, ...], slopes: tuple[float, ...],
                          n0: int) -> int:
    """The paper's sign iteration from ``n₀`` for a spline response time."""
    return hill_climb(spline_response(c, knots, slopes), temporal_kernel(kernel, lT), n0=n0)


class PowerLawInstance:
    """The kernel and response time of an instance: ``{kernel, lT, c, a, p}`` (power law) or
    ``{kernel, lT, c, knots, slopes}`` (piecewise-linear)."""

    @staticmethod
    def key(p: Params) -> tuple[str, float, float, float, int]:
        return p["kernel"], p["lT"], p["c"], p["a"], p["p"]

    @staticmethod
    def is_spline(p: Params) -> bool:
        return "knots" in p

    @classmethod
    def response(cls, p: Params) -> ResponseModel:
        if cls.is_spline(p):
            return spline_response(p["c"], tuple(p["knots"]), tuple(p["slopes"]))
        return power_law_response(p["c"], p["a"], p["p"])

    @classmethod
    def certified(cls, p: Params) -> NStarResult:
        if cls.is_spline(p):
            return certified_spline_n_star(p["kernel"], p["lT"], p["c"], tuple(p["knots"]), tuple(p["slopes"]))
        return certified_n_star(*cls.key(p))

    @staticmethod
    def kernel(p: Params) -> StationaryKernel:
        return temporal_kernel(p["kernel"], p["lT"])

    @staticmethod
    def sample_spline(rng: np.random.Generator) -> Params:
        """Three growth regimes: steep, nearly flat (a plateau), steep again, with random knots and scales."""
        lT = float(10 ** rng.uniform(0, 2))
        k1 = int(rng.integers(2, 60))
        k2 = k1 + int(rng.integers(5, 300))
        slopes = [lT * float(10 ** rng.uniform(-3, 0)), lT * float(10 ** rng.uniform(-9, -4)),
                  lT * float(10 ** rng.uniform(-3, 0))]
        return {"kernel": KERNELS[int(rng.integers(len(KERNELS)))], "lT": lT,
                "c": 0.01 * lT * float(10 ** rng.uniform(-1, 1)), "knots": [k1, k2], "slopes": slopes,
                "n0": int([1, k1, (k1 + k2) // 2, k2][int(rng.integers(4))])}

    @staticmethod
    def sample(rng: np.random.Generator) -> Params:
        """Kernel, ``l_T ∈ {1, 10, 60}``, ``p ∈ {1, 2, 3}`` and ``a`` spread around a typical GP cost."""
        kernel = KERNELS[int(rng.integers(len(KERNELS)))]
        lT = float([1.0, 10.0, 60.0][int(rng.integers(3))])
        pw = int(rng.integers(1, 4))
        a = {1: 1e-3, 2: 1e-4, 3: 1e-6}[pw] * float(10 ** rng.uniform(-0.5, 0.5)) * lT / 10
        return {"kernel": kernel, "lT": lT, "c": 0.1 * lT / 10, "a": a, "p": pw}


def mp_local_argmax(model: ResponseModel, kernel: StationaryKernel, n: int, max_steps: int = 100_000) -> int:
    """Walk from ``n`` to the neighbouring local maximum of ``||u_m||²`` evaluated in mpmath (at most
    ``max_steps`` steps: a response time that grows too slowly for a maximum to exist would walk for good)."""
    for _ in range(max_steps):
        here = rf.u2_mp(model, kernel, n)
        if rf.u2_mp(model, kernel, n + 1) > here:
            n += 1
        elif n > 1 and rf.u2_mp(model, kernel, n - 1) > here:
            n -= 1
        else:
            return n
    raise ValueError(f"no local maximum of ||u_n||^2 within max_steps = {max_steps} of the start, at n = {n}")


def lag_zero_argmax(model: ResponseModel, kernel: StationaryKernel, n_max: int) -> int:
    """Argmax over ``1 <= n <= n_max`` of ``Σ_{i=0}^{n-1} k_T²(i R(n))``: eq. (9) with the lags counted from 0
    (the newest observation read at lag 0 instead of ``R(n)``), an index-shift misreading of (8)."""
    best_n, best = 1, -math.inf
    for n in range(1, n_max + 1):
        rn = float(model(float(n)))
        terms = kernel.of_distance(np.arange(0, n, dtype=float) * rn)
        value = math.fsum(terms * terms)
        if value > best:
            best_n, best = n, value
    return best_n


# ------------------------------------------------------------------------------------ bolt:n-star
class NStarSearch(Statement):
    """Three parts of Recommendation 1, one per instance ``part``."""

    name = "n* = argmax ||u_n||² found by the sign iteration; scale invariant; none for constant R"
    sharpening = ("misreadings on the same measurements: eq. (8) with lags counted from 0 "
                  "(n* = argmax Σ_{i<n} k_T²(i R(n))), n* independent of l_T (only R scaled), and "
                  "'no finite n*' extended from constant to logarithmic R(n) = c (1 + log(1 + n))")
    #: instances only the sharpened statement admits: slowly (logarithmically) growing response times
    sharpened_extra = tuple({"part": "constant", "kernel": k, "lT": 10.0, "c": 0.1, "a": 0.0, "p": 0,
                             "n_max": 400, "growth": "log"} for k in KERNELS)

    def climb(self, p: Params) -> int:
        """The sign iteration's result: from ``n₀ = p["n0"]`` (spline ``R``) or ``round(start · n*)``."""
        if PowerLawInstance.is_spline(p):
            return spline_sign_iteration(p["kernel"], p["lT"], p["c"], tuple(p["knots"]), tuple(p["slopes"]),
                                         int(p["n0"]))
        return sign_iteration(*PowerLawInstance.key(p), p["start"])

    @staticmethod
    def scaled(p: Params, s_R: float, s_l: float) -> int:
        return certified_n_star(p["kernel"], p["lT"] * s_l, p["c"] * s_R, p["a"] * s_R, p["p"]).n_star

    @staticmethod
    def constant_response(p: Params) -> ResponseModel:
        if p.get("growth") == "log":
            return ResponseModel.from_expression(f"{p['c']!r} * (1 + log(1 + n))")
        return power_law_response(p["c"], 0.0, 0)

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        if p["part"] == "climb":  # the sign iteration from n0 reaches the brute-force argmax
            res = PowerLawInstance.certified(p)
            stated = res.n_star
            if sharpened:
                stated = lag_zero_argmax(PowerLawInstance.response(p), PowerLawInstance.kernel(p),
                                         res.searched_up_to)
            return Comparison(self.climb(p), stated, "==", scale=res.n_star)
        if p["part"] == "scale":  # n* unchanged when R and l_T are multiplied by s
            s = p["s"]
            original = self.scaled(p, 1.0, 1.0)
            stated = self.scaled(p, s, 1.0) if sharpened else original
            return Comparison(self.scaled(p, s, s), stated, "==", scale=original)
        # constant R: ||u_n||² strictly increasing up to n_max (no finite n*)
        logs = log_u2_curve(p["n_max"], self.constant_response(p), PowerLawInstance.kernel(p))[1:]
        return Comparison(float(np.min(np.diff(logs))), 0.0, ">=")

    def hp(self, p: Params) -> Comparison:
        model, kernel = PowerLawInstance.response(p), PowerLawInstance.kernel(p)
        if p["part"] == "climb":  # the local maxima reached from n* and from the climb, valued at 50 digits
            best = rf.u2_mp(model, kernel, mp_local_argmax(model, kernel, PowerLawInstance.certified(p).n_star))
            reached = rf.u2_mp(model, kernel, mp_local_argmax(model, kernel, self.climb(p)))
            return Comparison(reached, best, ">=", scale=best)
        if p["part"] == "scale":
            s = p["s"]
            scaled_model = power_law_response(p["c"] * s, p["a"] * s, p["p"])
            scaled_kernel = temporal_kernel(p["kernel"], p["lT"] * s)
            n1 = mp_local_argmax(model, kernel, self.scaled(p, 1.0, 1.0))
            n2 = mp_local_argmax(scaled_model, scaled_kernel, self.scaled(p, s, s))
            return Comparison(n2, n1, "==", scale=n1)
        model = self.constant_response(p)
        vals = [rf.u2_mp(model, kernel, n) for n in range(1, min(p["n_max"], 60) + 1)]
        return Comparison(min(b - a for a, b in zip(vals, vals[1:])), 0, ">=")

    def sample(self, rng: np.random.Generator) -> Params:
        base = PowerLawInstance.sample(rng)
        part = ["climb", "climb", "scale", "constant", "spline", "spline", "spline"][int(rng.integers(7))]
        if part == "spline":
            return {"part": "climb", **PowerLawInstance.sample_spline(rng)}
        base = {"part": part, **base}
        if part == "climb":
            return {**base, "start": float([1e-9, 1 / 3, 5.0][int(rng.integers(3))])}
        if part == "scale":
            return {**base, "s": float(10 ** rng.uniform(-1, 1))}
        return {**base, "a": 0.0, "p": 0, "n_max": 400}

    def shrink(self, p: Params) -> list[Params]:
        if not PowerLawInstance.is_spline(p):
            return []
        return [{**p, "n0": 1}, {**p, "kernel": "matern12"}, {**p, "c": round(p["c"], 3) or p["c"]},
                {**p, "lT": float(round(p["lT"]))}]

    def describe(self, p: Params) -> dict[str, Any]:
        return dict(p)


N_STAR = NStarSearch()

#: the reference grid of n* (READING.md §bolt:n-star), recomputed and reported
REFERENCE_GRID = [(lT, expr) for lT in (10.0, 60.0) for expr in ((0.1, 1e-6, 3), (0.1, 1e-4, 2), (0.1, 1e-3, 1))]


def reference_table() -> list[dict[str, Any]]:
    """``n*`` on the reference grid :data:`REFERENCE_GRID` (Matérn-1/2, 3/2, 5/2 and SE)."""
    table = []
    for lT, (c, a, pw) in REFERENCE_GRID:
        row: dict[str, Any] = {"l_T": lT, "R(n)": f"{c:g} + {a:g} n^{pw}"}
        for kname in ("matern12", "matern32", "matern52", "se"):
            row[kname] = certified_n_star(kname, lT, c, a, pw).n_star
        table.append(row)
    return table


def u2_figure() -> Figure:
    """``||u_n||²`` against ``n`` for three kernels (``l_T = 10``, cubic ``R``), each with its ``n*``."""
    fig, ax = new_axes()
    n_max = 0
    for kname in ("matern12", "matern32", "se"):
        r = certified_n_star(kname, 10.0, 0.1, 1e-6, 3)
        n_max = max(n_max, 3 * r.n_star)
        ax.plot(np.arange(r.curve.size), r.curve, label=f"{kname}: n* = {r.n_star}")
        ax.axvline(r.n_star, color=ax.lines[-1].get_color(), ls=":", lw=0.8)
    finish(ax, xlabel="dataset size n", ylabel="||u_n||²", xlim=(0, n_max), title="R(n) = 0.1 + 1e-6 n³, l_T = 10")
    return fig


@claim("bolt:n-star")
def n_star_claim(ctx: Context) -> Evidence:
    """Recommendation 1 / Eq. (9), for random temporal kernels with power-law and piecewise-linear response times
    (steep, nearly flat, steep again: all admitted by Definition 3.5): (a) the paper's sign iteration from several
    starts must return the certified argmax of ||u_n||² (``theory.response.n_star``); (b) n* must not change when R
    and l_T are scaled together; (c) a constant R must give an ever-increasing ||u_n||². Breaks are refereed in
    mpmath. Power: lags counted from 0, "n* independent of l_T", and "no finite n*" for logarithmic R. Full reading:
    READING.md §bolt:n-star."""
    ev = exact_evidence(ctx, N_STAR, n_random=ctx.pick(30, 150), n_starts=0,
                        extra=[{"part": "climb", "kernel": "matern12", "lT": 10.0, "c": 0.1, "a": 1e-6, "p": 3,
                                "start": 1e-9}], what="n* search of Recommendation 1")
    ev.stats["n_star_table"] = reference_table()
    ev.stats["relaxed_maximiser_matern12_lT10_cubic"] = relaxed_maximiser(
        power_law_response(0.1, 1e-6, 3), temporal_kernel("matern12", 10.0),
        4 * certified_n_star("matern12", 10.0, 0.1, 1e-6, 3).n_star)
    ev.figures.append(("||u_n||² against n", u2_figure))
    if ev.counterexample is not None and ev.counterexample["instance"].get("part") == "climb":
        instance = ev.counterexample["instance"]
        ev.figures.append(("the sign iteration stopping at a local maximum", lambda: climb_figure(instance)))
    return ev


def climb_figure(p: Params) -> Figure:
    """``||u_n||²`` of a counterexample with the certified ``n*``, the start ``n₀`` and where the climb stops."""
    res = PowerLawInstance.certified(p)
    start = int(p["n0"]) if PowerLawInstance.is_spline(p) else max(1, int(round(p["start"] * res.n_star)))
    stop = N_STAR.climb(p)
    top = max(6 * max(res.n_star, stop, start) // 5, 10)
    curve = np.exp(log_u2_curve(top, PowerLawInstance.response(p), PowerLawInstance.kernel(p)))
    fig, ax = new_axes()
    ax.plot(np.arange(1, top + 1), curve[1:], color="0.3", label="||u_n||²")
    ax.axvline(res.n_star, color="tab:green", ls="--", label=f"n* = {res.n_star} (certified brute force)")
    ax.axvline(start, color="tab:blue", ls=":", label=f"start n₀ = {start}")
    ax.axvline(stop, color="tab:red", ls="-.", label=f"sign iteration stops at {stop}")
    ax.set_yscale("log")
    ax.set_xscale("log")
    title = (f"{p['kernel']}, l_T = {p['lT']:.3g}, R: c = {p['c']:.3g}, knots {p['knots']}, slopes "
             + ", ".join(f"{v:.3g}" for v in p["slopes"]) if PowerLawInstance.is_spline(p) else "")
    finish(ax, xlabel="dataset size n", ylabel="||u_n||²", xlim=(1, top), title=title)
    return fig


# -------------------------------------------------------------------------- bolt:n-star-unimodal
def local_maxima(curve: np.ndarray) -> list[int]:
    """Indices ``n >= 1`` with ``u(n) >= u(n − 1)`` and ``u(n) > u(n + 1)`` (a strict drop to the right)."""
    return [n for n in range(1, curve.size - 1) if curve[n] >= curve[n - 1] and curve[n] > curve[n + 1]]


class Unimodality(Statement):
    """One local maximum of ``||u_n||²`` (part ``peaks``); relaxed maximiser near ``n*`` (part ``relaxed``)."""

    name = "||u_n||² has one local maximum; the relaxed maximiser is within 1 of n*"
    sharpening = ("n* = ⌊x*⌋, the relaxed maximiser rounded down (x* ∈ [n*, n* + 1]); "
                  "the peak count has no sharper reading")

    @staticmethod
    def finite_log_curve(p: Params) -> np.ndarray:
        res = PowerLawInstance.certified(p)
        curve = log_u2_curve(res.searched_up_to, PowerLawInstance.response(p), PowerLawInstance.kernel(p))
        return np.concatenate([[-np.inf], curve[np.isfinite(curve)]])

    @staticmethod
    def relaxed(p: Params) -> tuple[float, int]:
        res = certified_n_star(*PowerLawInstance.key(p))
        x = relaxed_maximiser(PowerLawInstance.response(p), PowerLawInstance.kernel(p), 4.0 * res.n_star)
        return x, res.n_star

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        if p["part"] == "peaks":  # local maxima of log ||u_n||² up to the certified range
            return Comparison(len(local_maxima(self.finite_log_curve(p))), 1, "<=")
        x, n = self.relaxed(p)
        if sharpened:
            return Comparison(x, n + 0.5, "==", tol=0.5)
        return Comparison(x, n, "==", tol=1.0)

    def hp(self, p: Params) -> Comparison:
        model, kernel = PowerLawInstance.response(p), PowerLawInstance.kernel(p)
        if p["part"] == "peaks":  # every float local maximum re-examined with its neighbours in mpmath
            true_peaks = 0
            for n in local_maxima(self.finite_log_curve(p)):
                vals = [rf.u2_mp(model, kernel, m) for m in (n - 1, n, n + 1)]
                true_peaks += int(vals[1] >= vals[0] and vals[1] > vals[2])
            return Comparison(true_peaks, 1, "<=")
        x, n = self.relaxed(p)
        return Comparison(mpmath.mpf(x), n, "==", tol=1)

    def sample(self, rng: np.random.Generator) -> Params:
        """A piecewise-linear R (peak count), or a power law (peak count or relaxed maximiser)."""
        kind = int(rng.integers(3))
        if kind == 0:
            return {"part": "peaks", **PowerLawInstance.sample_spline(rng)}
        return {"part": ("peaks", "relaxed")[kind - 1], **PowerLawInstance.sample(rng)}

    def describe(self, p: Params) -> dict[str, Any]:
        return {k: v for k, v in p.items() if k not in ("start", "s", "n_max", "n0")}


UNIMODAL = Unimodality()


@claim("bolt:n-star-unimodal")
def n_star_unimodal(ctx: Context) -> Evidence:
    """Recommendation 1's claim that the relaxed objective g(x) = ∫_1^x k_T²(s R(x)) ds has a unique maximum, read on
    the instances of ``bolt:n-star`` through a discrete analogue: log ||u_n||² over the certified range must have
    exactly one local maximum (float peaks re-examined in mpmath), and for power laws the maximiser x* of g
    (``relaxed_maximiser``) must lie within one step of n*. Power: n* = ⌊x*⌋ must be caught; the peak count has no
    sharper reading. Full reading: READING.md §bolt:n-star-unimodal."""
    return exact_evidence(ctx, UNIMODAL, n_random=ctx.pick(30, 150), n_starts=0, what="unimodality of ||u_n||²")
