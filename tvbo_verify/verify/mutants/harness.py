"""Run mutants against the claims that can notice them and decide which are killed.

For each mutant a fresh worker process (fresh run cache, mutant applied before anything runs) is
asked its candidate claims (:mod:`~tvbo_verify.verify.mutants.affects`), cheapest first. A claim
kills the mutant when its verdict under the mutant is not accepted (:func:`~.judge.is_accepted`)
while the unmutated verdict, measured once per claim by a baseline worker with its own fresh cache,
is accepted. A mutated verdict of ``error`` is a kill *by error* (a crash is a weaker kill): it is
recorded but does not stop the search. The first verdict kill ends the mutant unless ``exhaustive``
(then every candidate runs and the kill matrix is complete). Each mutant has a time budget; a
mutant that exhausts it without a kill is "timed out", never "killed".
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from ..evidence import Verdict
from .judge import is_accepted
from .mutant import Mutant
from .workers import WorkerProcess, WorkerTimeout

#: Statuses of a mutant after a run.
KILLED, KILLED_BY_ERROR, SURVIVED, TIMED_OUT = "killed", "killed-by-error", "survived", "timed-out"
NOT_APPLIED, NO_CANDIDATES, EQUIVALENT = "not-applied", "no-candidates", "equivalent"
STATUSES = (KILLED, KILLED_BY_ERROR, SURVIVED, TIMED_OUT, NOT_APPLIED, NO_CANDIDATES, EQUIVALENT)

Progress = Callable[[str], None]


@dataclass
class Settings:
    """Fidelity and seed of every claim run, the per-mutant budget, and whether to run every candidate."""

    fidelity: str = "quick"
    seed: int = 0
    budget_s: float = 600.0
    exhaustive: bool = False


@dataclass
class Trial:
    """One candidate claim run under a mutant, with its judgement."""

    claim: str
    verdict: str | None
    accepted: bool
    runtime_s: float
    baseline: str | None = None
    kill: str | None = None  # "verdict", "error" or None
    summary: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"claim": self.claim, "verdict": self.verdict, "accepted": self.accepted,
                "baseline_verdict": self.baseline, "kill": self.kill, "runtime_s": round(self.runtime_s, 3),
                "summary": self.summary}


@dataclass
class MutantRun:
    """The outcome of one mutant."""

    mutant: Mutant
    status: str
    candidates: list[str] = field(default_factory=list)
    trials: list[Trial] = field(default_factory=list)
    seconds: float = 0.0
    note: str = ""

    @property
    def killers(self) -> list[str]:
        return [t.claim for t in self.trials if t.kill == "verdict"]

    @property
    def error_killers(self) -> list[str]:
        return [t.claim for t in self.trials if t.kill == "error"]

    def to_dict(self) -> dict[str, Any]:
        return {**self.mutant.to_dict(), "status": self.status, "killers": self.killers,
                "error_killers": self.error_killers, "candidates": len(self.candidates),
                "tried": [t.to_dict() for t in self.trials], "seconds": round(self.seconds, 2), "note": self.note}


class Baselines:
    """Unmutated outcomes per claim, measured on demand by one baseline worker (its own fresh run cache) and
    seeded from an earlier run of the same code."""

    def __init__(self, settings: Settings, known: Mapping[str, dict[str, Any]] | None = None) -> None:
        self.settings = settings
        self.outcomes: dict[str, dict[str, Any]] = dict(known or {})
        self._worker: WorkerProcess | None = None

    def get(self, claim_id: str) -> dict[str, Any]:
        """``{"verdict", "power_caught", "accepted", "runtime_s"}`` of the unmutated claim (verdict None when
        the baseline itself exceeded the budget or failed: such a claim cannot kill)."""
        if claim_id not in self.outcomes:
            self.outcomes[claim_id] = self._measure(claim_id)
        return self.outcomes[claim_id]

    def _measure(self, claim_id: str) -> dict[str, Any]:
        s = self.settings
        try:
            if self._worker is None:
                self._worker = WorkerProcess(None)
                ready = self._worker.start()
                if not ready.get("ready"):
                    raise RuntimeError(str(ready.get("error")))
            answer = self._worker.ask({"claim": claim_id, "fidelity": s.fidelity, "seed": s.seed}, s.budget_s)
        except (WorkerTimeout, RuntimeError) as exc:
            self.close()
            return {"verdict": None, "power_caught": None, "accepted": False, "runtime_s": None,
                    "problem": str(exc)}
        verdict = answer["verdict"]
        return {"verdict": verdict, "power_caught": answer["power_caught"],
                "accepted": verdict is not None and is_accepted(claim_id, verdict, answer["power_caught"], s.fidelity),
                "runtime_s": answer["runtime_s"]}

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None


def judge(claim_id: str, answer: dict[str, Any], baselines: Baselines, fidelity: str) -> Trial:
    """The trial of one answer of a mutant worker: a kill needs an accepted unmutated verdict."""
    verdict = answer["verdict"]
    accepted = verdict is None or is_accepted(claim_id, verdict, answer["power_caught"], fidelity)
    trial = Trial(claim_id, verdict, accepted, float(answer.get("runtime_s") or 0.0), summary=answer.get("summary", ""))
    if accepted:
        return trial
    base = baselines.get(claim_id)
    trial.baseline = base["verdict"]
    if base["accepted"]:
        trial.kill = "error" if verdict == Verdict.ERROR.value else "verdict"
    return trial


def run_mutant(mutant: Mutant, candidates: list[str], settings: Settings, baselines: Baselines,
               progress: Progress = lambda s: None) -> MutantRun:
    """Try ``candidates`` (in order) under ``mutant`` within ``settings.budget_s``."""
    run = MutantRun(mutant, SURVIVED, list(candidates))
    if not candidates:
        run.status = NO_CANDIDATES
        return run
    t0 = time.monotonic()
    deadline = t0 + settings.budget_s
    worker = WorkerProcess(mutant.name)
    try:
        try:
            ready = worker.start(timeout=max(min(deadline - time.monotonic(), 300.0), 1.0))
        except WorkerTimeout:
            run.status, run.note = TIMED_OUT, "the worker did not start within the budget"
            return run
        if not ready.get("ready"):
            run.status, run.note = NOT_APPLIED, str(ready.get("error"))
            return run
        for claim_id in candidates:
            left = deadline - time.monotonic()
            if left <= 0:
                run.status = TIMED_OUT
                run.note = f"budget of {settings.budget_s:.0f} s spent after {len(run.trials)} claims"
                break
            try:
                answer = worker.ask({"claim": claim_id, "fidelity": settings.fidelity, "seed": settings.seed}, left)
            except WorkerTimeout:
                run.status, run.note = TIMED_OUT, f"budget of {settings.budget_s:.0f} s spent while running {claim_id}"
                break
            trial = judge(claim_id, answer, baselines, settings.fidelity)
            run.trials.append(trial)
            if trial.kill:
                progress(f"  {mutant.name}: {claim_id} {trial.verdict} (unmutated {trial.baseline}) "
                         f"-> kill by {trial.kill}")
            if trial.kill == "verdict" and not settings.exhaustive:
                break
    finally:
        worker.close()
        run.seconds = time.monotonic() - t0
    if run.killers:
        run.status = KILLED
    elif run.error_killers:
        run.status = KILLED_BY_ERROR
    return run


def run_mutants(mutants: Iterable[Mutant], candidates: Mapping[str, list[str]], settings: Settings,
                baselines: Baselines, *, progress: Progress = lambda s: None,
                on_result: Callable[[MutantRun], None] = lambda r: None) -> list[MutantRun]:
    """Run every mutant in turn (equivalent ones are not run: their unit tests show the equivalence)."""
    runs = []
    for mutant in mutants:
        if mutant.is_equivalent:
            run = MutantRun(mutant, EQUIVALENT, list(candidates.get(mutant.name, [])), note="argued equivalent")
        else:
            run = run_mutant(mutant, candidates.get(mutant.name, []), settings, baselines, progress)
        tried = len(run.trials)
        first = (run.killers or run.error_killers or ["-"])[0]
        progress(f"{mutant.name:<40} {run.status:<16} {first:<44} {tried:>3}/{len(run.candidates):<3} claims "
                 f"{run.seconds:7.1f} s")
        runs.append(run)
        on_result(run)
    return runs
