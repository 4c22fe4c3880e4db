"""The non-vacuity horizon of ``wsparq`` (15) (``checks/regret_rates.py``, ``eq_15_horizon``): the horizon is the
first T below the trivial bound, every γ and β it uses is an upper bound, the trivial bound's range is I2's, and a
weaker bound or a smaller trivial bound comes later."""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest

from tvbo_verify.authoring import non_vacuity_horizon
from tvbo_verify.bandits.registry import make_env
from tvbo_verify.information import log_det_ratio_from_gram, max_information_gain, ui_noise_schedule
from tvbo_verify.papers.wsparq.checks import regret_rates as rr

#: a small search (11 grid points: cheap certified γ) that still holds a non-vacuous instance
SMALL = {"grid_points": (11,), "lengthscale": (2.0, 4.0), "noise_var": (0.1, 1.0), "alpha": (0.0, 1.0),
         "delta": (1.0,), "B": (1.0, 1000.0)}


@pytest.fixture(scope="module")
def small_record() -> dict:
    record, figure = rr.eq_15_horizon(500.0, 1.0, 1.0, search=SMALL)
    assert callable(figure)
    return record


def curve_of(instance: dict) -> rr.BoundCurve:
    return rr.eq_15_curve(instance["grid points"], instance["l"], instance["σ²"], instance["α"], instance["δ"],
                          instance["B"])


def test_the_horizon_is_the_first_t_below_the_trivial_bound(small_record):
    h = small_record["horizon"]
    assert h is not None and small_record["searched instances"] == math.prod(len(v) for v in SMALL.values())
    curve = curve_of(small_record["instance"])
    assert curve.ratio(float(h)) < 1.0 <= curve.ratio(float(h - 1))
    assert small_record["ratio_at_horizon"] == pytest.approx(curve.ratio(float(h)))
    # no searched instance is below its trivial bound earlier
    for p, ell, s2, a, d, b in itertools.product(*SMALL.values()):
        c = rr.eq_15_curve(p, ell, s2, a, d, b)
        assert all(c.ratio(float(T)) >= 1.0 for T in range(1, h)), c.instance
    # the runs' own set-up: vacuous at the runs' T, and never at α = 1
    setup = small_record["at the runs' set-up"]
    assert setup["α = 0.2"]["ratio at the runs' T"] > 1.0 and setup["α = 1"]["horizon"] is None
    h02 = setup["α = 0.2"]["horizon"]
    c02 = rr.eq_15_curve(rr.RANDOM_WALK["grid_points"], rr.RANDOM_WALK["lengthscale"], rr.RANDOM_WALK["noise_var"],
                         0.2, rr.DELTA, rr.B)
    assert h02 is not None and c02.ratio(float(h02)) < 1.0 <= c02.ratio(float(h02 - 1))


def test_the_curve_is_the_bound_the_runs_are_read_against():
    # at the runs' set-up the curve is chain_bound with β̄_T and γ_T from its own factors
    alpha, T = 0.2, 300.0
    curve = rr.eq_15_curve(rr.RANDOM_WALK["grid_points"], rr.RANDOM_WALK["lengthscale"], rr.RANDOM_WALK["noise_var"],
                           alpha, rr.DELTA, rr.B)
    f = curve.terms(T)
    assert curve.bound(T) == pytest.approx(float(rr.chain_bound(int(T), alpha, math.sqrt(f["β_T²"]), f["γ_T"])))


def test_gamma_upper_is_above_the_greedy_and_brute_force_gains():
    gamma, _ = rr.horizon_setting(11, 2.0, 0.1)
    env = make_env("rkhs-random-walk", {**rr.RANDOM_WALK, "grid_points": 11, "lengthscale": 2.0})
    K = env.kernel(env.grid)
    for T in (1, 4, 16, 64):
        greedy = max_information_gain(env.kernel, env.grid, T, 0.1).lower
        assert gamma(T) >= greedy > 0.0
        for alpha in (0.0, 1.0):  # (15)'s γ_T under the UI noise (no ½): at most twice the homoscedastic bound
            ui = max_information_gain(env.kernel, env.grid, T, ui_noise_schedule(0.1, alpha, T)).lower
            assert 2.0 * gamma(T) >= 2.0 * ui
    for T in (2, 3):  # brute force over every multiset of T grid points
        best = max(0.5 * log_det_ratio_from_gram(K[np.ix_(s, s)], 0.1)
                   for s in itertools.combinations_with_replacement(range(K.shape[0]), T))
        assert gamma(T) >= best


def test_beta_bar_is_above_every_beta_of_a_played_sequence():
    # β_t of eq. (12) on the data behind round t (ui_widths: the runs' set-up) never exceeds the curve's β̄_T
    rng = np.random.default_rng(3)
    T = 80
    index = rng.integers(0, rr.RANDOM_WALK["grid_points"], size=T)
    index[: T // 2] = 7  # repeats as well as spread inputs
    for alpha in rr.EQ15_ALPHAS:
        _, beta = rr.ui_widths(index, alpha)
        curve = rr.eq_15_curve(rr.RANDOM_WALK["grid_points"], rr.RANDOM_WALK["lengthscale"],
                               rr.RANDOM_WALK["noise_var"], alpha, rr.DELTA, rr.B)
        assert float(np.max(beta)) <= math.sqrt(curve.terms(float(T))["β_T²"])


def test_the_trivial_bound_uses_the_range_of_i2():
    low = rr.i2_range(11, 2.0, samples=300)
    assert 0.5 < low.lower < low.mean <= math.sqrt(2.0)  # ‖f‖_k = 1: f(x) − f(x') <= ‖k_x − k_x'‖_k <= √2
    # every f_t has f_1's law (the random walk's scale cancels in the normalisation)
    env = make_env("rkhs-random-walk", {**rr.RANDOM_WALK, "grid_points": 11, "lengthscale": 2.0, "B": 1.0})
    gen = np.random.default_rng(5)
    late = []
    for _ in range(300):
        env.reset(gen, 200)
        f = env.function(200)
        late.append(float(f.max() - f.min()))
    se = math.hypot(low.se, float(np.std(late, ddof=1)) / math.sqrt(len(late)))
    assert abs(float(np.mean(late)) - low.mean) < 4.0 * se
    # the trivial bound scales with B
    c1, c2 = rr.eq_15_curve(11, 2.0, 0.1, 0.0, 1.0, 1.0), rr.eq_15_curve(11, 2.0, 0.1, 0.0, 1.0, 10.0)
    assert c2.trivial(100.0) == pytest.approx(10.0 * c1.trivial(100.0))


def test_power_a_smaller_trivial_bound_or_a_larger_bound_comes_later(small_record):
    curve = curve_of(small_record["instance"])
    h = non_vacuity_horizon(curve, points=120).horizon
    assert h == small_record["horizon"]
    halved = dataclasses.replace(curve, trivial=lambda T: 0.5 * curve.trivial(T))
    doubled = dataclasses.replace(curve, terms=lambda T: {**curve.terms(T), "4": 4.0})  # √(4 Π) = 2 × bound
    assert doubled.bound(100.0) == pytest.approx(2.0 * curve.bound(100.0))
    for weaker in (halved, doubled):
        later = non_vacuity_horizon(weaker, points=120).horizon
        assert later is None or later > h


# ------------------------------------------------------------------------------ the searched instance of (15)
def searched_curve() -> rr.BoundCurve:
    s = rr.SEARCHED_15["setting"]
    return rr.eq_15_curve(s["grid_points"], s["lengthscale"], s["noise_var"], s["alpha"], s["delta"], s["B"])


def test_the_searched_instance_is_read_at_its_horizon_twice_and_four_times_it():
    curve = searched_curve()
    h = non_vacuity_horizon(curve, points=120)
    assert h.horizon == rr.SEARCHED_15["horizons"][0]
    assert curve.ratio(float(h.horizon)) < 1.0 <= curve.ratio(float(h.horizon - 1))
    assert tuple(rr.SEARCHED_15["horizons"]) == (h.horizon, 2 * h.horizon, 4 * h.horizon)
    assert all(curve.ratio(float(T)) < 1.0 for T in rr.SEARCHED_15["horizons"])
    assert set(rr.SEARCHED_15["setting"]) == set(rr.HORIZON_SEARCH)


@pytest.mark.slow  # one to two minutes: the whole search (576 curves, certified γ_T on every grid)
def test_the_searched_instance_is_the_earliest_of_the_search():
    from tvbo_verify.authoring import earliest_horizon

    best, _ = earliest_horizon(rr.horizon_curves(), points=120)
    s = rr.SEARCHED_15["setting"]
    assert best.horizon == rr.SEARCHED_15["horizons"][0]
    assert best.instance == {"grid points": s["grid_points"], "l": s["lengthscale"], "σ²": s["noise_var"],
                             "α": s["alpha"], "δ": s["delta"], "B": s["B"]}


def test_the_searched_runs_are_admissible_for_15():
    # Assumption 1: ‖f_t‖_k = B at every t (O1 never changes f_t); eq. (8): the environment's σ² is the σ² of the
    # data generator O1 and of GP-UCB's model; α = 0: every datum behind round t (age >= 1) has variance 2σ²
    s = rr.SEARCHED_15["setting"]
    sweep = rr.searched_sweep("quick", 0)
    params = rr.searched_env_params(s)
    assert sweep.env_params == params and params["noise_var"] == s["noise_var"] and params["B"] == s["B"]
    assert sweep.horizons == (max(rr.SEARCHED_15["horizons"]),)
    gpucb = sweep.arms[0]
    assert gpucb.params == {"alpha": s["alpha"], "generator": "O1", "record_widths": True}
    assert gpucb.beta.params["B"] == s["B"] and gpucb.beta.params["delta"] == s["delta"]
    assert sweep.arms[-1] == rr.RANDOM
    env = make_env("rkhs-random-walk", params)
    env.reset(np.random.default_rng(4), 200)
    assert [env.rkhs_norm(t) for t in (1, 50, 200)] == pytest.approx([s["B"]] * 3, rel=1e-9)
    for t in (2, 50):
        assert np.allclose(ui_noise_schedule(s["noise_var"], s["alpha"], t - 1, target_time=t),
                           2.0 * s["noise_var"])


def test_searched_widths_recomputed_match_what_gp_ucb_records():
    from tvbo_verify.sweeps import RunCache, run_sweep

    s = rr.SEARCHED_15["setting"]
    sweep = dataclasses.replace(rr.searched_sweep("quick", 0), horizons=(20,), reps=1)
    tr = run_sweep(sweep, cache=RunCache(None), progress=False).runs(rr.gpucb_o1_label(s["alpha"]))[0]
    sd, beta = rr.ui_widths(tr.index, s["alpha"], sweep.env_params, s["delta"])
    assert np.allclose(sd, tr.meta["policy"]["widths"], rtol=1e-9, atol=1e-12)
    assert np.allclose(beta, tr.beta, rtol=1e-9)
    assert np.all(beta > s["B"])  # β_t of (12) is B plus the root
