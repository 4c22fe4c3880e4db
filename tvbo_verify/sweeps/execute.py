"""Running a sweep: cached runs are read, missing ones run on an executor and are cached as they finish.

Jobs are module-level (picklable) so the serial, process and Dask executors of
:mod:`tvbo_verify.execution` run them unchanged; results do not depend on the executor because every
run's seed travels with its :class:`~tvbo_verify.sweeps.spec.RunSpec`. The run cache is an explicit
argument (``RunCache(None)`` keeps nothing); only the parent process reads and writes it (workers may
be remote and never see it), one run at a time, so an interrupted sweep keeps what finished and a
rerun resumes. A progress bar (runs done / total, elapsed, remaining) goes to stderr when it is a
terminal and ``progress`` is not disabled.
"""

from __future__ import annotations

import sys
from typing import Any, Iterable

from ..bandits.runner import Trace
from ..blas import single_threaded_blas
from ..execution import Executor, get_executor
from .cache import RunCache
from .results import SweepResult
from .spec import RunSpec, Sweep


def execute_spec(spec: RunSpec) -> tuple[str, Trace]:
    """Module-level job: run one spec with BLAS limited to one thread."""
    with single_threaded_blas():
        return spec.key, spec.execute()


def _progress_bar(total: int, label: str, enabled: bool | None) -> Any:
    show = sys.stderr.isatty() if enabled is None else enabled
    if not show or total == 0:
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc=label, unit="run", file=sys.stderr, leave=False, dynamic_ncols=True)


def check_specs(specs: Iterable[RunSpec]) -> None:
    """Refuse, before any run starts, an unknown algorithm or environment or a parameter of one that its
    factory does not take or needs (:func:`tvbo_verify.bandits.registry.check_policy`, ``check_env``): one
    misspelt name fails the sweep at once, not after the runs before it."""
    from ..bandits.registry import check_env, check_policy

    seen: set[tuple[str, str]] = set()
    for spec in specs:
        policy = ("policy", repr((spec.algorithm, sorted(spec.params.items()), spec.beta)))
        env = ("env", repr((spec.environment, sorted(spec.env_params.items()))))
        if policy not in seen:
            check_policy(spec.algorithm, spec.params, spec.beta)
            seen.add(policy)
        if env not in seen:
            check_env(spec.environment, spec.env_params)
            seen.add(env)


def run_specs(specs: Iterable[RunSpec], *, cache: RunCache, executor: Executor | str = "serial",
              progress: bool | None = None, label: str = "runs") -> dict[str, Trace]:
    """Traces of every spec by key: those in ``cache`` read, missing ones run and written to ``cache``; every
    spec's names and parameters are checked first (:func:`check_specs`)."""
    specs = list(specs)
    check_specs(specs)
    unique: dict[str, RunSpec] = {}
    for s in specs:
        unique.setdefault(s.key, s)
    traces: dict[str, Trace] = {}
    missing = []
    for key, spec in unique.items():
        hit = cache.get(key)
        if hit is None:
            missing.append(spec)
        else:
            traces[key] = hit
    if not missing:
        return traces
    cache.check_writable()
    own = not isinstance(executor, Executor)
    ex = get_executor(executor) if own else executor
    bar = _progress_bar(len(missing), label, progress)
    try:
        for key, trace in ex.map_unordered(execute_spec, missing):
            cache.put(key, trace)
            traces[key] = trace
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
        if own:
            ex.close()
    return traces


def run_sweep(sweep: Sweep, *, cache: RunCache, executor: Executor | str = "serial",
              progress: bool | None = None) -> SweepResult:
    """Every run of a sweep, read from the run cache or run and written to it, as a :class:`SweepResult`.

    Before the first run, every arm's algorithm and parameters and the environment's are checked; a missing or
    misspelt one fails the sweep at once.

    Parameters
    ----------
    sweep : Sweep
        The sweep.
    cache : RunCache
        Where runs are read and written (a check passes ``ctx.cache``; ``RunCache(None)`` keeps nothing).
    executor : Executor or str
        ``"serial"``, ``"process"``, ``"dask"`` or an executor (a check passes ``ctx.executor``).
    progress : bool or None
        Show a progress bar (None: when stderr is a terminal).

    Returns
    -------
    SweepResult
        The traces by arm, horizon and repetition.

    Raises
    ------
    ValueError
        For an unknown algorithm or environment, or a parameter one of them does not take or lacks.

    Examples
    --------
    >>> from tvbo_verify.authoring import Arm, RunCache, Sweep, run_sweep
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> result = run_sweep(sweep, cache=RunCache(None))
    >>> result.final("random").shape  # R_T of each repetition at the longest horizon
    (2,)
    """
    traces = run_specs(sweep.specs(), executor=executor, cache=cache, progress=progress, label=sweep.name)
    return SweepResult(sweep, traces)
