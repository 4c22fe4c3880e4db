"""The claim suite (``pytest checks``) runs its claims ahead in worker processes with the outcome of a serial run."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _suite(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "checks", "-q", "-rA", "-p", "no:cacheprovider", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_claims_run_ahead_in_workers_pass_and_fail_as_in_a_serial_run(tmp_path):
    # "and not wsparq": the W-SparQ ids contain the SparQ ones, and their run-based claims take minutes.
    selection = ("-k", "(sparq:lemma-1 or sparq:proposition-2 or sparq:algorithm-1 or sparq:assumption-1) "
                       "and not wsparq",
                 "--claim-cache", str(tmp_path / "cache"))
    outcomes = {}
    for executor in ("serial", "process"):
        done = _suite(*selection, "--claim-executor", executor)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
        outcomes[executor] = sorted(line for line in done.stdout.splitlines() if line.startswith(("PASSED", "FAILED")))
    assert len(outcomes["serial"]) >= 4 and outcomes["serial"] == outcomes["process"]
