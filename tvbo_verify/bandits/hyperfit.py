"""Maximum-likelihood fitting of GP hyperparameters, as the papers' experiments do.

* ``sparq`` §4 / ``wsparq`` §4: SE hyperparameters (``M_k²``, ``l``) "fine-tuned by maximizing the log
  marginal likelihood" (of a training set for the real data);
* ``tvgpucb`` App. B: ``ε`` (and possibly ``σ``) by maximum likelihood, eqs. (24)–(25), quasi-Newton; the
  kernel of the real data is the empirical covariance and the days are independent blocks;
* ``bolt`` §6.2: ``λ``, ``l_S`` and ``σ₀²`` refitted at every iteration on the data seen so far.

:func:`fit_hyperparameters` maximises the exact log marginal likelihood
(:func:`tvbo_verify.gp.log_marginal_likelihood`) over log-parameters (logit for ``ε``) with
:func:`scipy.optimize.minimize` (L-BFGS-B, analytic gradient; the lengthscale derivative of the Gram
matrix by a central difference in ``log l``), from the current values and ``restarts`` further
lengthscales. :func:`fit_table` does the same on a full ``rounds × arms`` training table with the
Kronecker form ``D_time ⊗ K_arms + σ²I`` (``tvgpucb`` §6 [derived]), where every evaluation costs two
small eigendecompositions.

A policy takes the option as :class:`HyperFit` (``fit="ml"`` on the command line): ``on="train"`` fits
once before the run on the environment's training split, ``on="seen"`` refits on the most recent
``max_points`` observations after every ``every`` rounds. Each fit is appended to the policy's
``fit_log`` and recorded in the trace metadata (``meta["policy"]["fits"]``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import minimize

from ..blas import single_threaded_blas
from ..gp import log_marginal_likelihood, tv_log_marginal_likelihood_kron
from ..kernels import Kernel, StationaryKernel, kernel_by_name, kernel_name
from ..validation import check_choice, check_int
from .environments.base import GramKernel, ScaledKernel, TrainingData

__all__ = [
    "FIT_SOURCES", "FIT_PARAMETERS", "HyperFit", "FitResult", "fit_hyperparameters", "fit_table", "fit_training",
]

FIT_SOURCES = ("seen", "train")
FIT_PARAMETERS = ("variance", "lengthscale", "noise", "epsilon")
_LOG_STEP = 1e-5  # central-difference step in log-lengthscale for ∂K/∂log l


@dataclass(frozen=True)
class HyperFit:
    """The ML-fitting option of a GP policy.

    ``on``: ``"train"`` (once, before the run, on the environment's training split) or ``"seen"`` (after
    rounds ``every, 2·every, …`` on the ``max_points`` most recent observations the policy holds).
    ``params``: which of ``variance`` (kernel scale), ``lengthscale``, ``noise`` and ``epsilon`` (TV-GP-UCB)
    are fitted; default: all that apply to the kernel and policy.
    """

    on: str = "seen"
    every: int = 25
    params: tuple[str, ...] | None = None
    max_points: int = 300
    restarts: int = 2

    def __post_init__(self) -> None:
        check_choice("fit_on", self.on, FIT_SOURCES)
        check_int("refit_every", self.every, 1)
        check_int("fit_points", self.max_points, 2)
        check_int("fit_restarts", self.restarts, 0)
        if self.params is not None:
            for p in self.params:
                check_choice("fitted parameter", p, FIT_PARAMETERS)

    def due(self, step: int) -> bool:
        """Whether a refit on the seen data happens after round ``step``."""
        return self.on == "seen" and step % self.every == 0

    def to_dict(self) -> dict[str, Any]:
        return {"on": self.on, "every": self.every, "params": None if self.params is None else list(self.params),
                "max_points": self.max_points, "restarts": self.restarts}


@dataclass(frozen=True)
class FitResult:
    """Fitted kernel, noise variance and ``ε`` (``None`` when not temporal), the values and ``log p(y)``."""

    kernel: Kernel
    noise_var: float
    epsilon: float | None
    values: dict[str, float]
    log_likelihood: float
    n: int
    success: bool
    extra: dict[str, Any] = field(default_factory=dict)

    def record(self, step: int, source: str) -> dict[str, Any]:
        return {"step": int(step), "on": source, "n": int(self.n), **{k: float(v) for k, v in self.values.items()},
                "log_likelihood": float(self.log_likelihood), "success": bool(self.success)}


class _Family:
    """Maps a log-parameter vector to (kernel, noise, ε) and back, for one kernel type."""

    def __init__(self, kernel: Kernel, noise_var: float, epsilon: float | None, params: tuple[str, ...] | None) -> None:
        self.name = kernel_name(kernel)
        if isinstance(kernel, ScaledKernel) and isinstance(kernel.base, GramKernel):
            self.gram, self.scale0 = kernel.base, kernel.scale
        elif isinstance(kernel, GramKernel):
            self.gram, self.scale0 = kernel, 1.0
        else:
            self.gram = None
            if self.name is None:
                raise ValueError(f"hyperparameter fitting needs a SE, Matérn or empirical (Gram) kernel, "
                                 f"got {kernel!r}")
        allowed = ["variance", "noise"] + (["lengthscale"] if self.gram is None else []) + (
            ["epsilon"] if epsilon is not None else [])
        chosen = tuple(allowed) if params is None else tuple(p for p in params if p in allowed)
        if not chosen:
            raise ValueError(f"none of the fitted parameters {params} applies; allowed here: {', '.join(allowed)}")
        self.params = chosen
        if self.gram is None:
            assert isinstance(kernel, StationaryKernel)
            self.variance0, self.lengthscale0 = kernel.variance, np.atleast_1d(kernel.lengthscale).astype(float)
            self.ard = np.ndim(kernel.lengthscale) > 0
        self.noise0, self.epsilon0 = float(noise_var), epsilon

    # -- vector <-> values ------------------------------------------------------------------------
    def start(self) -> dict[str, Any]:
        v = {"variance": self.scale0 if self.gram is not None else self.variance0, "noise": self.noise0}
        if self.gram is None:
            v["lengthscale"] = self.lengthscale0.copy()
        if self.epsilon0 is not None:
            v["epsilon"] = self.epsilon0
        return v

    def pack(self, values: dict[str, Any]) -> np.ndarray:
        out: list[float] = []
        for p in self.params:
            if p == "lengthscale":
                out.extend(np.log(np.atleast_1d(values[p])))
            elif p == "epsilon":
                e = min(max(float(values[p]), 1e-9), 1.0 - 1e-9)
                out.append(math.log(e / (1.0 - e)))
            else:
                out.append(math.log(float(values[p])))
        return np.asarray(out)

    def unpack(self, theta: np.ndarray, base: dict[str, Any]) -> dict[str, Any]:
        v = {k: (np.array(x, copy=True) if isinstance(x, np.ndarray) else x) for k, x in base.items()}
        i = 0
        for p in self.params:
            if p == "lengthscale":
                k = len(self.lengthscale0)
                v[p] = np.exp(theta[i : i + k])
                i += k
            elif p == "epsilon":
                v[p] = float(1.0 / (1.0 + math.exp(-theta[i])))
                i += 1
            else:
                v[p] = float(math.exp(theta[i]))
                i += 1
        return v

    def kernel(self, values: dict[str, Any]) -> Kernel:
        if self.gram is not None:
            return ScaledKernel(self.gram, values["variance"])
        ls = values["lengthscale"]
        return kernel_by_name(self.name, variance=values["variance"], lengthscale=ls if self.ard else float(ls[0]))

    def report(self, values: dict[str, Any]) -> dict[str, float]:
        out: dict[str, float] = {("scale" if self.gram is not None else "variance"): float(values["variance"]),
                                 "noise_var": float(values["noise"])}
        if self.gram is None:
            ls = values["lengthscale"]
            if self.ard:
                out.update({f"lengthscale_{j}": float(x) for j, x in enumerate(ls)})
            else:
                out["lengthscale"] = float(ls[0])
        if "epsilon" in values:
            out["epsilon"] = float(values["epsilon"])
        return out

    def bounds(self, X: np.ndarray, y: np.ndarray) -> list[tuple[float, float]]:
        scale = float(np.mean(np.square(y))) if y.size else 1.0
        scale = scale if scale > 0 else 1.0
        span = float(np.max(np.ptp(X, axis=0))) if X.shape[0] > 1 and self.gram is None else 1.0
        span = span if span > 0 else 1.0
        out: list[tuple[float, float]] = []
        for p in self.params:
            if p == "lengthscale":
                out.extend([(math.log(1e-3 * span), math.log(1e3 * span))] * len(self.lengthscale0))
            elif p == "epsilon":
                out.append((math.log(1e-9), math.log(1e9)))  # logit of [~1e-9, 1 - 1e-9]
            elif p == "noise":
                out.append((math.log(1e-8 * scale), math.log(1e2 * scale)))
            else:
                out.append((math.log(1e-6 * scale), math.log(1e6 * scale)))
        return out

    def restart_values(self, base: dict[str, Any], restarts: int) -> list[dict[str, Any]]:
        starts = [base]
        if "lengthscale" in self.params:
            for factor in (0.3, 3.0, 0.1, 10.0)[:restarts]:
                v = dict(base)
                v["lengthscale"] = base["lengthscale"] * factor
                starts.append(v)
        elif "epsilon" in self.params:
            for eps in (0.01, 0.1, 0.001, 0.3)[:restarts]:
                v = dict(base)
                v["epsilon"] = eps
                starts.append(v)
        return starts


def _temporal_factor(times: np.ndarray, groups: np.ndarray, epsilon: float | None) -> tuple[np.ndarray, np.ndarray]:
    """``D ∘ S`` and ``∂(D ∘ S)/∂logit ε``: ``D_ij = (1−ε)^{|t_i−t_j|/2}``, ``S_ij = 1[same group]``."""
    same = (groups[:, None] == groups[None, :]).astype(float)
    if epsilon is None:
        return same, np.zeros_like(same)
    v = 0.5 * np.abs(times[:, None] - times[None, :])
    D = np.power(1.0 - epsilon, v) * same
    return D, -v * epsilon * D  # dD/dε · dε/dlogit = −v(1−ε)^{v−1} · ε(1−ε)


def fit_hyperparameters(kernel: Kernel, X: np.ndarray, y: np.ndarray, noise_var: float, *,
                        epsilon: float | None = None, times: np.ndarray | None = None, groups: np.ndarray | None = None,
                        params: tuple[str, ...] | None = None, restarts: int = 2) -> FitResult:
    """Maximise ``log p(y | θ)`` for ``C = (K_θ ∘ D_ε ∘ S) + σ² I`` (``tvgpucb`` eqs. (24)–(25)).

    ``epsilon`` (not ``None``) switches on the TV-GP-UCB temporal factor on ``times``; ``groups`` marks
    independent blocks (default: one block). Returns the best of ``1 + restarts`` L-BFGS-B runs.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    n = y.shape[0]
    if n < 2:
        raise ValueError(f"hyperparameter fitting needs at least 2 observations, got {n}")
    fam = _Family(kernel, noise_var, epsilon, params)
    times = np.zeros(n) if times is None else np.asarray(times, dtype=float)
    groups = np.zeros(n, dtype=np.int64) if groups is None else np.asarray(groups)
    base = fam.start()
    gram = fam.gram(X) if fam.gram is not None else None

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        v = fam.unpack(theta, base)
        D, dD = _temporal_factor(times, groups, v.get("epsilon") if epsilon is not None else None)
        if gram is not None:
            Kx = v["variance"] * gram
        else:
            Kx = fam.kernel(v)(X)
        C_parts: list[np.ndarray] = []
        for p in fam.params:
            if p == "variance":
                C_parts.append(Kx * D)
            elif p == "noise":
                C_parts.append(v["noise"] * np.eye(n))
            elif p == "epsilon":
                C_parts.append(Kx * dD)
            else:
                for j in range(len(fam.lengthscale0)):
                    up, down = dict(v), dict(v)
                    up["lengthscale"] = v["lengthscale"].copy()
                    down["lengthscale"] = v["lengthscale"].copy()
                    up["lengthscale"][j] *= math.exp(_LOG_STEP)
                    down["lengthscale"][j] *= math.exp(-_LOG_STEP)
                    C_parts.append((fam.kernel(up)(X) - fam.kernel(down)(X)) * D / (2 * _LOG_STEP))
        try:
            ml = log_marginal_likelihood(Kx * D, y, v["noise"], C_parts)
        except Exception:  # numerically singular at an extreme of the box: reject the point
            return 1e300, np.zeros_like(theta)
        return -ml.value, -ml.gradient

    best_theta, best_val, success = fam.pack(base), math.inf, False
    bounds = fam.bounds(X, y)
    with single_threaded_blas():  # small dense problems: threads only contend
        for start in fam.restart_values(base, restarts):
            theta0 = np.clip(fam.pack(start), [b[0] for b in bounds], [b[1] for b in bounds])
            res = minimize(objective, theta0, jac=True, method="L-BFGS-B", bounds=bounds)
            if np.isfinite(res.fun) and res.fun < best_val:
                best_theta, best_val, success = res.x, float(res.fun), bool(res.success)
    values = fam.unpack(best_theta, base)
    return FitResult(fam.kernel(values), float(values["noise"]), values.get("epsilon") if epsilon is not None else None,
                     fam.report(values), -best_val, n, success)


def fit_table(kernel: Kernel, table: np.ndarray, noise_var: float, *, epsilon: float | None = None,
              params: tuple[str, ...] | None = None, restarts: int = 2, arms: np.ndarray | None = None) -> FitResult:
    """ML fit on a full ``rounds × arms`` table (every arm observed every round, rows in time order).

    Covariance ``D_ε ⊗ K_arms + σ² I`` with ``D_ε = [(1−ε)^{|i−j|/2}]`` when ``epsilon`` is given (TV-GP-UCB),
    otherwise rows are independent draws (``D = I``). ``arms`` are the arm inputs (the grid) for a
    stationary kernel; a Gram kernel indexes arms by position. ``log p`` is
    :func:`tvbo_verify.gp.tv_log_marginal_likelihood_kron` (eigendecompositions of ``D`` and ``K``,
    ``tvgpucb`` §6 [derived]).
    """
    Y = np.asarray(table, dtype=float)
    R, A = Y.shape
    fam = _Family(kernel, noise_var, epsilon, params)
    X = np.arange(A, dtype=float)[:, None] if arms is None else np.asarray(arms, dtype=float)
    base = fam.start()

    def objective(theta: np.ndarray) -> float:
        v = fam.unpack(theta, base)
        # ε = 1 makes D the identity: rows are independent draws.
        return -tv_log_marginal_likelihood_kron(fam.kernel(v), X, Y, v["noise"], v.get("epsilon", 1.0))

    best_theta, best_val, success = fam.pack(base), math.inf, False
    bounds = fam.bounds(X, Y.reshape(-1))
    with single_threaded_blas():
        for start in fam.restart_values(base, restarts):
            theta0 = np.clip(fam.pack(start), [b[0] for b in bounds], [b[1] for b in bounds])
            res = minimize(objective, theta0, method="L-BFGS-B", bounds=bounds)
            if np.isfinite(res.fun) and res.fun < best_val:
                best_theta, best_val, success = res.x, float(res.fun), bool(res.success)
    values = fam.unpack(best_theta, base)
    return FitResult(fam.kernel(values), float(values["noise"]), values.get("epsilon") if epsilon is not None else None,
                     fam.report(values), -best_val, R * A, success)


def fit_training(kernel: Kernel, data: TrainingData, noise_var: float, *, epsilon: float | None = None,
                 params: tuple[str, ...] | None = None, restarts: int = 2, arms: np.ndarray | None = None) -> FitResult:
    """Fit on an environment's training split: the Kronecker form when it is a full table, else dense."""
    if data.full is not None:
        return fit_table(kernel, data.full, noise_var, epsilon=epsilon, params=params, restarts=restarts, arms=arms)
    return fit_hyperparameters(kernel, data.X, data.y, noise_var, epsilon=epsilon, times=data.times,
                               groups=data.groups, params=params, restarts=restarts)
