"""Response-time models ``R(n)`` and the optimal dataset size ``n*`` (``bolt`` §1.6, §3.4, eq. (9)).

* :class:`ResponseModel` — ``R(n)`` from an expression in ``n`` (parsed without ``eval``: the text is
  checked against a whitelist of Python AST nodes and converted node by node into a sympy expression),
  from polynomial coefficients, or from a cubic least-squares fit to measured ``(n, R(n))`` pairs (BOLT §4).
* :func:`validate_response` — Definition 3.5: ``R(0) > 0``, strictly increasing, diverging.
* :func:`u2` — ``||u_n||² = Σ_{i<=n} k_T²(i R(n))`` (eq. (8)).
* :func:`n_star` — the paper's sign hill-climb and a certified brute force (report both).
* :func:`measure_response_times` — time this machine's own GP-UCB step at several dataset sizes.
"""

from __future__ import annotations

import ast
import csv
import heapq
import math
import time
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable

import numpy as np
import sympy as sp
from scipy import optimize

from ..kernels import Matern, RationalQuadratic, SquaredExponential, StationaryKernel, temporal_kernel
from ..validation import as_points, as_vector, check_int, check_positive
from .correlation_sums import (
    DIRECT_TERMS,
    log_partial_sum,
    log_tail_bound,
    relaxed_objective,
    squared_correlation,
)

__all__ = [
    "N_SYMBOL", "parse_response_expression", "ResponseModel", "load_response_times", "validate_response",
    "diverges", "log_sum_exp", "exp_or_inf", "log_u2", "u2", "log_u2_curve", "u2_curve", "log_u2_upper",
    "log_beyond_bound", "NStarResult", "hill_climb", "log_constant_increments", "is_constant", "n_star",
    "relaxed_maximiser", "n_star_for", "measure_response_times",
]

N_SYMBOL = sp.Symbol("n", nonnegative=True)

_FUNCTIONS: dict[str, Callable[..., sp.Expr]] = {
    "exp": sp.exp,
    "log": sp.log,
    "ln": sp.log,
    "sqrt": sp.sqrt,
    "log2": lambda x: sp.log(x, 2),
    "log10": lambda x: sp.log(x, 10),
}
_CONSTANTS: dict[str, sp.Expr] = {"pi": sp.pi, "e": sp.E, "E": sp.E}
_BINOPS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: _power(a, b),
}


def _power(base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
    """``base ** exponent``; a power of two numbers is evaluated in float64, so that ``9^9^9`` is refused
    as too large instead of making sympy build an integer with hundreds of millions of digits."""
    if base.free_symbols or exponent.free_symbols:
        return base**exponent
    try:
        value = float(base) ** float(exponent)
    except (OverflowError, ZeroDivisionError, TypeError):
        value = math.nan
    if isinstance(value, complex) or not math.isfinite(value):
        raise ValueError(f"response expression contains a power that is not a finite real number: "
                         f"({sp.sstr(base)})^({sp.sstr(exponent)})")
    return sp.Float(value)


def _to_sympy(node: ast.AST) -> sp.Expr:
    if isinstance(node, ast.Expression):
        return _to_sympy(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return sp.Integer(node.value) if isinstance(node.value, int) else sp.Float(repr(node.value))
    if isinstance(node, ast.Name):
        if node.id == "n":
            return N_SYMBOL
        if node.id in _CONSTANTS:
            return _CONSTANTS[node.id]
        raise ValueError(f"response expression may only use the variable n, got {node.id!r}")
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        return _BINOPS[type(node.op)](_to_sympy(node.left), _to_sympy(node.right))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _to_sympy(node.operand)
        return -inner if isinstance(node.op, ast.USub) else inner
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCTIONS
        and len(node.args) == 1
        and not node.keywords
    ):
        return _FUNCTIONS[node.func.id](_to_sympy(node.args[0]))
    raise ValueError(f"response expression contains an unsupported construct ({type(node).__name__}); "
                     "use numbers, n, + - * / ^ and exp/log/sqrt")


def parse_response_expression(text: str) -> sp.Expr:
    """Parse ``text`` (e.g. ``"0.1 + 1e-6*n^3"``) into a sympy expression in ``n`` without evaluating code.

    Allowed: numbers, ``n``, ``+ - * / ** ^``, parentheses, ``exp log ln sqrt log2 log10``, ``pi e``.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("response expression must be a non-empty string")
    if len(text) > 500:
        raise ValueError(f"response expression must be at most 500 characters, got {len(text)}")
    try:
        tree = ast.parse(text.replace("^", "**"), mode="eval")
    except SyntaxError:
        raise ValueError(f"response expression could not be parsed: {text!r}") from None
    try:
        expr = _to_sympy(tree)
    except (OverflowError, RecursionError, ZeroDivisionError):
        raise ValueError(f"response expression could not be evaluated (a number is too large): {text!r}") from None
    if expr.has(sp.zoo, sp.oo, -sp.oo, sp.nan, sp.I):
        raise ValueError(f"response expression must be finite and real, got {sp.sstr(expr)} from {text!r}")
    if not expr.free_symbols <= {N_SYMBOL}:
        raise ValueError(f"response expression must be a function of n only, got {text!r}")
    return expr


@dataclass(frozen=True)
class ResponseModel:
    """A response-time model ``R(n)`` (seconds between iterations with ``n`` stored observations)."""

    expr: sp.Expr
    kind: str
    source: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "_f", sp.lambdify(N_SYMBOL, self.expr, "numpy"))

    def __reduce__(self):  # the lambdified function is rebuilt on unpickling (process/Dask executors)
        return (ResponseModel, (self.expr, self.kind, self.source))

    def __call__(self, n: np.ndarray | float) -> np.ndarray:
        n_arr = np.asarray(n, dtype=float)
        with np.errstate(all="ignore"):
            out = np.asarray(self._f(n_arr), dtype=float)  # type: ignore[attr-defined]
        return np.broadcast_to(out, n_arr.shape).astype(float) if out.shape != n_arr.shape else out

    def describe(self) -> str:
        return f"R(n) = {sp.sstr(self.expr)}"

    @staticmethod
    def from_expression(text: str) -> "ResponseModel":
        return ResponseModel(parse_response_expression(text), "expression", text)

    @staticmethod
    def polynomial(coefficients: np.ndarray | list[float]) -> "ResponseModel":
        """``R(n) = Σ_k a_k n^k`` with ascending coefficients ``a_0, a_1, ...``."""
        coef = as_vector("coefficients", coefficients)
        expr = sum(sp.Float(float(a)) * N_SYMBOL**k for k, a in enumerate(coef))
        return ResponseModel(sp.sympify(expr), "polynomial", f"coefficients {coef.tolist()}")

    @staticmethod
    def fit_cubic(n: np.ndarray, R: np.ndarray, *, nonnegative: bool = False) -> "ResponseModel":
        """Cubic least-squares fit ``R(n) = a_0 + a_1 n + a_2 n² + a_3 n³`` to measured pairs (``bolt`` §4).

        ``nonnegative=True`` fits under the constraints ``a_k >= 0`` (``scipy.optimize.lsq_linear`` on
        the monomials), which makes ``R`` non-decreasing and, with one positive ``a_k`` (``k >= 1``),
        diverging (Definition 3.5 (ii)-(iii)). Coefficients whose whole contribution over the measured
        range is below ``1e-12`` of the largest ``R`` are rounding noise and are set to 0 (a fitted
        ``a_3 = -5e-21`` on exactly quadratic data would otherwise make ``R`` decrease for huge ``n``).
        """
        n_arr = as_vector("n", n)
        r_arr = as_vector("R", R, n_arr.size)
        if np.unique(n_arr).size < 4:
            raise ValueError(f"a cubic fit needs at least 4 distinct dataset sizes n, got {np.unique(n_arr).size}")
        if np.any(n_arr < 0):
            raise ValueError("dataset sizes n must be >= 0")
        scale = max(1.0, float(np.max(n_arr)))
        V = np.vander(n_arr / scale, 4, increasing=True)
        if nonnegative:
            coef = optimize.lsq_linear(V, r_arr, bounds=(0.0, np.inf), method="bvls").x
        else:
            coef, *_ = np.linalg.lstsq(V, r_arr, rcond=None)
        coef = np.where(np.abs(coef) <= 1e-12 * max(float(np.max(np.abs(r_arr))), 1e-300), 0.0, coef)
        coef = coef / scale ** np.arange(4)
        model = ResponseModel.polynomial(coef)
        how = "non-negative cubic fit" if nonnegative else "cubic least-squares fit"
        return ResponseModel(model.expr, "cubic-fit", f"{how} to {n_arr.size} measured pairs")


def load_response_times(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """Read ``(n, R)`` pairs from a CSV file with two numeric columns (a header line is allowed); every problem
    with the file is one ``ValueError`` line naming it (binary content, an unreadable file, a bad line)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"response-times file not found: {path}")
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise ValueError(f"response-times file {path} cannot be read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"response-times file {path} is not a text CSV file (byte {exc.start} is not UTF-8 text)") \
            from None
    if "\x00" in text:
        raise ValueError(f"response-times file {path} is not a text CSV file (it holds NUL bytes)")
    rows: list[tuple[float, float]] = []
    for lineno, row in enumerate(csv.reader(text.splitlines()), start=1):
        if not row or all(not c.strip() for c in row):
            continue
        try:
            rows.append((float(row[0]), float(row[1])))
        except (ValueError, IndexError):
            if lineno == 1:
                continue  # header
            raise ValueError(f"response-times file {path} line {lineno} must hold two numbers n,R, got {row}") \
                from None
    if not rows:
        raise ValueError(f"response-times file {path} holds no (n, R) pairs")
    arr = np.asarray(rows)
    return arr[:, 0], arr[:, 1]


def validate_response(model: ResponseModel, n_max: int = 10_000) -> None:
    """Definition 3.5 of ``bolt``: (i) ``R(0) > 0``; (ii) ``R(n+1) > R(n)`` (checked for ``n < n_max``
    and, for polynomials, symbolically beyond); (iii) ``R(n) -> ∞``. Raises ``ValueError`` naming the
    violated property."""
    n_max = check_int("n_max", n_max, minimum=1)
    r0 = float(model(0.0))
    if not np.isfinite(r0) or not r0 > 0:
        raise ValueError(f"R(0) must be > 0 (Definition 3.5 (i)), got {r0!r}")
    ns = np.arange(0, n_max + 1, dtype=float)
    vals = model(ns)
    if not np.all(np.isfinite(vals)):
        bad = int(ns[np.argmax(~np.isfinite(vals))])
        raise ValueError(f"R(n) must be finite, got R({bad}) = {float(vals[bad])}")
    diffs = np.diff(vals)
    if np.any(diffs <= 0):
        i = int(np.argmax(diffs <= 0))
        raise ValueError(
            f"R must be strictly increasing (Definition 3.5 (ii)), got R({i + 1}) = {vals[i + 1]:.6g} "
            f"<= R({i}) = {vals[i]:.6g}"
        )
    expr = model.expr
    if expr.is_polynomial(N_SYMBOL):
        poly = sp.Poly(expr, N_SYMBOL)
        if poly.degree() < 1 or float(poly.LC()) <= 0:
            raise ValueError(f"R(n) must diverge as n -> infinity (Definition 3.5 (iii)), got {model.describe()}")
        coefficients = [float(c) for c in reversed(poly.all_coeffs())]  # ascending
        derivative = np.polynomial.Polynomial(coefficients).deriv()
        roots = derivative.roots() if derivative.degree() >= 1 else np.zeros(0)
        late = [float(r.real) for r in roots if abs(r.imag) <= 1e-9 * max(1.0, abs(r)) and r.real > n_max]
        if late:
            raise ValueError("R must be strictly increasing (Definition 3.5 (ii)), "
                             f"but R'(n) changes sign at n = {late[0]:.6g}")
    else:
        verdict = diverges(expr)
        if verdict is None:  # sympy gives up on some expressions; say so rather than guess
            raise ValueError(f"could not decide whether R(n) diverges (Definition 3.5 (iii)) for {model.describe()}; "
                             "write R(n) as a polynomial or a simpler expression")
        if not verdict:
            raise ValueError(f"R(n) must diverge as n -> infinity (Definition 3.5 (iii)), got limit "
                             f"{_limit_at_infinity(expr)}")


def _limit_at_infinity(expr: sp.Expr) -> sp.Expr | None:
    """``lim_{n→∞} expr`` by sympy, or ``None`` where sympy cannot decide (it raises on some ``Max``/``Min``
    and ``Piecewise`` expressions, e.g. ``NotImplementedError``)."""
    try:
        return sp.limit(expr, N_SYMBOL, sp.oo)
    except (NotImplementedError, ValueError, TypeError, AttributeError, RecursionError):
        return None


def diverges(expr: sp.Expr) -> bool | None:
    """Whether ``R(n) → ∞`` as ``n → ∞`` (Definition 3.5 (iii)); ``None`` where it cannot be decided.

    ``Piecewise`` is reduced to the branch active for large ``n`` (the first whose condition holds at
    ``n = ∞``), ``Max`` diverges when one argument does, ``Min`` when every argument does; anything else
    goes to sympy's limit. Tabulated or piecewise response times (Definition 3.5 admits every strictly
    increasing ``R``) are written this way.
    """
    if isinstance(expr, sp.Piecewise):
        for branch, condition in expr.args:
            at_infinity = condition.subs(N_SYMBOL, sp.oo) if hasattr(condition, "subs") else condition
            if at_infinity is sp.true:
                return diverges(branch)
            if at_infinity is not sp.false:
                return None
        return None
    if isinstance(expr, (sp.Max, sp.Min)):
        parts = [diverges(a) for a in expr.args]
        if isinstance(expr, sp.Max):
            return True if any(p is True for p in parts) else False if all(p is False for p in parts) else None
        return True if all(p is True for p in parts) else False if any(p is False for p in parts) else None
    lim = _limit_at_infinity(expr)
    if lim is None:
        return None
    return lim is sp.oo


# --------------------------------------------------------------------------------------------------
# ||u_n||^2 and n*
# --------------------------------------------------------------------------------------------------
def _log_kernel(kernel: StationaryKernel, tau: np.ndarray) -> np.ndarray:
    """``log k(τ)`` without underflow for SE, Matérn (ν ∈ {1/2, 3/2, 5/2}) and RQ; otherwise ``log k``."""
    r = np.abs(tau) / float(kernel.lengthscale)
    logv = math.log(kernel.variance)
    if isinstance(kernel, SquaredExponential):
        return logv - 0.5 * r * r
    if isinstance(kernel, Matern):
        s = math.sqrt(2.0 * kernel.nu) * r
        if kernel.nu == 0.5:
            return logv - s
        if kernel.nu == 1.5:
            return logv + np.log1p(s) - s
        return logv + np.log1p(s + s * s / 3.0) - s
    if isinstance(kernel, RationalQuadratic):
        return logv - kernel.alpha * np.log1p(r * r / (2.0 * kernel.alpha))
    with np.errstate(divide="ignore"):
        return np.log(kernel.of_distance(tau))


def log_sum_exp(values: np.ndarray) -> float:
    """``log Σ exp(values)`` for a 1-d float array, without the per-call overhead of
    ``scipy.special.logsumexp`` (``log_u2`` calls it thousands of times per ``n*`` search); ``-inf`` for an
    empty or all ``-inf`` array, ``nan`` if a value is ``nan``, ``+inf`` if one is ``+inf``."""
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return -math.inf
    top = float(v.max())
    if not math.isfinite(top):
        return math.nan if np.isnan(v).any() else top
    with np.errstate(under="ignore"):
        return top + math.log(float(np.exp(v - top).sum()))


def exp_or_inf(log_value: float) -> float:
    """``exp`` of a log-space value; ``inf`` where float64 overflows (a sum of more than 1e308 terms)."""
    return math.exp(log_value) if log_value < 709.0 else math.inf


def _spacing(response: ResponseModel, kernel: StationaryKernel, n: float) -> float:
    """``h = R(n) / l_T``, the spacing of the terms of ``||u_n||²`` in units of the lengthscale."""
    return float(response(float(n))) / float(kernel.lengthscale)


def log_u2(n: int, response: ResponseModel, kernel: StationaryKernel) -> float:
    """``log ||u_n||²`` computed in log space (``-inf`` for ``n = 0``); comparisons of ``||u_n||²`` far
    from ``n*`` underflow to ``0 = 0`` in float64, so the searches compare logs. Sums of more than
    :data:`~tvbo_verify.theory.correlation_sums.DIRECT_TERMS` terms use Euler–Maclaurin (relative
    error below ``1e-13``), so any ``n`` costs at most a few thousand kernel evaluations."""
    n = check_int("n", n, minimum=0)
    if n == 0:
        return -math.inf
    if n <= DIRECT_TERMS:
        rn = float(response(float(n)))
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            return log_sum_exp(2.0 * _log_kernel(kernel, np.arange(1, n + 1, dtype=float) * rn))
    profile = squared_correlation(kernel)
    h = _spacing(response, kernel, n)
    if not math.isfinite(h):
        return -math.inf
    return 2.0 * math.log(kernel.variance) + log_partial_sum(profile, n, h)


def u2(n: int, response: ResponseModel, kernel: StationaryKernel) -> float:
    """``||u_n||² = Σ_{i=1}^n k_T²(i R(n))`` (``bolt`` eq. (8)); ``||u_0||² = 0``."""
    return exp_or_inf(log_u2(n, response, kernel))


def log_u2_curve(n_max: int, response: ResponseModel, kernel: StationaryKernel) -> np.ndarray:
    """``[log ||u_0||², ..., log ||u_{n_max}||²]``."""
    n_max = check_int("n_max", n_max, minimum=0)
    out = np.full(n_max + 1, -math.inf)
    for n in range(1, n_max + 1):
        out[n] = log_u2(n, response, kernel)
    return out


def u2_curve(n_max: int, response: ResponseModel, kernel: StationaryKernel) -> np.ndarray:
    """``[||u_0||², ..., ||u_{n_max}||²]``."""
    return np.exp(log_u2_curve(n_max, response, kernel))


def log_u2_upper(a: int, b: int, response: ResponseModel, kernel: StationaryKernel) -> float:
    """Upper bound on ``log ||u_n||²`` for every ``n`` in ``[a, b]``: ``Σ_{i<=b} k_T²(i R(a))``
    (more terms, each at least as large, because ``k_T`` decreases and ``R`` increases)."""
    h = _spacing(response, kernel, a)
    if not math.isfinite(h):
        return -math.inf
    return 2.0 * math.log(kernel.variance) + log_partial_sum(squared_correlation(kernel), b, h)


def log_beyond_bound(N: int, response: ResponseModel, kernel: StationaryKernel) -> float:
    """Rigorous upper bound on ``log ||u_n||²`` for every ``n >= N``: ``Σ_{i>=1} k_T²(i R(N))``, bounded
    by a partial sum plus the integral of the rest (:func:`~tvbo_verify.theory.correlation_sums.log_tail_bound`)."""
    h = _spacing(response, kernel, N)
    if not math.isfinite(h):
        return -math.inf
    return 2.0 * math.log(kernel.variance) + log_tail_bound(squared_correlation(kernel), h)


#: Relative slack on value comparisons in the search (the sums are accurate to about 1e-13).
_RTOL = 1e-12
#: Searches over at most this many sizes evaluate every ``||u_n||²`` (the plain brute force).
_DENSE = 2048
#: Largest proven relative gap between ``u2`` and any other ``||u_n||²`` that still counts as certified.
_CERTIFIED_GAP = 1e-6
#: Hill-climb steps allowed inside :func:`n_star` (the paper's search moves one size per step).
_CLIMB_STEPS = 20_000


@dataclass(frozen=True)
class NStarResult:
    """``n*`` by the paper's hill-climb and by a certified search (``bolt`` eq. (9), Recommendation 1).

    ``certified``: a proof that no ``n`` beats ``u2`` by more than a relative ``gap`` (0 up to a
    ``1e-12`` rounding slack, at most ``1e-6``): every ``n <= searched_up_to`` was evaluated or bounded,
    and ``bound_beyond`` (an upper bound on ``||u_n||²`` for every ``n > searched_up_to``) is below
    ``u2``. ``n_star`` is ``math.inf`` when
    ``R`` is constant (``||u_n||²`` then increases with ``n``; ``u2`` is its limit); ``explanation``
    says how the result was obtained. ``n_star_hill_climb`` is ``None`` when the climb was not run
    (``n*`` is more than 20 000 sizes from ``n0``) or did not stop within that many steps.
    """

    n_star: int | float
    n_star_hill_climb: int | None
    n_star_brute_force: int | float
    u2: float
    searched_up_to: int
    certified: bool
    n0: int
    response: str
    kernel: str
    bound_beyond: float = 0.0
    method: str = "dense"
    explanation: str = ""
    evaluations: int = 0
    gap: float = 0.0
    _model: ResponseModel | None = field(default=None, repr=False, compare=False)
    _kernel: StationaryKernel | None = field(default=None, repr=False, compare=False)

    @property
    def agree(self) -> bool | None:
        """Whether the hill-climb of Recommendation 1 found the certified ``n*`` (None: it was not run)."""
        if self.n_star_hill_climb is None:
            return None
        return self.n_star_hill_climb == self.n_star_brute_force

    @cached_property
    def curve(self) -> np.ndarray:
        """``[||u_0||², ..., ||u_N||²]`` with ``N = searched_up_to`` (computed on first use)."""
        if self._model is None or self._kernel is None:
            raise ValueError("this result carries no response model to evaluate its curve")
        if self.searched_up_to > 200_000:
            raise ValueError(f"the curve up to n = {self.searched_up_to} is too long; use u2 at chosen sizes")
        return u2_curve(self.searched_up_to, self._model, self._kernel)


def hill_climb(response: ResponseModel, kernel: StationaryKernel, n0: int = 1, max_steps: int = 1_000_000) -> int:
    """The paper's search: ``n_{i+1} = n_i + sign(Δu(n_i))`` until ``Δu`` changes sign (``bolt`` §3.4)."""
    n = check_int("n0", n0, minimum=0)
    cache: dict[int, float] = {}

    def u(m: int) -> float:
        if m not in cache:
            cache[m] = log_u2(m, response, kernel)
        return cache[m]

    for _ in range(max_steps):
        if u(n + 1) > u(n):
            n += 1
        elif n > 0 and u(n - 1) > u(n):
            n -= 1
        else:
            return n
    raise ValueError(f"hill-climb did not stop within max_steps = {max_steps}")


def log_constant_increments(response: ResponseModel, kernel: StationaryKernel, n_max: int) -> np.ndarray:
    """``log Δu(n) = log(||u_{n+1}||² − ||u_n||²) = 2 log k_T((n+1) c)`` for ``n = 0..n_max − 1`` when
    ``R(n) = c`` is constant (``bolt`` §3.4, Figure 2: every increment is positive, so ``n* = ∞``), in log
    space: the increments underflow float64 long before they vanish."""
    if not is_constant(response):
        raise ValueError(f"response must be constant in n, got {response.describe()}")
    n_max = check_int("n_max", n_max, minimum=1)
    c = float(response(0.0))
    if not (math.isfinite(c) and c > 0):
        raise ValueError(f"R(0) must be > 0 (Definition 3.5 (i)), got {c!r}")
    with np.errstate(divide="ignore"):
        return 2.0 * _log_kernel(kernel, c * np.arange(1, n_max + 1, dtype=float))


def is_constant(response: ResponseModel) -> bool:
    """``R`` does not depend on ``n`` (e.g. the fixed periods of ``bolt`` Figure 2)."""
    return N_SYMBOL not in response.expr.free_symbols


def _constant_response(response: ResponseModel, kernel: StationaryKernel, n0: int, n_cap: int | None) -> NStarResult:
    c = float(response(0.0))
    if not (math.isfinite(c) and c > 0):
        raise ValueError(f"R(0) must be > 0 (Definition 3.5 (i)), got {c!r}")
    profile = squared_correlation(kernel)
    h = c / float(kernel.lengthscale)
    limit = 2.0 * math.log(kernel.variance) + log_tail_bound(profile, h, head_terms=DIRECT_TERMS)
    towards = f"towards at most {exp_or_inf(limit):.6g}" if math.isfinite(limit) else "without a bound in float64"
    why = (f"R(n) = {c:.6g} is constant: ||u_n||^2 = sum_(i<=n) k_T^2(i c) grows with every n {towards}, "
           "so no finite n maximises it (n* = infinity)")
    if n_cap is None:
        return NStarResult(math.inf, None, math.inf, exp_or_inf(limit), 0, True, n0, response.describe(), repr(kernel),
                           bound_beyond=exp_or_inf(limit), method="constant-R", explanation=why,
                           _model=response, _kernel=kernel)
    value = log_u2(n_cap, response, kernel)
    return NStarResult(n_cap, None, n_cap, exp_or_inf(value), n_cap, False, n0, response.describe(), repr(kernel),
                       bound_beyond=exp_or_inf(limit), method="constant-R",
                       explanation=why + f"; the largest allowed size n_cap = {n_cap} is returned",
                       _model=response, _kernel=kernel)


def _branch_and_bound(response: ResponseModel, kernel: StationaryKernel, N: int, best: tuple[float, int],
                      max_evaluations: int) -> tuple[int, float, float, int]:
    """Maximise ``log ||u_n||²`` over ``1 <= n <= N`` by best-first branch and bound: an interval whose
    bound :func:`log_u2_upper` cannot beat the best value found (by a relative ``1e-12``) is discarded,
    the others are halved. Returns ``(n, log value, proven relative gap, evaluations)``; the gap is 0
    when the search closed, else what the remaining intervals could still add."""
    best_value, best_n = best
    slack = math.log1p(_RTOL)
    evaluations = 0

    def value(n: int) -> None:
        nonlocal best_value, best_n, evaluations
        v = log_u2(n, response, kernel)
        evaluations += 1
        if v > best_value:
            best_value, best_n = v, n

    edges = np.unique(np.round(np.geomspace(1, N + 1, 128)).astype(np.int64))
    heap: list[tuple[float, int, int]] = []
    for a, b in zip(edges[:-1], edges[1:]):
        a, b = int(a), int(b) - 1
        value(a)
        if b > a:
            heapq.heappush(heap, (-log_u2_upper(a, b, response, kernel), a, b))
    while heap and -heap[0][0] > best_value + slack and evaluations < max_evaluations:
        _, a, b = heapq.heappop(heap)
        mid = (a + b) // 2
        for lo, hi in ((a, mid), (mid + 1, b)):
            value(lo)
            if hi > lo:
                heapq.heappush(heap, (-log_u2_upper(lo, hi, response, kernel), lo, hi))
    gap = max(0.0, -heap[0][0] - best_value) if heap and -heap[0][0] > best_value + slack else 0.0
    return best_n, best_value, math.expm1(min(gap, 700.0)), evaluations


def n_star(
    response: ResponseModel,
    kernel: StationaryKernel,
    *,
    n0: int = 1,
    n_cap: int | None = None,
    validate: bool = True,
    max_evaluations: int = 8_000,
) -> NStarResult:
    """``n* = argmax_n ||u_n||²`` by hill-climb from ``n0`` and by a certified search (``bolt`` eq. (9)).

    The search range ``[1, N]`` doubles until :func:`log_beyond_bound` shows that no ``n > N`` can beat
    the best value found. Up to ``N = 2048`` every ``||u_n||²`` is evaluated (brute force); beyond,
    branch and bound over intervals with the bound of :func:`log_u2_upper` covers ``[1, N]`` with a
    few thousand evaluations at any scale (``l_T = 10^30`` gives ``n*`` near ``10^9``).
    ``n_cap`` restricts the search to ``n <= n_cap`` (``certified`` is then ``False`` if a larger
    ``n`` is not excluded). Constant ``R`` gives ``n* = ∞`` (or ``n_cap``) with an explanation.
    """
    n0 = check_int("n0", n0, minimum=0)
    if n_cap is not None:
        n_cap = check_int("n_cap", n_cap, minimum=2)
    profile = squared_correlation(kernel)  # refuses kernels without a closed-form integral
    if is_constant(response):
        return _constant_response(response, kernel, n0, n_cap)
    if validate:
        validate_response(response, n_max=min(n_cap or 10_000, 10_000))
    del profile
    slack = math.log1p(_RTOL)
    limit = n_cap if n_cap is not None else 2**62
    best_value, best_n = log_u2(1, response, kernel), 1
    N, beyond = 1, log_beyond_bound(2, response, kernel)
    while beyond > best_value - slack and N < limit:
        N = min(2 * N if N >= 64 else 64, limit)
        v = log_u2(N, response, kernel)
        if v > best_value:
            best_value, best_n = v, N
        beyond = log_beyond_bound(N + 1, response, kernel)
    tail_excluded = beyond < best_value - slack
    if N <= _DENSE:
        logs = log_u2_curve(N, response, kernel)
        best_n = int(np.argmax(logs))
        best_value, gap, evaluations, method = float(logs[best_n]), 0.0, N, "dense"
        tail_excluded = beyond < best_value - slack
    else:
        best_n, best_value, gap, evaluations = _branch_and_bound(response, kernel, N, (best_value, best_n),
                                                                  max_evaluations)
        method = "branch-and-bound"
    certified = tail_excluded and gap <= _CERTIFIED_GAP
    hc: int | None = None
    if abs(best_n - n0) < _CLIMB_STEPS:  # the climb moves one size per step: farther away it cannot arrive
        try:
            hc = hill_climb(response, kernel, n0=n0, max_steps=_CLIMB_STEPS)
        except ValueError:
            hc = None
    within = "exactly" if gap == 0.0 else f"to within a relative {gap:.2g}"
    if not tail_excluded:
        why = (f"not certified: sizes n > {N} are not excluded ({'n_cap' if N == n_cap else 'search limit'}; "
               f"bound {exp_or_inf(beyond):.6g} on ||u_n||^2 beyond it), n* is the best n <= {N}")
    elif gap > _CERTIFIED_GAP:
        why = (f"not certified: after {evaluations} evaluations the sizes n <= {N} are bounded only {within} "
               "of the best value found")
    else:
        why = (f"certified: every n <= {N} was {'evaluated' if method == 'dense' else 'evaluated or bounded'} "
               f"({within}), and ||u_n||^2 <= {exp_or_inf(beyond):.6g} < ||u_n*||^2 for every n > {N}")
    return NStarResult(
        n_star=best_n,
        n_star_hill_climb=hc,
        n_star_brute_force=best_n,
        u2=exp_or_inf(best_value),
        searched_up_to=int(N),
        certified=certified,
        n0=n0,
        response=response.describe(),
        kernel=repr(kernel),
        bound_beyond=exp_or_inf(beyond),
        method=method,
        explanation=why,
        evaluations=evaluations,
        gap=gap,
        _model=response,
        _kernel=kernel,
    )


def relaxed_maximiser(response: ResponseModel, kernel: StationaryKernel, upper: float) -> float:
    """Maximiser of ``g(x) = ∫_1^x k_T²(s R(x)) ds`` on ``[1, upper]`` (``bolt`` §3.4, relaxed objective);
    the integral is the closed form of :func:`~tvbo_verify.theory.correlation_sums.relaxed_objective`."""
    upper = check_positive("upper", upper)
    profile = squared_correlation(kernel)

    def g(x: float) -> float:
        return -relaxed_objective(profile, x, _spacing(response, kernel, x))

    with np.errstate(over="ignore", under="ignore"):  # lags beyond float64 are infinitely far: q = 0
        res = optimize.minimize_scalar(g, bounds=(1.0, max(1.0 + 1e-9, upper)), method="bounded",
                                       options={"xatol": 1e-6})
    return float(res.x)


def n_star_for(
    response: ResponseModel | str, kernel_name: str, lengthscale: float, **kwargs: object
) -> NStarResult:
    """Convenience wrapper: ``n*`` for a response expression and a named temporal kernel."""
    model = ResponseModel.from_expression(response) if isinstance(response, str) else response
    return n_star(model, temporal_kernel(kernel_name, lengthscale), **kwargs)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------------
# Timing this machine's GP-UCB step
# --------------------------------------------------------------------------------------------------
def measure_response_times(
    sizes: list[int] | np.ndarray,
    rng: np.random.Generator,
    *,
    d: int = 2,
    grid_size: int = 1000,
    repeats: int = 3,
    observation_time: float = 0.0,
) -> tuple[np.ndarray, np.ndarray, ResponseModel]:
    """Time one GP-UCB step (exact posterior on ``n`` points + UCB argmax over a grid) for each size.

    Returns ``(sizes, seconds, model)`` with ``model = observation_time + (non-negative cubic fit of the
    measured seconds)``, increasing by construction; ``observation_time`` is the ``c`` of ``bolt``
    Definition 3.5 (irreducible time to observe ``f``), so ``R(0) >= c``.
    The step uses :func:`tvbo_verify.gp.posterior` with a spatio-temporal SE kernel.
    """
    from ..gp import posterior
    from ..kernels import SpatioTemporalKernel

    ns = np.asarray([check_int("size", s, minimum=1) for s in sizes], dtype=np.int64)
    if np.unique(ns).size < 4:
        raise ValueError(f"sizes must hold at least 4 distinct dataset sizes, got {ns.tolist()}")
    d = check_int("d", d, minimum=1)
    grid_size = check_int("grid_size", grid_size, minimum=1)
    repeats = check_int("repeats", repeats, minimum=1)
    obs = float(observation_time)
    if obs < 0:
        raise ValueError(f"observation_time must be >= 0, got {obs!r}")
    kernel = SpatioTemporalKernel(SquaredExponential(1.0, 0.3), SquaredExponential(1.0, 10.0))
    grid = as_points("grid", rng.uniform(0.0, 1.0, size=(grid_size, d)))
    seconds = np.empty(ns.size)
    for j, n in enumerate(ns):
        X = np.column_stack([rng.uniform(0.0, 1.0, size=(n, d)), np.arange(n, dtype=float)])
        y = rng.standard_normal(n)
        Xs = np.column_stack([grid, np.full(grid_size, float(n))])
        best = math.inf
        for _ in range(repeats):
            t0 = time.perf_counter()
            mean, var = posterior(kernel, X, y, 0.01, Xs)
            int(np.argmax(mean + 2.0 * np.sqrt(np.maximum(var, 0.0))))
            best = min(best, time.perf_counter() - t0)
        seconds[j] = best
    fit = ResponseModel.fit_cubic(ns.astype(float), seconds, nonnegative=True)
    if sp.Poly(fit.expr, N_SYMBOL).degree() < 1:
        raise ValueError(f"measured step times do not grow with n over sizes {ns.tolist()}; use larger sizes")
    model = ResponseModel(fit.expr + sp.Float(obs), "measured",
                          f"{obs!r} s observation + non-negative cubic fit to {ns.size} timed GP-UCB steps")
    return ns, seconds, model
