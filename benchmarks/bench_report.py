"""Time ``tvbo-verify report`` end to end, first with a cold run cache and then with the warm one.

Budget (issue "Verification by full algorithm runs"): ``tvbo-verify report --fidelity quick`` with every
claim implemented under 10 minutes on 2 cores. Runs the command line as a user does (a fresh process,
an empty output folder, a private cache folder), then prints the wall time of each phase, the summed
claim and reproduction times from ``results.json`` and the slowest claims. Measures, never asserts.

    python benchmarks/bench_report.py [--fidelity quick] [--executor process] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPRODUCTION_LINE = re.compile(r"^\[reproduction \d+/\d+\] (\S+)\s+([0-9.]+)s", re.MULTILINE)


def run_report(out: Path, cache: Path, fidelity: str, executor: str) -> tuple[float, dict[str, float]]:
    """Wall time of one report run into the empty folder ``out`` and the seconds of each reproduction
    (from the progress lines on stderr)."""
    cli = Path(sys.executable).with_name("tvbo-verify")
    cmd = [str(cli), "report", "--fidelity", fidelity, "--executor", executor, "--out", str(out),
           "--cache", str(cache)]
    start = time.perf_counter()
    done = subprocess.run(cmd, check=False, capture_output=True, text=True)
    wall = time.perf_counter() - start
    return wall, {m.group(1): float(m.group(2)) for m in REPRODUCTION_LINE.finditer(done.stderr)}


def summarise(results: Path, reproductions: dict[str, float], slowest: int) -> dict:
    doc = json.loads(results.read_text(encoding="utf-8"))
    claims = sorted(doc["claims"], key=lambda c: -(c.get("runtime_s") or 0.0))
    return {
        "claims": len(claims),
        "claims_runtime_s": sum(c.get("runtime_s") or 0.0 for c in claims),
        "reproductions": len(reproductions),
        "reproductions_runtime_s": sum(reproductions.values()),
        "slowest_claims": [(c["id"], round(c.get("runtime_s") or 0.0, 1)) for c in claims[:slowest]],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fidelity", default="quick", choices=("quick", "full"))
    ap.add_argument("--executor", default="process", choices=("serial", "process"))
    ap.add_argument("--slowest", type=int, default=10)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    summary: dict = {"fidelity": args.fidelity, "executor": args.executor, "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        for phase in ("cold", "warm"):
            out = Path(tmp) / phase
            wall, reproductions = run_report(out, cache, args.fidelity, args.executor)
            results = out / "results.json"
            summary[phase] = {"wall_s": wall, **(summarise(results, reproductions, args.slowest)
                                                 if results.exists() else {"error": "no results.json written"})}
            if not args.json:
                s = summary[phase]
                print(f"{phase:>4}: {wall:7.1f} s wall; claims {s.get('claims_runtime_s', 0):.1f} s summed, "
                      f"reproductions {s.get('reproductions_runtime_s', 0):.1f} s summed")
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print("slowest claims (cold):", ", ".join(f"{i} {t} s" for i, t in summary["cold"].get("slowest_claims", [])))


if __name__ == "__main__":
    main()
