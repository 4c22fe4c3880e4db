"""Claim checks, one module per paper; importing a module registers its checks.

How a check is written
----------------------
1. Pick the id from ``tvbo_verify/verify/claims.csv`` (``tvbo-verify list``); the kind must match.
2. Decorate ``check(ctx: Context) -> Evidence`` with ``@claim(id, ref=..., kind=...)``. Its docstring is
   the *method* shown in the report: what is measured, on which instances, how it is decided, and the
   sharpened statement used for power.
3. Measure with the toolkit (``kernels``, ``gp``, ``information``, ``confidence``, ``nystrom``, ``dpp``,
   ``divergences``, ``theory.*``, ``bandits``); never re-derive their numerics in the check. Numbers
   from a paper may appear only as the statement under test.
4. Decide with :mod:`tvbo_verify.verify.stats` only:

   * exact: describe the inequality as a :class:`~tvbo_verify.verify.search.Statement`
     (``evaluate`` in float64, ``hp`` in mpmath for the referee, ``sample``, optional ``continuous``
     parameters for the adversarial search, ``shrink``, ``sharpen``) and return
     :func:`~tvbo_verify.verify.search.exact_evidence`; register ``check.replayer(replay_statement(st))``
     so that ``tvbo-verify replay`` works. Equalities are written as ``|a − b| <= tolerance``.
   * probabilistic: :func:`~tvbo_verify.verify.stats.decide_probabilistic` on success counts and
     :func:`~tvbo_verify.verify.stats.probabilistic_power` on the sharpened event;
   * rate: :func:`~tvbo_verify.verify.stats.decide_rate` on ``measured / bound`` (repetitions × sizes)
     and :func:`~tvbo_verify.verify.stats.rate_power`;
   * ingredient / algorithm / experiment: :func:`~tvbo_verify.verify.stats.decide_all` on named
     properties, and the same properties on a deliberately broken variant for power.
5. Use ``ctx.rng`` / ``ctx.spawn(n)`` for randomness, ``ctx.map`` (module-level functions) for
   repetitions, ``ctx.pick(quick, full)`` for sizes; keep the quick fidelity to a few seconds.
6. The expectation stays in ``claims.csv``; if the measurement contradicts it, keep the check and
   write the evidence into the ``disagreement`` column.
"""
