"""Helpers of ``claims/wsparq/regret_rates.py``: ladders, exponents the rule can resolve, the order of (13), the
uniform-random control, the widths and events of the (15) chain."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from tvbo_verify.papers.wsparq.checks import regret_rates as rr
from tvbo_verify.sweeps import RunCache, run_sweep
from tvbo_verify.verify.builders.rate import LADDER
from tvbo_verify.verify.stats import polylog_allowance


def test_ladders_span_the_decades_the_rate_builder_asks_for():
    for fidelity in ("quick", "full"):
        horizons = rr.ladder(fidelity)
        sizes, decades = LADDER[fidelity]
        assert len(horizons) >= sizes and math.log10(horizons[-1] / horizons[0]) >= decades - 1e-9
    assert rr.ladder("quick") == (1000, 3162, 10000)


def test_exponents_leave_room_to_resolve_linear_regret():
    # the resolution is the allowance of log² T plus a slope half-width; the exponents are chosen so that a
    # half-width of 0.08 still separates (3α+1)/2 from 1
    allowance = polylog_allowance(rr.POLYLOG, rr.ladder("quick")[0]) + 0.05
    for fidelity in ("quick", "full"):
        for alpha in rr.small_alphas(fidelity):
            assert rr.exponent_of_13(alpha) + allowance + 0.08 < 1.0
    assert rr.exponent_of_13(0.1) + allowance > 0.98  # the old α = 0.1 could not be resolved


def test_proposition_2_2_runs_its_range_of_alpha_up_to_what_a_run_could_refute():
    allowance = polylog_allowance(rr.POLYLOG, rr.ladder("quick")[0]) + 0.05
    limit = rr.refutable_alpha_limit("quick")
    assert 1 - rr.exponent_of_13(limit) == pytest.approx(allowance)  # linear regret sits on the allowance there
    assert 0.10 < limit < 1 / 3
    for fidelity in ("quick", "full"):
        alphas = rr.proposition_alphas(fidelity)
        assert alphas[0] == 0.0 and len(alphas) >= 3 and max(alphas) < limit
        assert all(rr.exponent_of_13(a) + allowance + 0.08 < 1.0 for a in alphas)
        assert {rr.drift_sweep(a, fidelity, 0).arms[0].params["generator"] for a in alphas} == {"O1-coupled"}


@pytest.mark.slow  # a few minutes: GP-UCB's runs on the quick ladder from a fresh cache
def test_proposition_2_2_is_not_confirmed_when_the_policy_is_fed_zeros(monkeypatch, tmp_path):
    """A runner or policy that ignores its observations (every y replaced by 0) must not leave (13) confirmed: under
    generator O1-coupled GP-UCB learns from what it is given, so it learns nothing and its regret grows linearly."""
    from tvbo_verify.bandits.hetero import HeteroscedasticGPUCB
    from tvbo_verify.execution import Executor
    from tvbo_verify.verify import Verdict, run_claim

    real = HeteroscedasticGPUCB.observe
    monkeypatch.setattr(HeteroscedasticGPUCB, "observe",
                        lambda self, step, time, index, y: real(self, step, time, index, 0.0))
    monkeypatch.setattr(rr, "proposition_alphas", lambda fidelity: (0.02,))
    ev = run_claim("wsparq:proposition-2.2", executor=Executor(), cache=RunCache(tmp_path))
    assert ev.verdict in (Verdict.VIOLATED, Verdict.INCONCLUSIVE), ev.summary


def test_order_of_13_has_the_polylog_slope():
    T = np.array([1e3, 1e4])
    g = rr.rate_order(T, 0.8)
    local = np.log(g[1] / g[0]) / np.log(10.0)
    assert 0.8 < local < 0.8 + 2 / math.log(1e3)


def test_control_sweep_plays_the_same_functions_with_more_runs():
    sweep = rr.drift_sweep(0.02, "quick", 3)
    control = rr.with_control(sweep)
    assert control.arms == (rr.RANDOM,) and control.seed == sweep.seed == 3
    assert control.horizons == sweep.horizons and control.env_params == sweep.env_params
    assert control.reps == rr.CONTROL_FACTOR * sweep.reps
    # repetition r of both sweeps draws the same environment (the seed sequence does not depend on reps)
    assert control.spec(rr.RANDOM.label, 1000, 2).seed_sequence().entropy == sweep.spec(
        sweep.arms[0].label, 1000, 2).seed_sequence().entropy
    assert sweep.arms[0].params["generator"] == "O1-coupled"


def short_chain():
    sweep = dataclasses.replace(rr.chain_sweep("quick", 0), horizons=(30,), reps=2)
    return sweep, run_sweep(sweep, cache=RunCache(None), progress=False)


def test_recomputed_widths_match_what_gp_ucb_records():
    sweep, result = short_chain()
    for alpha in rr.EQ15_ALPHAS:
        tr = result.runs(rr.gpucb_o1_label(alpha))[0]
        sd, beta = rr.ui_widths(tr.index, alpha)
        assert np.allclose(sd, tr.meta["policy"]["widths"], rtol=1e-9, atol=1e-12)
        assert np.allclose(beta, tr.beta, rtol=1e-9)


def test_chain_events_are_regret_bounds_read_from_the_traces():
    sweep, result = short_chain()
    runs = result.runs(rr.RANDOM.label)
    sd, beta = np.array([rr.ui_widths(tr.index, 0.2) for tr in runs]).transpose(1, 0, 2)
    step, chain = rr.chain_trials({"alpha": 0.2}, runs, sd, beta, 0.2, gamma=10.0)
    assert step.regret_bound and chain.regret_bound
    assert step.scores.shape == (2,) and step.attainable is not None and chain.attainable is not None
    # the (15) bound grows with γ: a smaller γ gives a larger score for the same regret
    _, tighter = rr.chain_trials({"alpha": 0.2}, runs, sd, beta, 0.2, gamma=1.0)
    assert np.all(tighter.scores > chain.scores)


def test_chain_reads_15_at_every_horizon_from_the_prefix_of_the_runs():
    sweep, result = short_chain()
    runs = result.runs(rr.RANDOM.label)
    sd, beta = np.array([rr.ui_widths(tr.index, 0.2) for tr in runs]).transpose(1, 0, 2)
    step, *at = rr.chain_trials({"alpha": 0.2}, runs, sd, beta, 0.2, {10: 3.0, 30: 5.0}, noise_var=0.5)
    assert [t.config["T"] for t in at] == [10, 30] and "T" not in step.config
    for trial, h, g in zip(at, (10, 30), (3.0, 5.0)):
        bound = rr.chain_bound(h, 0.2, beta[:, :h].max(axis=1), g, 0.5)
        assert np.allclose(bound, beta[:, :h].max(axis=1) * math.sqrt(2 * h * (1 + 0.5 * h**0.2) * g))
        regret = np.array([tr.cumulative[h - 1] for tr in runs])
        assert trial.extra["mean R_T / bound"] == pytest.approx(float(np.mean(regret / bound)))
        assert trial.extra["mean R_T"] == pytest.approx(float(regret.mean()))
    # a float γ reads (15) at the runs' T only, as before
    _, only = rr.chain_trials({"alpha": 0.2}, runs, sd, beta, 0.2, 5.0, noise_var=0.5)
    assert np.allclose(only.scores, at[-1].scores)
