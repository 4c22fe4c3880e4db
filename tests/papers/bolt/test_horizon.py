"""Non-vacuity horizons of Theorem 3.8's (7) and Lemma D.1's (62) (``checks/regret_runs.py``)."""

import math

import numpy as np
import pytest

from tvbo_verify.authoring import BoundCurve, non_vacuity_horizon, sample_range
from tvbo_verify.confidence import beta_bolt_as_printed
from tvbo_verify.gp import posterior
from tvbo_verify.kernels import Matern, SpatioTemporalKernel
from tvbo_verify.papers.bolt import reproductions as rb
from tvbo_verify.papers.bolt.checks.regret_runs import (
    HORIZON_MODELS,
    LEMMA_D1_WIDTH,
    THEOREM_3_8_ROOT,
    lemma_d1_curve,
    range_upper,
    theorem_3_8_curve,
    window_sigma_floor,
)
from tvbo_verify.theory.response import ResponseModel

PAPER = (rb.BOLT_ST["d"], rb.BOLT_ST["points_per_dim"], rb.LIPSCHITZ, rb.DELTA, *HORIZON_MODELS[0])


def scaled(curve: BoundCurve, trivial: float = 1.0, bound: float = 1.0) -> BoundCurve:
    """The same curve with its trivial bound and its terms multiplied."""
    return BoundCurve(curve.name, lambda T: {k: bound * v for k, v in curve.terms(T).items()},
                      trivial=lambda T: trivial * curve.trivial(T), instance=curve.instance)


def test_the_theorem_curve_is_the_runs_bound_and_vacuous_on_the_runs_instance():
    curve = theorem_3_8_curve(*PAPER)
    env = rb.make_bolt_env()
    for T in (rb.N_STAR, 50, 200):
        assert curve.bound(T) == pytest.approx(rb.theorem_3_8_bound(T, rb.N_STAR, env), rel=1e-12)
    assert math.isnan(curve.terms(rb.N_STAR - 1)[THEOREM_3_8_ROOT])  # the theorem compares T >= n only
    h = non_vacuity_horizon(curve, T_max=1e12, points=120)
    assert h.horizon is None and min(r for _, r in h.grid if not math.isnan(r)) > 1.0


def test_the_range_upper_bound_is_above_the_monte_carlo_range():
    # a 2-D grid where the chaining step is used (c = 60 < 100) and a coarse one where the union bound is used
    for d, points, ls, lam in ((2, 100, 0.2, 1.0), (1, 5, 0.05, 4.0), (2, 15, 0.2, 1.0)):
        axis = np.linspace(0.0, 1.0, points)[:, None]
        r = sample_range([Matern(2.5, 1.0, ls)(axis)] * d, samples=400, seed=1, variance=lam)
        assert r.mean - 3 * r.se <= range_upper(d, points, ls, lam, 1e9)
    assert range_upper(2, 15, 0.2, 1.0, 0.5) == 1.0  # L d caps the range of an L-Lipschitz slice


def test_the_sigma_floor_is_below_the_posterior_of_random_windows_and_met_with_all_data_at_the_query():
    n, lt, lam, s2 = 4, 10.0, 1.0, 0.01
    floor = window_sigma_floor(n, lt, lam, s2)
    st = SpatioTemporalKernel(Matern(2.5, 1.0, 0.2), Matern(1.5, 1.0, lt), signal_variance=lam)
    R = ResponseModel.from_expression(rb.RESPONSE)
    times = np.cumsum([0.0] + [float(R(min(m, n))) for m in range(1, 3 * n)])  # the clock: R(min(m, n)) after m
    rng = np.random.default_rng(0)
    for k in range(2, 3 * n):
        past = np.arange(max(0, k - n), k)
        x = rng.uniform(size=2)
        sigma_floor = floor[min(k, len(floor) - 1)]
        for _ in range(20):  # random windows: never below the floor
            X = np.column_stack([rng.uniform(size=(len(past), 2)), times[past]])
            var = posterior(st, X, np.zeros(len(past)), s2, np.array([[*x, times[k]]]))[1][0]
            assert math.sqrt(var) >= sigma_floor - 1e-9
        X = np.column_stack([np.tile(x, (len(past), 1)), times[past]])  # every point at the query: the floor
        var = posterior(st, X, np.zeros(len(past)), s2, np.array([[*x, times[k]]]))[1][0]
        assert math.sqrt(var) == pytest.approx(sigma_floor, rel=1e-6)


def test_the_lemma_horizon_is_the_first_iteration_below_the_range_and_moves_with_the_trivial_bound():
    curve = lemma_d1_curve(*PAPER)
    h = non_vacuity_horizon(curve, T_max=1e12, points=120)
    assert h.horizon == 2 and curve.ratio(h.horizon) < 1 <= curve.ratio(h.horizon - 1)
    # iteration 1: no data, σ_D = √λ
    assert curve.terms(1)[LEMMA_D1_WIDTH] == pytest.approx(2 * math.sqrt(beta_bolt_as_printed(1, 2, rb.LIPSCHITZ,
                                                                                               rb.DELTA)))
    assert h.until is not None and curve.ratio(h.until) < 1 <= curve.ratio(h.until + 1)
    # power: a smaller trivial bound (or a larger bound) gives a later horizon, or none. The ratio at n = 2 (0.388)
    # is close to its smallest (0.366, in the steady window), so halving keeps n = 2 and 0.375 moves it
    halved = non_vacuity_horizon(scaled(curve, trivial=0.5), T_max=1e12, points=120)
    assert halved.horizon == h.horizon and halved.until < h.until
    later = non_vacuity_horizon(scaled(curve, trivial=0.375), T_max=1e12, points=120)
    assert later.horizon is not None and later.horizon > h.horizon
    assert non_vacuity_horizon(scaled(curve, bound=10.0), T_max=1e12, points=120).horizon is None


def test_the_theorem_search_can_find_a_horizon_when_the_trivial_bound_is_larger():
    # power: the same curve against a trivial bound ten times larger says something, so "vacuous" is not forced
    curve = theorem_3_8_curve(*PAPER)
    h = non_vacuity_horizon(scaled(curve, trivial=10.0), T_max=1e12, points=120)
    assert h.horizon is not None and h.horizon >= rb.N_STAR
    big = scaled(curve, trivial=10.0)
    assert big.ratio(h.horizon) < 1 and (h.horizon == rb.N_STAR or big.ratio(h.horizon - 1) >= 1)
