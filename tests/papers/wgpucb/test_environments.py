"""Statements of ``claims/wgpucb/environments.py`` (the variation budget)."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.papers.wgpucb.checks.environments import VARIATION_BUDGET, environment, feature_norms
from tvbo_verify.verify.comparison import check_sharpening
from tvbo_verify.verify.stats import Instance


def seed(k: int) -> dict:
    return {"entropy": k, "spawn_key": []}


@pytest.mark.parametrize("p", [
    {"kind": "rotation", "n": 50, "lengthscale": 0.2, "M": 10, "seed": seed(1), "B": 1.5, "T": 40, "budget": 7.0},
    {"kind": "abrupt", "n": 50, "lengthscale": 0.2, "M": 10, "seed": seed(2), "B": 1.0, "T": 40, "switches": 3,
     "budget": 1.2},
    {"kind": "paper-abrupt", "n": 60, "lengthscale": 0.2, "M": 10, "seed": seed(3), "T": 250},
    {"kind": "paper-slow", "n": 60, "lengthscale": 0.2, "M": 10, "seed": seed(4), "T": 30},
])
def test_feature_route_reproduces_the_stated_budget(p):
    c = VARIATION_BUDGET.evaluate(p)
    assert Instance(p, c).margin > 0
    s = VARIATION_BUDGET.evaluate(p, sharpened=True)
    check_sharpening(c, s)
    env = environment(p)
    norms, steps = feature_norms(env, p["T"])
    assert float(np.sum(steps)) == pytest.approx(env.variation_budget(p["T"]), rel=1e-8)
    if p["kind"] == "rotation":
        np.testing.assert_allclose(norms, p["B"], rtol=1e-9)
        assert steps == pytest.approx(np.full(p["T"] - 1, 7.0 / 39), rel=1e-8)
