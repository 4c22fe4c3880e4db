"""The policy protocol shared by every algorithm, and the UCB arg-max on a grid.

A round ``t`` of the runner: ``x_t = select(t, time)``, then the environment answers ``y_t`` and the
runner calls ``observe(t, time, x_t, y_t)``, during which a policy may ask the expert oracle about
``f_t`` (SparQ, W-SparQ). Counters: :attr:`Policy.dataset_size` (observations the posterior uses),
:attr:`Policy.last_beta` (β_t used by the last ``select``) and the oracle's query count.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..kernels import Kernel
from .beta import BetaRule
from .expert import ExpertOracle


@dataclass
class Problem:
    """What a policy is told about the environment: grid, kernel, noise, horizon (and more if known)."""

    grid: np.ndarray
    kernel: Kernel
    noise_var: float
    horizon: int
    st_kernel: Kernel | None = None  # spatio-temporal kernel for time-aware policies (bolt)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def G(self) -> int:
        return int(self.grid.shape[0])

    @property
    def d(self) -> int:
        return int(self.grid.shape[1])


def ucb_argmax(mean: np.ndarray, var: np.ndarray, multiplier: float) -> int:
    """``argmax_x μ(x) + multiplier·σ(x)`` on the grid; ties go to the lowest index (``wgpucb`` §5.5)."""
    return int(np.argmax(mean + multiplier * np.sqrt(np.maximum(var, 0.0))))


class Policy(ABC):
    """A bandit policy on a finite grid; subclasses implement :meth:`_reset`, :meth:`select`, :meth:`observe`."""

    name: str = "policy"
    paper: str = ""

    def __init__(self, beta: BetaRule) -> None:
        if not isinstance(beta, BetaRule):
            raise ValueError(f"beta must be a BetaRule, got {type(beta).__name__}")
        self.beta = beta
        self.last_beta = float("nan")
        self.problem: Problem | None = None
        self.expert: ExpertOracle | None = None

    def reset(self, problem: Problem, rng: np.random.Generator, expert: ExpertOracle | None = None) -> None:
        """Forget everything and prepare for a new run on ``problem``."""
        self.problem = problem
        self.rng = rng
        self.expert = expert
        self.last_beta = float("nan")
        self._reset()

    @abstractmethod
    def _reset(self) -> None: ...

    @abstractmethod
    def select(self, step: int, time: float) -> int:
        """Grid index of ``x_t`` for round ``step`` at clock ``time``."""

    @abstractmethod
    def observe(self, step: int, time: float, index: int, y: float) -> None:
        """Receive ``y_t`` at grid index ``index`` (and, optionally, consult the expert)."""

    @property
    @abstractmethod
    def dataset_size(self) -> int:
        """Number of observations the current posterior is built from."""

    def _ucb(self, step: int, mean: np.ndarray, var: np.ndarray, **context: Any) -> int:
        assert self.problem is not None
        beta, mult = self.beta.multiplier(step, grid_size=self.problem.G, d=self.problem.d, **context)
        self.last_beta = beta
        return ucb_argmax(mean, var, mult)

    def params(self) -> dict[str, Any]:
        """Algorithm parameters (JSON-serialisable), recorded in traces."""
        return {}

    def config(self) -> dict[str, Any]:
        return {"name": self.name, "paper": self.paper, "beta": self.beta.to_dict(), **self.params()}
