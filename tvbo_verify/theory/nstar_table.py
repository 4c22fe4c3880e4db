"""The ``calc nstar`` table: the response model ``R(n)``, ``n*`` (``bolt`` eq. (9)) and Theorem 3.8.

:func:`response_model` builds ``R(n)`` from one source (an expression, measured ``(n, R)`` pairs or a
timing of this machine's GP-UCB step); a cubic fitted to measured pairs is checked against Definition 3.5
there, naming the fit to use when a least-squares cubic is unsuitable. An expression is checked by
:func:`nstar_table`, which also answers a constant ``R`` (``n* = ∞``, explained) rather than refusing it.
:func:`nstar_table` gathers the result as a dataclass.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np

from ..kernels import SquaredExponential, temporal_kernel
from ..validation import check_choice, check_int, check_nonnegative
from .lower_bounds import bolt_upper_bound
from .response import (
    NStarResult,
    ResponseModel,
    load_response_times,
    measure_response_times,
    n_star,
    relaxed_maximiser,
    u2,
    validate_response,
)

FITS: tuple[str, ...] = ("lstsq", "nonneg")


@dataclass(frozen=True)
class Measurements:
    """Dataset sizes and the seconds one GP-UCB step took at each."""

    n: np.ndarray
    seconds: np.ndarray

    FIELDS: ClassVar[dict[str, str]] = {
        "n": "dataset sizes timed (--measure-sizes)",
        "seconds": "seconds one GP-UCB step took at each size, plus --observation-time",
    }


def response_model(*, expression: str | None = None, times_file: str | Path | None = None, fit: str = "lstsq",
                   measure_sizes: list[int] | None = None,
                   observation_time: float = 0.0) -> tuple[ResponseModel, Measurements | None]:
    """``R(n)`` from exactly one of ``expression``, ``times_file`` (cubic fit ``fit``) or ``measure_sizes``.

    Examples
    --------
    >>> model, measured = response_model(expression="0.1 + 0.01*n")
    >>> model.describe(), measured
    ('R(n) = 0.01*n + 0.1', None)
    >>> response_model()
    Traceback (most recent call last):
    ...
    ValueError: give exactly one response source: an expression, a response-times file or sizes to measure
    """
    given = sum(x is not None for x in (expression, times_file, measure_sizes))
    if given != 1:
        raise ValueError("give exactly one response source: an expression, a response-times file or sizes to measure")
    if expression is not None:
        return ResponseModel.from_expression(expression), None
    if measure_sizes is not None:
        obs = check_nonnegative("observation_time", observation_time)
        ns, secs, model = measure_response_times(measure_sizes, np.random.default_rng(0), observation_time=obs)
        return model, Measurements(ns, secs)
    check_choice("fit", fit, FITS)
    n_obs, r_obs = load_response_times(times_file)  # type: ignore[arg-type]
    model = ResponseModel.fit_cubic(n_obs, r_obs, nonnegative=fit == "nonneg")
    try:
        validate_response(model)
    except ValueError as exc:
        if fit == "lstsq":
            raise ValueError(f"the least-squares cubic {model.describe()} does not satisfy Definition 3.5 ({exc}); "
                             "use the non-negative fit (--fit nonneg), which keeps R increasing") from None
        raise ValueError(f"the non-negative cubic {model.describe()} does not satisfy Definition 3.5 ({exc}); "
                         "the measurements need R(0) > 0 and R growing with n (add a measurement at small n, "
                         "or give R(n) as an expression with --response)") from None
    return model, None


@dataclass(frozen=True)
class Theorem38:
    """``bolt`` Theorem 3.8, eq. (7), at ``n*`` and at ``n = 1`` (upper bounds on ``E[R_T]``)."""

    horizon: int
    ks_at_sqrt_d: float
    bound_at_n_star: float
    bound_at_n_1: float
    bound_without_data_term: float

    FIELDS: ClassVar[dict[str, str]] = {
        "horizon": "horizon T of Theorem 3.8, in iterations",
        "ks_at_sqrt_d": "k_S(sqrt d), the SE spatial correlation across the diagonal of [0, 1]^d",
        "bound_at_n_star": "eq. (7), 2 + sqrt(4 lambda beta_T T (T - lambda k_S^2 ||u_n||^2/(lambda + sigma_0^2))), "
                           "at n = n* (beta_T of eq. (63), natural log)",
        "bound_at_n_1": "eq. (7) at n = 1",
        "bound_without_data_term": "eq. (7) with ||u_n||^2 = 0",
    }


@dataclass(frozen=True)
class NStarTable:
    """``n*`` of ``bolt`` eq. (9) for one response model and temporal kernel (see :class:`NStarResult`)."""

    n_star: int | float
    n_star_hill_climb: int | None
    n_star_brute_force: int | float
    agree: bool | None  # None: the hill-climb was not run (n* far from n0)
    u2: float
    R_at_n_star: float | None
    relaxed_maximiser: float | None
    certified: bool
    gap: float
    searched_up_to: int
    bound_beyond: float
    explanation: str
    n0: int
    response: str
    temporal_kernel: str
    temporal_lengthscale: float
    measured: Measurements | None = None
    theorem_3_8: Theorem38 | None = None

    FIELDS: ClassVar[dict[str, str]] = {
        "n_star": "n* = argmax_n ||u_n||^2 (bolt eq. (9)) by the certified search; inf when R is constant",
        "n_star_hill_climb": "n* by the paper's hill-climb from n0 (Recommendation 1); empty when not run",
        "n_star_brute_force": "n* by evaluating every n up to searched_up_to",
        "agree": "whether the hill-climb found the certified n*",
        "u2": "||u_n*||^2 = sum_{i<=n*} k_T^2(i R(n*)) (unit-variance temporal kernel)",
        "R_at_n_star": "R(n*), seconds between iterations at dataset size n*",
        "relaxed_maximiser": "maximiser of the continuous relaxation int_1^x k_T^2(s R(x)) ds (section 3.4)",
        "certified": "whether no n beats u2 by more than the relative gap (every n evaluated or bounded)",
        "gap": "relative gap of the certificate",
        "searched_up_to": "largest n evaluated or bounded one by one",
        "bound_beyond": "upper bound on ||u_n||^2 for every n > searched_up_to",
        "explanation": "how n* was obtained",
        "n0": "start of the hill-climb",
        "response": "the response-time model R(n), in seconds",
        "temporal_kernel": "temporal kernel k_T",
        "temporal_lengthscale": "temporal lengthscale l_T, in seconds",
        "measured": "timings of this machine's GP-UCB step (with --measure)",
        "theorem_3_8": "bolt Theorem 3.8, eq. (7), with -T",
    }


def nstar_table(model: ResponseModel, kernel_name: str, lengthscale: float, *, n0: int = 1,
                horizon: int | None = None, d: int = 1, lipschitz: float = 1.0, delta: float = 0.1,
                noise_var: float = 0.01, spatial_lengthscale: float = 1.0,
                measured: Measurements | None = None) -> tuple[NStarTable, NStarResult]:
    """``n*`` by the certified search and the paper's hill-climb, the relaxed maximiser and, with a horizon,
    Theorem 3.8's bound (7) at ``n*``.

    Examples
    --------
    ``R(n) = 0.1 + 0.01 n`` seconds with a Matérn-1/2 temporal kernel of lengthscale 1 s:

    >>> model, _ = response_model(expression="0.1 + 0.01*n")
    >>> table, result = nstar_table(model, "matern12", 1.0, horizon=100)
    >>> table.n_star, table.agree, table.certified, round(table.u2, 4), round(table.R_at_n_star, 4)
    (6, True, True, 2.2629, 0.16)
    >>> th = table.theorem_3_8
    >>> round(th.bound_at_n_star, 2), round(th.bound_at_n_1, 2), round(th.bound_without_data_term, 2)
    (1299.57, 1303.04, 1304.95)

    A constant ``R`` has no maximiser (``n* = ∞``); a decreasing one breaks Definition 3.5:

    >>> nstar_table(response_model(expression="0.5")[0], "matern12", 1.0)[0].n_star
    inf
    >>> nstar_table(response_model(expression="0.1 - n")[0], "matern12", 1.0)
    Traceback (most recent call last):
    ...
    ValueError: R must be strictly increasing (Definition 3.5 (ii)), got R(1) = -0.9 <= R(0) = 0.1
    """
    kernel = temporal_kernel(kernel_name, lengthscale)
    if horizon is not None:
        horizon = check_int("horizon", horizon, minimum=1)
    res = n_star(model, kernel, n0=n0)
    finite = math.isfinite(res.n_star)
    relaxed = relaxed_maximiser(model, kernel, 2.0 * res.n_star + 10.0) if finite and res.n_star < 1e15 else None
    theorem = None
    if horizon is not None:
        ksd = float(SquaredExponential(1.0, spatial_lengthscale).of_distance(math.sqrt(d)))

        def bound(value: float) -> float:
            return bolt_upper_bound(horizon, value, d=d, lipschitz=lipschitz, delta=delta, noise_var=noise_var,
                                    ks_diameter=ksd)

        theorem = Theorem38(horizon, ksd, bound(res.u2), bound(u2(1, model, kernel)), bound(0.0))
    table = NStarTable(
        n_star=res.n_star, n_star_hill_climb=res.n_star_hill_climb, n_star_brute_force=res.n_star_brute_force,
        agree=res.agree, u2=res.u2, R_at_n_star=float(model(float(res.n_star))) if finite else None,
        relaxed_maximiser=relaxed, certified=res.certified, gap=res.gap, searched_up_to=res.searched_up_to,
        bound_beyond=res.bound_beyond, explanation=res.explanation, n0=res.n0, response=model.describe(),
        temporal_kernel=kernel_name, temporal_lengthscale=float(lengthscale), measured=measured,
        theorem_3_8=theorem,
    )
    return table, res


def u2_samples(res: NStarResult, model: ResponseModel, kernel_name: str, lengthscale: float,
               points: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """``(n, ||u_n||²)`` on up to ``points`` sizes around ``n*`` (the ``--plot`` curve); for constant
    ``R`` (``n* = ∞``) on sizes up to the length where the sum has converged."""
    kernel = temporal_kernel(kernel_name, lengthscale)
    if math.isfinite(res.n_star):
        top = max(3 * int(res.n_star), 20)
    else:
        c = float(model(0.0))
        top = int(min(max(20.0, 10.0 * lengthscale / c), 1e7))
    ns = np.unique(np.round(np.geomspace(1, top, points)).astype(np.int64)) if top > points else np.arange(1, top + 1)
    return ns, np.array([u2(int(n), model, kernel) for n in ns])


__all__ = ["FITS", "Measurements", "NStarTable", "Theorem38", "nstar_table", "response_model", "u2_samples"]
