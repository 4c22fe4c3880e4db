"""Time every reproduction at a fidelity, first with a cold run cache and then with the warm one.

Budgets (issue "Verification by full algorithm runs"): all reproductions at quick fidelity in under
15 minutes with a cold cache on 2 cores, and under 1 minute with a warm cache. Prints one line per
reproduction and a JSON summary with ``--json``; measures, never asserts.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time

from tvbo_verify.execution import get_executor
from tvbo_verify.sweeps import RunCache
from tvbo_verify.sweeps.reproduce import reproductions, run_reproduction


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--fidelity", default="quick", choices=("quick", "full"))
    ap.add_argument("--executor", default="process")
    ap.add_argument("--paper", default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    summary: dict = {"fidelity": args.fidelity, "executor": args.executor, "reproductions": {}}
    with tempfile.TemporaryDirectory() as cache_dir, tempfile.TemporaryDirectory() as out:
        for phase in ("cold", "warm"):
            start = time.perf_counter()
            with get_executor(args.executor) as ex:
                for rep in reproductions(args.paper):
                    t0 = time.perf_counter()
                    run_reproduction(rep, out, fidelity=args.fidelity, executor=ex, cache=RunCache(cache_dir),
                                     progress=False)
                    dt = time.perf_counter() - t0
                    summary["reproductions"].setdefault(rep.id, {})[phase] = dt
                    if not args.json:
                        print(f"{phase:>4} {rep.id:<34} {dt:7.1f} s")
            summary[f"{phase}_total_s"] = time.perf_counter() - start
    summary["warm_over_cold"] = summary["warm_total_s"] / max(summary["cold_total_s"], 1e-9)
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"cold {summary['cold_total_s']:.1f} s, warm {summary['warm_total_s']:.1f} s "
              f"(budgets at quick: 900 s cold, 60 s warm)")


if __name__ == "__main__":
    main()
