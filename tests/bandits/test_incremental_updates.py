"""The incremental grid posterior after its speed-ups: appends without a triangular solve, a maintained mean,
removals by in-place rotations with O(G) bookkeeping — still equal to a refit after thousands of updates."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.gp import IncrementalPosterior, posterior_full, tv_posterior
from tvbo_verify.kernels import Matern, SquaredExponential


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
