"""Schedules and budgets prescribed by the papers.

* W-SparQ windows, ``wsparq`` eq. (32): ``t_j^{α̃/α} < t_{j+1} - t_j <= t_j^{α̃/α} + 1``. The unique integer
  solution is ``t_{j+1} = t_j + ⌊t_j^{α̃/α}⌋ + 1`` with ``t_1 = 1`` (reading ``"floor_plus_one"``, default).
  Alternatives mentioned by the catalog: the prose "lengths grow as ⌊t_j^{α̃/α}⌋" (``"floor"``, lengths
  ``max(1, ⌊t_j^{α̃/α}⌋)``) and ``"ceil"`` (``⌈t_j^{α̃/α}⌉``, equal to the default except when
  ``t_j^{α̃/α}`` is an integer, where it breaks the strict inequality of (32)).
* Expert queries per window ``Q_{t_k}``: the experiments' ``6 log T`` (``sparq`` §3.1, natural log), the
  generic ``c_Q log^d t`` (``wsparq`` §2 [ALG2]) and the theory constant of ``sparq`` eq. (57) with the
  Rasmussen–Williams eigenvalue constants of ``sparq`` §4.0 (Proposition 6 with ``C = M_k²``,
  ``α_P = -log B_RW``) and ``C_D`` of Theorem 0.B.1.
* SparQ discard rule (``sparq`` Algorithm 1 line 4, U3): keep observations whose injected variance
  ``σ²((t-i)² + 1)`` is at most ``g(t)``.
* R-GP-UCB block length (``tvgpucb`` Corollary 4.1 / App. E) and the experiments' rule
  (papers/tvgpucb/READING.md §3.5).
* WGP-UCB discount (``wgpucb`` Corollary 5, Lemmas 22–23) with ``c`` and ``m̄`` rounded up
  (papers/wgpucb/READING.md §3.11).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
import numpy as np

from ..validation import check_choice, check_int, check_open_interval, check_positive

__all__ = [
    "WINDOW_READINGS", "QUERY_RULES", "MAX_HORIZON", "window_step", "WindowSchedule", "window_schedule",
    "WindowCounts", "window_counts", "TheoryQueryConstants", "theory_query_constants", "theory_queries",
    "dpp_accuracy", "QueryRule", "QueryBudget", "window_query_budget", "sparq_query_budget",
    "lower_bound_query_threshold", "sparq_kept_ages", "matern_info_exponent", "nearest_in_range", "BlockLengths",
    "block_lengths", "DiscountChoice", "wgpucb_discount",
]

WINDOW_READINGS: tuple[str, ...] = ("floor_plus_one", "floor", "ceil")
QUERY_RULES: tuple[str, ...] = ("experiments", "log", "theory")
#: Largest horizon of a schedule: window starts and query counts are int64 arrays, and a start plus a
#: window length must not overflow.
MAX_HORIZON = 2**62


# --------------------------------------------------------------------------------------------------
# W-SparQ windows (wsparq eq. (32))
# --------------------------------------------------------------------------------------------------
def _check_window_params(alpha: float, alpha_tilde: float, horizon: int) -> tuple[float, float, int]:
    alpha = check_positive("alpha", alpha)
    alpha_tilde = check_open_interval("alpha_tilde", alpha_tilde, 0.0, 1.0 / 3.0, label="(0, 1/3)")
    horizon = check_int("horizon", horizon, minimum=1, maximum=MAX_HORIZON, reason="2^62: starts are int64")
    return alpha, alpha_tilde, horizon


def _floor_power(t: int, r: float) -> tuple[int, bool]:
    """``(⌊t^r⌋, t^r is an integer)``: float evaluation, re-checked at 50 digits near an integer."""
    x = math.pow(t, r)
    k = math.floor(x)
    is_int = False
    if abs(x - round(x)) < 1e-9 * max(1.0, x):
        with mpmath.workdps(50):
            xm = mpmath.power(t, mpmath.mpf(r))
            k = int(mpmath.floor(xm))
            is_int = bool(abs(xm - k) < mpmath.mpf(10) ** -40)
    return k, is_int


def window_step(t: int, alpha: float, alpha_tilde: float, reading: str = "floor_plus_one") -> int:
    """Length ``t_{j+1} - t_j`` of the window starting at ``t`` under the chosen reading of (32)."""
    k, is_int = _floor_power(t, alpha_tilde / alpha)
    if reading == "floor_plus_one":
        return k + 1
    if reading == "floor":
        return max(1, k)
    return max(1, k if is_int else k + 1)


@dataclass(frozen=True)
class WindowSchedule:
    """Window starts ``t_j <= T`` and their lengths ``t_{j+1} - t_j`` (``wsparq`` eq. (32))."""

    alpha: float
    alpha_tilde: float
    horizon: int
    reading: str
    starts: np.ndarray
    lengths: np.ndarray

    @property
    def n_windows(self) -> int:
        """``n(T)``: the number of window starts ``t_j <= T`` (Proof 3.11 step 4)."""
        return int(self.starts.size)

    @property
    def ratio(self) -> float:
        """``r = α̃/α``; ``n(T) ~ T^{1-r}/(1-r)`` (Proof 3.11, derived constant)."""
        return self.alpha_tilde / self.alpha

    def in_window_start(self, t: int) -> int:
        """Start ``t_j`` of the window containing ``t`` (``1 <= t <= T``)."""
        t = check_int("t", t, minimum=1)
        if t > self.horizon:
            raise ValueError(f"t must be <= horizon = {self.horizon}, got {t}")
        return int(self.starts[np.searchsorted(self.starts, t, side="right") - 1])


def window_schedule(
    alpha: float,
    alpha_tilde: float,
    horizon: int,
    *,
    reading: str = "floor_plus_one",
    t1: int = 1,
) -> WindowSchedule:
    """Return the W-SparQ windows up to ``horizon`` (``wsparq`` eq. (32), §2 [WIN]).

    ``reading`` selects how (32) is turned into integers (see the module docstring); ``t1`` is the first
    start (unspecified, read as 1: ``papers/wsparq/READING.md`` §3.9). The last length may reach past the horizon.

    Examples
    --------
    With ``α̃/α = 1/8`` every window up to ``T = 30`` has length ``⌊t^{1/8}⌋ + 1 = 2``:

    >>> ws = window_schedule(2.0, 0.25, 30)
    >>> ws.starts.tolist()[:5], ws.lengths.tolist()[:5], ws.n_windows, ws.ratio
    ([1, 3, 5, 7, 9], [2, 2, 2, 2, 2], 15, 0.125)
    >>> ws.in_window_start(10)
    9

    The readings differ where ``t^{α̃/α}`` is an integer (here ``1^{1/4}`` and ``16^{1/4}``):

    >>> window_schedule(1.0, 0.25, 20).lengths.tolist()
    [2, 2, 2, 2, 2, 2, 2, 2, 3, 3]
    >>> window_schedule(1.0, 0.25, 20, reading="ceil").lengths.tolist()
    [1, 2, 2, 2, 2, 2, 2, 2, 2, 3]
    >>> window_schedule(2.0, 0.5, 30)
    Traceback (most recent call last):
    ...
    ValueError: alpha_tilde must be in (0, 1/3), got 0.5
    """
    alpha, alpha_tilde, horizon = _check_window_params(alpha, alpha_tilde, horizon)
    check_choice("reading", reading, WINDOW_READINGS)
    t1 = check_int("t1", t1, minimum=1)
    starts: list[int] = []
    lengths: list[int] = []
    t = t1
    while t <= horizon:
        step = window_step(t, alpha, alpha_tilde, reading)
        starts.append(t)
        lengths.append(step)
        t += step
    # Starts are <= horizon; the last length can exceed int64 when α̃/α is large (t^{α̃/α} explodes),
    # in which case the lengths stay exact Python integers (object dtype).
    fits = lengths[-1] < np.iinfo(np.int64).max // 2
    return WindowSchedule(
        alpha,
        alpha_tilde,
        horizon,
        reading,
        np.asarray(starts, dtype=np.int64),
        np.asarray(lengths, dtype=np.int64 if fits else object),
    )


@dataclass(frozen=True)
class WindowCounts:
    """``n(T)`` (window starts ``<= T``) and ``N_T = Σ_{t_k <= T} max(1, ⌈log t_k⌉)`` on a ladder of horizons."""

    alpha: float
    alpha_tilde: float
    horizons: np.ndarray
    n_windows: np.ndarray
    queries: np.ndarray

    @property
    def ratio(self) -> float:
        return self.alpha_tilde / self.alpha


def _band_start(k: int, r: float) -> int:
    """Smallest integer ``t >= 1`` with ``⌊t^r⌋ >= k`` (the floor of :func:`window_step`).

    ``k^{1/r}`` can exceed 10^60 when ``r`` is small, beyond what 50 digits (``window_step``'s precision)
    resolve; the comparison ``t^r >= k`` is made with as many digits as ``t`` has, plus 20."""
    m = 1.0 / r
    if m == round(m) and int(m) & (int(m) - 1) == 0:  # r = 2^-j exactly (0.5, 0.25, ...): t^r >= k iff t >= k^m
        return int(k) ** int(m)

    def at_least(t: int) -> bool:
        if t < 2**52:
            return _floor_power(t, r)[0] >= k
        with mpmath.workdps(len(str(t)) + 20):
            return mpmath.power(t, mpmath.mpf(r)) >= k

    if math.log(max(k, 1)) / r < 36:  # k^{1/r} < 2^52: float resolves it to a few units
        t = max(1, math.ceil(math.pow(k, 1.0 / r)))
    else:
        with mpmath.workdps(max(30, int(math.log10(max(k, 2)) / r) + 20)):
            t = max(1, int(mpmath.ceil(mpmath.power(k, 1 / mpmath.mpf(r)))))
    while t > 1 and at_least(t - 1):
        t -= 1
    while not at_least(t):
        t += 1
    return t


def _log_queries_in_progression(start: int, step: int, count: int) -> int:
    """``Σ_{m<count} max(1, ⌈log(start + m·step)⌉)``, one run of equal values at a time (a term ``t`` has
    value ``v`` while ``t <= e^v``)."""
    total, m = 0, 0
    v = max(1, math.ceil(math.log(start))) if start > 1 else 1
    while m < count:
        end = min(count, max(m, math.floor((math.exp(v) - start) / step) + 1))
        total += v * (end - m)
        m, v = end, v + 1
    return total


def window_counts(alpha: float, alpha_tilde: float, horizons: np.ndarray) -> WindowCounts:
    """Exact ``n(T)`` and ``N_T`` (``Q_{t_k} = max(1, ⌈log t_k⌉)``, the ``"log"`` rule with ``c_q = 1``,
    ``d = 1``) of the ``floor_plus_one`` windows of ``wsparq`` eq. (32), for horizons far beyond what
    :func:`window_schedule` can list.

    Where ``⌊t^{α̃/α}⌋ = k`` (``t`` in the band ``[k^{α/α̃}, (k+1)^{α/α̃})``) every window has length
    ``k + 1``, so the starts in a band form an arithmetic progression: the cost is one step per band
    (``T^{α̃/α}`` bands up to ``T``) instead of one per window. Agrees with :func:`window_schedule` and
    :func:`window_query_budget` (tested).

    Examples
    --------
    Horizons up to ``10^9`` cost one step per band (``T = 30`` matches :func:`window_schedule`):

    >>> wc = window_counts(2.0, 0.25, [30, 10**6, 10**9])
    >>> wc.n_windows.tolist(), wc.queries.tolist()
    ([15, 183554, 82071059], [45, 2416708, 1649326808])
    >>> window_counts(2.0, 0.25, [100, 10])
    Traceback (most recent call last):
    ...
    ValueError: horizons must be increasing integers >= 1, got [100, 10]
    """
    alpha, alpha_tilde, _ = _check_window_params(alpha, alpha_tilde, 1)
    H = np.asarray(horizons, dtype=np.int64)
    if H.ndim != 1 or H.size == 0 or np.any(H < 1) or np.any(np.diff(H) <= 0):
        raise ValueError(f"horizons must be increasing integers >= 1, got {horizons!r}")
    r = alpha_tilde / alpha
    T_max = float(H[-1])
    if r >= 1 or T_max ** (1 - r) / (1 - r) < T_max**r:  # fewer windows than bands: list the windows
        return _window_counts_by_window(alpha, alpha_tilde, H)
    n_out = np.zeros(H.size, dtype=np.int64)
    q_out = np.zeros(H.size, dtype=np.int64)
    n_done = q_done = 0
    j = 0
    start, k = 1, _floor_power(1, r)[0]
    while j < H.size:
        if math.log(k + 1) / r > math.log(T_max) + 1:  # the next band starts beyond every horizon (and computing
            nxt = int(H[-1]) + 1                         # where could take ~log10(k)/r digits)
        else:
            nxt = _band_start(k + 1, r)  # first time of the next band
        step = k + 1
        count = max(0, -(-(nxt - start) // step))  # starts start, start + step, ... below nxt
        while j < H.size and H[j] < start + count * step:  # a horizon inside this band
            inside = min(count, max(0, (int(H[j]) - start) // step + 1))
            n_out[j] = n_done + inside
            q_out[j] = q_done + _log_queries_in_progression(start, step, inside)
            j += 1
        if j == H.size:
            break
        n_done += count
        q_done += _log_queries_in_progression(start, step, count)
        start += count * step
        k += 1
    return WindowCounts(alpha, alpha_tilde, H.copy(), n_out, q_out)


def _window_counts_by_window(alpha: float, alpha_tilde: float, H: np.ndarray) -> WindowCounts:
    """:func:`window_counts` one window at a time (when windows are fewer than bands)."""
    n_out = np.zeros(H.size, dtype=np.int64)
    q_out = np.zeros(H.size, dtype=np.int64)
    n = q = 0
    j = 0
    t = 1
    while j < H.size:
        while j < H.size and H[j] < t:
            n_out[j], q_out[j] = n, q
            j += 1
        n += 1
        q += max(1, math.ceil(math.log(t))) if t > 1 else 1
        t += window_step(t, alpha, alpha_tilde)
    return WindowCounts(alpha, alpha_tilde, H.copy(), n_out, q_out)


# --------------------------------------------------------------------------------------------------
# Expert-query budgets
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TheoryQueryConstants:
    """Constants of ``sparq`` eq. (57) for the SE kernel and ``q = N(μ_q, (l_q/8)²)`` (``sparq`` §4.0).

    ``b_rw`` is the Rasmussen–Williams eigenvalue ratio, ``rate = -log b_rw`` (Proposition 6's α),
    ``C = M_k²`` (tail ``Σ_{j>Q} λ_j = M_k² b_rw^Q`` in one dimension), ``C_D = (√(2π) l_q/8)^d e^8``
    (Theorem 0.B.1) and ``C̄ = C_D C``. For ``d > 1`` the same per-dimension rate is used [reading].
    """

    d: int
    b_rw: float
    rate: float
    C: float
    C_D: float

    @property
    def C_bar(self) -> float:
        return self.C_D * self.C

    @property
    def min_queries(self) -> float:
        """Proposition 6's requirement ``Q >= d^d/α + d - 1`` (papers/sparq/READING.md §sparq:eq-57; §5.8)."""
        return self.d**self.d / self.rate + self.d - 1


def theory_query_constants(
    lengthscale: float, signal_variance: float, domain_diameter: float, d: int = 1
) -> TheoryQueryConstants:
    """Compute the constants of (57) (``sparq`` §4.0 closed form, worked example of Proposition 2)."""
    ell = check_positive("lengthscale", lengthscale)
    mk2 = check_positive("signal_variance", signal_variance)
    lq = check_positive("domain_diameter", domain_diameter)
    d = check_int("d", d, minimum=1)
    s = lq / 8.0
    a = 1.0 / (4.0 * s * s)
    b = 1.0 / (2.0 * ell * ell)
    c = math.sqrt(a * a + 2.0 * a * b)
    b_rw = b / (a + b + c)
    c_d = (math.sqrt(2.0 * math.pi) * s) ** d * math.exp(8.0)
    return TheoryQueryConstants(d=d, b_rw=b_rw, rate=-math.log(b_rw), C=mk2, C_D=c_d)


def theory_queries(t: float, eta: float, noise_var: float, constants: TheoryQueryConstants) -> float:
    """``Q_t = (1/α)^d log^d(2 C̄ t³ / (σ² η))`` of ``sparq`` eq. (57), unrounded."""
    t = check_positive("t", t)
    eta = check_positive("eta", eta)
    s2 = check_positive("noise_var", noise_var)
    arg = 2.0 * constants.C_bar * t**3 / (s2 * eta)
    return (math.log(arg) / constants.rate) ** constants.d if arg > 1 else 0.0


def dpp_accuracy(t: float, eta: float, noise_var: float, signal_variance: float) -> float:
    """``ε_t = σ² η / (4 t M_k²)``, ``sparq`` eq. (56)."""
    return check_positive("noise_var", noise_var) * check_positive("eta", eta) / (
        4.0 * check_positive("t", t) * check_positive("signal_variance", signal_variance)
    )


@dataclass(frozen=True)
class QueryRule:
    """How many expert queries are made at a query time ``t`` (window start or, for SparQ, every step).

    * ``"experiments"``: ``⌈6 log T⌉`` at every query time (``sparq`` §3.1, natural log; ``c_q`` overrides 6).
    * ``"log"``: ``max(1, ⌈c_q log^d t⌉)`` (``wsparq`` §2 [ALG2]).
    * ``"theory"``: ``⌈(57) at t⌉`` with the constants of :func:`theory_query_constants`.

    With ``cap_at_past`` the count is capped at ``t`` (at most ``t`` past inputs can be re-queried; when
    ``Q >= t`` the sparse and virtual posteriors coincide, ``sparq`` Proposition 2).

    Examples
    --------
    >>> QueryRule("log").count(100, 1000), QueryRule().count(100, 1000)  # ⌈6 log 100⌉, ⌈6 log 1000⌉
    (28, 42)
    >>> QueryRule("theory")
    Traceback (most recent call last):
    ...
    ValueError: the theory query rule needs constants (see theory_query_constants)
    """

    kind: str = "experiments"
    c_q: float = 6.0
    d: int = 1
    eta: float = 0.1
    noise_var: float = 0.01
    constants: TheoryQueryConstants | None = None
    cap_at_past: bool = True

    def __post_init__(self) -> None:
        check_choice("query rule", self.kind, QUERY_RULES)
        check_positive("c_q", self.c_q)
        check_int("d", self.d, minimum=1)
        if self.kind == "theory" and self.constants is None:
            raise ValueError("the theory query rule needs constants (see theory_query_constants)")

    def count(self, t: int, horizon: int) -> int:
        """Number of queries at time ``t`` for horizon ``T``."""
        if self.kind == "experiments":
            q = max(1, math.ceil(self.c_q * math.log(horizon))) if horizon > 1 else 1
        elif self.kind == "log":
            q = max(1, math.ceil(self.c_q * math.log(t) ** self.d)) if t > 1 else 1
        else:
            assert self.constants is not None
            q = max(1, math.ceil(theory_queries(t, self.eta, self.noise_var, self.constants)))
        return min(q, t) if self.cap_at_past else q

    def counts(self, times: np.ndarray, horizon: int) -> np.ndarray:
        """Vectorised :meth:`count` over integer query times ``t >= 1``."""
        t = np.asarray(times, dtype=np.int64)
        tf = t.astype(float)
        if self.kind == "experiments":
            q = np.full(t.shape, max(1, math.ceil(self.c_q * math.log(horizon))) if horizon > 1 else 1, dtype=np.int64)
        elif self.kind == "log":
            q = np.maximum(1, np.ceil(self.c_q * np.log(tf) ** self.d)).astype(np.int64)
        else:
            assert self.constants is not None
            k = self.constants
            arg = 2.0 * k.C_bar * tf**3 / (self.noise_var * self.eta)
            with np.errstate(divide="ignore", invalid="ignore"):
                raw = np.where(arg > 1, (np.log(np.maximum(arg, 1.0)) / k.rate) ** k.d, 0.0)
            q = np.maximum(1, np.ceil(raw)).astype(np.int64)
        return np.minimum(q, t) if self.cap_at_past else q


@dataclass(frozen=True)
class QueryBudget:
    """Queries per query time and their total ``N_T`` (``wsparq`` Theorem 3.10, ``sparq`` Theorem 3.1)."""

    times: np.ndarray
    queries: np.ndarray
    horizon: int

    @property
    def total(self) -> int:
        return int(np.sum(self.queries))

    @property
    def per_step(self) -> float:
        """``N_T / T``."""
        return self.total / self.horizon


def window_query_budget(schedule: WindowSchedule, rule: QueryRule | None = None) -> QueryBudget:
    """``Q_{t_k}`` at every window start and ``N_T = Σ_{t_k <= T} Q_{t_k}`` (``wsparq`` Theorem 3.10).

    Examples
    --------
    The default rule is the experiments' ``⌈6 log T⌉`` (21 at ``T = 30``), capped at ``t`` past inputs:

    >>> ws = window_schedule(2.0, 0.25, 30)
    >>> window_query_budget(ws).queries.tolist()
    [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 21, 21, 21, 21]
    >>> b = window_query_budget(ws, QueryRule("log", c_q=1.0))
    >>> b.queries.tolist(), b.total
    ([1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4], 45)
    """
    rule = rule or QueryRule()
    return QueryBudget(schedule.starts.copy(), rule.counts(schedule.starts, schedule.horizon), schedule.horizon)


def sparq_query_budget(horizon: int, rule: QueryRule | None = None) -> QueryBudget:
    """SparQ queries ``Q_t`` at every step and ``N_T = Σ_t Q_t`` (``sparq`` Theorem 3.1, ``wsparq`` Thm 3.3).

    Examples
    --------
    ``⌈6 log 100⌉ = 28`` queries per step, fewer while ``t < 28``:

    >>> b = sparq_query_budget(100)
    >>> b.queries[:3].tolist(), int(b.queries[-1]), b.total, b.per_step
    ([1, 2, 3], 28, 2422, 24.22)
    """
    horizon = check_int("horizon", horizon, minimum=1)
    rule = rule or QueryRule()
    times = np.arange(1, horizon + 1, dtype=np.int64)
    return QueryBudget(times, rule.counts(times, horizon), horizon)


def lower_bound_query_threshold(alpha: float, horizon: int) -> float:
    """``T^{α/(α+1)}``: with ``N_T = O(T^{α/(α+1)})`` no algorithm is no-regret (``wsparq`` Thm 5.3, α > 1)."""
    alpha = check_positive("alpha", alpha)
    horizon = check_int("horizon", horizon, minimum=1)
    return float(horizon) ** (alpha / (alpha + 1.0))


# --------------------------------------------------------------------------------------------------
# SparQ discard rule (sparq Algorithm 1 line 4, U3; papers/sparq/READING.md §sparq:discard-step; §sparq:u3-threshold)
# --------------------------------------------------------------------------------------------------
def sparq_kept_ages(t: int, noise_var: float = 1.0, threshold: str | float = "log") -> np.ndarray:
    """Ages ``a = t - i`` of the observations kept at time ``t``: ``σ²(a² + 1) <= g(t)``.

    ``threshold="log"`` is the paper's ``g(t) = σ² log t``; a float ``κ`` gives ``g(t) = σ² t^κ`` (U3,
    any ``g = o(t^{1/4})``). The kept count does not depend on ``σ²``.

    Examples
    --------
    >>> sparq_kept_ages(100).tolist(), sparq_kept_ages(100, threshold=0.5).tolist()
    ([0, 1], [0, 1, 2, 3])
    """
    t = check_int("t", t, minimum=1)
    check_positive("noise_var", noise_var)
    if threshold == "log":
        g_over_s2 = math.log(t)
    else:
        kappa = check_positive("threshold exponent", threshold)  # type: ignore[arg-type]
        g_over_s2 = float(t) ** kappa
    # a^2 + 1 <= g implies a <= sqrt(g): only the first isqrt(g) + 2 ages can be kept (any t in O(sqrt g)).
    ages = np.arange(0, min(t, math.isqrt(int(max(g_over_s2, 0.0))) + 2), dtype=np.int64)
    return ages[ages.astype(float) ** 2 + 1.0 <= g_over_s2]


# --------------------------------------------------------------------------------------------------
# R-GP-UCB / TV-GP-UCB block lengths (tvgpucb Corollary 4.1, App. E; papers/tvgpucb/READING.md §3.5)
# --------------------------------------------------------------------------------------------------
def matern_info_exponent(nu: float, d: int) -> float:
    """``c = d(d+1) / (2ν + d(d+1))`` (``tvgpucb`` Corollary 4.1)."""
    nu = check_positive("nu", nu)
    d = check_int("d", d, minimum=1)
    return d * (d + 1) / (2.0 * nu + d * (d + 1))


def nearest_in_range(z: float, horizon: int) -> int:
    """``I_T(z)``: the integer in ``{1, ..., T}`` closest to ``z`` (``tvgpucb`` App. E)."""
    horizon = check_int("horizon", horizon, minimum=1)
    return int(min(max(1, round(z)), horizon))


@dataclass(frozen=True)
class BlockLengths:
    """Block lengths of ``tvgpucb`` Corollary 4.1 for one ``(ε, T, kernel)``."""

    epsilon: float
    horizon: int
    kernel: str
    c: float | None
    r_gp_ucb_theory: int
    r_gp_ucb_experiments: int
    tv_analysis: int
    tv_analysis_corrected: int
    r_exponent: float
    tv_exponent: float


def block_lengths(epsilon: float, horizon: int, kernel: str = "se", *, nu: float = 2.5, d: int = 1) -> BlockLengths:
    """R-GP-UCB block length ``N`` and TV-GP-UCB analysis length ``Ñ`` (``tvgpucb`` Corollary 4.1).

    * theory: ``N = I_T(ε^{-1/4})`` (SE) or ``I_T(ε^{-1/(4-c)})`` (Matérn);
    * experiments: ``⌈min{T, 12 ε^{-1/4}}⌉`` (SE) or ``⌈min{T, 24 ε^{-1/(4-c)}}⌉`` (Matérn);
    * TV analysis: ``Ñ = I_T(ε^{-1/3})`` or ``I_T(ε^{-1/(3-c)})``; with the corrected ``Ñ^{5/2}ε`` term
      (``tvgpucb`` §3.3) the SE optimum becomes ``Ñ = ε^{-2/5}`` [derived, not claimed by the paper].

    Examples
    --------
    >>> bl = block_lengths(0.01, 1000)
    >>> bl.r_gp_ucb_theory, bl.r_gp_ucb_experiments, bl.tv_analysis, bl.tv_analysis_corrected
    (3, 38, 5, 6)
    >>> bm = block_lengths(0.01, 1000, "matern", nu=2.5)
    >>> round(bm.c, 4), bm.r_gp_ucb_theory, bm.tv_analysis
    (0.2857, 3, 5)

    Lengths beyond the horizon are clipped to ``T`` (here ``ε^{-1/3} = 100 > T = 50``):

    >>> bs = block_lengths(1e-6, 50)
    >>> bs.r_gp_ucb_theory, bs.r_gp_ucb_experiments, bs.tv_analysis
    (32, 50, 50)
    """
    epsilon = check_open_interval("epsilon", epsilon, 0.0, 1.0)
    horizon = check_int("horizon", horizon, minimum=1)
    check_choice("kernel", kernel, ("se", "matern"))
    if kernel == "se":
        c = None
        r_exp, tv_exp, const = 1.0 / 4.0, 1.0 / 3.0, 12.0
        tv_corr_exp = 2.0 / 5.0
    else:
        c = matern_info_exponent(nu, d)
        r_exp, tv_exp, const = 1.0 / (4.0 - c), 1.0 / (3.0 - c), 24.0
        tv_corr_exp = 1.0 / (2.5 - c)
    return BlockLengths(
        epsilon=epsilon,
        horizon=horizon,
        kernel=kernel,
        c=c,
        r_gp_ucb_theory=nearest_in_range(epsilon**-r_exp, horizon),
        r_gp_ucb_experiments=int(math.ceil(min(horizon, const * epsilon**-r_exp))),
        tv_analysis=nearest_in_range(epsilon**-tv_exp, horizon),
        tv_analysis_corrected=nearest_in_range(epsilon**-tv_corr_exp, horizon),
        r_exponent=r_exp,
        tv_exponent=tv_exp,
    )


# --------------------------------------------------------------------------------------------------
# WGP-UCB discount (wgpucb Corollary 5, Lemmas 22-23)
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DiscountChoice:
    """Discount ``γ``, window ``c`` and QFF size ``m̄`` of ``wgpucb`` Corollary 5 (rounded up,
    papers/wgpucb/READING.md §3.11)."""

    horizon: int
    gamma_dot: float
    variation_budget: float | None
    discount: float
    c_exact: float
    c: int
    m_bar_exact: float
    m_bar: int
    regret_order: float

    @property
    def known_budget(self) -> bool:
        return self.variation_budget is not None


def wgpucb_discount(horizon: int, gamma_dot: float, variation_budget: float | None = None) -> DiscountChoice:
    """Corollary 5 of ``wgpucb``.

    Known ``B_T``: ``γ = 1 - γ̇^{-1/4} B_T^{1/2} T^{-1/2}``, regret order ``γ̇^{7/8} B_T^{1/4} T^{3/4}``.
    Unknown (``variation_budget=None``): ``γ = 1 - γ̇^{-1/4} T^{-1/2}``, order ``γ̇^{7/8} B_T T^{3/4}``, reported
    without its unknown factor ``B_T`` as ``γ̇^{7/8} T^{3/4}``. Giving ``variation_budget`` selects the known case.
    ``c = ⌈log T / (1 - γ)⌉`` and ``m̄ = ⌈log_{4/e}(T³ γ̇^{3/2})⌉``. ``γ̇`` must be an a-priori bound
    (e.g. Theorem 6 or ``log^{d+1} T``), since Corollary 5 is circular otherwise (papers/wgpucb/READING.md §3.11).

    Examples
    --------
    >>> ch = wgpucb_discount(1000, 10.0)
    >>> round(ch.discount, 4), ch.c, ch.m_bar, ch.known_budget
    (0.9822, 389, 63, False)
    >>> wgpucb_discount(2, 1e-3)
    Traceback (most recent call last):
    ...
    ValueError: the discount 1 - gamma_dot^(-1/4) T^(-1/2) = -2.97635 is outside (0, 1); increase horizon or gamma_dot
    """
    horizon = check_int("horizon", horizon, minimum=2)
    gamma_dot = check_positive("gamma_dot", gamma_dot)
    if variation_budget is None:
        x = gamma_dot**-0.25 * horizon**-0.5
        order = gamma_dot**0.875 * horizon**0.75
    else:
        bt = check_positive("variation_budget", variation_budget)
        x = gamma_dot**-0.25 * math.sqrt(bt) * horizon**-0.5
        order = gamma_dot**0.875 * bt**0.25 * horizon**0.75
        if not x < 1:
            raise ValueError(
                f"variation_budget must be < sqrt(gamma_dot) * T = {math.sqrt(gamma_dot) * horizon:.6g} "
                f"so that the discount lies in (0, 1), got {bt!r}"
            )
    if not 0 < x < 1:
        raise ValueError(f"the discount 1 - gamma_dot^(-1/4) T^(-1/2) = {1.0 - x:.6g} is outside (0, 1); "
                         "increase horizon or gamma_dot")
    c_exact = math.log(horizon) / x
    m_exact = (3.0 * math.log(horizon) + 1.5 * math.log(gamma_dot)) / math.log(4.0 / math.e)  # no T^3 overflow
    return DiscountChoice(
        horizon=horizon,
        gamma_dot=gamma_dot,
        variation_budget=variation_budget,
        discount=1.0 - x,
        c_exact=c_exact,
        c=int(math.ceil(c_exact)),
        m_bar_exact=m_exact,
        m_bar=max(1, int(math.ceil(m_exact))),
        regret_order=order,
    )
