"""The policy and the environment of the explore-then-commit claim, registered under their names.

Importing this module registers ``explore-then-commit`` (a policy) and ``gaussian-arms`` (an environment),
so that sweeps, the run cache and ``tvbo-verify run`` know them.
"""

from __future__ import annotations

import math

import numpy as np

from tvbo_verify.authoring import Environment, GramKernel, Policy, constant_beta, register_environment, register_policy


class ExploreThenCommit(Policy):
    """Explore-then-commit (Lattimore & Szepesvári 2020, Chapter 6): play the arms in turn until each was
    played ``m`` times, then the arm of largest empirical mean (ties: lowest index) until the horizon.
    ``m`` defaults to ``ceil(n^(2/3))`` for the horizon ``n``, the choice that needs no knowledge of the gaps."""

    name = "explore-then-commit"

    def __init__(self, m: int | None = None) -> None:
        super().__init__(constant_beta(0.0))
        if m is not None and (isinstance(m, bool) or not isinstance(m, int) or m < 1):
            raise ValueError(f"m must be an integer >= 1, got {m!r}")
        self.m = m

    def _reset(self) -> None:
        k = self.problem.G
        self.explore = self.m or math.ceil(self.problem.horizon ** (2 / 3))
        self.sums, self.counts, self.best = np.zeros(k), np.zeros(k, dtype=np.int64), None

    def select(self, step: int, time: float) -> int:
        if step <= self.explore * self.problem.G:
            return (step - 1) % self.problem.G
        if self.best is None:
            self.best = int(np.argmax(self.sums / self.counts))
        return self.best

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        if step <= self.explore * self.problem.G:
            self.sums[index] += y
            self.counts[index] += 1

    @property
    def dataset_size(self) -> int:
        return int(self.counts.sum())

    def params(self) -> dict:
        return {"m": self.m}


class GaussianArms(Environment):
    """A stochastic bandit with fixed means and Gaussian noise of variance ``noise_var`` (1-subgaussian at the
    default 1); the arms are independent (identity kernel)."""

    name = "gaussian-arms"

    def __init__(self, *, means: tuple[float, ...] = (0.0, -0.3, -0.6), noise_var: float = 1.0) -> None:
        super().__init__()
        self.means = np.asarray(means, dtype=float)
        if self.means.ndim != 1 or self.means.size < 2 or not np.all(np.isfinite(self.means)):
            raise ValueError(f"means must be at least two finite numbers, got {means!r}")
        if not noise_var > 0:
            raise ValueError(f"noise_var must be > 0, got {noise_var!r}")
        self.grid = np.arange(self.means.size, dtype=float)[:, None]
        self.kernel = GramKernel(np.eye(self.means.size))
        self.noise_var = float(noise_var)

    def _draw(self, rng: np.random.Generator) -> None:
        """Nothing is random but the noise."""

    def _values(self) -> np.ndarray:
        return self.means

    def _params(self) -> dict:
        return {"means": self.means.tolist()}


register_policy("explore-then-commit", ExploreThenCommit)
register_environment("gaussian-arms", GaussianArms)
