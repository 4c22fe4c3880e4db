"""Evidence of an exact claim: search a :class:`~tvbo_verify.verify.statement.Statement`, decide, package."""

from __future__ import annotations

from typing import Any, Iterable

import mpmath

from ..comparison import comparison_text
from ..engine import Context
from ..evidence import Evidence, Verdict
from ..search import SearchResult, counterexample_json, relative_margin, search
from ..statement import Params, Statement
from ..stats import Instance, TolerancePolicy


def _side(value: float, hp_value: Any, tol: float) -> str:
    """A float side, or its refereed value when the float one is below float resolution."""
    if hp_value is not None and value != 0 and abs(value) <= tol:
        return f"{mpmath.nstr(hp_value, 6)} (at 50 digits; float64 {value:.3g} is rounding noise)"
    return f"{value:.6g}"


def _describe_worst(st: Statement, worst: Instance, policy: TolerancePolicy) -> str:
    """'measured X ≤ stated Y: holds' or 'measured X > stated Y: breaks ≤' for the worst instance (or the
    counterexample), printing refereed values where floats are noise."""
    c = worst.comparison
    tol = worst.tolerance(policy)
    hp_c = None
    noise = [v for v in (float(c.value), float(c.bound)) if v != 0 and abs(v) <= tol]
    if st.hp is not None and noise:
        with mpmath.workdps(policy.mp_digits):
            hp_c = st.hp(worst.params)
    hv = hp_c.value if hp_c is not None else None
    hb = hp_c.bound if hp_c is not None else None
    return comparison_text(float(c.value), c.sense, float(c.bound), broken=worst.broken(policy),
                           value_text=_side(float(c.value), hv, tol), bound_text=_side(float(c.bound), hb, tol))


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
    """Decide an exact claim: search a :class:`Statement` for a violation and decide by the exact rule.

    The statement is measured at random instances, at ``extra`` fixed ones, then by an adversarial search over
    its ``continuous`` parameters; a float violation counts once its mpmath twin confirms it, and is shrunk. The
    power is whether the sharpened statement was caught where the statement holds.

    Parameters
    ----------
    ctx : Context
        The check's context (its ``rng``).
    st : Statement
        The statement.
    n_random : int
        Random instances (``ctx.pick(quick, full)``).
    n_starts : int
        Starts of the adversarial search (0: none).
    maxfev : int
        Evaluations per start.
    extra : iterable of Params
        Fixed instances measured besides.
    table_rows : int
        Rows of the instance table (worst first).
    what : str
        What the claim measures (the summary's subject; default: the statement's name).

    Returns
    -------
    Evidence
        Confirmed, violated with a counterexample, or inconclusive; with its power.

    Examples
    --------
    >>> from tvbo_verify.authoring import Context, RunCache
    >>> ctx = Context("doc:example", cache=RunCache(None))
    >>> from tvbo_verify.authoring import Comparison, Statement, exact_evidence
    >>> st = Statement(name="doc: x^2 <= x", sharpening="bound halved",
    ...                sample=lambda rng: {"x": float(rng.uniform(0, 1))},
    ...                evaluate=lambda p, sharpened=False: Comparison(p["x"] ** 2, p["x"] / (2 if sharpened else 1)))
    >>> ev = exact_evidence(ctx, st, n_random=30, n_starts=0)
    >>> ev.verdict.value, ev.power.caught
    ('confirmed', True)
    """
    res: SearchResult = search(st, ctx.rng, n_random=n_random, n_starts=n_starts, maxfev=maxfev, extra=extra,
                               policy=ctx.tolerance)
    d = res.decision
    ordered = sorted(res.instances, key=relative_margin)
    worst = ordered[0] if ordered else None
    n = len(res.instances)
    what = what or st.name
    ce = res.counterexample
    breaks = res.breaks(ctx.tolerance)
    label = "shrunk counterexample" if res.shrunk else "counterexample"
    if d.verdict is Verdict.VIOLATED and ce is not None:
        own = breaks["float_breaks_found_by_search"]
        summary = (f"{what}: broken — among {n} instances ({own} break(s) found by the search itself), the "
                   f"{label} has {_describe_worst(st, ce, ctx.tolerance)}, confirmed at "
                   f"{ctx.tolerance.mp_digits} digits.")
    elif d.verdict is Verdict.CONFIRMED and worst is not None:
        summary = (f"{what}: holds at all {n} instances; worst relative margin {relative_margin(worst):.3g} "
                   f"({_describe_worst(st, worst, ctx.tolerance)}).")
        if d.notes:
            summary += " " + "; ".join(d.notes) + "."
    else:
        summary = f"{what}: undecided on {n} instances ({'; '.join(d.notes) or 'no decision'})."
    ev_figure = _figure_factory(st, res, ctx)
    rows = [st.row(i) for i in ordered[:table_rows]]
    if ce is not None:
        rows.insert(0, {**st.row(ce), "note": label})
    margin_of = label if ce is not None else "worst instance"
    return Evidence(
        d.verdict,
        summary,
        instances=rows,
        margin=(ce.margin if ce is not None else (worst.margin if worst is not None else None)),
        counterexample=counterexample_json(ctx.claim_id, st, ce, ctx.tolerance) if ce is not None else None,
        stats={"n": n, **d.stats(), **breaks, "invalid_random_instances": res.invalid, "margin_of": margin_of,
               "worst_relative_margin": relative_margin(worst) if worst is not None else None,
               "statement": st.name},
        power=res.power,
        figures=[(f"margin of {what}", ev_figure)],
    )


def _figure_factory(st: Statement, res: SearchResult, ctx: Context):
    """The margin of every instance (and of the sharpened statement) against ``st.plot_against``."""
    insts = res.instances
    key = st.plot_against
    xs = [i.params.get(key, k) if key else k for k, i in enumerate(insts)]
    margins = [i.relative for i in insts]
    broken = [i.broken(ctx.tolerance) for i in insts]
    sharp = None
    if st.sharpening:
        sharp = []
        for i in insts:
            s = st.instance(i.params, sharpened=True)
            sharp.append(s.margin / max(abs(s.lhs), abs(s.rhs), i.comparison.as_float().magnitude))
    ce = res.counterexample
    ce_point = None
    if ce is not None:
        ce_point = (ce.params.get(key, 0) if key else 0, ce.relative)

    def factory():
        from .figures import margin_figure

        return margin_figure(xs, margins, broken, sharp, xlabel=key or "instance (search order)",
                             counterexample=ce_point,
                             title=st.name)

    return factory

