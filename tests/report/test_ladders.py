"""The horizons and repetitions behind run-based verdicts (:mod:`tvbo_verify.report.ladders`): read from the
records the rate builder writes, and from the reproductions' sweeps as each fidelity declares them."""

from __future__ import annotations

import doctest

import tvbo_verify.report.ladders as ladders
from tvbo_verify.report.ladders import experiment_ladders, rate_ladders
from tvbo_verify.sweeps.reproduce import get_reproduction


def _slope(resolution: float, **extra) -> dict:
    return {"x": [1000.0, 3162.0, 10000.0], "n": 6, "resampled": "repetitions", "decades": 1.0, "exponent": 0.55,
            "resolution": resolution, "separated_from": {"linear regret": 1.0, "g(T) once": 0.525}, **extra}


def test_the_doctests_pass():
    assert doctest.testmod(ladders).failed == 0


def test_a_slope_is_resolved_only_when_its_resolution_is_below_the_nearest_misreading():
    entry = {"id": "p:c", "stats": {"per_kappa": {"kappa=0.025": _slope(0.02), "kappa=0.05": _slope(0.3)}}}
    fine, coarse = rate_ladders([entry])
    assert (fine["label"], coarse["label"]) == ("kappa=0.025", "kappa=0.05")
    assert fine["resolved"] and "separates 0.55 from 0.525" in fine["why"]  # the nearest, not linear regret
    assert not coarse["resolved"] and "cannot separate 0.55 from 0.525" in coarse["why"]
    assert "needs a resolution below 0.025" in coarse["why"]
    assert fine["sample"] == "6 runs" and fine["horizons"] == "1000, 3162, 10000"


def test_claims_without_a_slope_give_no_row_and_instances_are_not_called_runs():
    assert rate_ladders([{"id": "p:exact", "stats": {"n": 31}}, {"id": "p:none"}]) == []
    row = rate_ladders([{"id": "p:c", "stats": _slope(0.1, resampled="instances", n=4)}])[0]
    assert row["sample"] == "4 instances"


def test_experiment_ladders_follow_the_declared_sweeps_of_each_fidelity():
    rep = get_reproduction("sparq:figure-1")
    rows = {r["fidelity"]: r for r in experiment_ladders([rep])}
    for fidelity, row in rows.items():
        plan = rep.plan(fidelity)
        assert row["runs_per_setting"] == sum(len(s.specs()) for s in plan.values())
        assert row["horizons"] == ", ".join(f"{T:g}" for T in sorted({T for s in plan.values() for T in s.horizons}))
    assert rows["full"]["runs_per_setting"] > rows["quick"]["runs_per_setting"]
    assert rows["full"]["settings"] >= rows["quick"]["settings"] > 1
    assert rows["quick"]["sequential"] == ""  # GP-UCB's aside, which gathered runs sequentially, decides nothing now
    # a reproduction with a sequential part: the part and the looks of its design
    from dataclasses import replace

    from tvbo_verify.sequential import SequentialDesign
    from tvbo_verify.sweeps.reproduce.sequential import SequentialPart

    part = SequentialPart("GP-UCB's slope", ("GP-UCB",), lambda results, rng, level: None,
                          {"quick": SequentialDesign(5, 80), "full": SequentialDesign(40, 160)})
    row = experiment_ladders([replace(rep, sequential=(part,))], ("quick",))[0]
    assert row["sequential"] == "GP-UCB's slope: up to 80 repetitions in looks of 5, 10, 20, 40, 80"
