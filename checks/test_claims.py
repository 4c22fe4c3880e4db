"""One test item per claim id of the project's claim list.

An item passes when the check's verdict matches the expectation of the claim list (or the verdict a
recorded disagreement says this toolkit measures; then a warning names it) and, for a
confirmed or violated verdict, the check showed its power (a decided claim without power is no
evidence, ARCHITECTURE.md); a claim without a check is skipped as "not implemented" (never passed).
"""

from __future__ import annotations

import warnings

import pytest

from tvbo_verify.verify import claim_rows, get, matches, run_claim

ROWS = claim_rows()


@pytest.mark.parametrize(
    "row",
    [pytest.param(r, id=r.id, marks=[getattr(pytest.mark, r.paper), getattr(pytest.mark, r.kind)]) for r in ROWS],
)
def test_claim(row, fidelity: str, claim_seed: int, claim_executor) -> None:
    if get(row.id) is None:
        pytest.skip("not implemented")
    ev = run_claim(row.id, fidelity=fidelity, seed=claim_seed, executor=claim_executor)
    assert ev is not None
    detail = f"{row.id}: verdict {ev.verdict.value}, expected {row.expect} — {ev.summary}"
    if ev.verdict.value == "error":
        detail += "\n" + str(ev.stats.get("traceback", ""))
    assert row.accepts(ev.verdict, fidelity), detail
    if not matches(ev.verdict, row.expect):
        warnings.warn(f"{row.id}: measured {ev.verdict.value}, the papers' reading expects {row.expect}; "
                      f"disagreement recorded in the claim list: {row.disagreement[:200]}", stacklevel=1)
    if ev.verdict.value in ("confirmed", "violated"):
        assert ev.power is not None and ev.power.caught, (
            f"{row.id}: {ev.verdict.value} without power ({ev.power_label}: "
            f"{ev.power.detail if ev.power else 'no sharpening'})")
