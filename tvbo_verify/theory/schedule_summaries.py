"""W-SparQ window schedules and expert-query totals summarised for any horizon.

:func:`tvbo_verify.theory.schedules.window_schedule` lists every window start, which takes time
proportional to the number of windows (about ``T^{1-α̃/α}``: 7.5 million for ``T = 10^9``,
``α̃/α = 1/4``). The step ``t_{j+1} - t_j`` of ``wsparq`` eq. (32) is a non-decreasing function of
``t_j``, so the starts form runs of equal length: a run of ``m`` windows of length ``s`` from ``t``
has starts ``t, t + s, ..., t + (m-1) s``. :func:`window_segments` finds the runs (the boundaries
are found with the exact step of :func:`~tvbo_verify.theory.schedules.window_step`, the float
estimate is only a starting point), and :func:`query_total` sums a query rule over a run by the
pieces on which its (non-decreasing) uncapped count is constant, so a total costs a number of
evaluations that grows with the number of distinct lengths and query counts, not with ``T``.

* :func:`window_segments` — the runs of ``wsparq`` eq. (32) up to ``T``;
* :func:`query_total` — ``N_T = Σ_{t_k <= T} Q_{t_k}`` over runs (windows, or every step for SparQ);
* :func:`window_summary` / :class:`WindowSummary` — the ``calc window`` table;
* :func:`query_budgets` / :class:`QueryBudgets` — the ``calc queries`` table.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..validation import check_choice, check_int, check_nonnegative, check_positive
from .rates import QueryRegime, query_regime
from .schedules import (
    MAX_HORIZON,
    QUERY_RULES,
    WINDOW_READINGS,
    QueryRule,
    _check_window_params,
    lower_bound_query_threshold,
    sparq_kept_ages,
    theory_query_constants,
    window_step,
)

__all__ = [
    "LIST_LIMIT", "MAX_RUNS", "WindowSegment", "estimated_runs", "window_segments", "query_total",
    "cumulative_queries", "queries_curve", "query_rule", "WindowSummary", "window_summary", "QueryBudgets",
    "budget_totals", "query_budgets",
]

#: Window starts, lengths and per-window queries are listed in full up to this many windows.
LIST_LIMIT = 10_000
#: Schedules with more runs of equal length than this are refused (each run costs a few exact evaluations of
#: ``t^{α̃/α}``; 20 000 runs take about a second).
MAX_RUNS = 20_000
#: Runs with at most this many windows are evaluated element by element (vectorised).
_DIRECT_RUN = 4096


@dataclass(frozen=True)
class WindowSegment:
    """``count`` consecutive windows of equal ``length``, the first starting at ``first_start``."""

    first_start: int
    length: int
    count: int

    FIELDS: ClassVar[dict[str, str]] = {
        "first_start": "step t_j at which the first window of the run starts (steps count from 1)",
        "length": "window length t_{j+1} - t_j of every window of the run, in steps",
        "count": "number of consecutive windows of this length",
    }

    @property
    def last_start(self) -> int:
        return self.first_start + (self.count - 1) * self.length

    def starts(self) -> np.ndarray:
        if self.count == 1:  # the length may exceed int64 (a window reaching far past the horizon)
            return np.array([self.first_start], dtype=np.int64)
        return self.first_start + self.length * np.arange(self.count, dtype=np.int64)


def _first_longer(t: int, s: int, horizon: int, step, guess: int) -> int:
    """Smallest ``u`` in ``(t, horizon]`` with ``step(u) > s`` (``step(t) == s``), or ``horizon + 1``.

    ``guess`` (a float estimate of the boundary) only sets where the exact search starts.
    """
    if step(horizon) == s:
        return horizon + 1
    lo, hi = t, horizon  # invariant: step(lo) == s < step(hi)
    g = min(max(guess, t + 1), horizon)
    reach = 1
    if step(g) > s:
        hi = g
        while g - reach > lo and step(g - reach) > s:
            hi, reach = g - reach, 2 * reach
        lo = max(lo, g - reach)
    else:
        lo = g
        while g + reach < hi and step(g + reach) == s:
            lo, reach = g + reach, 2 * reach
        hi = min(hi, g + reach)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if step(mid) > s:
            hi = mid
        else:
            lo = mid
    return hi


def _boundary_guess(s: int, ratio: float, reading: str) -> int:
    """Float estimate of the first ``t`` whose window is longer than ``s``: ``t^r`` reaches ``s`` (or ``s + 1``)."""
    target = s + 1 if reading == "floor" else s
    try:
        return math.ceil(math.exp(math.log(target) / ratio))
    except (OverflowError, ZeroDivisionError):  # beyond float64, or a ratio that underflowed to 0 (t^r = 1)
        return 2**63


def estimated_runs(alpha: float, alpha_tilde: float, horizon: int) -> float:
    """About how many runs of equal length the windows up to ``T`` form: there are about ``T^r`` distinct
    lengths and ``T^{1-r}/(1-r)`` windows (``r = α̃/α``), and no more runs than either."""
    r = alpha_tilde / alpha
    lengths = math.exp(min(r * math.log(horizon), 700.0))
    windows = math.exp(min((1 - r) * math.log(horizon), 700.0)) / (1 - r) if r < 1 else 1.0
    return min(lengths, windows)


def window_segments(
    alpha: float, alpha_tilde: float, horizon: int, *, reading: str = "floor_plus_one", t1: int = 1
) -> tuple[WindowSegment, ...]:
    """Runs of equal window length of ``wsparq`` eq. (32) up to ``horizon`` (same windows as
    :func:`~tvbo_verify.theory.schedules.window_schedule`, summarised)."""
    alpha, alpha_tilde, horizon = _check_window_params(alpha, alpha_tilde, horizon)
    check_choice("reading", reading, WINDOW_READINGS)
    t = check_int("t1", t1, minimum=1, maximum=horizon, reason="the first window starts within the horizon")
    runs = estimated_runs(alpha, alpha_tilde, horizon)
    if runs > MAX_RUNS:
        raise ValueError(f"horizon = {horizon} with alpha_tilde/alpha = {alpha_tilde / alpha:.4g} has about {runs:.3g} "
                         f"runs of equal window length (more than {MAX_RUNS}, each found exactly); use a smaller "
                         "horizon (the number of windows grows like T^(1-r)/(1-r), r = alpha_tilde/alpha)")

    def step(u: int) -> int:
        try:
            return window_step(u, alpha, alpha_tilde, reading)
        except OverflowError:
            raise ValueError(f"alpha_tilde/alpha = {alpha_tilde / alpha:.6g} makes the window length "
                             f"t^(alpha_tilde/alpha) overflow float64 at t = {u}; use a larger alpha") from None

    out: list[WindowSegment] = []
    while t <= horizon:
        s = step(t)
        if t + 4 * s > horizon or step(t + 4 * s) > s:  # short run: walk it window by window
            count, u = 1, t + s
            while u <= horizon and step(u) == s:
                count, u = count + 1, u + s
        else:
            end = _first_longer(t, s, horizon, step, _boundary_guess(s, alpha_tilde / alpha, reading))
            count = (end - 1 - t) // s + 1
        out.append(WindowSegment(t, s, count))
        t += count * s
    return tuple(out)


def _uncapped(rule: QueryRule) -> QueryRule:
    return dataclasses.replace(rule, cap_at_past=False)


def _capped_sum(starts_first: int, step: int, count: int, value: int, cap: bool) -> int:
    """``Σ_j min(value, t_j)`` (or ``value · count`` without the cap) over ``t_j = first + j·step``."""
    if not cap:
        return value * count
    below = 0 if starts_first > value else min(count, (value - starts_first) // step + 1)
    series = below * starts_first + step * below * (below - 1) // 2
    return series + value * (count - below)


def query_total(rule: QueryRule, segments: tuple[WindowSegment, ...], horizon: int) -> int:
    """``Σ Q_t`` over the starts of ``segments`` for the query rule (``wsparq`` Theorem 3.10).

    The uncapped count of every rule is non-decreasing in ``t``, so each run splits into pieces on
    which it is constant (found by exponential and binary search); the cap ``min(Q, t)`` is summed
    in closed form on each piece.
    """
    horizon = check_int("horizon", horizon, minimum=1)
    free = _uncapped(rule)

    def q(t: int) -> int:
        return int(free.counts(np.array([t], dtype=np.int64), horizon)[0])

    total = 0
    for seg in segments:
        if seg.count <= _DIRECT_RUN:
            total += int(np.sum(rule.counts(seg.starts(), horizon)))
            continue
        if q(seg.first_start) == q(seg.last_start):  # one piece
            total += _capped_sum(seg.first_start, seg.length, seg.count, q(seg.first_start), rule.cap_at_past)
            continue
        j = 0
        while j < seg.count:
            value = q(seg.first_start + j * seg.length)
            reach = 1  # exponential search for the last j' with the same count, then bisection
            while j + reach < seg.count and q(seg.first_start + (j + reach) * seg.length) == value:
                reach *= 2
            lo, hi = j + reach // 2, min(j + reach, seg.count)  # q(lo) == value; hi is past the piece or the end
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if q(seg.first_start + mid * seg.length) == value:
                    lo = mid
                else:
                    hi = mid
            n = lo - j + 1
            total += _capped_sum(seg.first_start + j * seg.length, seg.length, n, value, rule.cap_at_past)
            j = lo + 1
    return total


def cumulative_queries(rule: QueryRule, segments: tuple[WindowSegment, ...], horizon: int) -> np.ndarray:
    """``N_t`` at the last start of every run (the cumulative query count, one value per run)."""
    return np.cumsum([query_total(rule, (seg,), horizon) for seg in segments])


def queries_curve(rule: QueryRule, table: "WindowSummary") -> tuple[np.ndarray, np.ndarray, bool]:
    """``(t, N_t, exact)``: the cumulative expert queries ``N_t`` (queries of the windows starting at or before
    ``t``) at the points where the table knows them, ending at ``(T, N_T)`` with ``N_T = table.total_queries``.

    With the windows listed (:data:`LIST_LIMIT`), the points are every window start and ``T``, and ``N_t`` is the
    step function through them (``exact``: constant from each start to the next). Otherwise they are the first and
    last start of every run of equal windows and ``T``; between them ``N_t`` rises in steps too small to draw.
    """
    T = table.horizon
    if table.starts is not None and table.queries_per_window is not None:
        ts = np.asarray(table.starts, dtype=float)
        ns = np.cumsum(np.asarray(table.queries_per_window, dtype=float))
        return np.append(ts, float(T)), np.append(ns, ns[-1]), True
    ts_list: list[float] = []
    ns_list: list[float] = []
    before = 0
    for seg in table.segments:
        ts_list.append(float(seg.first_start))
        ns_list.append(float(before + int(rule.counts(np.array([seg.first_start], dtype=np.int64), T)[0])))
        before += query_total(rule, (seg,), T)
        if seg.count > 1:
            ts_list.append(float(seg.last_start))
            ns_list.append(float(before))
    ts_list.append(float(T))
    ns_list.append(float(before))
    return np.array(ts_list), np.array(ns_list), False


def query_rule(kind: str, *, c_q: float = 6.0, d: int = 1, lengthscale: float = 3.0, signal_variance: float = 0.5,
               domain_diameter: float = 100.0, noise_var: float = 0.01, eta: float = 0.1,
               cap_at_past: bool = True) -> QueryRule:
    """A :class:`QueryRule` by name; the theory rule gets the constants of ``sparq`` eq. (57)."""
    check_choice("query rule", kind, QUERY_RULES)
    if kind == "theory" and not check_positive("noise_var", noise_var) * check_positive("eta", eta) >= 1e-300:
        raise ValueError(f"noise_var * eta = {noise_var * eta!r} underflows float64 in the theory rule (57); "
                         "use larger values")
    constants = theory_query_constants(lengthscale, signal_variance, domain_diameter, d) if kind == "theory" else None
    return QueryRule(kind, c_q=c_q, d=d, eta=check_positive("eta", eta),
                     noise_var=check_positive("noise_var", noise_var), constants=constants, cap_at_past=cap_at_past)


@dataclass(frozen=True)
class WindowSummary:
    """The W-SparQ windows of ``wsparq`` eq. (32) up to ``T`` and the expert queries they trigger.

    ``starts``/``lengths``/``queries_per_window`` are listed only up to :data:`LIST_LIMIT` windows
    (``None`` beyond); ``segments`` always describes every window.
    """

    alpha: float
    alpha_tilde: float
    horizon: int
    reading: str
    query_rule: str
    n_windows: int
    n_windows_asymptotic: float | None
    total_queries: int
    queries_per_step: float
    segments: tuple[WindowSegment, ...]
    starts: np.ndarray | None
    lengths: np.ndarray | None
    queries_per_window: np.ndarray | None

    FIELDS: ClassVar[dict[str, str]] = {
        "alpha": "UI exponent alpha of the injected noise sigma^2 (1 + age^alpha)",
        "alpha_tilde": "window exponent alpha~ of eq. (32)",
        "horizon": "horizon T, in steps",
        "reading": "integer reading of eq. (32): floor_plus_one t_{j+1} = t_j + floor(t_j^(alpha~/alpha)) + 1, "
                   "floor, or ceil",
        "query_rule": "expert queries per window: experiments ceil(6 log T), log c_Q log^d t, or theory (sparq (57)); "
                      "log = natural log; capped at the t past inputs unless --no-cap",
        "n_windows": "n(T), the number of window starts t_j <= T",
        "n_windows_asymptotic": "T^(1-r)/(1-r) with r = alpha~/alpha (Proof 3.11, derived constant)",
        "total_queries": "N_T, expert queries summed over the windows starting at or before T",
        "queries_per_step": "N_T / T (queries per step)",
        "segments": "runs of consecutive windows of equal length (they describe every window)",
        "starts": "every window start t_j (listed up to 10 000 windows)",
        "lengths": "every window length t_{j+1} - t_j in steps (listed up to 10 000 windows)",
        "queries_per_window": "expert queries Q_{t_j} of every window (listed up to 10 000 windows)",
    }

    @property
    def ratio(self) -> float:
        return self.alpha_tilde / self.alpha


def window_summary(alpha: float, alpha_tilde: float, horizon: int, rule: QueryRule, *,
                   reading: str = "floor_plus_one", t1: int = 1) -> WindowSummary:
    """Windows, their count against the asymptote ``T^{1-r}/(1-r)`` (``r = α̃/α``, Proof 3.11) and the
    query total ``N_T`` of ``rule``, for any horizon."""
    segments = window_segments(alpha, alpha_tilde, horizon, reading=reading, t1=t1)
    n_windows = sum(seg.count for seg in segments)
    total = query_total(rule, segments, horizon)
    r = alpha_tilde / alpha
    listed = n_windows <= LIST_LIMIT
    starts = np.concatenate([seg.starts() for seg in segments]) if listed and segments else None
    lengths = np.concatenate([np.full(seg.count, seg.length, dtype=object if seg.length > 2**62 else np.int64)
                              for seg in segments]) if listed and segments else None
    return WindowSummary(
        alpha=float(alpha), alpha_tilde=float(alpha_tilde), horizon=int(horizon), reading=reading,
        query_rule=rule.kind, n_windows=n_windows,
        n_windows_asymptotic=float(horizon) ** (1 - r) / (1 - r) if r < 1 else None,
        total_queries=total, queries_per_step=total / horizon, segments=segments, starts=starts, lengths=lengths,
        queries_per_window=rule.counts(starts, horizon) if starts is not None else None,
    )


@dataclass(frozen=True)
class QueryBudgets:
    """Expert-query budgets at horizon ``T``: W-SparQ and SparQ under the theory rule (``sparq`` eq. (57))
    and the experiments' ``6 log T``, against the ``T^{α/(α+1)}`` threshold of ``wsparq`` Theorem 5.3."""

    alpha: float
    alpha_tilde: float
    horizon: int
    theory_budget: int
    experiments_budget: int
    sparq_theory_budget: int
    sparq_experiments_budget: int
    lower_bound_threshold: float
    threshold_applies: bool
    wsparq_query_exponent: float
    threshold_exponent: float
    exponent_gap: float
    theory_queries_at_T: int
    experiments_queries_per_window: int
    sparq_kept_recent_at_T: int
    budget: float | None = None
    can_be_sufficient: bool | None = None
    table_2_column: str | None = None
    verdict: str | None = None

    FIELDS: ClassVar[dict[str, str]] = {
        "alpha": "UI exponent alpha",
        "alpha_tilde": "window exponent alpha~ of eq. (32)",
        "horizon": "horizon T, in steps",
        "theory_budget": "N_T of W-SparQ with the theory query count of sparq eq. (57) per window",
        "experiments_budget": "N_T of W-SparQ with the experiments' ceil(6 log T) per window (natural log)",
        "sparq_theory_budget": "N_T of SparQ (queries at every step) with the theory count of eq. (57)",
        "sparq_experiments_budget": "N_T of SparQ (queries at every step) with ceil(6 log T)",
        "lower_bound_threshold": "T^(alpha/(alpha+1)): wsparq Theorem 5.3 (alpha > 1) rules out budgets at or "
                                 "below it (constant 1; the theorem's constant is not explicit)",
        "threshold_applies": "whether alpha > 1, the hypothesis of Theorem 5.3",
        "wsparq_query_exponent": "1 - alpha~/alpha, the power of T in the W-SparQ budget (Thm 3.10)",
        "threshold_exponent": "alpha/(alpha+1), the power of T in the Theorem 5.3 threshold",
        "exponent_gap": "1/(alpha+1) - alpha~/alpha = wsparq_query_exponent - threshold_exponent (Remark 5.5)",
        "theory_queries_at_T": "queries per window of the theory rule (57) at t = T",
        "experiments_queries_per_window": "ceil(6 log T), capped at the t past inputs",
        "sparq_kept_recent_at_T": "observations SparQ keeps at t = T under its discard rule (Algorithm 1 line 4)",
        "budget": "the budget N_T given with --budget",
        "can_be_sufficient": "false: Theorem 5.3 rules the budget out; true: it reaches a budget known to suffice "
                             "(Thm 3.10, constant 1); empty: open question",
        "table_2_column": "column of wsparq Table 2 the budget falls in (a, b or c)",
        "verdict": "what the papers say about the budget, in words",
    }


def budget_totals(alpha: float, alpha_tilde: float, horizon: int, theory: QueryRule,
                  experiments: QueryRule) -> dict[str, float]:
    """The four budgets and the threshold at one horizon (the curves of ``calc queries --plot``)."""
    segments = window_segments(alpha, alpha_tilde, horizon)
    every_step = (WindowSegment(1, 1, horizon),)
    return {
        "wsparq_theory": query_total(theory, segments, horizon),
        "wsparq_experiments": query_total(experiments, segments, horizon),
        "sparq_theory": query_total(theory, every_step, horizon),
        "sparq_experiments": query_total(experiments, every_step, horizon),
        "threshold": lower_bound_query_threshold(alpha, horizon),
    }


def query_budgets(alpha: float, alpha_tilde: float, horizon: int, theory: QueryRule, experiments: QueryRule, *,
                  budget: float | None = None) -> QueryBudgets:
    """The ``calc queries`` table; with ``budget`` also where ``N_T = budget`` falls in ``wsparq`` Table 2."""
    horizon = check_int("horizon", horizon, minimum=2, maximum=MAX_HORIZON, reason="2^62: starts are int64")
    b = budget_totals(alpha, alpha_tilde, horizon, theory, experiments)
    regime: QueryRegime | None = None
    if budget is not None:
        regime = query_regime(check_nonnegative("budget", budget), horizon, alpha, alpha_tilde, b["wsparq_theory"])
    return QueryBudgets(
        alpha=float(alpha), alpha_tilde=float(alpha_tilde), horizon=horizon,
        theory_budget=int(b["wsparq_theory"]), experiments_budget=int(b["wsparq_experiments"]),
        sparq_theory_budget=int(b["sparq_theory"]), sparq_experiments_budget=int(b["sparq_experiments"]),
        lower_bound_threshold=float(b["threshold"]), threshold_applies=alpha > 1,
        wsparq_query_exponent=1 - alpha_tilde / alpha, threshold_exponent=alpha / (alpha + 1),
        exponent_gap=1 / (alpha + 1) - alpha_tilde / alpha,
        theory_queries_at_T=theory.count(horizon, horizon),
        experiments_queries_per_window=experiments.count(horizon, horizon),
        sparq_kept_recent_at_T=int(sparq_kept_ages(horizon).size),
        budget=None if regime is None else regime.budget,
        can_be_sufficient=None if regime is None else regime.can_be_sufficient,
        table_2_column=None if regime is None else regime.column,
        verdict=None if regime is None else regime.verdict,
    )
