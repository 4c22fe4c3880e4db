"""Claim checks of ``wsparq`` (W-SparQ-GP-UCB), one module per topic of the paper; each claim's full reading is
its section of READING.md §4.

=====================  ===============================================================================
module                 claims (paper sections)
=====================  ===============================================================================
``synthetic``          Assumption 1, §4.1 synthetic function (norm bound as printed and corrected)
``drift``              Assumption 2, Example 2.1, cumulative variance V_T (§1.3, §2.2.2)
``confidence``         Eqs. (9)–(12), Lemma 2.3, β_t monotonicity in Proof 2.4
``algorithms``         Definition 3.1 (M-DPP samplers), Algorithms 1–2, the virtual data set of §3.3
``nystrom``            Definition 3.7, Lemma 3.8 (Nyström approximation and its residual trace)
``sparse_posterior``   Proposition 3.2 (subset-of-data and variational posteriors against the trace bound)
``transfer``           Proposition 3.4 (KL transfer bounds of Burt et al.)
``windows``            §3.3 window partition (32), variance of retained points, window count, Remark 3.12
``complexity``         Theorem 3.6 (SparQ per-iteration cost), W-SparQ total cost (§3.3)
``lower_bounds``       §5: Eq. (36) bump family, Remark 5.6, Proof 5.4, Theorem 5.3 (α > 1) ingredients
``sliding_window``     Proof 5.4 step 4: the minimiser L* of F(L) and the threshold T₀
``regimes``            Eq. (30), Remark 5.5, Tables 1–2
``regret_rates``       Proposition 2.2, Eq. (15), Remark 2.5 (GP-UCB regret rates and the chain of Proof 2.4
                       from full runs)
``lower_bound_runs``   Eqs. (17)–(18), Proposition 5.1 (as printed and with α > 1), Theorem 5.3 as printed
                       (GP-UCB on the bump family of §5 under model (35))
``sparse_rates``       Theorem 3.3, Eq. (25), Theorem 3.10 as printed and corrected (SparQ and W-SparQ runs)
``experiments``        §4: Figure 2 (synthetic) and Figures 3–4 (real data, on analogue data), decided from
                       the reproductions of ``reproductions.py``
=====================  ===============================================================================
"""

from __future__ import annotations

from tvbo_verify.authoring import Context, Params, Statement


def twin_instances(ctx: Context, claim_id: str, st: Statement, n: int) -> list[Params]:
    """The ``n`` random instances the check of ``claim_id`` draws first (same fidelity and seed), so that a
    ``+corrected`` twin is evaluated on exactly the instances of its printed statement."""
    rng = Context(claim_id, ctx.fidelity, ctx.seed, ctx.executor, ctx.tolerance).rng
    return [st.sample(rng) for _ in range(n)]
