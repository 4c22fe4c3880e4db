"""A claim-running worker process seen from the harness: started with a fresh run cache, asked one claim at a
time with a deadline, ended by its process group (its own process pools included)."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: Seconds a worker may take to load every claim module and apply its mutant.
STARTUP_SECONDS = 120.0


class WorkerTimeout(Exception):
    """The worker did not answer before its deadline (it has been ended)."""


class WorkerProcess:
    """``python -m tvbo_verify.mutants.worker MUTANT|--probe CACHE_DIR`` with a fresh temporary run cache
    (removed by :meth:`close`), handed to every claim through its context; ``$TVBO_VERIFY_CACHE`` points there
    too, so that no run of the mutated code can reach the shared cache. Its standard error is kept in that folder
    for :meth:`log_tail`."""

    def __init__(self, mutant: str) -> None:
        self.mutant = mutant
        self._tmp = tempfile.TemporaryDirectory(prefix="tvbo-mutant-")
        folder = Path(self._tmp.name)
        env = dict(os.environ, TVBO_VERIFY_CACHE=str(folder / "cache"), PYTHONUNBUFFERED="1")
        self._log_path = folder / "worker.log"
        self._log = open(self._log_path, "w", encoding="utf-8")
        args = [sys.executable, "-m", "tvbo_verify.mutants.worker", mutant, str(folder / "cache")]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
                                     text=True, env=env, start_new_session=True)
        self.ready: dict[str, Any] | None = None

    def start(self, timeout: float = STARTUP_SECONDS) -> dict[str, Any]:
        """Wait for the ready line: ``{"ready": true, ...}`` or ``{"ready": false, "error": ...}``."""
        self.ready = self._read(timeout)
        return self.ready

    def ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request and wait at most ``timeout`` seconds for its answer (:class:`WorkerTimeout` after)."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise RuntimeError(f"worker ended unexpectedly: {self.log_tail()}") from None
        return self._read(timeout)

    def _read(self, timeout: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + max(timeout, 0.0)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise WorkerTimeout(f"no answer within {timeout:.0f} s")
            ready, _, _ = select.select([self.proc.stdout], [], [], min(left, 1.0))
            if ready:
                line = self.proc.stdout.readline()
                if not line:
                    code = self.proc.wait()
                    raise RuntimeError(f"worker ended with exit code {code}: {self.log_tail()}")
                return json.loads(line)

    def log_tail(self, lines: int = 3) -> str:
        """The last lines the worker wrote to standard error (its error, when it crashed)."""
        self._log.flush()
        try:
            text = self._log_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
        except OSError:
            return ""
        return " | ".join(text[-lines:])

    def kill(self) -> None:
        """End the worker and every process it started (its own process group)."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()

    def close(self) -> None:
        """Ask the worker to finish (end of input), end it if it does not, and remove its folder."""
        if self.proc.poll() is None and self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()
        for stream in (self.proc.stdout, self._log):
            if stream is not None:
                stream.close()
        self._tmp.cleanup()

    def __enter__(self) -> "WorkerProcess":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
