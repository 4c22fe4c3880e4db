"""Helpers of ``tvbo_verify.papers.tvgpucb.checks.regret_bounds``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.bandits import RGPUCB, TVGPUCB, run
from tvbo_verify.papers.tvgpucb.checks.regret_bounds import (
    GREEDY,
    THEORY_BETA,
    horizon_ladder,
    markov_environment,
    mismatch_step_bounds,
    printed_bound_17,
    reset_sweep,
    statement_beta,
    static_part_17,
    tv_bound_run,
    tv_step_bounds,
    tv_sweep,
)
from tvbo_verify.theory.rates import tvgpucb_regret_bound
from tvbo_verify.verify.builders import affine_score


def test_affine_score_turns_two_bounds_into_thresholds_one_and_zero():
    s = affine_score(np.array([5.0, 10.0, 20.0, 7.0]), np.full(4, 10.0), np.full(4, 5.0))
    assert np.allclose(s, [0.0, 1.0, 3.0, 0.4])
    with pytest.raises(ValueError):
        affine_score(np.ones(2), np.ones(2), np.full(2, 2.0))
    # no gap between the bound and its sharpening: the score says only whether the bound holds
    assert list(affine_score(np.array([1.0, 3.0]), np.full(2, 2.0), np.full(2, 2.0))) == [-math.inf, math.inf]


def test_horizon_ladder_ends_at_the_horizon():
    assert horizon_ladder(200) == [25, 50, 100, 200]
    assert horizon_ladder(500) == [25, 50, 100, 200, 400, 500]


def test_tv_bound_run_is_eq_20_with_the_lower_bracket_of_gamma_tilde():
    env = markov_environment(0.1)
    tr = run(TVGPUCB(THEORY_BETA, epsilon=0.1), env, 30, np.random.default_rng(0))
    r = tv_bound_run(tr, 0.1, [10, 30])
    assert np.allclose(r.regret, tr.cumulative[[9, 29]])
    lower = (r.bound - 2.0) ** 2  # C_1 T β_T L_T
    beta = [tr.beta[9], tr.beta[29]]
    expect = [tvgpucb_regret_bound(T, b, lo / (8 / math.log1p(100) * T * b), 0.01)
              for T, b, lo in zip((10, 30), beta, lower)]
    assert np.allclose(r.bound, expect)
    assert np.all(r.played > 0) and np.all(r.sharpened < r.bound)


def test_mismatch_bounds_collapse_to_the_gp_ucb_step_without_forgetting():
    # with ε = 0 the two posteriors coincide: no mismatch, and (72) is the GP-UCB step r_t <= 2 β^{1/2} σ
    env = markov_environment(0.0)
    tr = run(RGPUCB(THEORY_BETA, block=5), env, 12, np.random.default_rng(1))
    bound, sharpened = mismatch_step_bounds(tr, 0.0, 5)
    np.testing.assert_allclose(bound, sharpened)
    env = markov_environment(0.1)
    tr = run(RGPUCB(THEORY_BETA, block=5), env, 12, np.random.default_rng(1))
    bound, sharpened = mismatch_step_bounds(tr, 0.1, 5)
    assert np.all(bound >= sharpened) and np.any(bound > sharpened) and np.all(np.isfinite(bound))
    # the statement's width, not the policy's: a greedy run (β = 0) is read with the theory β_t
    np.testing.assert_allclose(statement_beta(12), tr.beta)


def test_tv_step_bound_is_twice_the_width_at_the_chosen_point():
    env = markov_environment(0.1)
    tr = run(TVGPUCB(THEORY_BETA, epsilon=0.1), env, 15, np.random.default_rng(2))
    bound, sharpened = tv_step_bounds((tr, 0.1))
    np.testing.assert_allclose(bound, 2 * sharpened)
    assert sharpened[0] == pytest.approx(math.sqrt(tr.beta[0]))  # prior σ̃_0 = 1
    assert np.all(tr.regret <= bound)  # the UCB step on a short run


def test_control_arms_share_the_methods_seeds():
    tv = tv_sweep(0.01, 50, 4, seed=3)
    assert [a.algorithm for a in tv.arms] == ["tv-gp-ucb", "tv-gp-ucb", "greedy"]
    assert tv.arms[1].params == {"epsilon": 0.0} and tv.seed == 3
    assert reset_sweep(0.01, 100, 4).arms[-1] == GREEDY


def test_printed_bound_exceeds_its_static_part_by_the_mismatch_term():
    assert printed_bound_17(100, 38, 0.01, 60.0) > 1e6 * static_part_17(100, 38, 60.0)
    assert printed_bound_17(100, 38, 1e-16, 60.0) == pytest.approx(static_part_17(100, 38, 60.0), rel=1e-3)


# ------------------------------------------------------------------------------------- non-vacuity horizons
def test_the_tv_gain_upper_bound_holds_for_every_sequence_on_tiny_domains():
    from tvbo_verify.information import exact_max_tv_information_gain
    from tvbo_verify.information_bounds import GammaUpper
    from tvbo_verify.kernels import SquaredExponential
    from tvbo_verify.papers.tvgpucb.checks.regret_bounds import tv_gain_upper

    for X, s2, eps in ((np.array([[0.0]]), 0.01, 0.01), (np.array([[0.0], [0.3]]), 0.1, 0.05),
                       (np.array([[0.0], [0.1], [0.5]]), 0.001, 0.2)):
        gamma = GammaUpper("se", X, lengthscale=0.2, noise_var=s2)
        for T in (1, 3, 5):
            exact = exact_max_tv_information_gain(SquaredExponential(1.0, 0.2), X, T, s2, eps).value
            assert exact <= tv_gain_upper(gamma, T, eps, s2) + 1e-12


def test_on_one_point_the_tv_gain_bound_is_the_block_formula_by_hand():
    # one point: γ_N = ½ log(1 + N/σ²); one block Ñ = T = 2 has c = (1 + ρ)/2, so the bound is
    # ½ log(1 + 2/σ²) + log(1 + (1 − ρ)/(2σ²)) = 2.876, below two blocks of one, log(1 + 1/σ²) = 4.615
    from tvbo_verify.information_bounds import GammaUpper
    from tvbo_verify.papers.tvgpucb.checks.regret_bounds import tv_gain_upper

    s2, eps = 0.01, 0.01
    rho = math.sqrt(1 - eps)
    by_hand = 0.5 * math.log1p(2 / s2) + math.log1p((1 - rho) / (2 * s2))
    assert by_hand == pytest.approx(2.876, abs=1e-3) and by_hand < math.log1p(1 / s2)
    got = tv_gain_upper(GammaUpper("se", np.zeros((1, 1)), lengthscale=0.2, noise_var=s2), 2, eps, s2)
    assert got == pytest.approx(by_hand, rel=1e-6)


def test_the_horizon_of_eq_20_is_the_first_integer_where_the_bound_falls_below_the_trivial_bound():
    from tvbo_verify.authoring import non_vacuity_horizon
    from tvbo_verify.papers.tvgpucb.checks.regret_bounds import SEARCHED_43, theorem_4_3_curve

    s = dict(SEARCHED_43["setting"])
    curve = theorem_4_3_curve(s["d"], s["points_per_dim"], s["lengthscale"], s["noise_var"], SEARCHED_43["epsilon"])
    h = non_vacuity_horizon(curve, T_max=1e12, points=120)
    assert h.horizon == SEARCHED_43["horizons"][0]
    # by hand: (20) = √(C_1 T β_T γ̃_T) + 2 with C_1 = 8/log(1 + σ⁻²), β_T = 2 log(|D| π² T²/(6δ))
    for T in (h.horizon - 1, h.horizon):
        t = curve.terms(T)
        assert t["C_1"] == pytest.approx(8 / math.log1p(100.0))
        assert t["β_T"] == pytest.approx(2 * math.log(5 * math.pi**2 * T**2 / 0.6))
        assert curve.bound(T) == pytest.approx(math.sqrt(t["C_1"] * T * t["β_T"] * t["γ̃_T"]) + 2)
    assert curve.ratio(h.horizon) < 1 <= curve.ratio(h.horizon - 1)


def test_the_terms_of_eq_17_sum_to_the_printed_bound():
    from tvbo_verify.confidence import beta_finite_domain
    from tvbo_verify.papers.tvgpucb.checks.regret_bounds import DELTA, theorem_4_2_terms
    from tvbo_verify.theory.rates import rgpucb_regret_bound

    for T, N, G, gamma, eps, s2 in ((100, 38, 2500, 60.0, 0.01, 0.01), (1417, 1024, 5, 7.0, 1e-14, 0.1),
                                    (5000, 64, 20, 12.0, 1e-8, 1.0)):
        terms = theorem_4_2_terms(T, N, G, gamma, eps, s2)
        printed = rgpucb_regret_bound(T, N, eps, beta_finite_domain(T, G, DELTA), gamma, s2, a0=float(G),
                                      b0=math.sqrt(2.0), delta=DELTA, reading="printed")
        assert sum(terms.values()) == pytest.approx(printed, rel=1e-12)


def test_the_horizon_of_eq_17_is_the_first_integer_where_the_bound_falls_below_the_trivial_bound():
    from tvbo_verify.authoring import non_vacuity_horizon
    from tvbo_verify.papers.tvgpucb.checks.regret_bounds import SEARCHED_42, best_block, theorem_4_2_curve

    s = dict(SEARCHED_42["setting"])
    args = (s["d"], s["points_per_dim"], s["lengthscale"], s["noise_var"], SEARCHED_42["epsilon"])
    curve = theorem_4_2_curve(*args)
    h = non_vacuity_horizon(curve, T_max=1e12, points=120)
    assert h.horizon == SEARCHED_42["horizons"][0] and best_block(h.horizon, *args) == SEARCHED_42["block"]
    assert curve.ratio(h.horizon) < 1 <= curve.ratio(h.horizon - 1)
    # the stationary root dominates there; the mismatch term Tψ_T is not negligible
    t = curve.terms(h.horizon)
    assert max(t, key=t.get) == "√(C_1 T β_T (T/N + 1) γ_N)" and t["Tψ_T(N, ε)"] > 1.0
