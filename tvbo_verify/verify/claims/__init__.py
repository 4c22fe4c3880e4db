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
go through the context's run cache and executor, ``run_sweep(sweep, cache=ctx.cache,
executor=ctx.executor, progress=False)`` (never a cache of its own, never an environment variable).

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

rate — a :class:`RateMeasurement` on a ladder of horizons, :func:`rate_evidence`::

    m = RateMeasurement(x=horizons, measured=regret, exponent=0.5, polylog=1.5, label="R_T")
    return rate_evidence(ctx, m, lowered_by=0.25, what="SparQ regret")

    # a rate in a transform of the size (x = log T) counts its ladder's decades in T:
    RateMeasurement(x=np.log(horizons), measured=gain, exponent=2, size=horizons, size_label="T", ...)

ingredient / algorithm / experiment — named :class:`Property` items, :func:`properties_evidence`::

    props = [Property.compare("queries per window", Comparison(measured_queries, stated_queries, "=="),
                              sharpened=Comparison(measured_queries, stated_queries + 1, "=="))]
    return properties_evidence(ctx, props, what="W-SparQ queries",
                               mutants={"window one step too long": mutant_props})

A check never reads the expectation. Where its honest measurement contradicts the claim list, keep
the check and record the evidence in the ``disagreement`` column of ``claims.csv``.
"""
