"""Constants a paper leaves open, as data, and how a reproduction's finding depends on them.

A paper's experiment fixes some constants and leaves others open: "set order-wise by theory" fixes a
discount, a window or a restart period only up to a constant factor; the noise variance λ of the GP model,
the RKHS bound B in a confidence width, a scaling of that width, the data the hyperparameters are fitted
on are often not stated at all. A :class:`FreeConstant` declares one of them: the range the paper's
words admit (its values at each fidelity), the paper's setting (the reading used when the paper is
followed as closely as it can be), where the range comes from, and which arms of the figure it applies to
— every GP arm alike when it is shared (λ, β scaling, B, the fitting data), one method's arms when it
is that method's own (its discount, window or restart period). Every method's own constants get the same
grid, so the tuning budget is the same for every compared method.

The sweep is one-at-a-time around the paper's setting: each constant takes each of its values while
the others stay at the paper's setting (the run cache shares every run that does not change).

A finding is measured at each setting as :class:`Part` items, each with a *margin* (> 0: the part
holds) and its 95% interval; a part holds when the interval lies above 0, fails when it lies below and
is undecided otherwise. A part that compares methods may carry its negative control (``control``: whether the
same comparison with a control policy in place of the method came out violated at that setting); such a part
holds only when its control failed, as every run-based comparison (docs/ARCHITECTURE.md §6), and otherwise is
undecided. The finding's margin is that of :func:`all_of` its parts: the minimum margin,
with the interval ``[min of lower ends, min of upper ends]``, which lies above 0 exactly when every part
holds and below 0 exactly when some part fails (not a bootstrap interval of the minimum). The finding is
*confirmed* at a setting when it holds, *violated* when it fails, *inconclusive* otherwise; over the
admissible range it is confirmed when confirmed at every setting, violated when violated at every
setting, and otherwise inconclusive with a statement of where it holds and where it fails
(:func:`sensitivity_record`).
"""

from __future__ import annotations

import inspect
import math
import textwrap
import warnings
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from ...fidelity import check_fidelity
from ..results import SweepResult
from ..spec import Arm, Sweep

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SCALES = ("log", "linear", "categorical")
#: the verdict of a finding at one setting, from its margin's interval
CONFIRMED, VIOLATED, INCONCLUSIVE = "confirmed", "violated", "inconclusive"


# ---------------------------------------------------------------------------------------- constants
@dataclass(frozen=True)
class FreeConstant:
    """One constant the paper leaves open.

    Parameters
    ----------
    name
        What it is, e.g. ``"memory scale of WGP-UCB"`` (unique within a reproduction).
    symbol
        Its symbol in statements, e.g. ``"s"`` or ``"λ"``.
    paper
        The paper's setting: the value used when the paper is followed (a reading where it says nothing).
    values, quick
        The grid at full and at quick fidelity, each spanning the admissible range and holding ``paper``.
    source
        Where the range comes from: a section of the paper or of its catalog, or a sentence of the paper.
    arms
        Labels of the arms it applies to; empty: every GP arm.
    own
        Whether it is a method's own constant (its discount, window, restart period) rather than one shared
        by the arms it applies to (λ, β scaling, B, the fitting data).
    set_arm
        ``(arm, value) -> arm`` with the constant set (None: the constant lives in the environment).
    set_env
        ``(env_params, value, sweep) -> env_params`` where the constant changes the environment (e.g. the
        training split hyperparameters are fitted on).
    set_sweep
        ``(sweep, value) -> sweep`` where the constant changes more than an arm's parameters or the environment
        (the horizon, which values of a varied parameter a figure shows, a rule that depends on the horizon);
        applied after ``set_arm`` and ``set_env``, and it must keep the sweep's control arms.
    scale
        ``"log"``, ``"linear"`` or ``"categorical"``: how the values are ordered and drawn.
    describe
        Optional ``results -> text`` saying what a value resolved to in the runs (e.g. the discount γ).

    Raises
    ------
    ValueError
        If ``scale`` is unknown; a grid holds fewer than two distinct values, lacks ``paper`` or (log scale)
        holds a value that is not a positive number; no setter is given; or an ``own`` constant names no arms.

    Examples
    --------
    >>> from tvbo_verify.authoring import Arm, FreeConstant, Sweep, set_noise_variance
    >>> lam = FreeConstant("noise variance λ of the GP model", "λ", 0.01, (0.001, 0.01, 0.1), (0.001, 0.01),
    ...                    "not stated in the paper", set_arm=set_noise_variance)
    >>> lam.grid("quick"), lam.text(0.1)
    ((0.001, 0.01), 'λ = 0.1')
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample", horizons=(4, 8),
    ...               reps=2, env_params={"points_per_dim": 5})
    >>> [a.params for a in lam.apply(sweep, 0.1).arms]  # every GP arm; the random control keeps no model
    [{'lam': 0.1}, {}]
    """

    name: str
    symbol: str
    paper: Any
    values: tuple[Any, ...]
    quick: tuple[Any, ...]
    source: str
    arms: tuple[str, ...] = ()
    own: bool = False
    set_arm: Callable[[Arm, Any], Arm] | None = None
    set_env: Callable[[dict[str, Any], Any, Sweep], dict[str, Any]] | None = None
    set_sweep: Callable[[Sweep, Any], Sweep] | None = None
    scale: str = "log"
    describe: Callable[[dict[str, SweepResult]], str] | None = None

    def __post_init__(self) -> None:
        if self.scale not in SCALES:
            raise ValueError(f"scale of constant {self.name!r} must be one of {', '.join(SCALES)}, got {self.scale!r}")
        for which, grid in (("values", self.values), ("quick", self.quick)):
            if len(grid) < 2 or len(set(map(repr, grid))) != len(grid):
                raise ValueError(f"{which} of constant {self.name!r} must hold at least 2 distinct values, got {grid}")
            if self.paper not in grid:
                raise ValueError(f"{which} of constant {self.name!r} must hold the paper's setting {self.paper!r}, "
                                 f"got {grid}")
            if self.scale == "log" and any(not isinstance(v, (int, float)) or v <= 0 for v in grid):
                raise ValueError(f"{which} of the log-scaled constant {self.name!r} must be positive numbers, "
                                 f"got {grid}")
        if self.set_arm is None and self.set_env is None and self.set_sweep is None:
            raise ValueError(f"constant {self.name!r} needs set_arm, set_env or set_sweep")
        if self.own and not self.arms:
            raise ValueError(f"the own constant {self.name!r} must name the arms of its method")

    def grid(self, fidelity: str) -> tuple[Any, ...]:
        """The values at ``fidelity`` in their order (numbers ascending)."""
        check_fidelity(fidelity)
        grid = self.quick if fidelity == "quick" else self.values
        return tuple(grid) if self.scale == "categorical" else tuple(sorted(grid))

    def applies_to(self, arm: Arm) -> bool:
        return arm.algorithm != "random" and (not self.arms or arm.label in self.arms)

    def apply(self, sweep: Sweep, value: Any) -> Sweep:
        """``sweep`` with this constant set to ``value`` on the arms it applies to (and the environment)."""
        arms = sweep.arms
        if self.set_arm is not None:
            arms = tuple(self.set_arm(a, value) if self.applies_to(a) else a for a in arms)
        env = dict(sweep.env_params)
        if self.set_env is not None:
            env = self.set_env(env, value, sweep)
        out = replace(sweep, arms=arms, env_params=env)
        return out if self.set_sweep is None else self.set_sweep(out, value)

    def text(self, value: Any) -> str:
        return f"{self.symbol} = {format_value(value)}"

    def to_dict(self, fidelity: str) -> dict[str, Any]:
        return {"constant": self.name, "symbol": self.symbol, "paper": self.paper, "values": list(self.grid(fidelity)),
                "source": self.source, "shared": not self.own, "arms": list(self.arms) or "every GP arm",
                "scale": self.scale}


#: the memory scales of order-wise rules (the same grid for every method)
MEMORY_SCALES = {"full": (0.25, 0.5, 1.0, 2.0, 4.0), "quick": (0.25, 1.0, 4.0)}


def _memory_constant(rules: dict[str, tuple[str, str, str]], source: str) -> FreeConstant:
    if not isinstance(rules, dict) or not rules:
        raise ValueError("memory_constant needs the order-wise rules of at least one arm: {label: (rule, key, "
                         f"symbol)}}, got {rules!r}")
    names = ", ".join(f"{label}'s {rule}" for label, (rule, _, _) in rules.items())
    describers = [tuning_describer(label, key, f"{symbol}[{label}]") for label, (_, key, symbol) in rules.items()]

    def describe(results: dict[str, SweepResult]) -> str:
        return "; ".join(t for t in (d(results) for d in describers) if t)

    return FreeConstant(f"memory scale of every order-wise rule ({names})", "s", 1.0, MEMORY_SCALES["full"],
                        MEMORY_SCALES["quick"], source, arms=tuple(rules), set_arm=set_param("memory_scale"),
                        describe=describe)


def _old_memory_constant(label: str, rule: str, key: str, symbol: str, source: str) -> None:
    """The spelling of :func:`memory_constant` before the memory scale became one convention of every method (only
    its signature is used: to recognise a call in that spelling)."""


def memory_constant(*args: Any, **kwargs: Any) -> FreeConstant:
    """The memory scale ``s`` of every order-wise rule (:func:`tvbo_verify.bandits.tuning.order_wise`), one
    convention varied jointly for every method that sets its memory order-wise, over the grids of
    :data:`MEMORY_SCALES`.

    Swept for one method alone, the memory scale would compare a method with more memory against rivals at the
    order-wise constant (:func:`setting_problems` refuses it); the paper's setting is ``s = 1``, the order-wise
    value itself, set through each arm's ``memory_scale`` parameter.

    Parameters
    ----------
    rules : dict of str to (str, str, str)
        Each order-wise arm's label mapped to ``(rule, key, symbol)``: its rule in words (discount, window or
        restart period) and the key and symbol of the tuned value its runs record (``discount`` γ, ``window`` W
        or H).
    source : str
        Where the order-wise rules come from (a section of the paper).

    Returns
    -------
    FreeConstant
        The joint memory scale of the listed arms.

    Raises
    ------
    ValueError
        When ``rules`` is empty or not a mapping.
    TypeError
        When the arguments fit neither spelling.

    Warns
    -----
    DeprecationWarning
        For the former spelling ``memory_constant(label, rule, key, symbol, source)`` (positional or by keyword),
        read as ``memory_constant({label: (rule, key, symbol)}, source)``; a reproduction with other order-wise
        arms lists them all, or its plans are refused as unfair.

    Examples
    --------
    >>> from tvbo_verify.authoring import MEMORY_SCALES, memory_constant
    >>> s = memory_constant({"SW": ("window", "window", "W"), "R": ("restart period", "window", "H")},
    ...                     "Section 3, memories of order T^(1/2)")
    >>> s.arms, s.grid("quick") == MEMORY_SCALES["quick"]
    (('SW', 'R'), True)
    """
    try:
        bound = _NEW_SPELLING.bind(*args, **kwargs)
    except TypeError:
        bound = None
    if bound is not None and not isinstance(bound.arguments["rules"], str):
        return _memory_constant(**bound.arguments)
    try:
        old = _OLD_SPELLING.bind(*args, **kwargs).arguments
    except TypeError:
        if bound is None:
            raise TypeError(f"memory_constant takes (rules, source), got {len(args)} positional argument(s) and "
                            f"the keyword(s) {sorted(kwargs)}") from None
        raise TypeError("memory_constant's rules maps each arm's label to (rule, key, symbol), got the label "
                        f"{bound.arguments['rules']!r}") from None
    label, rule, key, symbol, source = (old[name] for name in ("label", "rule", "key", "symbol", "source"))
    warnings.warn(f"memory_constant(label, rule, key, symbol, source) is deprecated: use memory_constant("
                  f"{{{label!r}: ({rule!r}, {key!r}, {symbol!r})}}, source), listing every arm whose memory is set "
                  "order-wise (the memory scale is one convention varied jointly for all of them)",
                  DeprecationWarning, stacklevel=2)
    return _memory_constant({label: (rule, key, symbol)}, source)


_NEW_SPELLING = inspect.signature(_memory_constant)
_OLD_SPELLING = inspect.signature(_old_memory_constant)
memory_constant.__signature__ = _NEW_SPELLING  # type: ignore[attr-defined]  # the documented spelling


def format_value(value: Any) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


def settings(constants: Sequence[FreeConstant], fidelity: str) -> list[tuple[FreeConstant, Any]]:
    """The one-at-a-time settings besides the paper's: each constant at each of its other values."""
    names = [c.name for c in constants]
    if len(set(names)) != len(names):
        raise ValueError(f"free constants must have distinct names, got {names}")
    return [(c, v) for c in constants for v in c.grid(fidelity) if v != c.paper]


def apply_setting(plan: dict[str, Sweep], constant: FreeConstant | None, value: Any) -> dict[str, Sweep]:
    """Every sweep of ``plan`` with ``constant`` set to ``value`` (``None``: the paper's setting)."""
    if constant is None:
        return dict(plan)
    return {name: constant.apply(sw, value) for name, sw in plan.items()}


# ------------------------------------------------------------------------------------- arm setters
def set_param(key: str) -> Callable[[Arm, Any], Arm]:
    """A setter of the plain parameter ``key`` of an arm (a :class:`FreeConstant`'s ``set_arm``).

    Parameters
    ----------
    key : str
        The parameter's name, as the policy's constructor takes it.

    Returns
    -------
    callable
        ``(arm, value) -> arm``: a copy of the arm with ``params[key] = value``.

    Examples
    --------
    >>> from tvbo_verify.authoring import Arm, set_param
    >>> set_param("window")(Arm("SW", "sw-gp-ucb", {"window": 10}), 20).params
    {'window': 20}
    """
    def setter(arm: Arm, value: Any) -> Arm:
        return replace(arm, params={**arm.params, key: value})
    return setter


def set_noise_variance(arm: Arm, value: float) -> Arm:
    """λ of an arm: its ``lam`` (the posterior's noise variance, :data:`~tvbo_verify.bandits.registry.MODEL_NOISE`)
    and the λ of its confidence width where the width takes one (the ``kk`` rule with ``R``).

    Parameters
    ----------
    arm : Arm
        The arm.
    value : float
        λ.

    Returns
    -------
    Arm
        A copy of the arm with ``lam`` set in its parameters and, where its β rule has a ``lam``, there too.

    Examples
    --------
    >>> from tvbo_verify.authoring import Arm, set_noise_variance
    >>> from tvbo_verify.bandits.beta import kirschner_krause
    >>> arm = set_noise_variance(Arm("GP-UCB", "gp-ucb", beta=kirschner_krause(B=1.0, R=0.1, lam=0.5)), 0.01)
    >>> arm.params, arm.beta.params["lam"]
    ({'lam': 0.01}, 0.01)
    """
    arm = set_param("lam")(arm, float(value))
    if arm.beta is not None and "lam" in arm.beta.params:
        arm = replace(arm, beta=type(arm.beta)(arm.beta.kind, {**arm.beta.params, "lam": float(value)}))
    return arm


def set_width_constant(key: str) -> Callable[[Arm, Any], Arm]:
    """A setter of the constant ``key`` of an arm's confidence width (``"B"``, ``"delta"``) wherever the arm keeps
    it: in its β rule (``kk``) or as its own parameter (WGP-UCB builds its width from its ``B`` and ``delta``).
    An arm that keeps it in neither place is left unchanged.

    Parameters
    ----------
    key : str
        The constant's name in the β rule's parameters or the arm's parameters.

    Returns
    -------
    callable
        ``(arm, value) -> arm`` with the constant set (as a float) wherever the arm keeps it.

    Examples
    --------
    >>> from tvbo_verify.authoring import Arm, set_width_constant
    >>> from tvbo_verify.bandits.beta import kirschner_krause
    >>> arm = Arm("GP-UCB", "gp-ucb", beta=kirschner_krause(B=1.0))
    >>> set_width_constant("delta")(arm, 0.05).beta.params["delta"]
    0.05
    >>> set_width_constant("delta")(Arm("random", "random"), 0.05).params
    {}
    """
    def setter(arm: Arm, value: Any) -> Arm:
        if arm.beta is not None and key in arm.beta.params:
            arm = replace(arm, beta=type(arm.beta)(arm.beta.kind, {**arm.beta.params, key: float(value)}))
        if key in arm.params:
            arm = set_param(key)(arm, float(value))
        return arm
    return setter


def set_bound(arm: Arm, value: float) -> Arm:
    """The RKHS bound B an arm's width takes: in its β rule (``kk``) or as its own parameter (WGP-UCB).

    Parameters
    ----------
    arm : Arm
        The arm.
    value : float
        B.

    Returns
    -------
    Arm
        A copy with B set wherever the arm keeps it (:func:`set_width_constant` with ``"B"``).

    Examples
    --------
    >>> from tvbo_verify.authoring import Arm, set_bound
    >>> from tvbo_verify.bandits.beta import kirschner_krause
    >>> set_bound(Arm("GP-UCB", "gp-ucb", beta=kirschner_krause(B=1.0)), 2.0).beta.params["B"]
    2.0
    """
    return set_width_constant("B")(arm, value)


def set_env_param(key: str) -> Callable[[dict[str, Any], Any, Sweep], dict[str, Any]]:
    """A setter of the environment parameter ``key`` (e.g. the noise variance ``noise_var`` or the number of
    centres of a kernel expansion): a :class:`FreeConstant`'s ``set_env``.

    Parameters
    ----------
    key : str
        The environment parameter's name.

    Returns
    -------
    callable
        ``(env_params, value, sweep) -> env_params``: a copy with ``key`` set to ``value``.

    Examples
    --------
    >>> from tvbo_verify.authoring import set_env_param
    >>> set_env_param("noise_var")({"points_per_dim": 5}, 0.1, None)
    {'points_per_dim': 5, 'noise_var': 0.1}
    """
    def setter(env: dict[str, Any], value: Any, sweep: Sweep) -> dict[str, Any]:
        return {**env, key: value}
    return setter


#: the keys of an arm that hold a constant every method of a figure shares (:func:`shared_values`)
SHARED_KEYS = ("lam", "B", "delta", "beta_scale", "bound_scale", "fit", "fit_on", "refit_every", "kernel fit")


#: the λ of an arm that sets none: its posterior uses the noise variance the environment tells
ENVIRONMENT_NOISE = "the environment's noise variance"


def shared_values(arm: Arm) -> dict[str, Any]:
    """The shared constants an arm uses, wherever it keeps them (its parameters or its β rule): the λ of its
    posterior (:data:`ENVIRONMENT_NOISE` when the arm sets none), B, δ, the width and bound scales, the fitting method,
    data and schedule and the fitted kernel parameters (``fit_params`` without a method's own ``epsilon``).
    ``None`` where the arm has no such constant."""
    p, b = arm.params, (arm.beta.params if arm.beta is not None else {})
    fitted = p.get("fit_params")
    kernel_fit = None if fitted is None else ",".join(k for k in str(fitted).split(",") if k.strip() != "epsilon")
    return {"lam": p.get("lam", ENVIRONMENT_NOISE), "B": p.get("B", b.get("B")),
            "delta": held(arm, "delta"), "beta_scale": p.get("beta_scale", 1.0),
            "bound_scale": p.get("bound_scale", 1.0), "fit": p.get("fit"),
            "fit_on": p.get("fit_on"), "refit_every": p.get("refit_every"), "kernel fit": kernel_fit}


def undeclared_differences(sweep: Sweep, own: dict[str, tuple[str, ...]]) -> list[str]:
    """Where the GP arms of ``sweep`` differ in something the paper does not say differs.

    A shared constant (:func:`shared_values`) must take one value over the arms that have it (and a width's
    λ that of the arm's posterior); any other
    parameter (and the β rule, key ``"beta"``) that differs between two arms must be declared in ``own``
    (label → the keys that are that method's own) for at least one of them."""
    arms = [a for a in sweep.arms if a.algorithm != "random"]
    problems = [f"{sweep.name}: {a.label}'s width takes λ = {a.beta.params['lam']!r}, its posterior "
                f"{shared_values(a)['lam']!r}" for a in arms
                if a.beta is not None and "lam" in a.beta.params and a.beta.params["lam"] != shared_values(a)["lam"]]
    for key in SHARED_KEYS:
        seen = {a.label: shared_values(a)[key] for a in arms}
        distinct = {repr(v) for v in seen.values() if v is not None}
        if len(distinct) > 1:
            problems.append(f"{sweep.name}: shared constant {key} differs: "
                            + ", ".join(f"{k} {v!r}" for k, v in seen.items() if v is not None))
    for key in CONVENTIONS:  # a convention that may be a method's own (tuned): shared where no arm declares it its own
        if key in SHARED_KEYS:
            continue
        seen = {a.label: held(a, key) for a in arms if held(a, key) is not None and key not in own.get(a.label, ())}
        if len({repr(v) for v in seen.values()}) > 1:
            problems.append(f"{sweep.name}: shared constant {key} differs: "
                            + ", ".join(f"{k} {v!r}" for k, v in seen.items()))
    for i, a in enumerate(arms):
        for b in arms[i + 1:]:
            pa, pb = _own_view(a, own.get(a.label, ())), _own_view(b, own.get(b.label, ()))
            for key in sorted(set(pa) | set(pb)):
                if repr(pa.get(key)) != repr(pb.get(key)) and key not in (*own.get(a.label, ()), *own.get(b.label, ())):
                    problems.append(f"{sweep.name}: {a.label} and {b.label} differ in {key} "
                                    f"({pa.get(key)!r} vs {pb.get(key)!r}), declared for neither")
    return problems


#: the conventions a free constant shared by the methods may set: when a setting changes one of them on some GP
#: arm, every GP arm that holds it must hold one value after the setting (:func:`setting_problems`). The memory
#: scale of the order-wise rules is one of them when it is swept (it may also be a method's own constant, tuned
#: with the same budget as every other method's: :mod:`~tvbo_verify.sweeps.reproduce.tuning`).
CONVENTIONS = (*SHARED_KEYS, "memory_scale")
#: parameters that carry a convention's name but are a method's own (ET-GP-UCB's ``delta`` is its event trigger's
#: probability, not the δ of a confidence width)
OWN_NAMED_LIKE_CONVENTIONS: dict[str, tuple[str, ...]] = {"et-gp-ucb": ("delta",)}


class UnfairSetting(ValueError):
    """A setting of a reproduction that does not treat every compared method alike, refused before any run.

    Raised where a reproduction is declared or planned (docs/ARCHITECTURE.md §10):

    * :class:`Reproduction` declares a method's own constant (``FreeConstant(own=True)``) among its ``constants``:
      swept alone, it would compare one retuned method with rivals that were not; it belongs in ``tuned``;
    * :meth:`Reproduction.plans` meets a setting that sets a convention the methods share (λ, B, δ, a width's
      scale, the memory scale of the order-wise rules, the fitting data) for some of them only, a shared key
      declared a method's own in ``own``, or arms that differ in a parameter ``own`` declares for neither;
    * the tuning of ``tuned`` constants meets a constant that is not a method's own, unequal tuning budgets of
      two methods, or a candidate that changes more than its method's own keys.

    A ``ValueError``: code that refuses a malformed reproduction with ``ValueError`` refuses an unfair one too.

    Parameters
    ----------
    message : str
        Every problem found, each naming the sweep, the setting and the arms concerned.

    Examples
    --------
    A method's own constant (SW-GP-UCB's window) declared as a sensitivity axis is refused when the reproduction
    is declared:

    >>> from tvbo_verify.authoring import FreeConstant, Reproduction, UnfairSetting, set_param
    >>> window = FreeConstant("window of SW-GP-UCB", "W", 50, (25, 50, 100), (25, 50), "a reading of the paper",
    ...                       arms=("SW-GP-UCB",), own=True, set_arm=set_param("window"))
    >>> try:
    ...     Reproduction("doc:figure-1", "doc", "Figure 1", "set-up", "finding", sweeps=lambda fidelity: {},
    ...                  analyse=None, figure=None, constants=(window,), parts=lambda finding: [])
    ... except UnfairSetting as refusal:
    ...     print(refusal)
    reproduction doc:figure-1 sweeps a method's own constant alone (window of SW-GP-UCB): ... declare it in
    `tuned`, tuned with the same budget as every other method's on training seeds
    >>> issubclass(UnfairSetting, ValueError)
    True
    """


def held(arm: Arm, key: str) -> Any:
    """The value of ``key`` an arm holds (its parameters, else its β rule's), ``None`` where it holds none; a
    parameter of :data:`OWN_NAMED_LIKE_CONVENTIONS` is not read as the convention of its name."""
    own = OWN_NAMED_LIKE_CONVENTIONS.get(arm.algorithm, ())
    if key in arm.params and key not in own:
        return arm.params[key]
    if arm.beta is not None and key in arm.beta.params:
        return arm.beta.params[key]
    return None


def _gp_arms(sweep: Sweep) -> dict[str, Arm]:
    return {a.label: a for a in sweep.arms if a.algorithm != "random"}


def own_declaration_problems(sweep: Sweep, own: dict[str, tuple[str, ...]]) -> list[str]:
    """A key every method shares (:data:`SHARED_KEYS`) declared the own parameter of one of the sweep's methods."""
    out = []
    for label, arm in _gp_arms(sweep).items():
        bad = [k for k in own.get(label, ()) if k in SHARED_KEYS
               and k not in OWN_NAMED_LIKE_CONVENTIONS.get(arm.algorithm, ())]
        if bad:
            out.append(f"{sweep.name}: {', '.join(bad)} declared {label}'s own, but every compared method shares it")
    return out


def setting_problems(base: Sweep, setting: Sweep, constant: FreeConstant, value: Any,
                     own: dict[str, tuple[str, ...]]) -> list[str]:
    """Why the sweep ``setting`` (``base`` with ``constant`` set to ``value``) does not treat every method alike.

    * a method's own constant is never swept alone (it is tuned with the same budget as every other method's,
      :mod:`~tvbo_verify.sweeps.reproduce.tuning`): a finding that holds where one method alone is retuned
      says nothing about the methods compared alike;
    * a convention (:data:`CONVENTIONS`) the setting changes on some GP arm must end at one value on every GP
      arm that holds it (it is varied jointly, never for one method);
    * the arms differ only in what the reproduction declares each method's own (:func:`undeclared_differences`),
      and no shared key is declared a method's own (:func:`own_declaration_problems`)."""
    where = f"{setting.name} at {constant.text(value)}"
    out = []
    if constant.own:
        out.append(f"{where}: {constant.name} is {', '.join(constant.arms)}'s own constant, swept for that method "
                   "alone; a method's own constants are tuned with the same budget as every other method's")
    before, after = _gp_arms(base), _gp_arms(setting)
    for key in CONVENTIONS:
        changed = [lab for lab, a in after.items()
                   if lab in before and repr(held(before[lab], key)) != repr(held(a, key))]
        if not changed:
            continue
        values = {lab: held(a, key) for lab, a in after.items() if held(a, key) is not None}
        if len({repr(v) for v in values.values()}) > 1:
            out.append(f"{where}: the shared convention {key} is set for {', '.join(changed)} only ("
                       + ", ".join(f"{lab} {v!r}" for lab, v in values.items())
                       + "); a convention every method shares is varied jointly for all of them")
    out += [f"{where}: {p}" for p in undeclared_differences(setting, own) + own_declaration_problems(setting, own)]
    return out


def check_fair(base: dict[str, Sweep], constant: FreeConstant | None, value: Any,
               own: dict[str, tuple[str, ...]], setting: dict[str, Sweep] | None = None) -> None:
    """Raise :class:`UnfairSetting` when a setting of a plan (``constant`` at ``value``; ``None``: the paper's
    setting ``base`` itself) does not treat every compared method alike (:func:`setting_problems`)."""
    problems = []
    for name, sweep in base.items():
        if constant is None:
            problems += undeclared_differences(sweep, own) + own_declaration_problems(sweep, own)
        else:
            assert setting is not None
            problems += setting_problems(sweep, setting[name], constant, value, own)
    if problems:
        raise UnfairSetting("unfair setting: " + "; ".join(problems))


def _own_view(arm: Arm, own: tuple[str, ...] = ()) -> dict[str, Any]:
    """An arm's parameters and β rule without the shared constants and the conventions it does not declare its own
    ``own`` (compared by :func:`undeclared_differences`)."""
    view = {k: v for k, v in arm.params.items()
            if k not in SHARED_KEYS and k != "fit_params" and (k not in CONVENTIONS or k in own)}
    view["beta"] = None if arm.beta is None else (
        arm.beta.kind, {k: v for k, v in arm.beta.params.items() if k not in SHARED_KEYS})
    return view


# ------------------------------------------------------------------------------------------ margins
@dataclass(frozen=True)
class Part:
    """One deciding part of a finding at one setting: its margin (> 0: holds) and the 95% interval.

    ``control``: ``None`` for a part without a negative control; for a comparison of methods, whether its
    control (the same comparison with a control policy in place of the method) came out violated. A part whose
    control did not fail is undecided where its interval alone would say it holds (a failing part fails
    whatever its control, as :func:`~tvbo_verify.verify.stats.require_failed_control` rules).

    Build it with :func:`ordering_part`, :func:`ratio_part`, :func:`slope_part`, and combine parts with
    :func:`all_of` and :func:`any_of`.

    Parameters
    ----------
    name : str
        What the part says.
    margin : float
        Its margin (> 0: it holds).
    ci95 : tuple of float
        The 95% interval of the margin; it decides: confirmed above 0, violated below 0, inconclusive otherwise.
    control : bool or None, optional
        Whether its negative control failed (None: the part has none).

    Examples
    --------
    >>> from tvbo_verify.authoring import Part
    >>> Part("a below b", 0.3, (0.1, 0.5)).verdict, Part("a below b", 0.3, (0.1, 0.5), control=False).verdict
    ('confirmed', 'inconclusive')
    >>> Part("a below b", -0.3, (-0.5, -0.1), control=False).verdict
    'violated'
    """

    name: str
    margin: float
    ci95: tuple[float, float]
    control: bool | None = None

    @property
    def interval_verdict(self) -> str:
        """The verdict of the interval alone (the control not considered)."""
        lo, hi = self.ci95
        return CONFIRMED if lo > 0 else VIOLATED if hi < 0 else INCONCLUSIVE

    @property
    def verdict(self) -> str:
        verdict = self.interval_verdict
        return INCONCLUSIVE if verdict == CONFIRMED and self.control is False else verdict

    def to_dict(self) -> dict[str, Any]:
        return {"part": self.name, "margin": self.margin, "ci95": list(self.ci95), "verdict": self.verdict,
                "control": self.control}


def ordering_part(name: str, comparison: dict[str, Any], *, above: bool = False,
                  control: dict[str, Any] | None = None) -> Part:
    """"a's final regret below b's" from :func:`~tvbo_verify.sweeps.reproduce.analysis.compare`: the margin is
    the paired difference b − a relative to b's mean, ``−(a − b)/mean_b``, with the paired bootstrap interval
    scaled alike (so it lies above 0 exactly when the interval of a − b lies below 0). ``above``: "a's final
    regret above b's", margin ``(a − b)/mean_b``. ``control``: the comparison of a control policy with the
    same b; the part then holds only when the control's ordering comes out violated.

    Parameters
    ----------
    name : str
        What the part says.
    comparison : dict
        ``a`` against ``b``, as :func:`compare` returns it.
    above : bool, optional
        Decide "a above b" instead of "a below b".
    control : dict or None, optional
        The control policy against the same ``b``, as :func:`compare` returns it.

    Returns
    -------
    Part
        The ordering as a margin relative to b's mean.

    Examples
    --------
    >>> from tvbo_verify.authoring import ordering_part
    >>> comp = {"a": "method", "b": "baseline", "mean_b": 10.0, "difference": {"mean": -4.0, "ci95": [-6.0, -2.0]},
    ...         "ratio": 0.6, "ratio_ci95": [0.4, 0.8]}  # as compare() returns it
    >>> part = ordering_part("method below baseline", comp)
    >>> part.margin, part.ci95, part.verdict
    (0.4, (0.2, 0.6), 'confirmed')
    """
    scale = max(abs(float(comparison["mean_b"])), 1e-12)
    mean = float(comparison["difference"]["mean"]) / scale
    lo, hi = (float(v) / scale for v in comparison["difference"]["ci95"])
    failed = None if control is None else ordering_part("control", control, above=above).interval_verdict == VIOLATED
    return Part(name, mean, (lo, hi), failed) if above else Part(name, -mean, (-hi, -lo), failed)


def ratio_part(name: str, comparison: dict[str, Any], *, margin: float,
               control: dict[str, Any] | None = None) -> Part:
    """"a's regret is at most ``margin`` times b's" from the bootstrap interval of the ratio of means of
    :func:`~tvbo_verify.sweeps.reproduce.analysis.compare`: margin ``margin − ratio``, interval
    ``[margin − upper, margin − lower]`` (above 0 exactly when the ratio's interval ends below ``margin``).
    ``control``: the comparison of a control policy with the same b, which must come out violated.

    Parameters
    ----------
    name : str
        What the part says.
    comparison : dict
        ``a`` against ``b``, as :func:`compare` returns it.
    margin : float
        The factor of the statement.
    control : dict or None, optional
        The control policy against the same ``b``.

    Returns
    -------
    Part
        ``margin − ratio`` with its interval.

    Examples
    --------
    >>> from tvbo_verify.authoring import ratio_part
    >>> comp = {"a": "method", "b": "baseline", "mean_b": 10.0, "difference": {"mean": -4.0, "ci95": [-6.0, -2.0]},
    ...         "ratio": 0.6, "ratio_ci95": [0.4, 0.8]}  # as compare() returns it
    >>> part = ratio_part("method at most 0.9 × baseline", comp, margin=0.9)
    >>> round(part.margin, 6), [round(v, 6) for v in part.ci95], part.verdict
    (0.3, [0.1, 0.5], 'confirmed')
    """
    lo, hi = (float(v) for v in comparison["ratio_ci95"])
    failed = None if control is None else ratio_part("control", control, margin=margin).interval_verdict == VIOLATED
    return Part(name, margin - float(comparison["ratio"]), (margin - hi, margin - lo), failed)


def slope_part(name: str, slope: dict[str, Any], *, below: bool) -> Part:
    """"R_t grows sublinearly" (``below``: margin 1 − slope) or "superlinearly" (slope − 1), from
    :func:`~tvbo_verify.sweeps.reproduce.analysis.within_run_slope` and its bootstrap interval.

    Parameters
    ----------
    name : str
        What the part says.
    slope : dict
        ``slope`` and ``ci95``, as :func:`within_run_slope` returns them.
    below : bool
        True for "sublinear" (the slope below 1), False for "at least linear" (above 1).

    Returns
    -------
    Part
        The distance of the slope from 1, with its interval.

    Examples
    --------
    >>> from tvbo_verify.authoring import slope_part
    >>> part = slope_part("sublinear regret", {"slope": 0.5, "ci95": [0.25, 0.75]}, below=True)
    >>> part.margin, part.ci95, part.verdict
    (0.5, (0.25, 0.75), 'confirmed')
    """
    lo, hi = slope["ci95"]
    if below:
        return Part(name, 1.0 - float(slope["slope"]), (1.0 - float(hi), 1.0 - float(lo)))
    return Part(name, float(slope["slope"]) - 1.0, (float(lo) - 1.0, float(hi) - 1.0))


def all_of(name: str, parts: Sequence[Part]) -> Part:
    """Every part holds: the least margin, interval ``[min lower, min upper]``; its control did not fail when
    some part's did not (so it is undecided when every interval holds but a control passed).

    The interval lies above 0 exactly when every part's does, and below 0 exactly when some part's does (it is
    not a bootstrap interval of the minimum).

    Parameters
    ----------
    name : str
        What the conjunction says.
    parts : sequence of Part
        The parts, at least one.

    Returns
    -------
    Part
        The conjunction.

    Raises
    ------
    ValueError
        If ``parts`` is empty.

    Examples
    --------
    >>> from tvbo_verify.authoring import Part, all_of
    >>> both = all_of("both", [Part("a", 0.5, (0.2, 0.8)), Part("b", 0.1, (-0.1, 0.3))])
    >>> both.margin, both.ci95, both.verdict
    (0.1, (-0.1, 0.3), 'inconclusive')
    """
    if not parts:
        raise ValueError("all_of needs at least one part")
    controls = [p.control for p in parts if p.control is not None]
    control = None if not controls else all(controls)
    return Part(name, min(p.margin for p in parts), (min(p.ci95[0] for p in parts), min(p.ci95[1] for p in parts)),
                control)


def any_of(name: str, parts: Sequence[Part]) -> Part:
    """Some part holds: the largest margin, interval ``[max lower, max upper]``; undecided when every part whose
    interval holds has a control that did not fail.

    Parameters
    ----------
    name : str
        What the disjunction says.
    parts : sequence of Part
        The parts, at least one.

    Returns
    -------
    Part
        The disjunction.

    Raises
    ------
    ValueError
        If ``parts`` is empty.

    Examples
    --------
    >>> from tvbo_verify.authoring import Part, any_of
    >>> either = any_of("either", [Part("a", 0.5, (0.2, 0.8)), Part("b", 0.1, (-0.1, 0.3))])
    >>> either.margin, either.ci95, either.verdict
    (0.5, (0.2, 0.8), 'confirmed')
    """
    if not parts:
        raise ValueError("any_of needs at least one part")
    holding = [p for p in parts if p.interval_verdict == CONFIRMED]
    control = next((p.control for p in holding if p.control is not False), False) if holding else None
    return Part(name, max(p.margin for p in parts), (max(p.ci95[0] for p in parts), max(p.ci95[1] for p in parts)),
                control)


# ----------------------------------------------------------------------------------- the record
def over_range(verdicts: Sequence[str]) -> str:
    """Confirmed when confirmed at every setting, violated when violated at every setting, else inconclusive."""
    vs = list(verdicts)
    if vs and all(v == CONFIRMED for v in vs):
        return CONFIRMED
    if vs and all(v == VIOLATED for v in vs):
        return VIOLATED
    return INCONCLUSIVE


_WORDS = {CONFIRMED: "holds", VIOLATED: "fails", INCONCLUSIVE: "undecided"}


def range_statement(constant: FreeConstant, values: Sequence[Any], verdicts: Sequence[str]) -> str:
    """Where the finding holds along one constant: ``"holds for s ≥ 2, fails for s ≤ 0.5, undecided at
    s = 1"`` (values in grid order); ``"holds over the whole range s ∈ [0.25, 4]"`` when it never changes."""
    sym = constant.symbol
    if len(set(verdicts)) == 1:
        word = _WORDS[verdicts[0]]
        if constant.scale == "categorical":
            return f"{word} for every {sym} ({', '.join(map(format_value, values))})"
        return f"{word} over the whole range {sym} ∈ [{format_value(values[0])}, {format_value(values[-1])}]"
    if constant.scale == "categorical":
        groups: dict[str, list[str]] = {}
        for v, verdict in zip(values, verdicts):
            groups.setdefault(_WORDS[verdict], []).append(format_value(v))
        return ", ".join(f"{w} for {sym} = {' and '.join(vs)}" for w, vs in groups.items())
    runs: list[tuple[str, int, int]] = []  # (verdict, first index, last index) of each run of equal verdicts
    for i, verdict in enumerate(verdicts):
        if runs and runs[-1][0] == verdict:
            runs[-1] = (verdict, runs[-1][1], i)
        else:
            runs.append((verdict, i, i))
    pieces = []
    for verdict, first, last in runs:
        lo, hi = format_value(values[first]), format_value(values[last])
        if first == 0 and last < len(values) - 1:
            where = f"for {sym} ≤ {hi}"
        elif last == len(values) - 1 and first > 0:
            where = f"for {sym} ≥ {lo}"
        elif first == last:
            where = f"at {sym} = {lo}"
        else:
            where = f"for {sym} ∈ [{lo}, {hi}]"
        pieces.append(f"{_WORDS[verdict]} {where}")
    return ", ".join(pieces)


def constant_record(constant: FreeConstant, fidelity: str, findings: dict[Any, list[Part]],
                    resolved: dict[Any, str] | None = None) -> dict[str, Any]:
    """The sensitivity of the finding to one constant: at each value (grid order) the finding's margin
    (:func:`all_of` the parts), its interval and verdict, each part's margin, interval and verdict, what the
    value resolved to."""
    values = [v for v in constant.grid(fidelity) if v in findings]
    total = [all_of("finding", findings[v]) for v in values]
    verdicts = [p.verdict for p in total]
    names = [p.name for p in findings[values[0]]]
    return {**constant.to_dict(fidelity), "values": values,
            "margin": [p.margin for p in total], "ci95": [list(p.ci95) for p in total], "verdict": verdicts,
            "parts": {n: _part_series(n, [findings[v] for v in values]) for n in names},
            "resolved": [(resolved or {}).get(v, "") for v in values],
            "statement": range_statement(constant, values, verdicts)}


def _part_series(name: str, settings_parts: list[list[Part]]) -> dict[str, list[Any]]:
    """One part's margin, interval and verdict at each setting."""
    found = [next(p for p in parts if p.name == name) for parts in settings_parts]
    return {"margin": [p.margin for p in found], "ci95": [list(p.ci95) for p in found],
            "verdict": [p.verdict for p in found], "control": [p.control for p in found]}


def sensitivity_record(constants: Sequence[FreeConstant], fidelity: str, paper_parts: list[Part],
                       findings: dict[tuple[str, Any], list[Part]], resolved: dict[tuple[str, Any], str],
                       runs: int) -> dict[str, Any]:
    """The ``sensitivity`` record of a reproduction: one :func:`constant_record` per constant (the paper's
    setting from ``paper_parts``, the others from ``findings[(name, value)]``), the verdict over the
    whole admissible range (:func:`over_range`) and a statement of where the finding holds."""
    per = []
    verdicts = [all_of("finding", paper_parts).verdict]
    for c in constants:
        at = {v: (paper_parts if v == c.paper else findings[(c.name, v)]) for v in c.grid(fidelity)}
        per.append(constant_record(c, fidelity, at, {v: resolved.get((c.name, v), "") for v in at}))
        verdicts += [all_of("finding", at[v]).verdict for v in at if v != c.paper]
    verdict = over_range(verdicts)
    paper = all_of("finding", paper_parts)
    if verdict == INCONCLUSIVE:
        moving = [r for r in per if len(set(r["verdict"])) > 1]
        statement = "; ".join(f"{r['constant']}: {r['statement']}" for r in (moving or per))
    else:
        statement = f"{_WORDS[verdict]} at every one of the {len(verdicts)} settings"
    return {"fidelity": fidelity, "design": "one at a time around the paper's setting", "settings": len(verdicts),
            "runs": runs, "verdict": verdict, "statement": statement,
            "paper": {"margin": paper.margin, "ci95": list(paper.ci95), "verdict": paper.verdict,
                      "parts": [p.to_dict() for p in paper_parts]},
            "constants": per}


def remarks_record(remarks: dict[str, list[Part]]) -> dict[str, Any]:
    """The record of a finding's remarks — statements of the paper beside the finding, measured at every setting
    and reported, never deciding it: per remark, its margin, interval and verdict at each setting (by where) and
    over the range (:func:`over_range`), with the statement of where it holds."""
    out: dict[str, Any] = {}
    for where, parts in remarks.items():
        for p in parts:
            r = out.setdefault(p.name, {"settings": [], "margin": [], "ci95": [], "verdict": []})
            r["settings"].append(where)
            r["margin"].append(p.margin)
            r["ci95"].append(list(p.ci95))
            r["verdict"].append(p.verdict)
    for r in out.values():
        r["over_range"] = over_range(r["verdict"])
        groups: dict[str, list[str]] = {}
        for where, verdict in zip(r["settings"], r["verdict"]):
            groups.setdefault(_WORDS[verdict], []).append(where)
        r["statement"] = ("; ".join(f"{w} at {len(ws)} of {len(r['settings'])} settings ({', '.join(ws)})"
                                    for w, ws in groups.items()) if len(groups) > 1 else
                          f"{next(iter(groups))} at every one of the {len(r['settings'])} settings")
    return out


# ------------------------------------------------------------------------------------------ figure
_COLOURS = {CONFIRMED: "tab:green", VIOLATED: "tab:red", INCONCLUSIVE: "0.45"}


def sensitivity_figure(record: dict[str, Any], title: str = "") -> Figure:
    """One panel per free constant: the finding's margin (> 0: the finding holds) with its 95% band against
    the constant's values, each part's margin as a thin line, the paper's setting marked, the zero line."""
    import matplotlib.pyplot as plt

    per = record["constants"]
    ncols = min(3, len(per))
    nrows = -(-len(per) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(7.5, 2.5 * nrows + 0.9), layout="constrained", squeeze=False)
    for ax, rec in zip(axes.flat, per):
        values = rec["values"]
        categorical = rec["scale"] == "categorical"
        x = np.arange(len(values), dtype=float) if categorical else np.asarray(values, float)
        m = np.asarray(rec["margin"], float)
        ci = np.asarray(rec["ci95"], float)
        for name, series in rec["parts"].items():
            ax.plot(x, series["margin"], lw=0.7, alpha=0.45, label=name)
        ax.fill_between(x, ci[:, 0], ci[:, 1], color="tab:blue", alpha=0.2, lw=0)
        ax.plot(x, m, color="tab:blue", lw=1.6)
        ax.scatter(x, m, c=[_COLOURS[v] for v in rec["verdict"]], s=26, zorder=4, edgecolor="k", linewidth=0.4)
        ax.axhline(0.0, color="k", lw=0.8)
        paper_x = values.index(rec["paper"]) if categorical else float(rec["paper"])
        ax.axvline(paper_x, color="tab:orange", ls="--", lw=1.0)
        if categorical:
            ax.set_xticks(x, [textwrap.fill(format_value(v), 12) for v in values], fontsize=7)
            ax.set_xlim(-0.3, len(values) - 0.7)
        elif rec["scale"] == "log":
            ax.set_xscale("log")
            ax.set_xticks(x, [format_value(v) for v in values], fontsize=7)
            ax.minorticks_off()
        ax.set_title(textwrap.fill(rec["constant"], 36), fontsize=7.5)
        ax.set_xlabel(rec["symbol"], fontsize=8)
        ax.set_ylabel("finding margin", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(per):]:
        ax.set_visible(False)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles += [Line2D([], [], color="tab:blue", lw=1.6), Patch(color="tab:blue", alpha=0.2),
                Line2D([], [], color="tab:orange", ls="--")] + [
        Line2D([], [], ls="", marker="o", color=c, markeredgecolor="k") for c in _COLOURS.values()]
    labels += ["finding margin (least part)", "95% band", "the paper's setting",
               "finding holds", "finding fails", "undecided"]
    fig.legend(handles, labels, fontsize=6.5, loc="outside lower center", ncol=3)
    head = title or "Sensitivity of the finding to the constants the paper leaves open"
    fig.suptitle(textwrap.fill(f"{head}: {record['verdict']} over the admissible range — {record['statement']}",
                               140), fontsize=8)
    return fig


def mean_tuning(result: SweepResult, label: str, key: str) -> float | None:
    """Mean over repetitions of the order-wise ``key`` (``discount``, ``window``) an arm resolved at reset."""
    vals = []
    for trace in result.runs(label):
        policy = trace.meta.get("policy", {})
        tuning = policy.get("tuning") or policy.get("params", {}).get("tuning")
        if tuning and tuning.get(key) is not None:
            vals.append(float(tuning[key]))
    return float(np.mean(vals)) if vals else None


def tuning_describer(label: str, key: str, symbol: str) -> Callable[[dict[str, SweepResult]], str]:
    """``results -> "γ = 0.974 (slow), 0.955 (abrupt)"``: what an order-wise constant resolved to per sweep."""
    def describe(results: dict[str, SweepResult]) -> str:
        parts = []
        for name, res in results.items():
            if label not in [a.label for a in res.sweep.arms]:
                continue
            v = mean_tuning(res, label, key)
            if v is not None and math.isfinite(v):
                parts.append(f"{v:.4g} ({name})")
        return f"{symbol} = {', '.join(parts)}" if parts else ""
    return describe
