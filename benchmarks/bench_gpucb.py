"""Every policy against the bare arithmetic of its exact update and against a refit every round.

For each algorithm of :data:`tvbo_verify.bandits.registry.ALGORITHMS` (``random`` keeps no posterior) on a
1-D grid of ``-G`` points, SE kernel (lengthscale 0.1), one static objective and one set of noise draws,
``-T`` rounds (the heteroscedastic policy at ``--hetero-T``, SparQ and W-SparQ at ``--sparq-T``, W-DBO,
BOLT and FIFO at ``--st-T``), in one process with one BLAS thread:

* ``seconds`` — time inside ``select`` and ``observe``, the fastest of ``--repeats`` identical runs;
* ``bare_seconds`` — the run's exact updates reduced to their arithmetic: a loop of exactly the numpy /
  scipy / LAPACK calls the update makes, at the sizes the run had (recorded round by round), on arrays of
  those sizes; the fastest of ``--repeats`` loops. Per policy:

  - GP-UCB, ET-GP-UCB, R-GP-UCB, TV-GP-UCB: one ``n×G`` vector–matrix product per append (``n`` stored rows);
  - SW-GP-UCB: two ``n×n`` triangular solves and a pass over the kernel rows to append, then a solve for
    ``P e_1``, :func:`scipy.linalg.qr_delete`, a solve for ``α'`` and a two-row pass to remove;
  - WGP-UCB, heteroscedastic GP-UCB, SparQ, W-SparQ: a Cholesky factor of the ``n×n`` system, a triangular
    solve against its ``n×G`` block, one for the data and the mean product — ``n`` the distinct arms (or the
    grid Gram's float-precision rank when smaller: WGP-UCB's information form), the regression set for
    the sparse policies, plus the k-DPP's eigendecomposition each time its ground set grew and the
    sequential phase of each k-DPP draw (:func:`bare_kdpp_draws`);
  - W-DBO, BOLT, FIFO: the select's solve against ``k(X, grid × {t})`` (formed from cached rows), the removal
    criterion's solves ``P`` and ``P k(X, nodes)``, its element-wise W₂ formula per evaluation, a rank-one
    downdate per removal, the factor's append solve and ``qr_delete``;

  and every round the O(G) rank-one updates of mean and variance and the UCB scores and their arg-max;
* ``ratio`` = seconds / bare_seconds (target ≤ 3);
* ``refit_seconds`` — the seconds of the policy's refit-every-round definition
  (:func:`tvbo_verify.bandits.definitions.audit`: the posterior refitted on the data the definition keeps,
  its own window, block, forgetting, noise schedule, trigger and removal rules) replaying the same rounds;
* ``same_trajectory`` — the policy made the definition's choices and decisions in every round
  (``first_divergence`` and ``divergence`` otherwise), ``max_mean_diff`` the largest gap of the posteriors the
  two ranked by, relative to their scale (target 1e-8). SparQ and W-SparQ also report the seconds of their
  k-DPP draws and of the draws' bare arithmetic, and the ratio of the rest to the rest of the bare work.

``--sklearn`` adds the GP-UCB comparison with a single-thread scikit-learn refit loop (``--sample``
rounds, interpolated). Prints a JSON object with ``--json``. Ratios measured in one process are meaningful
under load; absolute seconds are not.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from dataclasses import dataclass
from functools import partial

import numpy as np
from scipy import linalg as sla
from scipy.linalg import qr_delete
from scipy.linalg.lapack import dpotrf, dpotrs, dtrtrs
from threadpoolctl import threadpool_limits

from tvbo_verify.bandits import log_rule
from tvbo_verify.bandits.definitions import audit
from tvbo_verify.bandits.environments.base import Environment
from tvbo_verify.bandits.expert import ExpertOracle
from tvbo_verify.bandits.policy import Policy, Problem
from tvbo_verify.bandits.registry import ALGORITHMS
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.validation import check_choice


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


class Static(Environment):
    """The benchmark's objective: fixed values on the grid, unit clock steps."""

    name = "static"

    def __init__(self, grid: np.ndarray, kernel, values: np.ndarray, noise: float) -> None:
        super().__init__()
        self.grid, self.kernel, self.noise_var, self._f = grid, kernel, noise, values

    def _draw(self, rng: np.random.Generator) -> None:
        pass

    def _values(self) -> np.ndarray:
        return self._f


@dataclass
class Record:
    """What a toolkit run leaves for its refit and its bare loop."""

    chosen: np.ndarray
    ys: np.ndarray
    clocks: np.ndarray
    size_before: np.ndarray  # dataset size at select
    size_after: np.ndarray  # dataset size after observe
    snapshots: list  # per round, what the refit needs from the policy's own data management (sparse sets)
    seconds: float
    policy: Policy
    fastest: Policy | None = None  # the policy object of the fastest repetition


def drive(make, env: Environment, T: int, seed: int, snapshot_of=None, repeats: int = 1) -> Record:
    """Run ``make()`` as :func:`tvbo_verify.bandits.run` does, timing only ``select`` and ``observe``; the run is
    repeated ``repeats`` times (identically) and the fastest time kept. ``snapshot_of(policy)`` is recorded after
    every round (untimed)."""
    records = [_drive_once(make(), env, T, seed, snapshot_of if k == 0 else None) for k in range(repeats)]
    for other in records[1:]:
        if not np.array_equal(other.chosen, records[0].chosen):
            raise RuntimeError("a repeated run chose differently: the policy is not deterministic")
    best = min(records, key=lambda r: r.seconds)
    records[0].seconds, records[0].fastest = best.seconds, best.policy
    return records[0]


def _drive_once(policy: Policy, env: Environment, T: int, seed: int, snapshot_of) -> Record:
    env_rng, noise_rng, policy_rng, expert_rng = np.random.default_rng(seed).spawn(4)
    env.reset(env_rng, T)
    expert = ExpertOracle(env, env.noise_var, expert_rng)
    problem = Problem(env.grid, env.kernel, env.noise_var, T, None, env.problem_extra())
    policy.reset(problem, policy_rng, expert)
    rec = Record(np.zeros(T, dtype=int), np.zeros(T), np.zeros(T), np.zeros(T, dtype=int), np.zeros(T, dtype=int),
                 [], 0.0, policy)
    spent = 0.0
    for t in range(1, T + 1):
        if t > 1:
            env.advance(policy.dataset_size)
        clock = env.time
        rec.size_before[t - 1] = policy.dataset_size
        start = time.perf_counter()
        i = policy.select(t, clock)
        spent += time.perf_counter() - start
        y = env.observe(int(i), noise_rng)
        start = time.perf_counter()
        policy.observe(t, clock, int(i), y)
        spent += time.perf_counter() - start
        rec.chosen[t - 1], rec.ys[t - 1], rec.clocks[t - 1] = i, y, clock
        rec.size_after[t - 1] = policy.dataset_size
        if snapshot_of is not None:
            rec.snapshots.append(snapshot_of(policy))
    rec.seconds = spent
    return rec


def fastest(repeats: int, bare, *args) -> float:
    """The fastest of ``repeats`` runs of a bare loop."""
    return min(bare(*args) for _ in range(repeats))


def definition_check(make, env: Environment, T: int, seed: int) -> dict:
    """Replay ``T`` rounds of ``make()`` on ``env`` (the streams of ``seed``) against its refit-every-round definition
    (:func:`tvbo_verify.bandits.definitions.audit`)."""
    res = audit(make(), env, T, T, np.random.default_rng(seed))
    return {"refit_seconds": res.seconds, "same_trajectory": res.reproduces, "first_divergence": res.first_divergence,
            "divergence": res.reason, "max_mean_diff": res.max_posterior_gap}


def _timed_loop(calls) -> float:
    """Seconds of running the prepared zero-argument ``calls`` in order."""
    start = time.perf_counter()
    for call in calls:
        call()
    return time.perf_counter() - start


def _upper(n: int, rng: np.random.Generator) -> np.ndarray:
    """A well-conditioned ``n×n`` upper factor in Fortran order (the layout the policies keep)."""
    R = np.triu(rng.standard_normal((n, n)) * 0.1) + np.eye(n) * 2.0
    return np.asfortranarray(R)


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

    sklearn_round(grid, noise, grid[chosen[:2]], ys[:2])  # imports scikit-learn outside the timed rounds
    s_np, ts = sampled_total(numpy_cost, T, samples)
    s_sk, _ = sampled_total(sklearn_cost, T, samples)
    return {"seconds_refit_numpy": s_np, "seconds_sklearn": s_sk, "sampled_rounds": ts}



# --------------------------------------------------------------------------------------------------
# bare arithmetic of each exact update (a loop of exactly those calls at the run's sizes)
# --------------------------------------------------------------------------------------------------
def _grid_round(a, kx, mean, var) -> None:
    """The O(G) part of a round: the new row from the product, the rank-one updates of the mean and the
    variance, and the UCB scores and their arg-max."""
    np.subtract(kx, a, out=a)
    a *= 0.5
    mean += 0.1 * a
    var -= a * a
    np.maximum(var, 0.0, out=var)
    _ucb_scores(mean, var)


def _ucb_scores(mean, var) -> None:
    np.argmax(mean + 2.0 * np.sqrt(np.maximum(var, 0.0)))


def bare_append(rec: Record, G: int, seed: int = 0) -> float:
    """GP-UCB, R-GP-UCB, TV-GP-UCB: per append one ``(n × G)`` vector–matrix product (``n`` stored rows), the
    O(G) rank-one updates of mean and variance, and the UCB scores."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((int(rec.size_after.max()) + 1, G))
    vecs = [rng.standard_normal(int(n)) for n in rec.size_before]
    out, kx, mean, var = np.zeros(G), rng.standard_normal(G), np.zeros(G), np.ones(G)
    calls = []
    for v in vecs:
        if v.size:
            calls.append(partial(np.dot, v, A[: v.size], out=out))
        calls.append(partial(_grid_round, out, kx, mean, var))
    return _timed_loop(calls)


def bare_window(rec: Record, G: int, seed: int = 0) -> float:
    """SW-GP-UCB: append (two triangular solves, one pass over the kernel rows), then the removal (a solve
    for ``P e_1``, ``qr_delete`` of the factor, a solve for ``α'``, one two-row pass over the kernel rows)."""
    rng = np.random.default_rng(seed)
    cap = int(rec.size_after.max()) + 1
    KX = rng.standard_normal((cap, G))
    Rs = {n: _upper(n, rng) for n in range(1, cap + 1)}
    out, kx, mean, var = np.zeros((2, G)), rng.standard_normal(G), np.zeros(G), np.ones(G)
    calls = []
    for n, m in zip(rec.size_before, rec.size_after):
        n = int(n)
        b, one, two = rng.standard_normal(n), rng.standard_normal((1, cap)), rng.standard_normal((2, cap))
        if n:
            calls += [partial(dtrtrs, Rs[n], b, lower=0, trans=1), partial(dtrtrs, Rs[n], b, lower=0, trans=0),
                      partial(np.matmul, one, KX, out=out[:1])]
        calls.append(partial(_grid_round, out[0], kx, mean, var))
        if m == n:  # a removal followed the append
            e, eye = np.zeros(n + 1), np.eye(n + 1)
            calls += [partial(dpotrs, Rs[n + 1], e, lower=0),
                      partial(qr_delete, eye, Rs[n + 1], 0, 1, "col", check_finite=False),
                      partial(dpotrs, Rs[n], b, lower=0), partial(np.matmul, two, KX, out=out),
                      partial(_downdate_variance, out[0], var)]
    return _timed_loop(calls)


def _downdate_variance(v, var) -> None:
    var += v * v / 2.0


def bare_factor_solve(sizes: list[int], G: int, seed: int = 0) -> float:
    """A posterior on ``n`` points recomputed on the grid: Cholesky ``n×n``, one ``n×G`` triangular solve,
    one for the data, the mean product and the column sums, and the UCB scores (SparQ, W-SparQ, WGP-UCB,
    heteroscedastic)."""
    rng = np.random.default_rng(seed)
    top = max(max(sizes), 1)
    KG = rng.standard_normal((top, G))
    Ms = {}
    calls = []
    for n in sizes:
        if n == 0:
            continue
        if n not in Ms:
            B = rng.standard_normal((n, n + 2))
            Ms[n] = B @ B.T + np.eye(n)
        M, Kn, yv = Ms[n], KG[:n], rng.standard_normal(n)
        L = dpotrf(M, lower=1, clean=1)[0]

        def step(M=M, Kn=Kn, yv=yv, L=L):
            dpotrf(M, lower=1, clean=1)
            A = dtrtrs(L, Kn, lower=1)[0]
            z = dtrtrs(L, yv, lower=1)[0]
            _ucb_scores(A.T @ z, 1.0 - np.einsum("ij,ij->j", A, A))

        calls.append(step)
    return _timed_loop(calls)


def bare_spectra(sizes: list[int], seed: int = 0) -> float:
    """The exact k-DPP's eigendecomposition of the Gram of the distinct past inputs, once per growth of that
    set at which the policy drew (SparQ, W-SparQ); the draws are :func:`bare_kdpp_draws`."""
    rng = np.random.default_rng(seed)
    mats = []
    for n in sizes:
        B = rng.standard_normal((n, n))
        mats.append(B @ B.T)
    return _timed_loop([partial(np.linalg.eigh, M) for M in mats])


def bare_kdpp_draws(draws: list[tuple[int, int]], seed: int = 0) -> float:
    """The sequential phase of each exact k-DPP draw (Kulesza & Taskar 2012, Alg. 1 phase 2) over ``n`` distinct
    inputs with ``k`` chosen eigenvectors: per pick, the squared-norm update, the cumulative sums and one search,
    a mat-vec with the chosen eigenvectors and one with the earlier columns. A draw of every input (``k = n``)
    has nothing to draw. The choice of the eigenvectors (one Bernoulli per eigenvalue, scalar work) is not
    counted, so the bare time is a lower bound."""
    rng = np.random.default_rng(seed)
    bases = {}
    calls = []
    for n, k in draws:
        if k == 0 or k >= n:
            continue
        if (n, k) not in bases:
            bases[(n, k)] = np.linalg.qr(rng.standard_normal((n, k)))[0]
        uniforms = rng.random(k)

        def draw(Vs=bases[(n, k)], n=n, k=k, uniforms=uniforms):
            d = np.einsum("ij,ij->i", Vs, Vs)
            F = np.zeros((n, k))
            for t in range(k):
                cdf = np.cumsum(np.maximum(d, 0.0))
                i = min(int(np.searchsorted(cdf, uniforms[t] * cdf[-1])), n - 1)
                col = (Vs @ Vs[i] - F[:, :t] @ F[i, :t]) / math.sqrt(max(d[i], 1e-300))
                F[:, t] = col
                d = d - col * col

        calls.append(draw)
    return _timed_loop(calls)


def bare_spatiotemporal(rec: Record, G: int, nodes: int, evaluations, seed: int = 0) -> float:
    """W-DBO, BOLT, FIFO: the select's solve ``L⁻¹ k(X, grid × {t})`` (with forming that block from the cached
    rows), the removal criterion's solves ``P`` and ``P k(X, nodes)``, its element-wise W₂ formula once per
    evaluation, a rank-one downdate per removal, and the factor's column append and ``qr_delete``."""
    rng = np.random.default_rng(seed)
    top = int(max(rec.size_after.max(), rec.size_before.max())) + 1
    rows = rng.standard_normal((top, G))
    Rs = {n: _upper(n, rng) for n in range(1, top + 1)}
    calls = []
    for n, m_after, evals in zip(rec.size_before, rec.size_after, evaluations(rec)):
        n, m = int(n), int(n) + 1
        kt = rng.uniform(0.5, 1.0, (top, nodes))
        if n:
            calls += [partial(_select_solve, Rs[n], rows[:n], kt[:n, 0])]
            calls += [partial(dtrtrs, Rs[n], rows[:n, 0], lower=0, trans=1)]
        if evals:
            calls += [partial(_criterion, Rs[m], rows[:m], kt[:m], evals, m - int(m_after))]
        for k in range(m - int(m_after)):
            calls += [partial(qr_delete, np.eye(m - k), Rs[m - k], 0, 1, "col", check_finite=False)]
    return _timed_loop(calls)


def _select_solve(R, rows, kt) -> None:
    A = dtrtrs(R, kt[:, None] * rows, lower=0, trans=1)[0]
    _ucb_scores(A.T @ A[:, 0], 1.0 - np.einsum("ij,ij->j", A, A))


def _criterion(R, rows, kt, evaluations: int, removals: int) -> None:
    m = R.shape[0]
    Kq = (kt[:, :, None] * rows[:, None, :]).reshape(m, -1)
    P = dpotrs(R, np.eye(m), lower=0)[0]
    V = dpotrs(R, Kq, lower=0)[0]
    alpha = P @ np.ones(m)
    mean = Kq.T @ alpha
    var = np.abs(np.einsum("ij,ij->j", Kq, V))
    for k in range(evaluations):
        d = np.abs(np.diag(P)) + 1.0
        mm = mean - V * (alpha / d)[:, None]
        vm = var + V * V / d[:, None]
        np.sqrt(np.mean((mean - mm) ** 2 + (np.sqrt(var) - np.sqrt(vm)) ** 2, axis=1))
        if k < removals:
            V = V - np.outer(P[:, 0], V[0])
            P = P - np.outer(P[:, 0], P[0])


# --------------------------------------------------------------------------------------------------
# the policies, their definition checks and bare loops
# --------------------------------------------------------------------------------------------------
def grid_case(name: str, make, T: int, G: int, seed: int, repeats: int) -> dict:
    """GP-UCB family (GP-UCB, ET-, R-, TV-, SW-GP-UCB)."""
    grid, kernel, f, noise, _, _ = _setup(G, T, seed)
    env = Static(grid, kernel, f, noise)
    rec = drive(make, env, T, seed, repeats=repeats)
    bare = fastest(repeats, bare_window if name == "sw-gp-ucb" else bare_append, rec, G)
    return _row(rec, bare, definition_check(make, env, T, seed))


def _row(rec: Record, bare: float, refit: dict, **extra) -> dict:
    return {"T": int(rec.chosen.size), "seconds": rec.seconds, "bare_seconds": bare, "ratio": rec.seconds / bare,
            **refit, "final_dataset_size": int(rec.size_after[-1]), **extra}


def hetero_case(T: int, G: int, seed: int, repeats: int) -> dict:
    grid, kernel, f, noise, _, _ = _setup(G, T, seed)
    env = Static(grid, kernel, f, noise)

    def make() -> Policy:
        return ALGORITHMS["hetero-gp-ucb"](alpha=1.0)

    rec = drive(make, env, T, seed, repeats=repeats)
    distinct = [np.unique(rec.chosen[:t]).size for t in range(1, T + 1)]
    bare = fastest(repeats, bare_factor_solve, distinct, G)
    return _row(rec, bare, definition_check(make, env, T, seed), distinct_arms_final=distinct[-1])


def wgp_case(T: int, G: int, seed: int, discount: float, repeats: int) -> dict:
    grid, kernel, f, noise, _, _ = _setup(G, T, seed)
    env = Static(grid, kernel, f, noise)

    def make() -> Policy:
        return ALGORITHMS["wgp-ucb"](log_rule(0.8, 4.0), discount=discount)

    rec = drive(make, env, T, seed, repeats=repeats)
    policy = rec.policy
    memory = policy._memory
    kept = [int(min(t, np.floor(memory) + 1)) for t in range(1, T + 1)]  # observations kept after round t
    rank = _float_rank(policy, kernel, grid)
    arms = [np.unique(rec.chosen[t - kept[t - 1] : t]).size for t in range(1, T + 1)]
    effective = [min(u, rank) for u in arms]
    bare = fastest(repeats, bare_factor_solve, effective, G)
    return _row(rec, bare, definition_check(make, env, T, seed), discount=discount, kept_observations_final=kept[-1],
                distinct_arms_final=arms[-1], grid_factor_rank=rank)


def _float_rank(policy, kernel, grid) -> int:
    """Rank of the grid Gram at float precision: the size of the information form (the policy's own factor when
    it has one; otherwise the eigenvalues above 1e-14 of the largest)."""
    features = getattr(policy._arm_post, "features", False)
    if features is not False:
        return grid.shape[0] if features is None else int(features.shape[1])
    w = np.linalg.eigvalsh(kernel(grid))
    return int(np.sum(w > 1e-14 * w[-1]))


def sparse_case(name: str, T: int, G: int, seed: int, repeats: int) -> dict:
    grid, kernel, f, noise, _, _ = _setup(G, T, seed)
    env = Static(grid, kernel, f, noise)

    def make() -> Policy:  # times the k-DPP draws inside the policy's own time and records their sizes
        policy = ALGORITHMS[name]()
        inner, policy.dpp_seconds, policy.dpp_draws = policy._dpp_points, 0.0, []

        def timed(t: int) -> np.ndarray:
            start = time.perf_counter()
            out = inner(t)
            policy.dpp_seconds += time.perf_counter() - start
            policy.dpp_draws.append((int(np.count_nonzero(policy._visited)), int(out.size)))
            return out

        policy._dpp_points = timed
        return policy

    rec = drive(make, env, T, seed, lambda p: (id(getattr(p, "_exact_sampler", None)), p._query_size), repeats=repeats)
    policy = rec.policy
    samplers = [snap[0] for snap in rec.snapshots]
    spectra = [snap[1] for k, snap in enumerate(rec.snapshots) if k == 0 or samplers[k] != samplers[k - 1]]
    sizes = [int(n) for n in rec.size_after]
    bare_update = fastest(repeats, bare_factor_solve, sizes, G) + fastest(repeats, bare_spectra, spectra)
    bare_draws = fastest(repeats, bare_kdpp_draws, policy.dpp_draws)
    return _row(rec, bare_update + bare_draws, definition_check(make, env, T, seed),
                mean_regression_set=float(np.mean(sizes)), expert_queries=int(policy.expert.count),
                dpp_spectra=len(spectra), dpp_draw_seconds=rec.fastest.dpp_seconds, bare_draw_seconds=bare_draws,
                ratio_without_dpp_draws=(rec.seconds - rec.fastest.dpp_seconds) / bare_update)


def spatiotemporal_case(name: str, T: int, G: int, seed: int, repeats: int) -> dict:
    grid, kernel, f, noise, _, _ = _setup(G, T, seed)
    env = Static(grid, kernel, f, noise)
    make = {"w-dbo": lambda: ALGORITHMS["w-dbo"](), "fifo-gp-ucb": lambda: ALGORITHMS["fifo-gp-ucb"](size=50),
            "bolt": lambda: ALGORITHMS["bolt"](response="0.5 + 2e-4*n**3")}[name]
    rec = drive(make, env, T, seed, repeats=repeats)
    policy = rec.policy

    def evaluations(r: Record) -> list[int]:
        removals = r.size_before + 1 - r.size_after
        if name == "fifo-gp-ucb":
            return [0] * removals.size
        if name == "bolt":
            return removals.tolist()
        return [int(k) + (1 if int(n) + 1 - int(k) > 1 else 0) for k, n in zip(removals, r.size_before)]

    bare = fastest(repeats, bare_spatiotemporal, rec, G, policy.horizon_nodes, evaluations)
    return _row(rec, bare, definition_check(make, env, T, seed), mean_dataset_size=float(np.mean(rec.size_after)))


POLICIES = ("gp-ucb", "et-gp-ucb", "r-gp-ucb", "tv-gp-ucb", "sw-gp-ucb", "wgp-ucb", "hetero-gp-ucb", "sparq-gp-ucb",
            "w-sparq-gp-ucb", "w-dbo", "bolt", "fifo-gp-ucb")


def policy_section(name: str, args) -> dict:
    T, G, seed, R = args.T, args.G, args.seed, args.repeats
    beta = log_rule(0.8, 4.0)
    if name in ("gp-ucb", "et-gp-ucb"):
        return grid_case(name, lambda: ALGORITHMS[name](beta), T, G, seed, R)
    if name == "r-gp-ucb":
        return {"block": args.block, **grid_case(name, lambda: ALGORITHMS[name](beta, block=args.block), T, G, seed, R)}
    if name == "tv-gp-ucb":
        return {"epsilon": args.epsilon, **grid_case(name, lambda: ALGORITHMS[name](beta, epsilon=args.epsilon), T, G,
                                                     seed, R)}
    if name == "sw-gp-ucb":
        return {"window": args.window, **grid_case(name, lambda: ALGORITHMS[name](beta, window=args.window), T, G,
                                                   seed, R)}
    if name == "wgp-ucb":
        return wgp_case(T, G, seed, args.discount, R)
    if name == "hetero-gp-ucb":
        return hetero_case(args.hetero_T, G, seed, R)
    if name in ("sparq-gp-ucb", "w-sparq-gp-ucb"):
        return sparse_case(name, args.sparq_T, G, seed, R)
    return spatiotemporal_case(name, args.st_T, G, seed, R)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("-T", type=int, default=1000)
    parser.add_argument("-G", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--window", type=int, default=100)
    parser.add_argument("--block", type=int, default=200)
    parser.add_argument("--epsilon", type=float, default=0.01)
    parser.add_argument("--discount", type=float, default=0.95)
    parser.add_argument("--hetero-T", type=int, default=300, help="horizon of the heteroscedastic policy (its "
                        "refit is O(t^3) a round)")
    parser.add_argument("--sparq-T", type=int, default=300)
    parser.add_argument("--st-T", type=int, default=300, help="horizon of W-DBO, BOLT and FIFO")
    parser.add_argument("--only", default=",".join(POLICIES), help="comma-separated policies")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each policy and of each bare loop; the "
                        "fastest is reported (the machine is shared)")
    parser.add_argument("--sklearn", action="store_true", help="add GP-UCB against a scikit-learn refit loop")
    parser.add_argument("--sample", type=int, default=8, help="rounds at which the scikit-learn and numpy refit "
                        "loops are timed (interpolated over T)")
    args = parser.parse_args()
    for name in args.only.split(","):
        check_choice("policy", name, POLICIES)
    out: dict = {"T": args.T, "G": args.G, "blas_threads": 1, "load_average": os.getloadavg()[0],
                 "not_benchmarked": {"random": "keeps no posterior"}, "policies": {}}
    with threadpool_limits(limits=1, user_api="blas"):
        for name in args.only.split(","):
            out["policies"][name] = policy_section(name, args)
        if args.sklearn:
            gp = out["policies"].get("gp-ucb") or policy_section("gp-ucb", args)
            rec_chosen = drive(lambda: ALGORITHMS["gp-ucb"](log_rule(0.8, 4.0)),
                               Static(*_setup(args.G, args.T, args.seed)[:3], 0.01), args.T, args.seed).chosen
            sk = sampled_refits(args.G, args.T, args.seed, rec_chosen, args.sample)
            out["gp-ucb-vs-sklearn"] = {**sk, "speedup_vs_sklearn": sk["seconds_sklearn"] / gp["seconds"],
                                        "speedup_vs_numpy_refit": sk["seconds_refit_numpy"] / gp["seconds"]}
    out["load_average_end"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{'policy':>16} {'T':>5} {'seconds':>9} {'bare':>9} {'ratio':>6} {'refit':>9} same  max|dmu|")
    for name, r in out["policies"].items():
        print(f"{name:>16} {r['T']:>5} {r['seconds']:9.3f} {r['bare_seconds']:9.3f} {r['ratio']:6.2f} "
              f"{r['refit_seconds']:9.3f} {str(r['same_trajectory']):>5} {r['max_mean_diff']:.1e}")


if __name__ == "__main__":
    main()
