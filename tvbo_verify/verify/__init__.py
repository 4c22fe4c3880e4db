"""The claim engine: ``@claim`` registry, :class:`Evidence`, :class:`Verdict`, deciding statistics,
counterexample search, one evidence builder per kind and the project's claim list
(docs/ARCHITECTURE.md §4).

A check::

    @claim("demo:lemma-1")
    def residual_trace_is_monotone(ctx: Context) -> Evidence:
        return exact_evidence(ctx, LEMMA_1, n_random=ctx.pick(120, 600))

measures and decides from its own measurement; ``ref``, ``kind`` and the expectation live in the
claim list and are compared by :func:`matches`. ``docs/plugins.md`` is the how-to.
"""

from ..execution import Executor
from .builders import (
    Property,
    RateMeasurement,
    Trials,
    exact_evidence,
    ingredient_evidence,
    probabilistic_evidence,
    properties_evidence,
    rate_evidence,
)
from .claimlist import EXPECTED_VERDICT, ClaimRow, claim_row, claim_rows, matches
from .comparison import Comparison, SharpeningError
from .engine import Context, claim_seed, replay, run_claim
from .evidence import Control, Evidence, Power, Verdict
from .registry import ClaimSpec, ReplayResult, claim, get, registered
from .statement import Statement
from .stats import Instance, TolerancePolicy

__all__ = [
    "EXPECTED_VERDICT", "PAPERS", "ClaimRow", "ClaimSpec", "Comparison", "Context", "Control", "Evidence", "Executor",
    "Instance", "Power", "Property", "RateMeasurement", "ReplayResult", "SharpeningError", "Statement",
    "TolerancePolicy", "Trials", "Verdict", "claim", "claim_row", "claim_rows", "claim_seed", "exact_evidence",
    "get", "ingredient_evidence", "matches", "probabilistic_evidence", "properties_evidence", "rate_evidence",
    "registered", "replay", "run_claim",
]


def __getattr__(name: str):
    if name == "PAPERS":  # the registered paper ids, read from the paper registry when asked for
        from ..papers import paper_ids

        return paper_ids()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
