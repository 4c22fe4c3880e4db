"""The process that runs claims for the harness:
``python -m tvbo_verify.mutants.worker MUTANT|--probe CACHE_DIR``.

Started by :class:`~tvbo_verify.mutants.workers.WorkerProcess` with a fresh folder ``CACHE_DIR``:
every claim receives the run cache there through its context (``run_claim(..., cache=...)``). It loads
every claim module, makes process pools fork (their workers inherit what
is bound now), and then

* ``MUTANT``: applies the mutant before anything runs; the claims it is asked share its fresh cache;
* ``--probe``: runs unmutated with every target of the catalog wrapped by a recorder
  (:func:`~.apply.probe`), and runs each claim in isolation — an empty run cache and emptied
  in-process caches — so that the targets a claim calls are exactly the code its verdict depends on.

It answers requests, one JSON object per line:

* on start: ``{"ready": true, "mutant": NAME, "aliases": N}`` or ``{"ready": false, "error": TEXT}``;
* request ``{"claim": ID, "fidelity": F, "seed": S}`` → ``{"claim", "verdict", "power_caught",
  "referee_disagreement", "summary", "runtime_s"}``, plus ``"called"`` (the catalog targets the claim
  executed) with ``--probe``.

Replies go to the original standard output; anything a check prints is sent to standard error, so
it cannot break the protocol. The process ends at the end of its input.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import IO, Any, Callable

from ..jsonify import to_jsonable

PROBE = "--probe"


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


def process_caches() -> list[Callable[[], None]]:
    """Clearers of the in-process memo caches of loaded ``tvbo_verify`` modules: ``functools.lru_cache`` functions
    and module-level dicts whose name says cache."""
    clearers: list[Callable[[], None]] = []
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("tvbo_verify"):
            continue
        for key, value in vars(module).items():
            if callable(getattr(value, "cache_clear", None)):
                clearers.append(value.cache_clear)
            elif isinstance(value, dict) and "CACHE" in key.upper():
                clearers.append(value.clear)
    return clearers


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
            "referee_disagreement": is_referee_disagreement(ev),
            "summary": ev.summary[:300], "runtime_s": ev.runtime_s}


def is_referee_disagreement(ev: Any) -> bool:
    """Whether ``ev`` is the error an exact check ends in when its 50-digit referee twin contradicts the float
    computation (:class:`~tvbo_verify.verify.stats.RefereeDisagreement`): a detection, not a crash."""
    from ..verify.evidence import Verdict
    from ..verify.stats import RefereeDisagreement

    return ev.verdict is Verdict.ERROR and ev.summary.startswith(f"check raised {RefereeDisagreement.__name__}:")


def serve(arg: str | None, cache_dir: Path) -> int:
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    from .apply import MutantError, apply, probe, use_fork_for_workers

    use_fork_for_workers()
    from ..verify.registry import load_all

    load_all()
    called: set[str] = set()
    clearers: list[Callable[[], None]] = []
    aliases = 0
    try:
        if arg == PROBE:
            from .catalog import CATALOG

            clearers = process_caches()
            aliases = probe((m.target for m in CATALOG), called).aliases
        elif arg:
            aliases = apply(load_mutant(arg)).aliases
    except (MutantError, ValueError, AttributeError, ImportError) as exc:
        _send(channel, {"ready": False, "error": f"{type(exc).__name__}: {exc}"})
        return 2
    _send(channel, {"ready": True, "mutant": None if arg == PROBE else arg, "aliases": aliases})
    for line in sys.stdin:
        if not line.strip():
            continue
        if arg == PROBE:  # each claim alone: no runs of an earlier claim, no memo of an earlier claim
            shutil.rmtree(cache_dir / "runs", ignore_errors=True)
            for clear in clearers:
                clear()
            called.clear()
        answer = _answer(json.loads(line), cache_dir)
        if arg == PROBE:
            answer["called"] = sorted(called)
        _send(channel, answer)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m tvbo_verify.mutants.worker MUTANT|--probe CACHE_DIR")
    sys.exit(serve(sys.argv[1], Path(sys.argv[2])))
