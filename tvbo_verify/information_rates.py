"""Analytic rates of the maximum information gain ``γ_T`` (orders, constants unknown).

:func:`gamma_rate_exponents` and :func:`gamma_rate_bound` give the order of ``γ_T`` for SE and Matérn
kernels (Srinivas et al. 2010, Thm 5; Vakili et al. 2021): ``constant · T^a · (log T)^b`` with the
natural logarithm. They need neither kernels nor linear algebra, so they live apart from
:mod:`tvbo_verify.information` (which re-exports them) and the calculators that only need a rate
import nothing heavy.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .validation import check_choice, check_int, check_positive

__all__ = [
    "RATE_KERNELS", "RATE_SOURCES", "RateExponents", "gamma_rate_exponents", "gamma_rate_bound",
]

RATE_KERNELS: tuple[str, ...] = ("se", "matern")
RATE_SOURCES: tuple[str, ...] = ("vakili", "srinivas")


class RateExponents(NamedTuple):
    """``γ_T = O(T^power · (log T)^log_power)``."""

    power: float
    log_power: float


def gamma_rate_exponents(kernel_name: str, d: int, nu: float | None = None, source: str = "vakili") -> RateExponents:
    """Exponents ``(a, b)`` of ``γ_T = O(T^a (log T)^b)``.

    * ``"se"``: ``(0, d + 1)`` — Srinivas et al. 2010, Thm 5; Vakili et al. 2021 give the same order.
    * ``"matern"``, ``source="srinivas"``: ``a = d(d+1) / (2ν + d(d+1))``, ``b = 1`` (Srinivas et al.
      2010, Thm 5; the exponent ``c`` of ``tvgpucb`` Cor. 4.1).
    * ``"matern"``, ``source="vakili"``: ``a = d / (2ν + d)``, ``b = 2ν / (2ν + d)`` (Vakili et al. 2021).
    """
    check_choice("kernel_name", kernel_name, RATE_KERNELS)
    check_choice("source", source, RATE_SOURCES)
    d = check_int("d", d, 1)
    if kernel_name == "se":
        return RateExponents(0.0, float(d + 1))
    if nu is None:
        raise ValueError("nu must be given (> 0) for the Matern rate, got None")
    nu = check_positive("nu", nu)
    if source == "srinivas":
        q = d * (d + 1.0)
        return RateExponents(q / (2.0 * nu + q), 1.0)
    return RateExponents(d / (2.0 * nu + d), 2.0 * nu / (2.0 * nu + d))


def gamma_rate_bound(
    kernel_name: str,
    T: int,
    d: int,
    nu: float | None = None,
    source: str = "vakili",
    constant: float = 1.0,
) -> float:
    """Order-level bound ``constant · T^a · (log T)^b`` on ``γ_T`` with ``(a, b)`` from
    :func:`gamma_rate_exponents`. These are **rates, up to constants**: the papers give no constant, so
    ``constant`` is explicit and defaults to 1."""
    T = check_int("T", T, 1)
    constant = check_positive("constant", constant)
    a, b = gamma_rate_exponents(kernel_name, d, nu, source)
    return constant * float(T) ** a * math.log(T) ** b
