"""Executors for repetitions: serial, local processes, or a Dask cluster (ARCHITECTURE.md, "Execution").

Repetitions receive ``SeedSequence.spawn`` children, so results do not depend on the executor.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Iterable

EXECUTORS = ("serial", "process", "dask")


def single_threaded_blas():
    """A context that limits BLAS to one thread (checks use many small matrices, for which BLAS
    threading on a shared machine costs up to two orders of magnitude); a no-op without threadpoolctl."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - optional
        import contextlib

        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def _worker_init() -> None:
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover
        return
    threadpool_limits(limits=1, user_api="blas")


class Executor:
    """``map(fn, items)`` over a chosen backend; ``fn`` must be a module-level function for processes."""

    def __init__(self, kind: str = "serial", *, workers: int | None = None, scheduler: str | None = None) -> None:
        if kind not in EXECUTORS:
            raise ValueError(f"executor must be one of {', '.join(EXECUTORS)}, got {kind!r}")
        self.kind = kind
        self.workers = workers or max(1, os.cpu_count() or 1)
        self.scheduler = scheduler
        self._pool: Any = None

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        items = list(items)
        if self.kind == "serial" or len(items) <= 1:
            return [fn(i) for i in items]
        if self.kind == "process":
            if self._pool is None:
                self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_worker_init)
            return list(self._pool.map(fn, items))
        if self._pool is None:
            try:
                from distributed import Client
            except ImportError as exc:  # pragma: no cover - optional dependency
                raise ValueError("executor dask needs `pip install tvbo-verify[distributed]`") from exc
            self._pool = Client(self.scheduler) if self.scheduler else Client(processes=False)
        futures = self._pool.map(fn, items)
        return self._pool.gather(futures)

    def close(self) -> None:
        if self._pool is not None:
            if self.kind == "process":
                self._pool.shutdown()
            else:  # pragma: no cover
                self._pool.close()
            self._pool = None

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
