"""Names of algorithms and environments for the command line and the claim checks.

``make_policy(name, params, beta)`` and ``make_env(name, params)`` build objects from plain
``key=value`` parameters; unknown names or parameters raise ``ValueError`` naming the choices.
:func:`rate_shape` gives the order of the regret bound a paper states for an algorithm (constants
unspecified), used to overlay the bound on regret plots.
"""

from __future__ import annotations

import difflib
import inspect
import math
from typing import Any, Callable

import numpy as np

from ..kernels import Kernel, kernel_by_name
from ..registry import Registry
from ..validation import check_choice, check_positive
from .beta import BetaRule
from .environments import (
    AbruptBudget,
    BumpHorizonNoise,
    CommodityReturns,
    HourlyTemperature,
    IndexNoise,
    MarkovGP,
    MonthlyStocks,
    OzoneGrid,
    PeakWalk,
    RandomWalkExpansion,
    RotationBudget,
    SparqSynthetic,
    SpatioTemporalGP,
    StationaryGPSample,
    SwitchingBumps,
    UncertaintyInjectionDrift,
    WgpucbPaper,
    WsparqSynthetic,
)
from .environments.base import Environment
from .etgpucb import ETGPUCB
from .gpucb import GPUCB, RGPUCB, TVGPUCB, GreedyGP
from .hetero import HeteroscedasticGPUCB
from .hyperfit import HyperFit
from .policy import FixedArmPolicy, Policy, RandomPolicy
from .sparq import SparQGPUCB, WSparQGPUCB
from .wdbo import BOLT, FIFOGPUCB, WDBO
from .window import SWGPUCB, WGPUCB

__all__ = [
    "DEFAULT_RESPONSE", "ALGORITHMS", "ENVIRONMENTS", "REAL_DATA_ENVIRONMENTS", "register_algorithm",
    "register_environment", "load_plugin_names", "parse_value", "parse_params", "MODEL_PARAMS", "MODEL_NOISE",
    "model_options", "model_scales", "check_parameters", "check_policy", "check_env", "make_policy",
    "make_env", "environment_info", "rate_shape",
]

#: Default response time of the ``bolt-st`` environment: c = R(0) = 0.5 s plus a cubic inference cost.
DEFAULT_RESPONSE = "0.5 + 2e-4*n**3"

_ALGORITHMS: dict[str, Callable[..., Policy]] = {
    "gp-ucb": GPUCB,
    "hetero-gp-ucb": HeteroscedasticGPUCB,
    "r-gp-ucb": RGPUCB,
    "tv-gp-ucb": TVGPUCB,
    "et-gp-ucb": ETGPUCB,
    "sw-gp-ucb": SWGPUCB,
    "wgp-ucb": WGPUCB,
    "sparq-gp-ucb": SparQGPUCB,
    "w-sparq-gp-ucb": WSparQGPUCB,
    "w-dbo": WDBO,
    "bolt": BOLT,
    "fifo-gp-ucb": FIFOGPUCB,
    "random": RandomPolicy,
    "fixed-arm": FixedArmPolicy,
    "greedy": GreedyGP,
}

_ENVIRONMENTS: dict[str, Callable[..., Environment]] = {
    "wsparq-synthetic": WsparqSynthetic,
    "sparq-synthetic": SparqSynthetic,
    "sparq-two-bumps": SwitchingBumps,
    "sparq-peak-walk": PeakWalk,
    "rkhs-random-walk": RandomWalkExpansion,
    "ui-drift": UncertaintyInjectionDrift,
    "index-noise": IndexNoise,
    "bump-horizon": BumpHorizonNoise,
    "tvgpucb-markov": MarkovGP,
    "gp-sample": StationaryGPSample,
    "wgpucb-rotation": RotationBudget,
    "wgpucb-abrupt": AbruptBudget,
    "wgpucb-paper": WgpucbPaper,
    "bolt-st": lambda response_time=DEFAULT_RESPONSE, **kw: SpatioTemporalGP(
        response_time=response_time, temporal_lengthscale=kw.pop("temporal_lengthscale", 10.0), **kw),
    "seattle-temps": lambda **kw: HourlyTemperature(dataset="seattle-temps", **kw),
    "sf-temps": lambda **kw: HourlyTemperature(dataset="sf-temps", **kw),
    "stocks": MonthlyStocks,
    "ozone-grid": OzoneGrid,
    "commodities": CommodityReturns,
}



def _forwarded(factory: Callable[..., Any], target: type, *, drop: tuple[str, ...] = (),
               **defaults: Any) -> None:
    """Give ``factory`` (a function passing its keyword arguments on to ``target``) the signature it accepts:
    ``target``'s, less the parameters it fixes (``drop``), with its own ``defaults``; checks and the API
    reference read it (:func:`check_parameters`)."""
    sig = inspect.signature(target)
    params = [p.replace(default=defaults[p.name]) if p.name in defaults else p
              for p in sig.parameters.values() if p.name not in drop]
    factory.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]


_forwarded(_ENVIRONMENTS["bolt-st"], SpatioTemporalGP, response_time=DEFAULT_RESPONSE, temporal_lengthscale=10.0)
_forwarded(_ENVIRONMENTS["seattle-temps"], HourlyTemperature, drop=("dataset",))
_forwarded(_ENVIRONMENTS["sf-temps"], HourlyTemperature, drop=("dataset",))

#: Environments built from shipped real data (their tracking statistics are listed by ``run-list``).
REAL_DATA_ENVIRONMENTS: tuple[str, ...] = ("seattle-temps", "sf-temps", "stocks", "ozone-grid", "commodities")


def load_plugin_names(name: str | None = None) -> None:
    """Import the claim modules of the registered paper plugins, which register their policies and
    environments (a process started afresh — spawn, forkserver, a Dask worker — knows them only then)."""
    from ..papers import import_paper_modules, is_builtin, paper_ids

    import_paper_modules("modules", [p for p in paper_ids() if not is_builtin(p)])


#: the policies by name (:func:`register_algorithm` adds one)
ALGORITHMS: Registry = Registry("algorithm", load=load_plugin_names)
ALGORITHMS.update(_ALGORITHMS)
#: the environments by name (:func:`register_environment` adds one)
ENVIRONMENTS: Registry = Registry("environment", load=load_plugin_names)
ENVIRONMENTS.update(_ENVIRONMENTS)


def _register(registry: Registry, name: str, factory: Callable[..., Any]) -> None:
    """Add ``factory`` under ``name``; a name already taken by another factory is refused (a plugin must not
    change what a registered name runs). The same factory again, e.g. from a reloaded module, replaces it."""
    if not isinstance(name, str) or not name or name != name.strip() or any(c.isspace() for c in name):
        raise ValueError(f"{registry.what} name must be a non-empty string without spaces, got {name!r}")
    if not callable(factory):
        raise ValueError(f"{registry.what} {name!r}: factory must be callable, got {type(factory).__name__}")
    registry.register(name, factory)


def register_algorithm(name: str, factory: Callable[..., Policy]) -> None:
    """Add an algorithm family under ``name`` (a paper plugin registers its own policies this way)."""
    _register(ALGORITHMS, name, factory)


def register_environment(name: str, factory: Callable[..., Environment]) -> None:
    """Add an environment under ``name`` (a paper plugin registers its own environments this way)."""
    _register(ENVIRONMENTS, name, factory)


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


def check_parameters(kind: str, factory: Callable[..., Any], params: dict[str, Any],
                     extra: tuple[str, ...] = ()) -> None:
    """Refuse, before anything is built, a parameter ``factory`` does not take (naming it, its value and the
    parameters it takes, and the closest one) or a required parameter that ``params`` lacks. ``extra``: names
    accepted besides the factory's own (the model options of a GP policy). A factory taking ``**kwargs``
    accepts any name; only its required parameters are checked."""
    target = factory.__init__ if inspect.isclass(factory) else factory
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):  # a builtin or C callable: nothing to check
        return
    own = [p for n, p in sig.parameters.items() if n != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    allowed = [p.name for p in own if p.name != "beta"]
    listed = ", ".join([*allowed, *extra]) or "none"
    if not any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        for key, value in params.items():
            if key not in allowed and key not in extra and key not in sig.parameters:
                close = difflib.get_close_matches(str(key), [*allowed, *extra], n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ValueError(f"{kind} has no parameter {key!r} (got {key}={value!r}){hint}; allowed: {listed}")
    for p in own:
        if p.default is p.empty and p.name not in params and p.name != "beta":
            raise ValueError(f"{kind} needs parameter {p.name!r}, which is missing; allowed: {listed}")


def _build(kind: str, factory: Callable[..., Any], params: dict[str, Any], extra: tuple[str, ...] = ()) -> Any:
    check_parameters(kind, factory, params, extra)
    try:
        return factory(**params)
    except TypeError as exc:
        raise ValueError(f"invalid {kind} parameters: {exc}") from None


#: Parameters every GP policy accepts besides its own (see :func:`model_options` and :func:`model_scales`).
MODEL_PARAMS = ("kernel", "lengthscale", "variance", "fit", "fit_on", "refit_every", "fit_params", "fit_points",
                "fit_restarts", "beta_scale", "bound_scale")
#: the noise variance λ of the GP posterior ``K + λI``: a policy's own parameter where it has one (WGP-UCB's λ,
#: ``wgpucb`` eqs. (2)-(3)), a model option replacing the environment's σ² for every other GP policy
MODEL_NOISE = "lam"


def model_options(params: dict[str, Any]) -> tuple[Kernel | None, HyperFit | None]:
    """Kernel override and ML fitting from plain parameters (removed from ``params``).

    ``kernel=se|matern12|matern32|matern52`` with ``lengthscale=`` and ``variance=`` (defaults 1) replaces the
    kernel the environment tells; ``fit=ml`` fits hyperparameters by maximum likelihood, ``fit_on=seen|train``,
    ``refit_every=N`` (rounds), ``fit_params=variance,lengthscale,noise,epsilon`` (a subset),
    ``fit_points=N`` (most recent observations used), ``fit_restarts=N``.
    """
    model = {k: params.pop(k) for k in MODEL_PARAMS if k in params}
    kernel = None
    if any(k in model for k in ("kernel", "lengthscale", "variance")):
        kernel = kernel_by_name(str(model.get("kernel", "se")), variance=float(model.get("variance", 1.0)),
                                lengthscale=float(model.get("lengthscale", 1.0)))
    fit_keys = ("fit_on", "refit_every", "fit_params", "fit_points", "fit_restarts")
    method = model.get("fit")
    if method in (None, False, "none"):
        extra = [k for k in fit_keys if k in model]
        if extra:
            raise ValueError(f"{', '.join(extra)} need fit=ml")
        return kernel, None
    check_choice("fit", method, ("ml", "none"))
    fp = model.get("fit_params")
    if isinstance(fp, str):
        fp = tuple(p.strip() for p in fp.split(",") if p.strip())
    fit = HyperFit(on=str(model.get("fit_on", "seen")), every=int(model.get("refit_every", 25)),
                   params=None if fp is None else tuple(fp), max_points=int(model.get("fit_points", 300)),
                   restarts=int(model.get("fit_restarts", 2)))
    return kernel, fit


def model_scales(params: dict[str, Any]) -> dict[str, float]:
    """``beta_scale`` (factor on the UCB width) and ``bound_scale`` (factor on the environment's RKHS bound)
    from plain parameters (removed from ``params``; default 1)."""
    return {k: float(params.pop(k)) for k in ("beta_scale", "bound_scale") if k in params}


def _own_parameter(factory: Callable[..., Any], key: str) -> bool:
    target = factory.__init__ if inspect.isclass(factory) else factory
    return key in inspect.signature(target).parameters


def make_policy(name: str, params: dict[str, Any] | None = None, beta: BetaRule | None = None) -> Policy:
    """Build an algorithm by its registered name from plain parameters, as a sweep's run does.

    The algorithms, their parameters with defaults and their default β rules are in the table of algorithms of
    the API reference. Every GP policy also takes the model options (``kernel``, ``lengthscale``, ``variance``,
    ``fit``, ..., ``beta_scale``, ``bound_scale``; :func:`model_options`) and ``lam`` (:data:`MODEL_NOISE`)
    where the algorithm has no λ of its own.

    Parameters
    ----------
    name : str
        A registered algorithm (``"gp-ucb"``, ``"random"``, or a plugin's).
    params : dict or None
        Its parameters by name.
    beta : BetaRule or None
        The β rule; None: the algorithm's default.

    Returns
    -------
    Policy
        The policy, ready for a run.

    Raises
    ------
    ValueError
        For an unknown name (with the registered names), a parameter the algorithm does not take (with its value,
        the closest name and the parameters it takes) or a missing required one.

    Examples
    --------
    >>> from tvbo_verify.authoring import make_policy, constant_beta
    >>> make_policy("gp-ucb").beta.to_dict()
    {'kind': 'log', 'convention': 'sqrt', 'c1': 0.8, 'c2': 4.0, 'clip': True}
    >>> make_policy("sw-gp-ucb", {"window": 30}, beta=constant_beta(2.0)).beta.kind
    'constant'
    >>> make_policy("sw-gp-ucb", {"windw": 30})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: algorithm sw-gp-ucb has no parameter 'windw' (got windw=30) (did you mean 'window'?); ...
    """
    ALGORITHMS.lookup(name)
    params = dict(params or {})
    scales = model_scales(params)
    kernel, fit = model_options(params)
    noise = None
    if MODEL_NOISE in params and not _own_parameter(ALGORITHMS[name], MODEL_NOISE):
        noise = float(params.pop(MODEL_NOISE))
    if beta is not None:
        params["beta"] = beta
    policy = _build(f"algorithm {name}", ALGORITHMS[name], params, (*MODEL_PARAMS, MODEL_NOISE))
    if kernel is not None or fit is not None or noise is not None or scales:
        policy.use_model(kernel=kernel, fit=fit, noise_var=noise, **scales)
    return policy


def check_policy(name: str, params: dict[str, Any] | None = None, beta: BetaRule | None = None) -> None:
    """Refuse what :func:`make_policy` would refuse for its names, without building the policy: an unknown
    algorithm, a parameter it does not take (the model options of :data:`MODEL_PARAMS` and ``lam`` count as
    taken), a required parameter that is missing, a ``beta`` that is not a :class:`BetaRule`."""
    factory = ALGORITHMS.lookup(name)
    if beta is not None and not isinstance(beta, BetaRule):
        raise TypeError(f"beta of algorithm {name} must be a BetaRule or None, got {type(beta).__name__}")
    own = {k: v for k, v in (params or {}).items() if k not in MODEL_PARAMS and k != MODEL_NOISE}
    if MODEL_NOISE in (params or {}) and _own_parameter(factory, MODEL_NOISE):
        own[MODEL_NOISE] = (params or {})[MODEL_NOISE]
    check_parameters(f"algorithm {name}", factory, own, (*MODEL_PARAMS, MODEL_NOISE))


def check_env(name: str, params: dict[str, Any] | None = None) -> None:
    """Refuse what :func:`make_env` would refuse for its names, without building the environment: an unknown
    environment, a parameter it does not take, a required parameter that is missing."""
    factory = ENVIRONMENTS.lookup(name)
    params = dict(params or {})
    spec = params.get("kernel")
    if isinstance(spec, str) and ":" in spec:
        params["lengthscale"] = spec.partition(":")[2]
    check_parameters(f"environment {name}", factory, params)


def make_env(name: str, params: dict[str, Any] | None = None) -> Environment:
    """Build an environment by its registered name from plain parameters, as a sweep's run does.

    The environments, their parameters with defaults and their references are in the table of environments of
    the API reference. ``kernel=NAME`` selects the kernel the learner is told (``se``, ``matern12``,
    ``matern32``, ``matern52``) where the environment takes one; ``kernel=NAME:LENGTHSCALE`` also sets its
    ``lengthscale``.

    Parameters
    ----------
    name : str
        A registered environment (``"wgpucb-paper"``, or a plugin's).
    params : dict or None
        Its parameters by name.

    Returns
    -------
    Environment
        The environment; :meth:`Environment.reset` draws a realisation.

    Raises
    ------
    ValueError
        For an unknown name (with the registered names), a parameter the environment does not take (with its
        value, the closest name and the parameters it takes) or a missing required one.

    Examples
    --------
    >>> from tvbo_verify.authoring import make_env
    >>> env = make_env("wgpucb-paper", {"grid_points": 5})
    >>> env.grid.shape, env.noise_var
    ((5, 1), 0.01)
    >>> make_env("wgpucb-paper", {"scenaro": "abrupt"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: environment wgpucb-paper has no parameter 'scenaro' (got scenaro='abrupt') ...
    """
    ENVIRONMENTS.lookup(name)
    params = dict(params or {})
    spec = params.get("kernel")
    if isinstance(spec, str) and ":" in spec:
        kname, _, scale = spec.partition(":")
        try:
            lengthscale = float(scale)
        except ValueError:
            raise ValueError(f"kernel lengthscale must be a number, got {scale!r} in {spec!r}") from None
        params["kernel"] = kname.strip()
        params["lengthscale"] = check_positive("kernel lengthscale", lengthscale)
    return _build(f"environment {name}", ENVIRONMENTS[name], params)


def environment_info(name: str, params: dict[str, Any] | None = None, T: int | None = None,
                     seed: int = 0) -> dict[str, Any]:
    """What ``run-list`` shows for an environment: arms and, over ``T`` rounds of one realisation (default:
    the environment's own horizon, all test rounds for real data), the number of distinct best arms and
    the fraction of rounds whose best arm changes (:meth:`Environment.describe`)."""
    env = make_env(name, params)
    return {**env.describe(T, seed), "name": name}


def rate_shape(algorithm: str, T: np.ndarray, d: int = 1,
               params: dict[str, Any] | None = None) -> tuple[np.ndarray, str] | None:
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
        return (np.sqrt((1 + d * inner ** (d + 3)) * T * d * logT ** (d + 5)),
                "O(sqrt((1 + d log^(d+3)(d log T)) T d log^(d+5) T)) (sparq eq. 19)")
    if algorithm == "w-sparq-gp-ucb":
        at = float((params or {}).get("alpha_tilde", 0.25))
        return (np.sqrt(d * d * T ** (3 * at + 1) * logT ** (2 * (d + 1))),
                "O(sqrt(d^2 T^(3 alpha~ + 1) log^(2(d+1)) T)) (wsparq Table 2)")
    if algorithm == "wgp-ucb":
        return T**0.75, "O(T^(3/4)) (wgpucb Cor. 5)"
    return None
