"""``wsparq`` SparQ-GP-UCB and W-SparQ-GP-UCB decided from full runs (READING.md §3.6; §3.11; §5.6; §5.9).

================================  ==============================================================================
claim                             paper
================================  ==============================================================================
``theorem-3.3``                   Theorem 3.3, (23): SparQ-GP-UCB regret √T up to polylogs, O(log^d t) queries
``eq-25``                         Proof 3.5 step 2, (25): σ^s_{t−1}(x_t) <= σ^v_{t−1}(x_t) √(1 + √(3η)) w.p. 1 − δ/2
``theorem-3.10``                  Theorem 3.10, (34) as printed: a "sublinear" bound of order T^(3α̃+1) polylog
``theorem-3.10+corrected``        Theorem 3.10 with the square root (Table 2): R_T = O(T^((3α̃+1)/2) log^(d+1) T)
================================  ==============================================================================

Runs of the rates: a stationary function of instance I2 (``STATIONARY``: ``index-noise`` with α = 0, SE on a grid
of [0, 10], ‖f‖_k = B, the same noise σ² at every round; repetition r draws the same f at every horizon). A
stationary f meets Assumptions 1–2 for every α — its drift v_{t₁,t₂} = 0 is sub-Gaussian with any variance proxy
σ²(t₂ − t₁)^α (Remark 2.5: only that upper bound is used) — so the theorems' rates apply to it. SparQ-GP-UCB is
``wsparq`` Algorithm 1 (``bandits.SparQGPUCB(keep_recent=False)``: the posterior of round t uses only the expert
answers at a Q_t-DPP sample of the distinct past inputs, Σ = σ²I); W-SparQ-GP-UCB is Algorithm 2
(``bandits.WSparQGPUCB``, UI noise inside a window). Both with β_t of (12) on their regression set, exact k-DPP
sampling, Q_t = ⌈c log t⌉ with the sparq paper's experimental constant (``QUERIES``), expert noise σ². Each
horizon of a ladder is its own run. Every sweep also runs GP-UCB keeping every answer (``hetero-gp-ucb``, the
contrast: the same check must not fail on it, or a failure would be the instance's, not the algorithm's) and a
uniform-random policy (the negative control of a confirmation).

The structural fact behind the measurements (READING.md §5.6): a Q_t-DPP sample is a set of distinct past inputs,
so the sparse regression set holds at most one fresh expert answer per distinct input — at most |G| answers,
whatever t (fewer in practice: Q is also capped by the numerical rank of the inputs' Gram matrix). Once every
grid point has been played and Q_t reaches that cap, SparQ rebuilds its posterior at every round from a fresh
DPP sample of the same size over the same inputs, with fresh answers: its rounds are independent and
identically distributed given f, so the expected per-round regret is a constant c(f) > 0 and R_T/T -> c(f) —
linear regret. The posterior standard deviation never falls below σ̲, that of one answer of variance σ² at
every grid point, and the exploration width β_t σ^s(x) never below (B + √(2 log(2/δ))) σ̲. W-SparQ keeps the
same kind of set at each window start, plus the window's few bandit observations.

How the rates are decided. The regret of the second half of a run, R_T − R_⌊T/2⌋ <= R_T, is measured on each
horizon: (23) and (34) bound it by the same order, and it drops the exploration transient of the first rounds
(every grid point is played by then), so a constant per-round regret shows its slope 1 on a short ladder. The
stated R_T rate is decided on the same runs and reported.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from tvbo_verify.authoring import (
    Arm,
    Context,
    Evidence,
    Overlay,
    Property,
    RateMeasurement,
    Sweep,
    SweepResult,
    Trials,
    Verdict,
    bootstrap_mean_ci,
    claim,
    play_audited,
    probabilistic_evidence,
    properties_evidence,
    rate_evidence,
    rate_horizons,
    run_audited_sweep,
)
from tvbo_verify.bandits.beta import kirschner_krause
from tvbo_verify.bandits.hetero import merged_posterior
from tvbo_verify.bandits.registry import make_env, make_policy
from tvbo_verify.dpp import sample_kdpp
from tvbo_verify.theory.schedules import window_schedule

from ..reproductions import regret_panel

if TYPE_CHECKING:
    from matplotlib.figure import Figure

DELTA = 0.1
B = 1.0
RANDOM_WALK = {"grid_points": 21, "B": B, "step": 0.1, "lengthscale": 1.0, "n_centres": 15, "noise_var": 0.01}
#: the stationary I2 function of the rate runs: noise σ² t^0 = σ² at every round
STATIONARY = {"grid_points": 21, "B": B, "lengthscale": 1.0, "n_centres": 15, "noise_var": 0.01, "alpha": 0.0}
QUERIES = {"queries": "log", "c_q": 6.0}
SPARQ = "SparQ-GP-UCB"
ALPHA, ALPHA_TILDE = 1.0, 0.1
WSPARQ = f"W-SparQ-GP-UCB (α = {ALPHA:g}, α̃ = {ALPHA_TILDE:g})"
#: the contrast (every answer kept) and the negative control of every rate sweep
GP_UCB = Arm("GP-UCB (every answer kept)", "hetero-gp-ucb", {"alpha": 0.0, "schedule": "index"},
             kirschner_krause(B=B, delta=DELTA))
RANDOM = Arm("uniform random", "random", {}, None)
LATE = "R_T − R_⌊T/2⌋"


def ladder(fidelity: str, start: int = 500) -> tuple[int, ...]:
    """The rate ladder of ``rate_horizons`` from ``start``."""
    return rate_horizons(start, fidelity)


def repetitions(fidelity: str) -> int:
    """Functions per horizon. Repetition r plays the same f at every horizon, so the slope of the mean second-half
    regret is about 1 whichever functions are drawn, and a few functions already pin it."""
    return 4 if fidelity == "quick" else 10


def rate_sweep(name: str, method: Arm, fidelity: str, seed: int, start: int) -> Sweep:
    """``method``, GP-UCB keeping every answer and uniform random play on the stationary I2 function."""
    return Sweep(name, (method, GP_UCB, RANDOM), "index-noise", ladder(fidelity, start), repetitions(fidelity),
                 env_params=STATIONARY, seed=seed)


def sparq_arm() -> Arm:
    return Arm(SPARQ, "sparq-gp-ucb", {"keep_recent": False, **QUERIES}, kirschner_krause(B=B, delta=DELTA))


def wsparq_arm() -> Arm:
    return Arm(WSPARQ, "w-sparq-gp-ucb", {"alpha": ALPHA, "alpha_tilde": ALPHA_TILDE, **QUERIES},
               kirschner_krause(B=B, delta=DELTA))


def sparq_sweep(fidelity: str, seed: int) -> Sweep:
    """SparQ-GP-UCB (Algorithm 1) on the stationary I2 function."""
    return rate_sweep("wsparq theorem 3.3 SparQ, stationary I2", sparq_arm(), fidelity, seed, 250)


def wsparq_sweep(fidelity: str, seed: int) -> Sweep:
    """W-SparQ-GP-UCB (Algorithm 2) on the stationary I2 function; its ladder starts where the allowance of log² T
    leaves the resolution room to separate (3α̃+1)/2 from linear regret."""
    return rate_sweep("wsparq theorem 3.10 W-SparQ, stationary I2", wsparq_arm(), fidelity, seed, 1000)


def drift_against_injection(T: int, seed: int, alpha: float = ALPHA) -> dict[str, float]:
    """Largest ratio, over gaps g, of the root-mean-square drift √(mean (f_{t+g} − f_t)²) of one I2 random-walk
    realisation to the injected standard deviation σ g^(α/2) of Assumption 2 (at most 1: the injection covers
    the drift)."""
    env = make_env("rkhs-random-walk", RANDOM_WALK)
    env.reset(np.random.default_rng(seed), T)
    F = np.array([env.function(t) for t in range(1, T + 1)])
    sd = math.sqrt(RANDOM_WALK["noise_var"])
    gaps = np.unique(np.geomspace(1, T - 1, 10).astype(int))
    ratios = [float(np.sqrt(np.mean((F[g:] - F[:-g]) ** 2))) / (sd * g ** (alpha / 2)) for g in gaps]
    return {"largest RMS drift / (σ g^(α/2)) over gaps": max(ratios), "alpha": alpha}


def loglog_allowance(horizons: Any) -> float:
    """Largest local log–log slope over the ladder of the factor of (23) beyond √T log T (d = 1):
    √(log(1/δ) + log²(log T)), by central differences in log T."""
    lt = np.log(np.asarray(horizons, float))
    h = 1e-4

    def log_factor(x: np.ndarray) -> np.ndarray:
        return 0.5 * np.log(math.log(1 / DELTA) + np.log(x) ** 2)

    return float(max(0.0, np.max((log_factor(lt + h) - log_factor(lt - h)) / (2 * h))))


def second_half_regret(result: SweepResult, label: str) -> np.ndarray:
    """R_T − R_⌊T/2⌋ of every run of ``label``, shape (repetitions, horizons)."""
    return np.column_stack([[tr.cumulative[-1] - tr.cumulative[tr.T // 2 - 1] for tr in result.runs(label, T)]
                            for T in result.sweep.horizons])


def late_measurement(result: SweepResult, label: str, *, exponent: float, polylog: float, extra: float = 0.05,
                     reason: str = "slope resolution of a finite ladder", **kwargs: Any) -> RateMeasurement:
    """The second-half regret of ``label`` on the sweep's ladder against T^exponent (module docstring)."""
    return RateMeasurement(np.asarray(result.sweep.horizons, float), second_half_regret(result, label), exponent,
                           polylog=polylog, extra_allowance=extra, allowance_reason=reason, label=LATE,
                           max_exponent=1.0, name=label, configuration={"sweep": result.sweep.name, "arm": label,
                                                                         "environment": result.sweep.environment,
                                                                         "env_params": result.sweep.env_params,
                                                                         "horizons": list(result.sweep.horizons),
                                                                         "repetitions": result.sweep.reps,
                                                                         "seed": result.sweep.seed}, **kwargs)


def posterior_floor() -> float:
    """σ̲ = min_x of the posterior standard deviation given one answer of variance σ² at every grid point: the
    smallest width any regression set of one answer per distinct input can reach on the stationary I2 grid."""
    env = make_env("index-noise", STATIONARY)
    K, prior = env.kernel(env.grid), env.kernel.diag(env.grid)
    G = env.grid.shape[0]
    post = merged_posterior(K, prior, np.full(G, 1.0 / STATIONARY["noise_var"]), np.zeros(G))
    return float(np.sqrt(np.min(post.var)))


def answers_per_input(arm: Arm, seed: int, T: int = 150) -> dict[str, Any]:
    """A direct run of ``arm`` on the stationary I2 function: the most expert answers any one input receives at a
    query time (the DPP's answers ``query_points``) and the query times whose expert set is larger than the
    distinct inputs played so far."""
    policy = make_policy(arm.algorithm, dict(arm.params), arm.beta)
    env = make_env("index-noise", STATIONARY)
    trace = play_audited(policy, "index-noise", STATIONARY, T, seed, env=env)
    most = max(int(np.max(np.bincount(idx))) for idx in policy.query_points.values())
    larger = sum(int(idx.size > np.unique(trace.index[:t]).size) for t, idx in policy.query_points.items())
    return {"most answers at one input in a round": most, "grid points": int(env.grid.shape[0]),
            "query times with more answers than distinct inputs played": larger,
            "query times": len(policy.query_points)}


def structural_property(name: str, arm: Arm, seed: int, result: SweepResult, starts: Any = None) -> Property:
    """The fact of the module docstring, counted on the product: one fresh answer per distinct input in a direct
    run of ``arm``, and in the sweep's longest runs a regression set (at the window starts ``starts``, when
    given) never larger than the grid; the floor of the width it implies is reported."""
    facts = answers_per_input(arm, seed)
    G = facts["grid points"]
    runs = result.runs(arm.label)
    rows = [tr.dataset_size if starts is None else tr.dataset_size[np.asarray(starts) - 1] for tr in runs]
    largest = int(max(int(np.max(r)) for r in rows))
    full = float(np.mean([np.mean(r == largest) for r in rows]))
    floor = posterior_floor()
    width = (B + math.sqrt(2 * math.log(2 / DELTA))) * floor
    holds = (facts["most answers at one input in a round"] <= 1 and largest <= G
             and facts["query times with more answers than distinct inputs played"] == 0)
    where = "window starts" if starts is not None else "rounds"
    detail = (f"direct run: at most {facts['most answers at one input in a round']} answer per input at each of "
              f"{facts['query times']} query times, never more answers than distinct inputs played; {arm.label} at "
              f"T = {runs[0].T}: largest regression set{' at a window start' if starts is not None else ''} "
              f"{largest} <= |G| = {G}, a set of that size in {full:.1%} of {where}; posterior sd floor "
              f"σ̲ = {floor:.4g}, width floor (B + √(2 log(2/δ))) σ̲ = {width:.4g}")
    return Property.boolean(name, holds, detail)


def contrast_property(late: Evidence) -> Property:
    """The contrast of the rate rule (GP-UCB keeping every answer, decided inside ``late`` as its positive
    contrast): it must not fail, or a failure of the sparse method would be the instance's."""
    c = late.stats["contrasts"][0]
    return Property.boolean(f"contrast: the same check does not fail on {c['name']}", not c["failed"],
                            f"{c['verdict']}: {c['detail']}")


def undecided_unless_contrast_holds(rate: Property, contrast: Property) -> Property:
    """A refuted rate whose contrast fails too is the instance's failure, not the method's: undecided. (Its power,
    when the contrast holds, comes from that contrast inside the rate builder.)"""
    if rate.verdict is not Verdict.VIOLATED or contrast.verdict is Verdict.CONFIRMED:
        return rate
    return Property(rate.name, Verdict.INCONCLUSIVE, detail=f"{rate.detail}; not a refutation: the contrast fails too",
                    power=rate.power, controls=rate.controls)


def sparse_rate_evidence(ctx: Context, result: SweepResult, label: str, *, exponent: float, polylog: float,
                         extra: float, reason: str, lowered_by: float, structure: Property, what: str,
                         misreading: float | None = None, misreading_label: str = "",
                         overlay: Overlay) -> Evidence:
    """Decide a sparse algorithm's rate on the second-half regret (module docstring): the method's rate with the
    uniform-random control, the structural fact, and the contrast, which must not fail; the stated R_T rate on
    the same runs is reported."""
    kwargs: dict[str, Any] = {"misreading": misreading, "misreading_label": misreading_label} if misreading else {}
    m = late_measurement(result, label, exponent=exponent, polylog=polylog, extra=extra, reason=reason, **kwargs)
    control = late_measurement(result, RANDOM.label, exponent=exponent, polylog=polylog, extra=extra, reason=reason)
    gp_ucb = late_measurement(result, GP_UCB.label, exponent=exponent, polylog=polylog, extra=extra, reason=reason)
    late = rate_evidence(ctx, m, lowered_by=lowered_by, controls=[control], contrasts=[gp_ucb],
                         what=f"{label}: second-half regret R_T − R_⌊T/2⌋")
    contrast = contrast_property(late)
    stated = rate_evidence(ctx, RateMeasurement.from_sweep(result, label, exponent=exponent, polylog=polylog,
                                                           extra_allowance=extra, allowance_reason=reason),
                           lowered_by=lowered_by, controls=[RateMeasurement.from_sweep(result, RANDOM.label,
                                                                                      exponent=exponent)],
                           what=f"{label}: R_T as stated")
    rate = undecided_unless_contrast_holds(
        Property.from_evidence(f"R_T − R_⌊T/2⌋ = O(T^{exponent:g} polylog T), implied by the rate", late), contrast)
    T = np.asarray(result.sweep.horizons, float)
    x, R = result.ladder(label)
    _, N = result.ladder(label, "expert_queries")
    per_round = per_horizon_ci(ctx, T, m.measured / (T - T // 2))
    stats = {"environment": result.sweep.environment, "env_params": result.sweep.env_params,
             "repetitions": result.sweep.reps, "seed": result.sweep.seed, "second-half rate": late.stats,
             "contrast": late.stats["contrasts"][0], "R_T as stated": {"verdict": stated.verdict.value, **stated.stats},
             "R_T/T per horizon (mean, 95% CI)": per_horizon_ci(ctx, T, R / x),
             "second-half regret per round per horizon (mean, 95% CI)": per_round,
             "mean N_T/(T log T) per horizon": dict(zip(map(int, T), (N / (x * np.log(x))).mean(axis=0).tolist()))}
    ev = properties_evidence(ctx, [rate, structure, contrast], what=what, stats=stats,
                             configuration=m.configuration)
    ev.summary += (" Second-half regret per round (R_T − R_⌊T/2⌋)/(T − ⌊T/2⌋): " + ", ".join(
        f"{mean:.3g} (95% CI {lo:.3g}..{hi:.3g}) at T = {t}" for t, (mean, lo, hi) in per_round.items())
        + f". Second half: {late.summary} R_T as stated on the same runs: {stated.verdict.value} ({stated.summary})")
    ev.figures += late.figures + [("regret of the longest horizon", lambda: longest_figure(
        result, overlay, f"stationary I2 (‖f‖_k = 1, 21-point grid), T = {result.sweep.horizons[-1]}"))]
    return ev


def per_horizon_ci(ctx: Context, T: np.ndarray, values: np.ndarray) -> dict[int, tuple[float, float, float]]:
    """{horizon: (mean, 95% bootstrap interval over repetitions)} of ``values`` (repetitions × horizons)."""
    return {int(t): bootstrap_mean_ci(values[:, j], ctx.rng) for j, t in enumerate(T)}


def longest_figure(result: SweepResult, overlay: Overlay, title: str) -> Figure:
    return regret_panel(result, overlays=(overlay,), title=title)


# ------------------------------------------------------------------------------------------ Theorem 3.3
def order_23(t: Any) -> np.ndarray:
    """√T log T √(log(1/δ) + log²(log T)): the order of (23) for d = 1."""
    t = np.asarray(t, float)
    lt = np.log(np.maximum(t, 2.0))
    return np.sqrt(t) * lt * np.sqrt(math.log(1 / DELTA) + np.log(np.maximum(lt, 1.0)) ** 2)


@claim("wsparq:theorem-3.3")
def theorem_3_3(ctx: Context) -> Evidence:
    """Theorem 3.3, Eq. (23): SparQ-GP-UCB has R_T = O(√T) up to the displayed polylog, with O(log^d t) queries per
    round. Runs of Algorithm 1 on the stationary I2 function (module docstring); the rate rule decides the second-half
    regret R_T − R_⌊T/2⌋ against √T with the allowance of (23)'s factor. Also counted: the structural fact (one fresh
    answer per distinct input). R_T, R_T/T and N_T/(T log T) are reported. Power of a refutation: GP-UCB keeping every
    answer (the contrast) must not fail; a confirmation needs the uniform-random control to fail. Full reading:
    READING.md §wsparq:theorem-3.3."""
    sweep = sparq_sweep(ctx.fidelity, ctx.seed)
    result = run_audited_sweep(sweep, cache=ctx.cache, executor=ctx.executor, progress=False)
    extra = 0.05 + loglog_allowance(sweep.horizons)
    reason = (f"slope resolution 0.05 of a finite ladder plus {extra - 0.05:.3g}, the largest slope on the ladder "
              "of √(log(1/δ) + log²(log T))")
    structure = structural_property("one fresh expert answer per distinct input: the sparse set never exceeds |G|",
                                    sparq_arm(), ctx.seed, result)
    shape = Overlay(SPARQ, order_23, "order", "√T log T √(log(1/δ) + log²(log T)) (23)")
    return sparse_rate_evidence(ctx, result, SPARQ, exponent=0.5, polylog=1.0, extra=extra, reason=reason,
                                lowered_by=0.5, structure=structure, overlay=shape,
                                what="SparQ-GP-UCB regret on a stationary I2 function (Theorem 3.3)")


# ------------------------------------------------------------------------------------------------ Eq. (25)
ETA = 0.1
#: short runs for (25): I2 on a 51-point grid, where the Q_t-DPP subsamples the distinct past inputs early on
RATIO_WALK = {**RANDOM_WALK, "grid_points": 51}


def ratio_sweep(fidelity: str, seed: int) -> Sweep:
    T = 64 if fidelity == "quick" else 128
    return Sweep("wsparq eq. (25) SparQ runs", (Arm(SPARQ, "sparq-gp-ucb", {"keep_recent": False, **QUERIES},
                                                    kirschner_krause(B=B, delta=DELTA)),),
                 "rkhs-random-walk", (T,), 4 if fidelity == "quick" else 8, env_params=RATIO_WALK, seed=seed)


def sparse_virtual_ratios(item: tuple[np.random.SeedSequence, np.ndarray, int, int]) -> np.ndarray:
    """σ^s_{t−1}(x_t) / σ^v_{t−1}(x_t) at the point played at round t of a recorded run, for ``draws`` fresh
    Q_t-DPP samples (Q_t = ⌈6 log(t − 1)⌉ capped by the distinct past inputs and their numerical rank, as the
    policy caps it). Virtual: every past input (repeats included) with noise σ²; sparse: one expert answer of
    noise σ² at each DPP point (Algorithm 1). Both variances come from the exact merged posterior."""
    seed, index, t, draws = item
    env = make_env("rkhs-random-walk", RATIO_WALK)
    K, prior = env.kernel(env.grid), env.kernel.diag(env.grid)
    G, s2 = env.grid.shape[0], RATIO_WALK["noise_var"]
    hist, x = np.asarray(index[: t - 1]), int(index[t - 1])
    virtual = merged_posterior(K, prior, np.bincount(hist, minlength=G) / s2, np.zeros(G)).var[x]
    distinct = np.unique(hist)
    q = min(math.ceil(QUERIES["c_q"] * math.log(t - 1)), distinct.size)
    rng = np.random.default_rng(seed)
    Kd = K[np.ix_(distinct, distinct)]
    out = np.empty(draws)
    for j in range(draws):
        qq = q
        while True:
            try:
                picks = distinct[sample_kdpp(Kd, qq, rng, method="exact")]
                break
            except ValueError as exc:  # numerically rank-deficient Gram: fewer independent inputs
                if "rank" not in str(exc) or qq == 1:
                    raise
                qq -= 1
        P = np.zeros(G)
        P[picks] = 1.0 / s2
        out[j] = math.sqrt(merged_posterior(K, prior, P, np.zeros(G)).var[x] / virtual)
    return out


@claim("wsparq:eq-25")
def eq_25(ctx: Context) -> Evidence:
    """Proof 3.5 step 2, Eq. (25): with probability 1 − δ/2, σ^s_{t−1}(x_t) ≤ σ^v_{t−1}(x_t) √(1 + √(3η)). On short
    SparQ runs on I2, at regularly spaced rounds the played x_t is fixed; the virtual sd (every past input, repeats
    included) is exact, and the sparse sd (one answer per DPP point) is computed for many fresh Q_t-DPP samples. The
    event frequency is tested against 1 − δ/2 per (run, t). ``sparq:sparse-variance-ratio`` checks sparq's variant.
    Power: η = 0 (σ^s ≤ σ^v) must be refuted where the event holds. Full reading: READING.md §wsparq:eq-25."""
    sweep = ratio_sweep(ctx.fidelity, ctx.seed)
    result = run_audited_sweep(sweep, cache=ctx.cache, executor=ctx.executor, progress=False)
    T = sweep.horizons[0]
    steps = (16, 32, 48, 64) if ctx.quick else tuple(range(16, T + 1, 16))
    draws = ctx.pick(40, 100)
    runs = result.runs(SPARQ)
    seeds = ctx.seeds(len(runs) * len(steps))
    pairs = [(k, t) for k in range(len(runs)) for t in steps]
    items = [(seed, runs[k].index, t, draws) for seed, (k, t) in zip(seeds, pairs)]
    scores = ctx.map(sparse_virtual_ratios, items)
    trials = [Trials({"run": k, "t": t}, sc, extra={"distinct past inputs": int(np.unique(runs[k].index[: t - 1]).size),
                                                   "Q_t": math.ceil(QUERIES["c_q"] * math.log(t - 1))})
              for (k, t), sc in zip(pairs, scores)]
    return probabilistic_evidence(ctx, trials, target=1 - DELTA / 2, threshold=math.sqrt(1 + math.sqrt(3 * ETA)),
                                  sharpening="η = 0: σ^s <= σ^v", sharpened_threshold=1.0,
                                  what="sparse/virtual std ratio at the played point (Algorithm 1)", score="σ^s/σ^v",
                                  stats={"eta": ETA, "environment": sweep.environment, "env_params": sweep.env_params,
                                         "T": T, "draws": draws})


# ------------------------------------------------------------------------------------------ Theorem 3.10
D = 1


def printed_order(T: Any, alpha_tilde: float = ALPHA_TILDE) -> np.ndarray:
    """(34) as printed: T^(2α̃+1) d log^(d+1) T (log(1/δ) + d T^α̃ log^(d+1) T) (no square root)."""
    T = np.asarray(T, float)
    L = np.log(np.maximum(T, 2.0)) ** (D + 1)
    return T ** (2 * alpha_tilde + 1) * D * L * (math.log(1 / DELTA) + D * T**alpha_tilde * L)


def corrected_order(T: Any, alpha_tilde: float = ALPHA_TILDE) -> np.ndarray:
    """(34) with its square root (Table 2): √(T^(2α̃+1) d log^(d+1) T (log(1/δ) + d T^α̃ log^(d+1) T))."""
    return np.sqrt(printed_order(T, alpha_tilde))


def deterministic_ladder(fidelity: str) -> tuple[int, ...]:
    """Horizons at which (34) as printed is evaluated: the W-SparQ ladder."""
    return ladder(fidelity, 1000)


@claim("wsparq:theorem-3.10")
def theorem_3_10(ctx: Context) -> Evidence:
    """Theorem 3.10, Eq. (34) as printed and called sublinear: the order T^{2α̃+1} d log^{d+1} T (log(1/δ) + d T^α̃
    log^{d+1} T) has exponent 3α̃ + 1 > 1. Measured: that order per round, (34)/T, on the W-SparQ horizons, decided by
    the deterministic rate rule against exponent 0 with (34)'s own polylog allowance — a sublinear bound needs (34)/T to
    vanish. The W-SparQ runs of the corrected claim are drawn against the printed order and their R_T/T reported. Power
    of the refutation: the weakened (34) = O(T²) must not be refuted. Full reading: READING.md §wsparq:theorem-3.10."""
    sweep = wsparq_sweep(ctx.fidelity, ctx.seed)
    T = np.asarray(deterministic_ladder(ctx.fidelity), float)
    m = RateMeasurement(T, printed_order(T) / T, exponent=0.0, polylog=2.0 * (D + 1), random=False,
                        label="(34)/T", labels=["(34) as printed, per round"])
    result = run_audited_sweep(sweep, cache=ctx.cache, executor=ctx.executor, progress=False)
    x, R = result.ladder(WSPARQ)
    ev = rate_evidence(ctx, m, lowered_by=1.0,
                       what="(34) as printed, divided by T (a sublinear bound needs it to vanish)",
                       stats={"W-SparQ mean R_T/T per horizon": dict(zip(map(int, x), (R / x).mean(axis=0).tolist())),
                              "alpha_tilde": ALPHA_TILDE, "delta": DELTA})
    printed = Overlay(WSPARQ, printed_order, "order", "(34) as printed, T^(3α̃+1) log⁴ T")
    ev.figures.append(("W-SparQ regret against the printed order", lambda: longest_figure(
        result, printed, f"stationary I2, T = {sweep.horizons[-1]}: the printed order outgrows T")))
    return ev


@claim("wsparq:theorem-3.10+corrected")
def theorem_3_10_corrected(ctx: Context) -> Evidence:
    """Theorem 3.10 with the square root of Table 2 and Proof 3.11 step 3: R_T = O(√(d² T^{3α̃+1} log^{2(d+1)} T)),
    exponent (3α̃+1)/2. Runs of Algorithm 2 on the stationary I2 function (module docstring), at an α̃ small enough to
    separate that exponent from 1; the rate rule decides the second-half regret with the log² T allowance, a
    confirmation also needing separation from (34) as printed and a failing uniform-random control. The structural fact
    is counted; the GP-UCB contrast must not fail. Power: the exponent 3α̃/2 must be refuted. Full reading: READING.md
    §wsparq:theorem-3.10+corrected."""
    sweep = wsparq_sweep(ctx.fidelity, ctx.seed)
    result = run_audited_sweep(sweep, cache=ctx.cache, executor=ctx.executor, progress=False)
    exponent = (3 * ALPHA_TILDE + 1) / 2
    starts = window_schedule(ALPHA, ALPHA_TILDE, sweep.horizons[-1]).starts
    structure = structural_property("one fresh expert answer per distinct input at every window start: the "
                                    "regression set there never exceeds |G|", wsparq_arm(), ctx.seed, result,
                                    starts=starts[starts <= sweep.horizons[-1]].astype(int))
    order = Overlay(WSPARQ, corrected_order, "order", "√((34)) = T^((3α̃+1)/2) log² T (Table 2)")
    return sparse_rate_evidence(ctx, result, WSPARQ, exponent=exponent, polylog=float(D + 1), extra=0.05,
                                reason="slope resolution of a finite ladder", lowered_by=0.5, structure=structure,
                                misreading=3 * ALPHA_TILDE + 1, misreading_label="(34) as printed, without its root",
                                overlay=order,
                                what="W-SparQ-GP-UCB regret on a stationary I2 function (Theorem 3.10 with the "
                                     "square root)")
