"""BLAS threading for the runs: one thread inside every job.

Jobs already run in parallel and their matrices are small; on a shared 2-core machine multithreaded BLAS
made small solves two orders of magnitude slower. The thread count can change the last bits of a result
(the order of a reduction), so this module is part of every run's cache key
(:mod:`tvbo_verify.sweeps.codekey`), while the executors that distribute the jobs are not: they never
change a result.
"""

from __future__ import annotations

import functools
from contextlib import AbstractContextManager

from threadpoolctl import ThreadpoolController, threadpool_limits


@functools.lru_cache(maxsize=1)
def _blas_controller() -> ThreadpoolController:
    """The thread pools of this process, found once (a search reads every loaded library: 0.5 ms, once per run
    before). BLAS is loaded with numpy, before any job asks."""
    return ThreadpoolController()


def single_threaded_blas() -> AbstractContextManager:
    """Context limiting BLAS to one thread for its duration.

    Runs made in a plugin's own loop (outside :func:`run_sweep`, which limits every job already) should use it:
    the thread count can change the last bits of a result.

    Returns
    -------
    contextlib.AbstractContextManager
        A context manager; BLAS is back to its former thread count on leaving it.

    Examples
    --------
    >>> import numpy as np
    >>> with single_threaded_blas():
    ...     float(np.linalg.solve(np.eye(2) * 2.0, np.ones(2))[0])
    0.5
    """
    return _blas_controller().limit(limits=1, user_api="blas")


def limit_blas_of_this_process() -> None:
    """One BLAS thread for the rest of this process's life (a worker process's initializer)."""
    threadpool_limits(limits=1, user_api="blas")
