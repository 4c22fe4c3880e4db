"""Order-wise windows and discounts (wgpucb §4, Corollary 5) and B taken from the environment."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from tvbo_verify.bandits import kirschner_krause, run, wgpucb_theory
from tvbo_verify.bandits.registry import make_env, make_policy
from tvbo_verify.bandits.tuning import gamma_dot_prior, order_wise


def test_order_wise_discount_known_and_unknown_budget():
    T, d = 1000, 1
    gd = math.log(T) ** 2
    known = order_wise(T, d, 4.0)
    assert gamma_dot_prior(T, d) == pytest.approx(gd)
    assert known.discount == pytest.approx(1 - gd**-0.25 * 2.0 * T**-0.5)
    assert known.window == math.ceil(1 / (1 - known.discount)) and not known.clipped
    unknown = order_wise(T, d)
    assert unknown.discount == pytest.approx(1 - gd**-0.25 * T**-0.5)
    assert unknown.window > known.window  # a larger budget forgets faster
    static = order_wise(T, d, 0.0)
    assert static.discount == 1.0 and static.window == T and static.to_dict()["memory"] is None
    json.dumps(static.to_dict(), allow_nan=False)
    huge = order_wise(T, d, 1e9)
    assert huge.clipped and huge.discount == 0.5 and huge.window == 2


def test_beta_bound_from_the_environment():
    rule = kirschner_krause(B="env", delta=0.1)
    assert rule.takes_bound_from_env
    resolved = rule.resolve({"rkhs_bound": 2.5})
    assert resolved.params["B"] == 2.5 and resolved.to_dict()["B_from"] == "env"
    with pytest.raises(ValueError, match="does not know its RKHS bound"):
        rule.resolve({})
    with pytest.raises(ValueError, match="resolve it against the environment"):
        rule.value(1, data=lambda: (np.zeros((0, 0)), np.zeros(0)))
    assert wgpucb_theory(B="env", R=0.1, lam=1.0, discount=0.9).resolve({"rkhs_bound": 3.0}).params["B"] == 3.0
    env = make_env("wgpucb-rotation", {"B": 2.0, "budget": 3.0})
    trace = run(make_policy("gp-ucb", {}, rule), env, 5, np.random.default_rng(0))
    assert trace.meta["policy"]["beta"]["B"] == 2.0
    with pytest.raises(ValueError, match="does not know"):
        run(make_policy("gp-ucb", {}, rule), make_env("sparq-synthetic", {"grid_points": 11}), 3,
            np.random.default_rng(0))
