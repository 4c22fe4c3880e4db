"""Scale-out of ``tvbo-verify report`` on a Dask cluster, and the same results on every executor.

Starts a ``distributed.LocalCluster`` with 1 and then 2 single-threaded worker processes and runs a fixed
set of claims on each (``report --executor dask``: one job per claim, its repetitions and runs submitted
to the cluster as jobs of their own), then the same claims on the local process executor (one worker
process per core). Every run starts from a fresh temporary run cache, so all of them compute every run.
Checks that the ``results.json`` entries (without runtimes) and the reproductions' measured findings are
identical across the three, and prints the wall times, the CPU seconds (of this process and of the
workers), the load average around each run and the scale-out ratio (wall time on 1 worker over wall time
on 2) as JSON. The workers import the package before the clock starts. Measures, never asserts a time.

    python benchmarks/bench_dask.py [--fidelity quick] [--claims ID ...]

The default claims take 1-3 minutes on one core at quick fidelity with a cold cache: an experiment
reproduced from runs (sparq:figure-2), one whose sweeps dominate (tvgpucb:figure-2c), two claims sharing
one reproduction (bolt:theorem-3.8, bolt:lemma-d.1), a probabilistic claim with repetitions through the
executor (sparq:eq-24), a run-based lower bound (wsparq:theorem-5.3) and two counterexample searches
(sparq:proposition-5, sparq:softmax-device).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

CLAIMS = ("sparq:figure-2", "tvgpucb:figure-2c", "bolt:theorem-3.8", "bolt:lemma-d.1", "sparq:eq-24",
          "wsparq:theorem-5.3", "sparq:proposition-5", "sparq:softmax-device")


def _preload() -> None:
    """Import what a report's jobs use (run on every worker before the clock starts)."""
    import tvbo_verify.report.tasks  # noqa: F401
    from tvbo_verify.sweeps.reproduce import reproductions
    from tvbo_verify.verify.registry import load_all

    load_all()
    reproductions()


def comparable(out: Path) -> dict[str, Any]:
    """What must not depend on the executor: the claims' entries without runtime (and the digest over it) and
    every reproduction's measured finding."""
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    claims = {c["id"]: {k: v for k, v in c.items() if k not in ("runtime_s", "digest")} for c in doc["claims"]}
    findings = {}
    for path in sorted((out / "reproductions").glob("*.json")):
        rec = json.loads(path.read_text(encoding="utf-8"))
        findings[rec["id"]] = {"finding": rec["finding"], "json": rec["json"], "runs": rec["runs"]}
    return {"claims": claims, "reproductions": findings}


def cpu_seconds() -> float:
    """CPU seconds (user + system) of this process and of its children that have ended."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run(name: str, executor: Any, claims: list[str], fidelity: str, tmp: Path,
        workers_cpu: Callable[[], float] = lambda: 0.0) -> dict[str, Any]:
    """One report of ``claims`` on ``executor`` with a fresh run cache: its wall time, the CPU seconds it took
    (this process and ended children, plus ``workers_cpu`` of running workers), the load around it and what
    :func:`comparable` reads from its output."""
    from tvbo_verify.report.runner import run_report
    from tvbo_verify.sweeps import RunCache

    out, cache = tmp / name / "out", RunCache(tmp / name / "cache")
    load = os.getloadavg()[0]
    cpu = cpu_seconds() + workers_cpu()
    start = time.perf_counter()
    outcome = run_report(ids=claims, fidelity=fidelity, out=out, executor=executor, cache=cache)
    wall = time.perf_counter() - start
    cpu = cpu_seconds() + workers_cpu() - cpu
    print(f"{name}: {wall:.1f} s wall, {cpu:.1f} CPU s (load {load:.1f} before, {os.getloadavg()[0]:.1f} after)",
          file=sys.stderr)
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "load_before": round(load, 2),
            "load_after": round(os.getloadavg()[0], 2), "ok": outcome.ok,
            "claim_runtimes_s": {c["id"]: round(c["runtime_s"], 2) for c in outcome.results["claims"]},
            "comparable": comparable(out)}


def _worker_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def on_local_cluster(workers: int, claims: list[str], fidelity: str, tmp: Path) -> dict[str, Any]:
    from distributed import Client, LocalCluster

    from tvbo_verify.execution import DaskExecutor

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        client.run(_preload)
        return run(f"dask-{workers}", DaskExecutor(client=client), claims, fidelity, tmp,
                   workers_cpu=lambda: sum(client.run(_worker_cpu).values()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fidelity", default="quick", choices=("quick", "full"))
    ap.add_argument("--claims", nargs="+", default=list(CLAIMS))
    args = ap.parse_args()
    _preload()
    with tempfile.TemporaryDirectory(prefix="bench-dask-") as tmp:
        runs = {
            "dask-1": on_local_cluster(1, args.claims, args.fidelity, Path(tmp)),
            "dask-2": on_local_cluster(2, args.claims, args.fidelity, Path(tmp)),
            "process": run("process", "process", args.claims, args.fidelity, Path(tmp)),
        }
    reference = runs["dask-1"]["comparable"]
    identical = {name: r.pop("comparable") == reference for name, r in runs.items()}
    summary = {
        "fidelity": args.fidelity, "claims": args.claims, "cpus": os.cpu_count(), "runs": runs,
        "identical_results": all(identical.values()), "identical_to_dask_1": identical,
        "scale_out_2_over_1": round(runs["dask-1"]["wall_s"] / runs["dask-2"]["wall_s"], 3),
        # the share of a core each run got on average (CPU seconds over wall seconds): on a machine shared with
        # other work the wall times, and so the scale-out, depend on it
        "cores_used": {name: round(r["cpu_s"] / r["wall_s"], 2) for name, r in runs.items()},
        "dask_2_over_process": round(runs["dask-2"]["wall_s"] / runs["process"]["wall_s"], 3),
    }
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
