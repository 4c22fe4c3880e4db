"""SW-GP-UCB (sliding window, Zhou & Shroff 2021) and WGP-UCB (``wgpucb`` Algorithm 1).

* :class:`SWGPUCB` keeps the last ``window`` observations in an :class:`~tvbo_verify.gp.IncrementalPosterior`
  (append, then drop the oldest by a Givens downdate: ``O(W·G)`` per round).
* :class:`WGPUCB` uses the weighted posterior of ``wgpucb`` eqs. (2)–(3) with discount weights
  ``w_s = γ^{-s}`` and ``λ_t = λ w_t`` (:func:`tvbo_verify.gp.weighted_posterior`, overflow-free relative
  form) and the rule ``x_t = argmax μ̃_{t−1} + β_{t−1} σ̂_{t−1}`` (eq. (4), ``μ + β σ``). Every weight ratio
  changes each round, so each round refits (``O(m³ + m²G)`` for the ``m`` observations kept).
  Observations whose relative weight ``γ^{t−s}`` is below ``memory_tol`` are dropped: they enter with
  noise ``> λ/memory_tol`` and change μ̃, σ̂ by ``O(memory_tol)``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..gp import weighted_posterior
from ..validation import check_int, check_interval, check_open_interval, check_positive
from .beta import BetaRule, log_rule, wgpucb_theory
from .gpucb import _GridUCB
from .policy import Policy


class SWGPUCB(_GridUCB):
    """GP-UCB on the ``window`` most recent observations."""

    name = "sw-gp-ucb"
    paper = "wgpucb"

    def __init__(self, beta: BetaRule | None = None, *, window: int = 50) -> None:
        super().__init__(beta)
        self.window = check_int("window", window, 1)

    def _capacity(self) -> int:
        return min(self.window + 1, self.problem.horizon)

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        super().observe(step, time, index, y)
        while self.post.n > self.window:
            self.post.remove(0)

    def params(self) -> dict[str, Any]:
        return {"window": self.window}


class WGPUCB(Policy):
    """WGP-UCB (``wgpucb`` Algorithm 1) with discount ``γ`` and regulariser ``λ``.

    Default β: ``wgpucb`` step 1 with the Hadamard bound (``B = 1``, ``R = √σ²``) if no rule is given.
    ``lagged_beta=True`` uses ``β_{t−1}`` at round ``t`` as eq. (4) prints.
    """

    name = "wgp-ucb"
    paper = "wgpucb"

    def __init__(self, beta: BetaRule | None = None, *, discount: float = 0.95, lam: float = 1.0,
                 memory_tol: float = 1e-14, lagged_beta: bool = True) -> None:
        self.discount = check_interval("discount", discount, 0.0, 1.0, closed_low=False)
        self.lam = check_positive("lam", lam)
        self.memory_tol = check_open_interval("memory_tol", memory_tol, 0.0, 1.0)
        self.lagged_beta = bool(lagged_beta)
        super().__init__(beta if beta is not None else log_rule())
        self._explicit_beta = beta is not None

    def _reset(self) -> None:
        assert self.problem is not None
        if not self._explicit_beta:
            self.beta = wgpucb_theory(B=1.0, R=math.sqrt(self.problem.noise_var), lam=self.lam,
                                      discount=self.discount, kbar=self.problem.kernel.max_variance)
        self._idx: list[int] = []
        self._y: list[float] = []
        G = self.problem.G
        self._mean = np.zeros(G)
        self._var = self.problem.kernel.diag(self.problem.grid)
        self._memory = (math.inf if self.discount == 1.0
                        else math.log(1.0 / self.memory_tol) / -math.log(self.discount))

    def select(self, step: int, time: float) -> int:
        t_beta = max(step - 1, 1) if self.lagged_beta else step
        return self._ucb(t_beta, self._mean, self._var)

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        self._idx.append(int(index))
        self._y.append(float(y))
        while len(self._idx) - 1 > self._memory:  # age of the oldest kept observation
            self._idx.pop(0)
            self._y.pop(0)
        grid = self.problem.grid
        res = weighted_posterior(self.problem.kernel, grid[np.asarray(self._idx)], np.asarray(self._y), grid,
                                 lam=self.lam, discount=self.discount)
        self._mean, self._var = res.mean, res.var

    @property
    def dataset_size(self) -> int:
        return len(self._idx)

    def params(self) -> dict[str, Any]:
        return {"discount": self.discount, "lam": self.lam, "memory_tol": self.memory_tol,
                "lagged_beta": self.lagged_beta}
