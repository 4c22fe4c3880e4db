"""``sparq`` Sec. 2.1, Sec. 3 and App. 0.B.1: heteroscedastic, sparse and variational GP posteriors.

====================  ==================================================================================
claim                 paper
====================  ==================================================================================
``eq-11-17``          eqs. (11)–(12) and (16)–(17): heteroscedastic posterior (full and sparse data set)
``proposition-1``     Proposition 1, eq. (14): KL-closeness of an approximate GP posterior to the full one
``proposition-5``     Proposition 5, eqs. (34)–(35), (42): heteroscedastic Titsias evidence lower bound
====================  ==================================================================================

Readings: READING.md §sparq:eq-11-17; §sparq:proposition-1; §sparq:proposition-5; §2.3; §3.5.
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np

from tvbo_verify import highprecision as rf
from tvbo_verify.authoring import Comparison, Context, Evidence, Params, Statement, claim, exact_evidence
from tvbo_verify.gp import posterior
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.nystrom import gram_mp


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
    """Eqs. (11)–(12) and (16)–(17), the heteroscedastic posterior SparQ fits (``gp.posterior``), on random 1-D data
    sets (clustered or uniform) with noise either random or in SparQ's pattern
    (σ̄² on expert answers, injected variances on recent points), one property per instance: 0 <= σ²_t(x) <= k(x,x);
    agreement with scikit-learn's GaussianProcessRegressor given per-sample alpha; raising one Σ_ii never lowers
    σ²_t(x); a huge Σ_ii equals deleting the point. Breaks refereed in mpmath. Power: (K+Σ)⁻¹ replaced by its diagonal,
    and standard deviations passed as alpha, must be caught. Full reading: READING.md §sparq:eq-11-17."""
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
        from tvbo_verify.divergences import gaussian_kl_1d

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
    """Proposition 1, eq. (14), in SparQ's GP setting: P the exact posterior of a random 1-D heteroscedastic data set,
    Q the exact posterior on a random subset. At every grid point where the marginal 2 KL[Q_x ‖ P_x] <= 1/5, with η
    between 2 KL_x and 1/5, the inequalities of (14) must hold; the worst point decides. The marginal KL is at most
    the process KL, so this covers the printed hypothesis. Power: KL <= η (no factor 2) must be caught. Full reading:
    READING.md §sparq:proposition-1."""
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
        from tvbo_verify.divergences import titsias_elbo, titsias_kl
        from tvbo_verify.nystrom import residual_diagonal

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
    """Proposition 5, eqs. (35) and (42), the heteroscedastic Titsias bound
    (``divergences.titsias_elbo``, ``titsias_kl``), on random 1-D data sets with random diagonal noise and random
    inducing subsets X*: (a) L(X*) <= log N(y|0, Σ+K); (b) equality at X* = X; (c) adding an inducing point never
    lowers L; (d) L equals the ELBO written out with the optimal q(u), evaluated in mpmath; (e) (42) >= 0. Power:
    the DTC evidence taken as the bound, and (42) >= its trace term, must be caught. Full reading: READING.md
    §sparq:proposition-5."""
    return exact_evidence(ctx, TITSIAS_BOUND, n_random=ctx.pick(80, 400), n_starts=0,
                          what="heteroscedastic Titsias bound (35), (42)")
