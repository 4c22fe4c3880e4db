"""Names of algorithms and environments for the command line and the claim checks.

``make_policy(name, params, beta)`` and ``make_env(name, params)`` build objects from plain
``key=value`` parameters; unknown names or parameters raise ``ValueError`` naming the choices.
:func:`rate_shape` gives the order of the regret bound a paper states for an algorithm (constants
unspecified), used to overlay the bound on regret plots.
"""

from __future__ import annotations

import inspect
import math
from typing import Any, Callable

import numpy as np

from ..validation import check_choice
from .beta import BetaRule
from .environments import (AbruptBudget, HourlyTemperature, MarkovGP, MonthlyStocks, RandomWalkExpansion,
                           RotationBudget, SparqSynthetic, SpatioTemporalGP, UncertaintyInjectionDrift, WgpucbPaper,
                           WsparqSynthetic, SwitchingBumps)
from .environments.base import Environment
from .gpucb import GPUCB, RGPUCB, TVGPUCB
from .policy import Policy
from .sparq import SparQGPUCB, WSparQGPUCB
from .wdbo import BOLT, WDBO
from .window import SWGPUCB, WGPUCB

#: Default response time of the ``bolt-st`` environment: c = R(0) = 0.5 s plus a cubic inference cost.
DEFAULT_RESPONSE = "0.5 + 2e-4*n**3"

ALGORITHMS: dict[str, Callable[..., Policy]] = {
    "gp-ucb": GPUCB,
    "r-gp-ucb": RGPUCB,
    "tv-gp-ucb": TVGPUCB,
    "sw-gp-ucb": SWGPUCB,
    "wgp-ucb": WGPUCB,
    "sparq-gp-ucb": SparQGPUCB,
    "w-sparq-gp-ucb": WSparQGPUCB,
    "w-dbo": WDBO,
    "bolt": BOLT,
}

ENVIRONMENTS: dict[str, Callable[..., Environment]] = {
    "wsparq-synthetic": WsparqSynthetic,
    "sparq-synthetic": SparqSynthetic,
    "sparq-two-bumps": SwitchingBumps,
    "rkhs-random-walk": RandomWalkExpansion,
    "ui-drift": UncertaintyInjectionDrift,
    "tvgpucb-markov": MarkovGP,
    "wgpucb-rotation": RotationBudget,
    "wgpucb-abrupt": AbruptBudget,
    "wgpucb-paper": WgpucbPaper,
    "bolt-st": lambda response_time=DEFAULT_RESPONSE, **kw: SpatioTemporalGP(
        response_time=response_time, temporal_lengthscale=kw.pop("temporal_lengthscale", 10.0), **kw),
    "seattle-temps": lambda **kw: HourlyTemperature(dataset="seattle-temps", **kw),
    "sf-temps": lambda **kw: HourlyTemperature(dataset="sf-temps", **kw),
    "stocks": MonthlyStocks,
}


def register_algorithm(name: str, factory: Callable[..., Policy]) -> None:
    """Add an algorithm family (modules with optional dependencies register themselves)."""
    ALGORITHMS[name] = factory


def register_environment(name: str, factory: Callable[..., Environment]) -> None:
    ENVIRONMENTS[name] = factory


def parse_value(text: str) -> Any:
    """``"3" → 3``, ``"0.5" → 0.5``, ``"true" → True``, ``"none" → None``, otherwise the string."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            continue
    return text


def parse_params(items: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """Parse ``key=value`` strings."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"parameters must look like key=value, got {item!r}")
        out[key.strip().replace("-", "_")] = parse_value(value)
    return out


def _build(kind: str, factory: Callable[..., Any], params: dict[str, Any]) -> Any:
    target = factory.__init__ if inspect.isclass(factory) else factory
    sig = inspect.signature(target)
    if not any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        allowed = sorted(n for n in sig.parameters if n not in ("self", "beta"))
        for key in params:
            if key not in allowed and key not in sig.parameters:
                raise ValueError(f"{kind} has no parameter {key!r}; allowed: {', '.join(allowed) or 'none'}")
    try:
        return factory(**params)
    except TypeError as exc:
        raise ValueError(f"invalid {kind} parameters: {exc}") from None


def make_policy(name: str, params: dict[str, Any] | None = None, beta: BetaRule | None = None) -> Policy:
    check_choice("algorithm", name, tuple(ALGORITHMS))
    params = dict(params or {})
    if beta is not None:
        params["beta"] = beta
    return _build(f"algorithm {name}", ALGORITHMS[name], params)


def make_env(name: str, params: dict[str, Any] | None = None) -> Environment:
    check_choice("environment", name, tuple(ENVIRONMENTS))
    return _build(f"environment {name}", ENVIRONMENTS[name], dict(params or {}))


def rate_shape(algorithm: str, T: np.ndarray, d: int = 1, params: dict[str, Any] | None = None) -> tuple[np.ndarray, str] | None:
    """Order ``g(T)`` of the paper's regret bound for ``algorithm`` (constant unspecified), or ``None``.

    * ``sparq-gp-ucb``: ``sparq`` eq. (19)/(32), ``√((1 + d log^{d+3}(d log T)) · T d log^{d+5} T)``;
    * ``w-sparq-gp-ucb``: ``wsparq`` Table 2, ``√(d² T^{3α̃+1} log^{2(d+1)} T)``;
    * ``wgp-ucb``: ``wgpucb`` Corollary 5, ``T^{3/4}`` (known ``B_T``, fixed ``γ̇_T``).
    Algorithms whose bound is linear in ``T`` under drift (GP-UCB, R-/TV-GP-UCB) have no overlay.
    """
    T = np.asarray(T, dtype=float)
    logT = np.log(np.maximum(T, 2.0))
    if algorithm == "sparq-gp-ucb":
        inner = np.log(np.maximum(d * logT, math.e))
        return np.sqrt((1 + d * inner ** (d + 3)) * T * d * logT ** (d + 5)), "O(sqrt((1 + d log^(d+3)(d log T)) T d log^(d+5) T)) (sparq eq. 19)"
    if algorithm == "w-sparq-gp-ucb":
        at = float((params or {}).get("alpha_tilde", 0.25))
        return np.sqrt(d * d * T ** (3 * at + 1) * logT ** (2 * (d + 1))), "O(sqrt(d^2 T^(3 alpha~ + 1) log^(2(d+1)) T)) (wsparq Table 2)"
    if algorithm == "wgp-ucb":
        return T**0.75, "O(T^(3/4)) (wgpucb Cor. 5)"
    return None
