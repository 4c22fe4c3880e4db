"""The ``calc gamma`` table: the order of ``γ_T`` and, on a grid, the greedy bracket of ``γ_T`` itself.

``γ_T = max_{x_1..x_T} ½ log det(I + σ⁻² K_T)`` (``tvgpucb`` eq. (13), natural log, in nats). The
analytic rates (Srinivas et al. 2010, Vakili et al. 2021) give only its order ``T^a log^b T``, with an
unknown constant. On a grid of ``N`` points per dimension of ``[0, 1]^d``,
:func:`tvbo_verify.information.max_information_gain` brackets the maximum over the grid,
``lower <= γ_T(grid) <= upper = lower / (1 - 1/e)``; the grid is a subset of the domain, so ``lower``
is also a lower bound on ``γ_T`` of the cube. The greedy bracket costs about ``T² N^d`` operations and
is refused above :data:`GRID_WORK_LIMIT`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..information_rates import RATE_KERNELS, gamma_rate_bound, gamma_rate_exponents
from ..validation import check_choice, check_int, check_positive
from .calculators import check_float_horizon

__all__ = [
    "GRID_WORK_LIMIT", "GRID_KERNELS", "GridBracket", "GammaTable", "grid_bracket", "gamma_table",
]

#: Largest ``T² · N^d`` of the greedy bracket (about a second of work).
GRID_WORK_LIMIT = 5 * 10**8
GRID_KERNELS: tuple[str, ...] = ("se", "matern")
#: the most grid points a certified bracket is computed on
CERTIFIED_POINTS = 400


@dataclass(frozen=True)
class GridBracket:
    """Greedy bracket of ``γ_T`` over a grid (:func:`tvbo_verify.information.max_information_gain`)."""

    points_per_dimension: int
    candidates: int
    lengthscale: float
    noise_var: float
    lower: float
    upper: float

    FIELDS: ClassVar[dict[str, str]] = {
        "points_per_dimension": "grid points N per dimension of [0, 1]^d",
        "candidates": "N^d grid points the T observations are chosen from (with repetition)",
        "lengthscale": "lengthscale of the kernel (unit variance, inputs in [0, 1]^d)",
        "noise_var": "noise variance sigma^2",
        "lower": "greedy information gain, 1/2 log det(I + K_T/sigma^2) in nats (natural log): <= gamma_T of the "
                 "grid <= gamma_T of the cube",
        "upper": "lower / (1 - 1/e): >= gamma_T of the grid (Nemhauser et al.; not a bound for the whole cube)",
    }


@dataclass(frozen=True)
class CertifiedBracket:
    """Certified bracket of ``γ_T`` over a grid (:func:`tvbo_verify.information_bounds.certified_gamma`)."""

    points_per_dimension: int
    candidates: int
    kernel: str
    lengthscale: float
    noise_var: float
    lower: float
    upper: float
    ratio: float

    FIELDS: ClassVar[dict[str, str]] = {
        "points_per_dimension": "grid points N per dimension of [0, 1]^d",
        "candidates": "N^d grid points the T observations are chosen from (with repetition)",
        "kernel": "kernel of the bracket (unit variance): se, matern12, matern32 or matern52",
        "lengthscale": "lengthscale of the kernel (inputs in [0, 1]^d)",
        "noise_var": "noise variance sigma^2",
        "lower": "information gain of a feasible set of T grid points, evaluated in ball arithmetic (lower end): "
                 "<= gamma_T of the grid (nats, natural log)",
        "upper": "certified upper bound on gamma_T of the grid, valid for every set of T grid points: the duality "
                 "bound of the concave relaxation or the spectral bound, the smaller, in ball arithmetic (upper end)",
        "ratio": "upper / lower",
    }


def certified_bracket(kernel: str, horizon: int, *, d: int, nu: float | None, points: int, lengthscale: float,
                      noise_var: float) -> CertifiedBracket:
    """``lower <= γ_T(grid) <= upper`` on ``points^d`` grid points of ``[0, 1]^d``, certified despite rounding."""
    from ..information_bounds import certified_gamma

    check_choice("kernel", kernel, GRID_KERNELS)
    points = check_int("grid", points, minimum=1)
    d = check_int("d", d, minimum=1)
    if points**d > CERTIFIED_POINTS:
        raise ValueError(f"grid: grid^d = {points**d} must be <= {CERTIFIED_POINTS} for --certified (a certified "
                         f"determinant costs grid^(3d) ball operations), got grid = {points}, d = {d}")
    name = "se"
    if kernel == "matern":
        names = {0.5: "matern12", 1.5: "matern32", 2.5: "matern52"}
        if nu not in names:
            raise ValueError(f"nu must be one of 0.5, 1.5, 2.5 for --certified, got {nu!r}")
        name = names[nu]
    axes = np.meshgrid(*[np.linspace(0.0, 1.0, points)] * d, indexing="ij")
    candidates = np.stack([a.ravel() for a in axes], axis=1)
    b = certified_gamma(name, candidates, horizon, lengthscale=lengthscale, noise_var=noise_var)
    return CertifiedBracket(points, candidates.shape[0], name, b.lengthscale, b.noise_var, b.lower, b.upper,
                            b.ratio)


@dataclass(frozen=True)
class GammaTable:
    """Order-level ``γ_T = O(T^a log^b T)`` (constants unknown) and, with a grid, the greedy bracket."""

    kernel: str
    horizon: int
    d: int
    nu: float | None
    source: str
    exponent_T: float
    exponent_log: float
    gamma_T: float
    grid: GridBracket | None = None
    certified: CertifiedBracket | None = None

    FIELDS: ClassVar[dict[str, str]] = {
        "kernel": "kernel family (se or matern)",
        "horizon": "horizon T, the number of observations",
        "d": "input dimension d",
        "nu": "Matern smoothness nu",
        "source": "rate used: vakili (Vakili et al. 2021) or srinivas (Srinivas et al. 2010, Thm 5)",
        "exponent_T": "a in gamma_T = O(T^a log^b T)",
        "exponent_log": "b in gamma_T = O(T^a log^b T) (natural log)",
        "gamma_T": "T^a (log T)^b with constant 1: the order of gamma_T, not its value (nats, natural log)",
        "grid": "greedy bracket of gamma_T on a grid (with --grid)",
        "certified": "certified bracket of gamma_T on the grid (with --grid and --certified)",
    }


def grid_bracket(kernel: str, horizon: int, *, d: int, nu: float | None, points: int, lengthscale: float,
                 noise_var: float) -> GridBracket:
    """``lower <= γ_T(grid) <= upper`` on ``points^d`` grid points of ``[0, 1]^d`` (unit-variance kernel)."""
    from ..information import max_information_gain
    from ..kernels import Matern, SquaredExponential

    check_choice("kernel", kernel, GRID_KERNELS)
    points = check_int("grid", points, minimum=1)
    d = check_int("d", d, minimum=1)
    ell = check_positive("lengthscale", lengthscale)
    s2 = check_positive("noise_var", noise_var)
    log10_work = 2.0 * math.log10(horizon) + d * math.log10(points)
    if log10_work > math.log10(GRID_WORK_LIMIT):
        raise ValueError(f"grid: T^2 * grid^d = 10^{log10_work:.1f} must be <= {GRID_WORK_LIMIT:.0e} (the greedy "
                         "bracket costs "
                         f"about T^2 grid^d operations), got horizon = {horizon}, grid = {points}, d = {d}; "
                         "use a smaller --grid, -T or --d")
    if kernel == "matern":
        if nu is None:
            raise ValueError("nu must be given (> 0) for the Matern kernel, got None")
        k = Matern(check_positive("nu", nu), 1.0, ell)
    else:
        k = SquaredExponential(1.0, ell)
    axes = np.meshgrid(*[np.linspace(0.0, 1.0, points)] * d, indexing="ij")
    candidates = np.stack([a.ravel() for a in axes], axis=1)
    res = max_information_gain(k, candidates, horizon, s2)
    return GridBracket(points, candidates.shape[0], ell, s2, float(res.lower), float(res.upper))


def gamma_table(kernel: str, horizon: int, *, d: int = 1, nu: float | None = None, source: str = "vakili",
                grid: int | None = None, lengthscale: float = 0.2, noise_var: float = 0.01,
                certified: bool = False) -> GammaTable:
    """:func:`tvbo_verify.information_rates.gamma_rate_exponents` and ``gamma_rate_bound``; with ``grid`` also
    :func:`grid_bracket` (``lengthscale`` and ``noise_var`` enter only there).

    Examples
    --------
    SE: ``γ_T = O(log^2 T)`` in one dimension; Matérn-5/2 (Vakili et al.): ``O(T^{1/6} log^{5/6} T)``:

    >>> g = gamma_table("se", 1000)
    >>> g.exponent_T, g.exponent_log, round(g.gamma_T, 4)
    (0.0, 2.0, 47.7171)
    >>> m = gamma_table("matern", 1000, nu=2.5)
    >>> round(m.exponent_T, 4), round(m.exponent_log, 4), round(m.gamma_T, 4)
    (0.1667, 0.8333, 15.8288)

    The order has constant 1; on a grid the greedy bracket gives the value itself (here above the order):

    >>> gg = gamma_table("se", 20, grid=20)
    >>> round(gg.gamma_T, 4), round(gg.grid.lower, 1), round(gg.grid.upper / gg.grid.lower, 4)
    (8.9744, 17.0, 1.582)
    >>> gamma_table("matern", 1000)
    Traceback (most recent call last):
    ...
    ValueError: nu must be given (> 0) for the Matern rate, got None
    """
    check_choice("kernel", kernel, RATE_KERNELS)
    horizon = check_float_horizon("horizon", horizon)
    a, b = gamma_rate_exponents(kernel, d, nu, source)
    try:
        value = gamma_rate_bound(kernel, horizon, d, nu=nu, source=source)
    except OverflowError:
        value = math.inf
    if not math.isfinite(value):
        raise ValueError(f"gamma_T overflows float64 at horizon = {horizon} with d = {d}; use a smaller d or horizon")
    bracket = sure = None
    if certified and grid is None:
        raise ValueError("certified: the certified bracket is over a grid; give --grid N as well")
    if grid is not None:
        bracket = grid_bracket(kernel, horizon, d=d, nu=nu, points=grid, lengthscale=lengthscale, noise_var=noise_var)
        if certified:
            sure = certified_bracket(kernel, int(horizon), d=d, nu=nu, points=grid, lengthscale=lengthscale,
                                     noise_var=noise_var)
    return GammaTable(kernel, horizon, d, nu, source, a, b, value, bracket, sure)
