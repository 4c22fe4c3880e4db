"""The runs a claim reads, audited: the regret ledger of every trace and the environment of every realisation.

A verdict decided from runs is only as good as the run path: the environment must be the paper's model and the
regret each trace records must be the regret of the points it played. Before a claim is decided from a sweep,
every realisation of its environment is played again from the run's own seed — the environment alone, fed the
dataset sizes the trace records (a clock may depend on them), without the runner or the policy — and

* **the ledger** of every trace on it must hold: ``x_t`` is the grid point of the played index, the per-round
  regret is ``max f_t − f_t(x_t)``, the per-round trivial bound is ``max f_t − min f_t`` and the cumulative
  regret their running sum (to rounding);
* **the environment** must show the statistics its definition states
  (:mod:`tvbo_verify.bandits.environments.definitions`), pooled over the realisations of the sweep, and the
  observations must carry Gaussian noise of the declared variance.

A failure is an error of the claim (:class:`RunAuditFailure`), never a verdict. Audits are kept per run cache
(like the definition audits of :mod:`tvbo_verify.sweeps.audit`), so a report audits each realisation once.
"""

from __future__ import annotations

import json
import weakref
from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np

from ..bandits.definitions import DefinitionMismatch
from ..bandits.environments.base import Environment
from ..bandits.environments.definitions import (
    PooledStatistic,
    Realised,
    Statistic,
    definition_of,
    observation_noise,
    pool,
)
from .cache import RunCache
from .results import SweepResult
from .spec import RunSpec

__all__ = ["STATISTIC_ROUNDS", "RunAuditFailure", "RunAudit", "ledger_problems", "realise", "audit_runs",
           "require_runs"]

#: rounds of each realisation its environment's statistics are measured on (the ledger reads every round)
STATISTIC_ROUNDS = 1000

_done: "weakref.WeakKeyDictionary[RunCache, dict[str, RunAudit]]" = weakref.WeakKeyDictionary()


class RunAuditFailure(DefinitionMismatch):
    """A trace's ledger or an environment's statistics contradict their definitions."""


@dataclass
class RunAudit:
    """What was audited: traces whose ledger holds, environments checked against their definitions."""

    traces: int = 0
    statistics: dict[str, list[PooledStatistic]] = field(default_factory=dict)
    not_audited: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def merge(self, other: "RunAudit") -> None:
        self.traces += other.traces
        self.statistics.update(other.statistics)
        self.not_audited.update(other.not_audited)
        self.problems += other.problems

    def summary(self) -> str:
        checked = sum(len(v) for v in self.statistics.values())
        text = (f"run audit: ledger of {self.traces} traces; {len(self.statistics)} environment(s) against their "
                f"definitions ({checked} statistics)")
        if self.not_audited:
            text += "; not audited: " + ", ".join(f"{k} ({v})" for k, v in sorted(self.not_audited.items()))
        return text

    def to_dict(self) -> dict[str, Any]:
        return {"summary": self.summary(), "problems": list(self.problems),
                "statistics": {k: [s.text() for s in v] for k, v in self.statistics.items()},
                "not_audited": dict(self.not_audited)}


def realise(spec: RunSpec, dataset_sizes: np.ndarray | None = None, rounds: int | None = None
            ) -> tuple[Any, Iterable[np.ndarray]]:
    """The environment of ``spec`` realised from the run's own seed (its stream of the four the runner spawns),
    and an iterator over ``f_t`` on the grid, ``t = 1 … rounds`` (``dataset_sizes[t − 2]`` advances the clock)."""
    from ..bandits.registry import make_env

    env = make_env(spec.environment, dict(spec.env_params))
    env_rng = np.random.default_rng(spec.seed_sequence()).spawn(4)[0]
    env.reset(env_rng, spec.T)
    n = spec.T if rounds is None else min(rounds, spec.T)

    def values() -> Iterable[np.ndarray]:
        for t in range(1, n + 1):
            if t > 1:
                env.advance(int(dataset_sizes[t - 2]) if dataset_sizes is not None else 0)
            yield np.array(env.values(), dtype=float)

    return env, values()


def ledger_problems(trace: Any, f: np.ndarray, t: int, grid: np.ndarray) -> list[str]:
    """The ledger of round ``t`` (1-based) of ``trace`` against the realised ``f_t``."""
    i = int(trace.index[t - 1])
    if not 0 <= i < f.shape[0]:
        return [f"round {t}: played index {i} is outside the grid of {f.shape[0]} points"]
    scale = max(float(np.max(np.abs(f))), 1e-12)
    tol = 1e-9 * scale
    out = []
    if not np.allclose(np.asarray(trace.x[t - 1], float).ravel(), grid[i], rtol=0, atol=1e-12):
        out.append(f"round {t}: x_t is not the grid point of the played index {i}")
    regret = float(np.max(f) - f[i])
    if abs(float(trace.regret[t - 1]) - regret) > tol:
        out.append(f"round {t}: regret {float(trace.regret[t - 1])!r} recorded, max f_t - f_t(x_t) = {regret!r}")
    if trace.max_regret is not None:
        spread = float(np.max(f) - np.min(f))
        if abs(float(trace.max_regret[t - 1]) - spread) > tol:
            out.append(f"round {t}: trivial bound {float(trace.max_regret[t - 1])!r} recorded, "
                       f"max f_t - min f_t = {spread!r}")
    return out


def _group(spec: RunSpec) -> str:
    return json.dumps({"environment": spec.environment, "env_params": spec.env_params, "T": spec.T},
                      sort_keys=True, default=str)


def _realisation(spec: RunSpec) -> str:
    return json.dumps({"group": _group(spec), "seed": spec.seed, "rep": spec.rep}, sort_keys=True)


def audit_runs(result: SweepResult, cache: RunCache | None = None) -> RunAudit:
    """The run audit of every trace of ``result`` (kept with ``cache``)."""
    memo = {} if cache is None else _done.setdefault(cache, {})
    audit = RunAudit()
    specs = {s.key: s for s in result.sweep.specs()}
    by_realisation: dict[str, list[tuple[RunSpec, Any]]] = {}
    for key, trace in result.traces.items():
        spec = specs.get(key)
        if spec is None:
            continue
        if key in memo:
            audit.merge(memo[key])
            continue
        definition = definition_of(spec.environment)
        own = definition is None or definition.follows_learner  # realised per run unless known not to need it
        rkey = _realisation(spec) + (key if own else "")
        by_realisation.setdefault(rkey, []).append((spec, trace))
    groups: dict[str, list[list[Statistic]]] = {}
    # The arms of a sweep draw the same observation noise for the same seed and repetition (common random
    # numbers): the noise statistic takes one trace per realisation, or its spread would be understated.
    noise_drawn: set[str] = set()
    for members in by_realisation.values():
        spec0, trace0 = members[0]
        part = RunAudit()
        definition = definition_of(spec0.environment)
        env, values = realise(spec0, np.asarray(trace0.dataset_size))
        gaussian_noise = type(env).observe is Environment.observe  # else its noise model is its own
        noise_trace = None
        if gaussian_noise and _realisation(spec0) not in noise_drawn:
            noise_drawn.add(_realisation(spec0))
            noise_trace = trace0
        F: list[np.ndarray] = []
        noise: list[float] = []
        for t, f in enumerate(values, start=1):
            if t <= STATISTIC_ROUNDS:
                F.append(f)
            for _, trace in members:
                part.problems += [f"{trace.meta.get('policy', {}).get('name', '?')}: {p}"
                                  for p in ledger_problems(trace, f, t, env.grid)[:3]]
                if trace is noise_trace:
                    noise.append(float(trace.y[t - 1]) - float(f[int(trace.index[t - 1])]))
        if part.problems:
            raise RunAuditFailure(f"the regret ledger of runs on {spec0.environment} does not hold: "
                                  + "; ".join(part.problems[:5]))
        for _, trace in members:
            if trace.T > 1 and not np.allclose(np.cumsum(trace.regret), trace.cumulative, rtol=1e-9, atol=1e-12):
                raise RunAuditFailure(f"the cumulative regret of a run on {spec0.environment} is not the running "
                                      "sum of its per-round regret")
        part.traces = len(members)
        stats: list[Statistic] = []
        if noise:
            stats.append(observation_noise(np.array(noise), float(env.noise_var)))
        if definition is None:
            part.not_audited[spec0.environment] = "no definition of its model yet"
        else:
            support = getattr(env, "support", None)
            stats += definition.statistics(dict(spec0.env_params), np.array(F),
                                           Realised(trace=trace0, support=None if support is None else
                                                    np.array(support, float)))
        groups.setdefault(_group(spec0), []).append(stats)
        for spec, _ in members:
            memo[spec.key] = part
        audit.merge(part)
    for group, realisations in groups.items():
        pooled = pool(realisations)
        name = json.loads(group)["environment"]
        audit.statistics[name] = pooled
        failed = [s.text() for s in pooled if not s.passed]
        if failed:
            raise RunAuditFailure(f"the environment {name} of these runs contradicts its definition: "
                                  + "; ".join(failed))
    return audit


def require_runs(results: Iterable[SweepResult], cache: RunCache | None = None) -> RunAudit:
    """:func:`audit_runs` of every result, raising :class:`RunAuditFailure` on the first contradiction."""
    audit = RunAudit()
    for result in results:
        audit.merge(audit_runs(result, cache))
    return audit
