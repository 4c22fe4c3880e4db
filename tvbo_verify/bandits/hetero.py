"""GP-UCB whose observations carry their own noise variances, on exact per-input sufficient statistics.

Observations made at the same grid point are merged without approximation: for independent Gaussian
noises, ``N`` observations ``y_s = f(x) + ε_s`` with variances ``v_s`` carry exactly the information of one
observation ``Σ_s (y_s/v_s) / P`` with variance ``1/P``, ``P = Σ_s 1/v_s``. Hence, with ``U`` the distinct
inputs and ``D = diag(P_u)``:

* the posterior (``wsparq`` eqs. (9)–(10)) is the GP posterior on ``U`` with noise ``D⁻¹`` — computed in the
  stable form ``B = I + D^{1/2} K_U D^{1/2} = L Lᵀ``;
* ``log(|Σ + K| / |Σ|) = log det(I + Σ⁻¹ K) = log det(I + D K_U) = log det B`` (Sylvester's identity), so
  the width of ``wsparq`` eq. (12) is exact as well.

A round costs ``O(t + |U|³ + |U|² G)`` instead of ``O(t³ + t² G)``, which makes horizons of 10⁴ rounds
cheap on small grids. Noise schedules (variance of the observation made at round ``s``, seen at round ``t``):

* ``"age"`` — uncertainty injection, ``σ²(1 + (t + offset − s)^α)`` with ``0^α := 0`` (``wsparq`` §1.3–1.4;
  every variance changes at every round);
* ``"index"`` — ``σ² s^α``, a generic heteroscedastic proxy growing with the round (``wsparq`` Remark 2.5);
* ``"horizon"`` — ``σ²(1 + (T − s)^α)`` with the run's horizon ``T`` (``wsparq`` §5, model (35)).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.linalg import cho_solve, solve_triangular

from ..information import ui_noise_schedule
from ..kernels import Kernel
from ..validation import check_choice, check_int, check_nonnegative, check_positive
from .beta import BetaRule, kirschner_krause
from .policy import Policy

__all__ = [
    "SCHEDULES", "GENERATORS", "RESAMPLED", "noise_variances", "MergedPosterior", "merged_posterior", "MergedData",
    "HeteroscedasticGPUCB", "ReplayedRun", "replay_widths",
]

SCHEDULES = ("age", "index", "horizon")
#: O2: the observations as made; O1: the data behind each round drawn afresh; O1-coupled: the same law per round,
#: built on the run's own observations (see :meth:`HeteroscedasticGPUCB._resampled_posterior`)
GENERATORS = ("O2", "O1", "O1-coupled")
RESAMPLED = ("O1", "O1-coupled")


def noise_variances(schedule: str, noise_var: float, alpha: float, rounds: np.ndarray, t: int,
                    horizon: int | None = None, target_offset: int = 0) -> np.ndarray:
    """Variance of the observations made at ``rounds`` (1-based) as seen at round ``t`` (see the module docstring)."""
    check_choice("schedule", schedule, SCHEDULES)
    s = np.asarray(rounds, dtype=float)
    if schedule == "age":
        age = (t + target_offset) - s
        return noise_var * (1.0 + np.where(age > 0, np.power(np.maximum(age, 0.0), alpha), 0.0))
    if schedule == "index":
        return noise_var * np.power(s, alpha)
    if horizon is None:
        raise ValueError("the horizon schedule needs the horizon T")
    age = float(horizon) - s
    return noise_var * (1.0 + np.where(age > 0, np.power(np.maximum(age, 0.0), alpha), 0.0))


@dataclass
class MergedPosterior:
    """The GP posterior on a grid from per-input precisions ``P_u`` and precision-weighted sums ``W_u``."""

    mean: np.ndarray
    var: np.ndarray
    observed: np.ndarray  # grid indices U with P_u > 0
    precision: np.ndarray  # P_u
    log_det_ratio: float  # log det(I + D K_U) = log(|Σ + K| / |Σ|) over every observation

    def gram_and_noise(self, K_grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(K_U, 1/P_U)``: a data set with the same posterior and the same log-det ratio (eq. (12))."""
        return K_grid[np.ix_(self.observed, self.observed)], 1.0 / self.precision


def merged_posterior(K_grid: np.ndarray, prior_var: np.ndarray, precision: np.ndarray,
                     weighted: np.ndarray) -> MergedPosterior:
    """Posterior on the grid from ``precision[g] = Σ 1/v_s`` and ``weighted[g] = Σ y_s/v_s`` over the
    observations at grid point ``g`` (exact; see the module docstring)."""
    U = np.flatnonzero(precision > 0)
    if U.size == 0:
        return MergedPosterior(np.zeros(K_grid.shape[0]), prior_var.copy(), U, np.zeros(0), 0.0)
    P = precision[U]
    r = np.sqrt(P)
    Bm = np.eye(U.size) + r[:, None] * K_grid[np.ix_(U, U)] * r[None, :]
    L = np.linalg.cholesky(Bm)
    KUg = K_grid[U]  # |U| × G
    A = solve_triangular(L, r[:, None] * KUg, lower=True, check_finite=False)
    var = np.maximum(prior_var - np.einsum("ij,ij->j", A, A), 0.0)
    coef = r * cho_solve((L, True), weighted[U] / r, check_finite=False)
    mean = KUg.T @ coef
    return MergedPosterior(mean, var, U, P, float(2.0 * np.sum(np.log(np.diag(L)))))


class MergedData:
    """The observations of a run (grid index, value, round) and their merged statistics at a round."""

    def __init__(self, G: int) -> None:
        self.G = check_int("G", G, 1)
        self._index = np.zeros(16, dtype=np.int64)  # storage grown by doubling: a round reads views, copies none
        self._y = np.zeros(16)
        self.n = 0

    def append(self, index: int, y: float) -> None:
        if self.n == self._index.size:
            self._index = np.concatenate([self._index, np.zeros_like(self._index)])
            self._y = np.concatenate([self._y, np.zeros_like(self._y)])
        self._index[self.n], self._y[self.n] = int(index), float(y)
        self.n += 1

    @property
    def index(self) -> np.ndarray:
        """Grid index of every observation, oldest first (a read-only view)."""
        return _read_only(self._index[:self.n])

    @property
    def y(self) -> np.ndarray:
        """Every observed value, oldest first (a read-only view)."""
        return _read_only(self._y[:self.n])

    def statistics(self, variances: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(P, W)`` per grid point for the given variance of every observation (oldest first)."""
        idx = self._index[:self.n]
        w = 1.0 / np.asarray(variances, float)
        return (np.bincount(idx, weights=w, minlength=self.G),
                np.bincount(idx, weights=w * self._y[:self.n], minlength=self.G))


def _read_only(view: np.ndarray) -> np.ndarray:
    view.flags.writeable = False
    return view


class HeteroscedasticGPUCB(Policy):
    """GP-UCB (``wsparq`` eq. (11)) with per-observation noise variances from a schedule, merged per input.

    ``schedule="age"`` with ``alpha`` is the GP-UCB of ``wsparq`` §1.4 under uncertainty injection (the
    same decisions as ``GPUCB(ui_alpha=alpha)``, at a fraction of the cost); ``"index"`` and ``"horizon"``
    are the noise models of Remark 2.5 and §5. The default β is eq. (12) on all observations (``μ + β σ``).
    ``record_widths`` keeps σ_{t−1}(x_t) of every round in the trace's metadata (``meta["policy"]["widths"]``).
    ``generator="O1"`` replaces the observed values by the per-target resampling of ``wsparq`` §5.0 (the
    statistical model of eq. (8) and Lemma 2.3, for checks of the proof); ``"O1-coupled"`` has the same law for
    every target but builds it on the observations the policy was given (each ``y_s`` moved to ``f_t`` and its
    noise topped up to ``σ²(1 + (t − s)^α)``), so a policy fed wrong observations learns wrong data; ``"O2"`` uses
    the observations as made.
    """

    name = "hetero-gp-ucb"
    paper = "wsparq"

    def __init__(self, beta: BetaRule | None = None, *, alpha: float = 0.0, schedule: str = "age",
                 target_offset: int = 0, record_widths: bool = False, generator: str = "O2") -> None:
        super().__init__(beta if beta is not None else kirschner_krause(B=1.0, delta=0.1))
        self.alpha = check_nonnegative("alpha", alpha)
        self.schedule = check_choice("schedule", schedule, SCHEDULES)
        self.target_offset = check_choice("target_offset", target_offset, (0, 1))
        self.generator = check_choice("generator", generator, GENERATORS)
        if self.generator in RESAMPLED and self.schedule != "age":
            raise ValueError(f"generator O1 resamples under uncertainty injection: it needs schedule='age', got "
                             f"{schedule!r}")
        self.record_widths = bool(record_widths)
        self.widths: list[float] = []

    def _reset(self) -> None:
        p = self.problem
        self.K_grid = p.kernel(p.grid)
        self.prior_var = p.kernel.diag(p.grid)
        self.data = MergedData(p.G)
        self.post = merged_posterior(self.K_grid, self.prior_var, np.zeros(p.G), np.zeros(p.G))
        self.widths = []
        self.residuals = MergedData(p.G)  # O1-coupled: y_s − f_s(x_s) of every observation, f_s read when it was made

    def variances(self, t: int) -> np.ndarray:
        """Noise variance of every stored observation for the posterior formed after round ``t``."""
        return noise_variances(self.schedule, self.problem.noise_var, self.alpha, np.arange(1, self.data.n + 1), t,
                               self.problem.horizon, self.target_offset)

    def select(self, step: int, time: float) -> int:
        if self.generator in RESAMPLED and self.data.n:
            self.post = self._resampled_posterior(step)
        i = self._ucb(step, self.post.mean, self.post.var, data=lambda: self.post.gram_and_noise(self.K_grid),
                      n=self.data.n, log_det_ratio=self.post.log_det_ratio)
        if self.record_widths:
            self.widths.append(float(np.sqrt(self.post.var[i])))
        return i

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        self.data.append(index, y)
        if self.generator == "O1-coupled":
            if self.expert is None:
                raise ValueError("generator O1-coupled needs the environment (through the expert oracle of the runner)")
            self.residuals.append(index, float(y) - float(self.expert.env.values()[index]))
        if self.generator == "O2":
            P, W = self.data.statistics(self.variances(step))
            self.post = merged_posterior(self.K_grid, self.prior_var, P, W)

    def _resampled_posterior(self, t: int) -> MergedPosterior:
        """Generator O1 (``wsparq`` §5.0): the data behind round ``t`` drawn afresh as ``y_s = f_t(x_s) + N(0, v_s)``
        for every past round ``s``, with ``v_s = σ²(1 + (t − s)^α)`` of the paper's model
        (:func:`tvbo_verify.information.ui_noise_schedule`, not this policy's own noise model, so an error in the
        model is not reproduced in its data), merged per input with the policy's variances ``u_s``: ``W_g =
        Σ_{x_s = g} y_s/u_s`` has exactly the law of ``f_t(g) P_g + √(Σ_{x_s = g} v_s/u_s²) z_g`` with ``P_g = Σ
        1/u_s`` and ``z_g ~ N(0, 1)`` (``f_t P + √P z`` when ``u = v``). ``f_t`` is read from the environment (a
        simulation of the paper's statistical model, not a learner's information).

        ``O1-coupled`` draws the same law from the observations the policy was given: ``y_s − f_s(x_s) + f_t(x_s) +
        N(0, v_s − σ_e²)`` with ``σ_e²`` the environment's noise variance, whose ``N(0, σ_e²)`` noise ``y_s`` carries.
        Within one target the data are independent with variances ``v_s``, as under O1; across targets they share
        the observation noise (no sequence of data can be independent across all pairs of times, ``wsparq``
        §3.4), which no union over targets uses. Merged: ``W_g = f_t(g) P_g + Σ_{x_s = g} (y_s − f_s(x_s))/u_s +
        √(Σ_{x_s = g} (v_s − σ_e²)/u_s²) z_g``."""
        if self.expert is None:
            raise ValueError("generator O1 needs the environment (through the expert oracle of the runner)")
        n = self.data.n
        law = ui_noise_schedule(self.problem.noise_var, self.alpha, n, target_time=t)
        model = noise_variances("age", self.problem.noise_var, self.alpha, np.arange(1, n + 1), t)
        P, _ = self.data.statistics(model)
        f = self.expert.env.values()
        if self.generator == "O1-coupled":
            observed = float(self.expert.env.noise_var)
            extra = law - observed
            if np.any(extra < -1e-12 * law):
                raise ValueError(f"generator O1-coupled needs the environment's noise variance {observed:g} at most "
                                 f"σ²(1 + age^α) = {float(law.min()):g}")
            residual = np.bincount(self.data.index, weights=self.residuals.y / model, minlength=P.size)
            spread = np.bincount(self.data.index, weights=np.maximum(extra, 0.0) / model**2, minlength=P.size)
            W = f * P + residual + np.sqrt(spread) * self.rng.standard_normal(P.size)
            return merged_posterior(self.K_grid, self.prior_var, P, W)
        spread = np.bincount(self.data.index, weights=law / model**2, minlength=P.size)
        W = f * P + np.sqrt(spread) * self.rng.standard_normal(P.size)
        return merged_posterior(self.K_grid, self.prior_var, P, W)

    @property
    def dataset_size(self) -> int:
        return self.data.n

    def params(self) -> dict[str, Any]:
        """Parameters; with ``record_widths`` also ``widths``, σ_{t−1}(x_t) of every round (Proof 2.4)."""
        out: dict[str, Any] = {"alpha": self.alpha, "schedule": self.schedule, "target_offset": self.target_offset,
                               "generator": self.generator}
        if self.record_widths:
            out["widths"] = list(self.widths)
        return out


@dataclass
class ReplayedRun:
    """Quantities of Proof 2.4 along a recorded run: ``sd[t−1] = σ_{t−1}(x_t)`` and ``beta[t−1] = β_t``."""

    sd: np.ndarray
    beta: np.ndarray
    log_det_ratio: np.ndarray  # log(|Σ_{t−1} + K_{t−1}| / |Σ_{t−1}|) of the data behind round t


def replay_widths(kernel: Kernel, grid: np.ndarray, noise_var: float, index: np.ndarray, beta: BetaRule, *,
                  alpha: float, schedule: str = "age", horizon: int | None = None,
                  target_offset: int = 0) -> ReplayedRun:
    """Recompute, from the played grid indices of a run, ``σ_{t−1}(x_t)`` and ``β_t`` of
    :class:`HeteroscedasticGPUCB` (posterior variances do not depend on the observed values)."""
    check_positive("noise_var", noise_var)
    index = np.asarray(index, dtype=np.int64)
    T = index.size
    K_grid, prior = kernel(grid), kernel.diag(grid)
    G = grid.shape[0]
    sd, betas, ratios = np.zeros(T), np.zeros(T), np.zeros(T)
    P = np.zeros(G)
    rounds = np.arange(1, T + 1)
    for t in range(1, T + 1):
        if t > 1:
            v = noise_variances(schedule, noise_var, alpha, rounds[: t - 1], t - 1, horizon or T, target_offset)
            P = np.bincount(index[: t - 1], weights=1.0 / v, minlength=G)
        post = merged_posterior(K_grid, prior, P, np.zeros(G))
        i = index[t - 1]
        sd[t - 1] = float(np.sqrt(post.var[i]))
        ratios[t - 1] = post.log_det_ratio
        betas[t - 1] = beta.value(t, data=lambda post=post: post.gram_and_noise(K_grid), n=t - 1, grid_size=G,
                                  d=grid.shape[1], log_det_ratio=post.log_det_ratio)
    return ReplayedRun(sd, betas, ratios)
