"""Counterexample search for exact statements (docs/ARCHITECTURE.md §7).

Three stages: random instances (plus fixed ``extra`` ones); adversarial minimisation of the relative
margin over the statement's continuous parameters (scipy.optimize, Nelder–Mead from the worst
random instances); shrinking of a refereed violation to a smaller instance that still breaks the
statement (each candidate refereed in mpmath). The decision itself is
:func:`tvbo_verify.verify.stats.decide_exact`; the power is the sharpened statement evaluated on
every instance (:meth:`Statement.sharpened`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np
from scipy import optimize

from .evidence import Power, Verdict
from .statement import Params, Statement
from .stats import DEFAULT_POLICY, ExactDecision, Instance, TolerancePolicy, decide_exact, exact_power, referee

#: what an instance outside the domain of the numerics raises (counted, never fatal)
INVALID = (ValueError, ArithmeticError, np.linalg.LinAlgError)


def relative_margin(inst: Instance) -> float:
    """The instance's relative margin, +inf when undefined (so it never looks like a break)."""
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
    """Minimise the relative margin from each start with Nelder–Mead; return the best point of each."""
    found = []
    for start in starts:
        best: list[Instance] = [start]

        def objective(x: np.ndarray, template: Params = start.params) -> float:
            try:
                inst = st.instance(_decode(st, template, x))
            except INVALID:
                return math.inf
            if relative_margin(inst) < relative_margin(best[0]):
                best[0] = inst
            return relative_margin(inst)

        optimize.minimize(objective, _encode(st, start.params), method="Nelder-Mead",
                          options={"maxfev": maxfev, "xatol": 1e-10, "fatol": 1e-14})
        found.append(best[0])
    return found


def shrink_violation(st: Statement, ce: Instance, policy: TolerancePolicy, *, max_steps: int = 40) -> Instance:
    """Greedily replace ``ce`` by the first shrink candidate that is still a refereed violation."""
    if st.hp is None:
        return ce
    for _ in range(max_steps):
        for cand in st.shrink(ce.params):
            try:
                inst = st.instance(cand)
            except INVALID:
                continue
            if inst.broken(policy) and referee(cand, st.hp, policy, inst.scale)[1]:
                ce = inst
                break
        else:
            return ce
    return ce


def sharpened_power(st: Statement, instances: Iterable[Instance], policy: TolerancePolicy) -> Power | None:
    """Evaluate the sharpened statement on every instance (and on ``st.sharpened_extra``).

    None when the statement declares no sharpening. Raises
    :class:`~tvbo_verify.verify.comparison.SharpeningError` when the variant is no evidence of power.
    """
    if not st.sharpening:
        return None
    pairs: list[tuple[Instance | None, Instance]] = [(i, st.sharpened(i)) for i in instances]
    widened = [(None, st.instance(p, sharpened=True)) for p in st.sharpened_extra]
    power = exact_power(st.sharpening, pairs + widened, policy)
    if widened:
        power.detail += f" ({len(widened)} of them admitted only by the sharpened statement)"
    return power


@dataclass
class SearchResult:
    instances: list[Instance]
    decision: ExactDecision
    counterexample: Instance | None
    power: Power | None
    invalid: int = 0
    n_fixed: int = 0
    shrunk: bool = False

    def breaks(self, policy: TolerancePolicy) -> dict[str, int]:
        """Float breaks among the fixed instances and among those the search found on its own."""
        fixed, searched = self.instances[:self.n_fixed], self.instances[self.n_fixed:]
        return {"fixed_instances": self.n_fixed,
                "float_breaks_at_fixed_instances": sum(i.broken(policy) for i in fixed),
                "searched_instances": len(searched),
                "float_breaks_found_by_search": sum(i.broken(policy) for i in searched)}


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
    """Fixed and random instances, adversarial refinement, decision, shrinking and power."""
    instances = [st.instance(p) for p in extra]
    n_fixed = len(instances)
    invalid = 0
    for _ in range(n_random):
        p = st.sample(rng)
        try:
            instances.append(st.instance(p))
        except INVALID:
            invalid += 1
    found: list[Instance] = []
    if st.continuous and n_starts > 0 and instances:
        starts = sorted(instances, key=relative_margin)[:n_starts]
        found = adversarial(st, starts, maxfev=maxfev)
        instances += found
    decision = decide_exact(instances, st.hp, policy)
    if invalid:
        decision.notes.append(f"{invalid} random instance(s) rejected by input validation")
    ce = decision.counterexample
    if ce is not None:
        ce = shrink_violation(st, ce, policy)
    power = sharpened_power(st, instances, policy)
    if decision.verdict is Verdict.VIOLATED and (power is None or not power.caught) and st.corrected is not None:
        power = contrast_power(st, instances, policy)
    return SearchResult(instances, decision, ce, power, invalid, n_fixed, ce is not decision.counterexample)


def contrast_power(st: Statement, instances: Iterable[Instance], policy: TolerancePolicy) -> Power:
    """The power of a violation from the corrected statement (its positive contrast): at the instances where the
    printed statement breaks, the corrected one holds at every one of them (and at every other instance), so the
    same measurement tells the true statement from the false one. One rule for every builder: a violation has power
    when its check caught a sharpening where the statement holds, or when its corrected form holds where it
    breaks."""
    assert st.corrected is not None
    broken = [i for i in instances if i.broken(policy)]
    held = 0
    for inst in instances:
        c = st.corrected(inst.params)
        ok = not Instance(inst.params, c).broken(policy)
        if not ok:
            return Power("positive contrast: the corrected statement", False,
                         f"the corrected statement breaks too at {st._short(inst.params)}")
        held += any(inst is b for b in broken)
    return Power("positive contrast: the corrected statement", bool(held),
                 f"the corrected statement holds at all {len(broken)} instances where the printed one breaks "
                 f"(and at every other instance)")


def counterexample_json(claim_id: str, st: Statement, ce: Instance,
                        policy: TolerancePolicy = DEFAULT_POLICY) -> dict[str, Any]:
    """The stored form of a violation: what ``tvbo-verify replay`` reads back (every chosen variable in it)."""
    from ..jsonify import to_jsonable

    hp_margin = None
    if st.hp is not None:
        hp_margin = float(referee(ce.params, st.hp, policy, ce.scale)[0])
    c = ce.comparison
    return to_jsonable({
        "claim": claim_id,
        "kind": "exact",
        "statement": st.name,
        "instance": ce.params,
        "measured": c.value,
        "stated": c.bound,
        "sense": c.sense,
        "lhs": ce.lhs,
        "rhs": ce.rhs,
        "margin": ce.margin,
        "hp_margin": hp_margin,
        "mp_digits": policy.mp_digits,
    })
