"""Constants a paper leaves open, settable alike for every policy: the memory scale of an order-wise rule, the
noise variance λ of the GP model, a scale of the UCB width and of the RKHS bound, the kk width with R/√λ."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.bandits import kirschner_krause, run
from tvbo_verify.bandits.registry import make_env, make_policy
from tvbo_verify.bandits.tuning import order_wise

ENV = {"scenario": "slow", "M": 5, "grid_points": 20, "lengthscale": 0.2, "noise_var": 0.01}


def test_the_memory_scale_multiplies_memory_window_and_restart_period():
    base, longer = order_wise(500, 1, 2.0), order_wise(500, 1, 2.0, scale=4.0)
    assert base.scale == 1.0 and longer.scale == 4.0
    assert 1 - longer.discount == pytest.approx((1 - base.discount) / 4)
    assert longer.memory == pytest.approx(4 * base.memory) and longer.window == math.ceil(longer.memory)
    assert order_wise(500, 1, 2.0, scale=1e-3).clipped
    with pytest.raises(ValueError, match="memory scale"):
        order_wise(500, 1, 2.0, scale=0.0)
    env = make_env("wgpucb-paper", ENV)
    for algo, key, spec in (("wgp-ucb", "discount", "discount"), ("sw-gp-ucb", "window", "window"),
                            ("r-gp-ucb", "window", "block")):
        tuned = []
        for s in (1.0, 2.0):
            trace = run(make_policy(algo, {spec: "theory", "memory_scale": s}), env, 30, np.random.default_rng(0))
            tuned.append(trace.meta["policy"]["tuning"][key] if "tuning" in trace.meta["policy"]
                         else trace.meta["policy"]["params"]["tuning"][key])
        assert tuned[1] != tuned[0]


def test_lam_sets_the_posterior_noise_of_policies_without_their_own():
    env = make_env("wgpucb-paper", ENV)
    plain = make_policy("gp-ucb", {})
    model = make_policy("gp-ucb", {"lam": 1.0})
    own = make_policy("wgp-ucb", {"lam": 0.5})
    assert model.model_noise == 1.0 and plain.model_noise is None and own.lam == 0.5 and own.model_noise is None
    for p in (plain, model):
        run(p, env, 5, np.random.default_rng(0))
    assert plain.problem.noise_var == 0.01 and model.problem.noise_var == 1.0
    assert run(make_policy("gp-ucb", {"lam": 1.0}), env, 5, np.random.default_rng(0)).meta["policy"]["lam"] == 1.0
    with pytest.raises(ValueError, match="lam"):
        make_policy("gp-ucb", {"lam": -1.0})


def test_beta_scale_widens_the_ucb_and_bound_scale_the_environments_bound():
    env = make_env("wgpucb-paper", ENV)
    rule = kirschner_krause(B="env", delta=0.1)
    base = run(make_policy("gp-ucb", {}, rule), env, 5, np.random.default_rng(0))
    bigger = run(make_policy("gp-ucb", {"bound_scale": 2.0}, rule), env, 5, np.random.default_rng(0))
    assert bigger.meta["policy"]["beta"]["B"] == pytest.approx(2 * base.meta["policy"]["beta"]["B"])
    wgp = run(make_policy("wgp-ucb", {"B": "env", "bound_scale": 3.0, "discount": 0.9}), env, 5,
              np.random.default_rng(0))
    assert wgp.meta["policy"]["beta"]["B"] == pytest.approx(3 * base.meta["policy"]["beta"]["B"])
    policy = make_policy("gp-ucb", {"beta_scale": 0.0001}, rule)
    run(policy, env, 3, np.random.default_rng(0))
    mean, var = policy.post.mean, policy.post.var
    chosen = policy._ucb(3, mean, var, data=policy._data, n=policy.post.n)
    assert chosen == int(np.argmax(mean + 0.0001 * policy.beta.multiplier(3, data=policy._data)[1] * np.sqrt(var)))
    assert run(policy, env, 3, np.random.default_rng(0)).meta["policy"]["beta_scale"] == 0.0001
    with pytest.raises(ValueError, match="does not know"):
        run(make_policy("gp-ucb", {"bound_scale": 2.0}, kirschner_krause(B=1.0)),
            make_env("sparq-synthetic", {"grid_points": 11}), 3, np.random.default_rng(0))


def test_the_kk_width_with_r_and_lambda():
    data = lambda: (0.5 * np.eye(2), np.full(2, 0.01))  # noqa: E731
    plain = kirschner_krause(B=2.0, delta=0.1).value(3, data=data)
    assert kirschner_krause(B=2.0, delta=0.1, R=0.1, lam=0.01).value(3, data=data) == pytest.approx(plain)
    assert kirschner_krause(B=2.0, delta=0.1, R=0.1, lam=1.0).value(3, data=data) == pytest.approx(
        2.0 + 0.1 * (plain - 2.0))
    with pytest.raises(ValueError, match="both R and lam"):
        kirschner_krause(B=2.0, R=0.1)
