"""What the evidence builders share: the replay record of a non-exact claim and verdict combination."""

from __future__ import annotations

from typing import Any, Iterable

from ...jsonify import to_jsonable
from ..engine import Context
from ..evidence import Verdict


def rerun_record(ctx: Context, statistic: dict[str, Any],
                 configuration: dict[str, Any] | None = None) -> dict[str, Any]:
    """The replay record of a probabilistic, rate or properties claim: the claim is rerun with the
    same fidelity and seed (every repetition's seed derives from them) and must reproduce ``statistic``."""
    return to_jsonable({
        "claim": ctx.claim_id,
        "kind": ctx.kind,
        "rerun": {"fidelity": ctx.fidelity, "seed": ctx.seed},
        "configuration": configuration or {},
        "statistic": statistic,
    })


def combine(verdicts: Iterable[Verdict]) -> Verdict:
    """The verdict of a claim decided by several parts: violated if any part is violated, confirmed if every
    part is confirmed, else inconclusive (also when there is no part).

    Parameters
    ----------
    verdicts : iterable of Verdict
        The verdicts of the parts.

    Returns
    -------
    Verdict
        The combined verdict.

    Examples
    --------
    >>> from tvbo_verify.authoring import Verdict, combine
    >>> combine([Verdict.CONFIRMED, Verdict.INCONCLUSIVE]).value, combine([Verdict.CONFIRMED, Verdict.VIOLATED]).value
    ('inconclusive', 'violated')
    >>> combine([]).value
    'inconclusive'
    """
    vs = list(verdicts)
    if not vs:
        return Verdict.INCONCLUSIVE
    if Verdict.VIOLATED in vs:
        return Verdict.VIOLATED
    if all(v is Verdict.CONFIRMED for v in vs):
        return Verdict.CONFIRMED
    return Verdict.INCONCLUSIVE

