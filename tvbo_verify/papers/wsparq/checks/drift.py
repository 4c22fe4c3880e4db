"""``wsparq`` uncertainty injection: Assumption 2 (Eqs. (7)–(8)), Example 2.1 and the cumulative variance
V_T of the paper's Sec. 2.2.2 (READING.md §2.3; §3.4; §5.2; §5.3; §5.5).

Path-consistent drift is the toolkit's generator of ``bandits.environments.UncertaintyInjectionDrift``:
``f_t(x) = f_0(x) + σ W_t`` with ``W`` a fractional Brownian motion of Hurst ``α/2`` (exact circulant
sampling, ``fractional_gaussian_noise``), so ``Var(f_{t+g}(x) − f_t(x)) = σ² g^α`` for ``0 < α <= 2``.

* ``wsparq:assumption-2`` — the drift increments ``v_{t1,t2}`` are independent across all pairs of times.
* ``wsparq:assumption-2+corrected`` — the marginal variance of (8), ``σ²(1 + (t2 − t1)^α)``.
* ``wsparq:example-2.1`` / ``+corrected`` — uniform-step drift has variance ``σ²(1 + gap/3)`` as printed,
  ``σ² + gap·σ⁴/3`` corrected.
* ``wsparq:v-t`` / ``+corrected`` — the cumulative variance ``V_T = Σ_t σ²(1 + (T − t)^α)``: leading
  constant 1 as printed; the expansion ``σ² T^{α+1}/(α+1) + O(T + T^α)`` corrected.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import mpmath
import numpy as np
from scipy import stats as sps

from tvbo_verify.authoring import (
    Comparison,
    Context,
    Evidence,
    Params,
    Statement,
    Trials,
    claim,
    exact_evidence,
    probabilistic_evidence,
)
from tvbo_verify.bandits.environments.gpsample import fractional_gaussian_noise
from tvbo_verify.theory import derivations as dv
from tvbo_verify.theory.lower_bounds import cumulative_variance

#: two-sided 1% critical value of a standard normal: the acceptance threshold of the tests below
Z_99 = float(sps.norm.ppf(0.995))
#: two-sided 0.5% critical value: the threshold of the larger of two standardised statistics (about 1% in all)
Z_995 = float(sps.norm.ppf(0.9975))


def drift_paths(rng: np.random.Generator, alpha: float, sigma: float, horizon: int, paths: int) -> np.ndarray:
    """``paths`` independent drifts ``f_t(x) − f_0(x) = σ W_t`` at one input, ``t = 1..horizon`` (paths × T)."""
    return sigma * np.cumsum(fractional_gaussian_noise(rng, horizon, alpha, paths), axis=1)


def increment_independence(args: tuple) -> float:
    """Fisher z statistic ``|atanh r| √(n − 3)`` of the sample correlation of two drift increments over
    ``paths`` drifts; |N(0, 1)| distributed when the increments are independent (module level, for ``ctx.map``)."""
    seed, alpha, sigma, first, second, paths = args
    F = drift_paths(np.random.default_rng(seed), alpha, sigma, max(first[1], second[1]), paths)
    F = np.hstack([np.zeros((paths, 1)), F])  # f_0 − f_0 = 0 at t = 0
    v1 = F[:, first[0]] - F[:, first[1]]  # v_{t1,t2} = f_{t1} − f_{t2}
    v2 = F[:, second[0]] - F[:, second[1]]
    r = float(np.corrcoef(v1, v2)[0, 1])
    return abs(math.atanh(max(min(r, 1 - 1e-15), -1 + 1e-15))) * math.sqrt(paths - 3)


def injected_variance_test(args: tuple) -> float:
    """Largest standardised deviation of ``y_s − f_τ(x)`` from the law of (8) over ``draws`` drifts and
    observation noises: ``max(|mean|/√(V/n), |s²/V − 1|/√(2/(n − 1)))`` with ``V = σ²(1 + (τ − s)^α)``."""
    seed, alpha, sigma, s, tau, draws = args
    rng = np.random.default_rng(seed)
    return injected_variance_statistic(rng, alpha, sigma, s, tau, draws)


def injected_variance_batch(args: tuple) -> list[float]:
    """:func:`injected_variance_test` for ``reps`` repetitions, each from its own child of ``seed``."""
    seed, alpha, sigma, s, tau, draws, reps = args
    return [injected_variance_statistic(np.random.default_rng(child), alpha, sigma, s, tau, draws)
            for child in seed.spawn(reps)]


def injected_variance_statistic(rng: np.random.Generator, alpha: float, sigma: float, s: int, tau: int,
                                draws: int) -> float:
    F = drift_paths(rng, alpha, sigma, tau, draws)
    noise = sigma * rng.standard_normal(draws)
    err = F[:, s - 1] + noise - F[:, tau - 1]  # y_s − f_τ(x)
    V = sigma**2 * (1.0 + (tau - s) ** alpha)
    mean_z = abs(float(err.mean())) / math.sqrt(V / draws)
    var_z = abs(float(err.var(ddof=1)) / V - 1.0) / math.sqrt(2.0 / (draws - 1))
    return max(mean_z, var_z)


#: pairs of times (t1, t2): a shared start, and disjoint intervals (independent only for Brownian drift)
INCREMENT_PAIRS = {"shared start": ((1, 3), (1, 6)), "disjoint": ((1, 3), (4, 6))}


@claim("wsparq:assumption-2")
def assumption_2(ctx: Context) -> Evidence:
    """Assumption 2, Eq. (7): the drift increments v_{t1,t2} = f_{t1}(x) − f_{t2}(x) are independent across all pairs of
    times. Measured on path-consistent fractional-Brownian drifts, whose increments have exactly the stated variance
    σ²(t2 − t1)^α, for a pair sharing a start and a disjoint pair: a repetition computes the Fisher z statistic of their
    sample correlation over many drifts, and the frequency with which an independence test accepts is tested per
    configuration (Clopper–Pearson). Power: a stricter acceptance threshold must be refuted. Full reading: READING.md
    §wsparq:assumption-2."""
    R, paths = ctx.pick(100, 300), 400
    trials = []
    for alpha in (0.5, 1.0, 1.5):
        for label, (first, second) in INCREMENT_PAIRS.items():
            jobs = [(seed, alpha, 1.0, first, second, paths) for seed in ctx.seeds(R)]
            scores = ctx.map(increment_independence, jobs)
            trials.append(Trials({"alpha": alpha, "pair": label, "first": str(first), "second": str(second)}, scores))
    return probabilistic_evidence(ctx, trials, target=0.95, threshold=Z_99,
                                  sharpening="acceptance threshold divided by 3",
                                  sharpened_threshold=Z_99 / 3, what="independence of drift increments",
                                  score="Fisher z of corr(v, v')", stats={"paths_per_repetition": paths})


@claim("wsparq:assumption-2+corrected")
def assumption_2_corrected(ctx: Context) -> Evidence:
    """What Eq. (8) needs of Assumption 2: y_s − f_τ(x) is centred with variance σ²(1 + (τ − s)^α). Measured on the
    toolkit's path-consistent fractional-Brownian drift plus N(0, σ²) noise (under generator O1 the law holds by
    construction) over a grid of α, σ and gaps: a repetition takes the larger standardised deviation of the sample mean
    from 0 and of the sample variance from the stated one, and its acceptance frequency is tested per configuration.
    Power: a stricter acceptance threshold must be refuted. Full reading: READING.md §wsparq:assumption-2+corrected."""
    R, draws, s = ctx.pick(150, 400), ctx.pick(1000, 2000), 2
    configs = [(a, sg, gap) for a in (0.5, 1.0, 1.5, 2.0) for sg in (0.1, 1.0) for gap in (1, 5, 20)]
    if ctx.quick:
        configs = [(a, 1.0, gap) for a in (0.5, 1.0, 2.0) for gap in (1, 20)] + [(1.5, 0.1, 5)]
    seeds = ctx.seeds(len(configs))
    jobs = [(seed, alpha, sigma, s, s + gap, draws, R) for (alpha, sigma, gap), seed in zip(configs, seeds)]
    scores = ctx.map(injected_variance_batch, jobs)
    trials = [Trials({"alpha": a, "sigma": sg, "gap": gap}, row) for (a, sg, gap), row in zip(configs, scores)]
    return probabilistic_evidence(ctx, trials, target=0.95, threshold=Z_995,
                                  sharpening="acceptance threshold divided by 3",
                                  sharpened_threshold=Z_995 / 3, what="variance σ²(1 + gap^α) of y_s − f_τ(x)",
                                  score="standardised deviation", stats={"draws_per_repetition": draws})


class UniformStepDrift:
    """Example 2.1: ``f_{t+1}(x) = f_t(x) + v_t``, ``v_t ~ U(−σ², σ²)`` i.i.d., observed with N(0, σ²) noise."""

    @staticmethod
    def variance(sigma: float, gap: int) -> float:
        """``Var[Σ_{t=t1}^{t2−1} v_t + ε_{t1}]``, the sum of the variances of independent terms (scipy.stats)."""
        step = sps.uniform(loc=-sigma**2, scale=2 * sigma**2).var()
        return gap * float(step) + float(sps.norm(0.0, sigma).var())

    @staticmethod
    def variance_mp(sigma: Any, gap: int) -> Any:
        """The same at the current mpmath precision: the step variance by quadrature of u² over U(−a, a)."""
        a = mpmath.mpf(sigma) ** 2
        step = mpmath.quad(lambda u: u * u / (2 * a), [-a, a])
        return gap * step + mpmath.mpf(sigma) ** 2

    @staticmethod
    def monte_carlo(rng: np.random.Generator, sigma: float, gap: int, draws: int) -> float:
        v = rng.uniform(-sigma**2, sigma**2, (draws, gap)).sum(axis=1)
        return float(np.var(v + rng.normal(0.0, sigma, draws), ddof=1))


class BrownianDriftVariance(Statement):
    """The variance of Example 2.1 against a stated formula (printed or corrected, per ``printed``)."""

    plot_against = "sigma"

    def __init__(self, printed: bool, **fields: Any) -> None:
        self.printed = printed
        super().__init__(**fields)

    def stated(self, sigma: Any, gap: int, sharpened: bool) -> Any:
        if self.printed:  # σ²(1 + gap/3); sharpened: σ²(1 + gap/12), the U(0, a) variance a²/12 misapplied
            return sigma**2 * (1 + gap / (12 if sharpened else 3))
        return sigma**2 * (1 + gap / 3) if sharpened else sigma**2 + gap * sigma**4 / 3

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        value = UniformStepDrift.variance(p["sigma"], int(p["gap"]))
        return Comparison(value, self.stated(p["sigma"], int(p["gap"]), sharpened), "==", tol=1e-12 * value,
                          scale=value)

    def hp(self, p: Params) -> Comparison:
        value = UniformStepDrift.variance_mp(p["sigma"], int(p["gap"]))
        return Comparison(value, self.stated(mpmath.mpf(p["sigma"]), int(p["gap"]), False), "==",
                          tol=mpmath.mpf("1e-12") * value, scale=value)

    def sample(self, rng: np.random.Generator) -> Params:
        sigma = float(rng.choice([0.5, 1.0, 2.0])) if rng.random() < 0.5 else float(rng.uniform(0.1, 3.0))
        return {"sigma": sigma, "gap": int(rng.integers(1, 101))}

    def shrink(self, p: Params) -> list[Params]:
        return [{**p, "gap": 1}, {**p, "sigma": 2.0}, {**p, "sigma": 0.5}]


EXAMPLE_21 = BrownianDriftVariance(True, name="Var[Σ v_t + ε] = σ²(1 + (t2 − t1)/3) for v_t ~ U(−σ², σ²)",
                                   sharpening="the variance of U(−a, a) read as a²/12 (σ²(1 + gap/12))")
EXAMPLE_21_CORRECTED = BrownianDriftVariance(False, name="Var[Σ v_t + ε] = σ² + (t2 − t1) σ⁴/3 for v_t ~ U(−σ², σ²)",
                                             sharpening="the printed σ²(1 + gap/3)")
EXAMPLE_RANDOM = (40, 200)


def example_monte_carlo(ctx: Context) -> list[dict[str, Any]]:
    rng = ctx.spawn(1)[0]
    return [{"sigma": s, "gap": g, "monte carlo variance (1e5 draws)": UniformStepDrift.monte_carlo(rng, s, g, 100_000),
             "σ² + gap σ⁴/3": s**2 + g * s**4 / 3, "σ²(1 + gap/3)": s**2 * (1 + g / 3)}
            for s in (0.5, 1.0, 2.0) for g in (1, 10)]


@claim("wsparq:example-2.1")
def example_2_1(ctx: Context) -> Evidence:
    """Example 2.1: uniform steps v_t ~ U(−σ², σ²) are claimed to give Var[ε_{t1,t2}] = σ²(1 + (t2 − t1)/3). The exact
    variance of the sum of independent terms (``scipy.stats``) is compared with the printed value on random σ and gaps;
    breaks are refereed in high precision (step variance by quadrature) and shrunk, and a Monte Carlo table is reported.
    Power: Var U(−a, a) read as a²/12 must be caught where the printed formula holds (σ = 1). Full reading: READING.md
    §wsparq:example-2.1."""
    ev = exact_evidence(ctx, EXAMPLE_21, n_random=ctx.pick(*EXAMPLE_RANDOM), n_starts=0,
                        what="uniform-step drift variance as printed")
    ev.stats["monte_carlo"] = example_monte_carlo(ctx)
    return ev


@claim("wsparq:example-2.1+corrected")
def example_2_1_corrected(ctx: Context) -> Evidence:
    """The corrected variance of Example 2.1, σ² + (t2 − t1)σ⁴/3: linear in the gap, so UI with α = 1 and drift scale
    σ²/3 in place of σ². Compared with the exact variance on the instances of ``wsparq:example-2.1``, then its own
    random ones, refereed in high precision; a Monte Carlo table is reported. Power: the printed σ²(1 + gap/3) must be
    caught where σ ≠ 1. Full reading: READING.md §wsparq:example-2.1+corrected."""
    from . import twin_instances

    twins = twin_instances(ctx, "wsparq:example-2.1", EXAMPLE_21, ctx.pick(*EXAMPLE_RANDOM))
    ev = exact_evidence(ctx, EXAMPLE_21_CORRECTED, n_random=ctx.pick(*EXAMPLE_RANDOM), n_starts=0, extra=twins,
                        what="uniform-step drift variance corrected")
    ev.stats["monte_carlo"] = example_monte_carlo(ctx)
    return ev


def power_sum_mp(T: int, alpha: Any) -> Any:
    """``T + Σ_{k=1}^{T−1} k^α`` (= ``V_T/σ²`` with age-0 variance σ²) by the Hurwitz zeta, at the current
    mpmath precision: ``Σ_{k=1}^{T−1} k^α = ζ(−α) − ζ(−α, T)``."""
    a = mpmath.mpf(alpha)
    return T + (mpmath.zeta(-a) - mpmath.zeta(-a, T))


class CumulativeVarianceExpansion(Statement):
    """|V_T/σ² − T^{α+1}/(α+1)| <= T + T^α (integral comparison of Σ_{k<T} k^α)."""

    name = "|V_T/σ² − T^(α+1)/(α+1)| <= T + T^α"
    sharpening = "remainder bound halved, (T + T^α)/2"
    plot_against = "T"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        T, a = int(p["T"]), p["alpha"]
        v = cumulative_variance(T, a, 1.0, zero_power="zero")
        lead = T ** (a + 1) / (a + 1)
        bound = T + T**a
        return Comparison(abs(v - lead), bound / 2 if sharpened else bound, "<=", scale=lead)

    def hp(self, p: Params) -> Comparison:
        T, a = int(p["T"]), mpmath.mpf(p["alpha"])
        lead = mpmath.mpf(T) ** (a + 1) / (a + 1)
        return Comparison(abs(power_sum_mp(T, a) - lead), T + mpmath.mpf(T) ** a, "<=", scale=lead)

    def sample(self, rng: np.random.Generator) -> Params:
        return {"alpha": float(rng.uniform(0.05, 4.0)), "T": int(10 ** rng.uniform(1, 6))}

    def shrink(self, p: Params) -> list[Params]:
        return [{**p, "T": T} for T in (10, 100, 1000) if T < p["T"]]


VT_CORRECTED = CumulativeVarianceExpansion()


def derived_leading_constant() -> tuple[Callable[..., float], Callable[..., Any]]:
    """``α -> lim V_T/(σ² T^{α+1})`` from the sympy derivation ``wsparq-VT`` (α > 0): float and mpmath."""
    return dv.derived_functions("wsparq-VT")


class LeadingConstant(Statement):
    """V_T = σ² T^{α+1} + o(T^{α+1}), i.e. lim V_T/(σ² T^{α+1}) = 1, split into its two inequalities."""

    name = "lim V_T/(σ² T^(α+1)) = 1 (V_T = σ² T^(α+1) + o(T^(α+1)), as printed)"
    sharpening = "upper part with the leading constant halved (lim <= 1/2)"
    plot_against = "alpha"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        limit = derived_leading_constant()[0](p["alpha"])
        if p["part"] == "upper":  # V_T <= (1 + o(1)) σ² T^{α+1}
            return Comparison(limit, 0.5 if sharpened else 1.0, "<=")
        return Comparison(limit, 1.0, ">=")  # V_T >= (1 − o(1)) σ² T^{α+1}

    def hp(self, p: Params) -> Comparison:
        limit = derived_leading_constant()[1](mpmath.mpf(p["alpha"]))
        return Comparison(limit, 1, "<=" if p["part"] == "upper" else ">=")

    def sample(self, rng: np.random.Generator) -> Params:
        return {"part": ("upper", "lower")[int(rng.integers(2))], "alpha": float(10 ** rng.uniform(-2, 0.6))}

    def shrink(self, p: Params) -> list[Params]:
        return [{**p, "alpha": 1.0}]

    def describe(self, p: Params) -> dict[str, Any]:
        T = 10**6
        return {**p, "V_T/(σ²T^(α+1)) at T = 1e6": cumulative_variance(T, p["alpha"], 1.0, zero_power="zero")
                / T ** (p["alpha"] + 1)}


VT_PRINTED = LeadingConstant()


@claim("wsparq:v-t")
def v_t(ctx: Context) -> Evidence:
    """The paper's Sec. 2.2.2: V_T = Σ_t σ²(1 + (T − t)^α) = σ²T^{α+1} + o(T^{α+1}), i.e. lim V_T/(σ²T^{α+1}) = 1,
    checked as its two inequalities for random α > 0. The limit is the sympy derivation 'wsparq-VT'
    (``theory.derivations``); the exact V_T at a large T (``theory.lower_bounds.cumulative_variance``, age-0 variance
    σ²) and the value at α = 0 are listed beside it. Breaks are refereed in mpmath and shrunk. Power: the upper part
    with a smaller constant must be caught. Full reading: READING.md §wsparq:v-t."""
    ev = exact_evidence(ctx, VT_PRINTED, n_random=ctx.pick(40, 200), n_starts=0, what="leading constant of V_T")
    ev.stats["alpha=0"] = {"V_T/(σ²T) at T = 1e6": cumulative_variance(10**6, 0.0, 1.0, zero_power="zero") / 10**6}
    return ev


@claim("wsparq:v-t+corrected")
def v_t_corrected(ctx: Context) -> Evidence:
    """The corrected expansion V_T = σ²T^{α+1}/(α+1) + O(T + T^α), checked as the explicit remainder bound
    |V_T/σ² − T^{α+1}/(α+1)| ≤ T + T^α (integral comparison) with the exact V_T
    (``theory.lower_bounds.cumulative_variance``) on random α and T. Breaks are refereed with the Hurwitz zeta in
    mpmath. Power: a tighter remainder bound must be caught. Full reading: READING.md §wsparq:v-t+corrected."""
    return exact_evidence(ctx, VT_CORRECTED, n_random=ctx.pick(40, 200), n_starts=0, what="V_T expansion")
