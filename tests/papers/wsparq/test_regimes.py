"""Helpers of ``claims/wsparq/regimes.py``."""

import pytest

from tvbo_verify.papers.wsparq.checks import regimes as R


def test_table_cells_and_gap():
    assert R.table_1_cells(0.1) == ("o(T)", 0.5) and R.table_1_cells(0.5)[1] == 0.75 and R.table_1_cells(2.0)[1] == 1.0
    gap = R.derived_query_gap()[0](2.0, 0.25)
    assert gap == pytest.approx(1 / 3 - 0.125)


@pytest.mark.parametrize("part", ["column-c", "column-a", "ordering", "cell-c"])
def test_table_2_parts_hold_and_swap_is_caught(part):
    p = {"part": part, "alpha": 2.0, "T": 10**5}
    assert R.TABLE_2.evaluate(p).margin >= 0
    if part in ("column-c", "column-a"):
        assert R.TABLE_2.evaluate(p, sharpened=True).margin < 0
