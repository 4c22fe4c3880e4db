"""Each bandit policy replayed against its definition, refitted from scratch every round.

A run of a policy stands for the algorithm a paper names only if the policy implements that algorithm.
:func:`audit` plays a policy for a few rounds on an environment and, in every round, asks the algorithm's
*definition* — written here from the papers, refitting the posterior on the data the definition keeps with
its own data-management rule — two questions:

* is the posterior the policy ranks by (where it holds one on the grid, :func:`policy_posterior`) the
  definition's, to float accuracy (``SCORE_TOL`` relative), is the β_t it ranked with (its ``last_beta``) the
  definition's, and is its choice a maximiser of the definition's
  UCB score ``μ + m_t σ`` (within ``SCORE_TOL`` of the largest score, relative to the scores' scale)?
* is every discrete decision the policy took (a reset, a removal) one the definition takes (a removal of
  an observation of least relevance, to ``SCORE_TOL``)? A tie within the tolerance is followed the policy's
  way, so a float-accurate implementation is never reported as diverging.

The definitions (``t`` the round being chosen; the posterior is formed from rounds ``s ≤ t − 1``):

* ``gp-ucb`` — every observation (``tvgpucb`` eqs. (5)–(6)); with ``ui_alpha = α`` the noise of round
  ``s`` is ``σ²(1 + (τ − s)^α)``, ``τ = t − 1 + target_offset``, ``0^α := 0`` (``wsparq`` §1.3–1.4);
* ``greedy`` — every observation, width 0 (the arm of the highest posterior mean);
* ``r-gp-ucb`` — the rounds of the current block, ``⌊(s − 1)/N⌋ = ⌊(t − 1)/N⌋`` (``tvgpucb`` Algorithm 1);
* ``tv-gp-ucb`` — every observation under ``k(x, x')(1 − ε)^{|s − s'|/2}``, the target at lag ``t − s``
  (``tvgpucb`` eqs. (7)–(8));
* ``et-gp-ucb`` — the rounds since the last trigger, which fires at round ``t`` when
  ``|y_t − μ(x_t)| > √(2 log(π² t²/(3δ))) (σ(x_t) + σ_n)`` (:mod:`~tvbo_verify.bandits.etgpucb`);
* ``sw-gp-ucb`` — the last ``W`` rounds (Zhou & Shroff);
* ``wgp-ucb`` — the rounds of age ``t − 1 − s`` at most the memory, noise ``λ/γ^{t−1−s}`` (``wgpucb``
  eqs. (2)–(3), relative form), the width at ``t − 1`` when lagged (eq. (4));
* ``hetero-gp-ucb`` — every observation with the variance of its schedule (``age``: as ``gp-ucb``;
  ``index``: ``σ² s^α``; ``horizon``: ``σ²(1 + (T − s)^α)``); with generator O1 (data resampled each round,
  ``wsparq`` §5.0) the variances ``σ²(1 + (t − s)^α)`` and only the posterior's σ is compared;
* ``sparq-gp-ucb`` — the expert's answers of round ``t − 1`` (noise ``σ̄²``) and the rounds whose injected
  variance ``σ²((t − 1 − s)² + 1)`` is at most ``g(t − 1)`` (``sparq`` Algorithm 1);
* ``w-sparq-gp-ucb`` — the expert's answers at the last window start of ``wsparq`` eq. (32) and the
  bandit observations since, noise ``base·(1 + (τ − stamp)^α)`` (``wsparq`` Algorithm 2);
* ``fifo-gp-ucb`` / ``bolt`` / ``w-dbo`` — the spatio-temporal posterior at the current clock on the kept
  observations; removals: the oldest beyond ``size`` (FIFO), while ``|D| > n*`` one of least
  ``W₂(GP_D, GP_{D∖i})`` (``bolt`` Algorithm 1), or, under W-DBO's budget (replenished by
  ``rate·Δt/l_T``), one of least relevance relative to ``W₂(GP_D, prior)`` while it fits the budget.

The definitions share with the policies only what is not a policy's own rule: the kernel objects and the
model the policy holds (kernel, noise; they change under hyperparameter fitting), the β rule's value
(:mod:`tvbo_verify.confidence`, checked by its own claims; the regression set's log-det ratio is
computed here), the W-DBO/BOLT quadrature nodes, the W-SparQ window starts
(:func:`~tvbo_verify.theory.schedules.window_schedule`) and the expert's answers (random draws). They never
call the policy's noise schedule, trigger threshold, window or block rule, removal arg-min, UCB arg-max or
posterior code: a bug there makes the policy differ from its definition.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from scipy.linalg import solve_triangular

from ..validation import check_int
from .environments.base import Environment
from .policy import Policy, Problem
from .runner import start_run

__all__ = [
    "SCORE_TOL", "MAX_AUDIT_ROUNDS", "EVENTS", "audit_rounds", "order_wise_memory", "DefinitionAudit",
    "exact_posterior", "log_det_ratio", "grid_gain_upper_bound", "injected_noise", "Definition", "GridGP",
    "GPUCBDefinition", "GreedyDefinition", "RGPUCBDefinition", "TVGPUCBDefinition", "SWGPUCBDefinition",
    "WGPUCBDefinition", "HeteroDefinition", "ETGPUCBDefinition", "SparseDefinition", "SparQDefinition",
    "WSparQDefinition", "SpatioTemporalDefinition", "FIFODefinition", "BOLTDefinition", "WDBODefinition",
    "DEFINITIONS", "PAPER_DEFINITIONS", "paper_mismatch", "query_rule_text", "policy_posterior", "posterior_gap",
    "DefinitionMismatch", "require_definition", "audit",
]

#: Relative tolerance of a score or relevance comparison (float accuracy of a refit against an update).
SCORE_TOL = 1e-6
#: the rounds an audit may replay at most (a refit costs O(t³) a round)
MAX_AUDIT_ROUNDS = 400
#: the events (resets of an event-triggered method) an audit waits to see, within :data:`MAX_AUDIT_ROUNDS`
EVENTS = 3


@dataclass(frozen=True)
class DefinitionAudit:
    """The outcome of :func:`audit`: whether ``method`` made its definition's decisions in each of ``rounds``
    rounds (``first_divergence`` the first round it did not, ``reason`` what differed); ``audited=False`` when
    no definition is written for it (``reason`` says why)."""

    method: str
    rounds: int
    audited: bool
    first_divergence: int | None = None
    reason: str = ""
    max_score_gap: float = 0.0
    max_posterior_gap: float = 0.0
    seconds: float = 0.0  # spent in the definition's refits
    paper: str | None = None  # the paper whose definition was replayed (a paper id, or a citation outside them)
    algorithm: str = ""  # the algorithm (number) or equations of that paper, with the settings that select it

    @property
    def reproduces(self) -> bool:
        return self.audited and self.first_divergence is None

    @property
    def source(self) -> str:
        """``"wsparq Algorithm 1 (…)"``: the paper and algorithm the audit replayed."""
        return " ".join(p for p in (self.paper or "", self.algorithm) if p)

    def text(self) -> str:
        if not self.audited:
            return f"{self.method}: not audited ({self.reason})"
        replays = f"; replayed: {self.source}" if self.source else ""
        if self.reproduces:
            return (f"{self.method} reproduces its definition over {self.rounds} rounds (largest score gap "
                    f"{self.max_score_gap:.1e}){replays}")
        return (f"{self.method} does not implement its definition: first divergence at round "
                f"{self.first_divergence} ({self.reason}){replays}")

    def to_dict(self) -> dict[str, Any]:
        return {"method": self.method, "rounds": self.rounds, "audited": self.audited,
                "reproduces": self.reproduces, "first_divergence": self.first_divergence, "reason": self.reason,
                "max_score_gap": self.max_score_gap, "max_posterior_gap": self.max_posterior_gap,
                "seconds": self.seconds, "paper": self.paper, "algorithm": self.algorithm}


# --------------------------------------------------------------------------------------------------
# exact posteriors, written here (not the package's gp module: a bug there must not reach both sides)
# --------------------------------------------------------------------------------------------------
def _factor(K: np.ndarray, noise: np.ndarray) -> np.ndarray:
    A = K + np.diag(noise)
    try:
        return np.linalg.cholesky(A)
    except np.linalg.LinAlgError:
        return np.linalg.cholesky(A + 1e-10 * float(np.max(np.diag(A))) * np.eye(A.shape[0]))


def exact_posterior(K: np.ndarray, K_cross: np.ndarray, prior_var: np.ndarray, y: np.ndarray,
                    noise: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """GP posterior ``(μ, σ²)`` at the targets from the data Gram ``K`` (n×n), the cross-covariance ``K_cross``
    (n×m), the targets' prior variances, the data ``y`` and per-observation noise variances."""
    if y.size == 0:
        return np.zeros(prior_var.size), prior_var.copy()
    L = _factor(K, noise)
    A = solve_triangular(L, K_cross, lower=True, check_finite=False)
    z = solve_triangular(L, y, lower=True, check_finite=False)
    return A.T @ z, np.maximum(prior_var - np.einsum("ij,ij->j", A, A), 0.0)


def log_det_ratio(K: np.ndarray, noise: np.ndarray) -> float:
    """``log(|K + Σ| / |Σ|) = log det(I + Σ^{-1/2} K Σ^{-1/2})`` (``wsparq`` eq. (12))."""
    if noise.size == 0:
        return 0.0
    s = 1.0 / np.sqrt(noise)
    sign, value = np.linalg.slogdet(np.eye(noise.size) + s[:, None] * K * s[None, :])
    return float(value)


def grid_gain_upper_bound(K: np.ndarray, noise_var: float) -> Callable[[int], float]:
    """``s ↦ min(½ Σ_i log(1 + s μ_i/σ²), (s/2) log(1 + max_x k(x, x)/σ²))``, ``μ_i`` the eigenvalues of the grid's
    Gram ``K``: an upper bound of ``γ_s`` on the grid (spectral and Hadamard bounds), which the ``igp-ucb`` width
    with ``gamma="bound"`` reads for ``γ_{t−1}``."""
    mu = np.maximum(np.linalg.eigvalsh(K), 0.0) / noise_var
    top = float(np.max(np.diag(K))) / noise_var

    def bound(s: int) -> float:
        return min(0.5 * float(np.sum(np.log1p(s * mu))), 0.5 * s * math.log1p(top))

    return bound


def injected_noise(base: np.ndarray | float, age: np.ndarray, alpha: float) -> np.ndarray:
    """``base·(1 + age^α)`` with ``0^α := 0`` and no inflation at a non-positive age (uncertainty injection)."""
    age = np.asarray(age, dtype=float)
    grown = np.zeros_like(age)
    pos = age > 0
    grown[pos] = age[pos] ** alpha
    return base * (1.0 + grown)


# --------------------------------------------------------------------------------------------------
# definitions
# --------------------------------------------------------------------------------------------------
class Definition:
    """An algorithm's definition, fed the same rounds as the policy: :meth:`scores` ranks the grid at round
    ``t`` (and leaves the posterior it ranked by in :attr:`latest`); :meth:`observe` takes the round's
    observation and returns ``None`` or what the policy decided differently."""

    latest: tuple[np.ndarray, np.ndarray] | None = None
    beta_value: float | None = None  # β_t the definition ranked with (:attr:`Policy.last_beta` must equal it)
    #: the posterior mean rests on data drawn afresh by the policy (not observed): only σ is compared, and the
    #: choice is not (its scores depend on that draw)
    mean_is_random = False

    def __init__(self, policy: Policy) -> None:
        assert policy.problem is not None
        self.policy = policy
        self.grid = policy.problem.grid
        self.idx: list[int] = []
        self.y: list[float] = []
        self.clocks: list[float] = []

    @property
    def problem(self) -> Problem:
        assert self.policy.problem is not None
        return self.policy.problem  # the policy's current model (hyperparameter fits change it)

    def multiplier(self, t: int, K: np.ndarray | None = None, noise: np.ndarray | None = None) -> float:
        """The β rule's factor on σ at ``t`` (with the regression set's log-det ratio for the ``kk`` rule and
        ``igp-ucb`` with ``gamma="queried"``, the grid's gain bound for ``igp-ucb`` with ``gamma="bound"``)."""
        p = self.problem
        rule = self.policy.beta
        ratio = log_det_ratio(K, noise) if K is not None and rule.uses_log_det_ratio else None
        bound = self._gain_upper_bound() if rule.uses_gain_bound else None
        n = 0 if noise is None else int(noise.size)
        beta, mult = rule.multiplier(t, grid_size=p.G, d=p.d, n=n, log_det_ratio=ratio, gain_bound=bound,
                                     data=lambda: (np.zeros((0, 0)), np.zeros(0)))
        self.beta_value = float(beta)
        return float(mult) * self.policy.beta_scale

    #: the paper (an id of :mod:`tvbo_verify.papers`, or a citation) and algorithm this definition is written from
    SOURCE: tuple[str | None, str] = (None, "")

    def source(self) -> tuple[str | None, str]:
        """The paper and algorithm (number, equations) the definition replays for this policy's settings."""
        return self.SOURCE

    def _gain_upper_bound(self) -> Callable[[int], float]:
        """:func:`grid_gain_upper_bound` under the current model, computed once per model (a fit changes it)."""
        p = self.problem
        cached = getattr(self, "_gain", None)
        if cached is None or cached[0] is not p.kernel or cached[1] != float(p.noise_var):
            cached = self._gain = (p.kernel, float(p.noise_var), grid_gain_upper_bound(p.kernel(self.grid),
                                                                                       float(p.noise_var)))
        return cached[2]

    def scores(self, t: int, clock: float) -> np.ndarray:
        raise NotImplementedError

    def memory(self) -> float:
        """Rounds after which the method first forgets, restarts or truncates (0: never): the audit replays at
        least two of them, so that a rule that only acts then is replayed acting."""
        return 0.0

    def declared(self) -> str | None:
        """What differs between the parameters the policy derived from its declared ones and the definition's own
        derivation of them (None: nothing; checked once, before the first round)."""
        return None

    def enough(self, t: int) -> bool:
        """Whether the rounds replayed up to ``t`` show the method's events (an event-triggered method: its
        first resets); only asked once the minimum of :func:`audit_rounds` is reached."""
        return True

    def observe(self, t: int, clock: float, index: int, y: float) -> str | None:
        self.idx.append(int(index))
        self.y.append(float(y))
        self.clocks.append(float(clock))
        return None


def order_wise_memory(T: int, d: int, budget: float | None, scale: float) -> tuple[float, int]:
    """The discount ``γ`` and window (rounds) "set order-wise by theory", written out from ``wgpucb`` Corollary 5
    with ``γ̇_T = log^{d+1} T`` (not the policies' :mod:`tvbo_verify.bandits.tuning`): ``1 − γ₁ = γ̇_T^{−1/4}
    B_T^{1/2} T^{−1/2}`` (known budget; ``T^{−1/2} γ̇_T^{−1/4}`` unknown), ``γ = 1 − (1 − γ₁)/scale`` clipped at
    ``1/2``, the window ``⌈1/(1 − γ)⌉`` within ``[1, T]``; a static objective (``B_T = 0``): ``γ = 1``, window ``T``."""
    T = max(int(T), 2)
    if budget is not None and budget == 0.0:
        return 1.0, T
    gd = math.log(T) ** (d + 1)
    one_minus = gd ** -0.25 * (math.sqrt(budget) if budget is not None else 1.0) / math.sqrt(T) / scale
    gamma = max(1.0 - one_minus, 0.5)
    return gamma, int(min(T, max(1, math.ceil(1.0 / (1.0 - gamma)))))


def _declared_memory(policy: Policy, attribute: str, declared: Any) -> str | None:
    """Compare a memory the policy set "by theory" (``declared == "theory"``) with :func:`order_wise_memory`."""
    if declared != "theory":
        return None
    p = policy.problem
    assert p is not None
    gamma, window = order_wise_memory(p.horizon, p.d, p.extra.get("variation_budget"), float(policy.memory_scale))
    held = float(getattr(policy, attribute))
    stated = gamma if attribute == "discount" else float(window)
    if abs(held - stated) > SCORE_TOL * max(1.0, abs(stated)):
        return (f"the policy's {attribute} set order-wise by theory is {held:.6g}; written out from Corollary 5 it "
                f"is {stated:.6g}")
    return None


def _ucb(mean: np.ndarray, var: np.ndarray, multiplier: float) -> np.ndarray:
    return mean + multiplier * np.sqrt(np.maximum(var, 0.0))


class GridGP(Definition):
    """GP-UCB on the grid over the rounds :meth:`kept` returns, with the noise :meth:`noise` gives."""

    width = True

    def kept(self, t: int) -> np.ndarray:
        """Rounds (1-based) whose observation the posterior of round ``t`` uses."""
        return np.arange(1, t, dtype=np.int64)

    def noise(self, t: int, rounds: np.ndarray) -> np.ndarray:
        return np.full(rounds.size, self.problem.noise_var)

    def forgetting(self, t: int, rounds: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """``(D, d)`` factors of the Gram and the cross-covariance, or ``None`` (static)."""
        return None

    def beta_round(self, t: int) -> int:
        return t

    def posterior(self, t: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        rounds = self.kept(t)
        kernel, grid = self.problem.kernel, self.grid
        idx = np.asarray(self.idx, dtype=np.int64)[rounds - 1]
        y = np.asarray(self.y)[rounds - 1]
        X = grid[idx]
        K, Kx = kernel(X), kernel(X, grid)
        fact = self.forgetting(t, rounds)
        if fact is not None:
            K, Kx = K * fact[0], Kx * fact[1][:, None]
        noise = self.noise(t, rounds)
        mean, var = exact_posterior(K, Kx, kernel.diag(grid), y, noise)
        return mean, var, K, noise

    def scores(self, t: int, clock: float) -> np.ndarray:
        mean, var, K, noise = self.posterior(t)
        self._last = self.latest = (mean, var)
        if not self.width:
            self.beta_value = 0.0
        mult = self.multiplier(self.beta_round(t), K, noise) if self.width else 0.0
        return _ucb(mean, var, mult)


class GPUCBDefinition(GridGP):
    SOURCE = ("tvgpucb", "eqs. (5)–(6) (GP-UCB, every observation)")

    def source(self) -> tuple[str | None, str]:
        if getattr(self.policy, "ui_alpha", None) is not None:
            return ("wsparq", "eqs. (9)–(12) (GP-UCB under uncertainty injection)")
        return self.SOURCE

    def noise(self, t: int, rounds: np.ndarray) -> np.ndarray:
        alpha = getattr(self.policy, "ui_alpha", None)
        if alpha is None:
            return super().noise(t, rounds)
        tau = t - 1 + int(self.policy.target_offset)
        return injected_noise(self.problem.noise_var, tau - rounds, float(alpha))


class GreedyDefinition(GridGP):
    SOURCE = (None, "greedy: the posterior mean's maximiser (a control, no paper's)")
    width = False


class RGPUCBDefinition(GridGP):
    SOURCE = ("tvgpucb", "Algorithm 1 (R-GP-UCB, restart every N rounds)")

    def memory(self) -> float:
        return float(self.policy.block)

    def declared(self) -> str | None:
        return _declared_memory(self.policy, "block", self.policy.block_spec)

    def kept(self, t: int) -> np.ndarray:
        N = int(self.policy.block)
        start = ((t - 1) // N) * N + 1
        return np.arange(start, t, dtype=np.int64)


class TVGPUCBDefinition(GridGP):
    SOURCE = ("tvgpucb", "eqs. (7)–(8) (TV-GP-UCB)")

    def forgetting(self, t: int, rounds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = self.policy  # ε as given (or as fitted): not the value the policy's reset derives from it
        rho = 1.0 - float(p.epsilon if p.fit_log else p._epsilon0)
        s = rounds.astype(float)
        return rho ** (0.5 * np.abs(s[:, None] - s[None, :])), rho ** (0.5 * (t - s))


class SWGPUCBDefinition(GridGP):
    SOURCE = ("Zhou & Shroff", "SW-GP-UCB (the last W rounds)")

    def memory(self) -> float:
        return float(self.policy.window)

    def declared(self) -> str | None:
        return _declared_memory(self.policy, "window", self.policy.window_spec)

    def kept(self, t: int) -> np.ndarray:
        return np.arange(max(1, t - int(self.policy.window)), t, dtype=np.int64)


class WGPUCBDefinition(GridGP):
    SOURCE = ("wgpucb", "Algorithm 1 (WGP-UCB, eqs. (2)–(4))")

    def declared(self) -> str | None:
        return _declared_memory(self.policy, "discount", self.policy.discount_spec)

    def kept(self, t: int) -> np.ndarray:
        gamma, tol = float(self.policy.discount), float(self.policy.memory_tol)
        memory = math.inf if gamma == 1.0 else math.log(1.0 / tol) / -math.log(gamma)
        rounds = np.arange(1, t, dtype=np.int64)
        return rounds[(t - 1 - rounds) <= memory]

    def noise(self, t: int, rounds: np.ndarray) -> np.ndarray:
        return float(self.policy.lam) / np.power(float(self.policy.discount), (t - 1 - rounds).astype(float))

    def beta_round(self, t: int) -> int:
        return max(t - 1, 1) if self.policy.lagged_beta else t


class HeteroDefinition(GridGP):
    SOURCE = ("wsparq", "eqs. (8)–(12) (GP-UCB with each observation's injected variance)")

    def __init__(self, policy: Policy) -> None:
        super().__init__(policy)
        self.mean_is_random = policy.generator in ("O1", "O1-coupled")

    def noise(self, t: int, rounds: np.ndarray) -> np.ndarray:
        p, s2 = self.policy, self.problem.noise_var
        s = rounds.astype(float)
        if self.mean_is_random:  # generator O1: the data behind round t resampled with variances σ²(1 + (t − s)^α)
            return injected_noise(s2, t - s, float(p.alpha))
        if p.schedule == "age":
            return injected_noise(s2, (t - 1 + int(p.target_offset)) - s, float(p.alpha))
        if p.schedule == "index":
            return s2 * s ** float(p.alpha)
        return injected_noise(s2, float(self.problem.horizon) - s, float(p.alpha))


class ETGPUCBDefinition(GPUCBDefinition):
    SOURCE = ("Brunzema et al. (TMLR 2025)", "ET-GP-UCB (reset when the event trigger fires)")

    def source(self) -> tuple[str | None, str]:
        return self.SOURCE

    def __init__(self, policy: Policy) -> None:
        super().__init__(policy)
        self.start = 1  # the round whose observation opens the current data set

    def enough(self, t: int) -> bool:
        return len(self.policy.resets) >= EVENTS

    def kept(self, t: int) -> np.ndarray:
        return np.arange(self.start, t, dtype=np.int64)

    def observe(self, t: int, clock: float, index: int, y: float) -> str | None:
        fired_policy = t in self.policy.resets
        if t > self.start:
            mean, var = self._last
            deviation = abs(float(y) - float(mean[index]))
            beta = 2.0 * math.log(math.pi**2 * t * t / (3.0 * float(self.policy.delta)))
            bound = math.sqrt(beta) * (math.sqrt(max(float(var[index]), 0.0)) + math.sqrt(self.problem.noise_var))
            fires = deviation > bound
            if fires != fired_policy and abs(deviation - bound) > SCORE_TOL * (1.0 + bound):
                return (f"the event trigger {'fires' if fires else 'does not fire'} by definition (|y − μ| = "
                        f"{deviation:.4g}, bound √β_t(σ + σ_n) = {bound:.4g}) but the policy "
                        f"{'reset' if fired_policy else 'did not reset'}")
        elif fired_policy:
            return "the policy reset on an empty data set"
        if fired_policy:
            self.start = t
        return super().observe(t, clock, index, y)


class SparseDefinition(Definition):
    """SparQ / W-SparQ: the regression set rebuilt here from the history and the expert's answers."""

    def __init__(self, policy: Policy) -> None:
        super().__init__(policy)
        self.set_idx = np.zeros(0, dtype=np.int64)
        self.set_y = np.zeros(0)
        self.set_noise = np.zeros(0)

    def expert_answers(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        """The expert's answers of round ``t`` (points and values the oracle returned to the policy)."""
        points = self.policy.query_points.get(t)
        if points is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        q = points.size
        if not np.array_equal(self.policy.set_idx[:q], points):
            raise _Diverged(f"the regression set of round {t} does not start with the expert's answers")
        return points.copy(), self.policy.set_y[:q].copy()

    def scores(self, t: int, clock: float) -> np.ndarray:
        kernel, grid = self.problem.kernel, self.grid
        X = grid[self.set_idx]
        K = kernel(X)
        mean, var = exact_posterior(K, kernel(X, grid), kernel.diag(grid), self.set_y, self.set_noise)
        self.latest = (mean, var)
        return _ucb(mean, var, self.multiplier(t, K, self.set_noise))

    def expert_var(self) -> float:
        return float(self.policy.expert.noise_var) if self.policy.expert is not None else self.problem.noise_var


def query_rule_text(policy: Policy) -> str:
    """``"Q_t = ⌈6 log t⌉"`` / ``"Q = ⌈6 log T⌉"``: the count of expert queries a sparse policy asks at a query time."""
    rule = policy.queries
    c = f"{rule.c_q:g}"
    if rule.kind == "log":
        return f"Q_t = ⌈{c} log{'^' + str(rule.d) if rule.d > 1 else ''} t⌉ at query time t"
    if rule.kind == "experiments":
        return f"Q = ⌈{c} log T⌉ at every query time (horizon T)"
    return "Q_t of the theory (57)"


class SparQDefinition(SparseDefinition):
    def source(self) -> tuple[str | None, str]:
        """``sparq`` Algorithm 1 (the expert's answers and the recent observations the discard rule keeps, its §4
        count ⌈6 log T⌉), or ``wsparq`` Algorithm 1 (the expert's answers only, Σ = σ²I, ``Q_t`` a count of the
        query time ``t``); a mixture of the two is neither paper's."""
        p = self.policy
        count = query_rule_text(p)
        if p.keep_recent:
            if p.queries.kind == "experiments":
                return ("sparq", f"Algorithm 1 (expert answers and the recent observations g(t) keeps; {count}, §4)")
            return (None, f"sparq Algorithm 1's data rule with {count}, not sparq §4's ⌈6 log T⌉")
        if p.queries.kind in ("log", "theory"):
            return ("wsparq", f"Algorithm 1 (expert answers only, Σ = σ²I; {count})")
        return (None, f"wsparq Algorithm 1's data rule with {count} (sparq §4's count, not a count of t)")

    def observe(self, t: int, clock: float, index: int, y: float) -> str | None:
        super().observe(t, clock, index, y)
        p, s2 = self.policy, self.problem.noise_var
        ex_idx, ex_y = self.expert_answers(t)
        ex_noise = np.full(ex_idx.size, self.expert_var() if p.keep_recent else s2)
        rounds = np.zeros(0, dtype=np.int64)
        if p.keep_recent:
            g = math.log(t) if p.threshold == "log" else float(t) ** float(p.threshold)
            ages = np.arange(t, dtype=np.int64)  # ages 0..t-1: rounds t..1
            rounds = np.sort(t - ages[ages.astype(float) ** 2 + 1.0 <= g])
        self.set_idx = np.concatenate([ex_idx, np.asarray(self.idx, dtype=np.int64)[rounds - 1]])
        self.set_y = np.concatenate([ex_y, np.asarray(self.y)[rounds - 1]])
        self.set_noise = np.concatenate([ex_noise, s2 * ((t - rounds).astype(float) ** 2 + 1.0)])
        return None


class WSparQDefinition(SparseDefinition):
    def source(self) -> tuple[str | None, str]:
        """``wsparq`` Algorithm 2 with ``Q_{t_j}`` a count of the window start ``t_j``; a horizon-based count is
        sparq §4's choice, not Algorithm 2's."""
        count = query_rule_text(self.policy)
        if self.policy.queries.kind in ("log", "theory"):
            return ("wsparq", f"Algorithm 2 (windows of eq. (32), expert answers at window starts; {count})")
        return (None, f"wsparq Algorithm 2 with {count} (sparq §4's count, not Q_{{t_j}} of the window start)")

    def __init__(self, policy: Policy) -> None:
        super().__init__(policy)
        from ..theory.schedules import window_schedule

        sched = window_schedule(policy.alpha, policy.alpha_tilde, self.problem.horizon, reading=policy.reading)
        self.starts = set(int(s) for s in sched.starts)
        self.stamp = np.zeros(0)
        self.base = np.zeros(0)

    def observe(self, t: int, clock: float, index: int, y: float) -> str | None:
        super().observe(t, clock, index, y)
        p = self.policy
        if t in self.starts:
            self.set_idx, self.set_y = self.expert_answers(t)
            self.stamp = np.full(self.set_idx.size, float(t))
            self.base = np.full(self.set_idx.size, self.expert_var())
        else:
            self.set_idx = np.append(self.set_idx, int(index))
            self.set_y = np.append(self.set_y, float(y))
            self.stamp = np.append(self.stamp, float(t))
            self.base = np.append(self.base, self.problem.noise_var)
        if p.noise_mode == "UI":
            self.set_noise = injected_noise(self.base, (t + int(p.target_offset)) - self.stamp, float(p.alpha))
        else:
            self.set_noise = self.base.copy()
        return None


class _Diverged(Exception):
    """A decision of the policy its definition does not take (the message says which)."""


class SpatioTemporalDefinition(Definition):
    """FIFO GP-UCB, BOLT and W-DBO: the spatio-temporal posterior on the observations kept here, which drop
    only by the definition's removal rule (:meth:`removals`)."""

    def __init__(self, policy: Policy) -> None:
        super().__init__(policy)
        self.rounds: list[int] = []  # rounds of the kept observations, oldest first
        self.seen_removed = 0

    def _data(self) -> tuple[np.ndarray, np.ndarray]:
        pos = np.asarray(self.rounds, dtype=np.int64) - 1
        X = np.column_stack([self.grid[np.asarray(self.idx, dtype=np.int64)[pos]], np.asarray(self.clocks)[pos]])
        return X, np.asarray(self.y)[pos]

    def _posterior_at(self, nodes: np.ndarray, drop: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        kernel = self.policy.kernel
        X, y = self._data()
        if drop is not None:
            X, y = np.delete(X, drop, axis=0), np.delete(y, drop)
        noise = np.full(y.size, self.problem.noise_var)
        return exact_posterior(kernel(X), kernel(X, nodes), kernel.diag(nodes), y, noise)

    def scores(self, t: int, clock: float) -> np.ndarray:
        nodes = np.column_stack([self.grid, np.full(self.grid.shape[0], float(clock))])
        mean, var = self._posterior_at(nodes)
        self.latest = (mean, var)
        self.n_star = getattr(self.policy, "n_star", None)  # as the policy's removals of this round see it
        return _ucb(mean, var, self.multiplier(t))

    def relevance(self, clock: float) -> tuple[np.ndarray, float]:
        """``W₂(GP_D, GP_{D∖i})`` for every kept observation (a refit without each; uniform weights on the
        quadrature nodes) and ``W₂(GP_D, prior)``."""
        nodes = self.policy._quadrature(clock)
        mean, var = self._posterior_at(nodes)
        sd = np.sqrt(var)
        out = np.zeros(len(self.rounds))
        for i in range(out.size):
            m_i, v_i = self._posterior_at(nodes, drop=i)
            out[i] = math.sqrt(float(np.mean((mean - m_i) ** 2 + (sd - np.sqrt(v_i)) ** 2)))
        prior_sd = np.sqrt(self.policy.kernel.diag(nodes))
        return out, math.sqrt(float(np.mean(mean**2 + (sd - prior_sd) ** 2)))

    def take(self, removed: list[int], k: int, what: str) -> int:
        """Position of the policy's ``k``-th removal of this round among the kept rounds."""
        if k >= len(removed):
            raise _Diverged(f"the definition removes {what}; the policy removed nothing more")
        if removed[k] not in self.rounds:
            raise _Diverged(f"the policy removed round {removed[k]}, which the definition does not hold")
        return self.rounds.index(removed[k])

    def least_relevant(self, removed: list[int], k: int, w2: np.ndarray) -> int:
        """The policy's ``k``-th removal, which must have the least relevance (to ``SCORE_TOL``)."""
        pos = self.take(removed, k, f"the observation of round {self.rounds[int(np.argmin(w2))]} (least relevant)")
        if w2[pos] > float(np.min(w2)) + SCORE_TOL * (float(np.max(w2)) + 1e-300):
            raise _Diverged(f"the policy removed round {removed[k]} of W₂ relevance {w2[pos]:.4g}; the least "
                            f"relevant is round {self.rounds[int(np.argmin(w2))]} ({np.min(w2):.4g})")
        return pos

    def removals(self, t: int, clock: float, removed: list[int]) -> int:
        """Apply the definition's removals of round ``t`` (checking the policy's, ``removed``); their count."""
        raise NotImplementedError

    def observe(self, t: int, clock: float, index: int, y: float) -> str | None:
        super().observe(t, clock, index, y)
        self.rounds.append(t)
        removed = list(self.policy.removed[self.seen_removed:])
        self.seen_removed = len(self.policy.removed)
        done = self.removals(t, clock, removed)
        if done != len(removed):
            return f"the policy removed {len(removed)} observations in round {t}; the definition removes {done}"
        return None


class FIFODefinition(SpatioTemporalDefinition):
    SOURCE = (None, "spatio-temporal GP-UCB keeping its last `size` observations (FIFO)")

    def removals(self, t: int, clock: float, removed: list[int]) -> int:
        k = 0
        while len(self.rounds) > int(self.policy.size):
            pos = self.take(removed, k, f"the oldest observation (round {self.rounds[0]})")
            if pos != 0:
                raise _Diverged(f"the policy removed round {removed[k]}; the oldest kept is round {self.rounds[0]}")
            self.rounds.pop(0)
            k += 1
        return k


class BOLTDefinition(SpatioTemporalDefinition):
    SOURCE = ("bolt", "Algorithm 1 (BOLT, removals of least W₂ relevance while |D| > n*)")

    def removals(self, t: int, clock: float, removed: list[int]) -> int:
        k = 0
        while len(self.rounds) > int(self.n_star):
            w2, _ = self.relevance(clock)
            self.rounds.pop(self.least_relevant(removed, k, w2))
            k += 1
        return k


class WDBODefinition(SpatioTemporalDefinition):
    SOURCE = ("Bardou et al.", "W-DBO (removals within the relevance budget)")

    def __init__(self, policy: Policy) -> None:
        super().__init__(policy)
        self.budget = 0.0
        self.last: float | None = None

    def removals(self, t: int, clock: float, removed: list[int]) -> int:
        if self.last is not None:
            self.budget += float(self.policy.budget_rate) * (clock - self.last) / float(self.policy.k_T.lengthscale)
        self.last = clock
        k = 0
        while len(self.rounds) > 1:
            w2, scale = self.relevance(clock)
            least = float(np.min(w2)) / scale if scale > 0 else 0.0
            margin = SCORE_TOL * (abs(self.budget) + least) + 1e-15
            if least > self.budget + margin or (least > self.budget - margin and k >= len(removed)):
                break  # over the budget (a tie within the margin is decided the policy's way)
            pos = self.least_relevant(removed, k, w2)
            self.budget -= float(w2[pos]) / scale if scale > 0 else 0.0
            self.rounds.pop(pos)
            k += 1
        return k


#: The written definition of each algorithm family (``random`` and ``fixed-arm`` keep no model).
DEFINITIONS: dict[str, Callable[[Policy], Definition]] = {
    "gp-ucb": GPUCBDefinition,
    "greedy": GreedyDefinition,
    "r-gp-ucb": RGPUCBDefinition,
    "tv-gp-ucb": TVGPUCBDefinition,
    "et-gp-ucb": ETGPUCBDefinition,
    "sw-gp-ucb": SWGPUCBDefinition,
    "wgp-ucb": WGPUCBDefinition,
    "hetero-gp-ucb": HeteroDefinition,
    "sparq-gp-ucb": SparQDefinition,
    "w-sparq-gp-ucb": WSparQDefinition,
    "fifo-gp-ucb": FIFODefinition,
    "bolt": BOLTDefinition,
    "w-dbo": WDBODefinition,
}


#: the papers of this toolkit that each define their own version of a method, by algorithm family: an experiment
#: reproducing a figure of one of these papers must run that paper's version (:func:`paper_mismatch`)
PAPER_DEFINITIONS: dict[str, tuple[str, ...]] = {
    "sparq-gp-ucb": ("sparq", "wsparq"),
    "w-sparq-gp-ucb": ("wsparq",),
}


def paper_mismatch(algorithm: str, audit: DefinitionAudit, paper: str) -> str | None:
    """Why an audited method is not the version the figure's ``paper`` defines (``None``: it is, or the paper
    defines no version of ``algorithm``)."""
    papers = PAPER_DEFINITIONS.get(algorithm, ())
    if paper not in papers or not audit.audited or audit.paper == paper:
        return None
    return (f"{audit.method} replays {audit.source or 'no paper’s definition'}, but {paper} defines its own "
            f"{algorithm}: an experiment of {paper} runs {paper}'s algorithm")


def policy_posterior(policy: Policy, clock: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The posterior ``(μ, σ²)`` on the grid the policy's last :meth:`~Policy.select` ranked by, read from its
    state (``None`` for a policy whose posterior is not held on the grid)."""
    if hasattr(policy, "_posterior") and hasattr(policy, "_R"):  # spatio-temporal: at the clock
        return policy._posterior(clock)
    if hasattr(policy, "posterior") and callable(policy.posterior):
        return policy.posterior()
    post = getattr(policy, "post", None)
    if post is not None and hasattr(post, "mean"):
        return post.mean, post.var
    return None


def posterior_gap(ours: tuple[np.ndarray, np.ndarray], theirs: tuple[np.ndarray, np.ndarray]) -> float:
    """Largest difference of the means and of the standard deviations, relative to ``1 + max |μ| + max σ`` of
    the definition's posterior."""
    (m0, v0), (m1, v1) = ours, theirs
    s0, s1 = np.sqrt(np.maximum(v0, 0.0)), np.sqrt(np.maximum(np.asarray(v1, float), 0.0))
    scale = 1.0 + float(np.max(np.abs(m0))) + float(np.max(s0))
    return max(float(np.max(np.abs(m0 - m1))), float(np.max(np.abs(s0 - s1)))) / scale


def _not_audited(policy: Policy) -> str | None:
    if policy.name not in DEFINITIONS:
        return "keeps no model" if policy.name in ("random", "fixed-arm") else "no definition written for it"
    return None


class DefinitionMismatch(RuntimeError):
    """A policy does not implement its definition: its runs are not runs of the method it names."""


def require_definition(policy: Policy, env: Environment, T: int, seed: int, rounds: int = 50) -> DefinitionAudit:
    """:func:`audit` of copies of ``policy`` and ``env`` on the streams of seed ``seed``, raising
    :class:`DefinitionMismatch` (the method and the first round that differs) when the policy does not
    reproduce its definition."""
    import copy

    result = audit(copy.deepcopy(policy), copy.deepcopy(env), T, rounds, np.random.default_rng(seed))
    if result.audited and not result.reproduces:
        raise DefinitionMismatch(result.text())
    return result


def audit_rounds(definition: Definition, rounds: int, T: int) -> int:
    """The rounds an audit replays at least: ``rounds``, and two of the method's memories (window, block,
    discount memory) so that its forgetting is replayed acting, within the horizon and :data:`MAX_AUDIT_ROUNDS`."""
    memory = definition.memory()
    need = rounds if not math.isfinite(memory) or memory <= 0 else max(rounds, int(math.ceil(2 * memory)) + 2)
    return min(T, need, max(rounds, MAX_AUDIT_ROUNDS))


def audit(policy: Policy, env: Environment, T: int, rounds: int, rng: np.random.Generator, *,
          expert_noise_var: float | None = None, expert_budget: int | None = None) -> DefinitionAudit:
    """Play the first ``rounds`` rounds of a run of horizon ``T`` (the runner's random streams:
    :func:`tvbo_verify.bandits.runner.run`) and check each choice and decision of ``policy`` against its
    definition (module docstring). ``policy`` and ``env`` are reset (pass copies to keep the originals)."""
    T = check_int("T", T, 1)
    rounds = check_int("rounds", rounds, 1)
    reason = _not_audited(policy)
    if reason is not None:
        return DefinitionAudit(policy.name, 0, False, reason=reason)
    noise_rng, _ = start_run(policy, env, T, rng, expert_noise_var, expert_budget)
    definition = DEFINITIONS[policy.name](policy)
    paper, algorithm = definition.source()
    least = audit_rounds(definition, rounds, T)
    worst = drift_max = spent = 0.0
    played = 0
    derived = definition.declared()
    if derived is not None:
        return DefinitionAudit(policy.name, 0, True, 1, derived, paper=paper, algorithm=algorithm)

    def outcome(t: int | None, reason: str = "") -> DefinitionAudit:
        return DefinitionAudit(policy.name, played, True, t, reason, worst, drift_max, spent, paper, algorithm)

    for t in range(1, min(T, max(least, MAX_AUDIT_ROUNDS)) + 1):
        if t > least and definition.enough(t - 1):
            break
        played = t
        if t > 1:
            env.advance(policy.dataset_size)
        clock = env.time
        start = time.perf_counter()
        scores = definition.scores(t, clock)
        spent += time.perf_counter() - start
        i = int(policy.select(t, clock))
        held = policy_posterior(policy, clock)
        if held is not None and definition.latest is not None:
            ours = definition.latest
            if definition.mean_is_random:
                ours, held = (np.zeros_like(ours[0]), ours[1]), (np.zeros_like(ours[0]), held[1])
            drift = posterior_gap(ours, held)
            drift_max = max(drift_max, drift)
            if drift > SCORE_TOL:
                return outcome(t, f"the posterior the policy ranks by differs from the definition's by {drift:.3g} "
                                  "(relative)")
        beta = definition.beta_value
        if beta is not None and abs(float(policy.last_beta) - beta) > SCORE_TOL * (1.0 + abs(beta)):
            return outcome(t, f"the policy ranked with β_t = {float(policy.last_beta):.6g}; the definition's is "
                              f"{beta:.6g}")
        top = float(np.max(scores))
        gap = 0.0 if definition.mean_is_random else (top - float(scores[i])) / (1.0 + float(np.max(np.abs(scores))))
        worst = max(worst, gap)
        if gap > SCORE_TOL:
            return outcome(t, f"chose grid point {i} of score {scores[i]:.6g}; the definition's best is point "
                              f"{int(np.argmax(scores))} of score {top:.6g}")
        y = env.observe(i, noise_rng)
        policy.observe(t, clock, i, y)
        start = time.perf_counter()
        try:
            message = definition.observe(t, clock, i, y)
        except _Diverged as exc:
            message = str(exc)
        spent += time.perf_counter() - start
        if message is not None:
            return outcome(t, message)
    return outcome(None)
