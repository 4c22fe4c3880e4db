"""Helpers of the ``wgpucb`` experiment claims: orderings with their power, "can trail"."""

from __future__ import annotations

from tvbo_verify.papers.wgpucb.checks import experiments as ex
from tvbo_verify.sweeps.reproduce import Finding
from tvbo_verify.verify.builders import ordering_property
from tvbo_verify.verify.evidence import Verdict


def comparison(a: str, b: str, diff: tuple[float, float], ratio: tuple[float, float]) -> dict:
    return {"a": a, "b": b, "difference": {"mean": sum(diff) / 2, "ci95": list(diff)},
            "ratio": sum(ratio) / 2, "ratio_ci95": list(ratio)}


def test_a_contradicted_ordering_shows_the_weakened_statement_is_kept():
    prop = ordering_property("x", comparison("WGP-UCB", "R-GP-UCB", (5.0, 20.0), (1.1, 1.3)))
    assert prop.verdict is Verdict.VIOLATED and prop.power.caught and "weakened" in prop.power.sharpening
    far = ordering_property("x", comparison("WGP-UCB", "R-GP-UCB", (50.0, 90.0), (3.5, 4.0)))
    assert far.verdict is Verdict.VIOLATED and not far.power.caught


def test_an_established_ordering_keeps_the_builder_power():
    prop = ordering_property("x", comparison("WGP-UCB", "IGP-UCB", (-20.0, -5.0), (0.6, 0.8)))
    assert prop.verdict is Verdict.CONFIRMED and prop.power.caught and "1/3" in prop.power.sharpening


def finding(pairs: dict[str, tuple[tuple[float, float], tuple[float, float]]]) -> Finding:
    comps = {f"{s} vs {ex.IGP}": comparison(s, ex.IGP, *pairs[s]) for s in ex.SHORT_MEMORY}
    return Finding("", {"scenarios": {"one": {"comparisons": comps}}})


def test_short_memory_can_trail_needs_one_reliable_excess():
    r, s = ex.SHORT_MEMORY
    above = ex.short_memory_can_trail(finding({r: ((1.0, 9.0), (1.1, 1.4)), s: ((-3.0, 2.0), (0.9, 1.1))}))
    assert above.verdict is Verdict.CONFIRMED and above.power.caught
    below = ex.short_memory_can_trail(finding({r: ((-9.0, -1.0), (0.5, 0.9)), s: ((-8.0, -2.0), (0.5, 0.8))}))
    assert below.verdict is Verdict.VIOLATED and below.power.caught
    unsure = ex.short_memory_can_trail(finding({r: ((-1.0, 1.0), (0.9, 1.1)), s: ((-8.0, -2.0), (0.5, 0.8))}))
    assert unsure.verdict is Verdict.INCONCLUSIVE


def test_short_memory_trailing_far_behind_is_resolved_not_powerless():
    r, s = ex.SHORT_MEMORY
    # R-GP-UCB trails by a factor 5 (narrow interval): nothing to refute of "trails by 3", yet fully resolved
    far = ex.short_memory_can_trail(finding({r: ((10.0, 20.0), (4.6, 5.4)), s: ((-3.0, 2.0), (0.9, 1.1))}))
    assert far.verdict is Verdict.CONFIRMED and far.power.caught
    # an interval too wide to tell trailing from trailing threefold leaves the confirmation without power
    vague = ex.short_memory_can_trail(finding({r: ((1.0, 20.0), (1.2, 4.0)), s: ((-3.0, 2.0), (0.9, 1.1))}))
    assert vague.verdict is Verdict.CONFIRMED and not vague.power.caught
