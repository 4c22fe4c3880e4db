"""Executors: same results in every backend, ordered map, BLAS limited to one thread inside jobs."""

import pytest
from threadpoolctl import threadpool_info

from tvbo_verify.execution import get_executor, single_threaded_blas


def _square(x: int) -> int:
    return x * x


def _blas_threads(_: int) -> int:
    with single_threaded_blas():
        return max((p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"), default=1)


@pytest.mark.parametrize("kind", ["serial", "process"])
def test_map_is_ordered_and_unordered_map_has_the_same_results(kind):
    with get_executor(kind, workers=2) as ex:
        assert ex.map(_square, range(7)) == [x * x for x in range(7)]
        assert sorted(ex.map_unordered(_square, range(7))) == sorted(x * x for x in range(7))
        assert ex.map(_blas_threads, range(3)) == [1, 1, 1]


def test_executor_objects_pass_through_and_unknown_names_are_refused():
    ex = get_executor("serial")
    assert get_executor(ex) is ex
    with pytest.raises(ValueError, match="executor must be one of"):
        get_executor("threads")


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=":0") as client:
        yield client


def test_dask_map_is_ordered_and_runs_every_job_with_one_blas_thread(dask_client):
    with get_executor("dask", client=dask_client) as ex:
        assert ex.map(_square, range(7)) == [x * x for x in range(7)]
        assert sorted(ex.map_unordered(_square, range(7))) == sorted(x * x for x in range(7))
        assert ex.map(_blas_threads, range(3)) == [1, 1, 1]
    assert dask_client.status == "running"  # a client handed in is the caller's to close


def _fail_first(x: int) -> int:
    import time

    if x == 0:
        raise RuntimeError("job 0 failed")
    time.sleep(20)
    return x


def test_an_error_while_waiting_for_dask_jobs_cancels_the_jobs_left(dask_client):
    import time

    with pytest.raises(RuntimeError, match="job 0 failed"):
        with get_executor("dask", client=dask_client) as ex:
            for _ in ex.map_unordered(_fail_first, range(4)):
                pass
    deadline = time.monotonic() + 10
    while any(dask_client.processing().values()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(dask_client.processing().values())  # nothing left queued or assigned on the cluster


def test_dask_without_the_extra_or_the_scheduler_is_one_clear_error(monkeypatch):
    import sys

    from tvbo_verify.execution import DaskExecutor

    pytest.importorskip("distributed")
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
        with pytest.raises(ValueError, match=r"optional extra 'distributed': pip install 'tvbo-verify\[distributed\]'"):
            get_executor("dask")
    monkeypatch.setattr(DaskExecutor, "CONNECT_TIMEOUT", 0.5)
    ex = get_executor("dask", scheduler="tcp://127.0.0.1:9")
    with pytest.raises(ValueError, match=r"cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'"):
        ex.map(_square, [1, 2])
