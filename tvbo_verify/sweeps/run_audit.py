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
from ..bandits.policy import Policy
from .cache import RunCache
from .results import SweepResult
from .spec import RunSpec

__all__ = ["STATISTIC_ROUNDS", "RunAuditFailure", "RunAudit", "PlayedRun", "ledger_problems", "realise",
           "audit_runs", "audit_played_runs", "play_recorded", "play_audited", "require_runs"]

#: rounds of each realisation its environment's statistics are measured on (the ledger reads every round)
STATISTIC_ROUNDS = 1000

_done: "weakref.WeakKeyDictionary[RunCache, dict[str, RunAudit]]" = weakref.WeakKeyDictionary()


class RunAuditFailure(DefinitionMismatch):
    """A trace's ledger or an environment's statistics contradict their definitions: the claim that reads the runs
    ends in error (never a verdict).

    Examples
    --------
    >>> from tvbo_verify.bandits import GPUCB
    >>> from tvbo_verify.bandits.registry import make_env
    >>> params = {"points_per_dim": 10, "d": 1, "lengthscale": 0.2}
    >>> other = make_env("gp-sample", {**params, "lengthscale": 0.5})  # not the model the parameters name
    >>> played = play_recorded(GPUCB(), "gp-sample", params, 10, seed=1, env=other)
    >>> try:
    ...     audit_played_runs([played])
    ... except RunAuditFailure as exc:
    ...     print(str(exc)[:55])
    the regret ledger of runs on gp-sample does not hold: g
    """


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
    return _realise(spec.environment, dict(spec.env_params), spec.T, spec.seed_sequence(), dataset_sizes, rounds)


def _realise(environment: str, env_params: dict[str, Any], T: int, seed: np.random.SeedSequence,
             dataset_sizes: np.ndarray | None, rounds: int | None) -> tuple[Any, Iterable[np.ndarray]]:
    from ..bandits.registry import make_env

    env = make_env(environment, env_params)
    env_rng = np.random.default_rng(seed).spawn(4)[0]
    env.reset(env_rng, T)
    n = T if rounds is None else min(rounds, T)

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


@dataclass(frozen=True)
class PlayedRun:
    """A run a check played itself with :func:`tvbo_verify.bandits.run`, kept with what realises its environment
    again: the environment's registered name and parameters and the seed of the run's generator.

    Parameters
    ----------
    environment : str
        The registered name of the environment (:func:`tvbo_verify.bandits.registry.make_env`).
    env_params : dict
        Its parameters: ``make_env(environment, env_params)`` must build the environment the run played (a
        recording subclass of it is fine: the ledger then shows whether it is the same).
    seed : int or numpy.random.SeedSequence
        What the run's generator was built from (``numpy.random.default_rng(seed)`` before the run spawned).
    trace : Trace
        The run's trace.

    Examples
    --------
    >>> from tvbo_verify.bandits import GPUCB
    >>> played = play_recorded(GPUCB(), "gp-sample", {"points_per_dim": 10, "d": 1}, 20, seed=3)
    >>> played.environment, played.trace.T
    ('gp-sample', 20)
    """

    environment: str
    env_params: dict[str, Any]
    seed: int | np.random.SeedSequence
    trace: Any

    def seed_sequence(self) -> np.random.SeedSequence:
        """A pristine copy of the run's seed sequence (the runner's spawning advances the one it was given)."""
        return _pristine(self.seed)


def _pristine(seed: int | np.random.SeedSequence) -> np.random.SeedSequence:
    if isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size)
    return np.random.SeedSequence(int(seed))


def play_recorded(policy: Policy, environment: str, env_params: dict[str, Any], T: int,
                  seed: int | np.random.SeedSequence, *, env: Environment | None = None) -> PlayedRun:
    """Play ``policy`` for ``T`` rounds on ``make_env(environment, env_params)`` (or on ``env``, an instance of
    it, e.g. one that records its values) from ``default_rng(seed)``, and keep the run for
    :func:`audit_played_runs`.

    Parameters
    ----------
    policy : Policy
        The policy to run (reset by the run).
    environment : str
        The registered name of the environment.
    env_params : dict
        Its parameters, as :func:`~tvbo_verify.bandits.registry.make_env` takes them.
    T : int
        The horizon.
    seed : int or numpy.random.SeedSequence
        The run's generator is ``numpy.random.default_rng`` of a pristine copy of it.
    env : Environment, optional
        The instance to play on (default: ``make_env(environment, env_params)``); it must be an ``environment``.

    Returns
    -------
    PlayedRun
        The run with what realises its environment again.

    Raises
    ------
    ValueError
        When ``env`` is another environment than ``environment``.

    Examples
    --------
    >>> from tvbo_verify.bandits import GPUCB
    >>> played = play_recorded(GPUCB(), "gp-sample", {"points_per_dim": 10, "d": 1}, 20, seed=3)
    >>> audit_played_runs([played]).traces
    1
    """
    from ..bandits.registry import make_env
    from ..bandits.runner import run

    env = make_env(environment, dict(env_params)) if env is None else env
    if env.name != environment:
        raise ValueError(f"env is a {env.name!r} environment, not {environment!r}")
    trace = run(policy, env, T, np.random.default_rng(_pristine(seed)))
    return PlayedRun(environment, dict(env_params), seed, trace)


def play_audited(policy: Policy, environment: str, env_params: dict[str, Any], T: int,
                 seed: int | np.random.SeedSequence, *, env: Environment | None = None) -> Any:
    """:func:`play_recorded` of one run and :func:`audit_played_runs` of it: the trace of a run a check reads alone.

    Parameters
    ----------
    policy, environment, env_params, T, seed, env
        As for :func:`play_recorded`.

    Returns
    -------
    Trace
        The run's trace, once its ledger and its environment passed the audit.

    Raises
    ------
    RunAuditFailure
        When they do not.

    Examples
    --------
    >>> from tvbo_verify.bandits import GPUCB
    >>> play_audited(GPUCB(), "gp-sample", {"points_per_dim": 10, "d": 1}, 20, seed=3).T
    20
    """
    played = play_recorded(policy, environment, env_params, T, seed, env=env)
    audit_played_runs([played])
    return played.trace


@dataclass
class _Realisation:
    """Traces played on one realisation of an environment (common random numbers: same seed, same draw)."""

    environment: str
    env_params: dict[str, Any]
    T: int
    seed: np.random.SeedSequence
    members: list[tuple[str, Any]] = field(default_factory=list)  # (memo key, trace)

    @property
    def group(self) -> str:
        """Realisations of one environment, parameters and horizon pool their statistics."""
        return json.dumps({"environment": self.environment, "env_params": self.env_params, "T": self.T},
                          sort_keys=True, default=str)

    @property
    def key(self) -> str:
        return json.dumps({"group": self.group, "entropy": str(self.seed.entropy),
                           "spawn_key": list(self.seed.spawn_key)}, sort_keys=True)


def _realisations(runs: Iterable[tuple[str, str, dict[str, Any], int, np.random.SeedSequence, Any]]
                  ) -> list[_Realisation]:
    """Group ``(memo key, environment, env_params, T, seed, trace)`` by realisation: runs with one seed share
    one, unless the environment's definition says it follows the learner (or it has no definition)."""
    out: dict[str, _Realisation] = {}
    for key, environment, params, T, seed, trace in runs:
        real = _Realisation(environment, dict(params), int(T), seed)
        definition = definition_of(environment)
        own = definition is None or definition.follows_learner  # realised per run unless known not to need it
        out.setdefault(real.key + (key if own else ""), real).members.append((key, trace))
    return list(out.values())


def _audit(realisations: list[_Realisation], memo: dict[str, RunAudit]) -> RunAudit:
    """The ledger of every member trace on its realisation, and each environment's statistics pooled over the
    realisations of its group; raises :class:`RunAuditFailure` on the first contradiction."""
    audit = RunAudit()
    groups: dict[str, list[list[Statistic]]] = {}
    # The arms of a sweep draw the same observation noise for the same seed and repetition (common random
    # numbers): the noise statistic takes one trace per realisation, or its spread would be understated.
    noise_drawn: set[str] = set()
    for real in realisations:
        trace0 = real.members[0][1]
        part = RunAudit()
        definition = definition_of(real.environment)
        env, values = _realise(real.environment, real.env_params, real.T, real.seed,
                               np.asarray(trace0.dataset_size), None)
        gaussian_noise = type(env).observe is Environment.observe  # else its noise model is its own
        noise_trace = None
        if gaussian_noise and real.key not in noise_drawn:
            noise_drawn.add(real.key)
            noise_trace = trace0
        F: list[np.ndarray] = []
        noise: list[float] = []
        for t, f in enumerate(values, start=1):
            if t <= STATISTIC_ROUNDS:
                F.append(f)
            for _, trace in real.members:
                part.problems += [f"{trace.meta.get('policy', {}).get('name', '?')}: {p}"
                                  for p in ledger_problems(trace, f, t, env.grid)[:3]]
                if trace is noise_trace:
                    noise.append(float(trace.y[t - 1]) - float(f[int(trace.index[t - 1])]))
        if part.problems:
            raise RunAuditFailure(f"the regret ledger of runs on {real.environment} does not hold: "
                                  + "; ".join(part.problems[:5]))
        for _, trace in real.members:
            if trace.T > 1 and not np.allclose(np.cumsum(trace.regret), trace.cumulative, rtol=1e-9, atol=1e-12):
                raise RunAuditFailure(f"the cumulative regret of a run on {real.environment} is not the running "
                                      "sum of its per-round regret")
        part.traces = len(real.members)
        stats: list[Statistic] = []
        if noise:
            stats.append(observation_noise(np.array(noise), float(env.noise_var)))
        if definition is None:
            part.not_audited[real.environment] = "no definition of its model yet"
        else:
            support = getattr(env, "support", None)
            stats += definition.statistics(dict(real.env_params), np.array(F),
                                           Realised(trace=trace0, support=None if support is None else
                                                    np.array(support, float)))
        groups.setdefault(real.group, []).append(stats)
        for key, _ in real.members:
            memo[key] = part
        audit.merge(part)
    for group, stats_per_realisation in groups.items():
        pooled = pool(stats_per_realisation)
        name = json.loads(group)["environment"]
        audit.statistics[name] = pooled
        failed = [s.text() for s in pooled if not s.passed]
        if failed:
            raise RunAuditFailure(f"the environment {name} of these runs contradicts its definition: "
                                  + "; ".join(failed))
    return audit


def audit_runs(result: SweepResult, cache: RunCache | None = None) -> RunAudit:
    """The run audit of every trace of ``result`` (kept with ``cache``)."""
    memo = {} if cache is None else _done.setdefault(cache, {})
    audit = RunAudit()
    specs = {s.key: s for s in result.sweep.specs()}
    todo = []
    for key, trace in result.traces.items():
        spec = specs.get(key)
        if spec is None:
            continue
        if key in memo:
            audit.merge(memo[key])
            continue
        todo.append((key, spec.environment, dict(spec.env_params), spec.T, spec.seed_sequence(), trace))
    audit.merge(_audit(_realisations(todo), memo))
    return audit


def audit_played_runs(runs: Iterable[PlayedRun]) -> RunAudit:
    """The run audit of runs a check played itself (:func:`play_recorded`), as :func:`audit_runs` does for a
    sweep: the ledger of every trace on its environment realised again from its seed without the runner, and
    each environment's statistics pooled over its realisations (one group per environment, parameters and
    horizon).

    Parameters
    ----------
    runs : iterable of PlayedRun
        The runs a claim reads (a check that plays several runs on one seed shares their realisation).

    Returns
    -------
    RunAudit
        What was audited.

    Raises
    ------
    RunAuditFailure
        When a trace's ledger or an environment's statistics contradict their definitions.

    Examples
    --------
    >>> from tvbo_verify.bandits import GPUCB, RandomPolicy
    >>> runs = [play_recorded(policy, "gp-sample", {"points_per_dim": 10, "d": 1}, 30, seed=s)
    ...         for s in range(3) for policy in (GPUCB(), RandomPolicy())]
    >>> audit = audit_played_runs(runs)
    >>> audit.traces, all(s.passed for s in audit.statistics["gp-sample"])
    (6, True)
    """
    todo = [(str(i), r.environment, r.env_params, r.trace.T, r.seed_sequence(), r.trace) for i, r in enumerate(runs)]
    return _audit(_realisations(todo), {})


def require_runs(results: Iterable[SweepResult], cache: RunCache | None = None) -> RunAudit:
    """:func:`audit_runs` of every result, raising :class:`RunAuditFailure` on the first contradiction."""
    audit = RunAudit()
    for result in results:
        audit.merge(audit_runs(result, cache))
    return audit
