"""The ``wgpucb`` reproductions: arms from the presets, plans per fidelity, the finding's comparisons."""

from __future__ import annotations

import numpy as np

from tvbo_verify.papers.wgpucb import reproductions as rw
from tvbo_verify.sweeps import RunCache, run_sweep
from tvbo_verify.sweeps.reproduce import get_reproduction
from tvbo_verify.sweeps.spec import Sweep


def test_arms_come_from_the_preset_with_wgpucb_first():
    _, env = rw.presets.preset("wgpucb:figure-1a").env()
    arms = rw.preset_arms("wgpucb:figure-1a", env, 500)
    assert [a.label for a in arms][0] == rw.WGP
    assert {a.label for a in arms} == {rw.WGP, rw.IGP, *rw.SHORT_MEMORY}
    wgp = arms[0]
    assert wgp.params["discount"] == "theory" and wgp.params["lam"] == 1.0 and wgp.beta is None
    assert rw.RANDOM in [a.label for a in rw.preset_arms("wgpucb:stock-data", {}, 453, random=True)]


def test_plans_follow_the_paper_at_full_fidelity():
    fig1 = get_reproduction("wgpucb:figure-1")
    assert fig1.claims == ("wgpucb:figure-1",)
    assert [s.reps for s in fig1.plan("full").values()] == [10, 10]
    assert all(s.horizons == (500,) for s in fig1.plan("quick").values())
    app = get_reproduction("wgpucb:figures-2-3").plan("full")
    assert [s.reps for s in app.values()] == [100, 100]
    assert [s.env_params["M"] for s in app.values()] == [100, 100]
    assert [s.env_params["scenario"] for s in app.values()] == ["abrupt", "slow3"]
    stock = get_reproduction("wgpucb:stock-data")
    assert "not shipped" in stock.data_note and stock.plan("quick")[rw.STOCK].environment == "commodities"


def test_scenario_summary_pairs_wgpucb_with_every_other_arm():
    base = rw.preset_sweep("wgpucb:figure-1a", 3)
    sweep = Sweep("wgpucb summary test", base.arms, base.environment, (20,), 3, env_params=base.env_params)
    result = run_sweep(sweep, cache=RunCache(None))
    data = rw.scenario_summary(result, np.random.default_rng(0))
    assert set(data["comparisons"]) == {f"{rw.WGP} vs {b}" for b in (rw.IGP, *rw.SHORT_MEMORY)} | {
        f"{s} vs {rw.IGP}" for s in rw.SHORT_MEMORY}
    assert data["T"] == 20 and data["runs"] == 3
    assert set(data["tuning"]) == {rw.WGP, *rw.SHORT_MEMORY}
    text = rw.scenarios_text({"abrupt": data})
    assert text.startswith("abrupt (T = 20, 3 runs)")
