"""A sweep as data: algorithm configurations × an environment × horizons × repetitions.

Every single run is a :class:`RunSpec`, addressed by the SHA-256 of its canonical JSON (algorithm,
parameters, β rule, environment and its parameters, T, seed and repetition, runner options, and the
digest of the source that produces the run, :func:`tvbo_verify.sweeps.codekey.code_digest`), so that a
claim check, a figure and the report share one run through the cache (docs/ARCHITECTURE.md §9),
and editing the code of a policy, an environment or the numerics they use invalidates exactly the runs
it could change. Code patched at run time is not seen by the digest: use a fresh cache then.

Repetition ``r`` of root seed ``s`` draws from ``SeedSequence(s).spawn(R)[r]`` — the same stream as
:func:`tvbo_verify.bandits.runner.make_jobs` — and every arm of a sweep sees the same environment
realisation and noise in repetition ``r`` (common random numbers: comparisons between algorithms are
paired).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..bandits import presets
from ..bandits.beta import BetaRule
from ..jsonify import to_jsonable
from ..validation import check_int
from .codekey import code_digest


def _identity_value(value: Any) -> Any:
    """Plain data for hashing: a dataclass (e.g. a kernel object) keeps its class name, so two kernels
    with equal fields but different families never share a key; other objects are refused."""
    if isinstance(value, dict):
        return {str(k): _identity_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_identity_value(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        return {"__class__": f"{cls.__module__}.{cls.__qualname__}",
                **{f.name: _identity_value(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    plain = to_jsonable(value)
    if isinstance(plain, str) and not isinstance(value, str) and not np.isscalar(value):
        raise ValueError(f"run parameters must be plain data or dataclasses, got {type(value).__name__}")
    return plain


def _canonical(value: Any) -> str:
    return json.dumps(_identity_value(value), sort_keys=True, separators=(",", ":"), allow_nan=False)


def _beta_data(beta: BetaRule | None) -> dict[str, Any] | None:
    return None if beta is None else {"kind": beta.kind, "params": dict(beta.params)}


@dataclass(frozen=True)
class Arm:
    """One algorithm configuration of a sweep: its label, the algorithm's name, its parameters and its β rule.

    Parameters
    ----------
    label : str
        The arm's name in the sweep's results, figures and measurements (unique within a sweep).
    algorithm : str
        A registered algorithm (the table of algorithms of the API reference, or a plugin's).
    params : dict
        The algorithm's parameters by name, as :func:`make_policy` takes them.
    beta : BetaRule or None
        The β rule; None: the algorithm's default, recorded in the trace.

    Examples
    --------
    >>> from tvbo_verify.authoring import Arm, constant_beta
    >>> Arm("SW-GP-UCB", "sw-gp-ucb", {"window": 30}, beta=constant_beta(2.0)).algorithm
    'sw-gp-ucb'
    """

    label: str
    algorithm: str
    params: dict[str, Any] = field(default_factory=dict)
    beta: BetaRule | None = None

    @classmethod
    def from_preset(cls, label: str, preset_id: str, algorithm: str, *, env_params: dict[str, Any] | None = None,
                    horizon: int | None = None) -> Arm:
        """The arm of ``algorithm`` with the parameters and β rule documented in preset ``preset_id``
        (:func:`tvbo_verify.bandits.presets.get`)."""
        params, beta = presets.get(preset_id, algorithm, env_params=env_params, horizon=horizon)
        return cls(label, algorithm, params, beta)


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines one run (and nothing else)."""

    algorithm: str
    environment: str
    T: int
    seed: int
    rep: int
    reps: int
    params: dict[str, Any] = field(default_factory=dict)
    env_params: dict[str, Any] = field(default_factory=dict)
    beta: BetaRule | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def identity(self) -> dict[str, Any]:
        """The canonical content of the run (what its cache key hashes), with ``code``, the digest of the
        source of every module that produces it (:func:`tvbo_verify.sweeps.codekey.code_digest`).

        ``reps`` is not part of it: the run's random stream is ``SeedSequence(seed, spawn_key=(rep,))``
        whatever the number of repetitions, so a sweep that grows from 5 to 10 repetitions (a sequential
        design's next look) reuses its first 5 runs."""
        return {"algorithm": self.algorithm, "params": self.params, "beta": _beta_data(self.beta),
                "environment": self.environment, "env_params": self.env_params, "T": self.T,
                "seed": self.seed, "rep": self.rep, "options": self.options,
                "code": code_digest(self.algorithm, self.environment)}

    @property
    def key(self) -> str:
        return hashlib.sha256(_canonical(self.identity()).encode("utf-8")).hexdigest()

    def seed_sequence(self) -> np.random.SeedSequence:
        """``SeedSequence(seed).spawn(reps)[rep]``, built directly."""
        return np.random.SeedSequence(self.seed, spawn_key=(self.rep,))

    def execute(self) -> Any:
        """Run it (``tvbo_verify.bandits.runner.run``) and return the trace."""
        from ..bandits.registry import make_env, make_policy
        from ..bandits.runner import run

        policy = make_policy(self.algorithm, dict(self.params), self.beta)
        env = make_env(self.environment, dict(self.env_params))
        trace = run(policy, env, self.T, np.random.default_rng(self.seed_sequence()), **self.options)
        trace.meta.update({"rep": self.rep, "seed_entropy": str(self.seed), "spawn_key": [self.rep],
                           "run_key": self.key})
        return trace


@dataclass(frozen=True)
class Sweep:
    """Arms × one environment × horizons × repetitions, as data; :func:`run_sweep` runs it.

    Each horizon is a separate run (algorithms tune their parameters to T), so a rate is measured on independent
    horizons; every arm sees the same realisation and noise in repetition ``r`` (comparisons are paired), and the
    run cache makes a repeated sweep free.

    Parameters
    ----------
    name : str
        What the sweep is, for progress bars and rerun records.
    arms : tuple of Arm
        The arms, with distinct labels.
    environment : str
        A registered environment (the table of environments of the API reference, or a plugin's).
    horizons : tuple of int
        Increasing distinct horizons T.
    reps : int
        Repetitions per arm and horizon.
    env_params : dict
        The environment's parameters by name, as :func:`make_env` takes them.
    seed : int
        The root seed of the repetitions (a check passes ``ctx.seed``).
    options : dict
        Runner options recorded with every run.

    Raises
    ------
    ValueError
        For no arm, repeated labels, horizons that are not increasing, or (for names registered when the sweep is
        built) a parameter an arm's algorithm or the environment does not take or lacks; a name registered later
        is checked by :func:`run_sweep` before the first run.

    Examples
    --------
    >>> from tvbo_verify.authoring import Arm, RunCache, Sweep, run_sweep
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> result = run_sweep(sweep, cache=RunCache(None))
    >>> [a.label for a in sweep.arms], len(sweep.specs())
    (['GP-UCB', 'random'], 8)
    >>> Sweep("doc", (Arm("SW", "sw-gp-ucb", {"windw": 3}),), "gp-sample", (10,), reps=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: algorithm sw-gp-ucb has no parameter 'windw' (got windw=3) (did you mean 'window'?); ...
    """

    name: str
    arms: tuple[Arm, ...]
    environment: str
    horizons: tuple[int, ...]
    reps: int
    env_params: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.arms:
            raise ValueError("a sweep needs at least one arm")
        labels = [a.label for a in self.arms]
        if len(set(labels)) != len(labels):
            raise ValueError(f"arm labels must be unique, got {labels}")
        for T in self.horizons:
            check_int("horizon", T, 1)
        if not self.horizons or list(self.horizons) != sorted(set(self.horizons)):
            raise ValueError(f"horizons must be increasing and distinct, got {list(self.horizons)}")
        check_int("reps", self.reps, 1)
        check_int("seed", self.seed, 0)
        self._check_known_names()

    def _check_known_names(self) -> None:
        """Refuse at construction a parameter that a registered algorithm or environment does not take or
        needs (a name registered later, by a plugin imported afterwards, is checked when the sweep runs)."""
        from ..bandits.registry import ALGORITHMS, ENVIRONMENTS, check_env, check_policy

        for a in self.arms:
            if a.algorithm in ALGORITHMS:
                check_policy(a.algorithm, a.params, a.beta)
        if self.environment in ENVIRONMENTS:
            check_env(self.environment, self.env_params)

    def specs(self) -> list[RunSpec]:
        """Every run of the sweep (arm × horizon × repetition) as a ``RunSpec``."""
        return [RunSpec(a.algorithm, self.environment, T, self.seed, r, self.reps, dict(a.params),
                        dict(self.env_params), a.beta, dict(self.options))
                for a in self.arms for T in self.horizons for r in range(self.reps)]

    def arm(self, label: str) -> Arm:
        """The arm labelled ``label``; ``ValueError`` naming the sweep's arms otherwise."""
        for a in self.arms:
            if a.label == label:
                return a
        raise ValueError(f"no arm {label!r} in sweep {self.name}; arms: {', '.join(a.label for a in self.arms)}")

    def spec(self, label: str, T: int, rep: int) -> RunSpec:
        """The ``RunSpec`` of arm ``label`` at horizon ``T``, repetition ``rep``."""
        a = self.arm(label)
        return RunSpec(a.algorithm, self.environment, T, self.seed, rep, self.reps, dict(a.params),
                       dict(self.env_params), a.beta, dict(self.options))
