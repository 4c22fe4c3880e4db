"""Executors for independent jobs (repetitions, claims): serial, local processes, Dask distributed.

docs/ARCHITECTURE.md §9. Every executor offers

* ``map(fn, items)`` — results in item order;
* ``map_unordered(fn, items)`` — results as they finish (so finished work can be saved at once);

and is a context manager that releases its workers on exit. Seeds travel with the jobs
(``SeedSequence.spawn`` children), so the executor never changes a result. ``fn`` must be a
module-level (picklable) function for the process and Dask executors.

BLAS runs single-threaded inside every job (:mod:`tvbo_verify.blas`): jobs already run in parallel and
their matrices are small. No executor changes a result, so this module is not part of a run's cache key
(:mod:`tvbo_verify.sweeps.codekey`): mending an executor keeps every cached run.
"""

from __future__ import annotations

import logging
import os
import signal
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

from .blas import limit_blas_of_this_process, single_threaded_blas
from .errors import MissingExtraError
from .validation import check_choice, check_int

EXECUTORS: tuple[str, ...] = ("serial", "process", "dask")


def _limit_worker_blas() -> None:
    """Worker initializer: one BLAS thread; Ctrl-C is left to the parent, which ends the workers.

    The worker starts with SIGINT blocked (:func:`_workers_start_deaf`): a Ctrl-C that arrives while it
    starts stays pending, and is discarded once SIGINT is ignored here, instead of printing a traceback.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    limit_blas_of_this_process()


@contextmanager
def _workers_start_deaf() -> Iterator[None]:
    """Block SIGINT in this thread while it submits jobs (which starts the workers, who inherit the mask);
    a Ctrl-C meanwhile is delivered here as ``KeyboardInterrupt`` when the block ends."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


POLL_S = 0.2
"""Longest single wait for a job (seconds); see :func:`_as_finished`."""


def _run_signal_handlers() -> None:
    """Run Python's pending signal handlers now: after a Ctrl-C, raise ``KeyboardInterrupt`` here.

    The kernel hands a SIGINT sent to the process to any thread that does not block it (a BLAS thread,
    a thread of the process pool). Python then records the signal, but (CPython 3.11) the main thread
    runs the handler only once it checks for signals itself, and a thread that only waits for jobs may
    not check before they finish. :func:`signal.pthread_sigmask` checks (it calls
    ``PyErr_CheckSignals``); blocking the empty set changes no mask.
    """
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, ())


def _as_finished(futures: list[Future], *, ordered: bool) -> Iterator[Future]:
    """Yield ``futures`` as they finish (``ordered``: in list order), in waits of at most :data:`POLL_S`
    seconds, after each of which pending signal handlers run: Ctrl-C is seen within :data:`POLL_S`
    seconds, whichever thread the kernel handed the signal to (:func:`_run_signal_handlers`)."""
    if ordered:
        for fut in futures:
            while not wait([fut], timeout=POLL_S).done:
                _run_signal_handlers()
            yield fut
        return
    pending = set(futures)
    while pending:
        done, pending = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
        _run_signal_handlers()
        yield from done


class Executor:
    """Base class: runs jobs one after the other in this process (the ``serial`` executor)."""

    name = "serial"

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        for item in items:
            yield fn(item)

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        return [fn(item) for item in items]

    def close(self) -> None:
        """Release workers (nothing to do for the serial executor)."""

    def abandon(self) -> None:
        """Release workers at once, dropping unfinished jobs (after an error or an interrupt)."""
        self.close()

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, exc_type: Any, *exc: Any) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abandon()


SerialExecutor = Executor


class ProcessExecutor(Executor):
    """A local process pool, kept alive across calls until :meth:`close` (workers default to the cores)."""

    name = "process"

    def __init__(self, max_workers: int | None = None) -> None:
        self.max_workers = None if max_workers is None else check_int("max_workers", max_workers, 1)
        self._pool: ProcessPoolExecutor | None = None
        self._submitted: list[Future] = []

    def _get_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            workers = self.max_workers or os.cpu_count() or 1
            self._pool = ProcessPoolExecutor(max_workers=workers, initializer=_limit_worker_blas)
        return self._pool

    def _submit(self, fn: Callable[[Any], Any], items: list[Any]) -> list[Future]:
        pool = self._get_pool()
        self._submitted = [f for f in self._submitted if not f.done()]
        try:
            with _workers_start_deaf():
                for item in items:
                    self._submitted.append(pool.submit(fn, item))
                return self._submitted[-len(items):]
        except (KeyboardInterrupt, SystemExit):
            self.abandon()
            raise

    def _results(self, fn: Callable[[Any], Any], items: list[Any], *, ordered: bool) -> Iterator[Any]:
        futures = self._submit(fn, items)
        try:
            for fut in _as_finished(futures, ordered=ordered):
                yield fut.result()
        except (KeyboardInterrupt, SystemExit):
            self.abandon()
            raise
        finally:
            for fut in futures:
                fut.cancel()

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """Results as they finish. Ctrl-C (or ``SystemExit``) while waiting ends the workers at once, so a
        later :meth:`close`, or the interpreter's exit, does not wait for the jobs that were running."""
        items = list(items)
        if len(items) <= 1:
            yield from super().map_unordered(fn, items)
            return
        yield from self._results(fn, items, ordered=False)

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        """Results in item order; Ctrl-C while waiting ends the workers at once (see :meth:`map_unordered`)."""
        items = list(items)
        if len(items) <= 1:
            return super().map(fn, items)
        return list(self._results(fn, items, ordered=True))

    def close(self) -> None:
        """Release the workers; jobs still running (their caller stopped waiting: an error, Ctrl-C) are ended
        as by :meth:`abandon` rather than waited for."""
        if any(not f.done() for f in self._submitted):
            self.abandon()
        elif self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None
        self._submitted = []

    def abandon(self) -> None:
        """Terminate the workers without waiting for running jobs (Ctrl-C must end a run at once)."""
        self._submitted = []
        if self._pool is not None:
            pool, self._pool = self._pool, None
            processes = list((getattr(pool, "_processes", None) or {}).values())
            # (read before shutdown, which forgets it) The manager thread closes its wake-up pipe when it sees
            # the workers gone. Until it has, the interpreter's exit hook may write to that pipe while it is being
            # closed (a CPython 3.11 race that prints "OSError: Bad file descriptor" at exit): wait for it here.
            manager = getattr(pool, "_executor_manager_thread", None)
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in processes:
                proc.terminate()
            for proc in processes:
                proc.join(timeout=1.0)
            if manager is not None:
                manager.join(timeout=2.0)


def _blas_limited_call(fn: Callable[[Any], Any], item: Any) -> Any:
    """``fn(item)`` with one BLAS thread (a Dask worker has no initializer to set it once)."""
    with single_threaded_blas():
        return fn(item)


class DaskExecutor(Executor):
    """Jobs on a Dask distributed scheduler at ``address``, on an existing ``client``, or (neither) on a local
    cluster of one single-threaded worker process per core. Needs the optional extra ``distributed``.

    Every job runs with one BLAS thread. At most one job per worker thread is on the cluster at a time (jobs
    of a job aside, see :meth:`of_this_worker`). Leaving the executor after an error or Ctrl-C cancels the
    jobs still queued or running on the cluster (the workers stay up for the next client)."""

    name = "dask"
    #: seconds to wait for the scheduler before giving up with one error line
    CONNECT_TIMEOUT = 20.0

    def __init__(self, address: str | None = None, client: Any = None) -> None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise MissingExtraError("distributed", "executor dask") from None
        self.address = address
        self._client = client
        self._own = False
        self._futures: list[Any] = []
        self._in_worker = False

    @classmethod
    def of_this_worker(cls) -> "DaskExecutor | None":
        """The cluster the calling code runs on when it runs inside a Dask job (else None): the job submits its
        own jobs (a claim its repetitions) to the cluster, and leaves its worker slot while it waits for them
        (``secede``/``rejoin``), so that a worker runs them even with one thread."""
        try:
            from distributed import get_client, get_worker

            get_worker()
        except (ImportError, ValueError):
            return None
        ex = cls(client=get_client())
        ex._in_worker = True
        return ex

    def _get_client(self) -> Any:
        if self._client is None:
            from distributed import Client

            if self.address:
                try:
                    self._client = Client(self.address, timeout=self.CONNECT_TIMEOUT)
                except (OSError, TimeoutError) as exc:
                    raise ValueError(f"cannot reach the Dask scheduler at {self.address!r}: {exc}") from None
            else:
                self._client = Client(n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True,
                                      dashboard_address=":0", silence_logs=logging.ERROR)
            self._own = True
        return self._client

    def _submit(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        client = self._get_client()
        where: dict[str, Any] = {}
        if self._in_worker:
            # jobs of a job go before the jobs still queued (the job waiting for them holds its results back) and
            # to the worker of that job, whose slot it leaves to them; idle workers take them from there
            from distributed import get_worker

            where = {"priority": 1, "workers": [get_worker().address], "allow_other_workers": True}
        futures = [client.submit(_blas_limited_call, fn, item, pure=False, **where) for item in items]
        self._futures = [f for f in self._futures if not f.done()] + futures
        return futures

    def _slots(self) -> int:
        """Worker threads of the cluster now (at least 1)."""
        return max(1, sum(self._get_client().nthreads().values()))

    def _in_order_of_completion(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[tuple[int, Any]]:
        """``(index, fn(item))`` as jobs finish, with at most one job per worker thread on the cluster at a time:
        a job that waits for jobs of its own leaves its slot to them, never to a sibling queued behind it
        (which could hold the slot for as long as it runs)."""
        from distributed import as_completed as dask_completed

        pending = list(enumerate(items))[::-1]
        index: dict[Any, int] = {}
        running = dask_completed(loop=self._get_client().loop)
        try:
            while pending or index:
                while pending and len(index) < self._slots():
                    k, item = pending.pop()
                    fut = self._submit(fn, [item])[0]
                    index[fut] = k
                    running.add(fut)
                fut = next(running)
                yield index.pop(fut), fut.result()
        finally:
            self._get_client().cancel([f for f in index if not f.done()])

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        if self._in_worker:  # the waiting job gives its slot back while every job runs (see of_this_worker)
            yield from self.map(fn, items)
            return
        for _, result in self._in_order_of_completion(fn, items):
            yield result

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        if not self._in_worker:
            done = dict(self._in_order_of_completion(fn, items))
            return [done[k] for k in range(len(done))]
        from distributed import rejoin, secede

        futures = self._submit(fn, items)
        try:
            secede()
            try:
                return self._get_client().gather(futures)
            finally:
                rejoin()
        finally:
            self._get_client().cancel([f for f in futures if not f.done()])

    def close(self) -> None:
        self._futures = []
        if self._own and self._client is not None:
            self._client.close()  # also ends the local cluster it started
            self._client = None
            self._own = False

    def abandon(self) -> None:
        """Cancel the jobs still on the cluster, then :meth:`close`."""
        if self._client is not None and self._futures:
            self._client.cancel(self._futures)
        self.close()


def get_executor(
    spec: str | Executor = "process",
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
) -> Executor:
    """An executor from its name (``serial``, ``process``, ``dask``); an executor object passes through."""
    if isinstance(spec, Executor):
        return spec
    check_choice("executor", spec, EXECUTORS)
    if spec == "serial":
        return Executor()
    if spec == "process":
        return ProcessExecutor(workers)
    return DaskExecutor(scheduler, client)
