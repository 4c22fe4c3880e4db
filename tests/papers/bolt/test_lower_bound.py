"""Helpers of ``bolt:eq-4`` and ``bolt:theorem-3.6`` (``tvbo_verify.papers.bolt.checks.lower_bound``)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import norm

from tvbo_verify.papers.bolt.checks.lower_bound import EQ_4, OracleSimulation, log_expected_positive_part
from tvbo_verify.theory.lower_bounds import log_epsilon_c


def test_quadrature_of_the_positive_part_matches_the_closed_form():
    for s, a in ((1.0, 0.5), (0.3, 2.0), (0.01, 3.0)):
        z = a / s
        closed = s * norm.pdf(z) - a * norm.cdf(-z)
        assert math.exp(log_expected_positive_part(s, a)) == pytest.approx(closed, rel=1e-9)
    assert log_expected_positive_part(1e-3, 10.0) == pytest.approx(log_epsilon_c(1e-3, 10.0, 1), rel=1e-12)


def test_eq4_parts_hold_and_sharpenings_break():
    for part in ("expectation", "derivative", "decay"):
        p = {"part": part, "sigma": 0.4, "L": 1.3, "d": 3}
        assert EQ_4.evaluate(p).margin >= 0 and EQ_4.evaluate(p, sharpened=True).margin < 0


def test_oracle_of_a_markov_kernel_regret_does_not_depend_on_n():
    sim = OracleSimulation("matern12", 1.0, grid=30)
    r5, slopes = sim.run(np.random.default_rng(0), 5, 3000)
    r1, _ = sim.run(np.random.default_rng(0), 1, 3000)
    assert np.all(r5 >= 0) and np.all(slopes > 0)
    assert abs(r5.mean() - r1.mean()) < 4 * r5.std() / math.sqrt(3000) * math.sqrt(2)
    assert sim.floor(float(slopes.max())).epsilon_c < r5.mean()
