"""Claim checks: ``claims/<paper>/<topic>.py``, found by ``pkgutil`` (importing a module registers its checks).

How a claim is written
======================

Pick the id from the claim list (``tvbo-verify list``). ``ref``, ``kind``, expectation and title
come from there; the code names only the id. The check's docstring is the *method* shown in the
report: what is measured, on which instances, how it is decided, and the sharpened statement.
Measure with the toolkit (``kernels``, ``gp``, ``information``, ``confidence``, ``nystrom``, ``dpp``,
``divergences``, ``theory.*``, ``bandits``, ``sweeps``); a number from a paper appears only as the
statement under test. mpmath twins of toolkit functions live next to those functions or in
:mod:`tvbo_verify.verify.referee`, never inside a claim. Randomness comes from ``ctx.rng``;
repetitions from ``ctx.spawn(n)`` / ``ctx.seeds(n)`` (never ``ctx.rng.integers(2**31)``), run with
``ctx.map`` on module-level functions; sizes from ``ctx.pick(quick, full)``. Runs of the sweep harness
go through the context's run cache and executor, ``run_audited_sweep(sweep, cache=ctx.cache,
executor=ctx.executor, progress=False)`` (never a cache of its own, never an environment variable), which
first replays each method against its definition (:mod:`tvbo_verify.sweeps.audit`).

Every kind has one builder (:mod:`tvbo_verify.verify.builders`) that decides by the rules of
:mod:`tvbo_verify.verify.stats` and fills the instance table, summary, power and replay record.
A sharpening is a *different, plausible statement on the same measurement* — a misread convention
(½ log det vs log det, β vs √β, an index shifted by one), a lowered exponent, a divided constant —
never a perturbation of the measured side (:class:`~tvbo_verify.verify.comparison.SharpeningError`).

exact — a :class:`~tvbo_verify.verify.statement.Statement` and :func:`exact_evidence`::

    class ResidualTraceIsMonotone(Statement):
        name = "tr(K~ - U~) <= tr(K - U)"                     # unique: replay finds the statement by it
        sharpening = "bound halved"
        continuous = ("X",)                                    # what Nelder–Mead may move
        bounds = {"X": (0.0, 10.0)}

        def sample(self, rng): return {"X": rng.uniform(0, 10, 5).tolist(), "S": [0, 1]}
        def evaluate(self, p, sharpened=False):
            bound = residual_trace(K(p), p["S"])
            return Comparison(residual_trace(Ktilde(p), ...), bound / 2 if sharpened else bound, "<=")
        def hp(self, p):                                       # the 50-digit referee of a break
            return Comparison(residual_trace_mp(...), residual_trace_mp(...), "<=")

    LEMMA_38 = ResidualTraceIsMonotone()

    @claim("wsparq:lemma-3.8")
    def lemma_3_8(ctx):
        \"\"\"Method ...\"\"\"
        return exact_evidence(ctx, LEMMA_38, n_random=ctx.pick(120, 600), n_starts=2)

probabilistic — one score per repetition and configuration, :func:`probabilistic_evidence`::

    scores = ctx.map(worst_band_ratio, [(seed, alpha) for seed in ctx.seeds(R)])   # |μ − f| / (β σ) over a run
    return probabilistic_evidence(ctx, [Trials({"alpha": alpha}, scores)], target=1 - delta, threshold=1.0,
                                  sharpening="β_t divided by 3", sharpened_threshold=1 / 3, what="band")

A regret bound measured on runs is built from the traces, so that the builder compares it with the most
regret any policy could incur on those runs (Σ_t max f_t − min f_t, recorded by the runner) and declares
it vacuous where no run could break it; negative controls are the same event on runs of a policy that
cannot satisfy it (``tvgpucb/regret_bounds.py`` is the worked example)::

    trials = [Trials.from_traces({"epsilon": e, "T": T}, runs, bound, sharpened_bound) for ...]
    controls = [Trials.from_traces({"control": "greedy", "epsilon": e, "T": T}, greedy_runs, bound_g, sharp_g)]
    return probabilistic_evidence(ctx, trials, target=1 - delta, threshold=1.0, sharpened_threshold=0.0,
                                  sharpening="√T dropped", controls=controls, what="regret bound")

rate — a :class:`RateMeasurement` on a ladder spanning a decade (1.5 at full), :func:`rate_evidence`; from
runs it needs a negative control and must resolve its exponent from linear regret and from its nearest
misreading (``tvgpucb/regret_rates.py``)::

    m = RateMeasurement.from_sweep(result, "SparQ-GP-UCB", exponent=0.5, polylog=1.5, misreading=0.75,
                                   misreading_label="the dropped square root")
    control = RateMeasurement.from_sweep(result, "uniform random", exponent=0.5)
    return rate_evidence(ctx, m, lowered_by=0.25, controls=[control], what="SparQ regret")

    # a rate in a transform of the size (x = log T) counts its ladder's decades in T:
    RateMeasurement(x=np.log(horizons), measured=gain, exponent=2, size=horizons, size_label="T", ...)

experiment — the reproduction's finding as properties; an ordering of methods needs a control arm (over the
constants a paper leaves open, the control runs in the reproduction's sweeps: ``tvgpucb/experiments.py``)::

    def decide(finding, runs):
        return [ordering_property(name, comp, control=runs.comparison(name, "R-GP-UCB")) for ...]
    return experiment_evidence(ctx, "tvgpucb:figure-2ab", decide, what="...", control=Arm("random", "random"))

ingredient / algorithm — named :class:`Property` items, :func:`properties_evidence`::

    props = [Property.compare("queries per window", Comparison(measured_queries, stated_queries, "=="),
                              sharpened=Comparison(measured_queries, stated_queries + 1, "=="))]
    return properties_evidence(ctx, props, what="W-SparQ queries",
                               mutants={"window one step too long": mutant_props})

A check never reads the expectation. Where its honest measurement contradicts the claim list, keep
the check and record the evidence in the ``disagreement`` column of ``claims.csv``.
"""
