"""Runner, executors and trace files: executor equivalence, SeedSequence seeding, atomic saves, resume."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tvbo_verify.bandits import (
    GPUCB,
    TVGPUCB,
    ExpertOracle,
    SerialExecutor,
    finished_reps,
    load_trace,
    make_jobs,
    run,
    run_many,
)
from tvbo_verify.bandits.environments import MarkovGP, RandomWalkExpansion
from tvbo_verify.bandits.expert import BudgetExceeded


def _setup():
    return TVGPUCB(epsilon=0.05), MarkovGP(epsilon=0.05, points_per_dim=8, d=2)


def test_repetition_seeds_come_from_seedsequence_spawn():
    pol, env = _setup()
    jobs = make_jobs(pol, env, 10, 3, seed=42)
    kids = np.random.SeedSequence(42).spawn(3)
    assert [j.seed_seq.spawn_key for j in jobs] == [k.spawn_key for k in kids]
    traces = run_many(pol, env, 10, 3, seed=42, executor="serial")
    direct = run(TVGPUCB(epsilon=0.05), MarkovGP(epsilon=0.05, points_per_dim=8, d=2), 10,
                 np.random.default_rng(kids[1]))
    assert traces[1].same_run(direct)


def test_process_executor_equals_serial():
    pol, env = _setup()
    serial = run_many(pol, env, 15, 3, seed=1, executor="serial")
    procs = run_many(pol, env, 15, 3, seed=1, executor="process")
    assert all(a.same_run(b) for a, b in zip(serial, procs))
    assert not serial[0].same_run(serial[1])


def test_dask_local_cluster_equals_serial():
    distributed = pytest.importorskip("distributed")
    from tvbo_verify.bandits import DaskExecutor

    pol, env = _setup()
    serial = run_many(pol, env, 15, 3, seed=5, executor="serial")
    cluster_options = {"n_workers": 2, "threads_per_worker": 1, "processes": False, "dashboard_address": None}
    with distributed.LocalCluster(**cluster_options) as cluster:
        with distributed.Client(cluster) as client:
            dask = run_many(pol, env, 15, 3, seed=5, executor=DaskExecutor(client=client))
    assert len(dask) == 3
    assert all(a.same_run(b) for a, b in zip(serial, dask))


def test_traces_round_trip_and_interrupted_run_keeps_finished(tmp_path):
    pol, env = _setup()
    out = str(tmp_path / "run")
    done = []

    def stop_after_two(rep, trace):
        done.append(rep)
        if len(done) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_many(pol, env, 12, 5, seed=3, executor="serial", out_dir=out, on_result=stop_after_two)
    assert finished_reps(out) == [0, 1]
    assert not [f for f in os.listdir(out) if f.startswith(".tmp")]
    rest = run_many(pol, env, 12, 5, seed=3, executor="serial", out_dir=out, skip=finished_reps(out))
    assert [t.meta["rep"] for t in rest] == [2, 3, 4]
    assert finished_reps(out) == [0, 1, 2, 3, 4]
    full = run_many(pol, env, 12, 5, seed=3, executor="serial")
    for rep in range(5):
        loaded = load_trace(out, rep)
        assert loaded.same_run(full[rep])
        assert loaded.meta["policy"]["beta"]["kind"] == "log"


def test_expert_oracle_counts_and_budget():
    env = RandomWalkExpansion(grid_points=11)
    env.reset(np.random.default_rng(0), 3)
    oracle = ExpertOracle(env, 1e-6, np.random.default_rng(1), budget=3)
    vals = oracle.query([1, 2])
    assert np.allclose(vals, env.values()[[1, 2]], atol=0.01)
    assert oracle.count == 2 and oracle.remaining == 1
    with pytest.raises(BudgetExceeded):
        oracle.query([3, 4])


def test_run_many_validates():
    pol, env = _setup()
    with pytest.raises(ValueError, match="reps"):
        run_many(pol, env, 5, 0)
    with pytest.raises(ValueError, match="executor"):
        run_many(pol, env, 5, 1, executor="cluster")
    assert isinstance(SerialExecutor().map_unordered(abs, [-1]).__next__(), int)
    assert run_many(GPUCB(), env, 3, 1, executor="serial")[0].T == 3
