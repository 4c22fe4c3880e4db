"""Counterexample search for exact statements ``lhs(p) <= rhs(p)``.

Three stages (ARCHITECTURE.md, "Counterexample search"): random instances; adversarial
minimisation of the relative margin over the continuous instance parameters (scipy.optimize,
Nelder–Mead from the worst random instances); shrinking of a confirmed violation to a smaller
instance that still breaks the statement (each candidate refereed in mpmath). The decision itself
is :func:`tvbo_verify.verify.stats.decide_exact`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import numpy as np
from scipy import optimize

from .engine import Context
from .evidence import Evidence, Power, Verdict, jsonable
from .registry import ReplayResult
from .stats import DEFAULT_POLICY, ExactDecision, HighPrecision, Instance, TolerancePolicy, decide_exact, exact_power, referee

Params = dict[str, Any]


@dataclass
class Statement:
    """An inequality over instances, with what the search and the referee need.

    * ``evaluate(p) -> (lhs, rhs)``, ``(lhs, rhs, cond)`` or ``(lhs, rhs, cond, scale)`` in float64
      (``cond``: condition number of the instance; ``scale``: natural magnitude of its terms).
    * ``sample(rng) -> p`` draws a random instance (a dict of JSON values).
    * ``hp(p) -> (lhs, rhs)`` evaluates in mpmath (called inside ``mpmath.workdps``).
    * ``sharpen(p, lhs, rhs) -> (lhs', rhs')`` a deliberately stronger (false) variant; default
      divides the bound: ``rhs' = rhs - (1 - 1/factor)|rhs|``.
    * ``continuous``: names of float (or list-of-float) parameters the optimiser may move, each
      with ``bounds[name] = (low, high)``.
    * ``shrink(p)``: smaller candidate instances, tried in order.
    * ``describe(p)``: the columns shown in the instances table (default: scalar parameters).
    """

    name: str
    evaluate: Callable[[Params], tuple]
    sample: Callable[[np.random.Generator], Params]
    hp: HighPrecision | None = None
    sharpen: Callable[[Params, float, float], tuple[float, float]] | None = None
    sharpen_factor: float = 2.0
    sharpening: str = ""
    continuous: tuple[str, ...] = ()
    bounds: dict[str, tuple[float, float]] = field(default_factory=dict)
    shrink: Callable[[Params], Iterable[Params]] | None = None
    describe: Callable[[Params], dict[str, Any]] | None = None

    def instance(self, p: Params) -> Instance:
        out = self.evaluate(p)
        lhs, rhs = float(out[0]), float(out[1])
        cond = float(out[2]) if len(out) > 2 else 1.0
        scale = float(out[3]) if len(out) > 3 else 0.0
        return Instance(p, lhs, rhs, cond, scale)

    def sharpened(self, inst: Instance) -> Instance:
        if self.sharpen is not None:
            lhs, rhs = self.sharpen(inst.params, inst.lhs, inst.rhs)
        else:
            lhs, rhs = inst.lhs, inst.rhs - (1.0 - 1.0 / self.sharpen_factor) * abs(inst.rhs)
        return Instance(inst.params, float(lhs), float(rhs), inst.cond, inst.scale)

    @property
    def sharpening_text(self) -> str:
        return self.sharpening or f"bound divided by {self.sharpen_factor:g}"

    def row(self, inst: Instance) -> dict[str, Any]:
        if self.describe is not None:
            shown = self.describe(inst.params)
        else:
            shown = {k: v for k, v in inst.params.items() if isinstance(v, (int, float, str, bool))}
        return jsonable({**shown, "lhs": inst.lhs, "rhs": inst.rhs, "margin": inst.margin})

    def replay(self, p: Params, policy: TolerancePolicy = DEFAULT_POLICY) -> ReplayResult:
        """Re-evaluate ``p`` in float64 and, when possible, in mpmath."""
        inst = self.instance(p)
        hp_margin = None
        if self.hp is not None:
            m, broken = referee(p, self.hp, policy, inst.scale)
            hp_margin = float(m)
            violated = broken
        else:
            violated = inst.margin < -inst.tolerance(policy)
        return ReplayResult(inst.lhs, inst.rhs, inst.margin, hp_margin, bool(violated),
                            f"{self.name}: lhs {inst.lhs:.6g}, rhs {inst.rhs:.6g}")


def _relative(inst: Instance) -> float:
    m = inst.relative
    return m if math.isfinite(m) else math.inf


def _encode(st: Statement, p: Params) -> np.ndarray:
    return np.concatenate([np.atleast_1d(np.asarray(p[k], float)).ravel() for k in st.continuous])


def _decode(st: Statement, template: Params, x: np.ndarray) -> Params:
    p = dict(template)
    i = 0
    for k in st.continuous:
        shape = np.shape(template[k])
        n = int(np.prod(shape)) if shape else 1
        lo, hi = st.bounds.get(k, (-np.inf, np.inf))
        v = np.clip(x[i:i + n], lo, hi)
        p[k] = float(v[0]) if not shape else v.reshape(shape).tolist()
        i += n
    return p


def adversarial(st: Statement, starts: list[Instance], *, maxfev: int = 200) -> list[Instance]:
    """Minimise the relative margin from each start with Nelder–Mead; return the best points found."""
    found = []
    for start in starts:
        best: list[Instance] = [start]

        def objective(x: np.ndarray, template: Params = start.params) -> float:
            try:
                inst = st.instance(_decode(st, template, x))
            except (ValueError, ArithmeticError, np.linalg.LinAlgError):
                return math.inf
            if _relative(inst) < _relative(best[0]):
                best[0] = inst
            return _relative(inst)

        x0 = _encode(st, start.params)
        optimize.minimize(objective, x0, method="Nelder-Mead",
                          options={"maxfev": maxfev, "xatol": 1e-10, "fatol": 1e-14})
        found.append(best[0])
    return found


def shrink_violation(st: Statement, ce: Instance, policy: TolerancePolicy, *, max_steps: int = 40) -> Instance:
    """Greedily replace ``ce`` by the first shrink candidate that is still a refereed violation."""
    if st.shrink is None or st.hp is None:
        return ce
    for _ in range(max_steps):
        for cand in st.shrink(ce.params):
            try:
                inst = st.instance(cand)
            except (ValueError, ArithmeticError, np.linalg.LinAlgError):
                continue
            if inst.margin < -inst.tolerance(policy) and referee(cand, st.hp, policy, inst.scale)[1]:
                ce = inst
                break
        else:
            return ce
    return ce


@dataclass
class SearchResult:
    instances: list[Instance]
    decision: ExactDecision
    counterexample: Instance | None
    power: Power


def search(
    st: Statement,
    rng: np.random.Generator,
    *,
    n_random: int,
    n_starts: int = 3,
    maxfev: int = 200,
    extra: Iterable[Params] = (),
    policy: TolerancePolicy = DEFAULT_POLICY,
) -> SearchResult:
    """Random instances (plus ``extra`` fixed ones), adversarial refinement, decision, shrinking, power."""
    instances = [st.instance(p) for p in extra]
    invalid = 0
    for _ in range(n_random):
        p = st.sample(rng)
        try:
            instances.append(st.instance(p))
        except (ValueError, ArithmeticError, np.linalg.LinAlgError):
            invalid += 1  # a random instance outside the domain of the numerics; counted, not fatal
    if st.continuous and n_starts > 0:
        starts = sorted(instances, key=_relative)[:n_starts]
        instances += adversarial(st, starts, maxfev=maxfev)
    decision = decide_exact(instances, st.hp, policy)
    if invalid:
        decision.notes.append(f"{invalid} random instance(s) rejected by input validation")
    ce = decision.counterexample
    if ce is not None:
        ce = shrink_violation(st, ce, policy)
    power = exact_power(st.sharpening_text, [st.sharpened(i) for i in instances], policy)
    return SearchResult(instances, decision, ce, power)


def counterexample_json(claim_id: str, st: Statement, ce: Instance, policy: TolerancePolicy = DEFAULT_POLICY) -> dict[str, Any]:
    """The stored form of a violation: what ``tvbo-verify replay`` reads back."""
    hp_margin = None
    if st.hp is not None:
        hp_margin = float(referee(ce.params, st.hp, policy, ce.scale)[0])
    return jsonable({
        "claim": claim_id,
        "statement": st.name,
        "instance": ce.params,
        "lhs": ce.lhs,
        "rhs": ce.rhs,
        "margin": ce.margin,
        "hp_margin": hp_margin,
        "mp_digits": policy.mp_digits,
    })


def exact_evidence(
    ctx: Context,
    st: Statement,
    *,
    n_random: int,
    n_starts: int = 3,
    maxfev: int = 200,
    extra: Iterable[Params] = (),
    table_rows: int = 12,
    what: str = "",
) -> Evidence:
    """Run :func:`search` and package the outcome as :class:`Evidence` (worst rows first)."""
    res = search(st, ctx.rng, n_random=n_random, n_starts=n_starts, maxfev=maxfev, extra=extra, policy=ctx.tolerance)
    d = res.decision
    ordered = sorted(res.instances, key=_relative)
    worst = ordered[0] if ordered else None
    n = len(res.instances)
    ce_json = counterexample_json(ctx.claim_id, st, res.counterexample, ctx.tolerance) if res.counterexample else None
    what = what or st.name
    if d.verdict is Verdict.VIOLATED:
        c = res.counterexample
        summary = (f"{what}: broken — among {n} instances, one (shrunk) has lhs {c.lhs:.6g} > rhs {c.rhs:.6g}, "
                   f"confirmed at {ctx.tolerance.mp_digits} digits.")
    elif d.verdict is Verdict.CONFIRMED:
        summary = f"{what}: holds at all {n} instances; worst relative margin {_relative(worst):.3g}."
        if d.notes:
            summary += " " + "; ".join(d.notes) + "."
    else:
        summary = f"{what}: undecided on {n} instances ({'; '.join(d.notes)})."
    return Evidence(
        d.verdict,
        summary,
        instances=[st.row(i) for i in ordered[:table_rows]],
        margin=(res.counterexample.margin if res.counterexample else (worst.margin if worst else None)),
        counterexample=ce_json,
        stats={"n": n, **d.stats(), "worst_relative_margin": _relative(worst) if worst else None},
        power=res.power,
    )


def replay_statement(st: Statement) -> Callable[[Params], ReplayResult]:
    """A replay function for claims whose check is a :class:`Statement` search."""
    return lambda p: st.replay(p)
