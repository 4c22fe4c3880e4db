"""Helpers of ``tvbo_verify.papers.tvgpucb.checks.regret_rates``."""

from __future__ import annotations

import pytest

from tvbo_verify.papers.tvgpucb.checks.regret_rates import (
    MATERN_C,
    RATE_EPSILONS,
    exponent_property,
    ladder_sweep,
    misreading,
    symbolic_properties,
)
from tvbo_verify.verify.evidence import Verdict
from tvbo_verify.verify.stats import DEFAULT_POLICY


def test_ladders_meet_the_rate_builder_minimum():
    assert len(RATE_EPSILONS["quick"]) >= 3
    full = RATE_EPSILONS["full"]
    assert len(full) >= 5 and max(full) / min(full) >= 10**1.5
    assert MATERN_C == pytest.approx(6 / 11)


def test_ladder_sweeps_use_the_paper_block_rule_and_the_theory_width():
    r = ladder_sweep("r-gp-ucb", 1e-3, 200, 4)
    assert ladder_sweep("r-gp-ucb", 1e-3, 200, 4, "matern52").arms[0].params == {"block": 178}
    assert r.arms[0].params == {"block": 68} and r.arms[0].beta.kind == "finite-domain"
    tv = ladder_sweep("tv-gp-ucb", 1e-3, 200, 4, seed=2)
    assert tv.arms[0].params == {"epsilon": 1e-3} and tv.env_params["epsilon"] == 1e-3 and tv.seed == 2
    # the controls: a policy that learns nothing, and for TV-GP-UCB the method without forgetting
    assert [a.algorithm for a in r.arms] == ["r-gp-ucb", "random"]
    assert [a.params for a in tv.arms[1:]] == [{"epsilon": 0.0}, {}]
    # TV-GP-UCB's runs are those of theorem 4.3 (same run keys)
    from tvbo_verify.papers.tvgpucb.checks.regret_bounds import tv_sweep
    assert tv.spec("TV-GP-UCB", 200, 1).key == tv_sweep(1e-3, 200, 4, seed=2).spec("TV-GP-UCB", 200, 1).key


def test_misreadings_of_the_rates():
    assert misreading("tv", "se") == (pytest.approx(-1 / 3), "the bound's exponent read as the regret's")
    assert misreading("r", "se")[0] == pytest.approx(-1 / 6)


def test_exponent_property_decides_and_catches_its_misreading():
    p = exponent_property("x", 0.125, 0.125, 1 / 6, "m")
    assert p.verdict is Verdict.CONFIRMED and p.sharpened_caught(DEFAULT_POLICY)
    assert exponent_property("x", 0.125, 1 / 6, 0.2, "m").verdict is Verdict.VIOLATED


@pytest.mark.parametrize("kind, count", [("tv", 2), ("r", 4)])
def test_symbolic_exponents_of_appendix_e_agree_and_show_power(kind, count):
    props = symbolic_properties(kind)
    assert len(props) == count
    assert all(p.verdict is Verdict.CONFIRMED and p.sharpened_caught(DEFAULT_POLICY) for p in props)


def test_the_runs_block_length_is_the_papers_and_swapped_exponents_are_caught():
    from tvbo_verify.mutants.apply import applied
    from tvbo_verify.mutants.catalog import get_mutant
    from tvbo_verify.papers.tvgpucb.checks.regret_rates import block_properties
    from tvbo_verify.verify.evidence import Verdict

    props = block_properties((1e-2, 1e-4), 200, ("se",))
    assert [p.verdict for p in props] == [Verdict.CONFIRMED] * 2
    assert "N = 38 in the runs, 38 by §5.1" in props[0].detail
    with applied(get_mutant("block-length-exponents-swapped")):
        assert all(p.verdict is Verdict.VIOLATED for p in block_properties((1e-2, 1e-4), 200, ("se",)))
