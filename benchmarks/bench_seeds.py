"""Run the quick report with several run seeds and record how each claim's verdict moves with the seed.

A verdict is a statement about a paper, not about a seed: across seeds no claim may move between
``violated`` and ``confirmed``, and every verdict should stay accepted (the pass rule of
``tvbo_verify.verify.passing``). Each seed is one ``tvbo-verify report --seed S`` in a fresh process
(shared run cache, so a second pass over the same seeds is warm); the figure per claim is its flip rate,
the fraction of seeds whose verdict differs from the most common one. Measures, never asserts.

    python benchmarks/bench_seeds.py --seeds 0 1 2 3 4 [--paper P ...] [--claims ID ...] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path


def report_verdicts(seed: int, out: Path, papers: list[str], claims: list[str], fidelity: str) -> dict:
    """One report with run seed ``seed``: its wall time, exit code and each claim's verdict and acceptance."""
    cli = Path(sys.executable).with_name("tvbo-verify")
    cmd = [str(cli), "report", "--fidelity", fidelity, "--seed", str(seed), "--no-reproductions", "--out",
           str(out), *[a for p in papers for a in ("--paper", p)], *claims]
    start = time.perf_counter()
    done = subprocess.run(cmd, check=False, capture_output=True, text=True)
    wall = time.perf_counter() - start
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return {"seed": seed, "exit": done.returncode, "wall_s": round(wall, 1),
            "claims": {c["id"]: {"verdict": c["verdict"], "accepted": bool(c.get("accepted"))}
                       for c in doc["claims"]}}


def flip_table(runs: list[dict]) -> dict:
    """Per claim: the verdict at each seed, its flip rate, whether it ever moves between violated and
    confirmed, and the seeds at which it is not accepted."""
    ids = sorted(set().union(*(r["claims"] for r in runs)))
    table = {}
    for cid in ids:
        seen = [(r["seed"], r["claims"][cid]) for r in runs if cid in r["claims"]]
        verdicts = [v["verdict"] for _, v in seen]
        mode, count = Counter(verdicts).most_common(1)[0]
        table[cid] = {"verdicts": {str(s): v["verdict"] for s, v in seen},
                      "flip_rate": round(1 - count / len(verdicts), 3), "most_common": mode,
                      "violated_confirmed": {"violated", "confirmed"} <= set(verdicts),
                      "not_accepted_at": [s for s, v in seen if not v["accepted"]]}
    return table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--paper", action="append", default=[], help="only this paper (repeatable)")
    ap.add_argument("--claims", nargs="*", default=[], help="only these claim ids")
    ap.add_argument("--fidelity", choices=("quick", "full"), default="quick")
    ap.add_argument("--json", type=Path, help="write the figure as JSON here")
    args = ap.parse_args(argv)
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seeds:
            runs.append(report_verdicts(seed, Path(tmp) / f"seed-{seed}", args.paper, args.claims, args.fidelity))
            r = runs[-1]
            bad = sum(not v["accepted"] for v in r["claims"].values())
            print(f"seed {seed}: exit {r['exit']}, {len(r['claims'])} claims, {bad} not accepted, {r['wall_s']} s",
                  flush=True)
    table = flip_table(runs)
    moving = {c: t for c, t in table.items() if t["flip_rate"] > 0}
    figure = {"fidelity": args.fidelity, "seeds": args.seeds, "papers": args.paper or "all",
              "claims": len(table), "claims_that_move": len(moving),
              "violated_confirmed_moves": sorted(c for c, t in table.items() if t["violated_confirmed"]),
              "not_accepted": {c: t["not_accepted_at"] for c, t in table.items() if t["not_accepted_at"]},
              "per_seed": [{k: r[k] for k in ("seed", "exit", "wall_s")} for r in runs], "moving": moving}
    for cid, t in sorted(moving.items()):
        print(f"  {cid}: flip rate {t['flip_rate']}: {t['verdicts']}")
    print(f"{len(moving)} of {len(table)} claims move with the seed; violated<->confirmed: "
          f"{figure['violated_confirmed_moves'] or 'none'}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figure, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
