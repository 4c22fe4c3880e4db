"""``sparq`` Proposition 3: Burt et al.'s KL transfer bounds (shared with ``wsparq`` Proposition 3.4)."""

from __future__ import annotations

from ...engine import Context
from ...evidence import Evidence
from ...registry import claim
from ..common.transfer import transfer_evidence


@claim("sparq:proposition-3")
def proposition_3(ctx: Context) -> Evidence:
    """The same statement as ``wsparq:proposition-3.4`` (Burt et al. Proposition 1, restated as
    ``sparq`` Proposition 3), checked by the same instances, adversarial search and referee
    (``divergences.transfer_bounds`` on P = N(0, 1), Q = N(m, r), η anywhere in [2 KL, 1/5]).
    Power: the same inequalities claimed up to η = 1/4 must be caught at the boundary probes of the
    widened range (the variance bound fails beyond η ≈ 0.2065)."""
    return transfer_evidence(ctx)
