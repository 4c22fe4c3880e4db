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
    # one thread per worker, as the cluster the executor starts itself: BLAS's thread count is the process's, so
    # jobs in several threads of one worker could lift each other's limit (a limitation of external clusters
    # with threads_per_worker > 1)
    with distributed.Client(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=":0") as client:
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
        with pytest.raises(ValueError,
                           match=r"executor dask: install the extra 'distributed' \(pip install -e"):
            get_executor("dask")
    monkeypatch.setattr(DaskExecutor, "CONNECT_TIMEOUT", 0.5)
    ex = get_executor("dask", scheduler="tcp://127.0.0.1:9")
    with pytest.raises(ValueError, match=r"cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'"):
        ex.map(_square, [1, 2])


_INTERRUPTED_POOL = """
import sys, time
from tvbo_verify.execution import ProcessExecutor

def slow(x):
    time.sleep(120)
    return x

if __name__ == "__main__":
    ex = ProcessExecutor(2)  # no with-statement: the caller closes it itself, as the report runner does
    try:
        print("waiting", flush=True)
        getattr(ex, sys.argv[1])(slow, range(4)) if sys.argv[1] == "map" else list(ex.map_unordered(slow, range(4)))
    except KeyboardInterrupt:
        print("KeyboardInterrupt reached the caller", flush=True)
        ex.close()  # must end the running jobs, not wait two minutes for them
        print("closed", flush=True)
        sys.exit(130)
"""


@pytest.mark.parametrize("method", ["map", "map_unordered"])
def test_ctrl_c_while_waiting_for_the_pool_reaches_the_caller_and_close_does_not_wait(tmp_path, method):
    import os
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "pool.py"
    script.write_text(_INTERRUPTED_POOL)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, str(script), method], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, env=env)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "waiting"
    time.sleep(1.5)  # the workers are inside their jobs
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C in a terminal: the whole process group, workers included
    try:
        out, err = proc.communicate(timeout=60)  # the jobs sleep 120 s: waiting for them is the failure
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, (out, err)
    assert "KeyboardInterrupt reached the caller" in out and "closed" in out
    assert "Traceback" not in err, err


def _ignores_ctrl_c(_: int) -> bool:
    import signal

    blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    return signal.getsignal(signal.SIGINT) is signal.SIG_IGN and not blocked


def test_workers_ignore_ctrl_c_and_the_parent_keeps_it():
    import signal

    with get_executor("process", workers=2) as ex:
        assert ex.map(_ignores_ctrl_c, range(4)) == [True] * 4
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


_SIGNAL_ON_ANOTHER_THREAD = """
import signal, sys, threading, time
from tvbo_verify.execution import ProcessExecutor

def slow(x):
    time.sleep(120)
    return x

def ctrl_c_on_this_thread():
    time.sleep(1.0)
    signal.pthread_kill(threading.get_ident(), signal.SIGINT)  # as the kernel may hand a Ctrl-C to any thread

if __name__ == "__main__":
    threading.Thread(target=ctrl_c_on_this_thread, daemon=True).start()
    try:
        with ProcessExecutor(2) as ex:
            getattr(ex, sys.argv[1])(slow, range(2)) if sys.argv[1] == "map" else list(ex.map_unordered(slow, range(2)))
    except KeyboardInterrupt:
        print("KeyboardInterrupt reached the caller", flush=True)
"""


@pytest.mark.parametrize("method", ["map", "map_unordered"])
def test_ctrl_c_received_by_another_thread_still_stops_the_wait(tmp_path, method):
    """CPython 3.11 tells the main thread about a signal only when the main thread itself received it;
    a wait for jobs must look for it, or it sleeps until the jobs end (here two minutes)."""
    import os
    import subprocess
    import sys

    script = tmp_path / "thread_signal.py"
    script.write_text(_SIGNAL_ON_ANOTHER_THREAD)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, str(script), method], capture_output=True, text=True, timeout=60, env=env)
    assert "KeyboardInterrupt reached the caller" in done.stdout, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr


def _sleep_long(x: int) -> int:
    import time

    time.sleep(60)
    return x


def test_abandon_leaves_no_pool_thread_for_the_exit_hook_to_wake():
    """After abandon, the pool's manager thread has ended and closed its wake-up pipe: the interpreter's exit
    hook then skips it instead of writing to a pipe that may be closing (a race that printed "OSError: [Errno 9]
    Bad file descriptor" after Ctrl-C)."""
    from tvbo_verify.execution import ProcessExecutor

    ex = ProcessExecutor(2)
    ex._submit(_sleep_long, [1, 2, 3])
    pool = ex._pool
    manager = pool._executor_manager_thread
    assert manager is not None and manager.is_alive()
    ex.abandon()
    assert not manager.is_alive() and manager.thread_wakeup._closed
