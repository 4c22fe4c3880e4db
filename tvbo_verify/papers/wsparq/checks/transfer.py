"""``wsparq`` Proposition 3.4: Burt et al.'s KL transfer bounds (shared with ``sparq`` Proposition 3;
READING.md §2.5).
"""

from __future__ import annotations

from tvbo_verify.authoring import Context, Evidence, claim
from tvbo_verify.lemmas.transfer import transfer_evidence


@claim("wsparq:proposition-3.4")
def proposition_3_4(ctx: Context) -> Evidence:
    """Proposition 3.4: if 2 KL[Q ‖ P] ≤ η ≤ 1/5, Burt et al.'s mean and variance transfer bounds hold. With P = N(0, 1)
    and Q = N(m, r) (scale invariance) and η anywhere in [2 KL, 1/5], each of the three inequalities is checked on
    random pairs, under Nelder–Mead over (m, r, η) and at the boundary probe (equal means, 2 KL = 1/5), refereed in
    mpmath. Power: the same inequalities on a wider range of η must be caught. Full reading: READING.md
    §wsparq:proposition-3.4."""
    return transfer_evidence(ctx)
