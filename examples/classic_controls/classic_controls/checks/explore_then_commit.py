"""Lattimore & Szepesvári (2020), Theorem 6.1: the regret of explore-then-commit, decided from runs."""

from __future__ import annotations

from tvbo_verify.authoring import Arm, Context, Evidence, RateMeasurement, Sweep, claim, rate_evidence, run_sweep

from .. import bandits  # noqa: F401  (registers the policy and the environment of the runs)

#: the horizons n: three over one decade at quick fidelity, five over 1.5 decades at full
HORIZONS = {"quick": (2000, 6300, 20000), "full": (2000, 4800, 12000, 30000, 64000)}
EXPONENT = 2 / 3


@claim("lattimore2020:etc-rate")
def etc_rate(ctx: Context) -> Evidence:
    """Explore-then-commit with m = ceil(n^(2/3)) on three Gaussian arms (means 0, −0.3, −0.6, noise variance
    1), 10 runs per horizon (40 at full): the bootstrap interval of the log–log slope of R_n / n^(2/3) must
    show no growth. Theorem 6.1 bounds R_n by m Σ Δ_i + n Σ Δ_i exp(−mΔ_i²/4) = O(n^(2/3)) for this m.
    Power: the exponent lowered by 1/6 (R_n = O(√n), what ETC reaches when the gaps are known) must be
    refuted, and the check must resolve n^(2/3) from linear regret and from √n. Negative control: a uniformly
    random policy on the same runs (linear regret) must break the rate."""
    sweep = Sweep("lattimore2020 explore-then-commit", (Arm("ETC", "explore-then-commit"), Arm("random", "random")),
                  "gaussian-arms", HORIZONS[ctx.fidelity], reps=ctx.pick(10, 40), seed=ctx.seed)
    runs = run_sweep(sweep, cache=ctx.cache, executor=ctx.executor, progress=False)
    measured = RateMeasurement.from_sweep(runs, "ETC", exponent=EXPONENT, xlabel="n", misreading=1 / 2,
                                          misreading_label="the known-gap rate √n")
    control = RateMeasurement.from_sweep(runs, "random", exponent=EXPONENT, xlabel="n")
    return rate_evidence(ctx, measured, lowered_by=1 / 6, what="ETC regret with m = ceil(n^(2/3))",
                         controls=[control])
