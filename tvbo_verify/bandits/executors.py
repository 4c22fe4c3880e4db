"""Executors for repetitions: serial, local processes (default) and Dask distributed (optional extra).

Each offers ``map_unordered(fn, items)``, yielding results as they finish (so finished repetitions can
be saved immediately). Seeds travel with the jobs, so the executor never changes a result.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Callable, Iterable, Iterator

from ..validation import check_choice, check_int

EXECUTORS = ("serial", "process", "dask")


class SerialExecutor:
    """Run jobs one after the other in this process."""

    name = "serial"

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        for item in items:
            yield fn(item)


class ProcessExecutor:
    """A local process pool (``max_workers`` defaults to the number of cores)."""

    name = "process"

    def __init__(self, max_workers: int | None = None) -> None:
        self.max_workers = None if max_workers is None else check_int("max_workers", max_workers, 1)

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        items = list(items)
        if len(items) <= 1:
            yield from SerialExecutor().map_unordered(fn, items)
            return
        workers = min(self.max_workers or os.cpu_count() or 1, len(items))
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(fn, item) for item in items]
            try:
                for fut in as_completed(futures):
                    yield fut.result()
            finally:
                for fut in futures:
                    fut.cancel()


class DaskExecutor:
    """Submit jobs to a Dask distributed scheduler (``address``) or an existing ``client``."""

    name = "dask"

    def __init__(self, address: str | None = None, client: Any = None) -> None:
        try:
            import distributed  # noqa: F401
        except ImportError:  # pragma: no cover - depends on the optional extra
            raise ValueError("the dask executor needs the optional extra 'distributed' (pip install 'dask[distributed]')") from None
        self.address = address
        self.client = client

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        from distributed import Client, as_completed as dask_completed

        client, own = self.client, False
        if client is None:
            client, own = (Client(self.address) if self.address else Client(processes=False)), True
        try:
            futures = [client.submit(fn, item, pure=False) for item in items]
            for fut in dask_completed(futures):
                yield fut.result()
        finally:
            if own:
                client.close()


def get_executor(spec: Any = "process", **kwargs: Any) -> Any:
    """An executor from a name (``serial``, ``process``, ``dask``) or pass an executor object through."""
    if hasattr(spec, "map_unordered"):
        return spec
    check_choice("executor", spec, EXECUTORS)
    if spec == "serial":
        return SerialExecutor()
    if spec == "process":
        return ProcessExecutor(kwargs.get("max_workers"))
    return DaskExecutor(kwargs.get("address"), kwargs.get("client"))
