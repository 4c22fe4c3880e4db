"""``sparq`` Sec. 3, Algorithm 1 (SparQ-GP-UCB): the discard rule and the properties of one run.

=================  =====================================================================================
claim              paper
=================  =====================================================================================
``discard-step``   Algorithm 1 line 4: observations with injected variance > σ² log t are discarded
``algorithm-1``    Algorithm 1 lines 3–8: DPP queries to the expert, sparse set, update (16)–(17), rule (18)
``theorem-3.2``    Theorem 3.2 (Sec. 5.3): the total cost is O(T² log T log^(3d)(T/log T)), counted on one run
=================  =====================================================================================

The run is one seeded SparQ-GP-UCB run (``bandits.SparQGPUCB``) on the paper's function S1, recorded
step by step (:class:`RecordedSparQ`) and re-derived independently from the recorded sparse sets. Readings:
READING.md §sparq:discard-step; §sparq:algorithm-1; §sparq:theorem-3.2; §3.1–§3.4 (shared conventions).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from tvbo_verify.authoring import (
    Comparison,
    Context,
    Evidence,
    Params,
    Property,
    Statement,
    claim,
    exact_evidence,
    play_audited,
    properties_evidence,
)
from tvbo_verify.bandits import SparQGPUCB, kirschner_krause
from tvbo_verify.bandits.environments import SparqSynthetic
from tvbo_verify.confidence import beta_sparq_log_det
from tvbo_verify.gp import posterior
from tvbo_verify.theory.schedules import sparq_kept_ages


# -------------------------------------------------------------------------------------- discard rule
class DiscardWindow(Statement):
    """Kept count at ``t`` equals ``#{a ≥ 0 : a² + 1 <= log t}`` = ``⌊√(log t − 1)⌋ + 1`` (0 when log t < 1)."""

    name = "kept count of the σ² log t discard rule = ⌊√(ln t − 1)⌋ + 1 (0 for t < e)"
    sharpening = "the §1.2 prose: a window of the ⌈ln t⌉ most recent observations (O(log t), not O(√log t))"
    plot_against = "t"

    @staticmethod
    def closed_form(t: int) -> int:
        L = math.log(t)
        return 0 if L < 1 else int(math.floor(math.sqrt(L - 1))) + 1

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        t = int(p["t"])
        kept = sparq_kept_ages(t, 10.0 ** p["log10_noise_var"], "log")
        if kept.size and not np.all(np.diff(kept) == 1) or (kept.size and kept[0] != 0):
            raise ArithmeticError("kept ages are not the most recent ones")
        stated = min(math.ceil(math.log(t)), t) if sharpened else self.closed_form(t)
        return Comparison(float(kept.size), float(stated), "==", scale=1.0)

    def hp(self, p: Params) -> Comparison:
        t = int(p["t"])
        L = mpmath.log(t)
        count = 0
        while count < t and count * count + 1 <= L:
            count += 1
        s2 = mpmath.mpf(10) ** mpmath.mpf(p["log10_noise_var"])
        kept = sum(1 for a in range(min(t, count + 2)) if s2 * (a * a + 1) <= s2 * L)
        return Comparison(kept, count, "==", scale=1)

    def sample(self, rng: np.random.Generator) -> Params:
        return {"t": int(np.round(10 ** rng.uniform(0, 6))), "log10_noise_var": float(rng.uniform(-6, 2))}


DISCARD_WINDOW = DiscardWindow()


@claim("sparq:discard-step")
def discard_step(ctx: Context) -> Evidence:
    """Algorithm 1 line 4 as SparQ applies it (``theory.schedules.sparq_kept_ages``): observations whose injected
    variance exceeds σ² log t are discarded. At random t and σ², at the boundaries t = ⌈e^(k²+1)⌉ (and one step before)
    and at fixed small t, the kept ages must be the most recent and number ⌊√(ln t − 1)⌋ + 1 (none while ln t < 1),
    independently of σ²; counts refereed with mpmath logarithms. Power: the prose of paper Sec. 1.2 read as a ⌈ln t⌉
    window must be caught. Full reading: READING.md §sparq:discard-step."""
    fixed = [{"t": t, "log10_noise_var": -2.0} for t in (1, 2, 3, 7, 8, 100, 148, 149, 500)]
    for k in range(1, 4):
        b = math.ceil(math.exp(k * k + 1))
        fixed += [{"t": b - 1, "log10_noise_var": 0.0}, {"t": b, "log10_noise_var": -5.0}]
    return exact_evidence(ctx, DISCARD_WINDOW, n_random=ctx.pick(100, 1000), n_starts=0, extra=fixed,
                          what="discard window")


# ----------------------------------------------------------------------------------------- one run
@dataclass
class StepRecord:
    t: int
    distinct: int
    expert_idx: np.ndarray
    set_idx: np.ndarray
    set_y: np.ndarray
    set_noise: np.ndarray
    history: np.ndarray


class RecordedSparQ(SparQGPUCB):
    """SparQ-GP-UCB that records its sparse set after every update and its choice at every step."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.steps: list[StepRecord] = []
        self.choices: list[int] = []
        self.betas: list[float] = []  # β_t of the choice at step t (built on the set of step t − 1)
        self.widths: list[float] = []  # σ^s_{t−1}(x_t)

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        super().observe(step, time, index, y)
        n_expert = self.query_log[-1][1]
        hist = np.asarray(self.hist_idx, dtype=np.int64)
        self.steps.append(StepRecord(step, int(np.unique(hist).size), self.set_idx[:n_expert].copy(),
                                     self.set_idx.copy(), self.set_y.copy(), self.set_noise.copy(), hist))

    def select(self, step: int, time: float) -> int:
        i = super().select(step, time)
        self.choices.append(i)
        self.betas.append(float(self.last_beta))
        self.widths.append(float(np.sqrt(max(self._var[i], 0.0))))
        return i


@dataclass(frozen=True)
class RunSetting:
    T: int
    seed: int
    grid_points: int = 201
    delta: float = 0.05
    B: float = 5.0
    threshold: Any = "log"


def recorded_run(setting: RunSetting) -> tuple[RecordedSparQ, Any, SparqSynthetic]:
    """One SparQ-GP-UCB run on S1 (σ² = σ̄² = 0.01, Q_t = max(1, ⌈6 ln t⌉) capped at t, exact DPP), audited
    (``audit_played_runs``: S1 against its definition, the trace's ledger) before anything reads it."""
    env = SparqSynthetic(grid_points=setting.grid_points)
    pol = RecordedSparQ(kirschner_krause(B=setting.B, delta=setting.delta), queries="log", c_q=6.0, dpp="exact",
                        threshold=setting.threshold)
    return pol, play_audited(pol, env.name, {"grid_points": setting.grid_points}, setting.T, setting.seed, env=env), env


class RunAudit:
    """The properties of Algorithm 1 measured on one recorded run."""

    def __init__(self, pol: RecordedSparQ, trace: Any, env: SparqSynthetic, setting: RunSetting) -> None:
        self.pol, self.trace, self.env, self.s = pol, trace, env, setting

    def stated_queries(self, capped: bool = True) -> np.ndarray:
        q = np.array([self.pol.queries.count(r.t, self.s.T) for r in self.pol.steps])
        return np.minimum(q, [r.distinct for r in self.pol.steps]) if capped else np.maximum(1, np.ceil(
            6.0 * np.log(np.maximum([r.t for r in self.pol.steps], 1))).astype(int))

    def properties(self) -> list[Property]:
        pol, s = self.pol, self.s
        s2 = self.env.noise_var
        measured_q = np.array([len(r.expert_idx) for r in pol.steps])
        stated = self.stated_queries()
        uncapped = self.stated_queries(capped=False)
        subset = all(np.isin(r.expert_idx, r.history).all() for r in pol.steps)
        distinct = all(np.unique(r.expert_idx).size == r.expert_idx.size for r in pol.steps)
        bad_noise = 0
        for r in pol.steps:
            ages = sparq_kept_ages(r.t, s2, s.threshold if s.threshold != "log" else "log")
            allowed_recent = s2 * (ages.astype(float) ** 2 + 1.0)
            recent = r.set_noise[len(r.expert_idx):]
            ok_recent = np.all(recent <= s2 * math.log(r.t) * (1 + 1e-12)) and np.allclose(np.sort(recent),
                                                                                          np.sort(allowed_recent))
            ok_expert = np.all(r.set_noise[:len(r.expert_idx)] == pol.expert.noise_var)
            bad_noise += int(not (ok_recent and ok_expert))
        oracle_total = int(self.trace.expert_queries[-1])
        mismatched, mismatched_sq = self.argmax_mismatches()
        return [
            Property.compare("expert queries at step t = min(Q_t, distinct past inputs)",
                             Comparison(float(np.sum(np.abs(measured_q - stated))), 0.0, "==", scale=1.0),
                             sharpened=Comparison(float(np.sum(np.abs(measured_q - stated))),
                                                  float(np.sum(np.abs(uncapped - stated))), "==", scale=1.0),
                             detail=f"summed |measured − min(Q_t, distinct)| over {len(stated)} steps"),
            Property.boolean("X^E ⊂ X_t (expert queried at past inputs only)", subset),
            Property.boolean("X^E has no repeated input", distinct),
            Property.compare("Σ^s entries ∈ {σ̄²} ∪ {σ²((t−i)²+1) <= σ² ln t} (steps with a bad entry)",
                             Comparison(float(bad_noise), 0.0, "==", scale=1.0)),
            Property.compare("oracle answers = Σ_t min(Q_t, distinct)", Comparison(float(oracle_total),
                             float(np.sum(stated)), "==", scale=1.0),
                             sharpened=Comparison(float(oracle_total), float(np.sum(uncapped)), "==", scale=1.0)),
            Property.compare("x_{t+1} = grid argmax of μ^s + β σ^s (18) (steps that differ)",
                             Comparison(float(mismatched), 0.0, "==", scale=1.0),
                             sharpened=Comparison(float(mismatched), float(mismatched_sq), "==", scale=1.0),
                             detail="re-derived from the recorded sparse set with gp.posterior and "
                                    "confidence.beta_sparq_log_det; sharpened: the steps where β² (the √β "
                                    "convention) picks another point"),
        ]

    def argmax_mismatches(self) -> tuple[int, int]:
        """Steps where the recorded choice differs from the re-derived argmax of (18), and how many steps an
        index rule with β² in place of β would change."""
        pol, env = self.pol, self.env
        grid = env.grid
        bad = changed = 0
        for r, chosen in zip(pol.steps[:-1], pol.choices[1:]):
            if r.set_idx.size:
                m, v = posterior(env.kernel, grid[r.set_idx], r.set_y, r.set_noise, grid)
                beta = beta_sparq_log_det(env.kernel(grid[r.set_idx]), r.set_noise, self.s.delta, self.s.B)
            else:
                m, v = np.zeros(grid.shape[0]), env.kernel.diag(grid)
                beta = beta_sparq_log_det(np.zeros((0, 0)), np.zeros(0), self.s.delta, self.s.B)
            sd = np.sqrt(np.maximum(v, 0.0))
            bad += int(int(np.argmax(m + beta * sd)) != chosen)
            changed += int(int(np.argmax(m + beta * beta * sd)) != int(np.argmax(m + beta * sd)))
        return bad, changed


@claim("sparq:algorithm-1")
def algorithm_1(ctx: Context) -> Evidence:
    """Algorithm 1 lines 3–8, audited on one seeded SparQ-GP-UCB run on S1 recorded step by step: expert queries per
    step = min(Q_t, distinct past inputs), all at distinct past inputs; every Σ^s entry is σ̄² or the injected variance
    of a kept age; the oracle's total count; each x_{t+1} is the grid argmax of (18) re-derived from the recorded set.
    Power: Q_t uncapped, β² for β, and a mutant with a relaxed discard threshold (U3) must fail. Full reading:
    READING.md §sparq:algorithm-1."""
    setting = RunSetting(T=ctx.pick(60, 200), seed=int(ctx.seeds(1)[0].generate_state(1)[0]))
    pol, trace, env = recorded_run(setting)
    props = RunAudit(pol, trace, env, setting).properties()
    mutant_setting = RunSetting(T=ctx.pick(30, 60), seed=setting.seed, threshold=0.5)
    mpol, mtrace, menv = recorded_run(mutant_setting)
    mutant = RunAudit(mpol, mtrace, menv, RunSetting(T=mutant_setting.T, seed=setting.seed)).properties()
    ev = properties_evidence(ctx, props, what="SparQ-GP-UCB run", sharpening="Q_t uncapped; β² in place of β",
                             mutants={"discard threshold σ² t^0.5 (U3)": mutant},
                             configuration={"T": setting.T, "seed": setting.seed, "env": "sparq-synthetic"})
    q = np.array([len(r.expert_idx) for r in pol.steps])

    def figure():
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7.5, 3.2), layout="constrained")
        t = np.arange(1, q.size + 1)
        ax.plot(t, q, "o", ms=3, label="expert queries (measured)")
        ax.plot(t, RunAudit(pol, trace, env, setting).stated_queries(capped=False), "-", label="⌈6 ln t⌉")
        ax.plot(t, [r.distinct for r in pol.steps], "--", label="distinct past inputs")
        ax.plot(t, [r.set_idx.size - len(r.expert_idx) for r in pol.steps], ":", label="kept recent points")
        ax.set_xlim(1, q.size)
        ax.set_xlabel("step t")
        ax.set_ylabel("count")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        return fig

    ev.figures.append(("expert queries and sparse-set sizes along the run", figure))
    return ev


# ------------------------------------------------------------------------------------- Theorem 3.2
def counted_costs(pol: RecordedSparQ, eta: float = 0.1, paper_ground_set: bool = True) -> np.ndarray:
    """Per-step cost of paper Sec. 5.3 counted on a recorded run: the ε_t-approximate Q_t-DPP over N_t inputs, ``N_t
    Q_t³ (log log N_t + log Q_t + log 1/ε_t²)`` (Burt et al. §4.2.2, ε_t of eq. (56)), plus the GP regression
    ``|X^s_t|³``. ``N_t = t`` (the paper's ground set X_t) or the distinct past inputs the implementation samples from
    (READING.md §3.4)."""
    from tvbo_verify.theory.schedules import dpp_accuracy

    s2 = pol.problem.noise_var
    m2 = pol.problem.kernel.max_variance
    out = np.zeros(len(pol.steps))
    for k, r in enumerate(pol.steps):
        N = r.t if paper_ground_set else r.distinct
        Q = max(len(r.expert_idx), 1)
        eps = dpp_accuracy(r.t, eta, s2, m2)
        dpp = N * Q**3 * (math.log(max(math.log(max(N, 2)), 1e-300)) + math.log(Q) + 2 * math.log(1 / eps))
        out[k] = max(dpp, 0.0) + r.set_idx.size ** 3
    return out


@claim("sparq:theorem-3.2")
def theorem_3_2(ctx: Context) -> Evidence:
    """Theorem 3.2 under the cost model of its proof (paper Sec. 5.3), counted on one recorded SparQ-GP-UCB run on S1:
    each step costs N_t Q_t³ (log log N_t + log Q_t + log 1/ε_t²) for the approximate DPP (ε_t of (56)) plus |X^s_t|³,
    with the measured sizes, for N_t = t (paper) and N_t = distinct inputs (implementation). The cumulative cost over
    log t log³(t/log t) must grow no faster than t² (rate rule on a geometric ladder). Power: a lower exponent must be
    caught. Full reading: READING.md §sparq:theorem-3.2."""
    from tvbo_verify.authoring import RateMeasurement, rate_evidence

    T = ctx.pick(400, 1500)
    setting = RunSetting(T=T, seed=int(ctx.seeds(1)[0].generate_state(1)[0]))
    pol, trace, env = recorded_run(setting)
    ladder = np.unique(np.geomspace(T / ctx.pick(16, 32), T, 8).astype(int))  # 1.2 decades quick, 1.5 full
    polylog = np.log(ladder) * np.log(ladder / np.log(ladder)) ** 3
    rows, labels = [], []
    for paper, label in ((True, "N_t = t (paper)"), (False, "N_t = distinct inputs (implementation)")):
        C = np.cumsum(counted_costs(pol, paper_ground_set=paper))
        rows.append(C[ladder - 1] / polylog)
        labels.append(label)
    m = RateMeasurement(x=ladder, measured=np.vstack(rows), exponent=2.0, random=False,
                        label="C(T) / (log T log³(T/log T))", labels=labels)
    rate = rate_evidence(ctx, m, lowered_by=0.5, what="counted SparQ cost")
    argmax = float(np.sum([env.grid.shape[0] * r.set_idx.size ** 2 for r in pol.steps]))
    props = [Property.from_evidence("total counted cost O(T² log T log³(T/log T))", rate)]
    ev = properties_evidence(ctx, props, what="SparQ total cost (Theorem 3.2)",
                             stats={"T": T, "argmax_cost_total": argmax, "rate": rate.stats},
                             configuration={"T": T, "seed": setting.seed})
    ev.instances = rate.instances + ev.instances
    ev.figures = rate.figures
    return ev
