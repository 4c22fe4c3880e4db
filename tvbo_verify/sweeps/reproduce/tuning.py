"""Each method's own constants tuned with the same budget on training seeds (docs/ARCHITECTURE.md §10).

A paper that leaves a method's own constant open (a restart period "found via cross-validation", an event
trigger's probability, a forgetting rate) leaves it to be tuned. A reproduction declares such constants in
``tuned`` (:class:`~tvbo_verify.sweeps.reproduce.constants.FreeConstant` with ``own=True``, naming the arms of
its method), never as a sensitivity axis: sweeping one method's constant alone compares that method, retuned,
with rivals that were not, and a finding that "holds for" such a setting says nothing about the methods compared
alike (:func:`~tvbo_verify.sweeps.reproduce.constants.setting_problems` refuses it).

At every setting of the shared constants, each method with own constants is tuned on its own: every candidate
(the product of its constants' grids at the fidelity) is run for that method's arms alone on the training seeds
(root seed offset by :data:`TRAINING_SEED`, disjoint from the evaluation seeds), and the candidate with the least
mean final regret (or the reproduction's own ``tuning_score``, the quantity its finding compares, the same
for every method) is chosen (a tie goes to the paper's setting). Every method gets the same budget — the same
number of candidates, each run ``reps`` times on the same training seeds — or the reproduction is refused
(:func:`tuning_budgets`). The evaluation sweep then runs every method, each at its chosen constants, on the
evaluation seeds: the comparison stays paired across methods on the same runs.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any, Callable, Sequence

import numpy as np

from ..results import SweepResult
from ..spec import Sweep
from .constants import CONVENTIONS, OWN_NAMED_LIKE_CONVENTIONS, FreeConstant, UnfairSetting, format_value, held

#: offset of the root seed of the training runs from the evaluation runs' (the run seed is added to both)
TRAINING_SEED = 1_000_000
#: training runs per candidate, by fidelity (a reproduction may set its own)
TUNING_REPS = {"quick": 3, "full": 10}


def methods(tuned: Sequence[FreeConstant]) -> dict[tuple[str, ...], list[FreeConstant]]:
    """The tuned constants grouped by the arms of their method (each an own constant naming its arms)."""
    out: dict[tuple[str, ...], list[FreeConstant]] = {}
    for c in tuned:
        if not c.own:
            raise UnfairSetting(f"tuned constant {c.name!r} must be a method's own (own=True), naming its arms")
        out.setdefault(tuple(c.arms), []).append(c)
    return out


def candidates(constants: Sequence[FreeConstant], fidelity: str) -> list[tuple[Any, ...]]:
    """Every combination of the constants' values at ``fidelity`` (the method's tuning budget)."""
    return list(itertools.product(*(c.grid(fidelity) for c in constants)))


def tuning_budgets(tuned: Sequence[FreeConstant], fidelity: str) -> dict[str, int]:
    """The number of candidates each method is tuned over, by its arms; :class:`UnfairSetting` when they differ
    (every method's own constants get the same budget)."""
    budgets = {" and ".join(arms): len(candidates(cs, fidelity)) for arms, cs in methods(tuned).items()}
    if len(set(budgets.values())) > 1:
        raise UnfairSetting(f"unequal tuning budgets at {fidelity} fidelity: "
                            + ", ".join(f"{m} {n} candidates" for m, n in budgets.items())
                            + "; every method's own constants are tuned with the same budget")
    return budgets


def candidate_text(constants: Sequence[FreeConstant], values: Sequence[Any]) -> str:
    return ", ".join(c.text(v) for c, v in zip(constants, values))


def with_values(sweep: Sweep, constants: Sequence[FreeConstant], values: Sequence[Any]) -> Sweep:
    for c, v in zip(constants, values):
        sweep = c.apply(sweep, v)
    return sweep


def tuning_problems(base: Sweep, tuned: Sweep, constants: Sequence[FreeConstant], values: Sequence[Any],
                    own: dict[str, tuple[str, ...]]) -> list[str]:
    """A candidate may change only what the reproduction declares its method's own, on its method's arms: no
    other arm, no convention every method shares."""
    where = f"{base.name} at {candidate_text(constants, values)}"
    arms = set(constants[0].arms)
    before = {a.label: a for a in base.arms}
    out = []
    for a in tuned.arms:
        b = before.get(a.label)
        if b is None or a.algorithm == "random":
            continue
        changed = sorted(k for k in set(a.params) | set(b.params) if repr(a.params.get(k)) != repr(b.params.get(k)))
        if (a.beta is None) != (b.beta is None) or (a.beta is not None and b.beta is not None and (
                a.beta.kind != b.beta.kind or a.beta.params != b.beta.params)):
            changed.append("beta")
        if not changed:
            continue
        if a.label not in arms:
            out.append(f"{where}: changes {', '.join(changed)} of {a.label}, which is not the tuned method's")
            continue
        allowed = set(own.get(a.label, ()))
        conventions = [k for k in changed if k in CONVENTIONS and k not in allowed
                       and k not in OWN_NAMED_LIKE_CONVENTIONS.get(a.algorithm, ())
                       and held(a, k) is not None]
        undeclared = [k for k in changed if k not in allowed and k not in conventions]
        if conventions:
            out.append(f"{where}: changes the shared convention {', '.join(conventions)} of {a.label} alone")
        if undeclared:
            out.append(f"{where}: changes {', '.join(undeclared)} of {a.label}, not declared its own")
    return out


def mean_final_regret(result: SweepResult, label: str, fidelity: str) -> float:
    """The default tuning score: the mean over the training runs of the final cumulative regret."""
    return float(np.mean(result.final(label)))


def check_tuning(plan: dict[str, Sweep], tuned: Sequence[FreeConstant], fidelity: str,
                 own: dict[str, tuple[str, ...]]) -> None:
    """Raise :class:`UnfairSetting` when a candidate of a tuned method changes more than that method's own keys
    (:func:`tuning_problems`) on a sweep of ``plan``; nothing is run."""
    problems = []
    for constants in methods(tuned).values():
        for sweep in plan.values():
            if not any(a.label in constants[0].arms for a in sweep.arms):
                continue
            for values in candidates(constants, fidelity):
                problems += tuning_problems(sweep, with_values(sweep, constants, values), constants, values, own)
    if problems:
        raise UnfairSetting("unfair tuning: " + "; ".join(problems))


def tune(plan: dict[str, Sweep], tuned: Sequence[FreeConstant], fidelity: str, reps: int,
         own: dict[str, tuple[str, ...]], train: Callable[[dict[str, Sweep]], dict[str, SweepResult]],
         score: Callable[[SweepResult, str, str], float] = mean_final_regret,
         ) -> tuple[dict[str, Sweep], dict[str, Any]]:
    """``plan`` with every method's own constants set to the candidate of least ``score`` (default: mean final
    regret; the same score for every method) on the training runs (``train`` runs a plan on the training seeds),
    and the record of the tuning by sweep and method."""
    if not tuned:
        return dict(plan), {}
    groups = methods(tuned)
    tuning_budgets(tuned, fidelity)
    out, record = {}, {}
    for name, sweep in plan.items():
        present = {a.label for a in sweep.arms}
        chosen_sweep, per = sweep, {}
        for arms, constants in groups.items():
            labels = [lab for lab in arms if lab in present]
            if not labels:
                continue
            cands = candidates(constants, fidelity)
            training: dict[str, Sweep] = {}
            for i, values in enumerate(cands):
                full = with_values(sweep, constants, values)
                problems = tuning_problems(sweep, full, constants, values, own)
                if problems:
                    raise UnfairSetting("unfair tuning: " + "; ".join(problems))
                training[f"{i}"] = replace(full, name=f"{sweep.name} tuning {' and '.join(labels)} "
                                           f"{candidate_text(constants, values)}",
                                           arms=tuple(a for a in full.arms if a.label in labels), reps=int(reps))
            results = train(training)
            means = [float(sum(score(results[f"{i}"], lab, fidelity) for lab in labels)) for i in range(len(cands))]
            paper = tuple(c.paper for c in constants)
            best = min(range(len(cands)), key=lambda i: (means[i], cands[i] != paper))
            chosen_sweep = with_values(chosen_sweep, constants, cands[best])
            per[" and ".join(labels)] = {
                "constants": [c.name for c in constants], "symbols": [c.symbol for c in constants],
                "candidates": [[format_value(v) for v in values] for values in cands],
                "training_score": means, "chosen": [format_value(v) for v in cands[best]],
                "chosen_text": candidate_text(constants, cands[best]), "reps": int(reps),
                "training_seed_offset": TRAINING_SEED}
        out[name] = chosen_sweep
        if per:
            record[name] = per
    return out, record


def tuning_text(record: dict[str, dict[str, Any]]) -> str:
    """``"R-GP-UCB s_N = 0.5 (SE, ε = 0.01), …"``: what the tuning chose, per sweep and method."""
    parts = []
    for sweep, per in record.items():
        for method, r in per.items():
            parts.append(f"{method} {r['chosen_text']} ({sweep})")
    return "; ".join(parts)
