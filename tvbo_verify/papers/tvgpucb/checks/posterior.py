"""``tvgpucb`` model and posterior: the Markov time-variation model (3)–(4) with its covariance (22),
the time-varying posterior (7)–(8) derived in App. A, eq. (23), and the likelihood of ε of App. B. Each is
an exact identity checked against an independent computation (coefficient propagation, space–time
conditioning, a Kalman filter, finite differences); the readings are READING.md §2.3; §2.4; §3.1.

=====================  ====================================================================
claim                  paper
=====================  ====================================================================
``tvgpucb:eq-4``       Sec. 2, eqs. (3)–(4) and App. A, eq. (22): Cov[f_t, f_{t+j}] = (1 − ε)^{j/2} k
``tvgpucb:eq-7-8``     Sec. 3, eqs. (7)–(8) and App. A, eq. (23): the law of f_{t+1} given t data
``tvgpucb:eq-24-25``   App. B, eqs. (24)–(25): marginal likelihood of ε and its gradient
=====================  ====================================================================
"""

from __future__ import annotations

import json
import math
from typing import Any

import mpmath
import numpy as np
from scipy import optimize

from tvbo_verify.authoring import Comparison, Context, Evidence, Params, Statement, claim, exact_evidence
from tvbo_verify.bandits.environments.gpsample import MarkovGP
from tvbo_verify.gp import (
    fit_forgetting,
    markov_kalman_posterior,
    markov_kalman_posterior_mp,
    posterior,
    posterior_from_gram,
    posterior_full,
    tv_log_marginal_likelihood,
    tv_log_marginal_likelihood_grad,
    tv_log_marginal_likelihood_kron,
    tv_posterior,
    tv_posterior_mp,
)
from tvbo_verify.kernels import ForgettingKernel, SpatioTemporalKernel

from .instances import column, se_kernel

POSTERIOR_PARTS = ("space-time", "kalman", "static", "prior")


class PosteriorFormula:
    """Formula (7)–(8) at one test point, and the two misreadings of its forgetting factors."""

    @staticmethod
    def epsilon(p: Params) -> float:
        """ε of the part: the instance's ε, 0 for the static edge case, 1 for the prior edge case."""
        return {"static": 0.0, "prior": 1.0}.get(p["part"], p["epsilon"])

    @staticmethod
    def stated(p: Params, misreading: str | None = None) -> float:
        """(7) or (8) at ``x_star``: ``gp.tv_posterior``; with a misreading, the same conditioning with
        ``d_i = (1−ε)^{(t−i)/2}`` (``"index"``) or with ``D, d`` at the full exponent (``"full"``)."""
        kern, X, y, s2, eps = se_kernel(p), column(p["X"]), np.asarray(p["y"], float), p["noise_var"], \
            PosteriorFormula.epsilon(p)
        xs = column([p["x_star"]])
        if misreading is None:
            post = tv_posterior(kern, X, y, s2, xs, eps)
        else:
            t = X.shape[0]
            times = np.arange(1, t + 1, dtype=float)
            if misreading == "full":  # (1 − ε)^{lag} = (1 − ε')^{lag/2}, ε' = ε(2 − ε)
                forget = ForgettingKernel(eps * (2.0 - eps))
                d = forget.of_lag(t + 1 - times)
            else:
                forget = ForgettingKernel(eps)
                d = forget.of_lag(t - times)
            D = forget.of_lag(times[:, None] - times[None, :])
            post = posterior_from_gram(kern(X) * D, kern(X, xs) * d[:, None], kern.diag(xs), y, np.full(t, float(s2)))
        return float(post.mean[0] if p["quantity"] == "mean" else post.var[0])


class TimeVaryingPosterior(Statement):
    """The predictive law of f_{t+1} equals (7)–(8) at a test point (one of mean / variance)."""

    name = "TV posterior (7)–(8) = law of f_{t+1}; ε = 0 static, ε = 1 prior"
    sharpening = ("misread forgetting factors: d_i = (1 − ε)^{(t−i)/2} (index shifted by one, the law of f_t) "
                  "against the Kalman filter and the ε = 1 edge case; D_t, d_t with the full exponent "
                  "(1 − ε)^{|i−j|} against space–time conditioning")

    def measured(self, p: Params) -> float:
        """The law of f_{t+1}(x*) computed without (7)–(8)."""
        kern, X, y, s2 = se_kernel(p), column(p["X"]), np.asarray(p["y"], float), p["noise_var"]
        xs, t = column([p["x_star"]]), len(p["X"])
        part = p["part"]
        if part == "space-time":  # joint Gaussian of the space–time GP, time as the last input (eq. (23))
            st = SpatioTemporalKernel(kern, ForgettingKernel(p["epsilon"]), 1.0)
            Z = np.hstack([X, np.arange(1, t + 1, dtype=float)[:, None]])
            post = posterior_full(st, Z, y, s2, np.hstack([xs, [[t + 1.0]]]))
            mean, var = post.mean[0], post.var[0]
        elif part == "kalman":  # the recursion (3)–(4) itself, on the finite set {x_1..x_t, x*}
            post = markov_kalman_posterior(kern, X, y, s2, xs, p["epsilon"])
            mean, var = post.mean[0], post.var[0]
        elif part == "static":
            m, v = posterior(kern, X, y, s2, xs)
            mean, var = m[0], v[0]
        else:
            mean, var = 0.0, kern.diag(xs)[0]
        return float(mean if p["quantity"] == "mean" else var)

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        scale = max(1.0, float(np.max(np.abs(p["y"]))))
        misreading = ("full" if p["part"] == "space-time" else "index") if sharpened else None
        return Comparison(self.measured(p), PosteriorFormula.stated(p, misreading), "==", tol=1e-9 * scale,
                          scale=scale)

    def hp(self, p: Params) -> Comparison:
        """The model's law by the Kalman recursion against the formula, both at 50 digits."""
        args = (se_kernel(p), column(p["X"]), p["y"], p["noise_var"], column([p["x_star"]]),
                PosteriorFormula.epsilon(p))
        which = 0 if p["quantity"] == "mean" else 1
        scale = max(1, max(abs(mpmath.mpf(v)) for v in p["y"]))
        return Comparison(markov_kalman_posterior_mp(*args)[which], tv_posterior_mp(*args)[which], "==",
                          tol=mpmath.mpf("1e-9") * scale, scale=scale)

    def sample(self, rng: np.random.Generator) -> Params:
        t = int(rng.integers(1, 16))
        return {"part": POSTERIOR_PARTS[int(rng.integers(4))], "quantity": ("mean", "var")[int(rng.integers(2))],
                "X": rng.uniform(0, 1, t).tolist(), "y": rng.normal(0, 1, t).tolist(),
                "x_star": float(rng.uniform()), "lengthscale": 0.2,
                "noise_var": float(10 ** rng.uniform(-2, 0)), "epsilon": float(10 ** rng.uniform(-3, -0.1))}

    def describe(self, p: Params) -> dict[str, Any]:
        return {"part": p["part"], "quantity": p["quantity"], "t": len(p["X"]), "noise_var": p["noise_var"],
                "epsilon": PosteriorFormula.epsilon(p)}


EQ7_8 = TimeVaryingPosterior()


@claim("tvgpucb:eq-7-8")
def eq_7_8(ctx: Context) -> Evidence:
    """Eqs. (7)–(8), index-corrected: the predictive mean and variance of f_{t+1} given t observations. On random data,
    test point, σ² and ε the formula (``gp.tv_posterior``) must equal the same law computed without it: conditioning
    of the space–time GP of (23) (``gp.posterior_full``), a Kalman filter running (3)–(4)
    (``gp.markov_kalman_posterior``), the static posterior at ε = 0, the prior at ε = 1; Kalman referee in mpmath.
    Power: the misread factors d_i = (1 − ε)^{(t−i)/2} (index shifted) and (1 − ε)^{|i−j|} (full exponent) must be
    refuted. Reading: READING.md §tvgpucb:eq-7-8."""
    return exact_evidence(ctx, EQ7_8, n_random=ctx.pick(120, 600), n_starts=0, what="time-varying posterior (7)–(8)")


# ------------------------------------------------------------------------------------------- (22)
class MarkovCovariance(Statement):
    """Cov[f_t(x), f_{t+j}(x')] = (1 − ε)^{j/2} k(x, x') for the recursion (3)–(4)."""

    name = "Cov[f_t(x), f_{t+j}(x')] = (1 − ε)^{j/2} k(x, x') under (3)–(4)"
    sharpening = "covariance (22) misread with the full exponent (1 − ε)^j"
    plot_against = "epsilon"
    continuous = ("epsilon", "x", "x_prime")
    bounds = {"epsilon": (0.0, 1.0), "x": (0.0, 1.0), "x_prime": (0.0, 1.0)}

    @staticmethod
    def coefficients(t: int, epsilon: float) -> np.ndarray:
        """f_t = Σ_s a_s g_s: iterate f_1 = g_1 (3), f_{s+1} = √(1−ε) f_s + √ε g_{s+1} (4) on coefficient vectors."""
        a = np.zeros(t)
        a[0] = 1.0
        for s in range(1, t):
            a = np.sqrt(1.0 - epsilon) * a
            a[s] = np.sqrt(epsilon)
        return a

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        t, j, eps = int(p["t"]), int(p["j"]), p["epsilon"]
        a_t = np.pad(self.coefficients(t, eps), (0, j))
        a_tj = self.coefficients(t + j, eps)
        k = float(se_kernel(p)(column([p["x"]]), column([p["x_prime"]]))[0, 0])
        measured = float(a_t @ a_tj) * k  # the g_s are i.i.d. GP(0, k)
        stated = (1.0 - eps) ** (j if sharpened else j / 2.0) * k
        return Comparison(measured, stated, "==", tol=1e-12, scale=1.0)

    def hp(self, p: Params) -> Comparison:
        t, j, eps = int(p["t"]), int(p["j"]), mpmath.mpf(p["epsilon"])
        keep = mpmath.sqrt(1 - eps)

        def coefficients(n: int) -> list:
            a = [mpmath.mpf(1)] + [mpmath.mpf(0)] * (n - 1)
            for s in range(1, n):
                a = [keep * v for v in a]
                a[s] = mpmath.sqrt(eps)
            return a

        x, xp = mpmath.mpf(p["x"]), mpmath.mpf(p["x_prime"])
        k = mpmath.exp(-((x - xp) / mpmath.mpf(p.get("lengthscale", 0.2))) ** 2 / 2)
        measured = mpmath.fsum(u * v for u, v in zip(coefficients(t), coefficients(t + j))) * k
        return Comparison(measured, (1 - eps) ** (mpmath.mpf(j) / 2) * k, "==", tol=mpmath.mpf("1e-12"), scale=1)

    def sample(self, rng: np.random.Generator) -> Params:
        return {"t": int(rng.integers(1, 41)), "j": int(rng.integers(0, 21)), "epsilon": float(rng.uniform()),
                "x": float(rng.uniform()), "x_prime": float(rng.uniform()), "lengthscale": 0.2}

    def describe(self, p: Params) -> dict[str, Any]:
        return {"t": p["t"], "j": p["j"], "epsilon": p["epsilon"], "|x − x'|": abs(p["x"] - p["x_prime"])}


EQ4 = MarkovCovariance()


@claim("tvgpucb:eq-4")
def eq_4(ctx: Context) -> Evidence:
    """Eqs. (3)–(4) and App. A's (22): Cov[f_t(x), f_{t+j}(x')] = (1 − ε)^{j/2} k(x, x'). The recursion (read for all
    t ≥ 1) is propagated exactly on coefficient vectors, f_t = Σ_s a_{t,s} g_s with the g_s i.i.d. GP(0, k), so the
    covariance is (a_t · a_{t+j}) k(x, x'); it must equal (22) on random (t, j, ε, x, x'), with Nelder–Mead moving
    (ε, x, x') towards the worst margin and an mpmath referee. Power: the full exponent (1 − ε)^j must be refuted.
    Reading: READING.md §tvgpucb:eq-4."""
    return exact_evidence(ctx, EQ4, n_random=ctx.pick(200, 1000), n_starts=ctx.pick(2, 6),
                          what="Markov model covariance (22)")


# ------------------------------------------------------------------------------------ App. B (24)–(25)
class ForgettingLikelihood(Statement):
    """(25) is the ε-derivative of (24); the Kronecker form equals the dense (24); L-BFGS with (25) finds
    the maximiser of (24)."""

    name = "(25) = ∂(24)/∂ε; Kronecker (24) = dense (24); L-BFGS with (25) reaches argmax (24)"
    sharpening = ("the ½ of (25) dropped (twice the derivative); (24) without its −(n/2) log 2π; the ML "
                  "estimate equal to the true ε")
    plot_against = "epsilon"
    _memo: dict[str, tuple[float, float]] = {}

    @staticmethod
    def data(p: Params) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Observation locations, times and values (every entry of Y, or the listed ``keep`` entries)."""
        X, Y = column(p["X"]), np.asarray(p["Y"], float)
        S, n = Y.shape
        t = np.repeat(np.arange(1, S + 1, dtype=float), n)
        Xf, y = np.tile(X, (S, 1)), Y.ravel()
        keep = np.asarray(p.get("keep", np.arange(S * n)), int)
        return Xf[keep], t[keep], y[keep], Y

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        kern, s2, eps = se_kernel(p), p["noise_var"], p["epsilon"]
        X, t, y, Y = self.data(p)
        if p["part"] == "gradient":
            h = 1e-6 * max(eps, 1e-2)
            up = tv_log_marginal_likelihood(kern, X, t, y, s2, eps + h)
            down = tv_log_marginal_likelihood(kern, X, t, y, s2, eps - h)
            fd = (up - down) / (2 * h)
            # rounding of the central difference: each value carries a few ulps of |(24)|, divided by 2h
            rounding = 8 * np.finfo(float).eps * max(abs(up), abs(down)) / (2 * h)
            grad = tv_log_marginal_likelihood_grad(kern, X, t, y, s2, eps)
            return Comparison(grad, 2 * fd if sharpened else fd, "==", tol=1e-6 * abs(fd) + rounding, scale=abs(fd))
        if p["part"] == "kronecker":
            dense = tv_log_marginal_likelihood(kern, X, t, y, s2, eps)
            kron = tv_log_marginal_likelihood_kron(kern, column(p["X"]), Y, s2, eps)
            stated = dense + 0.5 * y.size * math.log(2 * math.pi) if sharpened else dense
            return Comparison(kron, stated, "==", tol=1e-9 * abs(dense), scale=abs(dense))
        fitted, best = self.maximisers(p)
        stated = p["epsilon"] if sharpened else best
        return Comparison(fitted, stated, "==", tol=1e-3 * abs(best), scale=abs(best))

    def maximisers(self, p: Params) -> tuple[float, float]:
        """(L-BFGS-B with (25), bounded scalar search on (24) alone), memoised per instance."""
        key = json.dumps(p, sort_keys=True)
        if key not in self._memo:
            kern, s2 = se_kernel(p), p["noise_var"]
            X, t, y, _ = self.data(p)
            best = optimize.minimize_scalar(lambda e: -tv_log_marginal_likelihood(kern, X, t, y, s2, e),
                                            bounds=(1e-6, 0.999), method="bounded", options={"xatol": 1e-10})
            self._memo[key] = (fit_forgetting(kern, X, t, y, s2), float(best.x))
        return self._memo[key]

    def sample(self, rng: np.random.Generator) -> Params:
        part = ("gradient", "kronecker", "ml")[int(rng.integers(3))]
        n, S = (6, 25) if part == "ml" else (int(rng.integers(2, 7)), int(rng.integers(3, 16)))
        true_eps = float(10 ** rng.uniform(-2, -1))
        s2 = float(10 ** rng.uniform(-2, -0.5))
        X = rng.uniform(0, 1, n)
        env = MarkovGP(epsilon=true_eps, kernel=se_kernel({}), grid=column(X), noise_var=s2)
        env.reset(rng, S)
        Y = []
        for s in range(S):
            if s:
                env.advance()
            Y.append(env.values() + math.sqrt(s2) * rng.standard_normal(n))
        p = {"part": part, "X": X.tolist(), "Y": np.asarray(Y).tolist(), "lengthscale": 0.2, "noise_var": s2,
             "true_epsilon": true_eps, "epsilon": true_eps if part == "ml" else float(10 ** rng.uniform(-3, -0.05))}
        if part == "gradient":  # scattered observations: a random subset of (time, location) pairs
            m = int(rng.integers(2, n * S + 1))
            p["keep"] = np.sort(rng.choice(n * S, m, replace=False)).tolist()
        return p

    def describe(self, p: Params) -> dict[str, Any]:
        Y = np.asarray(p["Y"])
        return {"part": p["part"], "locations": Y.shape[1], "times": Y.shape[0],
                "observations": len(p.get("keep", range(Y.size))), "noise_var": p["noise_var"],
                "epsilon": p["epsilon"], "true ε": p["true_epsilon"]}


EQ24_25 = ForgettingLikelihood()


@claim("tvgpucb:eq-24-25")
def eq_24_25(ctx: Context) -> Evidence:
    """App. B, Eqs. (24)–(25): the log marginal likelihood of ε and its gradient, on data simulated from the Markov
    model. (a) (25) must equal a central difference of (24) within its rounding; (b) on full space–time grids the
    Kronecker evaluation must equal the dense (24); (c) L-BFGS-B with (25) (``gp.fit_forgetting``) must reach the
    maximiser found by a gradient-free bounded search. No mpmath referee. Power: (25) without its ½, (24) without
    −(n/2) log 2π, and an ML estimate equal to the true ε must be refuted. Reading: READING.md §tvgpucb:eq-24-25."""
    return exact_evidence(ctx, EQ24_25, n_random=ctx.pick(24, 120), n_starts=0,
                          what="marginal likelihood of ε (24)–(25)")
