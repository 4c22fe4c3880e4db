"""The two places where the mutation harness meets the claim engine, one small function each.

* :func:`run_fresh` — run one claim with the run cache of this process (a fresh folder per mutant);
* :func:`is_accepted` — whether a verdict passes: the claim list accepts it at that fidelity and a
  decided verdict (confirmed or violated) shows power.

Everything else in the harness goes through these two, so a change in how a claim receives its
cache or in the pass rule is one edit here.
"""

from __future__ import annotations

from pathlib import Path

from ..claimlist import claim_row
from ..engine import run_claim
from ..evidence import Evidence, Verdict

DECIDED = (Verdict.CONFIRMED.value, Verdict.VIOLATED.value)


def run_fresh(claim_id: str, *, fidelity: str, seed: int, cache_dir: Path) -> Evidence | None:
    """Run ``claim_id`` with its runs cached in ``cache_dir``.

    The claim finds its run cache through ``$TVBO_VERIFY_CACHE``, which the harness sets to
    ``cache_dir`` for the whole worker process before anything runs; ``cache_dir`` is passed so the
    call stays the same when the cache travels in the claim context.
    """
    del cache_dir  # carried by the environment of this process
    return run_claim(claim_id, fidelity=fidelity, seed=seed)


def is_accepted(claim_id: str, verdict: str, power_caught: bool | None, fidelity: str) -> bool:
    """The pass rule: the claim list accepts ``verdict`` at ``fidelity``, and a decided verdict caught its
    sharpened variant (``power_caught``). An error is never accepted."""
    if verdict == Verdict.ERROR.value:
        return False
    if not claim_row(claim_id).accepts(verdict, fidelity):
        return False
    return verdict not in DECIDED or bool(power_caught)
