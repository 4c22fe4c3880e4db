"""Run a policy on an environment and collect a trace; run many seeded repetitions on an executor.

``run(policy, env, T, rng)`` plays ``T`` rounds and returns a :class:`Trace`. The generator is split
with :meth:`numpy.random.Generator.spawn` into independent streams for the environment's realisation,
the observation noise, the policy and the expert, so a trace depends only on the seed.
``run_many`` gives repetition ``i`` the generator of ``SeedSequence(seed).spawn(reps)[i]``; results are
therefore identical whatever executor runs them (ARCHITECTURE.md, "Execution").
"""

from __future__ import annotations

import copy
import time as _time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import numpy as np

from ..execution import get_executor, single_threaded_blas
from ..validation import check_int, check_nonnegative
from .environments.base import Environment
from .expert import ExpertOracle
from .policy import Policy, Problem


@dataclass
class Trace:
    """One run: per-round arrays (length ``T``) and JSON metadata.

    ``index``/``x``: the played grid index and point; ``y``: the observation; ``regret``: ``r_t =
    max f_t − f_t(x_t)`` (exact on the grid); ``cumulative``: ``R_t``; ``expert_queries``: cumulative
    expert queries ``N_t``; ``dataset_size``: observations in the posterior after round ``t``;
    ``beta``: β_t used to choose ``x_t``; ``time``: the environment clock; ``seconds``: wall time of
    the round spent in the policy (``select`` + ``observe``).
    """

    index: np.ndarray
    x: np.ndarray
    y: np.ndarray
    regret: np.ndarray
    cumulative: np.ndarray
    expert_queries: np.ndarray
    dataset_size: np.ndarray
    beta: np.ndarray
    time: np.ndarray
    seconds: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    ARRAYS = ("index", "x", "y", "regret", "cumulative", "expert_queries", "dataset_size", "beta", "time", "seconds")

    @property
    def T(self) -> int:
        return int(self.index.shape[0])

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in self.ARRAYS}

    def same_run(self, other: "Trace") -> bool:
        """Equal in everything but wall-clock seconds (determinism and executor checks)."""
        return all(np.array_equal(getattr(self, n), getattr(other, n), equal_nan=True)
                   for n in self.ARRAYS if n != "seconds")


def run(policy: Policy, env: Environment, T: int, rng: np.random.Generator, *, expert_noise_var: float | None = None,
        expert_budget: int | None = None) -> Trace:
    """Play ``T`` rounds of ``policy`` on ``env`` (both are reset; pass copies to keep the originals).

    BLAS is limited to one thread during the run (:func:`single_threaded_blas`).
    """
    with single_threaded_blas():
        return _run(policy, env, T, rng, expert_noise_var, expert_budget)


def _run(policy: Policy, env: Environment, T: int, rng: np.random.Generator, expert_noise_var: float | None,
         expert_budget: int | None) -> Trace:
    T = check_int("T", T, 1)
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy Generator, got {type(rng).__name__}")
    env_rng, noise_rng, policy_rng, expert_rng = rng.spawn(4)
    env.reset(env_rng, T)
    enoise = env.noise_var if expert_noise_var is None else check_nonnegative("expert_noise_var", expert_noise_var)
    expert = ExpertOracle(env, enoise, expert_rng, expert_budget)
    problem = Problem(env.grid, env.kernel, env.noise_var, T, getattr(env, "st_kernel", None), env.problem_extra())
    policy.reset(problem, policy_rng, expert)
    G, d = env.grid.shape
    out = {name: np.zeros(T) for name in ("y", "regret", "beta", "time", "seconds")}
    index = np.zeros(T, dtype=np.int64)
    queries = np.zeros(T, dtype=np.int64)
    sizes = np.zeros(T, dtype=np.int64)
    for t in range(1, T + 1):
        if t > 1:
            env.advance(policy.dataset_size)
        clock = env.time
        start = _time.perf_counter()
        i = policy.select(t, clock)
        if not (isinstance(i, (int, np.integer)) and 0 <= i < G):
            raise ValueError(f"policy {policy.name} chose an invalid grid index {i!r}")
        spent = _time.perf_counter() - start
        f = env.values()
        y = env.observe(int(i), noise_rng)
        start = _time.perf_counter()
        policy.observe(t, clock, int(i), y)
        spent += _time.perf_counter() - start
        index[t - 1] = i
        out["y"][t - 1] = y
        out["regret"][t - 1] = float(np.max(f) - f[i])
        out["beta"][t - 1] = policy.last_beta
        out["time"][t - 1] = clock
        out["seconds"][t - 1] = spent
        queries[t - 1] = expert.count
        sizes[t - 1] = policy.dataset_size
    meta = {"policy": policy.config(), "env": env.config(), "T": T, "expert_noise_var": float(enoise),
            "expert_budget": expert_budget}
    return Trace(index, env.grid[index].copy(), out["y"], out["regret"], np.cumsum(out["regret"]), queries, sizes,
                 out["beta"], out["time"], out["seconds"], meta)


@dataclass(frozen=True)
class Job:
    """One repetition: everything needed to reproduce it in another process."""

    policy: Policy
    env: Environment
    T: int
    rep: int
    seed_seq: np.random.SeedSequence
    options: dict[str, Any]

    def __call__(self) -> tuple[int, Trace]:
        rng = np.random.default_rng(self.seed_seq)
        trace = run(copy.deepcopy(self.policy), copy.deepcopy(self.env), self.T, rng, **self.options)
        trace.meta.update({"rep": self.rep, "seed_entropy": str(self.seed_seq.entropy),
                           "spawn_key": list(self.seed_seq.spawn_key)})
        return self.rep, trace


def run_job(job: Job) -> tuple[int, Trace]:
    """Module-level entry point (picklable) used by the executors; BLAS limited to one thread."""
    with single_threaded_blas():
        return job()


def make_jobs(policy: Policy, env: Environment, T: int, reps: int, seed: int, **options: Any) -> list[Job]:
    """Repetition ``i`` gets ``SeedSequence(seed).spawn(reps)[i]``."""
    T = check_int("T", T, 1)
    reps = check_int("reps", reps, 1)
    seed = check_int("seed", seed, 0)
    children = np.random.SeedSequence(seed).spawn(reps)
    return [Job(policy, env, T, i, s, options) for i, s in enumerate(children)]


def run_many(policy: Policy, env: Environment, T: int, reps: int, *, seed: int = 0, executor: Any = "process",
             out_dir: str | None = None, progress: bool = False, skip: Iterable[int] = (),
             on_result: Callable[[int, Trace], None] | None = None, **options: Any) -> list[Trace]:
    """Run ``reps`` seeded repetitions and return their traces in repetition order.

    ``executor``: ``"serial"``, ``"process"`` (default, one worker per core), ``"dask"`` or an executor
    object from :mod:`tvbo_verify.execution`. With ``out_dir`` every finished repetition is saved
    at once (atomically), so an interrupted run keeps what finished; repetitions listed in ``skip`` are
    not run (resume). ``progress`` shows a progress bar on stderr.
    """
    from .traces import save_trace

    jobs = [j for j in make_jobs(policy, env, T, reps, seed, **options) if j.rep not in set(skip)]
    ex = get_executor(executor)
    results: dict[int, Trace] = {}

    def _consume(iterator: Iterable[tuple[int, Trace]]) -> None:
        for rep, trace in iterator:
            results[rep] = trace
            if out_dir is not None:
                save_trace(trace, out_dir, rep)
            if on_result is not None:
                on_result(rep, trace)

    if progress and jobs:
        import click

        with click.progressbar(length=len(jobs), label=f"{policy.name} on {env.name}",
                               file=click.get_text_stream("stderr")) as bar:
            def _ticking() -> Iterable[tuple[int, Trace]]:
                for item in ex.map_unordered(run_job, jobs):
                    bar.update(1)
                    yield item

            _consume(_ticking())
    else:
        _consume(ex.map_unordered(run_job, jobs))
    return [results[r] for r in sorted(results)]
