"""Run a policy on an environment and collect a trace; run many seeded repetitions on an executor.

``run(policy, env, T, rng)`` plays ``T`` rounds and returns a :class:`Trace`. The generator is split
with :meth:`numpy.random.Generator.spawn` into independent streams for the environment's realisation,
the observation noise, the policy and the expert, so a trace depends only on the seed.
``run_many`` gives repetition ``i`` the generator of ``SeedSequence(seed).spawn(reps)[i]``; results are
therefore identical whatever executor runs them (docs/ARCHITECTURE.md §9).
"""

from __future__ import annotations

import copy
import sys
import time as _time
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np

from ..blas import single_threaded_blas
from ..execution import Executor, get_executor
from ..validation import check_int, check_nonnegative
from .environments.base import Environment
from .expert import ExpertOracle
from .policy import Policy, Problem
from .traces import Trace, save_trace

__all__ = ["MAX_HORIZON", "Job", "Trace", "make_jobs", "run", "run_job", "run_many", "start_run"]

MAX_HORIZON = 1_000_000
"""Most rounds a run may have: a trace keeps eleven numbers per round, and environments precompute their whole
horizon (exact norms, variation budgets, sample paths) before round 1, so a larger ``T`` would spend minutes or
all memory before the first round."""
MAX_HORIZON_REASON = "a trace stores every round and environments precompute the whole horizon before round 1"


def run(policy: Policy, env: Environment, T: int, rng: np.random.Generator, *, expert_noise_var: float | None = None,
        expert_budget: int | None = None) -> Trace:
    """Play ``T`` rounds of ``policy`` on ``env`` (both are reset; pass copies to keep the originals).

    BLAS is limited to one thread during the run (:func:`single_threaded_blas`).
    """
    with single_threaded_blas():
        return _run(policy, env, T, rng, expert_noise_var, expert_budget)


def start_run(policy: Policy, env: Environment, T: int, rng: np.random.Generator,
              expert_noise_var: float | None = None,
              expert_budget: int | None = None) -> tuple[np.random.Generator, ExpertOracle]:
    """Reset ``env`` and ``policy`` for a ``T``-round run drawn from ``rng``; return the observation-noise
    stream and the expert.

    ``rng`` is split into four independent streams — the environment's realisation, the observation noise,
    the policy's own draws and the expert's — so that every reader of a run (:func:`run`, the definition
    audit of :mod:`tvbo_verify.bandits.definitions`) sees the same instance for the same generator.
    """
    env_rng, noise_rng, policy_rng, expert_rng = rng.spawn(4)
    env.reset(env_rng, T)
    enoise = env.noise_var if expert_noise_var is None else check_nonnegative("expert_noise_var", expert_noise_var)
    expert = ExpertOracle(env, enoise, expert_rng, expert_budget)
    problem = Problem(env.grid, env.kernel, env.noise_var, T, getattr(env, "st_kernel", None), env.problem_extra())
    policy.reset(problem, policy_rng, expert)
    return noise_rng, expert


def _run(policy: Policy, env: Environment, T: int, rng: np.random.Generator, expert_noise_var: float | None,
         expert_budget: int | None) -> Trace:
    T = check_int("T", T, 1, maximum=MAX_HORIZON, reason=MAX_HORIZON_REASON)
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy Generator, got {type(rng).__name__}")
    noise_rng, expert = start_run(policy, env, T, rng, expert_noise_var, expert_budget)
    enoise = expert.noise_var
    G, d = env.grid.shape
    out = {name: np.zeros(T) for name in ("y", "regret", "max_regret", "beta", "time", "seconds")}
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
        out["max_regret"][t - 1] = float(np.max(f) - np.min(f))
        out["beta"][t - 1] = policy.last_beta
        out["time"][t - 1] = clock
        out["seconds"][t - 1] = spent
        queries[t - 1] = expert.count
        sizes[t - 1] = policy.dataset_size
    meta = {"policy": policy.config(), "env": env.config(), "T": T, "expert_noise_var": float(enoise),
            "expert_budget": expert_budget}
    return Trace(index, env.grid[index].copy(), out["y"], out["regret"], np.cumsum(out["regret"]), queries, sizes,
                 out["beta"], out["time"], out["seconds"], meta, max_regret=out["max_regret"])


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
    T = check_int("T", T, 1, maximum=MAX_HORIZON, reason=MAX_HORIZON_REASON)
    reps = check_int("reps", reps, 1)
    seed = check_int("seed", seed, 0)
    children = np.random.SeedSequence(seed).spawn(reps)
    return [Job(policy, env, T, i, s, options) for i, s in enumerate(children)]


def run_many(policy: Policy, env: Environment, T: int, reps: int, *, seed: int = 0, executor: Any = "process",
             out_dir: str | None = None, progress: bool = False, skip: Iterable[int] = (),
             on_result: Callable[[int, Trace], None] | None = None, **options: Any) -> list[Trace]:
    """Run ``reps`` seeded repetitions and return their traces in repetition order.

    ``executor``: ``"serial"``, ``"process"`` (default, one worker per core), ``"dask"`` or an executor
    object from :mod:`tvbo_verify.execution`. An executor named here is closed before returning (also
    on an error or an interrupt); an executor object stays open for its owner. With ``out_dir`` every
    finished repetition is saved at once (atomically), so an interrupted run keeps what finished;
    repetitions listed in ``skip`` are not run (resume). ``progress`` writes a count of finished
    repetitions to stderr; ``on_result(rep, trace)`` is called after each repetition is saved.
    """
    skipped = set(skip)
    jobs = [j for j in make_jobs(policy, env, T, reps, seed, **options) if j.rep not in skipped]
    results: dict[int, Trace] = {}
    label = f"{policy.name} on {env.name}"
    owned = not isinstance(executor, Executor)
    with get_executor(executor) if owned else nullcontext(executor) as ex:
        for rep, trace in ex.map_unordered(run_job, jobs):
            results[rep] = trace
            if out_dir is not None:
                save_trace(trace, out_dir, rep)
            if on_result is not None:
                on_result(rep, trace)
            if progress:
                end = "\n" if len(results) == len(jobs) else ""
                sys.stderr.write(f"\r{label}: {len(results)}/{len(jobs)} repetitions{end}")
                sys.stderr.flush()
    return [results[r] for r in sorted(results)]
