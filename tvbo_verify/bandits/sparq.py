"""SparQ-GP-UCB (``sparq`` Algorithm 1) and W-SparQ-GP-UCB (``wsparq`` Algorithm 2).

Both infer the posterior from a small *sparse* data set built from expert answers at inputs chosen
by a ``Q``-DPP over the distinct past inputs (``wsparq`` Definition 3.1; sampler
:func:`tvbo_verify.dpp.sample_kdpp`, ``"exact"`` spectral or ``"mcmc"`` swap chain of ``sparq``
Algorithm 2 — ``dpp_iterations`` steps, default the certified mixing bound of
:func:`tvbo_verify.dpp.mcmc_iterations`, which is slow — or ``"greedy"`` — the deterministic start of
``sparq`` Algorithm 3, used for exact transcription tests). ``Q`` is capped by the number of distinct
past inputs (``wsparq`` §2 [ALG1] reading), by the numerical rank of their Gram matrix and by the oracle's
remaining budget.

* :class:`SparQGPUCB` — at every round ``t``: discard observations whose injected variance
  ``σ²((t−i)² + 1)`` exceeds ``g(t) = σ² log t`` (``sparq`` Algorithm 1 line 4; threshold rule of
  :func:`tvbo_verify.theory.schedules.sparq_kept_ages`), ask the expert about ``Q_t`` DPP-chosen past
  inputs, and fit on the expert answers (noise ``σ̄²``) plus the kept recent observations (their own
  injected variances, ``sparq`` §1.6). ``keep_recent=False`` is the ``wsparq`` Algorithm 1 variant
  (expert answers only, ``Σ = σ²I``).
* :class:`WSparQGPUCB` — windows of ``wsparq`` eq. (32) (:func:`tvbo_verify.theory.schedules.window_schedule`):
  at a window start the regression set is replaced by ``Q_{t_j}`` expert answers; inside the window
  each bandit observation is appended. Noise ``σ²(1 + (τ − stamp)^α)`` (``0^α := 0``) with
  ``τ = t + target_offset`` (``noise_mode="UI"``) or ``σ²`` (``"homo"``); the fully specified version
  of ``wsparq`` §2 [ALG2]. Expert answers use the oracle's ``σ̄²`` in place of ``σ²`` (equal by default).

The default β is the Kirschner–Krause width evaluated on the current sparse set (``μ + β σ``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..dpp import ExactKDPP, greedy_init, sample_kdpp
from ..gp import posterior_from_gram
from ..theory.schedules import QueryRule, sparq_kept_ages, window_schedule
from ..validation import check_choice, check_int, check_positive
from .beta import BetaRule, kirschner_krause
from .policy import Policy

__all__ = [
    "DPP_METHODS", "SparQGPUCB", "WSparQGPUCB",
]

DPP_METHODS = ("exact", "mcmc", "greedy")


class _SparseBase(Policy):
    """Shared state: history of bandit data, the sparse regression set, DPP queries to the expert.

    With ``fit`` the hyperparameters are refitted on the bandit history (homoscedastic noise) before the
    round's regression set is formed, so the set and its noise use the fitted values."""

    supports_fit = True

    def __init__(self, beta: BetaRule | None, queries: QueryRule | str | None, dpp: str,
                 dpp_iterations: int | None = None, c_q: float | None = None) -> None:
        super().__init__(beta if beta is not None else kirschner_krause(B=1.0, delta=0.05))
        self.dpp_iterations = None if dpp_iterations is None else check_int("dpp_iterations", dpp_iterations, 0)
        # A rule name ("experiments": ⌈c_q log T⌉, "log": ⌈c_q log^d t⌉) is turned into a QueryRule at reset,
        # when the dimension d is known.
        self._query_spec = "experiments" if queries is None else queries
        if isinstance(queries, str):
            check_choice("queries", queries, ("experiments", "log"))
        elif queries is not None and not isinstance(queries, QueryRule):
            raise ValueError(f"queries must be a QueryRule or a rule name, got {type(queries).__name__}")
        self.c_q = 6.0 if c_q is None else check_positive("c_q", c_q)
        self.queries = (self._query_spec if isinstance(self._query_spec, QueryRule)
                        else QueryRule(self._query_spec, c_q=self.c_q))
        self.dpp = check_choice("dpp", dpp, DPP_METHODS)

    def _reset(self) -> None:
        if not isinstance(self._query_spec, QueryRule):
            self.queries = QueryRule(self._query_spec, c_q=self.c_q, d=self.problem.d)
        G = self.problem.G
        self.hist_idx: list[int] = []
        self.hist_y: list[float] = []
        self._visited = np.zeros(G, dtype=bool)  # grid points played so far (the distinct past inputs)
        self.set_idx = np.zeros(0, dtype=np.int64)
        self.set_y = np.zeros(0)
        self.set_noise = np.zeros(0)
        self._prior_var = self.problem.kernel.diag(self.problem.grid)
        self._mean = np.zeros(G)
        self._var = self._prior_var.copy()
        self._log_det_ratio = 0.0
        self._forget_rows()
        self._query_size = 0  # how many distinct inputs the cached query Gram holds
        self.query_log: list[tuple[int, int]] = []  # (round, number of expert queries)
        self.query_points: dict[int, np.ndarray] = {}  # round -> grid indices the expert answered

    # -- sparse inference -------------------------------------------------------------------------
    def _dpp_points(self, t: int) -> np.ndarray:
        """Grid indices of a ``Q_t``-DPP sample over the distinct past inputs."""
        distinct = np.flatnonzero(self._visited)
        q = min(self.queries.count(t, self.problem.horizon), distinct.size)
        if self.expert is not None and self.expert.remaining is not None:
            q = min(q, self.expert.remaining)
        if q <= 0:
            return np.zeros(0, dtype=np.int64)
        K = self._query_gram(distinct)
        if self.dpp == "exact":  # the sampler knows the numerical rank: no draw attempts that must fail
            q = min(q, max(self._exact_sampler.rank, 1))
        while True:
            try:
                if self.dpp == "greedy":
                    picks = np.sort(greedy_init(K, q))
                elif self.dpp == "exact":
                    picks = self._exact_sampler.sample(q, self.rng)
                else:
                    picks = sample_kdpp(K, q, self.rng, method="mcmc", n_iter=self.dpp_iterations)
                return distinct[picks]
            except ValueError as exc:  # numerically rank-deficient Gram: fewer independent inputs
                if "rank" not in str(exc) or q == 1:
                    raise
                q -= 1

    def _query_gram(self, distinct: np.ndarray) -> np.ndarray:
        """The Gram of the distinct past inputs, and for exact sampling its diagonalised sampler, rebuilt
        only when the set of distinct inputs has grown since the last round (it never shrinks)."""
        if self._query_size != distinct.size:
            self._query_size = distinct.size
            self._query_K = self._kernel_rows(distinct)[:, distinct]
            self._exact_sampler = ExactKDPP(self._query_K) if self.dpp == "exact" else None
        return self._query_K

    def _ask_expert(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        idx = self._dpp_points(t)
        if idx.size == 0 or self.expert is None:
            self.query_log.append((t, 0))
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        ys = self.expert.query(idx)
        self.query_log.append((t, int(idx.size)))
        self.query_points[t] = idx.copy()
        return idx, ys

    def _kernel_rows(self, idx: np.ndarray) -> np.ndarray:
        """``k(grid[idx], grid)``: rows of the grid Gram, each computed once, when its point first enters a set."""
        slots = self._row_slot[idx]
        missing = np.unique(idx[slots < 0])
        if missing.size:
            grid = self.problem.grid
            start = self._row_count
            if start + missing.size > self._row_buf.shape[0]:
                grown = np.zeros((max(2 * self._row_buf.shape[0], start + missing.size), grid.shape[0]))
                grown[:start] = self._row_buf[:start]
                self._row_buf = grown
            self._row_buf[start : start + missing.size] = self.problem.kernel(grid[missing], grid)
            self._row_slot[missing] = np.arange(start, start + missing.size)
            self._row_count += missing.size
            slots = self._row_slot[idx]
        return self._row_buf[slots]

    def _fit(self) -> None:
        """The posterior on the grid and ``log(|K + Σ|/|Σ|)`` of the regression set from one Cholesky factor
        (the ``kk`` width of ``wsparq`` eq. (12) reads the same factor)."""
        if self.set_idx.size == 0:
            self._mean = np.zeros(self.problem.G)
            self._var = self._prior_var.copy()
            self._log_det_ratio = 0.0
            return
        rows = self._kernel_rows(self.set_idx)
        res = posterior_from_gram(rows[:, self.set_idx], rows, self._prior_var, self.set_y, self.set_noise)
        self._mean, self._var = res.mean, res.var
        self._log_det_ratio = res.log_det - float(np.sum(np.log(self.set_noise)))

    def _data(self) -> tuple[np.ndarray, np.ndarray]:
        return self._kernel_rows(self.set_idx)[:, self.set_idx], self.set_noise

    def posterior(self) -> tuple[np.ndarray, np.ndarray]:
        """Mean and variance on the grid of the current sparse (or regression-set) posterior."""
        return self._mean.copy(), self._var.copy()

    def _record(self, step: int, index: int, y: float) -> None:
        self.hist_idx.append(int(index))
        self.hist_y.append(float(y))
        self._visited[int(index)] = True
        self._refit_if_due(step)

    def _fit_data(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = len(self.hist_idx)
        idx = np.asarray(self.hist_idx, dtype=np.int64)
        return self.problem.grid[idx], np.asarray(self.hist_y), np.arange(1.0, n + 1)

    def _model_changed(self) -> None:
        """Forget the kernel rows and the query Gram of the old kernel; the round's regression set is formed
        (and fitted) after the refit."""
        self._forget_rows()
        self._query_size = 0
        self._prior_var = self.problem.kernel.diag(self.problem.grid)

    def _forget_rows(self) -> None:
        """Empty the cache of grid Gram rows (``_row_slot[g]`` is the buffer row of grid point ``g``, or −1)."""
        self._row_slot = np.full(self.problem.G, -1, dtype=np.int64)
        self._row_buf = np.zeros((16, self.problem.G))
        self._row_count = 0

    def select(self, step: int, time: float) -> int:
        ratio = self._log_det_ratio if self.beta.uses_log_det_ratio else None
        return self._ucb(step, self._mean, self._var, data=self._data, n=int(self.set_idx.size), log_det_ratio=ratio)

    @property
    def dataset_size(self) -> int:
        return int(self.set_idx.size)


class SparQGPUCB(_SparseBase):
    """SparQ-GP-UCB (``sparq`` Algorithm 1): discard old data, query the expert at DPP points every round."""

    name = "sparq-gp-ucb"
    paper = "sparq"

    def __init__(self, beta: BetaRule | None = None, *, queries: QueryRule | str | None = None,
                 c_q: float | None = None, dpp: str = "exact", threshold: str | float = "log", keep_recent: bool = True,
                 dpp_iterations: int | None = None) -> None:
        super().__init__(beta, queries, dpp, dpp_iterations, c_q)
        if threshold != "log":
            check_positive("threshold", threshold)
        self.threshold = threshold
        self.keep_recent = bool(keep_recent)

    def kept_rounds(self, t: int) -> np.ndarray:
        """Rounds ``i ≤ t`` whose observation survives the discard rule at ``t``."""
        if not self.keep_recent:
            return np.zeros(0, dtype=np.int64)
        ages = sparq_kept_ages(t, self.problem.noise_var, self.threshold)
        return np.sort(t - ages)

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        self._record(step, index, y)
        t = step
        s2 = self.problem.noise_var
        ex_idx, ex_y = self._ask_expert(t)
        ex_noise = np.full(ex_idx.size, self.expert.noise_var if self.expert is not None else s2)
        if not self.keep_recent:
            ex_noise = np.full(ex_idx.size, s2)  # wsparq Algorithm 1: Σ^s = σ² I
        kept = self.kept_rounds(t)
        rec_idx = np.asarray([self.hist_idx[i - 1] for i in kept], dtype=np.int64)
        rec_y = np.asarray([self.hist_y[i - 1] for i in kept], dtype=float)
        rec_noise = s2 * ((t - kept).astype(float) ** 2 + 1.0)
        self.set_idx = np.concatenate([ex_idx, rec_idx])
        self.set_y = np.concatenate([ex_y, rec_y])
        self.set_noise = np.concatenate([ex_noise, rec_noise])
        self._fit()

    def params(self) -> dict[str, Any]:
        return {"queries": {"kind": self.queries.kind, "c_q": self.queries.c_q, "d": self.queries.d},
                "dpp": self.dpp, "dpp_iterations": self.dpp_iterations, "threshold": self.threshold,
                "keep_recent": self.keep_recent}


class WSparQGPUCB(_SparseBase):
    """W-SparQ-GP-UCB (``wsparq`` Algorithm 2): expert queries only at the window starts of eq. (32)."""

    name = "w-sparq-gp-ucb"
    paper = "wsparq"

    def __init__(self, beta: BetaRule | None = None, *, alpha: float = 1.0, alpha_tilde: float = 0.25,
                 queries: QueryRule | str | None = None, c_q: float | None = None, dpp: str = "exact",
                 noise_mode: str = "UI", target_offset: int = 0, reading: str = "floor_plus_one",
                 dpp_iterations: int | None = None) -> None:
        super().__init__(beta, queries, dpp, dpp_iterations, c_q)
        window_schedule(alpha, alpha_tilde, 1, reading=reading)  # validates alpha, alpha_tilde, reading
        self.alpha, self.alpha_tilde, self.reading = float(alpha), float(alpha_tilde), reading
        self.noise_mode = check_choice("noise_mode", noise_mode, ("UI", "homo"))
        self.target_offset = check_choice("target_offset", target_offset, (0, 1))

    def _reset(self) -> None:
        super()._reset()
        self.schedule = window_schedule(self.alpha, self.alpha_tilde, self.problem.horizon, reading=self.reading)
        self._starts = set(int(s) for s in self.schedule.starts)
        self.set_stamp = np.zeros(0)
        self.set_base = np.zeros(0)  # base noise: the expert's σ̄² for expert answers, σ² for bandit data

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        self._record(step, index, y)
        t = step
        s2 = self.problem.noise_var
        if t in self._starts:
            self.set_idx, self.set_y = self._ask_expert(t)
            self.set_stamp = np.full(self.set_idx.size, float(t))
            expert_var = self.expert.noise_var if self.expert is not None else s2
            self.set_base = np.full(self.set_idx.size, expert_var)
        else:
            self.set_idx = np.append(self.set_idx, int(index))
            self.set_y = np.append(self.set_y, float(y))
            self.set_stamp = np.append(self.set_stamp, float(t))
            self.set_base = np.append(self.set_base, s2)
        if self.noise_mode == "UI":
            age = (t + self.target_offset) - self.set_stamp
            self.set_noise = self.set_base * (1.0 + np.where(age > 0, np.power(np.maximum(age, 0.0), self.alpha), 0.0))
        else:
            self.set_noise = self.set_base.copy()
        self._fit()

    def params(self) -> dict[str, Any]:
        return {"alpha": self.alpha, "alpha_tilde": self.alpha_tilde, "reading": self.reading,
                "queries": {"kind": self.queries.kind, "c_q": self.queries.c_q, "d": self.queries.d},
                "dpp": self.dpp, "dpp_iterations": self.dpp_iterations, "noise_mode": self.noise_mode,
                "target_offset": self.target_offset}
