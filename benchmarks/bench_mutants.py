"""Run the whole mutant catalog (first-kill mode) and record the figure: score, per paper, per kind, survivors.

Runs ``tvbo-verify mutants`` as a user does (a fresh process per mutant, each with a fresh run cache), the
layers in the order given (by default policy mutants first: each family's mutants must be killed by a claim
decided from runs), within a wall-time budget if given (mutants left are recorded "not run"), writes the full
results to ``--out`` (default ``reports/mutants.json``, read by the report) and the figure to ``--figure`` (default
``benchmarks/mutants_figure.json``) with the wall time of the run. Measures, never asserts.

    python benchmarks/bench_mutants.py [--budget 600] [--wall-budget S] [--fidelity quick] [--probe-workers N]
                                       [--layers policy,...] [--reuse EARLIER.json] [--json]

``--reuse`` passes an earlier mutation results file of the same code: its unmutated outcomes and
profiles are not measured again (the figure records the seconds spent on them in this run).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from tvbo_verify.mutants.catalog import CATALOG
from tvbo_verify.mutants.mutant import LAYERS


def ordered_names(layers: list[str]) -> list[str]:
    """Catalog mutants of ``layers``, layer by layer in the given order (catalog order within a layer)."""
    return [m.name for layer in layers for m in CATALOG if m.layer == layer]


def figure(doc: dict, wall_s: float) -> dict:
    s = doc["score"]
    return {
        "catalog": len(CATALOG),
        "ran": len(doc["mutants"]),
        "fidelity": doc["run"]["fidelity"],
        "seed": doc["run"]["seed"],
        "budget_s": doc["run"]["budget_s"],
        "git": doc["run"]["git"],
        "wall_s": round(wall_s, 1),
        "baseline_s": doc["run"].get("baseline_s"),
        "score": s["score"],
        "score_by_verdict": s["score_by_verdict"],
        "score_counting_not_run": s.get("score_counting_not_run"),
        "not_run": s.get("not_run", []),
        "not_finished": s.get("not_finished", []),
        "wall_budget_s": doc["run"].get("wall_budget_s"),
        "killed": s["killed"],
        "killed_by_error": s["killed_by_error"],
        "considered": s["considered"],
        "equivalent": s["equivalent"],
        "per_paper": s["per_paper"],
        "per_kind": s["per_kind"],
        "survivors": s["survivors"],
        "policies": {f: {k: v for k, v in p.items() if k != "mutants"} for f, p in s["policies"].items()},
        "first_killers": {m["name"]: (m["killers"] or m["error_killers"] or [None])[0] for m in doc["mutants"]},
        "seconds": {m["name"]: m["seconds"] for m in doc["mutants"]},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget", type=float, default=600.0, help="seconds per mutant")
    ap.add_argument("--fidelity", default="quick", choices=("quick", "full"))
    ap.add_argument("--layers", default=",".join(["policy", *(x for x in LAYERS if x != "policy")]),
                    help="comma-separated layers to run, in this order (default: policies first)")
    ap.add_argument("--wall-budget", type=float, default=None,
                    help="seconds the whole run may take; mutants left are recorded as not run")
    ap.add_argument("--out", type=Path, default=Path("reports/mutants.json"))
    ap.add_argument("--figure", type=Path, default=Path("benchmarks/mutants_figure.json"))
    ap.add_argument("--probe-workers", type=int, default=1,
                    help="processes measuring unmutated claims at once (default 1)")
    ap.add_argument("--reuse", type=Path, action="append", default=[], help="earlier results file (repeatable)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    names = ordered_names([x.strip() for x in args.layers.split(",") if x.strip()])
    cli = Path(sys.executable).with_name("tvbo-verify")
    cmd = [str(cli), "mutants", "--fidelity", args.fidelity, "--budget", str(args.budget), "--out", str(args.out),
           *(["--wall-budget", str(args.wall_budget)] if args.wall_budget else []),
           "--probe-workers", str(args.probe_workers),
           *[a for n in names for a in ("--mutant", n)], *[a for r in args.reuse for a in ("--reuse", str(r))]]
    start = time.perf_counter()
    done = subprocess.run(cmd, check=False, text=True, stdout=subprocess.PIPE)
    wall = time.perf_counter() - start
    if not args.out.exists():
        sys.exit(f"tvbo-verify mutants wrote no results (exit {done.returncode})")
    fig = figure(json.loads(args.out.read_text(encoding="utf-8")), wall)
    args.figure.write_text(json.dumps(fig, indent=1) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(fig, indent=1))
    else:
        print(done.stdout)
        print(f"wall time {wall / 60:.1f} min for {fig['ran']} of {fig['catalog']} mutants; figure: {args.figure}")


if __name__ == "__main__":
    main()
