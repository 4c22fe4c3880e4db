"""``wsparq`` Proposition 3.4: Burt et al.'s KL transfer bounds (shared with ``sparq`` Proposition 3)."""

from __future__ import annotations

from ...engine import Context
from ...evidence import Evidence
from ...registry import claim
from ..common.transfer import transfer_evidence


@claim("wsparq:proposition-3.4")
def proposition_3_4(ctx: Context) -> Evidence:
    """Burt et al.'s transfer bounds (``divergences.transfer_bounds``) on 1-D Gaussians P = N(0, 1),
    Q = N(m, r) (scale invariance), with η anywhere in [2 KL[Q ‖ P], 1/5] (``gaussian_kl_1d``): each of
    the three inequalities separately, on random pairs and then Nelder–Mead over (m, r, η) to
    minimise the margin; the catalog's boundary probe (equal means, 2 KL = 1/5) is included. Breaks are
    refereed in mpmath. Power: the same inequalities claimed up to η = 1/4 must be caught at the
    widened range's boundary (the variance bound fails beyond η ≈ 0.2065)."""
    return transfer_evidence(ctx)
