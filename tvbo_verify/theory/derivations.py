"""Symbolic derivations (sympy) of the optimisers and exponents that the catalogs flag.

Each derivation starts from the objective the paper optimises, solves it with sympy, and compares the
result with what the paper prints. Nothing here is copied from the papers' conclusions: the printed
forms appear only as the statement being checked.

* ``wsparq-L-star``: minimiser of ``F(L) = L^{-α} + 4L/T`` (Proof 5.4 step 4); printed
  ``(α/8)^{1/(α+1)} T^{1/(α+1)}``.
* ``wsparq-T0``: the horizon from which ``L* <= T/2``; printed ``2^{1-2/α} α^{1/α}``.
* ``wsparq-F-exponent``: exponent of ``F(L*)`` in ``T``.
* ``wsparq-n-windows``: exponent of ``n(T)`` from the integral comparison of Proof 3.11 step 4.
* ``wsparq-regret-exponent``: exponent of the square-root form of (34) (Table 2) and the no-regret range.
* ``wsparq-VT``: leading constant of ``V_T`` (§2.2.2); printed 1.
* ``wsparq-query-gap``: gap between the W-SparQ query exponent and the Theorem 5.3 threshold (Remark 5.5).
* ``tvgpucb-61``: maximiser of ``Σ log(1+Δ_i)`` under ``Σ Δ_i² <= N⁴ε²`` (eq. (61)); printed ``N²ε``.
* ``tvgpucb-cor41-*``: block-length exponents and rate exponents of Corollary 4.1 (SE / Matérn,
  R-GP-UCB / TV-GP-UCB) and, with the corrected ``Ñ^{5/2}ε`` term, the TV exponent it would give.
* ``wgpucb-cor5``: discount that balances the first two regret terms (Lemma 22) and the regret exponent.
* ``bolt-eps-c-derivative``: ``∂ε_c/∂σ_c = φ(L√d/σ_c)`` (monotonicity used in Lemma C.4).

:func:`derivations` returns all of them; each has sympy expressions, a LaTeX string and whether the
printed form agrees with the derived one.

sympy takes seconds for these derivations, so their results are kept in a disk cache
(:func:`cache_dir`: ``$TVBO_VERIFY_CACHE``, else ``$XDG_CACHE_HOME/tvbo_verify``, else
``~/.cache/tvbo_verify``), one pickle per derivation keyed by the sympy version and a hash of this
module's source: a process derives each expression at most once per installation, and a change of
sympy or of a derivation recomputes it. An unreadable or unwritable cache is ignored (derived anew).
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import sympy as sp

if TYPE_CHECKING:
    import mpmath

__all__ = [
    "Derivation", "cache_dir", "cache_path", "disk_cached", "l_star_derivation", "t0_derivation", "derivations",
    "derivations_report", "derivation", "derived_functions", "l_star_function", "t0_function", "l_star_function_mp",
    "t0_function_mp",
]

alpha, T, L, eps, N, c, at = sp.symbols("alpha T L epsilon N c alpha_tilde", positive=True)


@dataclass(frozen=True)
class Derivation:
    """One symbolic derivation: the objective, the derived result and the printed one (if any)."""

    name: str
    ref: str
    statement: str
    objective: sp.Expr | None
    derived: sp.Expr
    printed: sp.Expr | None
    symbols: tuple[sp.Symbol, ...]
    steps: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    @property
    def agrees(self) -> bool | None:
        """Whether the printed form equals the derived one (``None`` if the paper prints nothing)."""
        if self.printed is None:
            return None
        return bool(sp.simplify(self.printed - self.derived) == 0)

    @property
    def latex(self) -> str:
        parts = [rf"\text{{{self.ref}}}:\quad "]
        if self.objective is not None:
            parts.append(rf"\text{{objective }} {sp.latex(self.objective)};\quad ")
        parts.append(rf"\text{{derived }} {sp.latex(self.derived)}")
        if self.printed is not None:
            parts.append(rf";\quad \text{{printed }} {sp.latex(self.printed)}")
        return "".join(parts)

    def numeric(self, **values: float) -> float:
        """Evaluate the derived expression at the given symbol values (by symbol name)."""
        subs = {s: values[s.name] for s in self.symbols if s.name in values}
        return float(self.derived.subs(subs).evalf())

    def numeric_printed(self, **values: float) -> float:
        if self.printed is None:
            raise ValueError(f"{self.name} has no printed form")
        subs = {s: values[s.name] for s in self.symbols if s.name in values}
        return float(self.printed.subs(subs).evalf())

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "ref": self.ref,
            "statement": self.statement,
            "objective": None if self.objective is None else str(self.objective),
            "derived": str(self.derived),
            "printed": None if self.printed is None else str(self.printed),
            "agrees": self.agrees,
            "latex": self.latex,
            "steps": [list(s) for s in self.steps],
        }


def cache_dir() -> Path:
    """Directory of the derivation cache: ``$TVBO_VERIFY_CACHE``, else ``$XDG_CACHE_HOME/tvbo_verify``,
    else ``~/.cache/tvbo_verify``."""
    explicit = os.environ.get("TVBO_VERIFY_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tvbo_verify"


@lru_cache(maxsize=1)
def _source_key() -> str:
    """sympy version and a hash of this module's source: what the cached results depend on."""
    digest = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    return f"sympy{sp.__version__}-{digest}"


def cache_path(name: str) -> Path:
    """File of the cached result of derivation ``name`` (see :func:`cache_dir`)."""
    return cache_dir() / "derivations" / f"{name}-{_source_key()}.pickle"


def _load(path: Path) -> Any:
    try:
        with path.open("rb") as fh:
            return pickle.load(fh)
    except Exception:  # missing, truncated or from another version: derive anew
        return None


def _store(path: Path, value: Any) -> None:
    """Write atomically (temporary file, then rename); a read-only location is silently skipped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        pass


def disk_cached(name: str) -> Callable[[Callable[[], Any]], Callable[[], Any]]:
    """Cache the result of a zero-argument derivation in memory and on disk under ``name``."""
    def decorate(build: Callable[[], Any]) -> Callable[[], Any]:
        @functools.wraps(build)
        @lru_cache(maxsize=1)
        def cached() -> Any:
            path = cache_path(name)
            value = _load(path)
            if value is None:
                value = build()
                _store(path, value)
            return value

        return cached

    return decorate


def _unique_positive(solutions: list, var: sp.Symbol) -> sp.Expr:
    sols = [sp.simplify(s) for s in solutions]
    if len(sols) != 1:
        raise ArithmeticError(f"expected one positive solution for {var}, got {sols}")
    return sols[0]


def _argmin_power_sum(objective: sp.Expr, var: sp.Symbol) -> sp.Expr:
    """Solve ``d objective / d var = 0`` for a positive ``var`` (objectives convex in ``log var``)."""
    return _unique_positive(sp.solve(sp.Eq(sp.diff(objective, var), 0), var), var)


def _exponent_in(expr: sp.Expr, var: sp.Symbol) -> sp.Expr:
    """Exponent ``p`` with ``expr ∝ var^p`` (``expr`` a monomial in ``var`` up to constants)."""
    return sp.simplify(sp.expand_log(sp.log(expr), force=True).diff(var) * var)


@disk_cached("wsparq-L-star")
def l_star_derivation() -> Derivation:
    F = L ** (-alpha) + 4 * L / T
    Ls = _argmin_power_sum(F, L)
    second = sp.simplify(sp.diff(F, L, 2).subs(L, Ls))
    printed = (alpha / 8) ** (1 / (alpha + 1)) * T ** (1 / (alpha + 1))
    return Derivation(
        "wsparq-L-star",
        "wsparq Proof 5.4 step 4",
        "Minimiser of F(L) = L^-alpha + 4L/T over L > 0",
        F,
        sp.simplify(Ls),
        printed,
        (alpha, T),
        (
            ("F'(L) = 0", sp.latex(sp.Eq(sp.diff(F, L), 0))),
            ("solution", sp.latex(Ls)),
            ("F''(L*) > 0", sp.latex(second)),
        ),
    )


@disk_cached("wsparq-T0")
def t0_derivation() -> Derivation:
    Ls = l_star_derivation().derived
    sol = sp.solve(sp.Eq(sp.log(Ls), sp.log(T / 2)), T)
    t0 = _unique_positive(sol, T)
    printed = 2 ** (1 - 2 / alpha) * alpha ** (1 / alpha)
    return Derivation(
        "wsparq-T0",
        "wsparq Proof 5.4 step 4",
        "Horizon T_0 with L* <= T/2 for every T >= T_0",
        sp.Eq(Ls, T / 2),
        sp.simplify(t0),
        printed,
        (alpha,),
        (("L*(T) = T/2", sp.latex(sp.Eq(Ls, T / 2))), ("T_0", sp.latex(t0))),
    )


def _f_exponent() -> Derivation:
    Ls = l_star_derivation().derived
    F = L ** (-alpha) + 4 * L / T
    Fmin = sp.simplify(F.subs(L, Ls))
    expo = sp.simplify(sp.limit(sp.log(Fmin) / sp.log(T), T, sp.oo))
    return Derivation(
        "wsparq-F-exponent",
        "wsparq Proof 5.4 steps 4-5",
        "F(L*) = Theta(T^p): the exponent p",
        Fmin,
        expo,
        -alpha / (alpha + 1),
        (alpha,),
        (("F(L*)", sp.latex(Fmin)),),
    )


def _n_windows() -> Derivation:
    r = sp.Symbol("r", positive=True)
    integral = sp.integrate(sp.Symbol("t", positive=True) ** (-r), (sp.Symbol("t", positive=True), 1, T), conds="none")
    # for 0 < r < 1: integral = (T^{1-r} - 1)/(1 - r); exponent = lim log(integral)/log T
    integral_r = sp.simplify(integral.subs(r, at / alpha))
    expo = sp.simplify(1 - at / alpha)
    leading = sp.simplify(sp.limit((T ** (1 - r) - 1) / (1 - r) / T ** (1 - r), T, sp.oo).subs(r, sp.Rational(1, 2)))
    return Derivation(
        "wsparq-n-windows",
        "wsparq Proof 3.11 step 4",
        "n(T) = Theta(int_1^T t^(-alpha~/alpha) dt) = Theta(T^p): the exponent p (alpha~ < alpha)",
        integral_r,
        expo,
        (alpha - at) / alpha,
        (alpha, at),
        (
            ("integral comparison", sp.latex(integral)),
            ("leading coefficient of n(T)/T^{1-r} (checked at r=1/2, general: 1/(1-r))",
             sp.latex(leading * sp.Rational(1, 2))),
        ),
    )


def _regret_exponent() -> Derivation:
    # R_T = O(beta_T sqrt(T gamma_T (sigma^2 T^at + 1))) with beta_T ~ sqrt(gamma_T), gamma_T ~ T^at
    gamma_T = T**at
    bound = sp.sqrt(gamma_T) * sp.sqrt(T * gamma_T * T**at)
    expo = _exponent_in(bound, T)
    no_regret = sp.solve_univariate_inequality(expo < 1, at, relational=False)
    return Derivation(
        "wsparq-regret-exponent",
        "wsparq Theorem 3.10 / Proof 3.11 step 3 / Table 2",
        "Exponent of the regret bound (square-root reading of (34)); no-regret range of alpha~",
        bound,
        expo,
        (3 * at + 1) / 2,
        (at,),
        (("bound", sp.latex(bound)), ("exponent < 1 iff alpha~ in", sp.latex(no_regret))),
    )


def _vt_constant() -> Derivation:
    k = sp.Symbol("k", positive=True)
    # V_T = sigma^2 T + sigma^2 sum_{k<T} k^alpha; sum ~ integral = T^{alpha+1}/(alpha+1)
    integral = sp.integrate(k**alpha, (k, 0, T))
    ratio = sp.expand(sp.powsimp((T + integral) / T ** (alpha + 1), force=True))
    const = sp.simplify(sum(sp.limit(term, T, sp.oo) for term in sp.Add.make_args(ratio)))
    return Derivation(
        "wsparq-VT",
        "wsparq §2.2.2 (V_T)",
        "Leading constant of V_T / (sigma^2 T^(alpha+1)) for alpha > 0",
        T + integral,
        const,
        sp.Integer(1),
        (alpha,),
        (("sum ~ integral", sp.latex(integral)),),
    )


def _query_gap() -> Derivation:
    gap = sp.simplify((1 - at / alpha) - alpha / (alpha + 1))
    return Derivation(
        "wsparq-query-gap",
        "wsparq Remark 5.5",
        "Gap between the W-SparQ query exponent 1 - alpha~/alpha and the threshold alpha/(alpha+1)",
        None,
        gap,
        1 / (alpha + 1) - at / alpha,
        (alpha, at),
        (("limit as alpha -> oo", sp.latex(sp.limit(gap, alpha, sp.oo))),),
    )


def _tvgpucb_61() -> Derivation:
    # maximise sum_i log(1 + D_i) s.t. sum_i D_i^2 <= N^4 eps^2. Stationarity: 1/(1+D_i) = 2 mu D_i, i.e.
    # D_i (1 + D_i) = 1/(2 mu): D (1+D) is strictly increasing on D > 0, so all D_i are equal; the
    # constraint is active (the objective increases in every D_i), giving N D^2 = N^4 eps^2.
    D, mu = sp.symbols("Delta mu", positive=True)
    stationarity = sp.Eq(1 / (1 + D), 2 * mu * D)
    monotone = sp.simplify(sp.diff(D * (1 + D), D))
    sol = _unique_positive(sp.solve(sp.Eq(N * D**2, N**4 * eps**2), D), D)
    value = sp.simplify(N * sp.log(1 + sol))
    return Derivation(
        "tvgpucb-61",
        "tvgpucb eq. (61)",
        "Maximiser Delta_i of sum_i log(1+Delta_i) subject to sum_i Delta_i^2 <= N^4 eps^2",
        sp.Sum(sp.log(1 + sp.Indexed("Delta", sp.Symbol("i"))), (sp.Symbol("i"), 1, N)),
        sol,
        N**2 * eps,
        (N, eps),
        (
            ("stationarity", sp.latex(stationarity)),
            ("d/dDelta [Delta(1+Delta)] > 0, so all Delta_i are equal", sp.latex(monotone)),
            ("active constraint", sp.latex(sp.Eq(N * D**2, N**4 * eps**2))),
            ("maximum value", sp.latex(value)),
        ),
    )


def _two_power_argmin(a: sp.Expr, p: sp.Expr, b: sp.Expr, q: sp.Expr, var: sp.Symbol) -> tuple[sp.Expr, list]:
    """Minimiser of ``a var^p + b var^q`` (``p < 0 < q`` or ``p < q`` with opposite-sign derivative terms).

    Stationarity ``p a var^{p-1} + q b var^{q-1} = 0`` is divided by ``var^{p-1}`` and solved for
    ``M = var^{q-p}`` (linear), then ``var* = M^{1/(q-p)}``; the derivative is re-evaluated at ``var*``.
    """
    a, p, b, q = (sp.sympify(v) for v in (a, p, b, q))
    M = sp.Symbol("M")
    objective = a * var**p + b * var**q
    reduced = sp.expand(sp.powsimp(sp.diff(objective, var) / var ** (p - 1), force=True))
    in_m = sp.expand(sp.powsimp(reduced.subs(var, sp.Symbol("Mpos", positive=True) ** (1 / (q - p))), force=True))
    eq_m = sp.Eq(in_m.subs(sp.Symbol("Mpos", positive=True), M), 0)
    m_sol = _unique_positive(sp.solve(eq_m, M, check=False, simplify=False), M)
    vstar = sp.powsimp(sp.simplify(m_sol ** (1 / (q - p))), force=True)
    check = sp.simplify(sp.diff(objective, var).subs(var, vstar))
    steps = [
        ("stationarity / var^(p-1)", sp.latex(sp.Eq(reduced, 0))),
        ("M = var^(q-p)", sp.latex(m_sol)),
        ("var*", sp.latex(vstar)),
        ("derivative at var*", sp.latex(check)),
    ]
    return vstar, steps


def _block_exponent(
    name: str, statement: str, terms: tuple, printed: sp.Expr | None, half: bool
) -> tuple[Derivation, Derivation]:
    """Minimise ``a N^p + b N^q`` and return (exponent of N* in ε, exponent of ε in the minimum)."""
    (a, p), (b, q) = terms
    objective = a * N**p + b * N**q
    Nstar, steps = _two_power_argmin(a, p, b, q, N)
    n_exp = sp.simplify(_exponent_in(Nstar, eps))
    value = sp.simplify(objective.subs(N, Nstar))
    v_exp = sp.simplify(_exponent_in(value, eps) / (2 if half else 1))
    ref = "tvgpucb Corollary 4.1 / App. E"
    d1 = Derivation(
        f"{name}-block", ref, f"{statement}: exponent of the optimal block length in epsilon",
        objective, n_exp, None, (c,), tuple(steps),
    )
    how = " (regret = sqrt(T * T * bound))" if half else ""
    d2 = Derivation(
        f"{name}-rate", ref, f"{statement}: exponent p of epsilon in the regret bound T eps^p{how}",
        objective, v_exp, printed, (c,), (("minimum", sp.latex(value)),),
    )
    return d1, d2


def _corollary_41() -> list[Derivation]:
    """Per-step objectives of Corollary 4.1 (App. E), with log factors dropped.

    TV-GP-UCB: ``R ~ sqrt(T · T (1/N)(γ_N + N³ε))`` with ``γ_N ~ 1`` (SE) or ``N^c`` (Matérn), so the
    ε-exponent of the regret is half that of ``min_N (γ_N + N³ε)/N``. R-GP-UCB: per-step regret
    ``N^{-1/2} + (N³ε)^{1/2}`` (SE) or ``N^{(c-1)/2} + (N³ε)^{1/2}`` (Matérn). With the corrected
    ``Ñ^{5/2}ε`` term of ``tvgpucb`` §3.3 the SE TV objective becomes ``(1 + N^{5/2}ε)/N``.
    """
    half = sp.Rational(1, 2)
    cases = (
        ("tvgpucb-cor41-tv-se", "TV-GP-UCB, SE", ((1, -1), (eps, 2)), sp.Rational(1, 6), True),
        ("tvgpucb-cor41-tv-matern", "TV-GP-UCB, Matern", ((1, c - 1), (eps, 2)), (1 - c) / (2 * (3 - c)), True),
        ("tvgpucb-cor41-r-se", "R-GP-UCB, SE", ((1, -half), (sp.sqrt(eps), 3 * half)), sp.Rational(1, 8), False),
        ("tvgpucb-cor41-r-matern", "R-GP-UCB, Matern", ((1, (c - 1) / 2), (sp.sqrt(eps), 3 * half)),
         (1 - c) / (2 * (4 - c)), False),
        ("tvgpucb-cor41-tv-se-corrected", "TV-GP-UCB, SE, corrected N^(5/2) eps term", ((1, -1), (eps, 3 * half)),
         None, True),
    )
    out: list[Derivation] = []
    for name, statement, terms, printed, is_half in cases:
        out.extend(_block_exponent(name, statement, terms, printed, is_half))
    return out


def _wgpucb_cor5() -> list[Derivation]:
    X, g, B = sp.symbols("X gammadot B_T", positive=True)
    # term 1 ~ gammadot T X^{1/2}, term 2 ~ gammadot^{1/2} B_T X^{-3/2} (wgpucb Corollary 5 table)
    obj = g * T * sp.sqrt(X) + sp.sqrt(g) * B * X ** sp.Rational(-3, 2)
    Xs, _ = _two_power_argmin(sp.sqrt(g) * B, sp.Rational(-3, 2), g * T, sp.Rational(1, 2), X)
    value = sp.simplify(obj.subs(X, Xs))
    printed_x = g ** sp.Rational(-1, 4) * sp.sqrt(B) / sp.sqrt(T)
    d1 = Derivation(
        "wgpucb-cor5-discount",
        "wgpucb Corollary 5 / Lemma 22",
        "1 - gamma balancing the first two regret terms (known B_T), up to a constant factor",
        obj,
        sp.simplify(Xs / sp.simplify(Xs / printed_x)),
        printed_x,
        (g, B, T),
        (("minimiser", sp.latex(Xs)),
         ("ratio to the printed form (a constant)", sp.latex(sp.simplify(Xs / printed_x)))),
    )
    expo_T = sp.simplify(_exponent_in(value, T))
    d2 = Derivation(
        "wgpucb-cor5-rate",
        "wgpucb Corollary 5 / Lemma 22",
        "Exponent of T in the balanced regret (known B_T)",
        obj,
        expo_T,
        sp.Rational(3, 4),
        (),
        (("balanced value", sp.latex(value)),),
    )
    return [d1, d2]


def _bolt_eps_derivative() -> Derivation:
    s, Lr, d = sp.symbols("sigma_c L d", positive=True)
    z = Lr * sp.sqrt(d) / s
    phi = sp.exp(-sp.Symbol("u") ** 2 / 2) / sp.sqrt(2 * sp.pi)
    Phi = (1 + sp.erf(sp.Symbol("u") / sp.sqrt(2))) / 2
    eps_c = s * phi.subs("u", -z) - Lr * sp.sqrt(d) * Phi.subs("u", -z)
    deriv = sp.simplify(sp.diff(eps_c, s))
    return Derivation(
        "bolt-eps-c-derivative",
        "bolt eq. (4) / Lemma C.4",
        "d eps_c / d sigma_c",
        eps_c,
        deriv,
        sp.simplify(phi.subs("u", z)),
        (s, Lr, d),
        (("derivative", sp.latex(deriv)),),
    )


@disk_cached("all")
def derivations() -> dict[str, Derivation]:
    """All derivations, keyed by name (a few seconds of sympy once; then read from the disk cache)."""
    items: list[Derivation] = [
        l_star_derivation(),
        t0_derivation(),
        _f_exponent(),
        _n_windows(),
        _regret_exponent(),
        _vt_constant(),
        _query_gap(),
        _tvgpucb_61(),
        *_corollary_41(),
        *_wgpucb_cor5(),
        _bolt_eps_derivative(),
    ]
    return {d.name: d for d in items}


def derivations_report() -> list[dict]:
    """All derivations as JSON-ready dictionaries (sympy strings, LaTeX, agreement with the paper)."""
    return [d.to_dict() for d in derivations().values()]


def derivation(name: str) -> Derivation:
    """One derivation by name (see :func:`derivations`)."""
    all_ = derivations()
    if name not in all_:
        raise ValueError(f"derivation must be one of {{{', '.join(all_)}}}, got {name}")
    return all_[name]


@lru_cache(maxsize=None)
def derived_functions(name: str) -> tuple[Callable[..., float], Callable[..., Any]]:
    """The derived expression of derivation ``name`` as numeric functions of its symbols (in the order of
    ``Derivation.symbols``): float64 (``math``) and current mpmath precision (``mpmath``)."""
    d = derivation(name)
    return sp.lambdify(d.symbols, d.derived, "math"), sp.lambdify(d.symbols, d.derived, "mpmath")


@lru_cache(maxsize=1)
def l_star_function() -> Callable[[float, float], float]:
    """Numeric ``(α, T) -> L*`` lambdified from the derived minimiser of ``F`` (``wsparq`` Proof 5.4)."""
    return sp.lambdify((alpha, T), l_star_derivation().derived, "math")


@lru_cache(maxsize=1)
def t0_function() -> Callable[[float], float]:
    """Numeric ``α -> T₀`` lambdified from the derived threshold (``wsparq`` Proof 5.4)."""
    return sp.lambdify((alpha,), t0_derivation().derived, "math")


@lru_cache(maxsize=1)
def l_star_function_mp() -> Callable[[mpmath.mpf, mpmath.mpf], mpmath.mpf]:
    """``(α, T) -> L*`` at the current mpmath precision (the referee's twin of :func:`l_star_function`)."""
    return sp.lambdify((alpha, T), l_star_derivation().derived, "mpmath")


@lru_cache(maxsize=1)
def t0_function_mp() -> Callable[[mpmath.mpf], mpmath.mpf]:
    """``α -> T₀`` at the current mpmath precision (the referee's twin of :func:`t0_function`)."""
    return sp.lambdify((alpha,), t0_derivation().derived, "mpmath")
