"""TV-GP-UCB on the ``tvgpucb`` 50×50 grid: time for T = 2000 and peak memory for T = 5000 (G = 2500).

The incremental posterior applies the separable temporal factor by scaling the stored rows
(``O(t·G)`` per round, :class:`tvbo_verify.gp.IncrementalPosterior` with ``forgetting=ε``). Reported:

* ``seconds_total`` and ``seconds_per_step_last100`` for ``T`` rounds (policy time only, from the trace);
* ``bare_gemv_seconds``: one numpy matrix–vector product with the ``t×G`` matrix at ``t = T`` (the bare
  ``O(t·G)`` work of a round) and ``ratio_to_bare_work`` = last-100 seconds per step / that time;
* ``peak_rss_mib`` of a fresh process running ``--memory-T`` rounds (``resource.getrusage``,
  ``ru_maxrss`` in KiB on Linux), to be compared with 1 GiB.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

import numpy as np

from tvbo_verify.bandits import TVGPUCB, log_rule, run
from tvbo_verify.bandits.environments import MarkovGP


def timed_run(T: int, epsilon: float, seed: int) -> dict:
    env = MarkovGP(epsilon=epsilon)
    start = time.perf_counter()
    trace = run(TVGPUCB(log_rule(0.8, 4.0), epsilon=epsilon), env, T, np.random.default_rng(seed))
    wall = time.perf_counter() - start
    G = env.grid.shape[0]
    A = np.random.default_rng(0).standard_normal((T, G))
    z = np.random.default_rng(1).standard_normal(T)
    reps = 20
    t0 = time.perf_counter()
    for _ in range(reps):
        A.T @ z
    gemv = (time.perf_counter() - t0) / reps
    last = float(np.mean(trace.seconds[-100:]))
    return {"T": T, "G": G, "epsilon": epsilon, "seconds_total": float(np.sum(trace.seconds)),
            "seconds_wall_including_environment": wall, "seconds_per_step_last100": last,
            "bare_gemv_seconds": gemv, "ratio_to_bare_work": last / gemv,
            "final_regret": float(trace.cumulative[-1])}


def memory_run(T: int, epsilon: float, seed: int) -> dict:
    env = MarkovGP(epsilon=epsilon)
    start = time.perf_counter()
    trace = run(TVGPUCB(log_rule(0.8, 4.0), epsilon=epsilon), env, T, np.random.default_rng(seed))
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"T": T, "G": int(env.grid.shape[0]), "peak_rss_mib": peak_kib / 1024.0,
            "under_1_gib": peak_kib < 1024 * 1024, "seconds": time.perf_counter() - start,
            "dataset_size": int(trace.dataset_size[-1])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("-T", type=int, default=2000)
    parser.add_argument("--memory-T", type=int, default=5000)
    parser.add_argument("--epsilon", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--memory-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_only:
        print(json.dumps(memory_run(args.memory_T, args.epsilon, args.seed)))
        return
    out = {"timing": timed_run(args.T, args.epsilon, args.seed)}
    child = subprocess.run([sys.executable, __file__, "--memory-only", "--memory-T", str(args.memory_T),
                            "--epsilon", str(args.epsilon), "--seed", str(args.seed)],
                           capture_output=True, text=True, check=True)
    out["memory"] = json.loads(child.stdout.strip().splitlines()[-1])
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for section, values in out.items():
            for key, value in values.items():
                print(f"{section:>7} {key:>36}: {value}")


if __name__ == "__main__":
    main()
