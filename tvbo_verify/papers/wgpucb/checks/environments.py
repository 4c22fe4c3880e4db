"""``wgpucb`` Sec. 2 and Sec. 7: the variation budget ``B_T = Σ_t ‖f_{t+1} − f_t‖_H`` of the test environments.

* ``wgpucb:variation-budget``: the rotation and abrupt environments of READING.md §3.9
  (``bandits.environments.RotationBudget``, ``AbruptBudget``) have exactly the budget they are built
  for, and the paper's Sec. 7 scenarios (``WgpucbPaper``) the budgets of READING.md §wgpucb:variation-budget
  (abrupt: ``‖f_2* − f_1*‖ + ‖f_3* − f_2*‖``; slow: ``(T − 1)/T ‖f_5* − f_4*‖``).

The budget is measured by a route independent of the environments' coefficient norms: the RKHS norm of
each difference from the grid's exact Mercer features (``θ = Λ^{-1/2} Uᵀ f`` on the grid,
``‖f‖_H = ‖θ‖₂``, ``information.mercer_on_grid``), summed over the rounds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tvbo_verify.authoring import Comparison, Context, Evidence, Params, Statement, claim, exact_evidence
from tvbo_verify.bandits.environments.rkhs import AbruptBudget, RotationBudget, WgpucbPaper
from tvbo_verify.information import mercer_on_grid

KINDS = ("rotation", "abrupt", "paper-abrupt", "paper-slow")


def environment(p: Params) -> Any:
    """The environment of ``p``, reset with its own seed for horizon T."""
    common = {"grid_points": int(p["n"]), "lengthscale": p["lengthscale"], "M": int(p["M"])}
    if p["kind"] == "rotation":
        env = RotationBudget(B=p["B"], budget=p["budget"], **common)
    elif p["kind"] == "abrupt":
        env = AbruptBudget(B=p["B"], switches=int(p["switches"]), budget=p["budget"], **common)
    else:
        env = WgpucbPaper(scenario=p["kind"].split("-")[1], **common)
    seed = np.random.SeedSequence(p["seed"]["entropy"], spawn_key=tuple(p["seed"]["spawn_key"]))
    env.reset(np.random.default_rng(seed), int(p["T"]))
    return env


def feature_norms(env: Any, T: int) -> tuple[np.ndarray, np.ndarray]:
    """``‖f_t‖_H`` (t = 1..T) and ``‖f_{t+1} − f_t‖_H`` (t = 1..T−1) from the grid's Mercer features."""
    m = mercer_on_grid(env.kernel(env.grid))
    F = np.array([env.function(t) for t in range(1, T + 1)])  # (T, n) grid values
    theta = (F @ m.vectors) / np.sqrt(m.eigenvalues)  # θ_t = Λ^{-1/2} Uᵀ f_t
    return np.linalg.norm(theta, axis=1), np.linalg.norm(np.diff(theta, axis=0), axis=1)


def stated_budget(env: Any, p: Params) -> float:
    """The budget the construction states: the requested one (rotation, abrupt with ``budget``) or the
    closed forms of READING.md §wgpucb:variation-budget for the paper's scenarios, from the environment's
    expansion coefficients."""
    T = int(p["T"])
    if p["kind"] in ("rotation", "abrupt"):
        return float(p["budget"])
    rows, KZ = env._rows, env._KZ
    norm = [float(np.sqrt(max(d @ KZ @ d, 0.0))) for d in np.diff(rows, axis=0)]
    return sum(norm) if p["kind"] == "paper-abrupt" else (T - 1) / T * norm[0]


def spawned_seed(rng: np.random.Generator) -> dict[str, Any]:
    """A child of ``rng``'s seed sequence (``Generator.spawn``), stored as JSON so the instance replays."""
    ss = rng.spawn(1)[0].bit_generator.seed_seq
    entropy = ss.entropy if isinstance(ss.entropy, int) else list(ss.entropy)
    return {"entropy": entropy, "spawn_key": list(ss.spawn_key)}


class VariationBudget(Statement):
    """Σ_t ‖f_{t+1} − f_t‖_H by Mercer features against the budget the environment is built for."""

    name = "B_T = Σ_t ‖f_(t+1) − f_t‖_H of the test environments (RKHS norm, not squared)"
    sharpening = ("the budget read on squared norms (Σ‖f_(t+1) − f_t‖²_H <= B_T): the same construction then "
                  "gives Σ‖Δ‖ = √(B_T · jumps)")
    plot_against = "T"

    def jumps(self, p: Params) -> int:
        if p["kind"] == "rotation":
            return int(p["T"]) - 1
        if p["kind"] == "abrupt":
            return int(p["switches"])
        return 2 if p["kind"] == "paper-abrupt" else int(p["T"]) - 1

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        env = environment(p)
        _, steps = feature_norms(env, int(p["T"]))
        measured = float(np.sum(steps))
        stated = stated_budget(env, p)
        if sharpened:
            stated = float(np.sqrt(stated * self.jumps(p)))
        return Comparison(measured, stated, "==", tol=1e-8 * max(stated, 1.0), scale=max(stated, 1.0))

    def sample(self, rng: np.random.Generator) -> Params:
        kind = KINDS[int(rng.integers(len(KINDS)))]
        p = {"kind": kind, "n": int(rng.integers(30, 101)), "lengthscale": float(rng.uniform(0.1, 0.4)),
             "M": int(rng.integers(3, 21)), "seed": spawned_seed(rng)}
        if kind.startswith("paper"):
            return {**p, "T": int(rng.integers(220, 501)) if kind == "paper-abrupt" else int(rng.integers(2, 501))}
        B, T = float(rng.uniform(0.5, 3.0)), int(rng.integers(2, 301))
        if kind == "rotation":
            return {**p, "B": B, "T": T, "budget": float(2 * B * (T - 1) * rng.uniform(0.001, 0.5))}
        switches = int(rng.integers(1, 6))
        return {**p, "B": B, "T": max(T, switches + 2), "switches": switches,
                "budget": float(switches * rng.uniform(0.05, 1.5) * B)}

    def describe(self, p: Params) -> dict[str, Any]:
        return {k: p[k] for k in ("kind", "T", "n", "lengthscale", "M", "B", "switches", "budget") if k in p}


VARIATION_BUDGET = VariationBudget()


def rotation_norms(ctx: Context, n: int) -> dict[str, float]:
    """``‖f_t‖_H`` of rotation environments by Mercer features against B (the circle has radius B)."""
    worst = 0.0
    for _ in range(n):
        p = VARIATION_BUDGET.sample(ctx.rng)
        if p["kind"] == "rotation":
            norms, _ = feature_norms(environment(p), int(p["T"]))
            worst = max(worst, float(np.max(np.abs(norms - p["B"]) / p["B"])))
    return {"max relative deviation of ||f_t||_H from B": worst}


@claim("wgpucb:variation-budget")
def variation_budget(ctx: Context) -> Evidence:
    """The budget of Sec. 2 on the test environments: Σ_t ‖f_{t+1} − f_t‖_H, measured from the grid's Mercer
    features (a route independent of the environments' coefficient norms), must equal the budget the environment is
    built for (random rotations and abrupt switches) or the closed form for the paper's abrupt and slow scenarios;
    the rotation's ‖f_t‖_H = B is reported. No mpmath referee (a float break stays undecided). Power: the budget
    read on squared norms, under which the construction gives Σ‖Δ_t‖_H = √(B_T · jumps), must be caught.
    READING.md §wgpucb:variation-budget."""
    ev = exact_evidence(ctx, VARIATION_BUDGET, n_random=ctx.pick(30, 150), n_starts=0,
                        what="exact variation budgets")
    ev.stats.update(rotation_norms(ctx, ctx.pick(10, 40)))
    return ev
