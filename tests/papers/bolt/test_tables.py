"""Helpers of the ``bolt`` Table 3 checks (``tvbo_verify.papers.bolt.checks.tables``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tvbo_verify.papers.bolt.checks.tables import (
    TABLE_3_OVERALL,
    TABLE_3_OVERALL_CORRECTED,
    TABLE_3_RANKING,
    NormalisedRegret,
    half_unit,
    min_max_score,
    table,
)


def test_half_units_and_scores():
    assert half_unit("2.51") == Fraction(1, 200) and half_unit("516") == Fraction(1, 2)
    assert min_max_score([Fraction(1), Fraction(3), Fraction(2)], 2) == Fraction(1, 2)


def test_data_file_is_complete():
    t = table()
    assert len(t["methods"]) == 7 and len(t["benchmarks"]) == 10
    assert all(len(b["mean"]) == 7 and len(b["se"]) == 7 for b in t["benchmarks"].values())


def test_recomputation_matches_the_catalog_values():
    expected = [0.667, 0.627, 0.412, 0.812, 0.680, 0.136, 0.009]  # papers/bolt/READING.md §5.7
    for m, value in enumerate(expected):
        lo, mid, hi = NormalisedRegret.interval(m)
        assert float(mid) == pytest.approx(value, abs=6e-4) and lo <= mid <= hi


def test_printed_row_breaks_only_at_three_methods_and_the_permutation_repairs_it():
    broken = [m for m in table()["methods"] if TABLE_3_OVERALL.evaluate({"method": m}).margin < 0]
    assert broken == ["ET-GP-UCB", "R-GP-UCB", "ABO"]
    assert all(TABLE_3_OVERALL_CORRECTED.evaluate({"method": m}).margin >= 0 for m in table()["methods"])


def test_bolt_is_second_on_two_benchmarks():
    ranks = {b: TABLE_3_RANKING.rank(b) for b in table()["benchmarks"]}
    assert {b for b, r in ranks.items() if r == 2} == {"Hartmann (6)", "Temperature (3)"}
    assert max(ranks.values()) == 2
