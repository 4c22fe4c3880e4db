"""Run mutants against the claims that can notice them and decide which are killed.

Every candidate claim (:mod:`~tvbo_verify.mutants.affects`) is first measured once unmutated
by a probing worker (:class:`Baselines`; with ``Settings.probe_workers`` above 1, a mutant's candidates are
measured by that many workers at once before it runs): its verdict, whether that verdict is accepted, its runtime
and the catalog targets it executes, each claim run alone (empty run cache and memo caches). A
mutant then only reruns, cheapest first, the candidates whose unmutated verdict is accepted and
that execute its target — a claim that never calls the mutated function computes exactly what it
computed unmutated. The mutant's worker has its own fresh run cache and the mutant applied before
anything runs.

A claim kills the mutant when its verdict under the mutant is not accepted (:func:`~.judge.is_accepted`).
A mutated verdict of ``error`` is a kill *by error* (a crash is a weaker kill): it is recorded but
does not stop the search. The one error that is a verdict kill is the referee's: an exact check
whose 50-digit twin contradicts the float computation ends in error by design ("referee twin
disagrees with the check"), which is the check detecting the bug. The first verdict kill ends the
mutant unless ``exhaustive`` (then every candidate runs and the kill matrix is complete) — except
for a policy mutant killed only by exact or structural claims so far: its search goes on through
the claims decided from runs (:data:`RUN_BASED_KINDS`) until one of them kills it, since a policy
bug that no run notices is a finding of its own. Each mutant has a time budget for its own worker
(the shared baseline measurements are not charged to it); a mutant that exhausts it without a kill
is "timed out", never "killed". The whole run may have a wall-time budget too
(``Settings.wall_budget_s``, baselines included): a mutant it cuts short is "timed out", and the
mutants after it are "not run" — neither is ever counted as killed.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from ..budget import MAX_BUDGET_S
from ..validation import check_int, check_interval
from ..verify.claimlist import claim_row
from ..verify.evidence import Verdict
from .judge import is_accepted
from .mutant import Mutant
from .worker import PROBE
from .workers import WorkerProcess, WorkerTimeout

#: Statuses of a mutant after a run.
KILLED, KILLED_BY_ERROR, SURVIVED, TIMED_OUT = "killed", "killed-by-error", "survived", "timed-out"
NOT_APPLIED, NOT_REACHED, EQUIVALENT, NOT_RUN = "not-applied", "not-reached", "equivalent", "not-run"
STATUSES = (KILLED, KILLED_BY_ERROR, SURVIVED, TIMED_OUT, NOT_APPLIED, NOT_REACHED, EQUIVALENT, NOT_RUN)

#: Kinds of claims decided from runs (the others are exact or structural checks).
RUN_BASED_KINDS = ("probabilistic", "rate", "experiment")
#: what the summary of a claim refused by the definition audit says (``DefinitionAudit.text``)
AUDIT_REFUSAL = "does not implement its definition"
#: what the summary of a claim refused by the run audit says (the regret ledger or an environment against its
#: definition, :class:`tvbo_verify.sweeps.run_audit.RunAuditFailure`)
RUN_AUDIT_REFUSAL = "RunAuditFailure"

Progress = Callable[[str], None]

#: most probing workers measuring unmutated outcomes at once (each is a process running one claim)
MAX_PROBE_WORKERS = 64


def is_run_based(claim_id: str) -> bool:
    return claim_row(claim_id).kind in RUN_BASED_KINDS


@dataclass
class Settings:
    """Fidelity and seed of every claim run, the budget of a mutant (its own worker), the limit on one unmutated
    claim run, whether to run every candidate, the wall-time budget of the whole run (None: only the
    budgets of the mutants bound it) and how many probing workers measure unmutated outcomes at once."""

    fidelity: str = "quick"
    seed: int = 0
    budget_s: float = 600.0
    exhaustive: bool = False
    baseline_limit_s: float = 900.0
    wall_budget_s: float | None = None
    probe_workers: int = 1
    deadline: float | None = field(default=None, repr=False)  # time.monotonic() at which the wall budget ends

    def __post_init__(self) -> None:  # a budget that never ends would wait on a hung worker for good
        check_interval("budget_s", self.budget_s, 1.0, MAX_BUDGET_S)
        check_interval("baseline_limit_s", self.baseline_limit_s, 1.0, MAX_BUDGET_S)
        check_int("probe_workers", self.probe_workers, 1, maximum=MAX_PROBE_WORKERS)
        if self.wall_budget_s is not None:
            check_interval("wall_budget_s", self.wall_budget_s, 1.0, MAX_BUDGET_S)

    def wall_left(self) -> float:
        """Seconds left of the wall-time budget (infinite without one)."""
        return float("inf") if self.deadline is None else self.deadline - time.monotonic()


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
    """The outcome of one mutant: ``candidates`` are the claims found to execute its target with an accepted
    unmutated verdict, in the order tried (in first-kill mode, up to the kill)."""

    mutant: Mutant
    status: str
    candidates: list[str] = field(default_factory=list)
    trials: list[Trial] = field(default_factory=list)
    seconds: float = 0.0
    note: str = ""
    incomplete: bool = False  # the budget ended the search for a kill by a run-based claim after another kill

    @property
    def killers(self) -> list[str]:
        return [t.claim for t in self.trials if t.kill == "verdict"]

    @property
    def error_killers(self) -> list[str]:
        return [t.claim for t in self.trials if t.kill == "error"]

    @property
    def audit_killers(self) -> list[str]:
        """Run-based claims refused because the method of their runs does not implement its definition (the
        definition audit, :mod:`tvbo_verify.bandits.definitions`): an error decided from the runs themselves."""
        return [t.claim for t in self.trials
                if t.kill == "error" and is_run_based(t.claim)
                and (AUDIT_REFUSAL in t.summary or RUN_AUDIT_REFUSAL in t.summary)]

    @property
    def killed_by_a_run(self) -> bool:
        return any(is_run_based(c) for c in self.killers) or bool(self.audit_killers)

    def settled(self, settings: Settings) -> bool:
        """Nothing left to learn in first-kill mode: killed by a verdict (or refused by the definition audit of a
        run-based claim), and (a policy mutant) by a run-based claim when one can be found."""
        if settings.exhaustive or not (self.killers or self.audit_killers):
            return False
        return self.mutant.policy is None or self.killed_by_a_run

    def wants(self, claim_id: str, settings: Settings) -> bool:
        """Whether ``claim_id`` still has something to tell about this mutant."""
        if settings.exhaustive or not (self.killers or self.audit_killers):
            return True
        return self.mutant.policy is not None and not self.killed_by_a_run and is_run_based(claim_id)

    def to_dict(self) -> dict[str, Any]:
        return {**self.mutant.to_dict(), "status": self.status, "killers": self.killers,
                "error_killers": self.error_killers, "candidates": list(self.candidates),
                "tried": [t.to_dict() for t in self.trials], "seconds": round(self.seconds, 2), "note": self.note,
                "run_based_search_incomplete": self.incomplete}


class Baselines:
    """Unmutated outcomes per claim, measured on demand by a probing worker (seeded from an earlier run of the
    same code): ``{"verdict", "power_caught", "accepted", "runtime_s", "called"}``. :meth:`prefetch` measures many
    at once with ``settings.probe_workers`` workers."""

    def __init__(self, settings: Settings, known: Mapping[str, dict[str, Any]] | None = None,
                 progress: Progress = lambda s: None) -> None:
        self.settings = settings
        self.outcomes: dict[str, dict[str, Any]] = dict(known or {})
        self.progress = progress
        self.seconds = 0.0
        self._prober = _Prober(settings)
        self._lock = threading.Lock()

    def get(self, claim_id: str) -> dict[str, Any]:
        """The unmutated outcome of ``claim_id`` (verdict None when its run exceeded the budget or failed: such a
        claim cannot kill)."""
        if claim_id not in self.outcomes:
            self._record(claim_id, self._prober)
        return self.outcomes[claim_id]

    def prefetch(self, claim_ids: Iterable[str]) -> None:
        """Measure the unknown outcomes of ``claim_ids`` with ``settings.probe_workers`` workers at once, in the
        order given (nothing to do with one worker: :meth:`get` measures on demand). Claims left when the
        wall-time budget ends are not measured."""
        todo = [c for c in dict.fromkeys(claim_ids) if c not in self.outcomes]
        n = min(self.settings.probe_workers, len(todo))
        if n < 2:
            return
        queue = iter(todo)
        probers = [self._prober] + [_Prober(self.settings) for _ in range(n - 1)]

        def drain(prober: _Prober) -> None:
            while self.settings.wall_left() > 0:
                with self._lock:
                    claim_id = next(queue, None)
                if claim_id is None:
                    return
                self._record(claim_id, prober)

        try:
            with ThreadPoolExecutor(n) as pool:
                list(pool.map(drain, probers))
        finally:
            for prober in probers[1:]:
                prober.close()

    def _record(self, claim_id: str, prober: "_Prober") -> None:
        t0 = time.monotonic()
        out = prober.measure(claim_id)
        spent = time.monotonic() - t0
        with self._lock:
            self.outcomes[claim_id] = out
            self.seconds += spent
        self.progress(f"  unmutated {claim_id}: {out['verdict']} "
                      f"({'accepted' if out['accepted'] else 'not accepted'}, {spent:.1f} s)")

    def can_kill(self, claim_id: str, target: str) -> bool:
        """Whether ``claim_id`` may notice a mutant of ``target``: accepted unmutated, and it executes ``target``."""
        base = self.get(claim_id)
        return bool(base["accepted"]) and target in (base.get("called") or ())

    def close(self) -> None:
        self._prober.close()


class _Prober:
    """One probing worker process, started on first use: measures a claim unmutated, alone, with empty caches."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._worker: WorkerProcess | None = None

    def measure(self, claim_id: str) -> dict[str, Any]:
        s = self.settings
        try:
            if self._worker is None:
                self._worker = WorkerProcess(PROBE)
                ready = self._worker.start()
                if not ready.get("ready"):
                    raise RuntimeError(str(ready.get("error")))
            answer = self._worker.ask({"claim": claim_id, "fidelity": s.fidelity, "seed": s.seed},
                                      min(s.baseline_limit_s, max(s.wall_left(), 1.0)))
        except (WorkerTimeout, RuntimeError) as exc:
            self.close()
            return {"verdict": None, "power_caught": None, "accepted": False, "runtime_s": None, "called": None,
                    "problem": str(exc)[:300]}
        verdict = answer["verdict"]
        return {"verdict": verdict, "power_caught": answer["power_caught"],
                "accepted": verdict is not None and is_accepted(claim_id, verdict, answer["power_caught"], s.fidelity),
                "runtime_s": answer["runtime_s"], "called": answer["called"]}

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None


def judge(claim_id: str, answer: dict[str, Any], baselines: Baselines, fidelity: str) -> Trial:
    """The trial of one answer of a mutant worker (whose claim has an accepted unmutated verdict)."""
    verdict = answer["verdict"]
    accepted = verdict is None or is_accepted(claim_id, verdict, answer["power_caught"], fidelity)
    base = baselines.get(claim_id)
    trial = Trial(claim_id, verdict, accepted, float(answer.get("runtime_s") or 0.0), baseline=base["verdict"],
                  summary=answer.get("summary", ""))
    if not accepted and base["accepted"]:
        crashed = verdict == Verdict.ERROR.value and not answer.get("referee_disagreement")
        trial.kill = "error" if crashed else "verdict"
    elif base["accepted"] and more_favourable(verdict, base["verdict"]):
        trial.kill = "verdict"  # accepted, but a bug made the paper look better: the claim noticed it
        trial.summary = f"more favourable than unmutated ({base['verdict']} -> {verdict}); {trial.summary}"
    return trial


#: verdicts from the least to the most favourable to the paper
FAVOURABILITY = (Verdict.VIOLATED.value, Verdict.INCONCLUSIVE.value, Verdict.CONFIRMED.value)


def more_favourable(verdict: str | None, baseline: str | None) -> bool:
    """Whether ``verdict`` is more favourable to the paper than the unmutated ``baseline`` (inconclusive ->
    confirmed, violated -> inconclusive or confirmed): a bug that makes a statement look better is noticed."""
    if verdict not in FAVOURABILITY or baseline not in FAVOURABILITY:
        return False
    return FAVOURABILITY.index(verdict) > FAVOURABILITY.index(baseline)


class _MutantWorker:
    """The worker of one mutant, started on first use and charged to the mutant's budget."""

    def __init__(self, mutant: Mutant, settings: Settings) -> None:
        self.mutant, self.settings = mutant, settings
        self.worker: WorkerProcess | None = None
        self.spent = 0.0

    def left(self) -> float:
        return min(self.settings.budget_s - self.spent, self.settings.wall_left())

    def ask(self, claim_id: str) -> dict[str, Any]:
        t0 = time.monotonic()
        try:
            if self.worker is None:
                self.worker = WorkerProcess(self.mutant.name)
                ready = self.worker.start(timeout=max(self.left(), 1.0))
                if not ready.get("ready"):
                    raise _NotApplied(str(ready.get("error")))
            s = self.settings
            return self.worker.ask({"claim": claim_id, "fidelity": s.fidelity, "seed": s.seed},
                                   max(self.left() - (time.monotonic() - t0), 0.0))
        finally:
            self.spent += time.monotonic() - t0

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()


class _NotApplied(Exception):
    pass


def run_mutant(mutant: Mutant, candidates: list[str], settings: Settings, baselines: Baselines,
               progress: Progress = lambda s: None) -> MutantRun:
    """Try the ``candidates`` (in order) that can notice ``mutant``, within ``settings.budget_s``."""
    run = MutantRun(mutant, SURVIVED)
    worker = _MutantWorker(mutant, settings)
    try:
        for claim_id in candidates:
            if run.settled(settings):
                break
            if not run.wants(claim_id, settings) or not baselines.can_kill(claim_id, mutant.target):
                continue
            if settings.wall_left() <= 0:
                run.status, run.note = TIMED_OUT, "the wall-time budget of the run ended"
                break
            run.candidates.append(claim_id)
            try:
                if worker.left() <= 0:
                    raise WorkerTimeout("")
                answer = worker.ask(claim_id)
            except WorkerTimeout:
                run.status = TIMED_OUT
                which = "wall-time budget of the run" if settings.wall_left() <= 0 else \
                    f"budget of {settings.budget_s:.0f} s"
                run.note = f"{which} spent {'before' if worker.left() <= 0 else 'while running'} {claim_id}"
                break
            except _NotApplied as exc:
                run.status, run.note = NOT_APPLIED, str(exc)
                break
            trial = judge(claim_id, answer, baselines, settings.fidelity)
            run.trials.append(trial)
            if trial.kill:
                progress(f"  {mutant.name}: {claim_id} {trial.verdict} (unmutated {trial.baseline}) "
                         f"-> kill by {trial.kill}")
    finally:
        worker.close()
        run.seconds = worker.spent
    if run.killers:
        if run.status == TIMED_OUT:
            run.incomplete = True
            run.note = f"killed; {run.note} (the search for a kill by a run-based claim is incomplete)"
        run.status = KILLED
    elif run.error_killers:
        run.status = KILLED_BY_ERROR
    elif not run.candidates and run.status == SURVIVED:
        run.status, run.note = NOT_REACHED, "no claim with an accepted verdict executes the mutated function"
    return run


def run_mutants(mutants: Iterable[Mutant], candidates: Callable[[Mutant], list[str]], settings: Settings,
                baselines: Baselines, *, progress: Progress = lambda s: None,
                on_result: Callable[[MutantRun], None] = lambda r: None) -> list[MutantRun]:
    """Run every mutant in turn on ``candidates(mutant)`` (asked just before, so the order can use the runtimes
    measured so far); equivalent mutants are not run: their unit tests show the equivalence. With a wall-time
    budget, the mutants left when it ends are "not run"."""
    if settings.wall_budget_s is not None and settings.deadline is None:
        settings.deadline = time.monotonic() + settings.wall_budget_s
    runs = []
    for mutant in mutants:
        if mutant.is_equivalent:
            run = MutantRun(mutant, EQUIVALENT, note="argued equivalent")
        elif settings.wall_left() <= 0:
            run = MutantRun(mutant, NOT_RUN, note="the wall-time budget of the run ended before this mutant")
        else:
            todo = candidates(mutant)
            baselines.prefetch(todo)  # with several probing workers, the unmutated outcomes it may need, at once
            run = run_mutant(mutant, todo, settings, baselines, progress)
        first = (run.killers or run.error_killers or ["-"])[0]
        progress(f"{mutant.name:<40} {run.status:<16} {first:<44} {len(run.trials):>3}/{len(run.candidates):<3} "
                 f"claims {run.seconds:7.1f} s")
        runs.append(run)
        on_result(run)
    return runs
