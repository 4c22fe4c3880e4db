"""Start-up time of the command line: median wall time of fresh processes, as a user meets it.

Targets (docs/ARCHITECTURE.md §12): ``tvbo-verify --version`` under 0.5 s and a calculator
under 1 s. Each command runs ``--repeat`` times in a new process (the first, warming the file-system
cache, is not counted); the bare interpreter (``python -c pass``) and ``import tvbo_verify`` are
measured in the same run, so that a loaded machine shows as a ratio. Measures, never asserts.

    python benchmarks/bench_startup.py [--repeat 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

CLI = str(Path(sys.executable).with_name("tvbo-verify"))

COMMANDS: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import tvbo_verify": [sys.executable, "-c", "import tvbo_verify"],
    "tvbo-verify --version": [CLI, "--version"],
    "tvbo-verify --help": [CLI, "--help"],
    "tvbo-verify calc --help": [CLI, "calc", "--help"],
    "tvbo-verify calc window": [CLI, "calc", "window", "--alpha", "2", "--alpha-tilde", "0.25", "-T", "500"],
}

TARGETS_S = {"tvbo-verify --version": 0.5, "tvbo-verify calc window": 1.0}


def wall_times(cmd: list[str], repeat: int) -> list[float]:
    """Wall seconds of ``repeat`` runs of ``cmd`` after one uncounted warm-up run; a failure stops the benchmark."""
    times = []
    for i in range(repeat + 1):
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        elapsed = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()[-500:]}")
        if i:
            times.append(elapsed)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7, help="counted runs per command (default 7)")
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error(f"--repeat must be >= 1, got {args.repeat}")
    rows = {}
    for name, cmd in COMMANDS.items():
        times = wall_times(cmd, args.repeat)
        rows[name] = {"median_s": statistics.median(times), "min_s": min(times), "max_s": max(times)}
    base = rows["python -c pass"]["median_s"]
    for name, row in rows.items():
        row["x_interpreter"] = row["median_s"] / base
        if name in TARGETS_S:
            row["target_s"] = TARGETS_S[name]
            row["within_target"] = row["median_s"] < TARGETS_S[name]
    summary = {"repeat": args.repeat, "cpus": os.cpu_count(), "load_1min": os.getloadavg()[0], "commands": rows}
    if args.json:
        print(json.dumps(summary, indent=1))
        return
    print(f"median of {args.repeat} runs; {summary['cpus']} cpus, load {summary['load_1min']:.1f}")
    print(f"{'command':<26}{'median s':>10}{'min s':>8}{'max s':>8}{'x python':>10}  target")
    for name, row in rows.items():
        target = (f"< {row['target_s']:g} s {'met' if row['within_target'] else 'MISSED'}"
                  if "target_s" in row else "")
        print(f"{name:<26}{row['median_s']:>10.3f}{row['min_s']:>8.3f}{row['max_s']:>8.3f}"
              f"{row['x_interpreter']:>10.1f}  {target}")


if __name__ == "__main__":
    main()
