"""The process that runs claims for the harness: ``python -m tvbo_verify.verify.mutants.worker [MUTANT]``.

Started by :class:`~tvbo_verify.verify.mutants.harness.WorkerProcess` with ``$TVBO_VERIFY_CACHE`` set
to a fresh folder. It loads every claim module, applies the mutant (none: the unmutated baseline)
before anything runs, makes process pools fork so that their workers inherit the patch, and then
answers requests, one JSON object per line:

* on start: ``{"ready": true, "mutant": NAME, "aliases": N}`` or ``{"ready": false, "error": TEXT}``;
* request ``{"claim": ID, "fidelity": F, "seed": S}`` → ``{"claim", "verdict", "power_caught", "summary",
  "runtime_s"}``.

Replies go to the original standard output; anything a check prints is sent to standard error, so
it cannot break the protocol. The process ends at the end of its input.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path
from typing import IO, Any

from ...jsonify import to_jsonable


def load_mutant(name: str) -> Any:
    """A catalog mutant by name, or ``package.module:ATTRIBUTE`` naming a :class:`Mutant` object."""
    if ":" in name:
        module, _, attr = name.partition(":")
        return getattr(importlib.import_module(module), attr)
    from .catalog import get_mutant

    return get_mutant(name)


def _send(channel: IO[str], message: dict[str, Any]) -> None:
    channel.write(json.dumps(to_jsonable(message)) + "\n")
    channel.flush()


def _answer(request: dict[str, Any], cache_dir: Path) -> dict[str, Any]:
    from .judge import run_fresh

    claim_id = str(request["claim"])
    ev = run_fresh(claim_id, fidelity=str(request.get("fidelity", "quick")), seed=int(request.get("seed", 0)),
                   cache_dir=cache_dir)
    if ev is None:
        return {"claim": claim_id, "verdict": None, "power_caught": None, "summary": "not implemented",
                "runtime_s": 0.0}
    return {"claim": claim_id, "verdict": ev.verdict.value,
            "power_caught": None if ev.power is None else bool(ev.power.caught),
            "summary": ev.summary[:300], "runtime_s": ev.runtime_s}


def serve(mutant_name: str | None) -> int:
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    from .apply import MutantError, apply, use_fork_for_workers

    use_fork_for_workers()
    from ..registry import load_all

    load_all()
    aliases = 0
    if mutant_name:
        try:
            aliases = apply(load_mutant(mutant_name)).aliases
        except (MutantError, ValueError, AttributeError, ImportError) as exc:
            _send(channel, {"ready": False, "error": f"{type(exc).__name__}: {exc}"})
            return 2
    _send(channel, {"ready": True, "mutant": mutant_name, "aliases": aliases})
    cache_dir = Path(os.environ.get("TVBO_VERIFY_CACHE", "."))
    for line in sys.stdin:
        if line.strip():
            _send(channel, _answer(json.loads(line), cache_dir))
    return 0


if __name__ == "__main__":
    sys.exit(serve(sys.argv[1] if len(sys.argv) > 1 else None))
