"""Theory layer: schedules, response times and n*, lower-bound ingredients, rates and derivations.

Modules (they import core numerics only, never bandits/verify/report):

* :mod:`.schedules` — W-SparQ windows (``wsparq`` eq. (32)), expert-query budgets (``sparq`` eq. (57),
  the experiments' ``6 log T``), SparQ discard rule, R-GP-UCB block lengths (``tvgpucb`` Corollary 4.1),
  WGP-UCB discount (``wgpucb`` Corollary 5).
* :mod:`.response` — response-time models ``R(n)`` (``bolt`` Definition 3.5), ``||u_n||^2`` and ``n*``
  (``bolt`` eq. (9)), timing of this machine's own GP-UCB step.
* :mod:`.lower_bounds` — ``bolt`` ε_c, σ_c² (eqs. (4)–(5)) and Theorem 3.8, ``wsparq`` §5 (Fano, KL sums,
  M(γ), S_τ, L*, T₀, V_T), ``tvgpucb`` App. F genie ingredients.
* :mod:`.rates` — γ̃_T block bound (``tvgpucb`` (21)), ``wgpucb`` Theorems 6–7 / Corollary 8, regret bounds
  as functions of T, regime tables of ``wsparq`` §3.
* :mod:`.eigendecay` — eigendecay constants fitted to Mercer weights (``wgpucb`` Corollary 8, Remark 5).
* :mod:`.derivations` — sympy derivations of the optimisers and exponents flagged by the catalogs.
* :mod:`.correlation_sums` — ``Σ_{i<=n} k_T²(i r)`` at any scale (closed-form integrals,
  Euler–Maclaurin, rigorous tail bounds) for ``n*``.
* :mod:`.horizon` — the non-vacuity horizon of a regret bound (from which ``T`` it is below the trivial bound of
  its setting), for the claims and ``calc regret-bound``.
* :mod:`.power_sums` — ``Σ_{k<=n} k^a`` for any ``n`` (Euler–Maclaurin with an explicit remainder bound),
  for ``V_T``.
* The ``tvbo-verify calc`` tables as dataclasses that define their fields (``FIELDS``):
  :mod:`.schedule_summaries` (windows and query budgets for any horizon), :mod:`.nstar_table`,
  :mod:`.lower_bound_tables`, :mod:`.calculators` (block, discount, β_t), :mod:`.gamma_table` (γ_T and its
  greedy bracket on a grid), :mod:`.regret_table` (regret bounds against the trivial bound).
"""
