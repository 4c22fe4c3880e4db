"""Cost of keying runs by their source (:mod:`tvbo_verify.sweeps.codekey`), in a fresh process.

Measures, after ``import tvbo_verify.sweeps`` (which every user of the cache pays anyway):

* ``first_key_ms`` — the first :attr:`RunSpec.key` of the process (reads and hashes the files of the
  run's import closure);
* ``another_pair_ms`` — the first key of a second (algorithm, environment) pair (most files already hashed);
* ``warm_key_us`` — a key once the digests are cached (mean over ``--repeat`` keys of distinct runs);
* ``import_ms`` and ``first_key_over_import`` — the import of the package, and the ratio of the first key
  to it (meaningful under load, unlike absolute times);
* ``modules`` — how many modules each pair's digest covers.

Prints a JSON object.
"""

from __future__ import annotations

import argparse
import json
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000, help="warm keys to time (default 2000)")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error(f"--repeat must be >= 1, got {args.repeat}")

    start = time.perf_counter()
    from tvbo_verify.sweeps import RunSpec, codekey

    import_s = time.perf_counter() - start
    start = time.perf_counter()
    RunSpec("wgp-ucb", "wgpucb-rotation", 100, 0, 0, 1, {"discount": 0.9}).key
    first_s = time.perf_counter() - start
    start = time.perf_counter()
    RunSpec("sparq-gp-ucb", "sparq-synthetic", 100, 0, 0, 1).key
    another_s = time.perf_counter() - start
    start = time.perf_counter()
    for rep in range(args.repeat):
        RunSpec("wgp-ucb", "wgpucb-rotation", 100, 0, rep, args.repeat, {"discount": 0.9}).key
    warm_s = (time.perf_counter() - start) / args.repeat
    pairs = [("wgp-ucb", "wgpucb-rotation"), ("sparq-gp-ucb", "sparq-synthetic"), ("bolt", "bolt-st"),
             ("hetero-gp-ucb", "rkhs-random-walk")]
    print(json.dumps({
        "import_ms": 1e3 * import_s, "first_key_ms": 1e3 * first_s, "another_pair_ms": 1e3 * another_s,
        "warm_key_us": 1e6 * warm_s, "first_key_over_import": first_s / import_s,
        "modules": {f"{a} on {e}": len(codekey.run_modules(a, e)) for a, e in pairs},
    }, indent=1))


if __name__ == "__main__":
    main()
