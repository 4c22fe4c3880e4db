"""The expert oracle of ``wsparq`` §1.5 / ``sparq`` §1.6: fresh noisy values of the *current* function."""

from __future__ import annotations

import numpy as np

from ..validation import check_int, check_positive
from .environments.base import Environment

__all__ = [
    "BudgetExceeded", "ExpertOracle",
]


class BudgetExceeded(ValueError):
    """Raised when a query would exceed the oracle's budget."""


class ExpertOracle:
    """Answers ``f_t(x) + N(0, σ̄²)`` at requested grid points of the environment's current round.

    Counts every answered query (``N_T``, ``wsparq`` §1.5) and enforces an optional total ``budget``;
    policies read :attr:`remaining` to stay within it.
    """

    def __init__(self, env: Environment, noise_var: float, rng: np.random.Generator, budget: int | None = None) -> None:
        self.env = env
        self.noise_var = check_positive("expert noise_var", noise_var)
        self.rng = rng
        self.budget = None if budget is None else check_int("expert budget", budget, 0)
        self.count = 0

    @property
    def remaining(self) -> int | None:
        return None if self.budget is None else self.budget - self.count

    def query(self, indices: np.ndarray) -> np.ndarray:
        """Noisy values of ``f_t`` at grid ``indices`` (one fresh noise draw per query)."""
        idx = np.asarray(indices, dtype=np.int64).reshape(-1)
        if self.budget is not None and self.count + idx.size > self.budget:
            raise BudgetExceeded(f"expert budget {self.budget} exceeded ({self.count} used, {idx.size} requested)")
        values = self.env.values()[idx] + np.sqrt(self.noise_var) * self.rng.standard_normal(idx.size)
        self.count += int(idx.size)
        return values
