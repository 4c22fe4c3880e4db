"""GP-UCB family on a 1-D grid of G = 1000 points with fixed noise: toolkit updates against refit loops.

1. GP-UCB at ``-T`` (default 1000): the incremental grid posterior of :class:`tvbo_verify.bandits.GPUCB`
   (``O(t·G)`` per round) against a numpy refit every round (Cholesky of ``K_t + σ²I`` and triangular
   solves, ``O(t³ + t²G)``) and a scikit-learn ``GaussianProcessRegressor`` refit loop (``optimizer=None``,
   fixed kernel, ``alpha=σ²``). All see the same objective and noise draws and use β_t = 0.8 log(4t)
   (``μ + √β σ``); ``same_trajectory`` reports whether the chosen points coincide. The incremental run is
   also compared with the bare ``O(t·G)`` work of the same run: one ``(t × G)`` mat-vec per round on the
   posterior's own factor (``incremental_over_bare_matvec``; the physical limit is ~1–2).
2. SW-GP-UCB (window ``--window``): append + Givens downdate against a refit on the window every round.
3. WGP-UCB (discount ``--discount``): the per-arm posterior against the refit of
   :func:`tvbo_verify.gp.weighted_posterior` on all kept observations every round.
4. SparQ-GP-UCB at ``--sparq-T``: seconds per round of the toolkit (which refits on its small sparse set by
   design) against the GP-UCB numpy refit loop on all data at the same horizon.

Refit loops (and scikit-learn) at large ``T`` can be timed at ``--sample`` rounds spread over the horizon
(each timed on the incremental run's own first ``t`` points) and integrated over ``t = 1..T`` by
piecewise-linear interpolation: labelled ``*_sampled_rounds``. ``--sklearn-prefix`` keeps the older
prefix-and-cost-model extrapolation. One BLAS thread for everything. Prints a JSON object with ``--json``.
Ratios measured in one process are meaningful under load; absolute seconds are not.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np
from scipy import linalg as sla

from tvbo_verify.bandits import GPUCB, log_rule
from tvbo_verify.bandits.policy import Problem
from tvbo_verify.kernels import SquaredExponential


def _setup(G: int, T: int, seed: int):
    rng = np.random.default_rng(seed)
    grid = np.linspace(0.0, 1.0, G)[:, None]
    kernel = SquaredExponential(1.0, 0.1)
    centres = rng.uniform(0, 1, (8, 1))
    f = kernel(grid, centres) @ rng.normal(size=8)
    noise = 0.01
    eps = np.sqrt(noise) * rng.standard_normal(T)
    beta = np.sqrt([log_rule(0.8, 4.0).value(t) for t in range(1, T + 1)])
    return grid, kernel, f, noise, eps, beta


def _loop(policy, grid, kernel, f, noise, eps, T: int) -> tuple[float, np.ndarray]:
    """Run ``policy`` for ``T`` rounds on the static objective with the given noise draws; seconds in the policy."""
    policy.reset(Problem(grid, kernel, noise, T), np.random.default_rng(0))
    chosen = np.zeros(T, dtype=int)
    start = time.perf_counter()
    for t in range(1, T + 1):
        i = policy.select(t, float(t))
        policy.observe(t, float(t), i, f[i] + eps[t - 1])
        chosen[t - 1] = i
    return time.perf_counter() - start, chosen


def incremental(G: int, T: int, seed: int) -> tuple[float, np.ndarray, GPUCB]:
    grid, kernel, f, noise, eps, _ = _setup(G, T, seed)
    pol = GPUCB(log_rule(0.8, 4.0))
    seconds, chosen = _loop(pol, grid, kernel, f, noise, eps, T)
    return seconds, chosen, pol


def bare_matvec(A: np.ndarray, T: int, seed: int = 0) -> float:
    """Seconds of one ``(t × G)`` vector–matrix product per round ``t = 1..T`` on the factor ``A`` of the run."""
    rng = np.random.default_rng(seed)
    vecs = [rng.standard_normal(t) for t in range(1, T + 1)]
    out = np.zeros(A.shape[1])
    start = time.perf_counter()
    for t in range(1, T + 1):
        out += vecs[t - 1] @ A[:t]
    return time.perf_counter() - start


def sampled_total(step_seconds, T: int, samples: int) -> tuple[float, list[int]]:
    """``Σ_{t=1}^T cost(t)`` from ``cost`` measured at ``samples`` rounds spread over ``1..T`` (linear
    interpolation)."""
    ts = sorted(set(np.linspace(2, T, samples).round().astype(int).tolist()))
    costs = [step_seconds(t) for t in ts]
    return float(np.sum(np.interp(np.arange(1, T + 1), ts, costs))), ts


def numpy_refit_round(grid, kernel, noise, idx, ys) -> tuple[np.ndarray, np.ndarray]:
    """One round of the numpy refit: posterior on the grid from all ``len(idx)`` observations."""
    Kx = kernel(grid[idx], grid)
    L = np.linalg.cholesky(Kx[:, idx] + noise * np.eye(len(idx)))
    A = sla.solve_triangular(L, Kx, lower=True, check_finite=False)
    z = sla.solve_triangular(L, np.asarray(ys), lower=True, check_finite=False)
    return A.T @ z, np.maximum(kernel.diag(grid) - np.einsum("ij,ij->j", A, A), 0.0)


def sklearn_round(grid, noise, X, ys) -> None:
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import RBF

    gpr = GaussianProcessRegressor(RBF(0.1), alpha=noise, optimizer=None, normalize_y=False)
    gpr.fit(X, ys)
    gpr.predict(grid, return_std=True)


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def sampled_refits(G: int, T: int, seed: int, chosen: np.ndarray, samples: int) -> dict:
    """numpy and scikit-learn refit loops timed at sampled rounds on the incremental run's own data."""
    grid, kernel, f, noise, eps, _ = _setup(G, T, seed)
    ys = f[chosen] + eps

    def numpy_cost(t: int) -> float:
        return _timed(lambda: numpy_refit_round(grid, kernel, noise, chosen[: t - 1], ys[: t - 1]))

    def sklearn_cost(t: int) -> float:
        return _timed(lambda: sklearn_round(grid, noise, grid[chosen[: t - 1]], ys[: t - 1]))

    s_np, ts = sampled_total(numpy_cost, T, samples)
    s_sk, _ = sampled_total(sklearn_cost, T, samples)
    return {"seconds_refit_numpy": s_np, "seconds_sklearn": s_sk, "sampled_rounds": ts}


def sw_section(G: int, T: int, seed: int, window: int) -> dict:
    """SW-GP-UCB: append + Givens downdate against a numpy refit on the window every round."""
    from tvbo_verify.bandits import SWGPUCB

    grid, kernel, f, noise, eps, beta = _setup(G, T, seed)
    s_inc, c_inc = _loop(SWGPUCB(log_rule(0.8, 4.0), window=window), grid, kernel, f, noise, eps, T)
    chosen = np.zeros(T, dtype=int)
    idx: list[int] = []
    ys: list[float] = []
    start = time.perf_counter()
    for t in range(1, T + 1):
        if idx:
            mean, var = numpy_refit_round(grid, kernel, noise, idx[-window:], ys[-window:])
        else:
            mean, var = np.zeros(G), kernel.diag(grid)
        i = int(np.argmax(mean + beta[t - 1] * np.sqrt(var)))
        idx.append(i)
        ys.append(f[i] + eps[t - 1])
        chosen[t - 1] = i
    s_ref = time.perf_counter() - start
    return {"window": window, "seconds_toolkit": s_inc, "seconds_refit": s_ref, "speedup_vs_refit": s_ref / s_inc,
            "same_trajectory": bool(np.array_equal(c_inc, chosen))}


def wgp_section(G: int, T: int, seed: int, discount: float) -> dict:
    """WGP-UCB: per-arm posterior against the weighted-posterior refit on all kept observations."""
    from tvbo_verify.bandits import WGPUCB

    grid, kernel, f, noise, eps, _ = _setup(G, T, seed)
    s_arm, c_arm = _loop(WGPUCB(log_rule(0.8, 4.0), discount=discount), grid, kernel, f, noise, eps, T)
    s_ref, c_ref = _loop(WGPUCB(log_rule(0.8, 4.0), discount=discount, update="refit"), grid, kernel, f, noise, eps, T)
    kept = min(T, int(np.log(1e14) / -np.log(discount)) + 1)
    return {"discount": discount, "seconds_toolkit": s_arm, "seconds_refit": s_ref, "speedup_vs_refit": s_ref / s_arm,
            "same_trajectory": bool(np.array_equal(c_arm, c_ref)), "kept_observations_final": kept,
            "distinct_arms_kept_final": int(np.unique(c_arm[-kept:]).size)}


def sparq_section(G: int, T: int, seed: int) -> dict:
    """SparQ-GP-UCB seconds per round against the full-data numpy refit loop at the same horizon."""
    from tvbo_verify.bandits import SparQGPUCB, run
    from tvbo_verify.bandits.environments.base import Environment

    grid, kernel, f, noise, eps, beta = _setup(G, T, seed)

    class Static(Environment):
        name = "static"

        def __init__(self) -> None:
            super().__init__()
            self.grid, self.kernel, self.noise_var = grid, kernel, noise

        def _draw(self, rng: np.random.Generator) -> None:
            pass

        def _values(self) -> np.ndarray:
            return f

    trace = run(SparQGPUCB(), Static(), T, np.random.default_rng(seed))
    s_sparq = float(np.sum(trace.seconds))
    s_ref, _ = _loop(_NumpyRefitPolicy(beta), grid, kernel, f, noise, eps, T)
    return {"T": T, "seconds_toolkit": s_sparq, "seconds_full_refit_loop": s_ref,
            "speedup_vs_full_refit": s_ref / s_sparq, "mean_sparse_set": float(np.mean(trace.dataset_size)),
            "expert_queries": int(trace.expert_queries[-1])}


class _NumpyRefitPolicy:
    """GP-UCB refitting on all data every round (numpy), with the policy protocol used by :func:`_loop`."""

    def __init__(self, beta: np.ndarray) -> None:
        self.mult = beta

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        self.p, self.idx, self.ys = problem, [], []

    def select(self, step: int, time_: float) -> int:
        if not self.idx:
            return 0
        mean, var = numpy_refit_round(self.p.grid, self.p.kernel, self.p.noise_var, self.idx, self.ys)
        return int(np.argmax(mean + self.mult[step - 1] * np.sqrt(var)))

    def observe(self, step: int, time_: float, index: int, y: float) -> None:
        self.idx.append(index)
        self.ys.append(y)


def refit_numpy(G: int, T: int, seed: int) -> tuple[float, np.ndarray]:
    grid, kernel, f, noise, eps, beta = _setup(G, T, seed)
    return _loop(_NumpyRefitPolicy(beta), grid, kernel, f, noise, eps, T)


def refit_sklearn(G: int, T: int, seed: int, prefix: int | None = None) -> tuple[float, np.ndarray, int]:
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import RBF

    grid, kernel, f, noise, eps, beta = _setup(G, T, seed)
    steps = T if prefix is None else min(prefix, T)
    chosen = np.zeros(steps, dtype=int)
    X: list[np.ndarray] = []
    ys: list[float] = []
    start = time.perf_counter()
    for t in range(1, steps + 1):
        if X:
            gpr = GaussianProcessRegressor(RBF(0.1), alpha=noise, optimizer=None, normalize_y=False)
            gpr.fit(np.array(X), np.array(ys))
            mean, sd = gpr.predict(grid, return_std=True)
        else:
            mean, sd = np.zeros(G), np.ones(G)
        i = int(np.argmax(mean + beta[t - 1] * sd))
        X.append(grid[i])
        ys.append(f[i] + eps[t - 1])
        chosen[t - 1] = i
    return time.perf_counter() - start, chosen, steps


def _first_divergence(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> int:
    """First round (1-based) where the incremental choice differs from either refit."""
    n = len(c)
    diff = (a != b) | np.r_[a[:n] != c, np.zeros(len(a) - n, dtype=bool)]
    return int(np.argmax(diff)) + 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("-T", type=int, default=1000)
    parser.add_argument("-G", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sklearn-prefix", type=int, default=None,
                        help="time scikit-learn on this many rounds only and extrapolate (labelled)")
    parser.add_argument("--sample", type=int, default=None,
                        help="time the refit loops at this many rounds spread over T and interpolate (labelled)")
    parser.add_argument("--window", type=int, default=100)
    parser.add_argument("--discount", type=float, default=0.95)
    parser.add_argument("--sparq-T", type=int, default=300)
    parser.add_argument("--only", default="gp-ucb,sw-gp-ucb,wgp-ucb,sparq-gp-ucb",
                        help="comma-separated sections to run")
    args = parser.parse_args()
    sections = set(args.only.split(","))
    try:
        from threadpoolctl import threadpool_limits

        limiter = threadpool_limits(limits=1, user_api="blas")  # same single-thread BLAS for all
    except ImportError:  # pragma: no cover
        limiter = None
    out: dict = {"T": args.T, "G": args.G, "blas_threads": 1 if limiter is not None else None,
                 "load_average": os.getloadavg()[0]}
    if "gp-ucb" in sections:
        s_inc, c_inc, pol = incremental(args.G, args.T, args.seed)
        s_bare = bare_matvec(pol.post._A, args.T)
        gp: dict = {"seconds_incremental": s_inc, "seconds_bare_matvec": s_bare,
                    "incremental_over_bare_matvec": s_inc / s_bare}
        if args.sample:
            gp.update(sampled_refits(args.G, args.T, args.seed, c_inc, args.sample))
            gp["same_trajectory"] = None
        else:
            s_np, c_np = refit_numpy(args.G, args.T, args.seed)
            s_sk, c_sk, steps = refit_sklearn(args.G, args.T, args.seed, args.sklearn_prefix)
            if steps < args.T:
                # refit cost grows like t^2·G + t^3: scale by the ratio of Σ_t (t²G + t³) over the horizon and prefix
                def work(n: int) -> float:
                    t = np.arange(1, n + 1, dtype=float)
                    return float(np.sum(t * t * args.G + t**3))

                s_sk = s_sk * work(args.T) / work(steps)
            same = bool(np.array_equal(c_inc, c_np) and np.array_equal(c_inc[: len(c_sk)], c_sk))
            gp.update({"seconds_refit_numpy": s_np, "seconds_sklearn": s_sk,
                       "sklearn_extrapolated_from_rounds": steps if steps < args.T else None,
                       "same_trajectory": same,
                       "first_divergence": None if same else _first_divergence(c_inc, c_np, c_sk)})
        gp["speedup_vs_refit"] = gp["seconds_refit_numpy"] / s_inc
        gp["speedup_vs_sklearn"] = gp["seconds_sklearn"] / s_inc
        out["gp-ucb"] = gp
    if "sw-gp-ucb" in sections:
        out["sw-gp-ucb"] = sw_section(args.G, args.T, args.seed, args.window)
    if "wgp-ucb" in sections:
        out["wgp-ucb"] = wgp_section(args.G, args.T, args.seed, args.discount)
    if "sparq-gp-ucb" in sections:
        out["sparq-gp-ucb"] = sparq_section(args.G, args.sparq_T, args.seed)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for key, value in out.items():
            if isinstance(value, dict):
                print(f"{key}:")
                for k, v in value.items():
                    print(f"{k:>34}: {v}")
            else:
                print(f"{key:>34}: {value}")


if __name__ == "__main__":
    main()
