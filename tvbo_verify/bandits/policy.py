"""The policy protocol shared by every algorithm, and the UCB arg-max on a grid.

A round ``t`` of the runner: ``x_t = select(t, time)``, then the environment answers ``y_t`` and the
runner calls ``observe(t, time, x_t, y_t)``, during which a policy may ask the expert oracle about
``f_t`` (SparQ, W-SparQ). Counters: :attr:`Policy.dataset_size` (observations the posterior uses),
:attr:`Policy.last_beta` (β_t used by the last ``select``) and the oracle's query count.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..kernels import Kernel, SpatioTemporalKernel
from ..validation import check_int, check_positive
from .beta import BetaRule, constant
from .expert import ExpertOracle
from .hyperfit import FitResult, HyperFit, fit_hyperparameters, fit_training

__all__ = [
    "Problem", "ucb_argmax", "Policy", "RandomPolicy", "FixedArmPolicy",
]


@dataclass
class Problem:
    """What a policy is told about the environment at reset: the grid, the kernel, the noise and the horizon.

    Parameters
    ----------
    grid : numpy.ndarray
        The arms, shape ``(G, d)``.
    kernel : Kernel
        The covariance the learner is told to use on the grid.
    noise_var : float
        The observation noise variance σ².
    horizon : int
        The number of rounds T of the run.
    st_kernel : Kernel or None
        A spatio-temporal kernel for time-aware policies (``bolt``).
    extra : dict
        Further facts the environment knows (``rkhs_bound``, ``variation_budget``, ``training_data``).

    Attributes
    ----------
    G : int
        The number of arms.
    d : int
        The input dimension.

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.authoring import GramKernel, Problem
    >>> p = Problem(np.zeros((3, 1)), GramKernel(np.eye(3)), 1.0, horizon=10)
    >>> p.G, p.d
    (3, 1)
    """

    grid: np.ndarray
    kernel: Kernel
    noise_var: float
    horizon: int
    st_kernel: Kernel | None = None  # spatio-temporal kernel for time-aware policies (bolt)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def G(self) -> int:
        return int(self.grid.shape[0])

    @property
    def d(self) -> int:
        return int(self.grid.shape[1])


def ucb_argmax(mean: np.ndarray, var: np.ndarray, multiplier: float) -> int:
    """``argmax_x μ(x) + multiplier·σ(x)`` on the grid; ties go to the lowest index (``wgpucb`` §5.5)."""
    return int(np.argmax(mean + multiplier * np.sqrt(np.maximum(var, 0.0))))


class Policy(ABC):
    """A bandit policy on a finite grid, the base class of every algorithm.

    A subclass sets ``name``, calls ``super().__init__(beta)`` with a :class:`BetaRule` and implements
    :meth:`_reset` (prepare for a run on ``self.problem``), :meth:`select` (the grid index to play at round
    ``step``), :meth:`observe` (receive the observation) and :attr:`dataset_size`. Register it with
    :func:`register_policy` to run it in sweeps.

    Model options shared by every GP policy (:meth:`use_model`): a kernel of its own in place of the one the
    environment tells (``kernel=se|matern12|matern32|matern52``), a noise variance λ of its own for the posterior
    ``K + λI`` in place of the environment's σ² (``lam``), a factor on the UCB width (``beta_scale``), a factor on
    the RKHS bound the environment tells (``bound_scale``), and maximum-likelihood fitting of the kernel
    hyperparameters. Policies that support fitting set ``supports_fit``; fitted values are kept in ``fit_log``
    and recorded in :meth:`config`.

    Parameters
    ----------
    beta : BetaRule
        The width rule; a policy that does not use one passes ``constant_beta(0.0)``.

    Raises
    ------
    ValueError
        When ``beta`` is not a :class:`BetaRule`.

    Examples
    --------
    >>> from tvbo_verify.authoring import Policy, constant_beta
    >>> class FirstArm(Policy):
    ...     name = "doc-first-arm"
    ...     def __init__(self):
    ...         super().__init__(constant_beta(0.0))
    ...     def _reset(self):
    ...         self.seen = 0
    ...     def select(self, step, time):
    ...         return 0
    ...     def observe(self, step, time, index, y):
    ...         self.seen += 1
    ...     @property
    ...     def dataset_size(self):
    ...         return self.seen
    >>> FirstArm().beta.kind
    'constant'
    """

    name: str = "policy"
    paper: str = ""
    supports_fit: bool = False

    def __init__(self, beta: BetaRule) -> None:
        if not isinstance(beta, BetaRule):
            raise ValueError(f"beta must be a BetaRule, got {type(beta).__name__}")
        self.beta = beta
        self._beta_spec = beta
        self.last_beta = float("nan")
        self.problem: Problem | None = None
        self.expert: ExpertOracle | None = None
        self.kernel_override: Kernel | None = None
        self.hyperfit: HyperFit | None = None
        self.fit_log: list[dict[str, Any]] = []
        self.model_noise: float | None = None
        self.beta_scale = 1.0
        self.bound_scale = 1.0

    def use_model(self, *, kernel: Kernel | None = None, fit: HyperFit | None = None, noise_var: float | None = None,
                  beta_scale: float = 1.0, bound_scale: float = 1.0) -> "Policy":
        """Use ``kernel`` instead of the environment's, fit hyperparameters by maximum likelihood, compute the
        posterior with the noise variance ``noise_var`` (λ), multiply the UCB width by ``beta_scale`` and the
        environment's RKHS bound by ``bound_scale``."""
        self.model_noise = None if noise_var is None else check_positive("lam", noise_var)
        self.beta_scale = check_positive("beta_scale", beta_scale)
        self.bound_scale = check_positive("bound_scale", bound_scale)
        if kernel is not None and not isinstance(kernel, Kernel):
            raise ValueError(f"kernel must be a Kernel, got {type(kernel).__name__}")
        if fit is not None:
            if not isinstance(fit, HyperFit):
                raise ValueError(f"fit must be a HyperFit, got {type(fit).__name__}")
            if not self.supports_fit:
                raise ValueError(f"algorithm {self.name} does not support hyperparameter fitting")
        self.kernel_override = kernel
        self.hyperfit = fit
        return self

    def reset(self, problem: Problem, rng: np.random.Generator, expert: ExpertOracle | None = None) -> None:
        """Forget everything and prepare for a new run on ``problem``."""
        if self.kernel_override is not None:
            st = problem.st_kernel
            if isinstance(st, SpatioTemporalKernel):
                st = SpatioTemporalKernel(self.kernel_override, st.temporal, 1.0)
            problem = replace(problem, kernel=self.kernel_override, st_kernel=st)
        if self.model_noise is not None:
            problem = replace(problem, noise_var=self.model_noise)
        if self.bound_scale != 1.0:
            if problem.extra.get("rkhs_bound") is None:
                raise ValueError("bound_scale scales the environment's RKHS bound, which this environment does not "
                                 "know; give B explicitly")
            bound = self.bound_scale * problem.extra["rkhs_bound"]
            problem = replace(problem, extra={**problem.extra, "rkhs_bound": bound})
        self.problem = problem
        self.rng = rng
        self.expert = expert
        self.last_beta = float("nan")
        self.beta = self._beta_spec.resolve(problem.extra)
        self.fit_log = []
        if self.hyperfit is not None and self.hyperfit.on == "train":
            data = problem.extra.get("training_data")
            if data is None:
                raise ValueError("fit_on='train' needs an environment with a training split; use fit_on='seen'")
            res = fit_training(problem.kernel, data, problem.noise_var, epsilon=self._fit_epsilon(),
                               params=self.hyperfit.params, restarts=self.hyperfit.restarts, arms=problem.grid)
            self._apply_fit(res, 0, "train")
        self._reset()

    # -- hyperparameter fitting hooks ---------------------------------------------------------------
    def _fit_epsilon(self) -> float | None:
        """Current forgetting ``ε`` if the policy models time (TV-GP-UCB), else ``None``."""
        return None

    def _set_epsilon(self, epsilon: float) -> None:
        """Adopt a fitted ``ε`` (TV-GP-UCB)."""

    def _fit_data(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(X, y, times)`` of the observations the policy holds, oldest first."""
        raise NotImplementedError

    def _model_changed(self) -> None:
        """Rebuild the posterior after ``self.problem`` received a new kernel / noise (or ε)."""
        raise NotImplementedError

    def _apply_fit(self, res: FitResult, step: int, source: str) -> None:
        assert self.problem is not None
        self.problem = replace(self.problem, kernel=res.kernel, noise_var=res.noise_var)
        if res.epsilon is not None:
            self._set_epsilon(res.epsilon)
        self.fit_log.append(res.record(step, source))

    def _refit_if_due(self, step: int) -> None:
        """Refit on the seen data after rounds ``every, 2·every, …`` (``fit_on="seen"``)."""
        if self.hyperfit is None or not self.hyperfit.due(step):
            return
        X, y, times = self._fit_data()
        m = self.hyperfit.max_points
        if y.size < 2:
            return
        X, y, times = X[-m:], y[-m:], times[-m:]
        res = fit_hyperparameters(self.problem.kernel, X, y, self.problem.noise_var, epsilon=self._fit_epsilon(),
                                  times=times, params=self.hyperfit.params, restarts=self.hyperfit.restarts)
        self._apply_fit(res, step, "seen")
        self._model_changed()

    @abstractmethod
    def _reset(self) -> None: ...

    @abstractmethod
    def select(self, step: int, time: float) -> int:
        """Grid index of ``x_t`` for round ``step`` at clock ``time``."""

    @abstractmethod
    def observe(self, step: int, time: float, index: int, y: float) -> None:
        """Receive ``y_t`` at grid index ``index`` (and, optionally, consult the expert)."""

    @property
    @abstractmethod
    def dataset_size(self) -> int:
        """Number of observations the current posterior is built from."""

    def _ucb(self, step: int, mean: np.ndarray, var: np.ndarray, **context: Any) -> int:
        assert self.problem is not None
        beta, mult = self.beta.multiplier(step, grid_size=self.problem.G, d=self.problem.d, **context)
        self.last_beta = beta
        return ucb_argmax(mean, var, mult * self.beta_scale)

    def params(self) -> dict[str, Any]:
        """Algorithm parameters (JSON-serialisable), recorded in traces."""
        return {}

    def config(self) -> dict[str, Any]:
        out = {"name": self.name, "paper": self.paper, "beta": self.beta.to_dict(), **self.params()}
        if self.kernel_override is not None:
            out["kernel"] = repr(self.kernel_override)
        if self.model_noise is not None:
            out["lam"] = self.model_noise
        out.update({k: v for k, v in (("beta_scale", self.beta_scale), ("bound_scale", self.bound_scale)) if v != 1.0})
        if self.hyperfit is not None:
            out["fit"] = self.hyperfit.to_dict()
            out["fits"] = list(self.fit_log)
        return out


class RandomPolicy(Policy):
    """Uniformly random arm every round: the baseline of ``tvgpucb`` §5.2 (Fig. 3a, "uniform random sensor")."""

    name = "random"
    paper = "tvgpucb"

    def __init__(self, beta: BetaRule | None = None) -> None:
        super().__init__(beta if beta is not None else constant(0.0))

    def _reset(self) -> None:
        """Nothing to forget: the policy keeps no data."""

    def select(self, step: int, time: float) -> int:
        assert self.problem is not None
        return int(self.rng.integers(self.problem.G))

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        """Ignores the observation."""

    @property
    def dataset_size(self) -> int:
        return 0


class FixedArmPolicy(Policy):
    """One arm for the whole run, never learning: a negative control (its regret grows linearly under any
    drift, and on a static function unless the arm happens to be the maximiser).

    ``arm``: a grid index, or ``"random"`` (default) for an arm drawn uniformly at the start of each run.
    """

    name = "fixed-arm"
    paper = ""

    def __init__(self, beta: BetaRule | None = None, *, arm: int | str = "random") -> None:
        super().__init__(beta if beta is not None else constant(0.0))
        self.arm_spec: int | str = arm if arm == "random" else check_int("arm", arm, 0)
        self.arm = 0

    def _reset(self) -> None:
        assert self.problem is not None
        if self.arm_spec == "random":
            self.arm = int(self.rng.integers(self.problem.G))
        elif int(self.arm_spec) >= self.problem.G:
            raise ValueError(f"arm must be in [0, {self.problem.G - 1}] on this grid, got {self.arm_spec}")
        else:
            self.arm = int(self.arm_spec)

    def select(self, step: int, time: float) -> int:
        return self.arm

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        """Ignores the observation."""

    @property
    def dataset_size(self) -> int:
        return 0

    def params(self) -> dict[str, Any]:
        return {"arm": self.arm_spec}
