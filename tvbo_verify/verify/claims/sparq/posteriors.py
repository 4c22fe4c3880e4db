"""``sparq`` §2.1, §3 and App. 0.B.1: heteroscedastic, sparse and variational GP posteriors.

====================  ==================================================================================
claim                 paper
====================  ==================================================================================
``eq-11-17``          eqs. (11)–(12) and (16)–(17): heteroscedastic posterior (full and sparse data set)
``proposition-1``     Proposition 1, eq. (14): KL-closeness of an approximate GP posterior to the full one
``proposition-5``     Proposition 5, eqs. (34)–(35), (42): heteroscedastic Titsias evidence lower bound
====================  ==================================================================================
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np

from ....gp import posterior
from ....kernels import SquaredExponential
from ....nystrom import gram_mp
from ... import referee as rf
from ...builders import exact_evidence
from ...comparison import Comparison
from ...engine import Context
from ...evidence import Evidence
from ...registry import claim
from ...statement import Params, Statement


class GpInstance:
    """A 1-D data set ``(X, y, Σ)``, an SE kernel and a test point ``x``, in float64 and in mpmath."""

    @staticmethod
    def kernel(p: Params) -> SquaredExponential:
        return SquaredExponential(p["signal_variance"], p["lengthscale"])

    @staticmethod
    def arrays(p: Params) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        X = np.asarray(p["X"], float).reshape(-1, 1)
        return X, np.asarray(p["y"], float), np.asarray(p["noise"], float), np.array([[float(p["x"])]])

    @classmethod
    def mean_var(cls, p: Params, noise: np.ndarray | None = None,
                 keep: np.ndarray | None = None) -> tuple[float, float]:
        X, y, s, x = cls.arrays(p)
        s = s if noise is None else noise
        if keep is not None:
            X, y, s = X[keep], y[keep], s[keep]
        m, v = posterior(cls.kernel(p), X, y, s, x)
        return float(m[0]), float(v[0])

    @classmethod
    def mean_var_mp(cls, p: Params, noise: list[Any] | None = None, keep: list[int] | None = None) -> tuple[Any, Any]:
        X, y, s, x = cls.arrays(p)
        idx = list(range(X.shape[0])) if keep is None else list(keep)
        kern = cls.kernel(p)
        dps = mpmath.mp.dps
        K = rf.mpmat(gram_mp(kern, X[idx], dps=dps)) if idx else mpmath.matrix(0, 0)
        ks = rf.mpmat(gram_mp(kern, X[idx], x, dps=dps)) if idx else mpmath.matrix(0, 1)
        nz = [mpmath.mpf(v) for v in s] if noise is None else noise
        return rf.posterior_mean_var(K, ks, mpmath.mpf(p["signal_variance"]), [mpmath.mpf(y[i]) for i in idx],
                                     [nz[i] for i in idx])

    @classmethod
    def reference(cls, p: Params, noise: np.ndarray) -> tuple[float, float]:
        """scikit-learn's GaussianProcessRegressor (fixed hyperparameters, per-sample ``alpha``).

        scikit-learn is a base dependency for this independent reference; it is imported here, on
        first use, because importing it takes about a second."""
        from sklearn.gaussian_process import GaussianProcessRegressor
        from sklearn.gaussian_process.kernels import RBF, ConstantKernel

        X, y, _, x = cls.arrays(p)
        kern = ConstantKernel(p["signal_variance"], "fixed") * RBF(p["lengthscale"], "fixed")
        gp = GaussianProcessRegressor(kern, alpha=noise, optimizer=None, normalize_y=False).fit(X, y)
        m, sd = gp.predict(x, return_std=True)
        return float(m[0]), float(sd[0] ** 2)


class HeteroscedasticPosterior(Statement):
    """Properties of (11)–(12)/(16)–(17), one per instance ``part``."""

    name = "heteroscedastic posterior: 0 <= σ² <= k(x,x), = reference GP, monotone in Σ_ii, Σ_ii → ∞ = deletion"
    sharpening = ("misreadings on the same measurements: (K+Σ)⁻¹ replaced by its diagonal (upper bound and "
                  "monotonicity), the noise standard deviation passed where the variance belongs (reference)")
    plot_against = "n"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        X, y, s, x = GpInstance.arrays(p)
        kern = GpInstance.kernel(p)
        kxx = p["signal_variance"]
        kx = kern(X, x)[:, 0]
        single = kx**2 / (p["signal_variance"] + s)  # each point's own variance reduction
        m, v = GpInstance.mean_var(p)
        part = p["part"]
        if part == "upper":
            return Comparison(v, kxx - float(np.sum(single)) if sharpened else kxx, "<=", scale=kxx)
        if part == "lower":
            return Comparison(v, 0.0, ">=", scale=kxx)
        if part in ("reference-var", "reference-mean"):
            rm, rv = GpInstance.reference(p, np.sqrt(s) if sharpened else s)
            value, ref = (v, rv) if part == "reference-var" else (m, rm)
            scale = kxx if part == "reference-var" else max(1.0, float(np.max(np.abs(y))))
            return Comparison(value, ref, "==", tol=1e-8 * scale, scale=scale)
        i = int(p["i"])
        if part == "monotone":
            s2 = s.copy()
            s2[i] *= p["factor"]
            _, v2 = GpInstance.mean_var(p, noise=s2)
            gain = kx[i] ** 2 / (kxx + s[i]) - kx[i] ** 2 / (kxx + s2[i])
            return Comparison(v2, v + gain if sharpened else v, ">=", scale=kxx)
        # deletion: Σ_ii = 1e12 k(x,x) against the posterior without point i
        s2 = s.copy()
        s2[i] = 1e12 * kxx
        _, v_big = GpInstance.mean_var(p, noise=s2)
        _, v_del = GpInstance.mean_var(p, keep=np.delete(np.arange(len(s)), i))
        return Comparison(v_big, v_del, "==", tol=1e-9 * kxx, scale=kxx)

    def hp(self, p: Params) -> Comparison:
        part = p["part"]
        kxx = mpmath.mpf(p["signal_variance"])
        m, v = GpInstance.mean_var_mp(p)
        if part == "upper":
            return Comparison(v, kxx, "<=", scale=kxx)
        if part == "lower":
            return Comparison(v, 0, ">=", scale=kxx)
        if part.startswith("reference"):
            value = v if part == "reference-var" else m
            return Comparison(value, value, "==", tol=mpmath.mpf("1e-8") * kxx, scale=kxx)
        i = int(p["i"])
        s = [mpmath.mpf(v_) for v_ in p["noise"]]
        if part == "monotone":
            s2 = list(s)
            s2[i] *= mpmath.mpf(p["factor"])
            return Comparison(GpInstance.mean_var_mp(p, noise=s2)[1], v, ">=", scale=kxx)
        s2 = list(s)
        s2[i] = mpmath.mpf(10) ** 12 * kxx
        keep = [j for j in range(len(s)) if j != i]
        return Comparison(GpInstance.mean_var_mp(p, noise=s2)[1], GpInstance.mean_var_mp(p, keep=keep)[1], "==",
                          tol=mpmath.mpf("1e-9") * kxx, scale=kxx)

    def sample(self, rng: np.random.Generator) -> Params:
        n = int(rng.integers(1, 13))
        if rng.random() < 0.5:  # clustered inputs, as a bandit run produces
            X = rng.choice(rng.uniform(0, 10, int(rng.integers(1, 4))), n) + rng.normal(0, 0.05, n)
        else:
            X = rng.uniform(0, 10, n)
        s2 = 10 ** rng.uniform(-3, -1)
        if rng.random() < 0.5:  # a SparQ sparse set: expert answers (σ̄²) and recent points σ²((t−i)²+1)
            ages = rng.integers(0, 4, n)
            noise = np.where(rng.random(n) < 0.6, s2 * 10 ** rng.uniform(0, 1), s2 * (ages**2 + 1.0))
        else:
            noise = s2 * 10 ** rng.uniform(0, 2, n)
        parts = ("upper", "lower", "reference-var", "reference-mean", "monotone", "deletion")
        return {"part": parts[int(rng.integers(len(parts)))], "n": n, "X": X.tolist(),
                "y": rng.normal(0, 1, n).tolist(), "noise": noise.tolist(),
                "signal_variance": float(rng.uniform(0.2, 2.0)), "lengthscale": float(rng.uniform(0.3, 3.0)),
                "x": float(X[int(rng.integers(n))] + rng.normal(0, 0.5) if rng.random() < 0.7 else rng.uniform(0, 10)),
                "i": int(rng.integers(n)), "factor": float(10 ** rng.uniform(0.01, 3))}

    def describe(self, p: Params) -> dict[str, Any]:
        return {"part": p["part"], "n": p["n"], "x": p["x"], "min noise": min(p["noise"]), "max noise": max(p["noise"])}


HETEROSCEDASTIC = HeteroscedasticPosterior()


@claim("sparq:eq-11-17")
def eq_11_17(ctx: Context) -> Evidence:
    """The exact heteroscedastic posterior of ``gp.posterior`` (the one SparQ fits on its sparse set,
    (16)–(17) being (11)–(12) on (X^s, Y^s, Σ^s)) on random 1-D data sets of 1–12 points (clustered or
    uniform), SE with M_k² ∈ [0.2, 2], ℓ ∈ [0.3, 3], and noise either random in [σ², 100σ²] or SparQ's
    pattern (expert answers σ̄², recent points σ²((t−i)²+1)). Each instance checks one property: 0 <=
    σ²_t(x) <= k(x,x); mean and variance equal scikit-learn's GaussianProcessRegressor with per-sample
    alpha = Σ_ii (to 1e-8); raising one Σ_ii never lowers σ²_t(x); Σ_ii = 1e12 k(x,x) gives the posterior
    without point i (to 1e-9). Breaks are refereed by the mpmath posterior. Power: three misreadings
    must be caught — (K+Σ)⁻¹ replaced by its diagonal in the variance bound and in the monotonicity
    (each point's own reduction k(x,x_i)²/(k_ii+Σ_ii)), and noise standard deviations passed as alpha."""
    return exact_evidence(ctx, HETEROSCEDASTIC, n_random=ctx.pick(90, 400), n_starts=0,
                          what="heteroscedastic posterior (11)-(12), (16)-(17)")


# ---------------------------------------------------------------------------------- Proposition 1
class PosteriorCloseness(Statement):
    """(14) pointwise on a grid for the full posterior P and a subset-of-data posterior Q."""

    name = "2 KL_x[Q ‖ P] <= η <= 1/5 ⇒ (14) at every grid point (full vs subset-of-data GP posterior)"
    sharpening = "hypothesis read as KL <= η (no factor 2): mean bound σ_p √(η/2)"
    plot_against = "n"
    PARTS = ("mean", "scale", "variance")

    @staticmethod
    def marginals(p: Params) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        kern = SquaredExponential(p["signal_variance"], p["lengthscale"])
        X = np.asarray(p["X"], float)[:, None]
        y, s = np.asarray(p["y"], float), np.asarray(p["noise"], float)
        grid = np.linspace(0.0, 10.0, 41)[:, None]
        S = np.asarray(p["subset"], int)
        mp_, vp = posterior(kern, X, y, s, grid)
        mq, vq = posterior(kern, X[S], y[S], s[S], grid)
        return mp_, vp, mq, vq

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        from ....divergences import gaussian_kl_1d

        mp_, vp, mq, vq = self.marginals(p)
        two_kl = 2 * gaussian_kl_1d(mq, vq, mp_, vp)
        ok = np.flatnonzero(two_kl <= 0.2)
        if ok.size == 0:
            raise ValueError("no grid point satisfies 2 KL <= 1/5")
        eta = np.maximum(two_kl[ok] + float(p["s"]) * (0.2 - two_kl[ok]), 1e-300)
        mean_gap = np.abs(mp_[ok] - mq[ok])
        bound_p = np.sqrt(vp[ok] * eta)
        if p["part"] == "mean":  # the worst grid point of the statement (the same point for its sharpening)
            i = int(np.argmin((bound_p - mean_gap) / np.maximum(bound_p, 1e-300)))
            stated = np.sqrt(vp[ok] * eta / 2) if sharpened else bound_p
            return Comparison(float(mean_gap[i]), float(stated[i]), "<=", scale=float(bound_p[i]))
        if p["part"] == "scale":
            bound_q = np.sqrt(vq[ok] * eta) / np.sqrt(1 - np.sqrt(3 * eta))
            i = int(np.argmin((bound_q - bound_p) / bound_q))
            return Comparison(float(bound_p[i]), float(bound_q[i]), "<=")
        gap = np.abs(1 - vq[ok] / vp[ok])
        i = int(np.argmin(np.sqrt(3 * eta) - gap))
        return Comparison(float(gap[i]), float(np.sqrt(3 * eta[i])), "<=")

    def sample(self, rng: np.random.Generator) -> Params:
        n = int(rng.integers(2, 16))
        if rng.random() < 0.5:
            X = rng.choice(rng.uniform(0, 10, int(rng.integers(1, 4))), n) + rng.normal(0, 0.1, n)
        else:
            X = rng.uniform(0, 10, n)
        m = int(rng.integers(1, n))
        return {"part": self.PARTS[int(rng.integers(3))], "n": n, "X": X.tolist(), "y": rng.normal(0, 1, n).tolist(),
                "noise": (10 ** rng.uniform(-2, 0, n)).tolist(),
                "subset": sorted(rng.choice(n, m, replace=False).tolist()),
                "signal_variance": 1.0, "lengthscale": float(rng.uniform(0.5, 3.0)),
                "s": float(rng.choice([0.0, rng.uniform()]))}

    def describe(self, p: Params) -> dict[str, Any]:
        return {"part": p["part"], "n": p["n"], "subset size": len(p["subset"]), "s": p["s"]}


POSTERIOR_CLOSENESS = PosteriorCloseness()


@claim("sparq:proposition-1")
def proposition_1(ctx: Context) -> Evidence:
    """Proposition 1 in its GP form (catalog §4.1 Prop. 1/3 (b)): random 1-D data sets (2–15 points,
    clustered or uniform, heteroscedastic noise), P the exact posterior (``gp.posterior``) and Q the exact
    posterior on a random subset (what SparQ computes); on a 41-point grid of [0, 10] every point with
    marginal 2 KL[Q_x ‖ P_x] <= 1/5 (``divergences.gaussian_kl_1d``) is tested with η between 2 KL_x and
    1/5: |μ_1 − μ_0| <= σ_0√η, σ_0√η <= σ_1√η/√(1 − √(3η)) and |1 − σ_1²/σ_0²| <= √(3η); the worst grid
    point of each instance is kept. The marginal KL is a lower bound on the process KL, so the
    inequalities must hold wherever the process hypothesis does. Power: the factor-2 convention
    misread (KL <= η, mean bound σ_0√(η/2)) must be caught."""
    return exact_evidence(ctx, POSTERIOR_CLOSENESS, n_random=ctx.pick(60, 300), n_starts=0,
                          what="KL-closeness bounds (14) for GP posteriors")


# ---------------------------------------------------------------------------------- Proposition 5
class TitsiasBound(Statement):
    """(35) and (42) of Proposition 5, one property per instance ``part``."""

    name = "L(X*) <= log N(y|0,Σ+K) (= at X* = X), nested monotone, = explicit ELBO, (42) >= 0"
    sharpening = ("the DTC evidence log N(y|0, Σ+Q) read as the lower bound (trace term of (35) dropped), "
                  "and (42) without its trace term")
    plot_against = "m"

    @staticmethod
    def data(p: Params) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        kern = SquaredExponential(1.0, p["lengthscale"])
        X = np.asarray(p["X"], float)[:, None]
        return kern(X), np.asarray(p["y"], float), np.asarray(p["noise"], float), np.asarray(p["S"], int)

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        from ....divergences import titsias_elbo, titsias_kl
        from ....nystrom import residual_diagonal

        K, y, noise, S = self.data(p)
        elbo = titsias_elbo(K, y, noise, S)
        C = K + np.diag(noise)
        logml = float(-0.5 * (y @ np.linalg.solve(C, y) + np.linalg.slogdet(C)[1] + y.size * np.log(2 * np.pi)))
        trace_term = 0.5 * float(np.sum(residual_diagonal(K, S) / noise))
        part = p["part"]
        if part == "bound":
            return Comparison(elbo, logml - trace_term if sharpened else logml, "<=", scale=abs(logml))
        if part == "full":
            full = titsias_elbo(K, y, noise, np.arange(y.size))
            return Comparison(full, logml, "==", tol=1e-8 * abs(logml), scale=abs(logml))
        if part == "nested":
            bigger = np.union1d(S, [int(p["j"])])
            return Comparison(titsias_elbo(K, y, noise, bigger), elbo, ">=", scale=abs(elbo))
        if part == "explicit":  # the ELBO written out with the optimal q(u), evaluated at 50 digits
            X = np.asarray(p["X"], float)[:, None]
            with mpmath.workdps(50):
                Kmp = rf.mpmat(gram_mp(SquaredExponential(1.0, p["lengthscale"]), X, dps=50))
                ref = float(rf.explicit_titsias_elbo(Kmp, [mpmath.mpf(v) for v in y],
                                                     [mpmath.mpf(v) for v in noise], list(S)))
            return Comparison(elbo, ref, "==", tol=1e-7 * abs(elbo), scale=abs(elbo))
        kl = titsias_kl(K, y, noise, S)
        return Comparison(kl, trace_term if sharpened else 0.0, ">=", scale=max(abs(logml), 1.0))

    def sample(self, rng: np.random.Generator) -> Params:
        parts = ("bound", "full", "nested", "explicit", "kl")
        part = parts[int(rng.integers(len(parts)))]
        n = int(rng.integers(3, 13 if part == "explicit" else 41))  # the explicit ELBO runs in mpmath
        X = rng.uniform(0, 10, n)
        m = int(rng.integers(1, n))
        return {"part": part, "n": n, "m": m, "X": X.tolist(),
                "y": rng.normal(0, 1, n).tolist(), "noise": (10 ** rng.uniform(-2, 0, n)).tolist(),
                "S": sorted(rng.choice(n, m, replace=False).tolist()), "j": int(rng.integers(n)),
                "lengthscale": float(rng.uniform(0.5, 2.0))}

    def describe(self, p: Params) -> dict[str, Any]:
        return {"part": p["part"], "n": p["n"], "m": p["m"]}


TITSIAS_BOUND = TitsiasBound()


@claim("sparq:proposition-5")
def proposition_5(ctx: Context) -> Evidence:
    """Random 1-D data sets (3–40 points, SE ℓ ∈ [0.5, 2], heteroscedastic diagonal Σ with entries in
    [0.01, 1]) and random inducing subsets X*: the collapsed bound L(X*) of ``divergences.titsias_elbo``
    (35) must satisfy (a) L <= log N(y|0, Σ+K); (b) L = log N(y|0, Σ+K) when X* = X (to 1e-8); (c) adding an
    inducing point never lowers L; (d) L equals the ELBO written out with the optimal q(u) = N(m, S)
    (to 1e-7; the explicit ELBO is evaluated at 50 digits by ``referee.explicit_titsias_elbo``, since K_uu
    is ill-conditioned in float64 for many inducing points); (e) the KL of (42) (``divergences.titsias_kl``)
    is >= 0. Power: two classic misreadings
    must be caught — the DTC evidence log N(y|0, Σ+Q) (trace term dropped) taken as the lower bound, and
    (42) >= its trace term (the likelihood ratio alone taken as non-negative)."""
    return exact_evidence(ctx, TITSIAS_BOUND, n_random=ctx.pick(80, 400), n_starts=0,
                          what="heteroscedastic Titsias bound (35), (42)")
