"""``wsparq`` regret rates of GP-UCB decided from full runs (READING.md §2.4; §3.4–§3.6).

==========================  ==================================================================================
claim                       paper
==========================  ==================================================================================
``proposition-2.2``         Proposition 2.2, eq. (13): GP-UCB under slow drift, R_T = O(√(d² T^(3α+1) log^(2(d+1)) T))
``eq-15``                   Proof 2.4, eqs. (15)–(16): r_t <= 2β_tσ_{t−1}(x_t) and R_T <= β_T √(2T(1 + σ²T^α)γ_T)
``remark-2.5``              Remark 2.5: a variance proxy v_t = O(t^α) (no drift) gives the same rate
==========================  ==================================================================================

Every rate is measured on a ladder of horizons, each horizon its own run of the sweep harness
(:mod:`tvbo_verify.sweeps`, shared run cache), with GP-UCB as eq. (11) states it: ``μ_{t−1} + β_t σ_{t−1}``
with β_t of eq. (12) on every observation (B = ‖f_t‖_k) and the noise variance of each observation from the
model — ``bandits.HeteroscedasticGPUCB``, whose posterior and β_t are exact and equal to ``GPUCB(ui_alpha=α)``
(same decisions) at a fraction of the cost, which makes long horizons affordable. A uniform-random policy runs
on the same environment, horizons and seeds (repetition r plays the same function): it learns nothing, its
regret is linear, and the same rate check must call it violated (the negative control).

Proposition 2.2 is run under its own statistical model, generator O1 built on the run's observations
(``O1-coupled``, READING.md §3.4): the data behind round t are ``y_s − f_s(x_s) + f_t(x_s) + N(0, σ²(t − s)^α)``
for every past round s, with the law ``f_t(x_s) + N(0, σ²(1 + (t − s)^α))`` of every target t and the observation
noise shared across targets (independence across all pairs of times no drifting function can meet,
``wsparq:assumption-2``), so a policy fed wrong observations learns wrong data — on instance I2
(``rkhs-random-walk``: ‖f_t‖_k = B at every t, SE on a grid of [0, 10]). Remark 2.5 runs a static I2 function
observed with noise variance σ² t^α (``index-noise``).

What the rule can resolve on a ladder, and why the runs are what they are:

* the allowance is the polylog of (13) for d = 1, log² T: its largest log–log slope on the ladder, 2/ln T_min,
  plus the slope resolution of a finite ladder;
* the resolution (allowance plus the half-width of the slope interval) must separate the exponent
  (3α+1)/2 from linear regret (exponent 1): that needs α well below 1/3, so Proposition 2.2 runs α from 0 to
  0.05 (:func:`proposition_alphas`; Remark 2.5 the α of :func:`small_alphas`); beyond
  :func:`refutable_alpha_limit` (about 0.107) the order exceeds T on every affordable horizon and no regret could
  contradict it;
* the power — the exponent lowered to 0, polylogarithmic regret, must be refuted — needs regret that grows
  faster than the allowance on the ladder: with a small noise GP-UCB's regret on I2 is nearly logarithmic there,
  so the runs take a larger σ (``O1_WALK``);
* the nearest plausible misreading is (13) without its square root, T^(3α+1), the form in which (34) is
  printed (READING.md §5.9).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from tvbo_verify.authoring import (
    Arm,
    BoundCurve,
    Context,
    Evidence,
    Overlay,
    Property,
    RateMeasurement,
    SampleRange,
    Sweep,
    SweepResult,
    Trials,
    claim,
    cost_to_reach,
    earliest_horizon,
    horizon_record,
    non_vacuity_horizon,
    probabilistic_evidence,
    properties_evidence,
    rate_evidence,
    rate_horizons,
    run_audited_sweep,
    searched_instance_evidence,
    with_horizon,
)
from tvbo_verify.bandits.beta import kirschner_krause
from tvbo_verify.bandits.hetero import merged_posterior
from tvbo_verify.bandits.registry import make_env
from tvbo_verify.confidence import beta_wsparq_from_log_det_ratio
from tvbo_verify.information import max_information_gain, ui_noise_schedule
from tvbo_verify.information_bounds import GammaUpper

from ..reproductions import regret_panel

DELTA = 0.1
B = 1.0
D = 1
#: (13) and (34) with the square root: √(d² T^a log^(2(d+1)) T) = d T^(a/2) log^(d+1) T
POLYLOG = float(D + 1)
#: the negative control of every rate: a policy that learns nothing, run in the same sweep
RANDOM = Arm("uniform random", "random", {}, None)
#: Proposition 2.2: instance I2 (‖f_t‖_k = 1 exactly) under generator O1, σ = 0.5
O1_WALK = {"grid_points": 51, "B": B, "step": 0.1, "lengthscale": 1.0, "n_centres": 15, "noise_var": 0.25}
#: Remark 2.5: a static I2 function (‖f‖_k = 1, SE ℓ = 1/2), noise variance σ² t^α at round t, σ = 0.5
INDEX_NOISE = {"grid_points": 51, "B": B, "lengthscale": 0.5, "n_centres": 15, "noise_var": 0.25}


def ladder(fidelity: str) -> tuple[int, ...]:
    """Horizons of the GP-UCB rates: the rate ladder of ``rate_horizons`` from 10³."""
    return rate_horizons(1000, fidelity)


def repetitions(fidelity: str) -> int:
    """Runs per horizon: repetition r draws the same function at every horizon, and the quick count keeps the slope
    interval inside the room the resolution leaves."""
    return 6 if fidelity == "quick" else 10


#: the uniform-random control runs three times as many repetitions (a run costs almost nothing): its R_T/T
#: follows the drift of f, and the extra repetitions keep its slope interval clear of the allowance
CONTROL_FACTOR = 3


def with_control(sweep: Sweep) -> Sweep:
    """The uniform-random control of ``sweep``: same environment, horizons and root seed (repetition r plays the
    same function as the method's repetition r), :data:`CONTROL_FACTOR` times the repetitions."""
    return Sweep(f"{sweep.name} control", (RANDOM,), sweep.environment, sweep.horizons, CONTROL_FACTOR * sweep.reps,
                 env_params=sweep.env_params, seed=sweep.seed)


def gpucb_arm(alpha: float, schedule: str = "age", generator: str = "O2") -> Arm:
    """GP-UCB of eq. (11) with β_t of eq. (12) (δ = 0.1, B = 1), the noise model ``schedule`` of exponent α and
    the observation generator ``generator``."""
    params: dict[str, Any] = {"alpha": alpha, "schedule": schedule}
    if generator != "O2":
        params["generator"] = generator
    return Arm(f"GP-UCB (α = {alpha:g})", "hetero-gp-ucb", params, kirschner_krause(B=B, delta=DELTA))


#: Proposition 2.2's generator: O1's law for every target, built on the observations the policy is given (a policy
#: fed wrong observations learns wrong data, READING.md §3.4)
DRIFT_GENERATOR = "O1-coupled"


def drift_sweep(alpha: float, fidelity: str, seed: int) -> Sweep:
    """GP-UCB under uncertainty injection (generator O1, coupled to the run's observations) on I2 with exponent α,
    on the rate ladder."""
    return Sweep(f"wsparq proposition 2.2 O1-coupled alpha={alpha:g}", (gpucb_arm(alpha, generator=DRIFT_GENERATOR),),
                 "rkhs-random-walk", ladder(fidelity), repetitions(fidelity), env_params=O1_WALK, seed=seed)


def exponent_of_13(alpha: float) -> float:
    """(3α+1)/2, the exponent of T in (13)."""
    return (3 * alpha + 1) / 2


def rate_order(T: np.ndarray, exponent: float) -> np.ndarray:
    """d T^exponent log^(d+1) T: the order of (13) (exponent (3α+1)/2) and of (34) with its square root."""
    T = np.asarray(T, float)
    return D * T**exponent * np.log(np.maximum(T, 2.0)) ** POLYLOG


def rate_of_13(ctx: Context, result: SweepResult, control_result: SweepResult, label: str, *, alpha: float,
                what: str) -> Evidence:
    """R_T of ``label`` on the ladder against T^((3α+1)/2) with the power-2 polylog allowance of (13), resolved from
    linear regret and from (13) without its square root; the uniform-random runs of ``control_result`` are the
    negative control; power: the exponent lowered to 0 (polylogarithmic regret) must be refuted."""
    exponent = exponent_of_13(alpha)
    m = RateMeasurement.from_sweep(result, label, exponent=exponent, polylog=POLYLOG,
                                   misreading=3 * alpha + 1,
                                   misreading_label="(13) without its square root, T^(3α+1) (as (34) is printed)")
    control = RateMeasurement.from_sweep(control_result, RANDOM.label, exponent=exponent)
    T = np.asarray(result.sweep.horizons, float)
    return rate_evidence(ctx, m, lowered_by=exponent, controls=[control], what=what,
                         stats={"environment": result.sweep.environment, "env_params": result.sweep.env_params,
                                "repetitions": result.sweep.reps, "seed": result.sweep.seed,
                                "mean R_T/T per horizon": per_horizon(T, m.measured / T),
                                "uniform random mean R_T/T": per_horizon(T, control.measured / T)})


def per_horizon(T: np.ndarray, values: np.ndarray) -> dict[int, float]:
    """{horizon: mean over repetitions} of ``values`` (repetitions × horizons)."""
    return dict(zip(map(int, T), np.asarray(values, float).mean(axis=0).tolist()))


def rates_over_alphas(ctx: Context, sweeps: dict[float, Sweep], *, what: str) -> Evidence:
    """One rate decision per exponent α (all must hold); the longest horizon's regret curves with the order of (13)."""
    props, figures, rows, sub = [], [], [], {}
    results = {}
    for alpha, sweep in sweeps.items():
        result = run_audited_sweep(sweep, cache=ctx.cache, executor=ctx.executor, progress=False)
        control = run_audited_sweep(with_control(sweep), cache=ctx.cache, executor=ctx.executor, progress=False)
        results[alpha] = result
        exponent = exponent_of_13(alpha)
        ev = rate_of_13(ctx, result, control, sweep.arms[0].label, alpha=alpha,
                         what=f"α = {alpha:g}: R_T = O(T^{exponent:g} log² T)")
        props.append(Property.from_evidence(f"α = {alpha:g}: R_T = O(T^({exponent:g}) log² T)", ev))
        figures += ev.figures
        rows += [{"α": alpha, **r} for r in ev.instances]
        sub[f"alpha={alpha:g}"] = ev.stats
    horizons = list(next(iter(sweeps.values())).horizons)
    out = properties_evidence(ctx, props, what=what, stats={"per_alpha": sub},
                              configuration={"alphas": list(sweeps), "horizons": horizons})
    out.instances = rows + out.instances
    for alpha, result in results.items():
        label = sweeps[alpha].arms[0].label
        order = Overlay(label, lambda t, a=alpha: rate_order(t, exponent_of_13(a)), "order",
                        f"T^{exponent_of_13(alpha):g} log² T (13)")
        title = f"{sweeps[alpha].environment}, α = {alpha:g}, T = {horizons[-1]}"
        figures.append((f"regret of the longest horizon, α = {alpha:g}",
                        lambda r=result, o=order, title=title: regret_panel(r, overlays=(o,), title=title)))
    out.figures = figures
    return out


# ----------------------------------------------------------------------------------- Proposition 2.2
def small_alphas(fidelity: str) -> tuple[float, ...]:
    """Exponents where the resolution can separate (3α+1)/2 from linear regret (module docstring)."""
    return (0.02,) if fidelity == "quick" else (0.02, 0.05)


def refutable_alpha_limit(fidelity: str) -> float:
    """The α beyond which no run on the ladder could refute (13): there T^((3α+1)/2) log² T grows, within the
    allowance of the rate rule, at least as fast as linear regret (slope 1 − (3α+1)/2 at most the allowance)."""
    allowance = POLYLOG / math.log(ladder(fidelity)[0]) + 0.05
    return (2 * (1 - allowance) - 1) / 3


def proposition_alphas(fidelity: str) -> tuple[float, ...]:
    """The exponents of Proposition 2.2's runs, over its range α ∈ [0, 1/3): from the static end α = 0 to 0.05, the
    largest α whose exponent (3α+1)/2 a slope half-width of 0.08 still separates from linear regret. Between 0.05 and
    :func:`refutable_alpha_limit` (about 0.107 on a ladder from 10³) a run could refute (13) but hardly confirm it;
    beyond, no run could refute it."""
    alphas = (0.0, 0.02, 0.05)
    limit = refutable_alpha_limit(fidelity)
    if max(alphas) >= limit:
        raise ValueError(f"α = {max(alphas):g} is beyond what the ladder can refute ({limit:.3g})")
    return alphas


@claim("wsparq:proposition-2.2")
def proposition_2_2(ctx: Context) -> Evidence:
    """Proposition 2.2, Eq. (13): GP-UCB under uncertainty injection has R_T = O(√(d² T^{3α+1} log^{2(d+1)} T)),
    no-regret for α < 1/3. Runs: ``bandits.HeteroscedasticGPUCB`` (β of Eq. (12), exact UI variances) under generator O1
    built on the run's observations (``O1-coupled``) on instance I2, at every α of ``proposition_alphas``: the range
    α ∈ [0, 1/3) up to the α beyond which no run on the ladder could refute (13) (``refutable_alpha_limit``, reported).
    Each α decided by the rate rule of READING.md §3.6 with the log² T allowance, resolved from linear regret and from
    (13) without its root; the uniform-random control must come out violated. Power: polylogarithmic regret (exponent
    0) must be refuted. Full reading: READING.md §wsparq:proposition-2.2."""
    sweeps = {a: drift_sweep(a, ctx.fidelity, ctx.seed) for a in proposition_alphas(ctx.fidelity)}
    ev = rates_over_alphas(ctx, sweeps, what="GP-UCB regret under slow drift (Proposition 2.2, generator O1)")
    limit = refutable_alpha_limit(ctx.fidelity)
    ev.stats["refutable_alpha_limit"] = limit
    ev.summary += (f" For α >= {limit:.3g} (up to 1/3) no run on a ladder from T = {ladder(ctx.fidelity)[0]} could "
                   "refute (13): its order grows as fast as linear regret within the allowance; those α are not run.")
    return ev


# ------------------------------------------------------------------------------------------ Eq. (15)
#: Eq. (15) runs: instance I2 with ‖f_t‖_k = B exactly (Assumption 1), observed through generator O1
RANDOM_WALK = {"grid_points": 51, "B": B, "step": 0.1, "lengthscale": 1.0, "n_centres": 15, "noise_var": 0.01}
EQ15_ALPHAS = (0.2, 1.0)
#: the sharpening of both events: the factor 3 that separates the β and √β conventions of the width (β_t ≈ 4–9)
EQ15_FACTOR = 3.0


def gpucb_o1_label(alpha: float) -> str:
    return f"GP-UCB (α = {alpha:g}, O1)"


def chain_sweep(fidelity: str, seed: int, env_params: dict[str, Any] | None = None,
                alphas: tuple[float, ...] = EQ15_ALPHAS, delta: float = DELTA, T: int | None = None,
                name: str = "wsparq proof 2.4 eq. (15)") -> Sweep:
    """GP-UCB under uncertainty injection with generator O1 on I2, one arm per α, widths recorded; uniform random
    play (the negative control) on the same functions.

    Parameters
    ----------
    fidelity : str
        ``"quick"`` or ``"full"``: the repetitions and the default horizon (:func:`chain_horizon`).
    seed : int
        The sweep's root seed.
    env_params : dict or None, optional
        The I2 instance (default :data:`RANDOM_WALK`); its ``B`` is ‖f_t‖_k and the B of β_t in eq. (12).
    alphas : tuple of float, optional
        The exponents α of Assumption 2, one GP-UCB arm each.
    delta : float, optional
        The δ of eq. (12).
    T : int or None, optional
        The runs' horizon (default :func:`chain_horizon`).
    name : str, optional
        The sweep's name.

    Returns
    -------
    Sweep
        One horizon, 30 repetitions at quick fidelity and 200 at full.
    """
    env_params = RANDOM_WALK if env_params is None else env_params
    arms = tuple(Arm(gpucb_o1_label(a), "hetero-gp-ucb", {"alpha": a, "generator": "O1", "record_widths": True},
                     kirschner_krause(B=env_params["B"], delta=delta)) for a in alphas) + (RANDOM,)
    return Sweep(name, arms, "rkhs-random-walk", (chain_horizon(fidelity) if T is None else T,),
                 30 if fidelity == "quick" else 200, env_params=env_params, seed=seed)


def chain_horizon(fidelity: str) -> int:
    """Horizon of the eq. (15) runs."""
    return 500 if fidelity == "quick" else 1000


def ui_widths(index: np.ndarray, alpha: float, env_params: dict[str, Any] | None = None,
              delta: float = DELTA) -> tuple[np.ndarray, np.ndarray]:
    """(σ_{t−1}(x_t), β_t) along a played sequence on an I2 grid (default the eq. (15) set-up :data:`RANDOM_WALK`):
    the posterior of target t from the data of rounds s < t with Σ = diag σ²(1 + (t − s)^α)
    (``information.ui_noise_schedule``; exact, merged per input) and β_t of (12) on the same data
    (``confidence.beta_wsparq_from_log_det_ratio`` with the instance's B and ``delta``). Independent of any policy:
    the widths of the Proof 2.4 chain for a control's runs, and a cross-check of the widths GP-UCB records."""
    env_params = RANDOM_WALK if env_params is None else env_params
    env = make_env("rkhs-random-walk", env_params)
    K, prior = env.kernel(env.grid), env.kernel.diag(env.grid)
    G, T = env.grid.shape[0], int(np.asarray(index).size)
    idx = np.asarray(index, dtype=np.int64)
    sd, beta = np.empty(T), np.empty(T)
    for t in range(1, T + 1):
        if t == 1:
            P = np.zeros(G)
        else:
            v = ui_noise_schedule(env_params["noise_var"], alpha, t - 1, target_time=t)
            P = np.bincount(idx[: t - 1], weights=1.0 / v, minlength=G)
        post = merged_posterior(K, prior, P, np.zeros(G))
        sd[t - 1] = math.sqrt(max(float(post.var[idx[t - 1]]), 0.0))
        beta[t - 1] = beta_wsparq_from_log_det_ratio(max(post.log_det_ratio, 0.0), delta, env_params["B"])
    return sd, beta


def ui_widths_job(args: tuple) -> tuple[np.ndarray, np.ndarray]:
    """Module-level job for ``ctx.map``: :func:`ui_widths` of (index, α[, env_params, δ])."""
    return ui_widths(*args)


def chain_bound(T: int, alpha: float, max_beta: np.ndarray, gamma: float,
                noise_var: float = RANDOM_WALK["noise_var"]) -> np.ndarray:
    """The right side of (15) with the running maximum of β (``wsparq:beta-monotone``):
    max_t β_t √(2T(1 + σ²T^α)γ_T), σ² = ``noise_var``."""
    return np.asarray(max_beta, float) * math.sqrt(2 * T * (1 + noise_var * T**alpha) * gamma)


def chain_trials(config: dict[str, Any], runs: list[Any], sd: np.ndarray, beta: np.ndarray, alpha: float,
                 gamma: float | dict[int, float], noise_var: float = RANDOM_WALK["noise_var"]) -> list[Trials]:
    """The two events of the chain on ``runs`` (widths ``sd`` and β ``beta``, runs × T), from the traces so that
    each is compared with the trivial bound of its runs: r_t <= 2β_tσ_{t−1}(x_t) for every t <= T, and (15) at
    every horizon h of ``gamma`` (a float: at the runs' T only) with max_{t<=h} β_t and γ_h.

    Parameters
    ----------
    config : dict
        The configuration the trials are reported under.
    runs : list of Trace
        The runs, all of the same horizon T.
    sd, beta : ndarray
        σ_{t−1}(x_t) and β_t of every run and round (runs × T).
    alpha : float
        The α of Assumption 2 in (15)'s factor 1 + σ²h^α.
    gamma : float or dict
        γ_T of (15) (log-det ratio without ½), or {horizon h <= T: γ_h}.
    noise_var : float, optional
        The σ² of (15).

    Returns
    -------
    list of Trials
        The per-step event over every t <= T, then (15) at each horizon, each scored against the bound divided by
        :data:`EQ15_FACTOR`.
    """
    T = runs[0].T
    gammas = {T: float(gamma)} if np.isscalar(gamma) else dict(gamma)
    step = 2.0 * beta * sd
    out = [Trials.from_traces({**config, "inequality": "r_t <= 2 β_t σ_{t−1}(x_t) for every t"}, runs, step,
                              step / EQ15_FACTOR, per_step=True)]
    for h, g in gammas.items():
        bound = chain_bound(h, alpha, beta[:, :h].max(axis=1), g, noise_var)
        regret = np.array([tr.cumulative[h - 1] for tr in runs])
        out.append(Trials.from_traces({**config, "inequality": "(15) with max β and greedy γ_T", "T": h}, runs,
                                      bound, bound / EQ15_FACTOR, horizon=h,
                                      extra={"max R_T / bound": float(np.max(regret / bound)),
                                             "mean R_T / bound": float(np.mean(regret / bound))}))
    return out


def chain_evidence(ctx: Context, result: SweepResult, *, env_params: dict[str, Any], alphas: tuple[float, ...],
                   delta: float, horizons: tuple[int, ...], what: str) -> tuple[Evidence, list[Any]]:
    """The Proof 2.4 chain (:func:`chain_trials`) on the GP-UCB runs of ``result`` (:func:`chain_sweep`), one
    configuration per α, with the uniform-random runs as the negative control, decided at 1 − δ/2.

    γ_h of (15) carries the UI noise Σ_h = diag(σ²(1 + (h − i)^α)): twice its greedy value (a lower bound on the
    maximum, so a success cannot come from a loose γ); the homoscedastic upper bound is reported. The widths GP-UCB
    records are cross-checked against :func:`ui_widths`, which also gives the control's.

    Parameters
    ----------
    ctx : Context
        The check's context.
    result : SweepResult
        The runs of :func:`chain_sweep` on ``env_params``, ``alphas`` and ``delta``.
    env_params : dict
        The I2 instance.
    alphas : tuple of float
        The exponents of the GP-UCB arms.
    delta : float
        The δ of eq. (12) and of the target 1 − δ/2.
    horizons : tuple of int
        The horizons (15) is read at (prefixes of the runs).
    what : str
        What is measured, for the summary.

    Returns
    -------
    Evidence
        The decision.
    list of Trace
        The GP-UCB runs.
    """
    env = make_env("rkhs-random-walk", env_params)
    noise_var = env_params["noise_var"]
    control_runs = result.runs(RANDOM.label)
    T = control_runs[0].T
    trials, controls, printed, gammas, agreement, gpucb_runs = [], [], {}, {}, {}, []
    for alpha in alphas:
        ui = {h: 2 * max_information_gain(env.kernel, env.grid, h, ui_noise_schedule(noise_var, alpha, h)).lower
              for h in horizons}
        hom = {h: 2 * max_information_gain(env.kernel, env.grid, h, noise_var).upper for h in horizons}
        gammas[f"alpha={alpha:g}"] = {"UI greedy (lower bound)": ui, "homoscedastic (e/(e−1)) upper": hom}
        runs = result.runs(gpucb_o1_label(alpha))
        gpucb_runs += runs
        sd = np.array([tr.meta["policy"]["widths"] for tr in runs], float)
        beta = np.array([tr.beta for tr in runs])
        check_sd, check_beta = ui_widths(runs[0].index, alpha, env_params, delta)
        agreement[f"alpha={alpha:g}"] = {
            "largest |σ recorded − σ recomputed|": float(np.max(np.abs(sd[0] - check_sd))),
            "largest |β recorded − β recomputed|": float(np.max(np.abs(beta[0] - check_beta)))}
        trials += chain_trials({"alpha": alpha, "T": T}, runs, sd, beta, alpha, ui, noise_var)
        widths = ctx.map(ui_widths_job, [(tr.index, alpha, env_params, delta) for tr in control_runs])
        controls += chain_trials({"control": RANDOM.label, "alpha": alpha, "T": T}, control_runs,
                                 np.array([w for w, _ in widths]), np.array([b for _, b in widths]), alpha, ui,
                                 noise_var)
        betas = np.array([[tr.beta[-1], tr.beta.max()] for tr in runs])
        printed[f"alpha={alpha:g}"] = {"runs with β_T < max_t β_t": int(np.sum(betas[:, 0] < betas[:, 1]))}
    ev = probabilistic_evidence(ctx, trials, target=1 - delta / 2, threshold=1.0, sharpened_threshold=0.0,
                                sharpening=f"the bounds divided by {EQ15_FACTOR:g} (β_t read as √β_t)",
                                what=what, score="(m − B')/(B − B')", controls=controls,
                                stats={"gamma_T": gammas, "printed_beta_T": printed, "environment": "rkhs-random-walk",
                                       "env_params": env_params, "delta": delta,
                                       "recorded against recomputed widths": agreement,
                                       "negative control events": [{**c.config, **c.extra} for c in controls]})
    return ev, gpucb_runs


# ----------------------------------------------------------------------- Eq. (15): non-vacuity horizon
#: the admissible instances searched for the earliest non-vacuity horizon of (15) (READING.md §wsparq:eq-15): grids
#: of I2's domain [0, 10], the SE lengthscale l (variance M_k² = 1 as in I2), the noise-and-drift scale σ², the
#: exponent α of Assumption 2, the confidence δ and the RKHS radius B of Assumption 1. δ and B enter through β_T
#: only, and the bound over the trivial bound falls as either grows (β_T/B tends to 1)
HORIZON_SEARCH: dict[str, tuple[float, ...]] = {
    "grid_points": (11, 51), "lengthscale": (1.0, 2.0, 4.0), "noise_var": (0.01, 0.1, 1.0, 10.0),
    "alpha": (0.0, 0.2, 1.0), "delta": (0.1, 1.0), "B": (1.0, 10.0, 100.0, 1000.0)}
#: γ_T is certified up to 2^10 points (past the runs' T and the earliest horizons), the spectral bound beyond: looser,
#: the horizon later (where a bound crosses 1 close to 2^10, the jump to the spectral bound can show as a spurious
#: crossing back, hence not a smaller ladder)
CERTIFIED_UP_TO = 2 ** 10
#: draws of an I2 function for the Monte Carlo range of the trivial bound
RANGE_SAMPLES = 2000


def i2_range(points: int, lengthscale: float, *, samples: int = RANGE_SAMPLES, seed: int = 0) -> SampleRange:
    """E[max f_t − min f_t] over the grid for instance I2 with ‖f_t‖_k = 1 (``rkhs-random-walk``), by Monte Carlo
    over the environment's own draws.

    Every f_t has the law of f_1: the random walk's coefficients w(t) are N(0, (1 + (t − 1) step²) I), whose scale
    the normalisation to ‖f_t‖_k = B removes, so f_t = B g/‖g‖_k with g = Σ_i w_i k(·, z_i), w ~ N(0, I) and
    centres z_i ~ U[0, 10] — a normalised kernel expansion, not a GP sample. Generator O1 changes the data behind
    each round, never f_t. The range is linear in B.

    Parameters
    ----------
    points : int
        Grid points of [0, 10].
    lengthscale : float
        The SE lengthscale.
    samples : int, optional
        Draws of f_t.
    seed : int, optional
        The seed of the draws.

    Returns
    -------
    SampleRange
        The mean range at B = 1, its standard error and ``lower`` = mean − 3 standard errors (errs low).
    """
    env = make_env("rkhs-random-walk", {**RANDOM_WALK, "grid_points": points, "lengthscale": lengthscale, "B": 1.0})
    rng = np.random.default_rng(seed)
    ranges = np.empty(samples)
    for i in range(samples):
        env.reset(rng, 1)
        f = env.function(1)
        ranges[i] = float(f.max() - f.min())
    mean, se = float(ranges.mean()), float(ranges.std(ddof=1) / math.sqrt(samples))
    return SampleRange(mean, se, mean - 3.0 * se, samples)


@lru_cache(maxsize=64)
def horizon_setting(points: int, lengthscale: float, noise_var: float,
                    ladder_max: int = CERTIFIED_UP_TO) -> tuple[GammaUpper, float]:
    """The upper bound on the (½-convention) γ_T of ``points`` points of [0, 10] under homoscedastic noise σ²
    (``GammaUpper``: certified up to ``ladder_max`` points, the spectral bound beyond) and the low end of I2's
    E[max f_t − min f_t] at B = 1 (:func:`i2_range`)."""
    grid = np.linspace(0.0, 10.0, points)[:, None]
    return (GammaUpper("se", grid, lengthscale=lengthscale, noise_var=noise_var, ladder_max=ladder_max),
            i2_range(points, lengthscale).lower)


def eq_15_curve(points: int, lengthscale: float, noise_var: float, alpha: float, delta: float, B: float, *,
                ladder_max: int = CERTIFIED_UP_TO) -> BoundCurve:
    """(15) on one admissible instance, as the runs read it (:func:`chain_bound`): √(β̄_T² · 2T · (1 + σ²T^α) · γ_T)
    against B T E[max f_t − min f_t] of I2.

    γ_T of (15) (a log-det ratio without ½, under the UI noise Σ_T = diag σ²(1 + (T − i)^α) >= σ²) is replaced by
    twice ``GammaUpper`` under the noise σ², an upper bound for every T points. β̄_T is eq. (12)
    (``confidence.beta_wsparq_from_log_det_ratio``) with its log-det ratio replaced by the same upper bound at T:
    at least β_t at every t <= T of any run (β_t's data are t − 1 points with variances >= σ²), hence at least the
    max_t β_t the check uses (β_t is not monotone under uncertainty injection). Both err high, the trivial bound
    errs low: the horizon errs late, never early.

    Parameters
    ----------
    points, lengthscale, noise_var, alpha, delta, B
        The instance: grid points of [0, 10], SE lengthscale, σ², Assumption 2's α, δ and Assumption 1's B.
    ladder_max : int, optional
        The largest T at which γ_T is certified (:func:`horizon_setting`).

    Returns
    -------
    BoundCurve
        The factors of (15) under its root and the trivial bound.
    """
    gamma, spread = horizon_setting(points, lengthscale, noise_var, ladder_max)

    def terms(T: float) -> dict[str, float]:
        g = 2.0 * gamma(T)
        beta = beta_wsparq_from_log_det_ratio(g, delta, B)
        return {"β_T²": beta * beta, "2T": 2.0 * T, "1 + σ²T^α": 1.0 + noise_var * T**alpha, "γ_T": g}

    return BoundCurve("(15)", terms, trivial=lambda T: B * spread * T, form="product",
                      instance={"grid points": points, "l": lengthscale, "σ²": noise_var, "α": alpha, "δ": delta,
                                "B": B},
                      errs={"γ_T": "twice GammaUpper under the noise σ² (at most the UI noise of (15)), certified up "
                                   f"to T = {ladder_max}, the spectral bound beyond: an upper bound, errs late",
                            "β_T": "eq. (12) with its log-det ratio at the same upper bound at T: at least max_t β_t "
                                   "of any run, errs late",
                            "trivial bound": f"B T times I2's Monte Carlo mean of max f_t − min f_t minus 3 "
                                             f"standard errors ({RANGE_SAMPLES} draws): errs low, the horizon late"})


def horizon_curves(search: dict[str, tuple[float, ...]] | None = None) -> list[BoundCurve]:
    """(15) on every instance of ``search`` (default :data:`HORIZON_SEARCH`; :func:`eq_15_curve`), in the search's
    order (grid points, l, σ², α, δ, B: the first of the instances tied at the earliest horizon is the one
    reported)."""
    search = HORIZON_SEARCH if search is None else search
    return [eq_15_curve(int(p), ell, s2, a, d, b) for p in search["grid_points"] for ell in search["lengthscale"]
            for s2 in search["noise_var"] for a in search["alpha"] for d in search["delta"] for b in search["B"]]


def eq_15_horizon(runs_reach: float, seconds: float | None, exponent: float,
                  search: dict[str, tuple[float, ...]] | None = None) -> tuple[dict[str, Any], Any]:
    """The earliest non-vacuity horizon of (15) over ``search`` (default :data:`HORIZON_SEARCH`), its record and
    figure factory; the record adds the factors of (15) at the horizon and the horizon at the runs' own set-up
    (:data:`RANDOM_WALK`, δ = :data:`DELTA`, B = :data:`B`) at each α of :data:`EQ15_ALPHAS`."""
    search = HORIZON_SEARCH if search is None else search
    keys = ("grid_points", "lengthscale", "noise_var", "alpha", "delta", "B")
    curves = horizon_curves(search)
    record, figure = horizon_record(curves, runs_reach, seconds, exponent,
                                    "(15): bound / B T E[max f_t − min f_t] on the earliest instances")
    record["searched class"] = {k: list(search[k]) for k in keys}
    if record["horizon"] is not None:
        best = next(c for c in curves if c.instance == record["instance"])
        record["factors at the horizon"] = best.terms(float(record["horizon"]))
    setup = {}
    for a in EQ15_ALPHAS:
        curve = eq_15_curve(RANDOM_WALK["grid_points"], RANDOM_WALK["lengthscale"], RANDOM_WALK["noise_var"], a,
                            DELTA, B)
        h = non_vacuity_horizon(curve, points=120)
        setup[f"α = {a:g}"] = {"horizon": h.horizon, "until": h.until, "ratio_at_horizon": h.ratio_at_horizon,
                               "dominant": h.dominant, "ratio at the runs' T": curve.ratio(runs_reach),
                               "ratio at T = 1e12": curve.ratio(1e12),
                               "cpu_seconds_to_reach": None if seconds is None else cost_to_reach(
                                   seconds, runs_reach, h.horizon, exponent)}
    record["at the runs' set-up"] = setup
    at_b = [c for c in curves if c.instance["B"] == B]
    if at_b:
        h, _ = earliest_horizon(at_b, points=120)
        record[f"earliest at B = {B:g}"] = {"horizon": h.horizon, "instance": h.instance,
                                            "ratio_at_horizon": h.ratio_at_horizon, "dominant": h.dominant}
    return record, figure


#: the instance where (15) says something earliest (:func:`eq_15_horizon` over :data:`HORIZON_SEARCH`; the first of
#: the instances tied at its horizon, in the search's order) and the horizons its runs are read at (the horizon,
#: twice and four times it): the instance that decides eq. (15). Keys as in :data:`HORIZON_SEARCH`
SEARCHED_15: dict[str, Any] = {"horizons": (50, 100, 200),
                               "setting": {"grid_points": 51, "lengthscale": 2.0, "noise_var": 1.0, "alpha": 0.0,
                                           "delta": 0.1, "B": 1000.0}}


def searched_env_params(setting: dict[str, float]) -> dict[str, Any]:
    """Instance I2 (:data:`RANDOM_WALK`: same centres, step and kernel family) at a searched ``setting``: its grid of
    [0, 10], SE lengthscale, σ² (the environment's noise variance, which generator O1 and GP-UCB's model of eq. (8)
    read) and ‖f_t‖_k = B."""
    return {**RANDOM_WALK, "grid_points": int(setting["grid_points"]), "lengthscale": float(setting["lengthscale"]),
            "noise_var": float(setting["noise_var"]), "B": float(setting["B"])}


def searched_sweep(fidelity: str, seed: int) -> Sweep:
    """:func:`chain_sweep` at :data:`SEARCHED_15`: GP-UCB with β_t of eq. (12) at the instance's B and δ under
    generator O1 at its α, and uniform random play, run to the longest horizon read."""
    setting = SEARCHED_15["setting"]
    return chain_sweep(fidelity, seed, searched_env_params(setting), (setting["alpha"],), setting["delta"],
                       max(SEARCHED_15["horizons"]), "wsparq proof 2.4 eq. (15) searched instance")


def searched_text() -> str:
    """The searched instance as the summary names it."""
    return ", ".join(f"{k} = {v:g}" for k, v in SEARCHED_15["setting"].items())


@claim("wsparq:eq-15")
def eq_15(ctx: Context) -> Evidence:
    """The chain of Proof 2.4 on GP-UCB runs under generator O1 on instance I2: (i) r_t ≤ 2β_t σ_{t−1}(x_t) at every t,
    with the recorded σ_{t−1}(x_t) cross-checked; (ii) Eq. (15) with the running maximum of β and γ_T replaced by twice
    the greedy gain under the UI noise (a lower bound). Each event is tested against 1 − δ/2, and is vacuous where never
    below its runs' trivial bound; uniform random play is the negative control. Power: both bounds shrunk by the
    β-versus-√β factor must be refuted. Decided at the searched instance where (15) says something earliest
    (:data:`SEARCHED_15`, read at its horizon, twice and four times it); the paper's set-up (:data:`RANDOM_WALK`,
    α of :data:`EQ15_ALPHAS`) is run too and can still refute it. The non-vacuity horizon of (15) over
    :data:`HORIZON_SEARCH` is attached (:func:`eq_15_horizon`). Full reading: READING.md §wsparq:eq-15."""
    T = chain_horizon(ctx.fidelity)
    sweep = chain_sweep(ctx.fidelity, ctx.seed)
    result = run_audited_sweep(sweep, cache=ctx.cache, executor=ctx.executor, progress=False)
    paper, gpucb_runs = chain_evidence(ctx, result, env_params=RANDOM_WALK, alphas=EQ15_ALPHAS, delta=DELTA,
                                       horizons=(T,), what=f"Proof 2.4 chain on GP-UCB runs (O1), T = {T}")
    setting = SEARCHED_15["setting"]
    at = searched_sweep(ctx.fidelity, ctx.seed)
    searched, _ = chain_evidence(ctx, run_audited_sweep(at, cache=ctx.cache, executor=ctx.executor, progress=False),
                                 env_params=at.env_params, alphas=(setting["alpha"],), delta=setting["delta"],
                                 horizons=tuple(SEARCHED_15["horizons"]),
                                 what=f"Proof 2.4 chain on GP-UCB runs (O1), T = {at.horizons[0]}")
    ev = searched_instance_evidence(searched, paper, searched_text())
    ev.stats["paper set-up statistics"] = paper.stats
    # one GP-UCB run's CPU seconds at T and at T/2 (the traces' per-round seconds): its rounds cost
    # O(t + |U|³ + |U|²G) (bandits.hetero), so the growth in T is measured rather than assumed
    seconds = float(np.mean([np.sum(tr.seconds) for tr in gpucb_runs]))
    half = float(np.mean([np.sum(tr.seconds[: T // 2]) for tr in gpucb_runs]))
    return with_horizon(ev, "(15)", *eq_15_horizon(float(T), seconds, math.log2(seconds / half)))


# --------------------------------------------------------------------------------------- Remark 2.5
def index_noise_sweep(alpha: float, fidelity: str, seed: int) -> Sweep:
    """GP-UCB with the noise variances σ² t^α of the observations on a static I2 function observed with those
    variances, on the rate ladder."""
    return Sweep(f"wsparq remark 2.5 alpha={alpha:g}", (gpucb_arm(alpha, "index"),), "index-noise",
                 ladder(fidelity), repetitions(fidelity), env_params={**INDEX_NOISE, "alpha": alpha}, seed=seed)


@claim("wsparq:remark-2.5")
def remark_2_5(ctx: Context) -> Evidence:
    """Remark 2.5: only an upper bound v_t = O(t^α) on the noise variance is used, so rate (13) holds without drift.
    Runs: a static I2 function observed at round t with noise variance σ² t^α (``index-noise``), GP-UCB told those
    variances with β of Eq. (12); exponents, ladder, repetitions, control and decision as in ``wsparq:proposition-2.2``,
    with a shorter lengthscale so that the power can show. Power: polylogarithmic regret (exponent 0) must be refuted.
    Full reading: READING.md §wsparq:remark-2.5."""
    sweeps = {a: index_noise_sweep(a, ctx.fidelity, ctx.seed) for a in small_alphas(ctx.fidelity)}
    return rates_over_alphas(ctx, sweeps, what="GP-UCB regret with a variance proxy σ² t^α (Remark 2.5)")
