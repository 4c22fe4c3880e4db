"""GP-UCB at T = 1000 on a 1-D grid of G = 1000 points with fixed noise: three implementations.

1. the incremental grid posterior used by :class:`tvbo_verify.bandits.GPUCB` (``O(t·G)`` per round);
2. a numpy refit every round (Cholesky of ``K_t + σ²I`` and triangular solves, ``O(t³ + t²G)``);
3. a scikit-learn ``GaussianProcessRegressor`` refit loop (``optimizer=None``, fixed kernel ``alpha=σ²``).

All three see the same objective and the same noise draws and use the same β_t = 0.8 log(4t)
(``μ + √β σ``); ``same_trajectory`` reports whether the chosen points coincide. Prints a JSON
object with ``--json``. The scikit-learn loop is timed over the full horizon unless ``--sklearn-prefix``
is given, in which case its time is extrapolated by the measured cost model and labelled as such.
"""

from __future__ import annotations

import argparse
import json
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


def incremental(G: int, T: int, seed: int) -> tuple[float, np.ndarray]:
    grid, kernel, f, noise, eps, _ = _setup(G, T, seed)
    pol = GPUCB(log_rule(0.8, 4.0))
    pol.reset(Problem(grid, kernel, noise, T), np.random.default_rng(0))
    chosen = np.zeros(T, dtype=int)
    start = time.perf_counter()
    for t in range(1, T + 1):
        i = pol.select(t, float(t))
        pol.observe(t, float(t), i, f[i] + eps[t - 1])
        chosen[t - 1] = i
    return time.perf_counter() - start, chosen


def refit_numpy(G: int, T: int, seed: int) -> tuple[float, np.ndarray]:
    grid, kernel, f, noise, eps, beta = _setup(G, T, seed)
    Kgg_diag = kernel.diag(grid)
    chosen = np.zeros(T, dtype=int)
    idx: list[int] = []
    ys: list[float] = []
    start = time.perf_counter()
    for t in range(1, T + 1):
        if idx:
            Kx = kernel(grid[idx], grid)  # t × G
            L = np.linalg.cholesky(Kx[:, idx] + noise * np.eye(len(idx)))
            A = sla.solve_triangular(L, Kx, lower=True, check_finite=False)
            z = sla.solve_triangular(L, np.asarray(ys), lower=True, check_finite=False)
            mean, var = A.T @ z, np.maximum(Kgg_diag - np.einsum("ij,ij->j", A, A), 0.0)
        else:
            mean, var = np.zeros(G), Kgg_diag
        i = int(np.argmax(mean + beta[t - 1] * np.sqrt(var)))
        idx.append(i)
        ys.append(f[i] + eps[t - 1])
        chosen[t - 1] = i
    return time.perf_counter() - start, chosen


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
    args = parser.parse_args()
    try:
        from threadpoolctl import threadpool_limits

        limiter = threadpool_limits(limits=1, user_api="blas")  # same single-thread BLAS for all three
    except ImportError:  # pragma: no cover
        limiter = None
    s_inc, c_inc = incremental(args.G, args.T, args.seed)
    s_np, c_np = refit_numpy(args.G, args.T, args.seed)
    s_sk, c_sk, steps = refit_sklearn(args.G, args.T, args.seed, args.sklearn_prefix)
    extrapolated = steps < args.T
    if extrapolated:
        # refit cost grows like t^2·G + t^3: scale by the ratio of Σ_t (t²G + t³) over the horizon and the prefix
        def work(n: int) -> float:
            t = np.arange(1, n + 1, dtype=float)
            return float(np.sum(t * t * args.G + t**3))

        s_sk = s_sk * work(args.T) / work(steps)
    same = bool(np.array_equal(c_inc, c_np) and np.array_equal(c_inc[: len(c_sk)], c_sk))
    out = {
        "T": args.T,
        "G": args.G,
        "seconds_incremental": s_inc,
        "seconds_refit_numpy": s_np,
        "seconds_sklearn": s_sk,
        "sklearn_extrapolated_from_rounds": steps if extrapolated else None,
        "speedup_vs_refit": s_np / s_inc,
        "speedup_vs_sklearn": s_sk / s_inc,
        "same_trajectory": same,
        "first_divergence": None if same else _first_divergence(c_inc, c_np, c_sk),
        "blas_threads": 1 if limiter is not None else None,
    }
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for key, value in out.items():
            print(f"{key:>34}: {value}")


if __name__ == "__main__":
    main()
