"""The run cache and sweep execution: content addressing, integrity, executors, resumption."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tvbo_verify.bandits.beta import log_rule
from tvbo_verify.sweeps import Arm, RunCache, Sweep, paired_difference, run_sweep
from tvbo_verify.sweeps.cache import default_cache_dir

ENV = {"epsilon": 0.03, "points_per_dim": 15, "d": 1}


def _sweep(reps: int = 2, horizons=(10, 20)) -> Sweep:
    return Sweep("test", (Arm("tv", "tv-gp-ucb", {"epsilon": 0.03}), Arm("gp", "gp-ucb", beta=log_rule(0.8, 4.0))),
                 "tvgpucb-markov", tuple(horizons), reps, env_params=ENV)


def test_keys_depend_on_everything_that_determines_a_run():
    s = _sweep()
    base = s.spec("tv", 10, 0)
    assert base.key == s.spec("tv", 10, 0).key
    assert len({sp.key for sp in s.specs()}) == len(s.specs())
    other = Sweep("other name", s.arms, s.environment, s.horizons, s.reps, env_params=ENV)
    assert other.spec("tv", 10, 0).key == base.key  # the sweep's name is not part of a run
    changed = Sweep("x", (Arm("tv", "tv-gp-ucb", {"epsilon": 0.05}),), s.environment, (10,), 2, env_params=ENV)
    assert changed.spec("tv", 10, 0).key != base.key


def test_cache_hit_returns_byte_identical_traces(tmp_path):
    s = _sweep()
    first = run_sweep(s, cache=RunCache(tmp_path))
    cache = RunCache(tmp_path)
    again = run_sweep(s, cache=cache)
    assert cache.stats.hits == len(s.specs()) and cache.stats.misses == 0
    for key, trace in first.traces.items():
        other = again.traces[key]
        assert all(np.array_equal(a, b) and a.tobytes() == b.tobytes()
                   for a, b in zip(trace.arrays().values(), other.arrays().values()))
        assert trace.meta == other.meta


def test_corrupted_entry_is_recomputed_not_trusted(tmp_path):
    s = _sweep(reps=1, horizons=(10,))
    first = run_sweep(s, cache=RunCache(tmp_path))
    key = s.spec("tv", 10, 0).key
    path = RunCache(tmp_path).path(key)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    cache = RunCache(tmp_path)
    again = run_sweep(s, cache=cache)
    assert cache.stats.corrupt == 1 and cache.stats.written == 1
    assert again.traces[key].same_run(first.traces[key])
    path.write_bytes(b"not an npz")
    cache = RunCache(tmp_path)
    run_sweep(s, cache=cache)
    assert cache.stats.corrupt == 1


def test_a_tampered_but_readable_entry_fails_its_checksum(tmp_path):
    s = _sweep(reps=1, horizons=(10,))
    run_sweep(s, cache=RunCache(tmp_path))
    key = s.spec("tv", 10, 0).key
    path = RunCache(tmp_path).path(key)
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["regret"] = arrays["regret"] * 0.5
    np.savez(path, **arrays)
    cache = RunCache(tmp_path)
    assert cache.get(key) is None and cache.stats.corrupt == 1


def test_sweeps_are_identical_whatever_the_executor(tmp_path):
    s = _sweep()
    serial = run_sweep(s, executor="serial", cache=RunCache(None))
    process = run_sweep(s, executor="process", cache=RunCache(None))
    assert set(serial.traces) == set(process.traces)
    assert all(serial.traces[k].same_run(process.traces[k]) for k in serial.traces)


def test_sweep_on_a_two_worker_dask_cluster_matches_serial():
    distributed = pytest.importorskip("distributed")
    from tvbo_verify.execution import DaskExecutor

    s = _sweep(reps=2, horizons=(10,))
    serial = run_sweep(s, executor="serial", cache=RunCache(None))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl:
        with distributed.Client(cl) as client:
            with DaskExecutor(client=client) as ex:
                dask = run_sweep(s, executor=ex, cache=RunCache(None))
    assert all(serial.traces[k].same_run(dask.traces[k]) for k in serial.traces)


def test_interrupted_sweep_keeps_what_finished(tmp_path, monkeypatch):
    from tvbo_verify.sweeps import execute

    s = _sweep(reps=2, horizons=(10,))
    calls = {"n": 0}
    real = execute.execute_spec

    def flaky(spec):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(spec)

    monkeypatch.setattr(execute, "execute_spec", flaky)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(s, cache=RunCache(tmp_path))
    cache = RunCache(tmp_path)
    monkeypatch.setattr(execute, "execute_spec", real)
    run_sweep(s, cache=cache)
    assert cache.stats.hits == 2 and cache.stats.written == 2


def test_unwritable_cache_is_one_clear_error(tmp_path):
    if os.geteuid() == 0:
        blocker = tmp_path / "file"
        blocker.write_text("x")
        cache = RunCache(blocker / "sub")  # a folder below a file can never be created
    else:
        ro = tmp_path / "ro"
        ro.mkdir(0o500)
        cache = RunCache(ro)
    with pytest.raises(ValueError, match="TVBO_VERIFY_CACHE"):
        run_sweep(_sweep(reps=1, horizons=(10,)), cache=cache)


def test_cache_location_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TVBO_VERIFY_CACHE", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    monkeypatch.delenv("TVBO_VERIFY_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert default_cache_dir() == tmp_path / "x" / "tvbo_verify"


def test_paired_difference_orders_arms(tmp_path):
    s = _sweep(reps=3, horizons=(40,))
    res = run_sweep(s, cache=RunCache(tmp_path))
    d = paired_difference(res, "tv", "gp", np.random.default_rng(0))
    assert d["n"] == 3 and d["ci95"][0] <= d["mean"] <= d["ci95"][1]
    with pytest.raises(ValueError, match="no arm"):
        res.final("nope")
