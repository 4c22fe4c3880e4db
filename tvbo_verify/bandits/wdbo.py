"""W-DBO and BOLT (``bolt`` Algorithm 1): spatio-temporal GP-UCB that deletes the least relevant observation.

Both model ``f(x, t)`` with the separable kernel ``λ k_S(x, x') k_T(t, t')`` (``bolt`` Assumption 3.2)
and choose ``x_t = argmax_x μ_D(x, t) + √β σ_D(x, t)`` at the current clock time ``t`` (``bolt`` §1.3).
Relevance of observation ``i`` is ``W₂(GP_D, GP_{D∖i})`` (``bolt`` eq. (12), Recommendation 2),
computed for all ``i`` at once from one factor with the downdate formulas of
:func:`tvbo_verify.divergences.removal_w2` (``_RemovalState``; a removal updates it in ``O(n·G')``). The integration
domain ``S' × T'`` is not given by the paper (it defers to W-DBO, papers/bolt/READING.md §3.8); reading used here:
the spatial grid times ``horizon_nodes`` equally spaced times from the current time forward by one
temporal lengthscale (where the acquisition will be evaluated next), uniform weights.

* :class:`BOLT` — after each observation, while ``|D| > n*`` remove the argmin (Algorithm 1 lines 8–10).
  ``n* = argmax_n Σ_{i≤n} k_T²(i R(n))`` (eq. (9)) from :func:`tvbo_verify.theory.response.n_star`, with
  ``R`` either a model (``response=`` an expression in ``n`` / a ResponseModel; default: the
  environment's own response time when it has one) computed once before the loop (line 2), or
  ``response="measured"``: the policy times its own iterations (select + observe), fits a
  non-negative cubic (``bolt`` §4) once 4 distinct dataset sizes were seen, and recomputes ``n*`` every
  ``refit_every`` rounds (keeping the previous ``n*`` when the fit is not a valid response time, e.g.
  not strictly increasing) — wall-clock dependent. The measured ``(n, seconds)`` pairs are recorded in
  the trace (``meta["policy"]["timings"]``, with ``n_star_history``) and ``timings=`` (the pairs, or the path
  of a saved trace's metadata file) replays them in place of the timer, so a run is reproduced exactly from
  its trace. ``response="clock"``: ``R(n)`` is
  measured as the paper measures it, the time between two consecutive clock readings (``bolt`` §4:
  ``t_{m+1} − t_m`` with ``n = |D_m|``), from the clock the runner passes — the environment's simulated
  clock makes such a run deterministic. Until the first valid fit the dataset is capped only by ``n_cap``.
* :class:`FIFOGPUCB` — spatio-temporal GP-UCB that keeps the ``size`` most recent observations: the
  algorithm of ``bolt`` Theorem 3.8 as its proof reads it (maximal dataset size ``n``, the oldest
  observation dropped, eq. (73)), and the sliding windows of papers/bolt/READING.md §bolt:figure-2.
* :class:`WDBO` — W-DBO with a removal budget (reading of public W-DBO practice, papers/bolt/READING.md §3.9: the
  paper gives no formula): relevance is measured relative to ``W₂(GP_D, prior)``; each round adds
  ``budget_rate · Δt / l_T`` (``budget_rate = 0.25``, ``Δt`` the clock advance since the previous round,
  ``l_T`` the temporal lengthscale) to a budget, and the least relevant observation is removed while its
  relative relevance does not exceed the remaining budget, which it then consumes.
"""

from __future__ import annotations

import time as _time
from typing import Any

import numpy as np
from scipy.linalg import qr_delete
from scipy.linalg.lapack import dpotrs, dtrtrs

from ..divergences import integrated_w2, w2_squared_pointwise
from ..kernels import SpatioTemporalKernel, temporal_kernel
from ..linalg import stable_cholesky
from ..theory.response import ResponseModel, n_star
from ..validation import check_int, check_positive
from .beta import BetaRule, wdbo_practical
from .policy import Policy
from .response import Response

__all__ = [
    "BOLT", "FIFOGPUCB", "WDBO",
]


class _RemovalState:
    """The posterior on the quadrature nodes and every ``W₂(GP_D, GP_{D∖i})`` (``bolt`` eq. (12)) from one
    factor, kept exact under removals by Schur downdates in ``O(n·G')`` each (no refactorisation).

    With ``P = (K + σ²I)⁻¹``, ``α = P y`` and ``V = P k(X, nodes)``, deleting ``i`` maps ``μ → μ − V_i α_i/P_ii``,
    ``σ² → σ² + V_i²/P_ii`` (the formulas of :func:`tvbo_verify.divergences.removal_w2`) and ``P``, ``α``, ``V``
    by the same rank-one Schur complement.
    """

    def __init__(self, R: np.ndarray, Kq: np.ndarray, prior: np.ndarray, y: np.ndarray) -> None:
        n = R.shape[0]
        self.P = dpotrs(R, np.eye(n), lower=0)[0]
        self.alpha = self.P @ y
        self.V = dpotrs(R, Kq, lower=0)[0]  # P k(X, nodes), n × G'
        self.mean = Kq.T @ self.alpha
        self.var = np.maximum(prior - np.einsum("ij,ij->j", Kq, self.V), 0.0)
        self.prior = prior

    def relevance(self) -> np.ndarray:
        """``W₂(GP_D, GP_{D∖i})`` for every stored observation (uniform quadrature weights)."""
        d = np.diag(self.P)
        minus_mean = self.mean - self.V * (self.alpha / d)[:, None]
        minus_var = self.var + self.V * self.V / d[:, None]
        return np.sqrt(np.mean(w2_squared_pointwise(self.mean, self.var, minus_mean, minus_var), axis=1))

    def to_prior(self) -> float:
        """``W₂(GP_D, prior)`` on the nodes (the scale of W-DBO's relative relevance)."""
        return integrated_w2(self.mean, self.var, np.zeros(self.mean.size), self.prior)

    def remove(self, i: int) -> None:
        p = self.P[:, i].copy()
        pii, ai, vi = p[i], self.alpha[i], self.V[i].copy()
        self.mean -= vi * (ai / pii)
        self.var += vi * vi / pii
        keep = np.r_[0:i, i + 1 : p.size]
        self.V = (self.V - np.outer(p / pii, vi))[keep]
        self.alpha = (self.alpha - p * (ai / pii))[keep]
        self.P = (self.P - np.outer(p, p / pii))[np.ix_(keep, keep)]


class _SpatioTemporalUCB(Policy):
    """GP-UCB on ``((x_i, t_i), y_i)`` with a separable spatio-temporal kernel and W₂ removal.

    The stored observations keep their spatial kernel rows ``k_S(x_i, grid)`` (one evaluation each) and the
    upper factor ``R`` of ``K + σ²I`` (extended by one column per observation, a column deleted by
    :func:`scipy.linalg.qr_delete` per removal): a round computes ``k(X, grid × {t})`` as those rows
    times ``λ k_T(t_i, t)`` and solves with ``R`` — no kernel re-evaluation and no refactorisation.
    Kernels that are not :class:`~tvbo_verify.kernels.SpatioTemporalKernel` are evaluated directly.
    """

    def __init__(self, beta: BetaRule | None, temporal: str, temporal_lengthscale: float | None,
                 horizon_nodes: int) -> None:
        super().__init__(beta if beta is not None else wdbo_practical())
        self.temporal = temporal
        self.temporal_lengthscale = None if temporal_lengthscale is None else check_positive(
            "temporal_lengthscale", temporal_lengthscale)
        temporal_kernel(temporal, 1.0)  # validates the name
        self.horizon_nodes = check_int("horizon_nodes", horizon_nodes, 1)

    def _reset(self) -> None:
        p = self.problem
        if p.st_kernel is not None and self.temporal_lengthscale is None:
            self.kernel = p.st_kernel
        else:
            k_t = temporal_kernel(self.temporal, self.temporal_lengthscale or 20.0)
            self.kernel = SpatioTemporalKernel(p.kernel, k_t, 1.0)
        self.k_T = getattr(self.kernel, "temporal", None)
        self._separable = isinstance(self.kernel, SpatioTemporalKernel)
        self.X = np.zeros((0, p.d + 1))
        self.y = np.zeros(0)
        self.removed: list[int] = []  # rounds whose observation was deleted (in deletion order)
        self._stamps: list[int] = []
        self._rows = np.zeros((0, p.G))  # λ k_S(x_i, grid) of the stored observations
        self._R = np.zeros((0, 0), order="F")
        self._state: _RemovalState | None = None
        self._state_time: float | None = None

    def _nodes(self, times: np.ndarray) -> np.ndarray:
        p = self.problem
        return np.vstack([np.column_stack([p.grid, np.full(p.G, t)]) for t in times])

    def _cross(self, times: np.ndarray) -> np.ndarray:
        """``k(X, grid × {τ})`` for every ``τ`` in ``times``, nodes ordered time-major: ``n × (len(times)·G)``."""
        if not self._separable:
            return self.kernel(self.X, self._nodes(times))
        kt = self.k_T(self.X[:, -1:], np.asarray(times, dtype=float)[:, None])  # n × m
        return (kt[:, :, None] * self._rows[:, None, :]).reshape(self.y.size, -1)

    def _posterior(self, time: float) -> tuple[np.ndarray, np.ndarray]:
        p = self.problem
        prior = self.kernel.diag(np.column_stack([p.grid, np.full(p.G, float(time))]))
        if self.y.size == 0:
            return np.zeros(p.G), prior
        A = dtrtrs(self._R, self._cross(np.array([float(time)])), lower=0, trans=1)[0]  # L⁻¹ k(X, grid)
        z = dtrtrs(self._R, self.y, lower=0, trans=1)[0]
        return A.T @ z, np.maximum(prior - np.einsum("ij,ij->j", A, A), 0.0)

    def select(self, step: int, time: float) -> int:
        mean, var = self._posterior(time)
        return self._ucb(step, mean, var)

    def _quadrature_times(self, time: float) -> np.ndarray:
        ls = float(getattr(self.k_T, "lengthscale", 1.0))
        return time + np.linspace(0.0, ls, self.horizon_nodes) if self.horizon_nodes > 1 else np.array([time])

    def _quadrature(self, time: float) -> np.ndarray:
        return self._nodes(self._quadrature_times(time))

    def _removal_state(self, time: float) -> _RemovalState:
        """The removal quantities of the current dataset at ``time``: built once after an append, then kept
        exact by :meth:`_remove` (downdates)."""
        if self._state is None or self._state_time != time:
            times = self._quadrature_times(time)
            self._state = _RemovalState(self._R, self._cross(times), self.kernel.diag(self._nodes(times)), self.y)
            self._state_time = time
        return self._state

    def relevance(self, time: float) -> np.ndarray:
        """``W₂(GP_D, GP_{D∖i})`` for every stored observation (``bolt`` eq. (12))."""
        return self._removal_state(time).relevance()

    def _append(self, step: int, time: float, index: int, y: float) -> None:
        p = self.problem
        x = np.r_[p.grid[index], time]
        row = self.kernel.signal_variance * self.kernel.spatial(p.grid[index : index + 1], p.grid)[0] \
            if self._separable else np.zeros(p.G)
        n = self.y.size
        if self._separable:
            b = self.k_T(self.X[:, -1:], np.array([[float(time)]]))[:, 0] * self._rows[:, index]
        else:
            b = self.kernel(self.X, x[None, :])[:, 0]
        c = float(self.kernel.diag(x[None, :])[0]) + p.noise_var
        self._state = None
        self.X = np.vstack([self.X, x])
        self.y = np.append(self.y, y)
        self._rows = np.vstack([self._rows, row])
        self._stamps.append(step)
        l_vec = dtrtrs(self._R, b, lower=0, trans=1)[0] if n else np.zeros(0)
        d2 = c - float(l_vec @ l_vec)
        if not d2 > 1e-12 * c:  # numerically dependent: refactor with the jitter ladder
            factor = stable_cholesky(self.kernel(self.X) + p.noise_var * np.eye(n + 1), name="K + Sigma")
            self._R = np.asfortranarray(factor.L.T)
            return
        R = np.zeros((n + 1, n + 1), order="F")
        R[:n, :n] = self._R
        R[:n, n] = l_vec
        R[n, n] = np.sqrt(d2)
        self._R = R

    def _remove(self, i: int) -> None:
        n = self.y.size
        if self._state is not None:
            self._state.remove(i)
        self.removed.append(self._stamps.pop(i))
        self.X = np.delete(self.X, i, axis=0)
        self.y = np.delete(self.y, i)
        self._rows = np.delete(self._rows, i, axis=0)
        self._R = np.asfortranarray(qr_delete(np.eye(n), self._R, i, 1, "col", check_finite=False)[1][: n - 1])

    @property
    def dataset_size(self) -> int:
        return int(self.y.size)

    def params(self) -> dict[str, Any]:
        return {"temporal": self.temporal, "temporal_lengthscale": self.temporal_lengthscale,
                "horizon_nodes": self.horizon_nodes}


class BOLT(_SpatioTemporalUCB):
    """BOLT (``bolt`` Algorithm 1): cap the dataset at ``n*`` by removing the least relevant observation."""

    name = "bolt"
    paper = "bolt"

    def __init__(self, beta: BetaRule | None = None, *, response: "str | ResponseModel | None" = None,
                 temporal: str = "matern32", temporal_lengthscale: float | None = None, horizon_nodes: int = 3,
                 refit_every: int = 10, n_cap: int = 50_000, timings: "list | str | None" = None) -> None:
        super().__init__(beta, temporal, temporal_lengthscale, horizon_nodes)
        self.clock = isinstance(response, str) and response == "clock"
        self.measured = (isinstance(response, str) and response == "measured") or self.clock
        self.response = None if response is None or self.measured else Response(response)
        self.refit_every = check_int("refit_every", refit_every, 1)
        self.n_cap = check_int("n_cap", n_cap, 2)
        self.replay = None if timings is None else self._check_timings(timings)
        if self.replay is not None and (not self.measured or self.clock):
            raise ValueError("timings= replays the timings of response='measured'; got response="
                             f"{'clock' if self.clock else response!r}")

    @staticmethod
    def _check_timings(timings: "list | str") -> list[tuple[int, float]]:
        if isinstance(timings, str):  # the metadata file of a saved trace (``rep_NNNN.json`` of ``run --out``)
            import json

            try:
                with open(timings, encoding="utf-8") as fh:
                    recorded = json.load(fh).get("policy", {}).get("timings")
            except (OSError, ValueError, AttributeError) as exc:
                raise ValueError(f"timings={timings!r} must name a trace metadata file: {exc}") from None
            if recorded is None:
                raise ValueError(f"timings={timings!r} holds no BOLT timings (a run with response='measured')")
            timings = recorded
        out = []
        for item in timings:
            try:
                n, s = item
                out.append((check_int("timings n", int(n), 0), check_positive("timings seconds", float(s))))
            except (TypeError, ValueError) as exc:
                raise ValueError(f"timings must be (n, seconds) pairs with n >= 0 and seconds > 0, got {item!r}: "
                                 f"{exc}") from None
        return out

    def _reset(self) -> None:
        super()._reset()
        self._timings: list[tuple[int, float]] = []
        self._last_clock: float | None = None
        self._response_used = self.response
        if self._response_used is None and not self.measured:
            env_response = self.problem.extra.get("response_time")
            if env_response is None:
                raise ValueError("bolt needs response=EXPR (R(n) in n), response='measured', "
                                 "or an environment with a response time")
            if not isinstance(env_response, Response):
                raise ValueError("bolt needs R(n) as an expression in n; the environment's response time is a "
                                 "plain callable, pass response=EXPR")
            self._response_used = env_response
        self.n_star_history: list[int] = []
        self.n_star = self._compute_n_star(self._response_used.model) if self._response_used else self.n_cap

    def _compute_n_star(self, model: ResponseModel) -> int:
        res = n_star(model, self.k_T, n_cap=self.n_cap)
        value = max(int(res.n_star), 1)
        self.n_star_history.append(value)
        return value

    def select(self, step: int, time: float) -> int:
        if self.clock:  # bolt §4 and §1.6: t_{m+1} − t_m = R(|D_m|), |D_m| the size after iteration m
            if self._last_clock is not None:
                self._timings.append((self.dataset_size, float(time) - self._last_clock))
            self._last_clock = float(time)
        self._t0 = _time.perf_counter()
        return super().select(step, time)

    def _timed(self, n_before: int) -> float:
        """The seconds of this iteration: timed, or the next recorded value when replaying a trace."""
        if self.replay is None:
            return _time.perf_counter() - self._t0
        k = len(self._timings)
        if k >= len(self.replay):
            raise ValueError(f"the replayed timings hold {len(self.replay)} iterations; iteration {k + 1} has none")
        n, seconds = self.replay[k]
        if n != n_before:
            raise ValueError(f"replayed timing {k + 1} was measured at |D| = {n}, this run has |D| = {n_before}")
        return seconds

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        n_before = self.dataset_size
        self._append(step, time, index, y)
        while self.dataset_size > self.n_star:  # Algorithm 1 lines 8–10
            self._remove(int(np.argmin(self.relevance(time))))
        if self.measured:
            if not self.clock:
                self._timings.append((n_before, self._timed(n_before)))
            sizes = np.array([n for n, _ in self._timings], dtype=float)
            if np.unique(sizes).size >= 4 and step % self.refit_every == 0:
                fit = ResponseModel.fit_cubic(sizes, np.array([s for _, s in self._timings]), nonnegative=True)
                try:
                    self.n_star = self._compute_n_star(fit)
                except ValueError:
                    # the fit violates Definition 3.5 (e.g. a constant cubic from noisy timings): keep n*
                    pass

    def params(self) -> dict[str, Any]:
        mode = "clock" if self.clock else "measured" if self.measured else (
            None if self.response is None else self.response.text)
        return {**super().params(), "response": mode, "refit_every": self.refit_every}

    def config(self) -> dict[str, Any]:
        """Parameters, β rule and what the run measured: every ``n*`` used and, when ``R`` is measured,
        the ``(n, seconds)`` pairs (``timings=`` replays them; ``replayed`` says whether this run did)."""
        out = {**super().config(), "n_star_history": list(self.n_star_history)}
        if self.measured:
            out["timings"] = [[int(n), float(s)] for n, s in self._timings]
            out["replayed"] = self.replay is not None
        return out


class FIFOGPUCB(_SpatioTemporalUCB):
    """Spatio-temporal GP-UCB keeping the ``size`` most recent observations (``bolt`` Theorem 3.8 as proved:
    maximal dataset size ``n``, the oldest observation removed, eq. (73))."""

    name = "fifo-gp-ucb"
    paper = "bolt"

    def __init__(self, beta: BetaRule | None = None, *, size: int = 20, temporal: str = "matern32",
                 temporal_lengthscale: float | None = None) -> None:
        super().__init__(beta, temporal, temporal_lengthscale, 1)
        self.size = check_int("size", size, 1)

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        self._append(step, time, index, y)
        while self.dataset_size > self.size:
            self._remove(0)  # observations are stored oldest first

    def params(self) -> dict[str, Any]:
        return {"size": self.size, "temporal": self.temporal, "temporal_lengthscale": self.temporal_lengthscale}


class WDBO(_SpatioTemporalUCB):
    """W-DBO: remove stale observations by Wasserstein relevance under a replenished removal budget."""

    name = "w-dbo"
    paper = "bolt"

    def __init__(self, beta: BetaRule | None = None, *, budget_rate: float = 0.25, temporal: str = "matern32",
                 temporal_lengthscale: float | None = None, horizon_nodes: int = 3) -> None:
        super().__init__(beta, temporal, temporal_lengthscale, horizon_nodes)
        self.budget_rate = check_positive("budget_rate", budget_rate)

    def _reset(self) -> None:
        super()._reset()
        self.budget = 0.0
        self._last_time: float | None = None

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        self._append(step, time, index, y)
        if self._last_time is not None:
            ls = float(getattr(self.k_T, "lengthscale", 1.0))
            self.budget += self.budget_rate * (time - self._last_time) / ls
        self._last_time = time
        while self.dataset_size > 1:
            w2 = self.relevance(time)
            scale = self._removal_state(time).to_prior()
            i = int(np.argmin(w2))
            relative = float(w2[i] / scale) if scale > 0 else 0.0
            if relative > self.budget:
                break
            self.budget -= relative
            self._remove(i)

    def params(self) -> dict[str, Any]:
        return {**super().params(), "budget_rate": self.budget_rate}
