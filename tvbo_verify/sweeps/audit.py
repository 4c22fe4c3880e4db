"""The compared methods of sweeps audited against their definitions (:mod:`tvbo_verify.bandits.definitions`).

A reproduction compares methods a paper names; its comparison stands only if each arm runs the method it
is labelled with. :func:`audit_methods` replays every distinct method (algorithm, parameters, β rule) of the
given sweeps for the first ``rounds`` rounds of repetition 0 on the first sweep it appears in — its own
environment, horizon, seed and runner options — against the refit-every-round definition. Audits are kept
in-process with the run cache they accompany, by the run's cache key (which covers the code of the policy and
the environment), so a report audits each method once; like the runs, code patched at run time needs a fresh
run cache.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from ..bandits.definitions import DefinitionAudit, DefinitionMismatch, audit, paper_mismatch
from ..blas import single_threaded_blas
from ..execution import Executor
from .cache import RunCache
from .execute import run_sweep
from .results import SweepResult
from .spec import Arm, Sweep, _beta_data, _canonical

#: Rounds each method is replayed for (a divergence of a policy from its definition shows within a few window
#: lengths, removals or resets; the refit costs O(t³) a round).
AUDIT_ROUNDS = 50

#: audits already made, per run cache (a fresh run cache starts with none)
_audit_cache: "weakref.WeakKeyDictionary[RunCache, dict[tuple[str, int], DefinitionAudit]]" = \
    weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class MethodAudit:
    """The audit of the method of ``arm`` (label as in the figure) on sweep ``sweep``."""

    arm: str
    sweep: str
    result: DefinitionAudit
    algorithm: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"arm": self.arm, "sweep": self.sweep, "algorithm_family": self.algorithm, **self.result.to_dict()}


def _method_key(arm: Arm) -> str:
    return _canonical({"algorithm": arm.algorithm, "params": arm.params, "beta": _beta_data(arm.beta)})


def audit_arm(sweep: Sweep, arm: Arm, rounds: int = AUDIT_ROUNDS, cache: RunCache | None = None) -> DefinitionAudit:
    """The definition audit of ``arm`` on repetition 0 of ``sweep`` at its smallest horizon (kept with ``cache``)."""
    from ..bandits.registry import make_env, make_policy

    spec = sweep.spec(arm.label, sweep.horizons[0], 0)
    key = (spec.key, int(rounds))
    memo = {} if cache is None else _audit_cache.setdefault(cache, {})
    if key not in memo:
        policy = make_policy(spec.algorithm, dict(spec.params), spec.beta)
        env = make_env(spec.environment, dict(spec.env_params))
        with single_threaded_blas():
            memo[key] = audit(policy, env, spec.T, rounds, np.random.default_rng(spec.seed_sequence()),
                              **spec.options)
    return memo[key]


def audit_methods(sweeps: Iterable[Sweep], rounds: int = AUDIT_ROUNDS, cache: RunCache | None = None
                  ) -> list[MethodAudit]:
    """Every distinct method of ``sweeps`` audited once, on the first sweep it appears in (audits kept with the
    run cache ``cache``)."""
    seen: set[str] = set()
    out: list[MethodAudit] = []
    for sweep in sweeps:
        for arm in sweep.arms:
            key = _method_key(arm)
            if key in seen:
                continue
            seen.add(key)
            out.append(MethodAudit(arm.label, sweep.name, audit_arm(sweep, arm, rounds, cache), arm.algorithm))
    return out


def without_gloss(text: str) -> str:
    """``"Algorithm 2 (windows of eq. (32), …)"`` → ``"Algorithm 2"``: the text without its last parenthesised gloss
    (nested parentheses included)."""
    text = text.rstrip()
    if not text.endswith(")"):
        return text
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[i], 0)
        if depth == 0:
            return text[:i].rstrip() or text
    return text


def audit_summary(audits: list[MethodAudit]) -> str:
    """``"definition audit: 7/7 methods reproduce their definition"`` (plus the methods not audited)."""
    audited = [a for a in audits if a.result.audited]
    good = sum(a.result.reproduces for a in audited)
    text = f"definition audit: {good}/{len(audited)} methods reproduce their definition"
    skipped = [a for a in audits if not a.result.audited]
    if skipped:
        text += " (not audited: " + ", ".join(f"{a.arm}, {a.result.reason}" for a in skipped) + ")"
    papers = {}  # the paper and algorithm replayed, once per algorithm family and source
    for a in audited:
        if a.result.paper:
            papers.setdefault((a.algorithm, a.result.paper, without_gloss(a.result.algorithm)), a.arm)
    if papers:
        text += "; replayed: " + ", ".join(f"{arm} as {paper} {alg}" for (_, paper, alg), arm in papers.items())
    return text


def require_definitions(sweeps: Iterable[Sweep], rounds: int = AUDIT_ROUNDS, cache: RunCache | None = None, *,
                        paper: str | None = None) -> list[MethodAudit]:
    """:func:`audit_methods`, raising :class:`DefinitionMismatch` (naming the method and the first round that
    differs) when a method does not reproduce its definition; the audits otherwise. With ``paper`` (the paper whose
    figure the sweeps reproduce), also when a method runs another paper's version of an algorithm ``paper`` defines
    itself (:func:`~tvbo_verify.bandits.definitions.paper_mismatch`: an experiment runs the algorithms as defined in
    the paper whose figure it reproduces)."""
    audits = audit_methods(sweeps, rounds, cache)
    broken = [a.result.text() for a in audits if a.result.audited and not a.result.reproduces]
    if paper is not None:
        broken += [m for a in audits if (m := paper_mismatch(a.algorithm, a.result, paper)) is not None]
    if broken:
        raise DefinitionMismatch("; ".join(broken))
    return audits


def run_audited_sweep(sweep: Sweep, *, cache: RunCache, executor: Executor | str = "serial",
                      progress: bool | None = None) -> SweepResult:
    """:func:`run_sweep` after replaying each method against its definition, then the audit of the runs.

    Each arm is first replayed for a few rounds on the sweep's environment and seed against the definition of its
    method written from the paper (``tvbo_verify.bandits.definitions``); a method whose choices or posterior
    differ ends the check in error. The runs are then audited (the environment its paper defines, a ledger that
    holds). A claim decided from runs uses this in place of :func:`run_sweep`.

    Parameters
    ----------
    sweep : Sweep
        The sweep.
    cache : RunCache
        Where runs are read and written.
    executor : Executor or str
        Runs the sweep.
    progress : bool or None
        Show a progress bar (None: when stderr is a terminal).

    Returns
    -------
    SweepResult
        The audited traces.

    Raises
    ------
    DefinitionMismatch
        When a method does not reproduce its definition.

    Examples
    --------
    >>> from tvbo_verify.authoring import Arm, RunCache, Sweep, run_audited_sweep
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"),), "gp-sample", horizons=(4, 8), reps=2,
    ...               env_params={"points_per_dim": 5})
    >>> run_audited_sweep(sweep, cache=RunCache(None)).final("GP-UCB").shape
    (2,)
    """
    from .execute import check_specs
    from .run_audit import require_runs

    check_specs(sweep.specs())
    require_definitions([sweep], cache=cache)
    result = run_sweep(sweep, cache=cache, executor=executor, progress=progress)
    require_runs([result], cache=cache)
    return result
