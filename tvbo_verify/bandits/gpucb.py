"""GP-UCB, R-GP-UCB and TV-GP-UCB (``tvgpucb`` Algorithms 1–2) on the incremental grid posterior.

All three keep :class:`tvbo_verify.gp.IncrementalPosterior`, so a round costs ``O(t·G)``:

* :class:`GPUCB` — the static posterior (``tvgpucb`` eqs. (5)–(6)); with ``ui_alpha`` it is the
  GP-UCB of ``wsparq`` eqs. (9)–(11) under uncertainty injection, where the noise of the
  observation made at ``s`` is ``σ²(1 + (τ − s)^α)`` with ``τ = t + target_offset`` (every variance
  changes every round, so the posterior is refreshed, ``O(t³ + t²G)``);
* :class:`RGPUCB` — resets the posterior to the prior when ``(t − 1) mod N = 0`` (``tvgpucb``
  Algorithm 1, §2 note on ``N = 1``); β_t keeps the global ``t``;
* :class:`TVGPUCB` — the time-varying posterior of ``f_t`` given all past data (eqs. (7)–(8)),
  via the separable forgetting factor of the incremental posterior.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..gp import IncrementalPosterior
from ..information import GridGainBound, grid_gain_bound
from ..validation import check_choice, check_int, check_interval, check_nonnegative, check_positive
from .beta import BetaRule, constant, log_rule
from .policy import Policy
from .tuning import order_wise_for

__all__ = [
    "GPUCB", "GreedyGP", "RGPUCB", "TVGPUCB",
]


class _GridUCB(Policy):
    """Shared machinery: one :class:`IncrementalPosterior` and the UCB on it."""

    forgetting: float | None = None
    supports_fit = True

    def __init__(self, beta: BetaRule | None = None) -> None:
        super().__init__(beta if beta is not None else log_rule())

    def _capacity(self) -> int:
        """Observations the posterior will ever hold (preallocated: no regrowth copies, bounded memory)."""
        return self.problem.horizon

    def _new_posterior(self) -> IncrementalPosterior:
        assert self.problem is not None
        return IncrementalPosterior(self.problem.kernel, self.problem.grid, forgetting=self.forgetting,
                                    capacity=self._capacity(), keep_factor=False)  # these policies never remove

    def _reset(self) -> None:
        self.post = self._new_posterior()
        self._gain: tuple[object, float, GridGainBound] | None = None

    def _gain_bound(self) -> GridGainBound:
        """An upper bound of ``γ_t`` on the grid under the current kernel and noise (the ``igp-ucb`` width with
        ``gamma="bound"``); rebuilt when a hyperparameter fit changes the model."""
        kernel, noise = self.problem.kernel, float(self.problem.noise_var)
        cached = getattr(self, "_gain", None)
        if cached is None or cached[0] is not kernel or cached[1] != noise:
            cached = self._gain = (kernel, noise, grid_gain_bound(kernel(self.problem.grid), noise))
        return cached[2]

    def _data(self) -> tuple[np.ndarray, np.ndarray]:
        idx = self.post.indices
        X = self.problem.grid[idx]
        K = self.problem.kernel(X)
        if self.forgetting is not None:  # K̃ = K ∘ D (tvgpucb eq. (7))
            from ..kernels import ForgettingKernel

            tt = self.post.times
            K = K * ForgettingKernel(self.forgetting).of_lag(tt[:, None] - tt[None, :])
        return K, self.post.noise_var

    def select(self, step: int, time: float) -> int:
        # the kk width needs log(|K̃ + Σ|/|Σ|): read from the maintained factor, not refactored
        ratio = self.post.log_det_ratio() if self.beta.uses_log_det_ratio else None
        bound = self._gain_bound() if self.beta.uses_gain_bound else None
        return self._ucb(step, self.post.mean, self.post.var, data=self._data, n=self.post.n, log_det_ratio=ratio,
                         gain_bound=bound)

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        self.post.append(index, y, self.problem.noise_var)
        self._after_append(step)
        self._refit_if_due(step)

    def _after_append(self, step: int) -> None:
        """Hook run after each append (window drop, noise refresh)."""

    def _noise_levels(self, step: int) -> np.ndarray:
        """Noise variance of every stored observation at round ``step``."""
        return np.full(self.post.n, self.problem.noise_var)

    def _fit_data(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.problem.grid[self.post.indices], self.post.y, self.post.times

    def _model_changed(self) -> None:
        self.post.set_model(self.problem.kernel, forgetting=self.forgetting,
                            noise_var=self._noise_levels(self.post.clock))

    @property
    def dataset_size(self) -> int:
        return int(self.post.n)


class GPUCB(_GridUCB):
    """Standard GP-UCB (Srinivas et al.; ``tvgpucb`` eqs. (5)–(6)), optionally under uncertainty injection.

    ``ui_alpha``: noise of the observation made at ``s`` is ``σ²(1 + (τ − s)^α)`` with ``0^α := 0``
    (``wsparq`` §1.3–1.4), ``τ = t + target_offset`` (``target_offset = 0`` is paper-literal, 1 predicts
    ``f_{t+1}``).
    """

    name = "gp-ucb"
    paper = "tvgpucb"

    def __init__(self, beta: BetaRule | None = None, *, ui_alpha: float | None = None, target_offset: int = 0) -> None:
        super().__init__(beta)
        self.ui_alpha = None if ui_alpha is None else check_nonnegative("ui_alpha", ui_alpha)
        self.target_offset = check_choice("target_offset", target_offset, (0, 1))

    def _noise_levels(self, step: int) -> np.ndarray:
        if self.ui_alpha is None:
            return super()._noise_levels(step)
        age = (step + self.target_offset) - self.post.times  # times are 1..t (append order)
        inflation = np.where(age > 0, np.power(np.maximum(age, 0.0), self.ui_alpha), 0.0)
        return self.problem.noise_var * (1.0 + inflation)

    def _after_append(self, step: int) -> None:
        if self.ui_alpha is not None:
            self.post.refresh(self._noise_levels(step))

    def params(self) -> dict[str, Any]:
        return {"ui_alpha": self.ui_alpha, "target_offset": self.target_offset}


class GreedyGP(_GridUCB):
    """Pure exploitation on the static posterior: the arm of the highest posterior mean (GP-UCB with β_t ≡ 0),
    a negative control for claims that need exploration. It takes no width: a ``beta`` is refused."""

    name = "greedy"
    paper = ""

    def __init__(self, beta: BetaRule | None = None) -> None:
        if beta is not None:
            raise ValueError(f"greedy takes no beta (its width is 0), got {beta.kind}")
        super().__init__(constant(0.0))


class RGPUCB(_GridUCB):
    """R-GP-UCB (``tvgpucb`` Algorithm 1): GP-UCB restarted from the prior when ``(t − 1) mod N = 0``."""

    name = "r-gp-ucb"
    paper = "tvgpucb"

    def __init__(self, beta: BetaRule | None = None, *, block: int | str = 50, memory_scale: float = 1.0) -> None:
        super().__init__(beta)
        self.memory_scale = check_positive("memory_scale", memory_scale)  # of block="theory" (tuning.order_wise)
        if isinstance(block, str):
            self.block_spec: int | str = check_choice("block", block, ("theory",))
            self.block = 1
        else:
            self.block = self.block_spec = check_int("block", block, 1)
        self.resets: list[int] = []
        self.tuning: dict | None = None

    def _reset(self) -> None:
        if isinstance(self.block_spec, str):  # restart period of the order of wgpucb Cor. 5's memory (wgpucb §4)
            choice = order_wise_for(self.problem, self.memory_scale)
            self.block, self.tuning = choice.window, choice.to_dict()
        super()._reset()
        self.resets = []

    def _capacity(self) -> int:
        return min(self.block, self.problem.horizon)

    def select(self, step: int, time: float) -> int:
        if (step - 1) % self.block == 0:
            self.post = self._new_posterior()
            self.resets.append(step)
        return super().select(step, time)

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {"block": self.block_spec, "memory_scale": self.memory_scale}
        if self.tuning is not None:
            out["tuning"] = self.tuning
        return out


class TVGPUCB(_GridUCB):
    """TV-GP-UCB (``tvgpucb`` Algorithm 2): posterior of ``f_t`` under ``k(x,x')(1−ε)^{|t−t'|/2}``."""

    name = "tv-gp-ucb"
    paper = "tvgpucb"

    def __init__(self, beta: BetaRule | None = None, *, epsilon: float = 0.01) -> None:
        super().__init__(beta)
        self.epsilon = check_interval("epsilon", epsilon, 0.0, 1.0)
        self.forgetting = self.epsilon
        self._epsilon0 = self.epsilon

    def _reset(self) -> None:
        if not self.fit_log:  # a fit before the run (fit_on="train") has already set ε
            self.epsilon = self.forgetting = self._epsilon0
        super()._reset()

    def _fit_epsilon(self) -> float | None:
        if self.hyperfit is not None and self.hyperfit.params is not None and "epsilon" not in self.hyperfit.params:
            return None
        return self.epsilon

    def _set_epsilon(self, epsilon: float) -> None:
        self.epsilon = self.forgetting = float(epsilon)

    def params(self) -> dict[str, Any]:
        return {"epsilon": self._epsilon0}
