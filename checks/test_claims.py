"""One test item per claim id of the project's claim list.

An item passes by the pass rule of :mod:`tvbo_verify.verify.passing`, the one ``tvbo-verify report``
uses for its exit code: the verdict is the expectation of the claim list or the verdict a recorded
disagreement says this toolkit measures at this fidelity (then a warning names it), and a confirmed or
violated verdict showed its power; an error never passes. A claim without a check is skipped as
"not implemented" (never passed).
"""

from __future__ import annotations

import warnings

import pytest

from tvbo_verify.verify import claim_rows, get, matches
from tvbo_verify.verify.passing import judge_evidence

ROWS = claim_rows()


@pytest.mark.parametrize(
    "row",
    [pytest.param(r, id=r.id, marks=[getattr(pytest.mark, r.paper), getattr(pytest.mark, r.kind)]) for r in ROWS],
)
def test_claim(row, fidelity: str, claim_evidence) -> None:
    if get(row.id) is None:
        pytest.skip("not implemented")
    ev = claim_evidence(row.id)  # run here, or ahead in the worker processes (checks/conftest.py)
    judgement = judge_evidence(row, ev, fidelity)
    detail = f"{row.id}: verdict {ev.verdict.value}, expected {row.expect}: {judgement.reason} — {ev.summary}"
    if ev.verdict.value == "error":
        detail += "\n" + str(ev.stats.get("traceback", ""))
    assert judgement.accepted, detail
    if not matches(ev.verdict, row.expect):
        warnings.warn(f"{row.id}: measured {ev.verdict.value}, the papers' reading expects {row.expect}; "
                      f"disagreement recorded in the claim list: {row.disagreement[:200]}", stacklevel=1)
