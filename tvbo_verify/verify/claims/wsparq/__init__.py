"""Claim checks of ``wsparq`` (W-SparQ-GP-UCB, seed 000), one module per topic of the paper.

=====================  ===============================================================================
module                 claims (paper sections)
=====================  ===============================================================================
``synthetic``          Assumption 1, §4.1 synthetic function (norm bound as printed and corrected)
``drift``              uncertainty injection: cumulative variance V_T (§2.2.2)
``confidence``         Lemma 2.3 (confidence band of the heteroscedastic posterior)
``nystrom``            Definition 3.7, Lemma 3.8 (Nyström approximation and its residual trace)
``sparse_posterior``   Proposition 3.2 (subset-of-data and variational posteriors against the trace bound)
``transfer``           Proposition 3.4 (KL transfer bounds of Burt et al.)
``windows``            §3.3 window partition (32), variance of retained points, window count
``sliding_window``     Proof 5.4 step 4: the minimiser L* of F(L) and the threshold T₀
=====================  ===============================================================================
"""

from __future__ import annotations

from ...engine import Context
from ...statement import Params, Statement


def twin_instances(ctx: Context, claim_id: str, st: Statement, n: int) -> list[Params]:
    """The ``n`` random instances the check of ``claim_id`` draws first (same fidelity and seed), so that a
    ``+corrected`` twin is evaluated on exactly the instances of its printed statement."""
    rng = Context(claim_id, ctx.fidelity, ctx.seed, ctx.executor, ctx.tolerance).rng
    return [st.sample(rng) for _ in range(n)]
