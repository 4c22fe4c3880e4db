"""The claim engine: ``@claim`` registry, :class:`Evidence`, :class:`Verdict`, deciding statistics,
counterexample search and the project's claim list (ARCHITECTURE.md, "Claims, evidence, verdicts").

A check::

    @claim("wsparq:lemma-3.8", ref="Lemma 3.8", kind="exact")
    def check(ctx: Context) -> Evidence: ...

measures and decides from its own measurement; the expectation lives in the claim list and is
compared by :func:`matches`.
"""

from .claimlist import EXPECTED_VERDICT, PAPERS, ClaimRow, claim_row, claim_rows, matches
from .engine import Context, claim_seed, replay, run_claim
from .evidence import Evidence, Power, Verdict
from ..execution import Executor
from .registry import ClaimSpec, ReplayResult, claim, get, registered
from .stats import Instance, TolerancePolicy

__all__ = [
    "EXPECTED_VERDICT", "PAPERS", "ClaimRow", "ClaimSpec", "Context", "Evidence", "Executor", "Instance",
    "Power", "ReplayResult", "TolerancePolicy", "Verdict", "claim", "claim_row", "claim_rows", "claim_seed",
    "get", "matches", "registered", "replay", "run_claim",
]
