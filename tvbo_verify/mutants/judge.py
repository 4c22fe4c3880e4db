"""The two places where the mutation harness meets the claim engine, one small function each.

* :func:`run_fresh` — run one claim with a given run cache (a fresh folder per mutant), handed to the
  check through its :class:`~tvbo_verify.verify.engine.Context`;
* :func:`is_accepted` — whether a verdict passes, by the project's one pass rule
  (:func:`tvbo_verify.verify.passing.judge`).

Everything else in the harness goes through these two.
"""

from __future__ import annotations

from pathlib import Path

from ..sweeps.cache import RunCache
from ..verify.claimlist import claim_row
from ..verify.engine import run_claim
from ..verify.evidence import Evidence
from ..verify.passing import judge


def run_fresh(claim_id: str, *, fidelity: str, seed: int, cache_dir: Path) -> Evidence | None:
    """Run ``claim_id`` with its runs read from and written to the run cache in ``cache_dir`` only."""
    return run_claim(claim_id, fidelity=fidelity, seed=seed, cache=RunCache(cache_dir))


def is_accepted(claim_id: str, verdict: str, power_caught: bool | None, fidelity: str) -> bool:
    """Whether ``verdict`` of ``claim_id`` measured at ``fidelity`` passes (:func:`~tvbo_verify.verify.passing.judge`;
    ``power_caught`` None counts as no power)."""
    return judge(claim_row(claim_id), verdict, power_caught=bool(power_caught), fidelity=fidelity).accepted
