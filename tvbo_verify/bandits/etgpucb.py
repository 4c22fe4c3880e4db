"""ET-GP-UCB: GP-UCB that resets its data set when an event trigger detects a change of the objective.

Brunzema, von Rohr, Solowjow and Trimpe, *Event-Triggered Time-Varying Bayesian Optimization*, TMLR 2025
(compared by ``bolt`` Tables 1 and 3). The algorithm treats the objective as static — a GP-UCB posterior with
the spatial kernel on the observations since its last reset — until an observation contradicts that
posterior beyond a probabilistic uniform error bound; it then discards its data set.

The trigger (round ``t``, before ``y_t`` is added to the data set ``D``)::

    |y_t − μ_D(x_t)| > β_t^{1/2} (σ_D(x_t) + σ_n),     β_t = 2 log(π² t² / (3δ)),

with ``σ_n²`` the noise variance of the model. When it fires, ``D`` is emptied and ``(x_t, y_t)`` becomes its
first element (the new observation belongs to the changed objective). ``t`` is the global round index.

Why this threshold (the reading here of the paper's uniform error bound, its constants chosen so that the
stated probability is exact as an upper bound): if the objective does not change and is a sample of the GP
the policy uses, then, given the history, ``f(x_t) − μ_D(x_t) ~ N(0, σ_D²(x_t))`` (``x_t`` is a function of
the history) and the noise ``ε_t ~ N(0, σ_n²)``. With ``P(|Z| > a) ≤ exp(−a²/2)`` for a standard normal ``Z``,
each of ``|f(x_t) − μ_D(x_t)| > β_t^{1/2} σ_D(x_t)`` and ``|ε_t| > β_t^{1/2} σ_n`` has probability at most
``p_t = 3δ/(π² t²)``, and ``Σ_t 2 p_t = δ``: on a stationary objective the trigger fires at some round of a
run with probability at most ``δ`` (a uniform bound over the whole run, not per round). The policy's own
GP-UCB width is a separate rule (``beta``, as for :class:`~tvbo_verify.bandits.gpucb.GPUCB`); ``δ`` of the
trigger is a constant the paper using ET-GP-UCB (``bolt`` §6.2) does not state.

The posterior is :class:`tvbo_verify.gp.IncrementalPosterior` (``O(t·G)`` per round, as GP-UCB); a reset
starts a new one sized for the remaining rounds. The rounds at which the trigger fired are recorded in the
trace (``meta["policy"]["resets"]``).
"""

from __future__ import annotations

import math
from typing import Any

from ..validation import check_int, check_open_interval
from .beta import BetaRule
from .gpucb import GPUCB

__all__ = [
    "trigger_beta", "trigger_threshold", "ETGPUCB",
]


def trigger_beta(t: int, delta: float) -> float:
    """``β_t = 2 log(π² t² / (3δ))`` of the event trigger (module docstring): the two error events of round ``t``
    have probability at most ``3δ/(π² t²)`` each, and the sum over every round and both events is ``δ``."""
    t = check_int("t", t, 1)
    delta = check_open_interval("delta", delta, 0.0, 1.0)
    return 2.0 * math.log(math.pi**2 * t * t / (3.0 * delta))


def trigger_threshold(t: int, delta: float, sd: float, noise_var: float) -> float:
    """``β_t^{1/2} (σ_D(x_t) + σ_n)``: the largest deviation ``|y_t − μ_D(x_t)|`` the trigger tolerates in round
    ``t``."""
    return math.sqrt(trigger_beta(t, delta)) * (float(sd) + math.sqrt(float(noise_var)))


class ETGPUCB(GPUCB):
    """ET-GP-UCB (Brunzema et al., 2025): static GP-UCB whose data set is reset by the event trigger of the module
    docstring.

    Parameters
    ----------
    beta
        The GP-UCB width rule (default: the practical ``log`` rule of :class:`~tvbo_verify.bandits.gpucb.GPUCB`).
    delta
        Probability, in (0, 1), that the trigger fires at some round of a run on a stationary objective drawn
        from the policy's GP (a uniform bound over the run).
    """

    name = "et-gp-ucb"
    paper = "bolt"

    def __init__(self, beta: BetaRule | None = None, *, delta: float = 0.1) -> None:
        super().__init__(beta)
        self.delta = check_open_interval("delta", delta, 0.0, 1.0)
        self.resets: list[int] = []
        self._first_round = 1

    def _capacity(self) -> int:
        """The rounds left from the one the posterior starts at: a reset never needs more."""
        return self.problem.horizon - self._first_round + 1

    def _reset(self) -> None:
        self._first_round = 1
        self.resets = []
        super()._reset()

    def triggered(self, step: int, index: int, y: float) -> bool:
        """Whether ``y`` observed at grid point ``index`` in round ``step`` exceeds the uniform error bound of the
        current posterior (module docstring). Never on an empty data set (the prior is not tested)."""
        if self.post.n == 0:
            return False
        sd = math.sqrt(max(float(self.post.var[index]), 0.0))
        deviation = abs(float(y) - float(self.post.mean[index]))
        return deviation > trigger_threshold(step, self.delta, sd, self.problem.noise_var)

    def observe(self, step: int, time: float, index: int, y: float) -> None:
        if self.triggered(step, index, y):
            self._first_round = step
            self.post = self._new_posterior()
            self.resets.append(int(step))
        super().observe(step, time, index, y)

    def params(self) -> dict[str, Any]:
        return {"delta": self.delta, "resets": list(self.resets)}

