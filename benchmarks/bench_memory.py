"""Peak memory of GP-UCB and the windowed policies at T = 5000 on a 2500-point grid (target: under 1 GiB).

Each policy runs in a fresh Python process (so peaks do not mix) on a 50×50 grid of ``[0, 1]²`` with an SE
kernel (lengthscale 0.2) and a fixed objective, through :func:`tvbo_verify.bandits.run`. The child
reports

* ``peak_rss_mib`` — ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` (KiB on Linux): the whole process,
  interpreter and libraries included;
* ``baseline_rss_mib`` — the same reading before the run (imports, grid, objective);
* ``peak_numpy_mib`` — the peak of :mod:`tracemalloc` over the run (numpy registers its buffers there),
  i.e. the arrays the run itself allocated;
* ``dataset_size`` — observations the posterior holds at the end.

``--T`` and ``--policies`` change the run; WGP-UCB keeps only the observations of its memory
``log(1/memory_tol)/log(1/γ)``, so its state stops growing after that many rounds. One BLAS thread.
Prints a JSON object with ``--json``, a table otherwise.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import tracemalloc

POLICIES = {
    "gp-ucb": {},
    "tv-gp-ucb": {"epsilon": 0.01},
    "r-gp-ucb": {"block": 1000},
    "sw-gp-ucb": {"window": 200},
    "wgp-ucb": {"discount": 0.95},
}


def child(name: str, T: int, seed: int) -> dict:
    import numpy as np

    from tvbo_verify.bandits import log_rule, run
    from tvbo_verify.bandits.environments.base import Environment
    from tvbo_verify.bandits.registry import ALGORITHMS
    from tvbo_verify.kernels import SquaredExponential

    side = np.linspace(0.0, 1.0, 50)
    grid = np.array(np.meshgrid(side, side)).reshape(2, -1).T
    kernel = SquaredExponential(1.0, 0.2)
    rng = np.random.default_rng(seed)
    values = kernel(grid, rng.uniform(0, 1, (10, 2))) @ rng.normal(size=10)

    class Static(Environment):
        name = "static"

        def __init__(self) -> None:
            super().__init__()
            self.grid, self.kernel, self.noise_var = grid, kernel, 0.01

        def _draw(self, rng: np.random.Generator) -> None:
            pass

        def _values(self) -> np.ndarray:
            return values

    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    policy = ALGORITHMS[name](log_rule(0.8, 4.0), **POLICIES[name])
    tracemalloc.start()
    start = time.perf_counter()
    trace = run(policy, Static(), T, np.random.default_rng(seed))
    seconds = time.perf_counter() - start
    _, peak_numpy = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"policy": name, "params": POLICIES[name], "T": T, "G": int(grid.shape[0]),
            "peak_rss_mib": peak / 1024.0, "baseline_rss_mib": baseline / 1024.0,
            "peak_numpy_mib": peak_numpy / 2**20, "under_1_gib": peak < 1024 * 1024, "seconds": seconds,
            "dataset_size": int(trace.dataset_size[-1])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("-T", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policies", default=",".join(POLICIES))
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1, user_api="blas"):
            print(json.dumps(child(args.child, args.T, args.seed)))
        return
    rows = []
    for name in args.policies.split(","):
        if name not in POLICIES:
            raise SystemExit(f"policy must be one of {', '.join(POLICIES)}, got {name!r}")
        done = subprocess.run([sys.executable, __file__, "--child", name, "-T", str(args.T), "--seed",
                               str(args.seed)], capture_output=True, text=True, check=True, timeout=3600)
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
    if args.json:
        print(json.dumps({"runs": rows}, indent=2))
        return
    for r in rows:
        print(f"{r['policy']:>10} T={r['T']} G={r['G']}: peak RSS {r['peak_rss_mib']:.0f} MiB (before the run "
              f"{r['baseline_rss_mib']:.0f} MiB), numpy peak {r['peak_numpy_mib']:.0f} MiB, {r['seconds']:.1f} s, "
              f"{r['dataset_size']} observations kept")


if __name__ == "__main__":
    main()
