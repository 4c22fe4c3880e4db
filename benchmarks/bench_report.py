"""Time ``tvbo-verify report`` end to end (cold and warm run cache), and estimate a full-fidelity report.

Budgets (docs/ARCHITECTURE.md §12): ``tvbo-verify report --fidelity quick`` under 6 minutes with a
cold run cache and under 60 s with a warm one, on 2 cores. Measures, never asserts.

**Report timings** (default). Runs the command line as a user does (a fresh process, an empty output
folder, a private cache folder that starts empty) in three phases: ``cold``; ``warm``, the same report
again, which reuses every result the same code computed (:mod:`tvbo_verify.report.result_cache`); and
``warm_fresh``, again with ``--fresh``, every claim recomputed from the warm run cache. Per phase it
prints the wall time, the CPU seconds of the command and its worker processes, the load average before
and after (on a machine shared with other work the wall time depends on it: ``cores_used`` = CPU
seconds / wall seconds is the share of the machine the report got), the summed claim and reproduction
times and the slowest claims.

    python benchmarks/bench_report.py [--fidelity quick] [--executor process] [--paper P ...] [--keep DIR] [--json]

With ``--cache DIR`` the report runs on that existing run cache instead (e.g. the shared default one, already
filled by reports and claim suites of the same code): its first phase ("fill") computes only what the cache
lacks, its second is the warm report.

With ``--suite`` it also times ``pytest checks`` with a cold run cache of its own (budget: 10 minutes).

**Full-fidelity estimate** (``--estimate-full RESULTS``, with the ``results.json`` of a quick report, e.g.
the cold one kept with ``--keep``). Running every claim at full fidelity takes hours on two cores, so a
sample is run instead: per kind, the ``--per-kind`` claims with the longest quick runtimes (they dominate
the total), each alone (serial executor, a fresh run cache, its own CPU seconds without the interpreter's
start-up) at quick and at full fidelity in a process limited to ``--cpu-cap`` CPU seconds (``RLIMIT_CPU``;
a claim stopped there counts with the cap, so its kind's estimate is a lower bound and says so). Per kind
the ratio of full to quick CPU seconds over the sample scales that kind's share of the quick report's CPU
seconds (its claims' runtimes in RESULTS, times the CPU seconds per runtime second measured on the
sample); the sum is the CPU seconds of a full report. Projections: on two cores with the process executor
(claims run whole in a worker, so never below the longest claim) and on N Dask workers (repetitions
spread over the cluster) at the parallel efficiency ``--efficiency`` (the two-worker scale-out of
``benchmarks/bench_dask.py`` divided by 2).

    python benchmarks/bench_report.py --estimate-full DIR/cold/results.json [--per-kind 2] [--cpu-cap 300]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPRODUCTION_LINE = re.compile(r"^\[reproduction \d+/\d+\] (\S+)\s+([0-9.]+)s", re.MULTILINE)
CLI = str(Path(sys.executable).with_name("tvbo-verify"))


def cpu_of(before: resource.struct_rusage, after: resource.struct_rusage) -> float:
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# -- report timings -------------------------------------------------------------------------------------
def report_phase(out: Path, cache: Path, fidelity: str, executor: str, papers: list[str],
                 fresh: bool = False) -> dict[str, Any]:
    """One report run into the empty folder ``out`` with the run cache ``cache`` (``fresh``: recomputing every
    claim the result cache holds): wall and CPU seconds, load."""
    cmd = [CLI, "report", "--fidelity", fidelity, "--executor", executor, "--out", str(out), "--cache", str(cache)]
    cmd += ["--fresh"] if fresh else []
    for p in papers:
        cmd += ["--paper", p]
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)  # the command and every worker it waited for
    start = time.perf_counter()
    done = subprocess.run(cmd, check=False, capture_output=True, text=True)
    wall = time.perf_counter() - start
    cpu = cpu_of(before, resource.getrusage(resource.RUSAGE_CHILDREN))
    reproductions = {m.group(1): float(m.group(2)) for m in REPRODUCTION_LINE.finditer(done.stderr)}
    phase = {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "cores_used": round(cpu / wall, 2),
             "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2),
             "exit_code": done.returncode}
    results = out / "results.json"
    if not results.exists():
        return {**phase, "error": "no results.json written", "stderr_tail": done.stderr[-2000:]}
    doc = json.loads(results.read_text(encoding="utf-8"))
    claims = sorted(doc["claims"], key=lambda c: -(c.get("runtime_s") or 0.0))
    return {**phase, "claims": len(claims),
            "claims_runtime_s": round(sum(c.get("runtime_s") or 0.0 for c in claims), 1),
            "reproductions": len(reproductions), "reproductions_runtime_s": round(sum(reproductions.values()), 1),
            "slowest_claims": [(c["id"], round(c.get("runtime_s") or 0.0, 1)) for c in claims[:10]]}


def suite_phase(cache: Path, fidelity: str) -> dict[str, Any]:
    """``pytest checks`` (every claim as a test item, run ahead in one worker process per core) with the run
    cache ``cache``: wall and CPU seconds, load, and pytest's summary line."""
    root = Path(__file__).resolve().parents[1]
    cmd = [sys.executable, "-m", "pytest", "checks", "-q", "-p", "no:cacheprovider", "--fidelity", fidelity,
           "--claim-cache", str(cache)]
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=root, check=False, capture_output=True, text=True)
    wall = time.perf_counter() - start
    cpu = cpu_of(before, resource.getrusage(resource.RUSAGE_CHILDREN))
    lines = done.stdout.strip().splitlines()
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "cores_used": round(cpu / wall, 2),
            "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2), "exit_code": done.returncode,
            "summary": lines[-1] if lines else ""}


def report_timings(args: argparse.Namespace) -> dict[str, Any]:
    summary: dict[str, Any] = {"fidelity": args.fidelity, "executor": args.executor, "papers": args.paper or "all",
                               "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="bench-report-") as tmp:
        root = Path(args.keep) if args.keep else Path(tmp)
        # a private cache starts empty: the first phase is cold; an existing one (--cache) is only filled up
        cache = Path(args.cache) if args.cache else Path(tmp) / "cache"
        summary["cache"] = "existing" if args.cache else "private, empty at the start"
        for phase in ("fill" if args.cache else "cold", "warm", "warm_fresh"):
            summary[phase] = report_phase(root / phase, cache, args.fidelity, args.executor, args.paper,
                                          fresh=phase == "warm_fresh")
            if not args.json:
                s = summary[phase]
                print(f"{phase:>10}: {s['wall_s']:7.1f} s wall, {s['cpu_s']:7.1f} CPU s ({s['cores_used']} cores; load "
                      f"{s['load_before']} -> {s['load_after']}); claims {s.get('claims_runtime_s', 0)} s summed, "
                      f"reproductions {s.get('reproductions_runtime_s', 0)} s summed", flush=True)
        if args.suite:
            summary["suite_cold"] = suite_phase(Path(tmp) / "suite-cache", args.fidelity)
            if not args.json:
                print(f"pytest checks (cold): {summary['suite_cold']['wall_s']} s wall, "
                      f"{summary['suite_cold']['cpu_s']} CPU s: {summary['suite_cold']['summary']}", flush=True)
    return summary


# -- full-fidelity estimate -------------------------------------------------------------------------------
def sample(results: dict[str, Any], per_kind: int) -> list[dict[str, Any]]:
    """Per kind, the ``per_kind`` claims with the longest quick runtimes."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for c in results["claims"]:
        by_kind.setdefault(c["kind"], []).append(c)
    return [c for kind in sorted(by_kind)
            for c in sorted(by_kind[kind], key=lambda c: -(c.get("runtime_s") or 0.0))[:per_kind]]


#: a claim alone, its own CPU seconds printed as JSON (the interpreter's start-up and imports left out)
CLAIM_ALONE = ("import json, sys, time\n"
               "from tvbo_verify.sweeps import RunCache\n"
               "from tvbo_verify.verify import run_claim\n"
               "start = time.process_time()\n"
               "ev = run_claim(sys.argv[1], fidelity=sys.argv[2], cache=RunCache(sys.argv[3]))\n"
               "print(json.dumps({'cpu_s': time.process_time() - start, 'verdict': ev.verdict.value}))\n")


def claim_cpu(claim_id: str, fidelity: str, cpu_cap: float, tmp: Path) -> dict[str, Any]:
    """CPU seconds of one claim alone at ``fidelity`` (serial, fresh run cache) in a process stopped after
    ``cpu_cap`` CPU seconds (then the cap counts, ``capped``)."""
    cache = tempfile.mkdtemp(dir=tmp)

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_cap), int(cpu_cap) + 5))

    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", CLAIM_ALONE, claim_id, fidelity, cache], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, preexec_fn=cap)
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)  # this child's own usage (others may run at the same time)
    proc.returncode = code = os.waitstatus_to_exitcode(status)
    capped = code in (-signal.SIGXCPU, -signal.SIGKILL)
    measured = json.loads(out) if code == 0 and out.strip() else {}
    return {"cpu_s": round(measured.get("cpu_s", usage.ru_utime + usage.ru_stime), 2),
            "wall_s": round(time.perf_counter() - start, 2), "verdict": measured.get("verdict"),
            "capped": capped, "exit_code": code}


def estimate_full(args: argparse.Namespace) -> dict[str, Any]:
    results = json.loads(Path(args.estimate_full).read_text(encoding="utf-8"))
    if results["run"]["fidelity"] != "quick":
        raise SystemExit("--estimate-full needs the results.json of a quick report")
    chosen = sample(results, args.per_kind)
    rows: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-full-") as tmp, ThreadPoolExecutor(args.parallel) as pool:
        jobs = {(c["id"], f): pool.submit(claim_cpu, c["id"], f, args.cpu_cap, Path(tmp))
                for c in chosen for f in ("quick", "full")}
        for c in chosen:
            q, f = jobs[(c["id"], "quick")].result(), jobs[(c["id"], "full")].result()
            rows[c["id"]] = {"kind": c["kind"], "quick_runtime_s": c["runtime_s"], "quick": q, "full": f}
            if not args.json:
                print(f"{c['id']:<40} {c['kind']:<13} quick {q['cpu_s']:8.1f} CPU s   full {f['cpu_s']:8.1f} CPU s"
                      f"{' (stopped at the cap)' if f['capped'] else ''}", flush=True)
    # CPU seconds per second of quick runtime in RESULTS (the report's claims ran under other load)
    per_runtime = sum(r["quick"]["cpu_s"] for r in rows.values()) / sum(r["quick_runtime_s"] for r in rows.values())
    kinds: dict[str, dict[str, Any]] = {}
    for kind in sorted({c["kind"] for c in results["claims"]}):
        mine = [r for r in rows.values() if r["kind"] == kind]
        quick_share = sum(c["runtime_s"] for c in results["claims"] if c["kind"] == kind) * per_runtime
        ratio = sum(r["full"]["cpu_s"] for r in mine) / max(sum(r["quick"]["cpu_s"] for r in mine), 1e-9)
        kinds[kind] = {"claims": sum(c["kind"] == kind for c in results["claims"]), "sampled": len(mine),
                       "full_over_quick": round(ratio, 2), "quick_cpu_s": round(quick_share, 1),
                       "full_cpu_s": round(ratio * quick_share, 1),
                       "lower_bound": any(r["full"]["capped"] for r in mine)}
    total = sum(k["full_cpu_s"] for k in kinds.values())
    longest = max(kinds[c["kind"]]["full_over_quick"] * c["runtime_s"] * per_runtime for c in results["claims"])
    longest = max(longest, max(r["full"]["cpu_s"] for r in rows.values()))
    projection = {f"{n}_dask_workers_h": round(total / (n * args.efficiency) / 3600, 2) for n in (2, 8, 32, 128)}
    return {"method": "stratified ratio estimate, see the module docstring", "per_kind": args.per_kind,
            "cpu_cap_s": args.cpu_cap, "cpu_per_quick_runtime_s": round(per_runtime, 3), "sample": rows,
            "kinds": kinds, "full_cpu_h": round(total / 3600, 2), "lower_bound": any(k["lower_bound"] for k in
                                                                                        kinds.values()),
            "longest_claim_cpu_h": round(longest / 3600, 2),
            "two_cores_process_executor_h": round(max(total / 2, longest) / 3600, 2),
            "dask_efficiency": args.efficiency, "projection": projection}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fidelity", default="quick", choices=("quick", "full"))
    ap.add_argument("--executor", default="process", choices=("serial", "process", "dask"))
    ap.add_argument("--paper", action="append", default=[], help="only this paper (repeatable)")
    ap.add_argument("--keep", default=None, metavar="DIR", help="keep the reports in DIR/cold and DIR/warm")
    ap.add_argument("--cache", default=None, metavar="DIR",
                    help="time against this existing run cache: a first report fills what it lacks ('fill'), the "
                         "second and third are warm (default: a private cache that starts empty: 'cold', 'warm', "
                         "'warm_fresh')")
    ap.add_argument("--suite", action="store_true", help="also time `pytest checks` with a cold run cache")
    ap.add_argument("--estimate-full", default=None, metavar="RESULTS", help="results.json of a quick report")
    ap.add_argument("--per-kind", type=int, default=2)
    ap.add_argument("--cpu-cap", type=float, default=300.0)
    ap.add_argument("--parallel", type=int, default=2, help="sampled claims run at a time")
    ap.add_argument("--efficiency", type=float, default=0.9, help="parallel efficiency of the Dask workers")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    summary = estimate_full(args) if args.estimate_full else report_timings(args)
    if args.json or args.estimate_full:
        print(json.dumps(summary, indent=1))
    else:
        first = summary.get("cold") or summary["fill"]
        print("slowest claims (first phase):", ", ".join(f"{i} {t} s" for i, t in first.get("slowest_claims", [])))


if __name__ == "__main__":
    main()
