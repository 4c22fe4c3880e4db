"""Kernel-expansion environments with exact RKHS norms and exact variation budgets.

Every ``f_t`` is ``Σ_i a_i(t) k(·, z_i)`` over a fixed support ``Z``, so ``‖f_t‖²_k = a(t)ᵀ K_Z a(t)`` and
``‖f_{t+1} - f_t‖_k`` are exact (``wgpucb`` §5.2). Environments:

* :class:`WsparqSynthetic` — the synthetic function of ``wsparq`` §4.1 (centres and grid from the
  catalog's instance I1), with the paper's normalisation ``a = 5 u / (λ_max ‖u‖)`` (variant
  ``"paper"``, which does *not* keep ``‖f_t‖ ≤ 5`` when ``λ_max < 1``; claim
  ``wsparq:synthetic-norm-bound``) or the exact one ``a = B u / √(uᵀK_C u)`` (variant ``"exact"``);
* :class:`RandomWalkExpansion` — instance I2 of ``wsparq`` §5.0: random centres, random-walk
  coefficients renormalised to norm exactly ``B``;
* :class:`RotationBudget`, :class:`AbruptBudget` — ``wgpucb`` §5.3 environments with a prescribed
  variation budget ``B_T`` (slow drift on a circle of radius ``B``; ``S`` abrupt switches);
* :class:`WgpucbPaper` — the §4 constructions of ``wgpucb`` (abrupt switches at rounds 100 and 200,
  linear interpolation "slow");
* :class:`PeakWalk` — an objective admissible for ``sparq`` Theorem 3.1 on a SparQ grid of ``[−50, 50]``: a
  kernel peak at the left end of norm below ``B`` with a zero-mean Rademacher drift inside the injection model (10).

Norm control: whenever a target norm ``B`` is prescribed, coefficients are scaled so that the norm
computed in float64 is ``≤ B`` (:func:`scale_to_norm`: shrunk by a doubling factor if round-off overshoots).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

import mpmath
import numpy as np

from ...kernels import KERNEL_NAMES, Kernel, SquaredExponential, kernel_by_name
from ...validation import as_points, check_choice, check_int, check_positive
from .base import Environment

__all__ = [
    "scale_to_norm", "cap_norm", "KernelExpansionEnv", "WsparqSynthetic", "RandomWalkExpansion", "RotationBudget",
    "AbruptBudget", "WgpucbPaper", "PeakWalk",
]


def _norm(a: np.ndarray, K: np.ndarray) -> float:
    return float(np.sqrt(max(float(a @ K @ a), 0.0)))


def scale_to_norm(a: np.ndarray, K: np.ndarray, B: float) -> np.ndarray:
    """Return ``c·a`` with ``‖Σ c a_i k(·, z_i)‖_k`` equal to ``B`` up to the accuracy of the float64 norm, and
    never above it in float64.

    After the exact rescaling, a computed norm still above ``B`` is shrunk by a factor that doubles its distance
    from 1 at every step (``2⁻⁵²``, ``2⁻⁵¹``, …): on an ill-conditioned Gram ``K`` (condition 3·10¹⁰ on 15 random
    centres of instance I2) the computed ``aᵀKa`` can stay above ``B²`` through 10⁵ shrinks of one unit in the
    last place each, which shrinking by a constant ``1 - 2⁻⁵²`` would take practically forever to leave.

    Examples
    --------
    >>> import numpy as np
    >>> K = np.array([[1.0, 0.5], [0.5, 1.0]])
    >>> a = scale_to_norm(np.array([3.0, 4.0]), K, 2.0)
    >>> bool(float(np.sqrt(a @ K @ a)) <= 2.0), round(float(np.sqrt(a @ K @ a)), 12)
    (True, 2.0)
    """
    B = check_positive("B", B)
    n = _norm(a, K)
    if n == 0.0:
        raise ValueError("coefficients have zero RKHS norm; cannot normalise")
    out = a * (B / n)
    shrink = 2.0**-52
    while (norm := _norm(out, K)) > B:
        out = out * min(B / norm, 1.0 - shrink)
        shrink *= 2.0
    return out


def cap_norm(a: np.ndarray, K: np.ndarray, B: float) -> np.ndarray:
    """Return ``a`` unchanged if its norm is ``≤ B`` in float64, else scaled to norm ``B`` (round-off only)."""
    return a if _norm(a, K) <= B else scale_to_norm(a, K, B)


class KernelExpansionEnv(Environment):
    """``f_t = Σ_i a_i(t) k(·, z_i)`` on a grid; subclasses supply ``_coefficients(t)`` (t ≥ 1)."""

    def __init__(self, kernel: Kernel, grid: np.ndarray, support: np.ndarray, noise_var: float) -> None:
        super().__init__()
        self.kernel = kernel
        self.grid = as_points("grid", grid)
        self.support = as_points("support", support, self.grid.shape[1])
        self.noise_var = check_positive("noise_var", noise_var)
        self._KZ = kernel(self.support)
        self._KgZ = kernel(self.grid, self.support)
        self._known: dict[int, np.ndarray] = {}

    @abstractmethod
    def _coefficients(self, t: int) -> np.ndarray:
        """Coefficients ``a(t)`` of ``f_t`` on the support."""

    def reset(self, rng: np.random.Generator, horizon: int) -> None:
        self._known = {}  # the coefficients of the realisation being replaced
        super().reset(rng, horizon)

    def coefficients(self, t: int) -> np.ndarray:
        """``a(t)`` of the current realisation, computed once per round and realisation (the exact norms, the
        variation budget and the values each read every round of the horizon). Do not modify it in place."""
        t = check_int("t", t, 1)
        a = self._known.get(t)
        if a is None:
            a = self._known[t] = self._coefficients(t)
        return a

    def _values(self) -> np.ndarray:
        return self._KgZ @ self.coefficients(self.step)

    def function(self, t: int) -> np.ndarray:
        """``f_t`` on the grid (any round, without moving the environment)."""
        return self._KgZ @ self.coefficients(t)

    def rkhs_norm(self, t: int) -> float:
        """Exact ``‖f_t‖_k = √(a(t)ᵀ K_Z a(t))`` (``wgpucb`` §5.2)."""
        return _norm(self.coefficients(t), self._KZ)

    def rkhs_norm_mp(self, t: int, dps: int = 50) -> mpmath.mpf:
        """:meth:`rkhs_norm` at ``dps`` digits: the float64 coefficients taken exactly, the Gram matrix of
        the support in mpmath (``nystrom.gram_mp``); the referee of a norm bound."""
        from ...nystrom import gram_mp

        a = self.coefficients(t)
        with mpmath.workdps(dps):
            K = gram_mp(self.kernel, self.support, dps=dps)
            am = [mpmath.mpf(float(v)) for v in a]
            n = len(am)
            quad = mpmath.fsum(am[i] * K[i, j] * am[j] for i in range(n) for j in range(n))
            return mpmath.sqrt(max(quad, mpmath.mpf(0)))

    def variation(self, t: int) -> float:
        """Exact ``‖f_{t+1} − f_t‖_k``."""
        return _norm(self.coefficients(t + 1) - self.coefficients(t), self._KZ)

    def variation_budget(self, T: int) -> float:
        """Exact ``B_T = Σ_{t=1}^{T−1} ‖f_{t+1} − f_t‖_k`` (``wgpucb`` §1.3)."""
        T = check_int("T", T, 1)
        return float(sum(self.variation(t) for t in range(1, T)))

    def rkhs_bound(self) -> float | None:
        """Exact ``max_{t ≤ T} ‖f_t‖_k`` over the horizon of the current realisation."""
        if self.horizon < 1:
            return None
        return float(max(self.rkhs_norm(t) for t in range(1, self.horizon + 1)))

    def variation_budget_total(self) -> float | None:
        """Exact ``B_T`` over the horizon of the current realisation."""
        return None if self.horizon < 1 else self.variation_budget(self.horizon)


# --------------------------------------------------------------------------------------------------
# wsparq synthetic function
# --------------------------------------------------------------------------------------------------


class WsparqSynthetic(KernelExpansionEnv):
    """``wsparq`` §4.1: ``f(x,t) = Σ_i a_i(t) k(x, c_i)``, ``u_i(t) = sin(0.3 t + i)``, SE(0.5, l=3) on [−50, 50].

    ``variant="exact"`` normalises to ``‖f_t‖_k = B`` exactly; ``variant="paper"`` uses
    ``a = (B/λ_max) u/‖u‖`` as printed, and then :attr:`B` reports the true ``max_t ‖f_t‖_k`` over the
    horizon (computed at :meth:`reset`), as the catalog instructs (§5.0, I1). The drift is deterministic.
    """

    name = "wsparq-synthetic"
    paper = "wsparq"

    def __init__(self, *, n_centres: int = 40, grid_points: int = 1001, B: float = 5.0, variant: str = "exact",
                 noise_var: float = 0.01) -> None:
        self.n_centres = check_int("n_centres", n_centres, 1)
        grid_points = check_int("grid_points", grid_points, 2)
        self.B_target = check_positive("B", B)
        self.variant = check_choice("variant", variant, ("exact", "paper"))
        kernel = SquaredExponential(0.5, 3.0)
        grid = np.linspace(-50.0, 50.0, grid_points)[:, None]
        centres = np.linspace(-50.0, 50.0, self.n_centres)[:, None]
        super().__init__(kernel, grid, centres, noise_var)
        self.lambda_max = float(np.linalg.eigvalsh(self._KZ)[-1])
        self.B = self.B_target

    def _u(self, t: int) -> np.ndarray:
        return np.sin(0.3 * t + np.arange(1, self.n_centres + 1))

    def sup_rkhs_norm(self) -> float:
        """``sup_t ‖f_t‖_k`` over every real ``t`` (variant ``"paper"``; ``B`` for ``"exact"``).

        ``u(t) = sin(0.3t)·cos(i) + cos(0.3t)·sin(i)`` runs through every direction of the plane spanned by
        ``c = (cos i)_i`` and ``s = (sin i)_i``, and the printed normalisation makes ``‖f_t‖²_k`` equal to
        ``(B/λ_max)² uᵀK_C u/uᵀu``, so the supremum is ``(B/λ_max)`` times the square root of the largest
        generalised eigenvalue of ``(VᵀK_C V, VᵀV)`` with ``V = [c, s]``.
        """
        if self.variant == "exact":
            return float(self.B_target)
        i = np.arange(1, self.n_centres + 1)
        V = np.column_stack([np.cos(i), np.sin(i)])
        A, G = V.T @ self._KZ @ V, V.T @ V
        L = np.linalg.cholesky(G)
        Li = np.linalg.inv(L)
        top = float(np.linalg.eigvalsh(Li @ A @ Li.T)[-1])
        return self.B_target / self.lambda_max * float(np.sqrt(max(top, 0.0)))

    def lambda_max_mp(self, dps: int = 50) -> mpmath.mpf:
        """``λ_max(K_C)`` at ``dps`` digits (``nystrom.gram_mp`` and ``mpmath.eigsy``)."""
        from ...nystrom import gram_mp

        with mpmath.workdps(dps):
            K = mpmath.matrix(gram_mp(self.kernel, self.support, dps=dps).tolist())
            return max(mpmath.eigsy(K)[0])

    def _coefficients(self, t: int) -> np.ndarray:
        u = self._u(t)
        if self.variant == "exact":
            return scale_to_norm(u, self._KZ, self.B_target)
        return (self.B_target / self.lambda_max) * u / np.linalg.norm(u)

    def _draw(self, rng: np.random.Generator) -> None:
        if self.variant == "paper":
            self.B = max(self.rkhs_norm(t) for t in range(1, self.horizon + 1))

    def _params(self) -> dict[str, Any]:
        return {"variant": self.variant, "B": float(self.B), "B_target": self.B_target,
                "n_centres": self.n_centres, "lambda_max": self.lambda_max}


class RandomWalkExpansion(KernelExpansionEnv):
    """``wsparq`` §5.0 instance I2: SE(1, l) on [0, 10], random centres, Gaussian random-walk coefficients.

    ``a(t) = B·w(t)/‖w(t)‖_k`` with ``w(t+1) = w(t) + step·N(0, I)``, so every ``‖f_t‖_k = B`` (≤ B in float64).
    """

    name = "rkhs-random-walk"
    paper = "wsparq"

    def __init__(self, *, n_centres: int = 15, grid_points: int = 201, B: float = 1.0, step: float = 0.1,
                 lengthscale: float = 1.0, noise_var: float = 0.01, kernel: str = "se") -> None:
        self.n_centres = check_int("n_centres", n_centres, 1)
        grid_points = check_int("grid_points", grid_points, 2)
        self.B = check_positive("B", B)
        self.step_size = check_positive("step", step)
        self.lengthscale = check_positive("lengthscale", lengthscale)
        grid = np.linspace(0.0, 10.0, grid_points)[:, None]
        # The support is redrawn at reset; start with placeholders of the right shape.
        self.kernel_name = check_choice("kernel", kernel, KERNEL_NAMES)
        super().__init__(kernel_by_name(kernel, lengthscale=lengthscale), grid, np.zeros((self.n_centres, 1)),
                         noise_var)
        self._A = np.zeros((0, self.n_centres))

    def _draw(self, rng: np.random.Generator) -> None:
        self.support = rng.uniform(0.0, 10.0, size=(self.n_centres, 1))
        self._KZ = self.kernel(self.support)
        self._KgZ = self.kernel(self.grid, self.support)
        W = np.cumsum(np.vstack([rng.standard_normal(self.n_centres),
                                 self.step_size * rng.standard_normal((self.horizon, self.n_centres))]), axis=0)
        self._A = np.array([scale_to_norm(w, self._KZ, self.B) for w in W])

    def _coefficients(self, t: int) -> np.ndarray:
        if t > self._A.shape[0]:
            raise ValueError(f"t must be <= {self._A.shape[0]} (horizon + 1), got {t}")
        return self._A[t - 1]

    def _params(self) -> dict[str, Any]:
        return {"B": self.B, "n_centres": self.n_centres, "step": self.step_size, "lengthscale": self.lengthscale,
                "kernel": self.kernel_name}


# --------------------------------------------------------------------------------------------------
# wgpucb environments with a prescribed variation budget
# --------------------------------------------------------------------------------------------------


def _random_expansion(rng: np.random.Generator, grid: np.ndarray, M: int) -> tuple[np.ndarray, np.ndarray]:
    """``wgpucb`` §4: support points drawn from the grid, coefficients ``α_i ~ U[−1, 1]``."""
    idx = rng.choice(grid.shape[0], size=M, replace=M > grid.shape[0])
    return grid[idx], rng.uniform(-1.0, 1.0, size=M)


class _BudgetBase(KernelExpansionEnv):
    paper = "wgpucb"

    def __init__(self, *, grid_points: int, lengthscale: float, noise_var: float, M: int, kernel: str = "se") -> None:
        grid = np.linspace(0.0, 1.0, check_int("grid_points", grid_points, 2))[:, None]
        self.M = check_int("M", M, 1)
        self.lengthscale = check_positive("lengthscale", lengthscale)
        self.kernel_name = check_choice("kernel", kernel, KERNEL_NAMES)
        super().__init__(kernel_by_name(kernel, lengthscale=lengthscale), grid, np.zeros((1, 1)), noise_var)

    def _set_support(self, blocks: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
        """Stack expansions on a common support; return their coefficient rows (one per expansion)."""
        self.support = np.vstack([Z for Z, _ in blocks])
        self._KZ = self.kernel(self.support)
        self._KgZ = self.kernel(self.grid, self.support)
        rows = np.zeros((len(blocks), self.support.shape[0]))
        start = 0
        for j, (Z, a) in enumerate(blocks):
            rows[j, start : start + Z.shape[0]] = a
            start += Z.shape[0]
        return rows


class RotationBudget(_BudgetBase):
    """``wgpucb`` §5.3 rotation: ``f_t = B(cos(ωt) g₁ + sin(ωt) g₂)`` with H-orthonormal ``g₁, g₂``.

    ``‖f_t‖ = B`` and ``‖f_{t+1} − f_t‖ = 2B sin(ω/2)``; ``ω = 2 arcsin(B_T / (2B(T−1)))`` makes the
    variation budget over the horizon exactly ``B_T`` (needs ``B_T ≤ 2B(T−1)``).
    """

    name = "wgpucb-rotation"

    def __init__(self, *, B: float = 1.0, budget: float = 5.0, grid_points: int = 100, lengthscale: float = 0.2,
                 noise_var: float = 0.01, M: int = 20, kernel: str = "se") -> None:
        self.B = check_positive("B", B)
        self.budget = check_positive("budget", budget)
        super().__init__(grid_points=grid_points, lengthscale=lengthscale, noise_var=noise_var, M=M, kernel=kernel)
        self.omega = 0.0
        self._g = np.zeros((2, 1))

    def _draw(self, rng: np.random.Generator) -> None:
        if self.horizon < 2:
            self.omega = 0.0
        else:
            ratio = self.budget / (2.0 * self.B * (self.horizon - 1))
            if ratio > 1.0:
                limit = 2 * self.B * (self.horizon - 1)
                raise ValueError(f"budget must be <= 2 B (T - 1) = {limit:g}, got {self.budget!r}")
            self.omega = 2.0 * np.arcsin(ratio)
        rows = self._set_support([_random_expansion(rng, self.grid, self.M), _random_expansion(rng, self.grid, self.M)])
        # Gram–Schmidt in the RKHS inner product <a, b> = aᵀ K_Z b.
        g1 = scale_to_norm(rows[0], self._KZ, 1.0)
        g2 = rows[1] - (g1 @ self._KZ @ rows[1]) * g1
        self._g = np.vstack([g1, scale_to_norm(g2, self._KZ, 1.0)])

    def _coefficients(self, t: int) -> np.ndarray:
        a = self.B * (np.cos(self.omega * t) * self._g[0] + np.sin(self.omega * t) * self._g[1])
        return cap_norm(a, self._KZ, self.B)

    def exact_variation_budget(self) -> float:
        """``(T−1)·2B sin(ω/2)`` for the current horizon (equals the requested budget)."""
        return float((self.horizon - 1) * 2.0 * self.B * np.sin(self.omega / 2.0))

    def rkhs_bound(self) -> float | None:
        return self.B

    def variation_budget_total(self) -> float | None:
        return self.exact_variation_budget() if self.horizon >= 1 else None

    def _params(self) -> dict[str, Any]:
        return {"B": self.B, "budget": self.budget, "omega": float(self.omega), "M": self.M,
                "lengthscale": self.lengthscale, "kernel": self.kernel_name}


class AbruptBudget(_BudgetBase):
    """``wgpucb`` §5.3 abrupt: alternate between ``f_A`` and ``f_B`` (norms ``B``) with ``switches`` equally
    spaced change points; ``B_T = switches · ‖f_A − f_B‖_k`` exactly. If ``budget`` is given, ``f_B`` is
    replaced by the point on the segment from ``f_A`` that makes the jump norm ``budget/switches``."""

    name = "wgpucb-abrupt"

    def __init__(self, *, B: float = 1.0, switches: int = 2, budget: float | None = None, grid_points: int = 100,
                 lengthscale: float = 0.2, noise_var: float = 0.01, M: int = 20, kernel: str = "se") -> None:
        self.B = check_positive("B", B)
        self.switches = check_int("switches", switches, 0)
        self.budget = None if budget is None else check_positive("budget", budget)
        super().__init__(grid_points=grid_points, lengthscale=lengthscale, noise_var=noise_var, M=M, kernel=kernel)
        self._fa = self._fb = np.zeros(1)
        self.change_points = np.zeros(0, dtype=int)

    def _draw(self, rng: np.random.Generator) -> None:
        rows = self._set_support([_random_expansion(rng, self.grid, self.M), _random_expansion(rng, self.grid, self.M)])
        fa = scale_to_norm(rows[0], self._KZ, self.B)
        fb = scale_to_norm(rows[1], self._KZ, self.B)
        if self.budget is not None and self.switches > 0:
            jump = self.budget / self.switches
            direction = fb - fa
            fb = fa + scale_to_norm(direction, self._KZ, jump)
        self._fa, self._fb = fa, fb
        # change points: rounds where f switches, equally spaced in 2..T
        self.change_points = np.unique(np.linspace(1, self.horizon + 1, self.switches + 2)[1:-1].astype(int))
        self.change_points = self.change_points[self.change_points >= 2]

    def _coefficients(self, t: int) -> np.ndarray:
        return self._fb if int(np.sum(self.change_points <= t)) % 2 else self._fa

    def _params(self) -> dict[str, Any]:
        return {"B": self.B, "switches": self.switches, "budget": self.budget, "M": self.M,
                "lengthscale": self.lengthscale, "kernel": self.kernel_name}


class WgpucbPaper(_BudgetBase):
    """``wgpucb`` §4 and Appendix E synthetic scenarios on 100 points of [0, 1], SE l = 0.2,
    ``f* = Σ_{i≤M} α_i k(·, x_i)`` with support points drawn from the grid and ``α_i ~ U[−1, 1]``.

    * ``scenario="abrupt"`` (Fig. 1(a), App. E Fig. 2): ``f_1*`` for ``t < 100``, ``f_2*`` for ``100 ≤ t < 200``,
      ``f_3*`` afterwards (reading of the overlapping printed boundaries, papers/wgpucb/READING.md §3.9);
    * ``scenario="slow"`` (Fig. 1(b)): ``f_t = f_4* + (f_5* − f_4*) t/T``;
    * ``scenario="slow3"`` (App. E Fig. 3, piecewise linear through three functions):
      ``f_t = f_4* + (f_5* − f_4*) 2t/T`` for ``t ≤ T/2``, ``f_5* + (f_6* − f_5*)(2t − T)/T`` afterwards.

    ``M = 20`` is the main text, ``M = 100`` Appendix E (on a 100-point grid the support is then every
    grid point once: the support points are drawn without replacement while ``M ≤ |D|``).
    :attr:`B` is the exact ``max_t ‖f_t‖_k`` over the horizon and the variation budget is exact.
    """

    name = "wgpucb-paper"
    SCENARIOS = ("abrupt", "slow", "slow3")

    def __init__(self, *, scenario: str = "abrupt", grid_points: int = 100, lengthscale: float = 0.2,
                 noise_var: float = 0.01, M: int = 20, kernel: str = "se") -> None:
        self.scenario = check_choice("scenario", scenario, self.SCENARIOS)
        super().__init__(grid_points=grid_points, lengthscale=lengthscale, noise_var=noise_var, M=M, kernel=kernel)
        self._rows = np.zeros((3, 1))
        self.B = 0.0

    def _draw(self, rng: np.random.Generator) -> None:
        k = 2 if self.scenario == "slow" else 3
        self._rows = self._set_support([_random_expansion(rng, self.grid, self.M) for _ in range(k)])
        self.B = max(self.rkhs_norm(t) for t in range(1, self.horizon + 1))

    def _coefficients(self, t: int) -> np.ndarray:
        r = self._rows
        if self.scenario == "abrupt":
            return r[0] if t < 100 else (r[1] if t < 200 else r[2])
        T = self.horizon
        if self.scenario == "slow":
            return r[0] + (r[1] - r[0]) * t / T
        if 2 * t <= T:
            return r[0] + (r[1] - r[0]) * (2.0 * t / T)
        return r[1] + (r[2] - r[1]) * ((2.0 * t - T) / T)

    def rkhs_bound(self) -> float | None:
        return float(self.B) if self.horizon >= 1 else None

    def default_horizon(self) -> int:
        return 500  # the abrupt scenario's implied T (wgpucb §4)

    def _params(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "M": self.M, "lengthscale": self.lengthscale, "B": float(self.B),
                "kernel": self.kernel_name}


# --------------------------------------------------------------------------------------------------
# sparq Theorem 3.1: an admissible objective with a drift inside the injection model
# --------------------------------------------------------------------------------------------------


class PeakWalk(KernelExpansionEnv):
    """An objective admissible for ``sparq`` Theorem 3.1 (papers/sparq/READING.md §sparq:eq-27) on the SparQ grid
    of ``[−50, 50]`` with SE(``signal_variance``, ``lengthscale``), support the grid ``x_1 < … < x_G``:

    ``a(t) = c (e_1 − 1/G) + W_t u``,  ``u = ν (e_G − 1/G) / ‖e_G − 1/G‖_K``,  ``W_t = Σ_{s<t} ε_s``,

    ``ε_s = ±1`` i.i.d. fair signs drawn at reset, ``ν = drift``, and ``c > 0`` such that
    ``‖c (e_1 − 1/G)‖_k = B (1 − margin) − T ν`` (``T`` the horizon). Then every ``‖f_t‖_k <= B (1 − margin)`` for
    ``t <= T + 1`` (triangle inequality, ``|W_t| <= t − 1``); ``f_1 = c (k(·, x_1) − k̄)`` is the element of the
    RKHS ball of the largest ``f(x_1) − mean_grid f`` (Cauchy–Schwarz), so uniform random play loses the most per
    round; its arg max is ``x_1`` (``k̄`` is smallest at an end of the grid). The drift ``f_{t+1} − f_t = ε_t u`` is
    zero-mean and independent of the learner, with ``sup |u| <= M_k ν``: over ``g`` rounds its variance
    ``g u(x)²`` stays within the ``σ² g²`` the injection model (10) adds to an observation of age ``g`` when
    ``M_k ν <= σ``, and Assumption 2 holds with ``Δ = M_k ν``.
    """

    name = "sparq-peak-walk"
    paper = "sparq"

    def __init__(self, *, grid_points: int = 11, lengthscale: float = 30.0, signal_variance: float = 8.0,
                 noise_var: float = 0.1, B: float = 25.0, drift: float = 0.0, margin: float = 1e-9) -> None:
        grid = np.linspace(-50.0, 50.0, check_int("grid_points", grid_points, 2))[:, None]
        self.B = check_positive("B", B)
        self.drift = float(drift)
        if not self.drift >= 0.0:
            raise ValueError(f"drift must be >= 0, got {drift!r}")
        self.margin = float(margin)
        if not 0.0 <= self.margin < 1.0:
            raise ValueError(f"margin must be in [0, 1), got {margin!r}")
        kernel = SquaredExponential(check_positive("signal_variance", signal_variance),
                                    check_positive("lengthscale", lengthscale))
        super().__init__(kernel, grid, grid.copy(), noise_var)
        G = grid.shape[0]
        self.peak = np.full(G, -1.0 / G)
        self.peak[0] += 1.0
        self.peak /= _norm(self.peak, self._KZ)  # unit RKHS norm
        direction = np.full(G, -1.0 / G)
        direction[-1] += 1.0
        self.step_direction = self.drift * direction / _norm(direction, self._KZ)  # RKHS norm ν
        self.scale = 0.0
        self.walk = np.zeros(1)

    def _draw(self, rng: np.random.Generator) -> None:
        self.scale = self.B * (1.0 - self.margin) - self.horizon * self.drift
        if not self.scale > 0.0:
            raise ValueError(f"drift {self.drift:g} over {self.horizon} rounds leaves no norm for the peak "
                             f"(B (1 - margin) = {self.B * (1.0 - self.margin):g})")
        signs = rng.choice(np.array([-1.0, 1.0]), size=self.horizon)
        self.walk = np.concatenate([[0.0], np.cumsum(signs)])  # W_1 = 0, …, W_{T+1}

    def _coefficients(self, t: int) -> np.ndarray:
        if t > self.walk.size:
            raise ValueError(f"t must be <= {self.walk.size} (horizon + 1), got {t}")
        return self.scale * self.peak + self.walk[t - 1] * self.step_direction

    def _params(self) -> dict[str, Any]:
        return {"B": self.B, "drift": self.drift, "margin": self.margin, "lengthscale": float(self.kernel.lengthscale),
                "signal_variance": float(self.kernel.variance), "scale": float(self.scale)}
