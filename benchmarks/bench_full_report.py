"""Wall time of a complete full-fidelity report on a Dask ``LocalCluster``, and its projection on N workers.

A full-fidelity report takes hours on two cores, longer than one sitting may allow, so it may be run in
segments: each invocation starts a ``distributed.LocalCluster`` of ``--workers`` single-threaded worker
processes and runs ``tvbo-verify report --fidelity full --executor dask`` into ``STATE/report`` on the run
cache ``STATE/cache``. A segment stopped with Ctrl-C or SIGTERM keeps every claim and reproduction it
finished: the report stores each in the result cache as it ends (:mod:`tvbo_verify.report.result_cache`), so
the next segment on the same code reuses them and computes only the rest (SIGINT is handled even when the
shell that started the benchmark in the background ignores it). Every segment appends a record to
``STATE/segments.json``: the code's fingerprint, its wall time, the CPU seconds of this process and of the
workers, the load average around it, what it computed and what it reused, and whether the report was
complete (every implemented claim has an entry and no task failed).

The summary adds the segments measured on the code the last one ran (segments of other code are listed,
never added): the report's wall and CPU time, the summed claim runtimes, the longest claim, and the projected
wall time on N workers, ``max(longest claim, CPU seconds / (N · efficiency))``, where ``efficiency`` is the
parallel efficiency of the Dask workers (``benchmarks/bench_dask.py``); while the report is not complete the
projections are lower bounds and say so. Measures, never asserts a time.

    python benchmarks/bench_full_report.py STATE [--workers 2] [--paper P ...] [--efficiency 0.9] [--json]
    python benchmarks/bench_full_report.py STATE --summary [--json]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench_dask import _preload, _worker_cpu, cpu_seconds

PROJECT = Path(__file__).resolve().parents[1]
WORKERS = (1, 2, 4, 8, 16, 32, 64)


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=PROJECT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _segments(state: Path) -> list[dict[str, Any]]:
    path = state / "segments.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else []


def _save(state: Path, segments: list[dict[str, Any]]) -> None:
    path = state / "segments.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(segments, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def segment(state: Path, workers: int, papers: list[str]) -> dict[str, Any]:
    """Run (or continue) the full-fidelity report on a fresh LocalCluster of ``workers`` workers; return the
    segment's record (also when it is stopped with Ctrl-C, then with ``"interrupted": true``)."""
    from distributed import Client, LocalCluster

    from tvbo_verify.execution import DaskExecutor
    from tvbo_verify.report.result_cache import package_fingerprint
    from tvbo_verify.report.runner import run_report
    from tvbo_verify.sweeps import RunCache

    record: dict[str, Any] = {"commit": _commit(), "fingerprint": package_fingerprint(), "workers": workers,
                              "papers": papers, "cpus": os.cpu_count(), "interrupted": True, "complete": False}
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        client.run(_preload)

        def workers_cpu() -> float:
            return sum(client.run(_worker_cpu).values())

        load, cpu, start = os.getloadavg()[0], cpu_seconds() + workers_cpu(), time.perf_counter()
        try:
            outcome = run_report(papers=papers, fidelity="full", out=state / "report",
                                 executor=DaskExecutor(client=client), cache=RunCache(state / "cache"),
                                 progress=lambda line: print(line, file=sys.stderr, flush=True))
            claims = outcome.results["claims"]
            covered = len(claims) + len(outcome.not_implemented) == len(outcome.selected)
            record.update(interrupted=False, exit_ok=outcome.ok, problems=list(outcome.problems),
                          claims=len(claims), claims_not_implemented=len(outcome.not_implemented),
                          complete=covered and not outcome.problems,
                          reused=outcome.results["run"].get("reused", 0),
                          # every claim's runtime as measured on this code, by this segment or an earlier one
                          claims_runtime_s=round(sum(c["runtime_s"] for c in claims), 1),
                          longest_claims_s=sorted(((round(c["runtime_s"], 1), c["id"]) for c in claims),
                                                  reverse=True)[:5])
        except KeyboardInterrupt:
            pass
        finally:
            record.update(wall_s=round(time.perf_counter() - start, 1),
                          cpu_s=round(cpu_seconds() + workers_cpu() - cpu, 1),
                          load_before=round(load, 2), load_after=round(os.getloadavg()[0], 2))
    return record


def summary(segments: list[dict[str, Any]], efficiency: float) -> dict[str, Any]:
    """The report's totals over the segments run on the code of the last one, and projections on N workers."""
    if not segments:
        return {"segments": 0}
    last = segments[-1]
    same = [s for s in segments if s["fingerprint"] == last["fingerprint"]]
    wall, cpu = sum(s["wall_s"] for s in same), sum(s["cpu_s"] for s in same)
    runtimes: dict[str, float] = {}
    for s in same:
        for runtime, claim in s.get("longest_claims_s", []):
            runtimes[claim] = max(runtimes.get(claim, 0.0), runtime)
    longest = max(runtimes.values(), default=0.0)
    return {
        "commit": last["commit"], "segments": len(same), "other_code_segments": len(segments) - len(same),
        "complete": bool(last.get("complete")), "wall_s": round(wall, 1), "wall_h": round(wall / 3600, 2),
        "cpu_s": round(cpu, 1), "cores_used": round(cpu / wall, 2) if wall else None,
        # a finished segment lists every claim, reused ones included: the latest one's sum is the report's
        "claims_runtime_s": next((s["claims_runtime_s"] for s in reversed(same) if "claims_runtime_s" in s), None),
        "longest_claim_s": longest,
        "projected_wall_h": {str(n): round(max(longest, cpu / (n * efficiency)) / 3600, 2) for n in WORKERS},
        # an incomplete report's CPU seconds are part of the whole: its projections are lower bounds
        "projection": "complete report" if last.get("complete") else "lower bound (the report is not complete)",
        "efficiency": efficiency,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("state", type=Path, help="folder of the report, its run cache and segments.json")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--paper", action="append", default=[], help="only this paper (repeatable)")
    ap.add_argument("--efficiency", type=float, default=0.9, help="parallel efficiency of the Dask workers")
    ap.add_argument("--summary", action="store_true", help="only summarise the recorded segments")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    args.state.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    segments = _segments(args.state)
    if not args.summary:
        _preload()
        record = segment(args.state, args.workers, args.paper)
        segments.append(record)
        _save(args.state, segments)
    result = summary(segments, args.efficiency)
    print(json.dumps(result, indent=1) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    if not args.summary and segments[-1].get("interrupted"):  # this invocation's segment was cut short
        sys.exit(130)


if __name__ == "__main__":
    main()
