r"""Everything a paper plugin uses, from one module: the paper record, the claim decorator and context,
the evidence builders, sweeps of runs, policies and environments and their registration, reproductions.

A package that checks the claims of its own paper imports these names only (``from tvbo_verify.authoring
import ...``); the tutorial "Checking the claims of your own paper" of this documentation (``docs/plugins.md``)
walks through writing one, and another is in the repository at ``examples/classic_controls/``. Every name below
is documented with its parameters and an example; the β rules, algorithms and environments are listed in their
tables. Numerics (kernels, GP posteriors, information gain, confidence widths) come from their public modules
(:mod:`tvbo_verify.kernels`, :mod:`tvbo_verify.gp`, :mod:`tvbo_verify.information`,
:mod:`tvbo_verify.confidence`, and ``nystrom``, ``dpp``, ``divergences``, ``theory``, ``bandits``); a plugin
imports nothing else of the claim engine.

Walk-through (every exported name in use; run as a doctest by the test suite)
-----------------------------------------------------------------------------

**Paper, register_paper** — a paper is a record with its claim list (an installed package registers it
through the entry-point group ``tvbo_verify.papers``; :func:`register_paper` does the same at run time):

>>> import pathlib, tempfile
>>> import numpy as np
>>> from tvbo_verify.authoring import *
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "claims.csv").write_text(
...     "id,paper,ref,kind,expect,title\n"
...     "demo:square,demo,Eq. (1),exact,holds,x^2 <= x on [0, 1]\n"
...     "demo:triangular,demo,Lemma 2,rate,holds,1 + 2 + ... + T is O(T^2)\n")
>>> paper = register_paper(Paper(id="demo", authors=("A. Author", "B. Author"), title="A Demo",
...                              venue="Nowhere", year=2024, claims=folder / "claims.csv"))
>>> paper.citation
'A. Author and B. Author. A Demo. Nowhere, 2024.'

**Statement, Comparison, claim, Context, Evidence, exact_evidence** — an exact claim: a statement measured
at instances (random ones, then an adversarial search), with a sharpened variant that must be caught:

>>> class SquareBelowIdentity(Statement):
...     name = "demo: x^2 <= x on [0, 1]"
...     sharpening = "bound halved"
...     continuous = ("x",)
...     bounds = {"x": (0.0, 1.0)}
...     def sample(self, rng):
...         return {"x": float(rng.uniform(0.0, 1.0))}
...     def evaluate(self, p, sharpened=False):
...         return Comparison(p["x"] ** 2, p["x"] / 2 if sharpened else p["x"], "<=")
>>> SQUARE = SquareBelowIdentity()
>>> @claim("demo:square")
... def square(ctx: Context) -> Evidence:
...     '''x^2 <= x at random x in [0, 1]; power: the bound halved must be caught.'''
...     return exact_evidence(ctx, SQUARE, n_random=ctx.pick(30, 300), n_starts=0)

**run_claim, Verdict** — run a check as ``tvbo-verify report`` and ``pytest`` do:

>>> ev = run_claim("demo:square")
>>> ev.verdict is Verdict.CONFIRMED and ev.power.caught
True

**RateMeasurement, rate_evidence** — a rate: a measurement on a ladder of sizes against x^exponent (here a
deterministic family; a measurement from runs has one row per repetition):

>>> @claim("demo:triangular")
... def triangular(ctx: Context) -> Evidence:
...     '''1 + ... + T against T^2 at T = 10, 100, 1000; power: the exponent lowered by 1/4 must be refuted.'''
...     T = np.array([10, 100, 1000])
...     m = RateMeasurement(T, [[np.arange(1, n + 1).sum() for n in T]], exponent=2.0, random=False, label="sum")
...     return rate_evidence(ctx, m, lowered_by=0.25, what="triangular numbers")
>>> ev = run_claim("demo:triangular")
>>> ev.verdict is Verdict.CONFIRMED and ev.power.caught
True

**Trials, probabilistic_evidence** — "the event holds with probability at least 1 − δ", from one score per
repetition (here: 10 times the absolute mean of 100 standard normals is at most 3, which holds with probability
0.9973):

>>> rng = np.random.default_rng(0)
>>> scores = np.abs(rng.standard_normal((400, 100)).mean(axis=1)) * 10
>>> ev = probabilistic_evidence(Context("demo:square"), [Trials({"n": 100}, scores)], target=0.95,
...                             threshold=3.0, sharpening="threshold 1", sharpened_threshold=1.0,
...                             what="a z-score")
>>> ev.verdict.value
'confirmed'

**Property, properties_evidence, ingredient_evidence** — named properties, each decided on its own:

>>> one = Property.compare("1 + 1 = 2", Comparison(1 + 1, 2, "==", tol=1e-12),
...                        sharpened=Comparison(1 + 1, 3, "==", tol=1e-12))
>>> properties_evidence(Context("demo:square"), [one], what="arithmetic").verdict.value
'confirmed'
>>> ingredient_evidence(Context("demo:square"), [one], what="arithmetic").verdict.value
'confirmed'

**Policy, Problem, BetaRule, constant_beta, register_policy, make_policy** — a policy of one's own, under a
name that sweeps, ``tvbo-verify run`` and the run cache know (a policy takes a β_t rule; this one ignores it):

>>> class FirstArm(Policy):
...     '''Always the first arm of the grid (a negative control).'''
...     name = "demo-first-arm"
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
>>> register_policy("demo-first-arm", FirstArm)
>>> make_policy("demo-first-arm").name
'demo-first-arm'
>>> Problem(np.zeros((3, 1)), GramKernel(np.eye(3)), 1.0, horizon=10).G
3
>>> isinstance(make_policy("demo-first-arm").beta, BetaRule)
True

**Environment, GramKernel, register_environment, make_env** — an environment of one's own:

>>> class TwoArms(Environment):
...     '''Two arms with means 0 and -gap, Gaussian noise of variance 1.'''
...     name = "demo-two-arms"
...     def __init__(self, gap=0.5):
...         super().__init__()
...         self.gap, self.grid = gap, np.array([[0.0], [1.0]])
...         self.kernel, self.noise_var = GramKernel(np.eye(2)), 1.0
...     def _draw(self, rng):
...         pass
...     def _values(self):
...         return np.array([0.0, -self.gap])
>>> register_environment("demo-two-arms", TwoArms)
>>> make_env("demo-two-arms", {"gap": 0.25}).gap
0.25

**Arm, Sweep, run_sweep, RunCache** — runs as data, cached by content (a check passes ``ctx.cache`` and
``ctx.executor``):

>>> sweep = Sweep("demo", (Arm("first", "demo-first-arm"), Arm("random", "random")), "demo-two-arms",
...               horizons=(10, 100), reps=3, env_params={"gap": 0.5})
>>> result = run_sweep(sweep, cache=RunCache(None))
>>> result.final("first").tolist()  # the second arm is never played: no regret
[0.0, 0.0, 0.0]
>>> bool(np.all(result.final("random", T=100) > 0))
True

**Reproduction, Finding, register_reproduction** — a figure of the paper, reproduced from sweeps
(``tvbo-verify reproduce``; the report shows it on the paper's page):

>>> def plan(fidelity):
...     return {"main": sweep}
>>> def analyse(results, rng):
...     return Finding("the fixed arm has no regret", {"first": results["main"].final("first").tolist()})
>>> def draw(results, finding):
...     import matplotlib.pyplot as plt
...     return plt.figure()
>>> rep = register_reproduction(Reproduction("demo:figure-1", "demo", "Figure 1", setup="two arms",
...                                          expected="no regret for arm 1", sweeps=plan, analyse=analyse,
...                                          figure=draw))
>>> rep.runs("quick")
12

Clean-up of this walk-through (a plugin keeps its registrations):

>>> from tvbo_verify.papers import unregister_paper
>>> unregister_paper("demo")
"""

from __future__ import annotations

from typing import Callable

from .bandits.beta import BetaRule
from .bandits.beta import constant as constant_beta
from .bandits.environments.base import Environment, GramKernel
from .bandits.policy import Policy, Problem
from .bandits.registry import make_env, make_policy, register_algorithm
from .bandits.registry import register_environment as _register_environment
from .blas import single_threaded_blas
from .fidelity import FIDELITIES, pick
from .jsonify import to_jsonable
from .papers import Paper, register_paper
from .style import FIGURE_WIDTH
from .sweeps import Arm, RunCache, Sweep, SweepResult, run_sweep
from .sweeps.audit import run_audited_sweep
from .sweeps.reproduce import (
    Finding,
    Overlay,
    Reproduction,
    compare,
    final_table,
    get_reproduction,
    ordering,
    panel_figure,
    regret_axes,
    regret_figure,
    within_run_slope,
)
from .sweeps.reproduce import register as _register_reproduction
from .sweeps.reproduce.constants import (
    MEMORY_SCALES,
    FreeConstant,
    Part,
    UnfairSetting,
    all_of,
    any_of,
    memory_constant,
    ordering_part,
    ratio_part,
    set_bound,
    set_env_param,
    set_noise_variance,
    set_param,
    set_width_constant,
    slope_part,
)
from .sweeps.reproduce.figures import one_line
from .sweeps.reproduce.sequential import SequentialPart
from .sweeps.results import bootstrap_mean_ci
from .sweeps.run_audit import PlayedRun, RunAuditFailure, audit_played_runs, play_audited, play_recorded
from .verify.builders import (
    BoundCurve,
    Horizon,
    Property,
    RateMeasurement,
    SampleRange,
    Trials,
    affine_score,
    anytime_trials,
    combine,
    comparison_control,
    cost_to_reach,
    earliest_horizon,
    exact_evidence,
    experiment_evidence,
    horizon_figure,
    horizon_record,
    ingredient_evidence,
    non_vacuity_horizon,
    on_analogue_data,
    ordering_property,
    probabilistic_evidence,
    properties_evidence,
    rate_evidence,
    rate_horizons,
    ratio_bound_power,
    sample_range,
    searched_instance_evidence,
    sensitivity_evidence,
    sequential_rate_evidence,
    tracking_text,
    unshipped_data,
    with_horizon,
)
from .verify.builders.experiment import reproduction_outcome
from .verify.comparison import Comparison
from .verify.engine import Context, run_claim
from .verify.evidence import Control, Evidence, Power, Verdict
from .verify.registry import claim
from .verify.statement import Params, Statement
from .verify.stats import (
    bootstrap_slope_ci,
    claim_power,
    decide_rate,
    loglog_slope,
    polylog_allowance,
    rate_power,
    rate_resolution,
)

__all__ = [
    # --- the essentials, each shown in the walk-through above ---
    # papers
    "Paper", "register_paper",
    # claims and their evidence
    "claim", "Context", "Evidence", "Verdict", "run_claim",
    "Statement", "Comparison", "exact_evidence",
    "RateMeasurement", "rate_evidence",
    "Trials", "probabilistic_evidence",
    "Property", "properties_evidence", "ingredient_evidence",
    # runs
    "Arm", "Sweep", "run_sweep", "RunCache",
    "Policy", "Problem", "BetaRule", "constant_beta", "register_policy", "make_policy",
    "Environment", "GramKernel", "register_environment", "make_env",
    # reproductions of figures
    "Reproduction", "Finding", "register_reproduction",
    # --- what a paper with run-based claims and figures of its own uses (the papers this package ships use
    # nothing else of the claim engine) ---
    # evidence: parts, powers, controls and the deciding statistics
    "Params", "Power", "Control", "combine", "affine_score", "anytime_trials", "comparison_control",
    "ratio_bound_power",
    "ordering_property", "tracking_text", "rate_horizons", "sequential_rate_evidence", "claim_power",
    "rate_power", "rate_resolution", "decide_rate", "loglog_slope", "bootstrap_slope_ci", "polylog_allowance",
    # runs audited against their definitions, and their results
    "run_audited_sweep", "PlayedRun", "play_recorded", "play_audited", "audit_played_runs", "RunAuditFailure",
    "SweepResult",
    "bootstrap_mean_ci", "single_threaded_blas", "to_jsonable", "FIDELITIES",
    "pick",
    # experiments: reproductions decided over the constants a paper leaves open
    "experiment_evidence", "sensitivity_evidence", "reproduction_outcome", "on_analogue_data", "unshipped_data",
    "get_reproduction", "FreeConstant", "UnfairSetting", "MEMORY_SCALES", "memory_constant", "set_param",
    "set_bound", "set_env_param", "set_noise_variance", "set_width_constant", "Part", "ordering_part", "ratio_part",
    "slope_part", "all_of", "any_of", "SequentialPart", "compare", "final_table", "ordering", "within_run_slope",
    # where a regret bound says something: its non-vacuity horizon on its earliest admissible instance
    "BoundCurve", "Horizon", "non_vacuity_horizon", "earliest_horizon", "horizon_figure", "cost_to_reach",
    "horizon_record",
    "SampleRange", "sample_range", "searched_instance_evidence", "with_horizon",
    # figures
    "FIGURE_WIDTH", "Overlay", "one_line", "panel_figure", "regret_axes", "regret_figure",
]


def register_policy(name: str, factory: Callable[..., Policy]) -> None:
    """Make a policy known under ``name`` to sweeps, the run cache and ``tvbo-verify run``.

    Parameters
    ----------
    name
        The algorithm name an :class:`Arm` uses; a name taken by another policy (e.g. the built-in
        ``"random"``) is refused with ``ValueError``, registering the same class again is harmless.
    factory
        A :class:`Policy` subclass (or a function returning a policy) taking the arm's parameters as keyword
        arguments. Its source file is part of the cache key of its runs: editing it reruns them.

    Notes
    -----
    Call it at import of the module holding the paper's claims (a name the paper's record lists): worker
    processes started afresh import those modules when they meet an unknown name.

    Examples
    --------
    >>> from tvbo_verify.authoring import register_policy, make_policy
    >>> from tvbo_verify.bandits.policy import RandomPolicy
    >>> register_policy("random", RandomPolicy)  # the same factory again: nothing changes
    >>> register_policy("random", lambda: None)
    Traceback (most recent call last):
    ...
    ValueError: algorithm name 'random' is taken by tvbo_verify.bandits.policy.RandomPolicy; choose another name
    """
    register_algorithm(name, factory)


def register_environment(name: str, factory: Callable[..., Environment]) -> None:
    """Make an environment known under ``name`` to sweeps, the run cache and ``tvbo-verify run``.

    Parameters
    ----------
    name
        The environment name a :class:`Sweep` uses; a name taken by another environment is refused with
        ``ValueError``.
    factory
        An :class:`Environment` subclass (or a function returning one) taking the sweep's ``env_params`` as
        keyword arguments.

    Examples
    --------
    >>> from tvbo_verify.authoring import register_environment
    >>> register_environment("seattle-temps", lambda **kw: None)
    Traceback (most recent call last):
    ...
    ValueError: environment name 'seattle-temps' is taken by tvbo_verify.bandits.registry.<lambda>; choose another name
    """
    _register_environment(name, factory)


def register_reproduction(reproduction: Reproduction) -> Reproduction:
    """Register a reproduction of one of a paper's figures (``tvbo-verify reproduce``, the report).

    Parameters
    ----------
    reproduction
        Its ``paper`` must be a registered paper id; its ``id`` conventionally starts with ``<paper>:``.

    Returns
    -------
    Reproduction
        ``reproduction`` itself, registered.

    Examples
    --------
    >>> from tvbo_verify.authoring import Reproduction, register_reproduction
    >>> register_reproduction(Reproduction("x:fig", "nope", "t", setup="", expected="", sweeps=dict,
    ...                                    analyse=None, figure=None))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: paper must be one of bolt, ..., got 'nope'
    """
    from .papers import get_paper

    get_paper(reproduction.paper)
    return _register_reproduction(reproduction)

