"""Helpers of ``claims/wsparq/complexity.py``."""

from tvbo_verify.papers.wsparq.checks import complexity as C


def test_sparq_iteration_counts():
    it = C.sparq_iteration(125)
    assert it["Q"] == C.sparq_queries(125) and it["chain_steps"] > 125 * it["Q"]
    assert it["counted"] > it["chain_steps"] * it["Q"] ** 2


def test_w_sparq_work_is_below_gp_ucb():
    assert C.w_sparq_work(1.0, 0.25, 2000) < C.gp_ucb_work(2000)
    assert C.gp_ucb_work(10) == sum(t**3 + C.I1_GRID * t**2 for t in range(1, 11))
    assert C.sparq_iteration_time(125, 0, chain_sample=100) > 0


def test_iteration_ladders_span_the_decades_the_rate_builder_asks_for():
    import math

    from tvbo_verify.verify.builders.rate import LADDER

    for fidelity, steps in C.ITERATION_STEPS.items():
        sizes, decades = LADDER[fidelity]
        assert len(steps) >= sizes and math.log10(steps[-1] / steps[0]) >= decades - 1e-9
