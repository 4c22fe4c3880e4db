"""SW-GP-UCB (sliding window, Zhou & Shroff 2021) and WGP-UCB (``wgpucb`` Algorithm 1).

* :class:`SWGPUCB` keeps the last ``window`` observations in a :class:`~tvbo_verify.gp.WindowPosterior`
  (append, then drop the oldest by a Schur downdate of the grid posterior and a ``W×W`` factor update:
  ``O(W·G + W²)`` per round, two passes over the window's kernel rows).
* :class:`WGPUCB` uses the weighted posterior of ``wgpucb`` eqs. (2)–(3) with discount weights
  ``w_s = γ^{-s}`` and ``λ_t = λ w_t`` (:func:`tvbo_verify.gp.weighted_posterior`, overflow-free relative
  form) and the rule ``x_t = argmax μ̃_{t−1} + β_{t−1} σ̂_{t−1}`` (eq. (4), ``μ + β σ``). Every weight ratio
  changes each round; the posterior is rebuilt each round from per-arm sufficient statistics
  (:class:`WeightedArmPosterior`, ``O(u³ + u²G)`` for ``u`` distinct arms among the ``m`` kept observations).
  Observations whose relative weight ``γ^{t−s}`` is below ``memory_tol`` are dropped: they enter with
  noise ``> λ/memory_tol`` and change μ̃, σ̂ by ``O(memory_tol)``.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from ..gp import WindowPosterior, weighted_posterior
from ..kernels import Kernel
from ..linalg import pivoted_cholesky, stable_cholesky
from ..validation import check_choice, check_int, check_interval, check_open_interval, check_positive
from .beta import BetaRule, log_rule, wgpucb_theory
from .gpucb import _GridUCB
from .policy import Policy
from .tuning import order_wise_for

__all__ = [
    "SWGPUCB", "WeightedArmPosterior", "WGPUCB",
]


class SWGPUCB(_GridUCB):
    """GP-UCB on the ``window`` most recent observations; ``window="theory"`` sets it order-wise at reset
    (:func:`~tvbo_verify.bandits.tuning.order_wise`, ``wgpucb`` §4)."""

    name = "sw-gp-ucb"
    paper = "wgpucb"

    def __init__(self, beta: BetaRule | None = None, *, window: int | str = 50, memory_scale: float = 1.0) -> None:
        super().__init__(beta)
        self.memory_scale = check_positive("memory_scale", memory_scale)  # of window="theory" (tuning.order_wise)
        self.window_spec = _theory_or_int("window", window)
        self.window = 1 if isinstance(self.window_spec, str) else self.window_spec
        self.tuning: dict | None = None

    def _reset(self) -> None:
        if isinstance(self.window_spec, str):
            choice = order_wise_for(self.problem, self.memory_scale)
            self.window, self.tuning = choice.window, choice.to_dict()
        super()._reset()

    def _capacity(self) -> int:
        return min(self.window + 1, self.problem.horizon)

    def _new_posterior(self) -> WindowPosterior:
        assert self.problem is not None
        return WindowPosterior(self.problem.kernel, self.problem.grid, capacity=self._capacity())

    def _after_append(self, step: int) -> None:
        while self.post.n > self.window:
            self.post.remove(0)

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {"window": self.window_spec, "memory_scale": self.memory_scale}
        if self.tuning is not None:
            out["tuning"] = self.tuning
        return out


def _theory_or_int(name: str, value: int | str) -> int | str:
    if isinstance(value, str):
        check_choice(name, value, ("theory",))
        return value
    return check_int(name, value, 1)


class WeightedArmPosterior:
    """The WGP-UCB posterior (``wgpucb`` eqs. (2)–(3), relative-weight form) from per-arm sufficient statistics.

    In the relative form observation ``s`` has noise ``λ/γ^{t−s}``. Observations at the same arm combine
    exactly into one with precision ``π_u = Σ_{s: x_s = u} γ^{t−s}/λ`` and value ``r_u/π_u``,
    ``r_u = Σ γ^{t−s} y_s/λ`` (sufficient statistics of a Gaussian likelihood), so the posterior is that
    of ``u`` distinct arms with noise ``1/π``. Two exact forms, whichever is smaller each round:

    * arm form: ``B = Π^{1/2} K_UU Π^{1/2} + I = LLᵀ``, ``A = L⁻¹ Π^{1/2} k_U(grid)``, ``σ̂² = k(x,x) − colsum(A²)``,
      ``μ̃ = Aᵀ L⁻¹ Π^{−1/2} r`` — ``O(u³ + u²·G)``;
    * information (feature) form, when the grid Gram has a factor ``K = F Fᵀ + E`` of rank ``r < u`` with
      residual ``E`` at float precision (:func:`~tvbo_verify.linalg.pivoted_cholesky`, entries of ``E`` at most
      ``1e-14·max k(x,x)``): ``M = I + F_Uᵀ Π F_U = Σ_s (γ^{t−s}/λ) φ_s φ_sᵀ + I`` (the discount rescales the
      information), ``C = L⁻¹ Fᵀ`` with ``M = LLᵀ``, ``σ̂² = E_xx + colsum(C²)``, ``μ̃ = Cᵀ L⁻¹ F_Uᵀ r``
      (push-through identity) — ``O(u r² + r³ + r²·G)``.

    There is no exact ``O(u·G)`` update: the uniform discount changes every precision against a fixed prior,
    a rank-``min(u, r)`` change of the posterior precision each round (not rank one as an append is), so
    the grid projection is recomputed; kernel rows ``k(x_u, grid)`` are computed once per arm while it is
    in memory.
    """

    #: Residual of the grid-Gram factor relative to the largest prior variance (float precision).
    FACTOR_TOL = 1e-14
    #: Distinct arms below which the arm form is used without looking for a grid factor.
    FEW_ARMS = 32

    def __init__(self, kernel: Kernel, grid: np.ndarray, lam: float, discount: float,
                 max_arms: int | None = None) -> None:
        self.kernel, self.grid, self.lam, self.discount = kernel, grid, float(lam), float(discount)
        self.prior_var = kernel.diag(grid)
        self._rows: dict[int, np.ndarray] = {}
        G = grid.shape[0]
        # the information form pays only below the largest number of arms the arm form can meet
        self._max_rank = G if max_arms is None else min(int(max_arms), G)
        self._searched = False
        self.features: np.ndarray | None = None
        self._residual: np.ndarray | None = None

    def _find_factor(self) -> None:
        """The grid-Gram factor at float precision, looked for once (when the arms first become many)."""
        self._searched = True
        kernel, grid = self.kernel, self.grid
        self.features = pivoted_cholesky(self.prior_var, lambda j: kernel(grid, grid[j : j + 1])[:, 0],
                                         tol=self.FACTOR_TOL, max_rank=self._max_rank - 1)
        if self.features is not None:
            self._residual = np.maximum(self.prior_var - np.einsum("ij,ij->i", self.features, self.features), 0.0)

    def _row(self, i: int) -> np.ndarray:
        row = self._rows.get(i)
        if row is None:
            row = self.kernel(self.grid[i : i + 1], self.grid)[0]
            self._rows[i] = row
        return row

    def compute(self, idx: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(μ̃, σ̂²)`` on the grid for kept observations ``idx``, ``y`` (oldest first, newest has age 0)."""
        m = idx.size
        if m == 0:
            return np.zeros(self.grid.shape[0]), self.prior_var.copy()
        w = np.power(self.discount, np.arange(m - 1, -1, -1, dtype=float)) / self.lam  # γ^{t−s}/λ
        arms, inverse = np.unique(idx, return_inverse=True)
        prec = np.bincount(inverse, weights=w)
        r = np.bincount(inverse, weights=w * y)
        if arms.size > self.FEW_ARMS and not self._searched:
            self._find_factor()
        if self.features is not None and self.features.shape[1] < arms.size:
            return self._feature_form(arms, prec, r)
        for stale in set(self._rows) - set(arms.tolist()):
            del self._rows[stale]
        KUg = np.stack([self._row(int(a)) for a in arms])  # u × G
        KUU = KUg[:, arms]
        sp = np.sqrt(prec)
        factor = stable_cholesky(sp[:, None] * KUU * sp[None, :] + np.eye(arms.size), name="I + P^1/2 K P^1/2")
        A = factor.half_solve(sp[:, None] * KUg)
        z = factor.half_solve(r / sp)
        return A.T @ z, np.maximum(self.prior_var - np.einsum("ij,ij->j", A, A), 0.0)

    def _feature_form(self, arms: np.ndarray, prec: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        F = self.features
        FU = F[arms]
        M = (FU.T * prec) @ FU
        M[np.diag_indices_from(M)] += 1.0
        factor = stable_cholesky(M, name="I + F_U^T P F_U")
        C = factor.half_solve(F.T)
        z = factor.half_solve(FU.T @ r)
        return C.T @ z, self._residual + np.einsum("ij,ij->j", C, C)


class WGPUCB(Policy):
    """WGP-UCB (``wgpucb`` Algorithm 1) with discount ``γ`` and regulariser ``λ``.

    Default β: ``wgpucb`` step 1 with the Hadamard bound (``B`` — a number or ``"env"`` for the
    environment's RKHS bound —, ``R = √σ²``) if no rule is given. ``lagged_beta=True`` uses ``β_{t−1}`` at
    round ``t`` as eq. (4) prints. ``discount="theory"`` sets ``γ`` by Corollary 5 at reset
    (:func:`~tvbo_verify.bandits.tuning.order_wise`). ``update="arms"`` (default) computes the posterior from
    per-arm statistics (:class:`WeightedArmPosterior`); ``update="refit"`` refits
    :func:`tvbo_verify.gp.weighted_posterior` on all kept observations (same posterior, ``O(m³ + m²G)``).
    With ``fit`` the kernel variance and lengthscale are refitted (the noise level is ``λ`` and stays).
    """

    name = "wgp-ucb"
    paper = "wgpucb"
    supports_fit = True

    def __init__(self, beta: BetaRule | None = None, *, discount: float | str = 0.95, lam: float = 1.0,
                 memory_tol: float = 1e-14, lagged_beta: bool = True, update: str = "arms",
                 B: float | str = 1.0, delta: float = 0.1, memory_scale: float = 1.0) -> None:
        if isinstance(discount, str):
            check_choice("discount", discount, ("theory",))
            self.discount_spec: float | str = discount
            self.discount = 0.5
        else:
            self.discount = self.discount_spec = check_interval("discount", discount, 0.0, 1.0, closed_low=False)
        self.lam = check_positive("lam", lam)
        self.memory_tol = check_open_interval("memory_tol", memory_tol, 0.0, 1.0)
        self.lagged_beta = bool(lagged_beta)
        self.update = check_choice("update", update, ("arms", "refit"))
        self.B = B if isinstance(B, str) and B == "env" else check_positive("B", B)
        self.delta = check_open_interval("delta", delta, 0.0, 1.0)
        self.memory_scale = check_positive("memory_scale", memory_scale)  # of discount="theory"
        super().__init__(beta if beta is not None else log_rule())
        self._explicit_beta = beta is not None
        self.tuning: dict | None = None

    def _reset(self) -> None:
        assert self.problem is not None
        if isinstance(self.discount_spec, str):
            choice = order_wise_for(self.problem, self.memory_scale)
            self.discount, self.tuning = choice.discount, choice.to_dict()
        if not self._explicit_beta:
            self.beta = wgpucb_theory(B=self.B, R=math.sqrt(self.problem.noise_var), lam=self.lam,
                                      discount=self.discount, kbar=self.problem.kernel.max_variance,
                                      delta=self.delta).resolve(self.problem.extra)
        self._idx: list[int] = []
        self._y: list[float] = []
        G = self.problem.G
        self._mean = np.zeros(G)
        self._var = self.problem.kernel.diag(self.problem.grid)
        self._memory = (math.inf if self.discount == 1.0
                        else math.log(1.0 / self.memory_tol) / -math.log(self.discount))
        self._arm_post = self._new_arm_posterior()

    def _new_arm_posterior(self) -> WeightedArmPosterior:
        kept = None if math.isinf(self._memory) else int(math.floor(self._memory)) + 1
        return WeightedArmPosterior(self.problem.kernel, self.problem.grid, self.lam, self.discount, max_arms=kept)

    def select(self, step: int, time: float) -> int:
        t_beta = max(step - 1, 1) if self.lagged_beta else step
        return self._ucb(t_beta, self._mean, self._var)

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        self._idx.append(int(index))
        self._y.append(float(y))
        while len(self._idx) - 1 > self._memory:  # age of the oldest kept observation
            self._idx.pop(0)
            self._y.pop(0)
        self._refit_if_due(step)
        self._posterior()

    def _posterior(self) -> None:
        idx, y = np.asarray(self._idx, dtype=np.int64), np.asarray(self._y)
        if self.update == "arms":
            self._mean, self._var = self._arm_post.compute(idx, y)
            return
        grid = self.problem.grid
        res = weighted_posterior(self.problem.kernel, grid[idx], y, grid, lam=self.lam, discount=self.discount)
        self._mean, self._var = res.mean, res.var

    def _fit_data(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = len(self._idx)
        return self.problem.grid[np.asarray(self._idx, dtype=np.int64)], np.asarray(self._y), np.arange(1.0, n + 1)

    def _apply_fit(self, res, step: int, source: str) -> None:  # noqa: ANN001 - FitResult
        noise = self.problem.noise_var if self.problem is not None else res.noise_var
        super()._apply_fit(res, step, source)
        self.problem = replace(self.problem, noise_var=noise)  # the noise level of WGP-UCB is λ

    def _model_changed(self) -> None:
        self._arm_post = self._new_arm_posterior()

    def posterior(self) -> tuple[np.ndarray, np.ndarray]:
        """``(μ̃_t, σ̂_t²)`` on the grid after the last observation (``wgpucb`` eqs. (2)–(3), relative-weight
        form): what the next :meth:`select` ranks by ``μ̃ + β σ̂``; ``(0, k(x, x))`` before any data. Copies."""
        return self._mean.copy(), self._var.copy()

    @property
    def dataset_size(self) -> int:
        return len(self._idx)

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {"discount": self.discount_spec, "lam": self.lam, "memory_tol": self.memory_tol,
                               "lagged_beta": self.lagged_beta, "update": self.update, "B": self.B, "delta": self.delta,
                               "memory_scale": self.memory_scale}
        if self.tuning is not None:
            out["tuning"] = self.tuning
        return out
