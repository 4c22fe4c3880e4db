"""The compared methods of sweeps audited against their definitions (:mod:`tvbo_verify.bandits.definitions`).

A reproduction compares methods a paper names; its comparison stands only if each arm runs the method it
is labelled with. :func:`audit_methods` replays every distinct method (algorithm, parameters, β rule) of the
given sweeps for the first ``rounds`` rounds of repetition 0 on the first sweep it appears in — its own
environment, horizon, seed and runner options — against the refit-every-round definition. Audits are kept
in-process by the run's cache key (which covers the code of the policy and the environment), so a report
audits each method once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from ..bandits.definitions import DefinitionAudit, audit
from ..execution import single_threaded_blas
from .spec import Arm, Sweep, _beta_data, _canonical

#: Rounds each method is replayed for (a divergence of a policy from its definition shows within a few window
#: lengths, removals or resets; the refit costs O(t³) a round).
AUDIT_ROUNDS = 50

_audit_cache: dict[tuple[str, int], DefinitionAudit] = {}


@dataclass(frozen=True)
class MethodAudit:
    """The audit of the method of ``arm`` (label as in the figure) on sweep ``sweep``."""

    arm: str
    sweep: str
    result: DefinitionAudit

    def to_dict(self) -> dict[str, Any]:
        return {"arm": self.arm, "sweep": self.sweep, **self.result.to_dict()}


def _method_key(arm: Arm) -> str:
    return _canonical({"algorithm": arm.algorithm, "params": arm.params, "beta": _beta_data(arm.beta)})


def audit_arm(sweep: Sweep, arm: Arm, rounds: int = AUDIT_ROUNDS) -> DefinitionAudit:
    """The definition audit of ``arm`` on repetition 0 of ``sweep`` at its smallest horizon."""
    from ..bandits.registry import make_env, make_policy

    spec = sweep.spec(arm.label, sweep.horizons[0], 0)
    key = (spec.key, int(rounds))
    if key not in _audit_cache:
        policy = make_policy(spec.algorithm, dict(spec.params), spec.beta)
        env = make_env(spec.environment, dict(spec.env_params))
        with single_threaded_blas():
            _audit_cache[key] = audit(policy, env, spec.T, rounds, np.random.default_rng(spec.seed_sequence()),
                                      **spec.options)
    return _audit_cache[key]


def audit_methods(sweeps: Iterable[Sweep], rounds: int = AUDIT_ROUNDS) -> list[MethodAudit]:
    """Every distinct method of ``sweeps`` audited once, on the first sweep it appears in."""
    seen: set[str] = set()
    out: list[MethodAudit] = []
    for sweep in sweeps:
        for arm in sweep.arms:
            key = _method_key(arm)
            if key in seen:
                continue
            seen.add(key)
            out.append(MethodAudit(arm.label, sweep.name, audit_arm(sweep, arm, rounds)))
    return out


def audit_summary(audits: list[MethodAudit]) -> str:
    """``"definition audit: 7/7 methods reproduce their definition"`` (plus the methods not audited)."""
    audited = [a for a in audits if a.result.audited]
    good = sum(a.result.reproduces for a in audited)
    text = f"definition audit: {good}/{len(audited)} methods reproduce their definition"
    skipped = [a for a in audits if not a.result.audited]
    if skipped:
        text += " (not audited: " + ", ".join(f"{a.arm}, {a.result.reason}" for a in skipped) + ")"
    return text
