"""``bolt`` Sec. 3.4 and App. E: removing an observation and the acquisition function.

* ``bolt:assumption-3.9`` — GP-UCB ``α = μ + √β σ`` is ``√(1 + β)``-Lipschitz in ``(μ, σ)`` (eq. (10)),
  and the constant is attained.
* ``bolt:theorem-3.10`` — ``||α_D − α_{D∖i}||₂ <= L_T W₂(GP_D, GP_{D∖i})`` on any sub-box (eq. (11)).
* ``bolt:recommendation-2`` — the observation BOLT removes (``divergences.removal_criterion``, the online
  ``W₂`` of every candidate) is the one of smallest ``W₂`` (eq. (12)), i.e. the minimiser of the bound (11).

Instances: small random datasets of observations ``((x, t), y)`` with ``x ∈ [0, 1]²``, the separable kernel
``λ k_S k_T`` (Assumption 3.2), and quadrature nodes on a random sub-box of space and the time ahead.

Readings: READING.md §bolt:assumption-3.9, §bolt:theorem-3.10, §bolt:recommendation-2.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import mpmath
import numpy as np
from scipy import stats

from tvbo_verify import highprecision as rf
from tvbo_verify.authoring import Comparison, Context, Evidence, Params, Statement, claim, exact_evidence
from tvbo_verify.confidence import ucb_multiplier
from tvbo_verify.divergences import integrated_w2, removal_criterion
from tvbo_verify.gp import Posterior, posterior_full
from tvbo_verify.kernels import Matern, SpatioTemporalKernel, temporal_kernel
from tvbo_verify.nystrom import gram_mp

from .plotting import finish, new_axes

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def ucb(mean: Any, sd: Any, beta: float) -> Any:
    """GP-UCB ``g_T(μ, σ) = μ + √β σ`` (square-root convention, READING.md §3.1)."""
    return mean + ucb_multiplier(beta, "sqrt") * sd


# -------------------------------------------------------------------------------- Assumption 3.9
class LipschitzAcquisition(Statement):
    """``|g(u) − g(v)| <= √(1 + β) ||u − v||₂`` (part ``pair``) and equality along ``(1, √β)`` (``direction``)."""

    name = "|g_T(u) − g_T(v)| <= sqrt(1 + β) ||u − v||₂ for GP-UCB, attained along (1, sqrt β)"
    sharpening = "the Lipschitz constant read with the ℓ∞ norm of the gradient (1, √β): L_T = max(1, √β)"
    continuous = ("mu1", "s1", "mu2", "s2")
    bounds = {k: (-10.0, 10.0) for k in ("mu1", "s1", "mu2", "s2")}
    plot_against = "beta"

    @staticmethod
    def constant(beta: float, sharpened: bool) -> float:
        return max(1.0, math.sqrt(beta)) if sharpened else math.sqrt(1.0 + beta)

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        beta = p["beta"]
        L = self.constant(beta, sharpened)
        if p["part"] == "direction":  # u − v = s (1, √β): the ratio is the constant itself
            s = p["s1"]
            du, ds = s, s * math.sqrt(beta)
            ratio = abs(ucb(du, ds, beta) - ucb(0.0, 0.0, beta)) / math.hypot(du, ds)
            return Comparison(ratio, L, "==", tol=1e-12 * L, scale=math.sqrt(1.0 + beta))
        gap = abs(ucb(p["mu1"], p["s1"], beta) - ucb(p["mu2"], p["s2"], beta))
        dist = math.hypot(p["mu1"] - p["mu2"], p["s1"] - p["s2"])
        return Comparison(gap, L * dist, "<=")

    def hp(self, p: Params) -> Comparison:
        beta = mpmath.mpf(p["beta"])
        rb, L = mpmath.sqrt(beta), mpmath.sqrt(1 + beta)
        if p["part"] == "direction":
            return Comparison(abs(1 + beta) / mpmath.sqrt(1 + beta), L, "==", tol=mpmath.mpf("1e-12") * L, scale=L)
        mu1, s1, mu2, s2 = (mpmath.mpf(p[k]) for k in ("mu1", "s1", "mu2", "s2"))
        return Comparison(abs(mu1 - mu2 + rb * (s1 - s2)), L * mpmath.sqrt((mu1 - mu2) ** 2 + (s1 - s2) ** 2), "<=")

    def sample(self, rng: np.random.Generator) -> Params:
        part = ("pair", "pair", "direction")[int(rng.integers(3))]
        mu1, mu2 = rng.normal(0, 2, 2)
        s1, s2 = rng.uniform(0, 2, 2)
        return {"part": part, "beta": float(10 ** rng.uniform(-2, 2)), "mu1": float(mu1), "s1": float(s1),
                "mu2": float(mu2), "s2": float(s2)}


ASSUMPTION_39 = LipschitzAcquisition()


@claim("bolt:assumption-3.9")
def assumption_3_9(ctx: Context) -> Evidence:
    """Assumption 3.9, Eq. (10), for GP-UCB g_T(μ, σ) = μ + √β σ (``confidence.ucb_multiplier``, square-root
    convention): |g(u) − g(v)| must be at most √(1 + β) ||u − v||₂ on random pairs, with Nelder–Mead maximising the
    ratio, and along u − v ∝ (1, √β) the ratio must equal √(1 + β), the constant being attained. Breaks are refereed
    in mpmath. Power: the ℓ∞ reading max(1, √β) must be caught. Full reading: READING.md §bolt:assumption-3.9."""
    return exact_evidence(ctx, ASSUMPTION_39, n_random=ctx.pick(150, 600), n_starts=ctx.pick(3, 8),
                          what="Lipschitz GP-UCB (10)")


# ------------------------------------------------------------------------ removal of one point
class RemovalSetup:
    """A dataset, the separable kernel and the quadrature of a sub-box (``p`` of the removal statements)."""

    @staticmethod
    def kernel(p: Params) -> SpatioTemporalKernel:
        return SpatioTemporalKernel(Matern(2.5, 1.0, p["lS"]), temporal_kernel(p["kT"], p["lT"]), p["lam"])

    @staticmethod
    def data(p: Params) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(p["X"], float), np.asarray(p["y"], float)

    @staticmethod
    def nodes(p: Params) -> tuple[np.ndarray, np.ndarray]:
        """Midpoint product rule on ``S' × T'`` (equal cells in each coordinate), weights = cell volume."""
        (x0, x1), (y0, y1), (t0, t1) = p["box"]
        m = 4
        xs = x0 + (np.arange(m) + 0.5) * (x1 - x0) / m
        ys = y0 + (np.arange(m) + 0.5) * (y1 - y0) / m
        ts = t0 + (np.arange(m) + 0.5) * (t1 - t0) / m
        grid = np.array([[a, b, t] for a in xs for b in ys for t in ts])
        volume = (x1 - x0) * (y1 - y0) * (t1 - t0)
        return grid, np.full(len(grid), volume / len(grid))

    @classmethod
    def posteriors(cls, p: Params) -> tuple[Posterior, list[Posterior]]:
        """The posterior on the nodes with all observations and with each one removed (refits)."""
        k, (X, y), (nodes, _) = cls.kernel(p), cls.data(p), cls.nodes(p)
        full = posterior_full(k, X, y, p["noise"], nodes)
        parts = [posterior_full(k, np.delete(X, i, axis=0), np.delete(y, i), p["noise"], nodes) for i in range(len(y))]
        return full, parts

    @classmethod
    def refit_magnitude(cls, p: Params, full: Posterior | None = None) -> tuple[float, float]:
        """What a refitted ``W₂`` is a difference of, and how well: the posterior's integrated magnitude
        ``√(Σ w) · max(|μ_D|, σ_D)`` on the nodes and the condition number of ``λ K + σ₀² I``. A refit's ``W₂``
        carries a round-off of about eps · cond · magnitude, so a ``W₂`` far below it (an observation of
        negligible influence) is not resolved by refits to any relative accuracy. ``full``: the posterior with
        every observation, when already computed (:meth:`posteriors`)."""
        k, (X, y), (nodes, w) = cls.kernel(p), cls.data(p), cls.nodes(p)
        full = full if full is not None else posterior_full(k, X, y, p["noise"], nodes)
        magnitude = float(np.sqrt(w.sum()) * max(np.max(np.abs(full.mean)), np.sqrt(np.max(full.var))))
        return magnitude, float(np.linalg.cond(k(X) + p["noise"] * np.eye(len(X))))

    @classmethod
    def changes(cls, p: Params, posteriors: tuple[Posterior, list[Posterior]] | None = None
                ) -> list[dict[str, float]]:
        """For every ``i``: ``||α_D − α_{D∖i}||₂``, ``W₂`` and the mean part ``||μ_D − μ_{D∖i}||₂``
        (``posteriors``: those of :meth:`posteriors`, when already computed)."""
        full, parts = posteriors if posteriors is not None else cls.posteriors(p)
        _, w = cls.nodes(p)
        a_full = ucb(full.mean, np.sqrt(full.var), p["beta"])
        out = []
        for part in parts:
            da = a_full - ucb(part.mean, np.sqrt(part.var), p["beta"])
            out.append({"acquisition": float(np.sqrt(w @ (da * da))),
                        "w2": integrated_w2(full.mean, full.var, part.mean, part.var, w),
                        "mean_only": float(np.sqrt(w @ (full.mean - part.mean) ** 2))})
        return out

    @staticmethod
    def sample(rng: np.random.Generator) -> Params:
        n = int(rng.integers(6, 17))
        lT = float(rng.uniform(0.5, 3.0))
        t_now = float(rng.uniform(2.0, 10.0))
        X = np.column_stack([rng.uniform(0, 1, (n, 2)), np.sort(rng.uniform(0, t_now, n))])
        lo = rng.uniform(0, 0.6, 2)
        hi = lo + rng.uniform(0.2, 1.0 - lo)
        t0 = t_now + float(rng.uniform(0, 2.0)) * lT
        box = [[float(lo[0]), float(hi[0])], [float(lo[1]), float(hi[1])], [t0, t0 + float(rng.uniform(0.5, 3.0)) * lT]]
        scale = float(10 ** rng.uniform(-2, 0.5))
        return {"kT": ("matern12", "matern32", "matern52", "se")[int(rng.integers(4))], "lT": lT,
                "lS": float(rng.uniform(0.1, 1.0)), "lam": float(rng.uniform(0.5, 2.0)),
                "noise": float(10 ** rng.uniform(-3, -0.5)), "beta": float(10 ** rng.uniform(-1, 1.5)),
                "X": X.tolist(), "y": (scale * rng.standard_normal(n)).tolist(), "box": box}

    @staticmethod
    def describe(p: Params) -> dict[str, Any]:
        return {"n": len(p["y"]), "kT": p["kT"], "lT": p["lT"], "lS": p["lS"], "lam": p["lam"], "noise": p["noise"],
                "beta": p["beta"], "|y| max": float(np.max(np.abs(p["y"])))}

    @classmethod
    def posterior_mp(cls, p: Params, keep: list[int]) -> tuple[list[Any], list[Any]]:
        """Posterior means and standard deviations on the nodes from the observations ``keep``, in mpmath."""
        X, y = cls.data(p)
        nodes, _ = cls.nodes(p)
        k = cls.kernel(p)
        pts = np.vstack([X[keep], nodes])
        d = mpmath.mp.dps
        G = gram_mp(k.spatial, pts[:, :2], dps=d) * gram_mp(k.temporal, pts[:, 2:], dps=d) * mpmath.mpf(p["lam"])
        m = len(keep)
        K = rf.mpmat(G[:m, :m]) + rf.diag([mpmath.mpf(p["noise"])] * m)
        Ks = rf.mpmat(G[:m, m:])
        alpha = rf.solve(K, rf.mpmat([y[i] for i in keep]))
        V = rf.solve(K, Ks)
        means = [(Ks.column(g).T * alpha)[0, 0] for g in range(len(nodes))]
        sds = [mpmath.sqrt(max(G[m + g, m + g] - (Ks.column(g).T * V.column(g))[0, 0], 0)) for g in range(len(nodes))]
        return means, sds


# --------------------------------------------------------------------------------- Theorem 3.10
class RemovalAcquisitionBound(Statement):
    """(11) at the removed observation with the largest ratio ``||Δα||₂ / W₂``."""

    name = "||α_D − α_{D∖i}||₂ <= sqrt(1 + β) W₂(GP_D, GP_{D∖i}) on a sub-box, every i"
    sharpening = "W₂ read as the distance of the posterior means alone (the σ term of (86)–(87) missing)"
    plot_against = "beta"

    @staticmethod
    def worst(changes: list[dict[str, float]]) -> int:
        ratios = [c["acquisition"] / c["w2"] if c["w2"] > 0 else 0.0 for c in changes]
        return int(np.argmax(ratios))

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        changes = RemovalSetup.changes(p)
        c = changes[self.worst(changes)]
        L = math.sqrt(1.0 + p["beta"])
        return Comparison(c["acquisition"], L * (c["mean_only"] if sharpened else c["w2"]), "<=")

    def hp(self, p: Params) -> Comparison:
        i = self.worst(RemovalSetup.changes(p))
        n = len(p["y"])
        _, w = RemovalSetup.nodes(p)
        m_full, s_full = RemovalSetup.posterior_mp(p, list(range(n)))
        m_part, s_part = RemovalSetup.posterior_mp(p, [j for j in range(n) if j != i])
        rb = mpmath.sqrt(mpmath.mpf(p["beta"]))
        acq = mpmath.sqrt(mpmath.fsum(mpmath.mpf(w[g]) * (m_full[g] - m_part[g] + rb * (s_full[g] - s_part[g])) ** 2
                                      for g in range(len(w))))
        w2 = mpmath.sqrt(mpmath.fsum(mpmath.mpf(w[g]) * ((m_full[g] - m_part[g]) ** 2 + (s_full[g] - s_part[g]) ** 2)
                                     for g in range(len(w))))
        return Comparison(acq, mpmath.sqrt(1 + mpmath.mpf(p["beta"])) * w2, "<=")

    def sample(self, rng: np.random.Generator) -> Params:
        return RemovalSetup.sample(rng)

    def describe(self, p: Params) -> dict[str, Any]:
        return RemovalSetup.describe(p)


THEOREM_310 = RemovalAcquisitionBound()


@claim("bolt:theorem-3.10")
def theorem_3_10(ctx: Context) -> Evidence:
    """Theorem 3.10, Eq. (11): on random datasets under a separable kernel (Matérn-5/2 k_S) and a random sub-box S' ×
    T' of space and the time ahead, every observation i is removed in turn by exact refits, and ||α_D − α_{D∖i}||₂ of
    GP-UCB must be at most √(1 + β) W₂(GP_D, GP_{D∖i}) (``divergences.integrated_w2``, midpoint rule), shown at the i
    of largest ratio. Breaks are refereed by mpmath refits. Power: W₂ read as the distance of the means alone must be
    caught. The largest ratio to the bound is reported. Full reading: READING.md §bolt:theorem-3.10."""
    ev = exact_evidence(ctx, THEOREM_310, n_random=ctx.pick(25, 120), n_starts=0, what="removal bound (11)")
    ev.stats["largest_ratio_to_bound"] = max((1.0 - r.get("relative margin", 1.0) for r in ev.instances), default=None)
    return ev


# ---------------------------------------------------------------------------- Recommendation 2
class WassersteinRemoval(Statement):
    """BOLT's removal choice (``removal_criterion``, online downdates) has the smallest refitted ``W₂``."""

    name = "W₂ of the observation removal_criterion picks = min_i W₂(GP_D, GP_{D∖i}) by refits"
    sharpening = "W₂ read as the squared distance W₂² (a misread convention) at the minimiser"
    plot_against = "noise"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        X, y = RemovalSetup.data(p)
        nodes, w = RemovalSetup.nodes(p)
        i_star, w2_online = removal_criterion(RemovalSetup.kernel(p), X, y, p["noise"], nodes, w)
        full, parts = RemovalSetup.posteriors(p)
        refit = min(c["w2"] for c in RemovalSetup.changes(p, (full, parts)))
        stated = refit**2 if sharpened else refit
        # the refits' round-off, eps · cond · magnitude, as a relative error of W₂ itself: the amplification
        # cond · magnitude / W₂ (materiality of a sharpening stays relative to W₂)
        magnitude, cond = RemovalSetup.refit_magnitude(p, full)
        return Comparison(float(w2_online[i_star]), stated, "==", tol=1e-8 * max(refit, 1e-300),
                          cond=cond * max(1.0, magnitude / max(refit, 1e-300)), scale=refit)

    def hp(self, p: Params) -> Comparison:
        X, y = RemovalSetup.data(p)
        nodes, w = RemovalSetup.nodes(p)
        i_star, _ = removal_criterion(RemovalSetup.kernel(p), X, y, p["noise"], nodes, w)
        n = len(y)
        m_full, s_full = RemovalSetup.posterior_mp(p, list(range(n)))
        values = []
        for i in range(n):
            m_part, s_part = RemovalSetup.posterior_mp(p, [j for j in range(n) if j != i])
            values.append(mpmath.sqrt(mpmath.fsum(mpmath.mpf(w[g]) * ((m_full[g] - m_part[g]) ** 2
                                                                      + (s_full[g] - s_part[g]) ** 2)
                                                  for g in range(len(w)))))
        best = min(values)
        return Comparison(values[i_star], best, "==", tol=mpmath.mpf("1e-8") * best, scale=best)

    def sample(self, rng: np.random.Generator) -> Params:
        return RemovalSetup.sample(rng)

    def describe(self, p: Params) -> dict[str, Any]:
        return RemovalSetup.describe(p)


RECOMMENDATION_2 = WassersteinRemoval()


def removal_diagnostics(p: Params) -> dict[str, float]:
    """Spearman correlation of ``W₂`` with the actual ``||Δα||₂`` over the candidates, and ``||Δα||₂`` of the
    W₂ choice, of the oldest observation and of the best possible removal."""
    changes = RemovalSetup.changes(p)
    acq = np.array([c["acquisition"] for c in changes])
    w2 = np.array([c["w2"] for c in changes])
    oldest = int(np.argmin(np.asarray(p["X"])[:, 2]))
    rho = stats.spearmanr(w2, acq).statistic if np.ptp(w2) > 0 and np.ptp(acq) > 0 else float("nan")
    return {"spearman": float(rho), "w2_choice": float(acq[int(np.argmin(w2))]), "oldest": float(acq[oldest]),
            "best": float(acq.min())}


@claim("bolt:recommendation-2")
def recommendation_2(ctx: Context) -> Evidence:
    """Recommendation 2, Eq. (12): on the instances of ``bolt:theorem-3.10``, the observation BOLT's online criterion
    removes (``divergences.removal_criterion``, Schur downdates of one factorisation) must have the smallest W₂ over
    exact refits of every candidate, up to the refits' round-off; it then minimises the bound (11). Breaks are
    refereed by mpmath refits. Power: the squared convention W₂² must be caught. Reported, not asserted: the Spearman
    correlation of W₂ with the actual ||Δα||₂, and the W₂ choice against oldest-first removal. Full reading:
    READING.md §bolt:recommendation-2."""
    ev = exact_evidence(ctx, RECOMMENDATION_2, n_random=ctx.pick(20, 100), n_starts=0, what="Wasserstein removal (12)")
    diag = [removal_diagnostics(RemovalSetup.sample(rng)) for rng in ctx.spawn(ctx.pick(10, 50))]
    rho = np.array([d["spearman"] for d in diag])
    ev.stats["spearman_w2_vs_acquisition_change"] = {"median": float(np.nanmedian(rho)), "min": float(np.nanmin(rho)),
                                                     "datasets": len(diag)}
    ev.stats["w2_choice_beats_oldest_first"] = int(sum(d["w2_choice"] <= d["oldest"] for d in diag))
    ev.stats["w2_choice_is_best_removal"] = int(sum(d["w2_choice"] <= d["best"] * (1 + 1e-12) for d in diag))
    ev.figures.append(("W₂ choice against oldest-first removal", lambda: removal_figure(diag)))
    return ev


def removal_figure(diag: list[dict[str, float]]) -> Figure:
    """``||Δα||₂`` of the W₂ choice against that of removing the oldest observation, one point per dataset."""
    fig, ax = new_axes()
    w2c = np.array([d["w2_choice"] for d in diag])
    old = np.array([d["oldest"] for d in diag])
    best = np.array([d["best"] for d in diag])
    ax.scatter(old, w2c, s=14, label="W₂ choice (Rec. 2)")
    ax.scatter(old, best, s=10, marker="x", color="0.4", label="best possible removal")
    lo, hi = float(min(old.min(), w2c.min(), best.min())), float(max(old.max(), w2c.max()))
    ax.plot([lo, hi], [lo, hi], "k:", lw=0.8, label="equal change")
    ax.set_xscale("log")
    ax.set_yscale("log")
    finish(ax, xlabel="||Δα||₂ removing the oldest observation", ylabel="||Δα||₂ of the chosen removal", xlim=(lo, hi))
    return fig
