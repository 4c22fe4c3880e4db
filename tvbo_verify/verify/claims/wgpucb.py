"""Claim checks for ``wgpucb`` (WGP-UCB; catalog ``spec/wgpucb.md``, recipes of §3 and §5)."""

from __future__ import annotations

import itertools
import math
from typing import Any

import mpmath
import numpy as np

from ..engine import Context
from ..evidence import Evidence
from ..registry import claim
from ..search import Statement, exact_evidence, replay_statement


def _kernel(p: dict[str, Any]):
    from ...kernels import SquaredExponential

    return SquaredExponential(1.0, p["lengthscale"])


def _grid(p: dict[str, Any]) -> np.ndarray:
    return np.linspace(0.0, 1.0, int(p["n"]))[:, None]


def grid_mercer(K: np.ndarray) -> tuple[np.ndarray, float]:
    """Mercer eigenvalues ``c_m = Λ_mm / n`` and ``ψ = max |φ_m(x_i)|`` with ``φ_m(x_i) = √n U_im`` for
    the uniform measure on a grid (``wgpucb.md`` §5.1); eigenvalues below 1e-12 λ_max are dropped."""
    n = K.shape[0]
    w, U = np.linalg.eigh(K)
    keep = w > 1e-12 * w[-1]
    c = w[keep][::-1] / n
    psi = float(math.sqrt(n) * np.max(np.abs(U[:, keep])))
    return c, psi


# ------------------------------------------------------------------------------------ Theorem 6
def _t6_rhs(p: dict[str, Any], scale: float = 1.0) -> tuple[float, int]:
    from ...theory.rates import eigen_tail, wgpucb_theorem6

    c, psi = grid_mercer(_kernel(p)(_grid(p)))
    vals = [(wgpucb_theorem6(int(p["T"]), N, eigen_tail(c, psi, N), lam=p["lam"], kbar=1.0) * scale, N)
            for N in range(1, c.size + 1)]
    return min(vals)


def _t6_lhs(p: dict[str, Any]) -> tuple[float, list[int]]:
    """Largest γ̄_T found: exact (every ordered sequence) on tiny instances, the greedy value otherwise."""
    from ...information import max_weighted_information_gain, weighted_information_gain

    X, T = _grid(p), int(p["T"])
    if p["part"] == "exact":
        best, arg = -math.inf, ()
        for seq in itertools.product(range(len(X)), repeat=T):
            v = weighted_information_gain(_kernel(p), X[list(seq)], p["lam"], p["disc"], "bar")
            if v > best:
                best, arg = v, seq
        return best, list(arg)
    g = max_weighted_information_gain(_kernel(p), X, T, p["lam"], p["disc"], "bar")
    return g.lower, [int(i) for i in g.points]


def _t6_eval(p: dict[str, Any]) -> tuple[float, float]:
    return _t6_lhs(p)[0], _t6_rhs(p)[0]


def _hp_gain_and_mercer(p: dict[str, Any], seq: list[int], power: Any) -> tuple[Any, list[Any], Any]:
    """In mpmath: the weighted gain ½ log det(I + λ⁻¹ S K S) of the sequence ``seq`` with slot scales
    ``γ^{(T-1-j)·power}``, the Mercer weights ``c`` of the grid Gram (eigenvalues / n, by ``mpmath.eigsy``)
    and the eigenfunction bound ``ψ`` (Theorems 6-7)."""
    from ...nystrom import gram_mp

    X, T = _grid(p), int(p["T"])
    G = gram_mp(_kernel(p), X[seq], dps=mpmath.mp.dps)
    lam, g = mpmath.mpf(p["lam"]), mpmath.mpf(p["disc"])
    s = [g ** ((T - 1 - j) * power) for j in range(T)]
    M = mpmath.matrix([[s[i] * G[i, j] * s[j] / lam + (1 if i == j else 0) for j in range(T)] for i in range(T)])
    lhs = mpmath.log(mpmath.det(M)) / 2
    Kg = gram_mp(_kernel(p), X, dps=mpmath.mp.dps)
    n = len(X)
    w, U = mpmath.eigsy(mpmath.matrix([[Kg[i, j] for j in range(n)] for i in range(n)]))
    order = sorted(range(n), key=lambda i: -w[i])
    keep = [i for i in order if w[i] > mpmath.mpf("1e-12") * w[order[0]]]
    c = [w[i] / n for i in keep]
    psi = mpmath.sqrt(n) * max(abs(U[r, i]) for r in range(n) for i in keep)
    return lhs, c, psi


def _t6_hp(p: dict[str, Any]):
    T = int(p["T"])
    lhs, c, psi = _hp_gain_and_mercer(p, _t6_lhs(p)[1], 1)  # double weighting: scales γ^{t-s}
    lam, Tm = mpmath.mpf(p["lam"]), mpmath.mpf(T)
    rhs = min(mpmath.mpf(N) / 2 * mpmath.log(1 + Tm / (lam * N)) + Tm * psi**2 * mpmath.fsum(c[N:]) / (2 * lam)
              for N in range(1, len(c) + 1))
    return lhs, rhs


def _t6_sample(rng: np.random.Generator) -> dict[str, Any]:
    base = {"lengthscale": float(rng.uniform(0.1, 0.5)), "lam": float(10 ** rng.uniform(-1, 0.5)),
            "disc": float(rng.choice([0.8, 0.9, 0.95, 0.99]))}
    if rng.random() < 0.4:
        return {"part": "exact", **base, "n": int(rng.integers(2, 6)), "T": int(rng.integers(1, 5))}
    return {"part": "greedy", **base, "n": int(rng.integers(20, 60)), "T": int(rng.choice([50, 100, 200]))}


THEOREM_6 = Statement(
    name="γ̄_T <= min_N (N/2) log(1 + k̄T/(λN)) + T δ_N/(2λ)",
    evaluate=_t6_eval,
    sample=_t6_sample,
    hp=_t6_hp,
    describe=lambda p: {k: v for k, v in p.items()},
)


@claim("wgpucb:theorem-6", ref="Theorem 6 (Lemmas 24-25)", kind="exact")
def theorem_6(ctx: Context) -> Evidence:
    """SE kernels on grids of [0, 1] with increasing weights w_s = γ^{−s} (γ ∈ {0.8, 0.9, 0.95, 0.99}),
    random λ and lengthscale. Left side: γ̄_T exactly (every ordered sequence, ``information.
    weighted_information_gain``) on tiny instances (n ≤ 5 points, T ≤ 4), the greedy lower bound
    (``information.max_weighted_information_gain``) on 20–60 points with T ∈ {50, 100, 200}. Right side:
    ``theory.rates.wgpucb_theorem6`` with the grid's Mercer eigenvalues and ψ (uniform measure,
    ``theory.rates.eigen_tail``), minimised over N. Breaks are refereed in mpmath (eigenpairs by
    mpmath.eigsy). γ̌_T (quadrature Fourier features) is not evaluated. Power: the bound halved must
    be caught."""
    return exact_evidence(ctx, THEOREM_6, n_random=ctx.pick(16, 80), n_starts=0,
                          extra=[{"part": "greedy", "lengthscale": 0.2, "lam": 1.0, "disc": 0.95, "n": 50, "T": 200}],
                          what="universal bound on the weighted information gain")


theorem_6.replayer(replay_statement(THEOREM_6))


# ------------------------------------------------------------------------------------ Theorem 7
def _t7_rhs(p: dict[str, Any], kind: str) -> float:
    from ...theory.rates import eigen_tail, wgpucb_theorem7

    c, psi = grid_mercer(_kernel(p)(_grid(p)))
    return min(wgpucb_theorem7(p["disc"], N, eigen_tail(c, psi, N), lam=p["lam"], kbar=1.0, kind=kind)
               for N in range(1, c.size + 1))


def _t7_eval(p: dict[str, Any]) -> tuple[float, float]:
    from ...information import max_weighted_information_gain

    g = max_weighted_information_gain(_kernel(p), _grid(p), int(p["T"]), p["lam"], p["disc"], p["kind"])
    return g.lower, _t7_rhs(p, p["kind"])


def _t7_hp(p: dict[str, Any]):
    from ...information import max_weighted_information_gain

    seq = [int(i) for i in max_weighted_information_gain(_kernel(p), _grid(p), int(p["T"]), p["lam"], p["disc"],
                                                         p["kind"]).points]
    power = 1 if p["kind"] == "bar" else mpmath.mpf(1) / 2
    lhs, c, psi = _hp_gain_and_mercer(p, seq, power)
    lam, g = mpmath.mpf(p["lam"]), mpmath.mpf(p["disc"])
    q = 1 - (g * g if p["kind"] == "bar" else g)
    rhs = min(mpmath.mpf(N) / 2 * mpmath.log(1 + 1 / (lam * N * q)) + psi**2 * mpmath.fsum(c[N:]) / (2 * lam * q)
              for N in range(1, len(c) + 1))
    return lhs, rhs


THEOREM_7 = Statement(
    name="γ̄_T <= min_N (N/2) log(1 + k̄/(λN(1 − γ²))) + δ_N/(2λ(1 − γ²))  (1 − γ for γ̃)",
    evaluate=_t7_eval,
    sample=lambda rng: {"kind": ["bar", "tilde"][int(rng.integers(2))], "lengthscale": float(rng.uniform(0.1, 0.5)),
                        "lam": float(10 ** rng.uniform(-1, 0.5)), "disc": float(rng.choice([0.5, 0.8, 0.9, 0.95])),
                        "n": int(rng.integers(10, 40)), "T": int(rng.choice([20, 50, 100, 200]))},
    hp=_t7_hp,
    describe=lambda p: dict(p),
)


@claim("wgpucb:theorem-7", ref="Theorem 7", kind="exact")
def theorem_7(ctx: Context) -> Evidence:
    """The weight-dependent bound of ``theory.rates.wgpucb_theorem7`` (1 − γ² for the double-weighted
    γ̄_T, 1 − γ for γ̃_T, §6 A12), minimised over N with the grid's Mercer eigenvalues and ψ, against the
    greedy lower bound of ``information.max_weighted_information_gain`` on 10–40 grid points of [0, 1]
    (SE), γ ∈ {0.5, 0.8, 0.9, 0.95}, T up to 200. Breaks are refereed in mpmath. Power: the bound halved
    must be caught."""
    return exact_evidence(ctx, THEOREM_7, n_random=ctx.pick(16, 80), n_starts=0, what="weight-dependent gain bound")


theorem_7.replayer(replay_statement(THEOREM_7))


# ------------------------------------------------------------------------------------- Lemma 13
def _l13_features(p: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Exact finite-grid features φ(x_i) = rows of U Λ^{1/2} (``wgpucb.md`` §5.1) and played indices."""
    X = _grid(p)
    w, U = np.linalg.eigh(_kernel(p)(X))
    keep = w > 1e-12 * w[-1]
    return U[:, keep] * np.sqrt(w[keep]), np.asarray(p["played"], int)


def _loose_and_predictive(p: dict[str, Any], x: int) -> tuple[float, float, float]:
    """σ̃²(x) = λ φᵀ V⁻¹ Ṽ V⁻¹ φ from features, σ̂²(x) from ``gp.weighted_posterior``, and cond(V)."""
    from ...gp import weighted_posterior

    Phi, idx = _l13_features(p)
    r = np.asarray(p["weights"], float) / p["weights"][-1]  # relative weights w_s / w_t
    lam = p["lam"]
    F = Phi[idx]
    V = F.T @ (r[:, None] * F) + lam * np.eye(F.shape[1])
    Vt = F.T @ ((r**2)[:, None] * F) + lam * np.eye(F.shape[1])
    a = np.linalg.solve(V, Phi[x])
    loose = float(lam * a @ Vt @ a)
    X = _grid(p)
    wp = weighted_posterior(_kernel(p), X[idx], np.zeros(len(idx)), X[[x]], lam=lam, weights=np.asarray(p["weights"]))
    return loose, float(wp.var[0]), float(np.linalg.cond(V))


def _l13_eval(p: dict[str, Any]) -> tuple[float, float, float, float]:
    if p["part"] == "psd":  # Ṽ_t ⪯ w_t V_t, relative form: min eigenvalue of V − Ṽ >= 0
        Phi, idx = _l13_features(p)
        r = np.asarray(p["weights"], float) / p["weights"][-1]
        F = Phi[idx]
        V = F.T @ (r[:, None] * F) + p["lam"] * np.eye(F.shape[1])
        Vt = F.T @ ((r**2)[:, None] * F) + p["lam"] * np.eye(F.shape[1])
        return 0.0, float(np.linalg.eigvalsh(V - Vt)[0]), 1.0, float(np.linalg.norm(V, 2))
    loose, pred, cond = _loose_and_predictive(p, int(p["x"]))
    return loose, pred, min(cond, 1e10), 1.0


def _l13_hp(p: dict[str, Any]):
    from ...nystrom import gram_mp

    X = _grid(p)
    n = len(X)
    Kg = gram_mp(_kernel(p), X, dps=mpmath.mp.dps)
    idx = [int(i) for i in p["played"]]
    lam = mpmath.mpf(p["lam"])
    r = [mpmath.mpf(w) / mpmath.mpf(p["weights"][-1]) for w in p["weights"]]
    # kernel-trick forms at high precision: σ̂² = k(x,x) − kᵀ(K + λΛ)⁻¹k, σ̃² = σ̂² − λ uᵀ(Λ − I)u
    t = len(idx)
    K = mpmath.matrix([[Kg[idx[i], idx[j]] + (lam / r[i] if i == j else 0) for j in range(t)] for i in range(t)])
    if p["part"] == "psd":
        # V − Ṽ = Σ_s (r_s − r_s²) φ_s φ_sᵀ: its smallest eigenvalue is min over the Gram of that sum
        B = mpmath.matrix([[mpmath.sqrt(r[i] - r[i] ** 2) * Kg[idx[i], idx[j]] * mpmath.sqrt(r[j] - r[j] ** 2)
                            for j in range(t)] for i in range(t)])
        ev = mpmath.eigsy(B)[0]
        return mpmath.mpf(0), min(min(ev[i] for i in range(t)), mpmath.mpf(0)) if t < n else min(ev[i] for i in range(t))
    x = int(p["x"])
    k = mpmath.matrix([Kg[i, x] for i in idx])
    u = mpmath.lu_solve(K, k)
    pred = Kg[x, x] - mpmath.fsum(k[i] * u[i] for i in range(t))
    loose = pred - lam * mpmath.fsum(u[i] ** 2 * (1 / r[i] - 1) for i in range(t))
    return loose, pred


def _l13_sample(rng: np.random.Generator, decreasing: bool = False) -> dict[str, Any]:
    n = int(rng.integers(8, 30))
    t = int(rng.integers(2, 25))
    inc = np.cumsum(rng.exponential(1.0, t) * (rng.random(t) < 0.7)) + 1.0  # increasing, with ties
    w = (inc[::-1] if decreasing else inc).tolist()
    base = {"n": n, "lengthscale": float(rng.uniform(0.05, 0.4)), "lam": float(10 ** rng.uniform(-2, 0.5)),
            "played": rng.integers(0, n, t).tolist(), "weights": w}
    if rng.random() < 0.2:
        return {"part": "psd", **base}
    return {"part": "variance", **base, "x": int(rng.integers(0, n))}


LEMMA_13 = Statement(
    name="σ̃_t(x) <= σ̂_t(x) for increasing weights (and Ṽ_t ⪯ w_t V_t)",
    evaluate=_l13_eval,
    sample=_l13_sample,
    hp=_l13_hp,
    describe=lambda p: {"part": p["part"], "n": p["n"], "t": len(p["played"]), "lam": p["lam"],
                        "lengthscale": p["lengthscale"]},
)


@claim("wgpucb:lemma-13", ref="Lemma 13", kind="exact")
def lemma_13(ctx: Context) -> Evidence:
    """Random increasing weights (cumulative sums of exponential steps, with ties), random played
    sequences on 8–30 grid points of [0, 1] (SE) and random λ. The loose variance σ̃²(x) = λ‖φ(x)‖²
    in V⁻¹ṼV⁻¹ is computed from exact finite-grid features (eigenpairs of the grid Gram), the
    predictive variance σ̂²(x) by ``gp.weighted_posterior``; a second part checks Ṽ_t ⪯ w_t V_t by
    the smallest eigenvalue of V − Ṽ (relative weights). Tolerances scale with cond(V); breaks are
    refereed by the kernel-trick forms in mpmath. Power: σ̃² ≤ σ̂²/2 must be caught. Negative control:
    the same check on decreasing weights is reported (nothing is claimed there)."""
    ev = exact_evidence(ctx, LEMMA_13, n_random=ctx.pick(60, 300), n_starts=0, what="loose variance below predictive")
    # negative control: decreasing weights
    worst = 0.0
    for _ in range(ctx.pick(30, 100)):
        p = _l13_sample(ctx.rng, decreasing=True)
        if p["part"] == "variance":
            loose, pred, _ = _loose_and_predictive(p, p["x"])
            worst = max(worst, (loose - pred) / max(pred, 1e-300))
    ev.stats["negative_control_decreasing_weights_max_relative_excess"] = worst
    return ev


lemma_13.replayer(replay_statement(LEMMA_13))


# ------------------------------------------------------------------------------------- Lemma 12
def _l12_eval(p: dict[str, Any], factor: float = 1.0) -> tuple[float, float, float, float]:
    """|σ̂²(x) − λ φ(x)ᵀ V⁻¹ φ(x)| against 1e-9: ``gp.weighted_posterior`` against exact grid features
    (relative-weight form, V = Σ_s (w_s/w_t) φ_s φ_sᵀ + λ I)."""
    from ...gp import weighted_posterior

    Phi, idx = _l13_features(p)
    r = np.asarray(p["weights"], float) / p["weights"][-1]
    F = Phi[idx]
    V = F.T @ (r[:, None] * F) + p["lam"] * np.eye(F.shape[1])
    x = int(p["x"])
    feat = float(p["lam"] * Phi[x] @ np.linalg.solve(V, Phi[x]))
    X = _grid(p)
    wp = weighted_posterior(_kernel(p), X[idx], np.zeros(len(idx)), X[[x]], lam=p["lam"], weights=np.asarray(p["weights"]))
    return abs(float(wp.var[0]) * factor - feat), 1e-9, min(float(np.linalg.cond(V)), 1e8), 1.0


def _l12_hp(p: dict[str, Any]):
    from ...nystrom import gram_mp

    X = _grid(p)
    Kg = gram_mp(_kernel(p), X, dps=mpmath.mp.dps)
    idx = [int(i) for i in p["played"]]
    lam = mpmath.mpf(p["lam"])
    r = [mpmath.mpf(w) / mpmath.mpf(p["weights"][-1]) for w in p["weights"]]
    t, x = len(idx), int(p["x"])
    K = mpmath.matrix([[Kg[idx[i], idx[j]] + (lam / r[i] if i == j else 0) for j in range(t)] for i in range(t)])
    k = mpmath.matrix([Kg[i, x] for i in idx])
    pred = Kg[x, x] - mpmath.fsum(a * b for a, b in zip(k, mpmath.lu_solve(K, k)))
    # feature form with the exact (mpmath) eigenpairs of the grid Gram
    n = len(X)
    w, U = mpmath.eigsy(mpmath.matrix([[Kg[i, j] for j in range(n)] for i in range(n)]))
    top = max(w[i] for i in range(n))
    keep = [i for i in range(n) if w[i] > mpmath.mpf("1e-12") * top]
    phi = [[U[a, i] * mpmath.sqrt(w[i]) for i in keep] for a in range(n)]
    m = len(keep)
    V = mpmath.matrix([[mpmath.fsum(r[s] * phi[idx[s]][i] * phi[idx[s]][j] for s in range(t)) + (lam if i == j else 0)
                        for j in range(m)] for i in range(m)])
    fx = mpmath.matrix(phi[x])
    feat = lam * mpmath.fsum(a * b for a, b in zip(fx, mpmath.lu_solve(V, fx)))
    return abs(pred - feat), mpmath.mpf("1e-9")


LEMMA_12 = Statement(
    name="σ̂_t²(x) = λ_t ‖φ(x)‖²_{V_t⁻¹}",
    evaluate=_l12_eval,
    sample=lambda rng: {**_l13_sample(rng), "part": "variance", "x": int(rng.integers(0, 8))},
    hp=_l12_hp,
    sharpen=lambda p, lhs, rhs: _l12_eval(p, factor=1 + 1e-6)[:2],
    sharpening="σ̂² scaled by 1 + 1e-6",
    describe=LEMMA_13.describe,
)


@claim("wgpucb:lemma-12", ref="Lemma 12", kind="exact")
def lemma_12(ctx: Context) -> Evidence:
    """Random increasing weights, played sequences and λ on 8–30 grid points of [0, 1] (SE): the
    predictive variance (3) from ``gp.weighted_posterior`` must equal λ φ(x)ᵀ V⁻¹ φ(x) computed with the
    exact grid features (relative-weight form) to 1e-9, the tolerance scaled with cond(V). Breaks are
    refereed in mpmath (kernel-trick form against features from mpmath eigenpairs). Power: σ̂² scaled
    by 1 + 1e-6 must be caught."""
    return exact_evidence(ctx, LEMMA_12, n_random=ctx.pick(40, 200), n_starts=0, what="feature form of (3)")


lemma_12.replayer(replay_statement(LEMMA_12))


# ------------------------------------------------------------------------------------ Appendix C
def _appc_eval(p: dict[str, Any], factor: float = 1.0) -> tuple[float, float, float, float]:
    """Largest difference of (μ̃, σ̂²) between weights w and c·w (relative form) and between the direct
    form (2)–(3) and the relative form, all from ``gp.weighted_posterior``."""
    from ...gp import weighted_posterior

    X = _grid(p)
    idx = np.asarray(p["played"], int)
    w = np.asarray(p["weights"], float)
    y = np.asarray(p["y"], float)

    def post(weights, form):
        return weighted_posterior(_kernel(p), X[idx], y, X, lam=p["lam"], weights=weights, form=form)

    base = post(w, "relative")
    scaled = post(w * p["c"] * factor, "relative")
    direct = post(w, "direct")
    diffs = [np.abs(base.mean - scaled.mean), np.abs(base.var - scaled.var), np.abs(base.mean - direct.mean),
             np.abs(base.var - direct.var)]
    scale = max(1.0, float(np.max(np.abs(y))))
    return max(float(np.max(d)) for d in diffs), 1e-9 * scale, 1.0, scale


def _appc_hp(p: dict[str, Any]):
    from ...nystrom import gram_mp

    X = _grid(p)
    Kg = gram_mp(_kernel(p), X, dps=mpmath.mp.dps)
    idx = [int(i) for i in p["played"]]
    lam = mpmath.mpf(p["lam"])
    t = len(idx)
    y = mpmath.matrix([mpmath.mpf(v) for v in p["y"]])

    def post(weights):  # direct form (2)–(3): W K W + λ w_t I, weights exact in mpmath
        sw = [mpmath.sqrt(mpmath.mpf(v)) for v in weights]
        A = mpmath.matrix([[sw[i] * Kg[idx[i], idx[j]] * sw[j] + (lam * mpmath.mpf(weights[-1]) if i == j else 0)
                            for j in range(t)] for i in range(t)])
        out_m, out_v = [], []
        for x in range(len(X)):
            kx = mpmath.matrix([sw[i] * Kg[idx[i], x] for i in range(t)])
            u = mpmath.lu_solve(A, kx)
            out_m.append(mpmath.fsum(u[i] * sw[i] * y[i] for i in range(t)))
            out_v.append(Kg[x, x] - mpmath.fsum(u[i] * kx[i] for i in range(t)))
        return out_m, out_v

    m1, v1 = post(p["weights"])
    m2, v2 = post([mpmath.mpf(v) * mpmath.mpf(p["c"]) for v in p["weights"]])
    err = max(max(abs(a - b) for a, b in zip(m1, m2)), max(abs(a - b) for a, b in zip(v1, v2)))
    scale = max(1, max(abs(v) for v in y))
    return err, mpmath.mpf("1e-9") * scale


def _appc_sample(rng: np.random.Generator) -> dict[str, Any]:
    q = _l13_sample(rng)
    q["weights"] = (np.asarray(q["weights"]) * 10 ** rng.uniform(-2, 2)).tolist()
    return {**q, "part": "scale", "c": float(10 ** rng.uniform(-3, 3)), "y": rng.normal(0, 1, len(q["played"])).tolist()}


APPENDIX_C = Statement(
    name="μ̃_t, σ̂_t unchanged by w -> c·w and equal to the relative-weight problem",
    evaluate=_appc_eval,
    sample=_appc_sample,
    hp=_appc_hp,
    sharpen=lambda p, lhs, rhs: (lhs + 10 * rhs, rhs),
    sharpening="discrepancies shifted by ten times the tolerance",
    describe=lambda p: {"n": p["n"], "t": len(p["played"]), "lam": p["lam"], "c": p["c"]},
)


@claim("wgpucb:appendix-c", ref="Appendix C reformulation", kind="exact")
def appendix_c(ctx: Context) -> Evidence:
    """Random increasing weights of random magnitude, played sequences, outputs and λ on 8–30 grid
    points (SE): ``gp.weighted_posterior`` must give the same μ̃_t and σ̂²_t for weights w and c·w
    (c ∈ 10^(−3..3)) and for the direct form (2)–(3) and the relative-weight form, to 1e-9 of the
    output scale. Breaks are refereed with the direct form in mpmath. Power: discrepancies shifted by
    ten times the tolerance must be caught."""
    return exact_evidence(ctx, APPENDIX_C, n_random=ctx.pick(30, 150), n_starts=0, what="relative-weight reformulation")


appendix_c.replayer(replay_statement(APPENDIX_C))
