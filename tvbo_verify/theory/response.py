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
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import sympy as sp
from scipy import integrate, optimize, special

from ..kernels import Matern, RationalQuadratic, SquaredExponential, StationaryKernel, temporal_kernel
from ..validation import as_points, as_vector, check_int, check_positive

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
    ast.Pow: lambda a, b: a**b,
}


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
    raise ValueError(f"response expression contains an unsupported construct ({type(node).__name__}); use numbers, n, + - * / ^ and exp/log/sqrt")


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
    expr = _to_sympy(tree)
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
        """Cubic least-squares fit to measured pairs (``bolt`` §4). ``nonnegative=True`` solves the
        non-negative least-squares problem instead, which always gives an increasing cubic."""
        n_arr = as_vector("n", n)
        r_arr = as_vector("R", R, n_arr.size)
        if np.unique(n_arr).size < 4:
            raise ValueError(f"a cubic fit needs at least 4 distinct dataset sizes n, got {np.unique(n_arr).size}")
        if np.any(n_arr < 0):
            raise ValueError("dataset sizes n must be >= 0")
        scale = max(1.0, float(np.max(n_arr)))
        V = np.vander(n_arr / scale, 4, increasing=True)
        if nonnegative:
            coef, _ = optimize.nnls(V, r_arr)
        else:
            coef, *_ = np.linalg.lstsq(V, r_arr, rcond=None)
        coef = coef / scale ** np.arange(4)
        model = ResponseModel.polynomial(coef)
        return ResponseModel(model.expr, "cubic-fit", f"cubic fit to {n_arr.size} measured pairs")


def load_response_times(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """Read ``(n, R)`` pairs from a CSV file with two numeric columns (a header line is allowed)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"response-times file not found: {path}")
    rows: list[tuple[float, float]] = []
    with path.open(newline="") as fh:
        for lineno, row in enumerate(csv.reader(fh), start=1):
            if not row or all(not c.strip() for c in row):
                continue
            try:
                rows.append((float(row[0]), float(row[1])))
            except (ValueError, IndexError):
                if lineno == 1:
                    continue  # header
                raise ValueError(f"response-times file line {lineno} must hold two numbers n,R, got {row}") from None
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
        raise ValueError(f"R(n) must be finite, got R({bad}) = {vals[bad]!r}")
    diffs = np.diff(vals)
    if np.any(diffs <= 0):
        i = int(np.argmax(diffs <= 0))
        raise ValueError(
            f"R must be strictly increasing (Definition 3.5 (ii)), got R({i + 1}) = {vals[i + 1]:.6g} <= R({i}) = {vals[i]:.6g}"
        )
    expr = model.expr
    if expr.is_polynomial(N_SYMBOL):
        poly = sp.Poly(expr, N_SYMBOL)
        if poly.degree() < 1 or float(poly.LC()) <= 0:
            raise ValueError(f"R(n) must diverge as n -> infinity (Definition 3.5 (iii)), got {model.describe()}")
        dpoly = sp.Poly(sp.diff(expr, N_SYMBOL), N_SYMBOL)
        roots = [complex(r) for r in dpoly.nroots()] if dpoly.degree() >= 1 else []
        late = [r.real for r in roots if abs(r.imag) < 1e-9 and r.real > n_max]
        if late:
            raise ValueError(f"R must be strictly increasing (Definition 3.5 (ii)), but R'(n) changes sign at n = {late[0]:.6g}")
    else:
        lim = sp.limit(expr, N_SYMBOL, sp.oo)
        if lim is not sp.oo:
            raise ValueError(f"R(n) must diverge as n -> infinity (Definition 3.5 (iii)), got limit {lim}")


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


def log_u2(n: int, response: ResponseModel, kernel: StationaryKernel) -> float:
    """``log ||u_n||²`` computed in log space (``-inf`` for ``n = 0``); comparisons of ``||u_n||²`` far
    from ``n*`` underflow to ``0 = 0`` in float64, so the searches compare logs."""
    n = check_int("n", n, minimum=0)
    if n == 0:
        return -math.inf
    rn = float(response(float(n)))
    lk = 2.0 * _log_kernel(kernel, np.arange(1, n + 1, dtype=float) * rn)
    return float(special.logsumexp(lk))


def u2(n: int, response: ResponseModel, kernel: StationaryKernel) -> float:
    """``||u_n||² = Σ_{i=1}^n k_T²(i R(n))`` (``bolt`` eq. (8)); ``||u_0||² = 0``."""
    return math.exp(log_u2(n, response, kernel))


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


def _series_bound(r: float, kernel: StationaryKernel) -> float:
    """Upper bound on ``Σ_{i>=1} k_T²(i r)`` (``k_T`` decreasing): partial sum plus an integral tail."""
    i_max = 200
    i = np.arange(1, i_max + 1, dtype=float)
    k = kernel.of_distance(i * r)
    tail, _ = integrate.quad(lambda s: float(kernel.of_distance(s * r)) ** 2, i_max, np.inf, limit=200)
    return float(np.sum(k * k) + tail)


@dataclass(frozen=True)
class NStarResult:
    """``n*`` by the paper's hill-climb and by brute force (``bolt`` eq. (9), Recommendation 1)."""

    n_star: int
    n_star_hill_climb: int
    n_star_brute_force: int
    u2: float
    searched_up_to: int
    certified: bool
    n0: int
    response: str
    kernel: str
    curve: np.ndarray

    @property
    def agree(self) -> bool:
        return self.n_star_hill_climb == self.n_star_brute_force


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


def n_star(
    response: ResponseModel,
    kernel: StationaryKernel,
    *,
    n0: int = 1,
    n_cap: int = 50_000,
    validate: bool = True,
) -> NStarResult:
    """``n* = argmax_n ||u_n||²`` by hill-climb from ``n0`` and by certified brute force.

    The brute force doubles its range ``N`` until no ``n > N`` can beat the best value found: for
    ``n >= N``, ``||u_n||² <= Σ_{i>=1} k_T²(i R(N))`` because ``k_T`` decreases and ``R`` increases.
    If the certificate fails up to ``n_cap``, ``certified`` is ``False`` (e.g. ``R`` nearly constant).
    """
    if validate:
        validate_response(response, n_max=min(n_cap, 10_000))
    n_cap = check_int("n_cap", n_cap, minimum=2)
    N = 64
    curve = log_u2_curve(min(N, n_cap), response, kernel)
    certified = False
    while True:
        best = int(np.argmax(curve))
        bound = _series_bound(float(response(float(curve.size - 1))), kernel)
        if bound <= 0 or math.log(bound) < curve[best]:
            certified = True
            break
        if curve.size - 1 >= n_cap:
            break
        N = min(2 * N, n_cap)
        extra = np.array([log_u2(n, response, kernel) for n in range(curve.size, N + 1)])
        curve = np.concatenate([curve, extra])
    brute = int(np.argmax(curve))
    hc = hill_climb(response, kernel, n0=n0)
    return NStarResult(
        n_star=brute,
        n_star_hill_climb=hc,
        n_star_brute_force=brute,
        u2=math.exp(float(curve[brute])),
        searched_up_to=int(curve.size - 1),
        certified=certified,
        n0=int(n0),
        response=response.describe(),
        kernel=repr(kernel),
        curve=np.exp(curve),
    )


def relaxed_maximiser(response: ResponseModel, kernel: StationaryKernel, upper: float) -> float:
    """Maximiser of ``g(x) = ∫_1^x k_T²(s R(x)) ds`` on ``[1, upper]`` (``bolt`` §3.4, relaxed objective)."""
    upper = check_positive("upper", upper)

    def g(x: float) -> float:
        rx = float(response(x))
        val, _ = integrate.quad(lambda s: float(kernel.of_distance(s * rx)) ** 2, 1.0, x, limit=200)
        return -val

    res = optimize.minimize_scalar(g, bounds=(1.0, max(1.0 + 1e-9, upper)), method="bounded", options={"xatol": 1e-6})
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
