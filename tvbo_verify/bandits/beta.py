"""Exploration schedules β_t for the bandit policies, each carrying its UCB convention.

A :class:`BetaRule` evaluates a β_t from :mod:`tvbo_verify.confidence` (never re-derived here) and turns
it into the factor multiplying σ with :func:`tvbo_verify.confidence.ucb_multiplier`:
``μ + √β σ`` (``"sqrt"``: ``tvgpucb``, ``bolt``) or ``μ + β σ`` (``"multiplies_sigma"``: ``wsparq``,
``sparq``, ``wgpucb``). Every policy takes its rule explicitly and the runner records the rule
(:meth:`BetaRule.to_dict`) and the realised β_t of every step in the trace.

Rules (``kind``; :data:`RULES` lists each one's parameters and reference, and the API reference
documents them in a table built from it):

* ``constant`` — a fixed β;
* ``log`` — the practical ``c₁ log(c₂ t)`` of ``tvgpucb`` §2 (clipped at 0 when ``clip``);
* ``finite-domain`` — ``2 log(|D| π² t² / 6δ)`` (``papers/tvgpucb/READING.md`` §3.4, derived);
* ``tvgpucb`` / ``rgpucb`` — Theorem 4.3 eq. (19) / Theorem 4.2 eq. (16) with ``T → t``;
* ``kk`` — the data-dependent Kirschner–Krause width of ``wsparq`` eq. (12) / ``sparq`` Theorem 3.1,
  evaluated on the policy's current regression set; with ``R`` and ``lam`` the root is multiplied by
  ``R/√λ``, the width of a posterior with regulariser ``λ`` under ``R``-sub-Gaussian noise (``wgpucb``
  Theorem 2 with unit weights; the same form as the ``wgpucb`` rule), equal to the plain rule when ``λ = R²``;
* ``wgpucb`` — ``B + (R/√λ)√(2 log(1/δ) + 2 γ̄_t)`` with the Hadamard bound on ``γ̄_t`` (``wgpucb`` §2);
* ``wdbo`` — ``0.2 d log(2n)`` of public W-DBO code (papers/bolt/READING.md §3.9), ``n`` = the iteration index ``t``;
* ``bolt`` — ``β_n = 2d log(L d n²/6δ) + 4 log(π n)`` of ``bolt`` Lemma D.1, eq. (63) as printed, ``n = t``;
* ``igp-ucb`` — ``B + R√(2(γ_{t−1} + 1 + ln(1/δ)))`` of IGP-UCB (Chowdhury & Gopalan 2017, Algorithm 1 and
  Theorem 2; ``μ + β σ``), with ``γ_{t−1}`` an upper bound of the maximum information gain on the policy's grid
  (``gamma="bound"``, as printed) or the information gain of the points queried so far (``gamma="queried"``,
  the determinant of the proof's self-normalised bound): :func:`igpucb_theory`.

Every kind names its parameters (:data:`PARAMETERS`); a rule missing one, or given one its kind does not take,
is refused at construction with a ``ValueError`` naming it and the allowed ones.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .. import confidence as cf
from ..information import log_det_ratio_from_gram, weighted_gain_hadamard_bound
from ..validation import check_choice, check_int, check_nonnegative, check_positive

__all__ = [
    "KINDS", "RULES", "RuleInfo", "DataFn", "BetaRule", "constant", "log_rule", "finite_domain", "tvgpucb_theory",
    "kirschner_krause", "wgpucb_theory", "wdbo_practical", "bolt_theory", "igpucb_theory", "IGPUCB_GAMMAS",
    "parse_beta",
]

KINDS = ("constant", "log", "finite-domain", "tvgpucb", "rgpucb", "kk", "wgpucb", "wdbo", "bolt", "igp-ucb")
DataFn = Callable[[], tuple[np.ndarray, np.ndarray]]
GainBoundFn = Callable[[int], float]

#: what stands for γ_{t−1} in the igp-ucb rule: an upper bound of the maximum information gain on the policy's grid
#: (the printed γ_{t−1}), or the information gain of the points the policy has queried (the proof's determinant)
IGPUCB_GAMMAS = ("bound", "queried")

#: the kinds whose ``B`` may be ``"env"``: read from the environment's RKHS bound at reset
_BOUND_FROM_ENV = ("kk", "wgpucb", "igp-ucb")


@dataclass(frozen=True)
class RuleInfo:
    """What one β rule ``kind`` is: its formula, parameters, convention, reference and constructor.

    ``required`` and ``optional`` map each parameter name to its meaning (an optional one says its default);
    ``reference`` cites the reading of the paper the rule implements; ``constructor`` names the function of
    this module that builds it; ``together`` lists optional parameters that must be given together.
    """

    formula: str
    required: dict[str, str]
    optional: dict[str, str]
    convention: str
    reference: str
    constructor: str
    together: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """Every parameter name the rule accepts, required ones first."""
        return (*self.required, *self.optional)


_DELTA = "confidence level δ, in (0, 1)"
_ENV_B = ("RKHS bound B ≥ ‖f_t‖_k, ≥ 0, or ``\"env\"``: read from the environment when the run starts "
          "(:meth:`BetaRule.resolve`)")
_B_FROM = "``\"env\"`` when B was read from the environment (set by :meth:`BetaRule.resolve`)"

#: every β rule kind: its formula, parameters (required, optional), convention and reference
RULES: dict[str, RuleInfo] = {
    "constant": RuleInfo(
        "β", {"beta": "the fixed β, ≥ 0"},
        {"convention": "``\"sqrt\"`` (μ + √β σ, default) or ``\"multiplies_sigma\"`` (μ + β σ)"},
        "as given", "a fixed width (negative controls, ablations)", "constant"),
    "log": RuleInfo(
        "c₁ log(c₂ t)", {"c1": "factor c₁ > 0", "c2": "factor c₂ > 0 inside the logarithm"},
        {"clip": "clip negative values at 0 (default True)"},
        "sqrt", "papers/tvgpucb/READING.md §2.7 (the practical width of Sec. 5)", "log_rule"),
    "finite-domain": RuleInfo(
        "2 log(|D| π² t² / 6δ)", {"delta": _DELTA}, {},
        "sqrt", "papers/tvgpucb/READING.md §3.4 (derived for a finite domain D)", "finite_domain"),
    "tvgpucb": RuleInfo(
        "eq. (19) with T → t", {"r": "side r > 0 of the domain [0, r]^d", "a": "constant a > 0 of (9)–(11)",
                                "b": "constant b > 0 of (9)–(11)", "delta": _DELTA}, {},
        "sqrt", "papers/tvgpucb/READING.md §2.7 (Theorem 4.3, eq. (19))", "tvgpucb_theory"),
    "rgpucb": RuleInfo(
        "eq. (16) with T → t", {"r": "side r > 0 of the domain [0, r]^d", "a": "constant a > 0 of (9)–(11)",
                                "b": "constant b > 0 of (9)–(11)", "delta": _DELTA}, {},
        "sqrt", "papers/tvgpucb/READING.md §2.7 (Theorem 4.2, eq. (16))", "tvgpucb_theory"),
    "kk": RuleInfo(
        "√(2 log(2 |Σ + K|^½ / (δ |Σ|^½))) + B on the current regression set",
        {"B": _ENV_B, "delta": "confidence level δ, in (0, 1]"},
        {"R": "sub-Gaussian constant R ≥ 0 of the noise (with ``lam``: the root is multiplied by R/√λ)",
         "lam": "noise variance λ > 0 of the posterior (with ``R``)", "B_from": _B_FROM},
        "multiplies_sigma", "papers/wsparq/READING.md §2.4 (eq. (12)); papers/sparq/READING.md §2.5 "
        "(Theorem 3.1)", "kirschner_krause", together=("R", "lam")),
    "wgpucb": RuleInfo(
        "B + (R/√λ) √(2 log(1/δ) + 2 γ̄_t), γ̄_t by the Hadamard bound",
        {"B": _ENV_B, "R": "sub-Gaussian constant R ≥ 0 of the noise", "lam": "regulariser λ > 0",
         "discount": "discount factor γ of the weights, in (0, 1]", "delta": _DELTA},
        {"kbar": "bound k̄ > 0 on k(x, x) (default 1)", "B_from": _B_FROM},
        "multiplies_sigma", "papers/wgpucb/READING.md §3.1 (Algorithm 1, step 1)", "wgpucb_theory"),
    "wdbo": RuleInfo(
        "0.2 d log(2t)", {}, {}, "sqrt", "papers/bolt/READING.md §3.9 (the public W-DBO code)", "wdbo_practical"),
    "bolt": RuleInfo(
        "2d log(L d t² / 6δ) + 4 log(π t)", {"L": "Lipschitz constant L > 0 of Assumption 3.4", "delta": _DELTA},
        {}, "sqrt", "papers/bolt/READING.md §bolt:eq-63 (Lemma D.1, eq. (63) as printed)", "bolt_theory"),
    "igp-ucb": RuleInfo(
        "B + R √(2(γ_{t−1} + 1 + ln(1/δ)))",
        {"B": _ENV_B, "R": "sub-Gaussian constant R ≥ 0 of the noise", "delta": _DELTA},
        {"gamma": "what stands for γ_{t−1}: ``\"bound\"`` (an upper bound of the maximum information gain on the "
                  "policy's grid, default) or ``\"queried\"`` (the information gain of the points queried so far)",
         "B_from": _B_FROM},
        "multiplies_sigma", "IGP-UCB, Chowdhury & Gopalan (2017), Algorithm 1 and Theorem 2 (not a paper of this "
        "package: no reading)", "igpucb_theory"),
}


def _check_rule_params(kind: str, params: dict[str, Any]) -> None:
    """Refuse a missing, unknown or unpaired parameter of rule ``kind`` with the names it accepts."""
    info = RULES[kind]
    accepted = ", ".join(info.required) or "none"
    if info.optional:
        accepted += f"; optional: {', '.join(info.optional)}"
    for key, value in params.items():
        if key not in info.names:
            close = difflib.get_close_matches(str(key), info.names, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"beta rule {kind!r} has no parameter {key!r} (got {key}={value!r}){hint}; "
                             f"its parameters: {accepted}")
    missing = [key for key in info.required if key not in params]
    if missing:
        raise ValueError(f"beta rule {kind!r} needs parameter {missing[0]!r}, which is missing; "
                         f"its parameters: {accepted}")
    given = [key for key in info.together if key in params]
    if given and len(given) != len(info.together):
        raise ValueError(f"beta rule {kind!r} needs {' and '.join(info.together)} together or neither, got "
                         + ", ".join(f"{k}={params[k]!r}" for k in given))


@dataclass(frozen=True)
class BetaRule:
    """A β_t schedule: a ``kind``, its parameters, and the UCB convention of the value it returns.

    Every kind, with its formula, parameters, convention and reference, is in the table of β rules of the API
    reference (generated from :data:`RULES`). The functions of this module build each kind with its defaults;
    a policy takes a rule explicitly, and the runner records it and the realised β_t of every round.

    Parameters
    ----------
    kind : str
        One of :data:`KINDS`: ``constant``, ``log``, ``finite-domain``, ``tvgpucb``, ``rgpucb``, ``kk``,
        ``wgpucb``, ``wdbo``, ``bolt``, ``igp-ucb``.
    params : dict
        The kind's parameters by name (:attr:`RuleInfo.required` and :attr:`RuleInfo.optional` of its entry in
        :data:`RULES`). ``B="env"`` (``kk``, ``wgpucb``, ``igp-ucb``) takes the RKHS bound from the environment
        at reset.

    Raises
    ------
    ValueError
        At construction, for an unknown kind, a parameter the kind does not take (naming its value and the
        closest name), a missing required parameter, an unpaired optional one (``R`` without ``lam``) or a value
        out of its range, each naming the kind's parameters.

    Examples
    --------
    >>> from tvbo_verify.authoring import BetaRule
    >>> rule = BetaRule("log", {"c1": 0.8, "c2": 4.0})
    >>> rule.convention, round(rule.value(10), 4)
    ('sqrt', 2.9511)
    >>> BetaRule("kk", {"B": 1.0})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: beta rule 'kk' needs parameter 'delta', which is missing; its parameters: B, delta; optional: ...
    >>> BetaRule("finite-domain", {"dlta": 0.1})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: beta rule 'finite-domain' has no parameter 'dlta' (got dlta=0.1) (did you mean 'delta'?); ...
    """

    kind: str
    params: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_choice("beta rule", self.kind, KINDS)
        _check_rule_params(self.kind, self.params)
        if self.kind == "igp-ucb":
            check_choice("gamma", self.params.get("gamma", "bound"), IGPUCB_GAMMAS)
        if self.takes_bound_from_env:
            if self.kind not in _BOUND_FROM_ENV:
                raise ValueError(f"B='env' applies to the {', '.join(_BOUND_FROM_ENV)} rules only, got kind "
                                 f"{self.kind!r}")
            BetaRule(self.kind, {**self.params, "B": 1.0})  # validates the other params
            return
        self.value(1, data=lambda: (np.zeros((0, 0)), np.zeros(0)), n=1, grid_size=1, d=1,
                   gain_bound=lambda t: 0.0)  # validates params

    @property
    def takes_bound_from_env(self) -> bool:
        """Whether ``B`` is read from the environment at reset (``B="env"``)."""
        return isinstance(self.params.get("B"), str) and self.params["B"] == "env"

    def resolve(self, extra: dict[str, Any], env_name: str = "the environment") -> "BetaRule":
        """This rule with ``B="env"`` replaced by the environment's RKHS bound ``extra["rkhs_bound"]``
        (``wgpucb`` §2 and ``wsparq`` eq. (12) take ``B ≥ ‖f_t‖_k`` as an input; environments expose it where
        they know it). Rules with a numeric ``B`` are returned unchanged."""
        if not self.takes_bound_from_env:
            return self
        bound = extra.get("rkhs_bound")
        if bound is None:
            raise ValueError(f"beta rule {self.kind} takes B from {env_name}, which does not know its RKHS bound; "
                             "give B explicitly")
        return BetaRule(self.kind, {**self.params, "B": float(bound), "B_from": "env"})

    @property
    def convention(self) -> str:
        """``"sqrt"`` (μ + √β σ) or ``"multiplies_sigma"`` (μ + β σ): how the value enters the UCB."""
        if self.kind == "constant":
            return str(self.params.get("convention", "sqrt"))
        if self.kind in ("kk", "wgpucb", "igp-ucb"):
            return cf.Convention.MULTIPLIES_SIGMA.value
        return cf.Convention.SQRT.value

    @property
    def uses_log_det_ratio(self) -> bool:
        """Whether β_t reads ``log(|Σ + K|/|Σ|)`` of the policy's regression set (``kk``; ``igp-ucb`` with
        ``gamma="queried"``): a policy that maintains it passes it as ``log_det_ratio``."""
        return self.kind == "kk" or (self.kind == "igp-ucb" and self.params.get("gamma", "bound") == "queried")

    @property
    def uses_gain_bound(self) -> bool:
        """Whether β_t reads an upper bound of ``γ_{t−1}`` on the policy's grid (``igp-ucb`` with
        ``gamma="bound"``): the policy passes ``gain_bound``, e.g.
        :func:`tvbo_verify.information.grid_gain_bound` of its grid and noise variance."""
        return self.kind == "igp-ucb" and self.params.get("gamma", "bound") == "bound"

    def value(self, t: int, *, data: DataFn | None = None, n: int = 0, grid_size: int = 1, d: int = 1,
              log_det_ratio: float | None = None, gain_bound: GainBoundFn | None = None) -> float:
        """β_t at round ``t``.

        Parameters
        ----------
        t : int
            The round, from 1.
        data : Callable or None
            ``data() -> (K, noise)`` of the policy's regression set (``kk``; ``igp-ucb`` with ``gamma="queried"``).
        n : int
            The number of observations (unused by the current kinds; kept for rules that need it).
        grid_size : int
            ``|D|`` of the ``finite-domain`` rule.
        d : int
            The input dimension (``tvgpucb``, ``rgpucb``, ``wdbo``, ``bolt``).
        log_det_ratio : float or None
            ``log(|Σ + K| / |Σ|)`` of the regression set when the policy already holds it (``kk``; ``igp-ucb`` with
            ``gamma="queried"``).
        gain_bound : Callable or None
            ``gain_bound(s)``: an upper bound of ``γ_s`` on the policy's grid (``igp-ucb`` with ``gamma="bound"``).

        Returns
        -------
        float
            β_t, under the rule's :attr:`convention`.
        """
        t = check_int("t", t, 1)
        p = self.params
        if self.kind == "constant":
            value = float(p["beta"])
            cf.ucb_multiplier(value, self.convention)  # validates sign and convention
            return value
        if self.kind == "log":
            return cf.beta_tvgpucb_practical(t, p["c1"], p["c2"], clip=p.get("clip", True))
        if self.kind == "finite-domain":
            return cf.beta_finite_domain(t, grid_size, p["delta"])
        if self.kind == "tvgpucb":
            return cf.beta_tvgpucb(t, d, p["r"], p["a"], p["b"], p["delta"])
        if self.kind == "rgpucb":
            return cf.beta_rgpucb(t, d, p["r"], p["a"], p["b"], p["delta"])
        if self.takes_bound_from_env:
            raise ValueError(f"beta rule {self.kind} has B='env': resolve it against the environment first")
        if self.kind == "igp-ucb":
            if self.uses_gain_bound:
                if gain_bound is None:
                    raise ValueError("the igp-ucb beta rule with gamma='bound' needs an upper bound of the information "
                                     "gain on the policy's grid (gp-ucb, r-gp-ucb and tv-gp-ucb pass it); use "
                                     "gamma='queried' with other policies")
                gain = float(gain_bound(t - 1))
            else:
                gain = 0.5 * self._log_det_ratio(log_det_ratio, data)
            return cf.beta_igpucb(gain, p["delta"], p["B"], p["R"])
        if self.kind == "kk":
            ratio = self._log_det_ratio(log_det_ratio, data)
            beta = cf.beta_wsparq_from_log_det_ratio(ratio, p["delta"], p["B"])
            if "R" in p:
                return p["B"] + p["R"] / math.sqrt(p["lam"]) * (beta - p["B"])
            return beta
        if self.kind == "wgpucb":
            ig = weighted_gain_hadamard_bound(t, p["lam"], p["discount"], p.get("kbar", 1.0)) if t > 0 else 0.0
            return cf.beta_wgpucb(ig, p["delta"], p["B"], p["R"], p["lam"])
        if self.kind == "bolt":
            return cf.beta_bolt_as_printed(t, d, p["L"], p["delta"])
        return cf.beta_wdbo_practical(t, d)

    def _log_det_ratio(self, log_det_ratio: float | None, data: DataFn | None) -> float:
        """``log(|Σ + K|/|Σ|)`` of the regression set: as the policy holds it, or from ``data()``."""
        if log_det_ratio is not None:
            return float(log_det_ratio)
        if data is None:
            raise ValueError(f"the {self.kind} beta rule needs the regression set")
        K, noise = data()
        return log_det_ratio_from_gram(K, noise) if K.shape[0] else 0.0

    def multiplier(self, t: int, **context: Any) -> tuple[float, float]:
        """β_t and the factor multiplying σ in the UCB (``√β_t`` under ``sqrt``, ``β_t`` under ``multiplies_sigma``).

        Parameters
        ----------
        t : int
            The round, from 1.
        **context
            Passed to :meth:`value`.

        Returns
        -------
        tuple of float
            ``(β_t, factor)``.
        """
        beta = self.value(t, **context)
        return beta, float(cf.ucb_multiplier(beta, self.convention))

    def to_dict(self) -> dict[str, Any]:
        """The rule as plain data, ``{"kind", "convention", **params}`` (recorded in traces)."""
        return {"kind": self.kind, "convention": self.convention, **{k: v for k, v in self.params.items()}}


def constant(beta: float, convention: str = "sqrt") -> BetaRule:
    """A constant β (the rule of kind ``constant``), e.g. for a negative control or a policy that ignores its width.

    Parameters
    ----------
    beta : float
        The β, ≥ 0.
    convention : str
        ``"sqrt"`` (μ + √β σ) or ``"multiplies_sigma"`` (μ + β σ).

    Returns
    -------
    BetaRule
        The rule.

    Examples
    --------
    >>> from tvbo_verify.authoring import constant_beta
    >>> constant_beta(4.0).multiplier(1)
    (4.0, 2.0)
    >>> constant_beta(4.0, "multiplies_sigma").multiplier(1)
    (4.0, 4.0)
    """
    check_choice("convention", convention, tuple(c.value for c in cf.Convention))
    return BetaRule("constant", {"beta": float(beta), "convention": convention})


def log_rule(c1: float = 0.8, c2: float = 4.0, *, clip: bool = True) -> BetaRule:
    """Practical ``β_t = c₁ log(c₂ t)`` (``tvgpucb`` §2; synthetic runs: ``c₁ = 0.8``, ``c₂ = 4``)."""
    return BetaRule("log", {"c1": float(c1), "c2": float(c2), "clip": bool(clip)})


def finite_domain(delta: float = 0.1) -> BetaRule:
    """``β_t = 2 log(|D| π² t² / 6δ)`` on a finite domain ``D`` (papers/tvgpucb/READING.md §3.4, derived).

    Parameters
    ----------
    delta : float
        The confidence level δ, in (0, 1).

    Returns
    -------
    BetaRule
        The rule of kind ``finite-domain``.
    """
    return BetaRule("finite-domain", {"delta": float(delta)})


def tvgpucb_theory(*, r: float = 1.0, a: float = 1.0, b: float = 1.0, delta: float = 0.1,
                   reset: bool = False) -> BetaRule:
    """``tvgpucb`` eq. (19) (or eq. (16) for R-GP-UCB, ``reset=True``) with ``T → t``."""
    return BetaRule("rgpucb" if reset else "tvgpucb",
                    {"r": float(r), "a": float(a), "b": float(b), "delta": float(delta)})


def _bound(B: float | str) -> float | str:
    return "env" if isinstance(B, str) and B == "env" else float(B)


def kirschner_krause(*, B: float | str, delta: float = 0.1, R: float | None = None,
                     lam: float | None = None) -> BetaRule:
    """``wsparq`` eq. (12) / ``sparq`` Theorem 3.1 on the current regression set (``μ + β σ``).

    ``B="env"``: the RKHS bound is taken from the environment when the run starts. ``R`` (noise sub-Gaussian
    constant) with ``lam`` (the posterior's noise variance λ) multiplies the root by ``R/√λ`` (module
    docstring); give both or neither."""
    if (R is None) != (lam is None):
        raise ValueError(f"kk beta needs both R and lam or neither, got R={R!r}, lam={lam!r}")
    extra = {} if R is None else {"R": check_nonnegative("R", R), "lam": check_positive("lam", lam)}
    return BetaRule("kk", {"B": _bound(B), "delta": float(delta), **extra})


def wgpucb_theory(*, B: float | str, R: float, lam: float, discount: float, delta: float = 0.1,
                  kbar: float = 1.0) -> BetaRule:
    """``wgpucb`` Algorithm 1 step 1 with the Hadamard bound on ``γ̄_t`` (``μ + β σ̂``); ``B="env"`` as for
    :func:`kirschner_krause`."""
    return BetaRule("wgpucb", {"B": _bound(B), "R": float(R), "lam": float(lam), "discount": float(discount),
                               "delta": float(delta), "kbar": float(kbar)})


def wdbo_practical() -> BetaRule:
    """``β = 0.2 d log(2n)`` (public W-DBO code, papers/bolt/READING.md §3.9)."""
    return BetaRule("wdbo", {})


def bolt_theory(*, L: float, delta: float = 0.1) -> BetaRule:
    """``bolt`` eq. (63) as printed, ``β_n = 2d log(L d n²/(6δ)) + 4 log(π n)`` at iteration ``n`` (``μ + √β σ``),
    the width of Lemma D.1 and Theorem 3.8; ``L`` is the Lipschitz constant of Assumption 3.4."""
    return BetaRule("bolt", {"L": float(L), "delta": float(delta)})


def igpucb_theory(*, B: float | str, R: float, delta: float = 0.1, gamma: str = "bound") -> BetaRule:
    """IGP-UCB's width ``β_t = B + R √(2(γ_{t−1} + 1 + ln(1/δ)))`` (``μ + β σ``).

    S. R. Chowdhury and A. Gopalan, "On Kernelized Multi-armed Bandits", ICML 2017, Algorithm 1 and Theorem 2
    (:func:`tvbo_verify.confidence.beta_igpucb`). The guarantee of Theorem 2 is for the posterior with regulariser
    ``λ = 1 + η``, ``η = 2/T``: run GP-UCB with the model option ``lam=1 + 2/T`` to play IGP-UCB as printed (with
    another ``λ`` the rule is evaluated with that posterior's information gain, as the other widths are).

    Parameters
    ----------
    B
        RKHS-norm bound ``B ≥ ‖f‖_k``, or ``"env"``: the environment's ``extra["rkhs_bound"]``, read at reset.
    R
        Sub-Gaussian constant of the noise (Gaussian noise of variance σ²: ``R = σ``).
    delta
        Failure probability ``δ ∈ (0, 1)``.
    gamma
        What stands for ``γ_{t−1}``:

        * ``"bound"`` (default, the printed reading): an upper bound of the maximum information gain after
          ``t − 1`` rounds on the policy's grid, with the posterior's noise variance λ — the smaller of the
          spectral and Hadamard bounds (:func:`tvbo_verify.information.grid_gain_bound`), so the width is at
          least the printed one and Theorem 2's guarantee carries over; passed by ``gp-ucb``, ``r-gp-ucb`` and
          ``tv-gp-ucb``;
        * ``"queried"``: ``½ log det(I + λ⁻¹ K_{t−1})`` of the points the policy has queried, the determinant of
          the self-normalised bound (the paper's Theorem 1) from which Theorem 2 is derived; at most ``γ_{t−1}``,
          hence a narrower band, still valid (the ``+1`` absorbs ``(t − 1) ln(1 + η)/2 ≤ 1`` for ``t ≤ T``).

    Returns
    -------
    BetaRule
        The rule of kind ``igp-ucb``.

    Examples
    --------
    >>> import math
    >>> import numpy as np
    >>> from tvbo_verify.bandits.beta import igpucb_theory
    >>> rule = igpucb_theory(B=1.0, R=0.1, delta=0.1, gamma="queried")
    >>> rule.convention, round(rule.value(1, log_det_ratio=0.0), 6)  # γ_0 = 0
    ('multiplies_sigma', 1.257005)
    >>> round(rule.value(5, log_det_ratio=4.0), 6) == round(1 + 0.1 * math.sqrt(2 * (2.0 + 1 + math.log(10))), 6)
    True
    >>> from tvbo_verify.bandits.beta import BetaRule
    >>> BetaRule("igp-ucb", {"B": 1.0, "delta": 0.1})
    Traceback (most recent call last):
    ...
    ValueError: beta rule 'igp-ucb' needs parameter 'R', which is missing; its parameters: B, R, delta; optional: ...
    """
    check_choice("gamma", gamma, IGPUCB_GAMMAS)
    return BetaRule("igp-ucb", {"B": _bound(B), "R": check_nonnegative("R", R), "delta": float(delta), "gamma": gamma})


def parse_beta(spec: str) -> BetaRule:
    """Parse ``const:V[:CONV]``, ``log:C1,C2``, ``finite:DELTA``, ``kk:B[,DELTA]``, ``wdbo``,
    ``tvgpucb[:DELTA]``, ``rgpucb[:DELTA]`` (eqs. (19)/(16) with ``r = a = b = 1``), ``bolt:L[,DELTA]``
    (``bolt`` eq. (63)) or ``igp-ucb:B,R[,DELTA][:bound|queried]`` (IGP-UCB, Chowdhury & Gopalan 2017; ``B`` may be
    ``env``).

    Used by the command line; paper defaults are chosen by the policies when no rule is given.
    """
    head, _, rest = spec.partition(":")
    try:
        if head == "const":
            value, _, conv = rest.partition(":")
            return constant(float(value), conv or "sqrt")
        if head == "log":
            c1, c2 = (float(v) for v in rest.split(","))
            return log_rule(c1, c2)
        if head == "finite":
            return finite_domain(float(rest) if rest else 0.1)
        if head == "kk":
            vals = [float(v) for v in rest.split(",")]
            return kirschner_krause(B=vals[0], delta=vals[1] if len(vals) > 1 else 0.1)
        if head == "wdbo":
            return wdbo_practical()
        if head in ("tvgpucb", "rgpucb"):
            return tvgpucb_theory(delta=float(rest) if rest else 0.1, reset=head == "rgpucb")
        if head == "bolt":
            vals = [float(v) for v in rest.split(",")]
            return bolt_theory(L=vals[0], delta=vals[1] if len(vals) > 1 else 0.1)
        if head == "igp-ucb":
            numbers, _, gamma = rest.partition(":")
            raw = numbers.split(",")
            if not 2 <= len(raw) <= 3:
                raise ValueError("not enough values")
            B: float | str = "env" if raw[0] == "env" else float(raw[0])
            return igpucb_theory(B=B, R=float(raw[1]), delta=float(raw[2]) if len(raw) > 2 else 0.1,
                                 gamma=gamma or "bound")
    except (TypeError, KeyError):
        pass
    except ValueError as exc:
        if "could not convert" not in str(exc) and "not enough values" not in str(exc) and "too many" not in str(exc):
            raise
    raise ValueError(
        "beta must be one of const:V[:sqrt|multiplies_sigma], log:C1,C2, finite:DELTA, kk:B[,DELTA], wdbo, "
        f"tvgpucb[:DELTA], rgpucb[:DELTA], bolt:L[,DELTA], igp-ucb:B,R[,DELTA][:bound|queried]; got {spec!r}"
    )
