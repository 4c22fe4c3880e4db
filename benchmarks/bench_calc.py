"""Wall time of every calculator, each in fresh processes (start-up included), against the bare interpreter.

Each ``tvbo-verify calc ...`` command of :data:`CASES` runs ``--repeats`` times as a subprocess; reported are
the median wall seconds, the median of ``python -c pass`` and of ``python -c "import numpy"`` in the same
run (the ratios to them are what compare across machines and loads), and the heavy modules the command
imported (``python -X importtime``: scipy, sympy, matplotlib, the kernels). The cases include the inputs
that used to stall or crash (``lower-bound wsparq`` at ``T = 10^12``, ``block`` at ``T = 10^7``). The
target is a calculator under 1 s on an idle machine.

Run: ``python benchmarks/bench_calc.py [--repeats 3] [--out calc.json]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

CASES: dict[str, list[str]] = {
    "window": ["window", "--alpha", "2", "--alpha-tilde", "0.25", "-T", "1e6"],
    "window T=1e9": ["window", "--alpha", "1", "--alpha-tilde", "0.25", "-T", "1e9"],
    "queries": ["queries", "--alpha", "2", "-T", "10000", "--budget", "300"],
    "block": ["block", "--epsilon", "1e-4", "-T", "1000"],
    "block T=1e7": ["block", "--epsilon", "1e-4", "-T", "10000000"],
    "discount": ["discount", "-T", "10000"],
    "beta": ["beta", "--paper", "tvgpucb", "-t", "100"],
    "gamma": ["gamma", "--kernel", "se", "-T", "1000"],
    "gamma --grid": ["gamma", "--kernel", "se", "-T", "200", "--grid", "30"],
    "regret-bound": ["regret-bound", "--bound", "wsparq:prop-2.2", "-p", "alpha=0.5", "-p", "d=1"],
    "lower-bound bolt": ["lower-bound", "bolt"],
    "lower-bound wsparq": ["lower-bound", "wsparq"],
    "lower-bound wsparq T=1e12": ["lower-bound", "wsparq", "--alpha", "0.001", "-T", "1e12", "--budget", "0.4",
                                  "--noise-var", "0.001"],
    "lower-bound tvgpucb": ["lower-bound", "tvgpucb"],
    "nstar": ["nstar", "--response", "0.1 + 1e-6*n^3", "--temporal-kernel", "matern12", "--temporal-lengthscale",
              "10"],
}
HEAVY = ("scipy", "sympy", "matplotlib", "tvbo_verify.kernels", "tvbo_verify.information")


def wall(argv: list[str], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def heavy_imports(args: list[str]) -> list[str]:
    code = ("import sys; from tvbo_verify.cli.main import main; "
            "sys.argv = ['tvbo-verify', 'calc', *sys.argv[1:]]; main()")
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", code, *args], capture_output=True, text=True)
    names = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")}
    return [m for m in HEAVY if m in names]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None)
    a = parser.parse_args()
    exe = str(Path(sys.executable).with_name("tvbo-verify"))
    bare = wall([sys.executable, "-c", "pass"], a.repeats)
    numpy = wall([sys.executable, "-c", "import numpy"], a.repeats)
    rows = {}
    for name, args in CASES.items():
        seconds = wall([exe, "calc", *args], a.repeats)
        rows[name] = {"seconds": round(seconds, 3), "ratio_to_bare_python": round(seconds / bare, 1),
                      "ratio_to_import_numpy": round(seconds / numpy, 2), "heavy_imports": heavy_imports(args)}
        print(f"{name:<28} {seconds:7.3f} s  x{seconds / numpy:5.2f} of 'import numpy'  {rows[name]['heavy_imports']}")
    result = {"bare_python_seconds": round(bare, 3), "import_numpy_seconds": round(numpy, 3), "calculators": rows}
    text = json.dumps(result, indent=2)
    if a.out:
        a.out.write_text(text + "\n", encoding="utf-8")
    else:
        print(text)


if __name__ == "__main__":
    main()
