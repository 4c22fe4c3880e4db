"""The incremental grid posterior after its speed-ups: appends without a triangular solve, a maintained mean,
removals by in-place rotations with O(G) bookkeeping — still equal to a refit after thousands of updates."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.bandits import SWGPUCB, log_rule
from tvbo_verify.bandits.policy import Problem
from tvbo_verify.bandits.window import WeightedArmPosterior
from tvbo_verify.gp import (
    IncrementalPosterior,
    WindowPosterior,
    posterior_from_gram,
    posterior_full,
    tv_posterior,
    weighted_posterior,
)
from tvbo_verify.information import log_det_ratio_from_gram
from tvbo_verify.kernels import ForgettingKernel, Matern, SquaredExponential
from tvbo_verify.linalg import pivoted_cholesky


def test_sliding_window_after_many_removals_equals_a_refit():
    rng = np.random.default_rng(0)
    grid = np.linspace(0, 1, 200)[:, None]
    kernel = SquaredExponential(1.0, 0.1)
    post = IncrementalPosterior(kernel, grid, capacity=8)
    W = 40
    for step in range(3000):
        post.append(int(rng.integers(200)), float(rng.normal()), 0.01)
        if post.n > W:
            post.remove(0)
        if step % 997 == 0 or step == 2999:
            ref = posterior_full(kernel, grid[post.indices], post.y, 0.01, grid)
            np.testing.assert_allclose(post.mean, ref.mean, atol=1e-9)
            np.testing.assert_allclose(post.var, ref.var, atol=1e-9)


@pytest.mark.parametrize("position", [0, 3, 9])
def test_removal_at_any_position(position):
    rng = np.random.default_rng(1)
    grid = np.linspace(0, 1, 50)[:, None]
    kernel = Matern(2.5, 1.0, 0.2)
    post = IncrementalPosterior(kernel, grid)
    for _ in range(10):
        post.append(int(rng.integers(50)), float(rng.normal()), float(rng.uniform(0.01, 0.1)))
    post.remove(position)
    ref = posterior_full(kernel, grid[post.indices], post.y, post.noise_var, grid)
    np.testing.assert_allclose(post.mean, ref.mean, atol=1e-10)
    np.testing.assert_allclose(post.var, ref.var, atol=1e-10)


def test_forgetting_posterior_over_a_long_run_equals_the_batch_formula():
    rng = np.random.default_rng(2)
    grid = np.linspace(0, 1, 80)[:, None]
    kernel = SquaredExponential(1.0, 0.2)
    post = IncrementalPosterior(kernel, grid, forgetting=0.02, capacity=4)
    idx, ys = [], []
    for _ in range(400):
        i, y = int(rng.integers(80)), float(rng.normal())
        post.append(i, y, 0.05)
        idx.append(i)
        ys.append(y)
    ref = tv_posterior(kernel, grid[idx], np.array(ys), 0.05, grid, 0.02)
    np.testing.assert_allclose(post.mean, ref.mean, atol=1e-9)
    np.testing.assert_allclose(post.var, ref.var, atol=1e-9)


# -- the sliding-window posterior (kernel rows + downdatable factor) ----------------------------------
def _window_run(post, rng, steps, W, arms, noise):
    for _ in range(steps):
        post.append(int(rng.integers(arms)), float(rng.normal()), noise)
        if post.n > W:
            post.remove(0)


@pytest.mark.parametrize("arms, noise", [(200, 0.01), (5, 1e-4)])
def test_window_posterior_after_thousands_of_removals_equals_a_refit(arms, noise):
    """Few repeated arms with small noise make K + Σ ill-conditioned: the mean is recomputed at every removal,
    so it does not drift from the refit."""
    rng = np.random.default_rng(3)
    grid = np.linspace(0, 1, 200)[:, None]
    kernel = SquaredExponential(1.0, 0.1)
    post = WindowPosterior(kernel, grid, capacity=8)
    for _ in range(3):
        _window_run(post, rng, 1000, 60, arms, noise)
        ref = posterior_full(kernel, grid[post.indices], post.y, noise, grid)
        np.testing.assert_allclose(post.mean, ref.mean, atol=1e-8)
        np.testing.assert_allclose(post.var, ref.var, atol=1e-10)
        assert post.log_det_ratio() == pytest.approx(log_det_ratio_from_gram(kernel(grid[post.indices]),
                                                                             post.noise_var), rel=1e-9)


@pytest.mark.parametrize("position", [0, 4, 11])
def test_window_posterior_removes_any_position_and_refreshes(position):
    rng = np.random.default_rng(4)
    grid = np.linspace(0, 1, 60)[:, None]
    kernel = Matern(2.5, 1.0, 0.2)
    post = WindowPosterior(kernel, grid, capacity=2)
    for _ in range(12):
        post.append(int(rng.integers(60)), float(rng.normal()), float(rng.uniform(0.01, 0.1)))
    post.remove(position)
    ref = posterior_full(kernel, grid[post.indices], post.y, post.noise_var, grid)
    np.testing.assert_allclose(post.mean, ref.mean, atol=1e-10)
    np.testing.assert_allclose(post.var, ref.var, atol=1e-10)
    other = SquaredExponential(2.0, 0.3)
    post.set_model(other, noise_var=0.05)
    ref = posterior_full(other, grid[post.indices], post.y, 0.05, grid)
    np.testing.assert_allclose(post.mean, ref.mean, atol=1e-10)
    with pytest.raises(ValueError, match="position"):
        post.remove(post.n)
    with pytest.raises(ValueError, match="forgetting"):
        post.set_model(other, forgetting=0.1)


def test_sliding_window_policy_matches_a_refit_on_the_window():
    """SW-GP-UCB on the window posterior chooses what a refit on the last W observations chooses."""
    rng = np.random.default_rng(5)
    grid = np.linspace(0, 1, 150)[:, None]
    kernel = SquaredExponential(1.0, 0.1)
    f = kernel(grid, rng.uniform(0, 1, (6, 1))) @ rng.normal(size=6)
    policy = SWGPUCB(log_rule(0.8, 4.0), window=25)
    policy.reset(Problem(grid, kernel, 0.01, 300), np.random.default_rng(0))
    idx, ys = [], []
    for t in range(1, 301):
        if idx:
            ref = posterior_full(kernel, grid[idx[-25:]], np.array(ys[-25:]), 0.01, grid)
            mult = np.sqrt(log_rule(0.8, 4.0).value(t))
            expected = int(np.argmax(ref.mean + mult * np.sqrt(ref.var)))
            np.testing.assert_allclose(policy.post.mean, ref.mean, atol=1e-9)
        else:
            expected = None
        i = policy.select(t, float(t))
        if expected is not None:
            assert i == expected
        y = float(f[i] + 0.1 * rng.normal())
        policy.observe(t, float(t), i, y)
        idx.append(i)
        ys.append(y)


# -- TV forgetting kept as a scalar ----------------------------------------------------------------------
@pytest.mark.parametrize("epsilon", [0.3, 0.9])
def test_forgetting_scale_folds_in_before_underflow(epsilon):
    """ρ^t underflows after a few hundred appends at these ε: the scale is folded into the rows first."""
    rng = np.random.default_rng(6)
    grid = np.linspace(0, 1, 40)[:, None]
    kernel = SquaredExponential(1.0, 0.2)
    post = IncrementalPosterior(kernel, grid, forgetting=epsilon, capacity=4)
    idx, ys = [], []
    for _ in range(1200):
        i, y = int(rng.integers(40)), float(rng.normal())
        post.append(i, y, 0.05)
        idx.append(i)
        ys.append(y)
    assert post._scale >= IncrementalPosterior._RESCALE_BELOW
    ref = tv_posterior(kernel, grid[idx], np.array(ys), 0.05, grid, epsilon)
    np.testing.assert_allclose(post.mean, ref.mean, atol=1e-9)
    np.testing.assert_allclose(post.var, ref.var, atol=1e-9)
    post.remove(3)
    ref = posterior_from_gram(
        kernel(grid[post.indices]) * ForgettingKernel(epsilon).of_lag(post.times[:, None] - post.times[None, :]),
        kernel(grid[post.indices], grid) * ForgettingKernel(epsilon).of_lag(post.clock + 1 - post.times)[:, None],
        kernel.diag(grid), post.y, post.noise_var)
    np.testing.assert_allclose(post.mean, ref.mean, atol=1e-9)
    np.testing.assert_allclose(post.var, ref.var, atol=1e-9)


def test_incremental_log_det_ratio_is_read_from_the_factor():
    rng = np.random.default_rng(7)
    grid = np.linspace(0, 1, 30)[:, None]
    kernel = SquaredExponential(1.0, 0.2)
    post = IncrementalPosterior(kernel, grid, forgetting=0.05)
    for _ in range(20):
        post.append(int(rng.integers(30)), float(rng.normal()), 0.02)
    t = post.times
    K = kernel(grid[post.indices]) * ForgettingKernel(0.05).of_lag(t[:, None] - t[None, :])
    assert post.log_det_ratio() == pytest.approx(log_det_ratio_from_gram(K, post.noise_var), rel=1e-10)


# -- WGP-UCB: arm form and information (feature) form -----------------------------------------------------
@pytest.mark.parametrize("kernel, form", [(SquaredExponential(1.0, 0.1), "features"), (Matern(2.5, 1.0, 0.2), "arms")])
def test_weighted_arm_posterior_both_forms_equal_the_weighted_refit(kernel, form):
    grid = np.linspace(0, 1, 400)[:, None]
    post = WeightedArmPosterior(kernel, grid, 0.5, 0.9, max_arms=250)
    rng = np.random.default_rng(8)
    for k, arms in enumerate((3, 400, 3)):
        idx, y = rng.integers(0, arms, 250), rng.normal(size=250)
        mean, var = post.compute(idx, y)
        ref = weighted_posterior(kernel, grid[idx], y, grid, lam=0.5, discount=0.9)
        np.testing.assert_allclose(mean, ref.mean, atol=1e-10)
        np.testing.assert_allclose(var, ref.var, atol=1e-10)
        if k == 0:  # few arms: the arm form, without looking for a grid factor first
            assert post.features is None
    assert (post.features is not None) == (form == "features")


def test_pivoted_cholesky_stops_at_the_tolerance_or_the_rank_cap():
    grid = np.linspace(0, 1, 300)[:, None]
    K = SquaredExponential(1.0, 0.15)(grid)
    F = pivoted_cholesky(np.diag(K), lambda j: K[:, j], tol=1e-12, max_rank=100)
    assert F is not None and F.shape[1] < 40
    assert np.max(np.diag(K - F @ F.T)) <= 1e-12
    assert np.max(np.abs(K - F @ F.T)) <= 1e-12 + 1e-15
    rough = Matern(0.5, 1.0, 0.05)(grid)
    assert pivoted_cholesky(np.diag(rough), lambda j: rough[:, j], tol=1e-12, max_rank=20) is None


# -- W-DBO and BOLT: the downdated removal state against refits -------------------------------------------
@pytest.mark.parametrize("name", ["w-dbo", "bolt"])
def test_removal_state_equals_the_refit_criterion_through_removals(name):
    """At every deletion the W₂ values from the kept factor (downdated after earlier deletions of the same
    round) equal :func:`removal_criterion` recomputed from scratch on the data at that moment."""
    from tvbo_verify.bandits.registry import ALGORITHMS
    from tvbo_verify.divergences import removal_criterion

    grid = np.linspace(0, 1, 80)[:, None]
    kernel = SquaredExponential(1.0, 0.15)
    policy = ALGORITHMS[name](response="0.5 + 2e-4*n**3") if name == "bolt" else ALGORITHMS[name](budget_rate=2.0)
    checked = []
    original = type(policy).relevance

    def relevance(self, time):
        w2 = original(self, time)
        _, ref = removal_criterion(self.kernel, self.X, self.y, self.problem.noise_var, self._quadrature(time))
        np.testing.assert_allclose(w2, ref, rtol=1e-7, atol=1e-10)
        checked.append(w2.size)
        return w2

    policy.relevance = relevance.__get__(policy)
    policy.reset(Problem(grid, kernel, 0.01, 80), np.random.default_rng(0))
    rng = np.random.default_rng(9)
    for t in range(1, 81):
        i = policy.select(t, float(t))
        mean, var = policy._posterior(float(t))
        ref = posterior_full(policy.kernel, policy.X, policy.y, 0.01, np.column_stack([grid, np.full(80, float(t))])) \
            if policy.y.size else None
        if ref is not None:
            np.testing.assert_allclose(mean, ref.mean, atol=1e-9)
        policy.observe(t, float(t), i, float(np.sin(6 * grid[i, 0]) + 0.1 * rng.normal()))
    assert len(checked) > 10 and policy.removed


def test_append_only_posterior_keeps_no_square_factor():
    """GP-UCB's posterior never removes: it keeps the diagonal of L alone, with the same mean, variance and
    log-det ratio as one that keeps L, and refuses a removal with a clear message."""
    rng = np.random.default_rng(10)
    grid = np.linspace(0, 1, 40)[:, None]
    kernel = SquaredExponential(1.0, 0.2)
    full = IncrementalPosterior(kernel, grid, forgetting=0.02, capacity=2)
    lean = IncrementalPosterior(kernel, grid, forgetting=0.02, capacity=2, keep_factor=False)
    for _ in range(60):
        i, y = int(rng.integers(40)), float(rng.normal())
        full.append(i, y, 0.03)
        lean.append(i, y, 0.03)
    assert lean._L is None
    np.testing.assert_array_equal(lean.mean, full.mean)
    np.testing.assert_array_equal(lean.var, full.var)
    assert lean.log_det_ratio() == full.log_det_ratio()
    lean.refresh(np.full(lean.n, 0.05))
    full.refresh(np.full(full.n, 0.05))
    assert lean.log_det_ratio() == pytest.approx(full.log_det_ratio(), rel=1e-12)
    with pytest.raises(ValueError, match="keep_factor"):
        lean.remove(0)
