"""``sparq`` Proposition 3: Burt et al.'s KL transfer bounds (shared with ``wsparq`` Proposition 3.4).
Reading: READING.md §sparq:proposition-3.
"""

from __future__ import annotations

from tvbo_verify.authoring import Context, Evidence, claim
from tvbo_verify.lemmas.transfer import transfer_evidence


@claim("sparq:proposition-3")
def proposition_3(ctx: Context) -> Evidence:
    """Proposition 3 (Burt et al. Proposition 1), shared with ``wsparq:proposition-3.4`` (``lemmas.transfer``):
    if 2 KL[Q ‖ P] <= η <= 1/5, the mean and variance bounds must hold, on random pairs P = N(0, 1), Q = N(m, r) with η
    in [2 KL, 1/5], on boundary probes and along an adversarial search over (m, r, η); breaks refereed in mpmath.
    Power: the inequalities claimed on a widened range of η must be caught at its probes. Full reading: READING.md
    §sparq:proposition-3."""
    return transfer_evidence(ctx)
