"""Eigendecay conditions of Mercer weights (``wgpucb`` §6, Corollary 8 and Remark 5).

:func:`fit_eigen_decay` fits ``c_m <= C_1 exp(−C_2 m)`` or ``c_m <= C_1 m^{−C_2}`` to a decreasing
sequence of Mercer weights (e.g. :attr:`tvbo_verify.information.GridMercer.c`), as the catalog's
recipe for Corollary 8 does: the rate by least squares over the non-negligible range, the constant
as small as the condition allows for every mode.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..validation import as_vector, check_choice, check_positive

__all__ = ["EigenDecayFit", "fit_eigen_decay"]


@dataclass(frozen=True)
class EigenDecayFit:
    """Constants of an eigendecay condition fitted to Mercer weights ``c_1 >= c_2 >= …`` (``wgpucb`` §6).

    ``kind="exponential"``: ``c_m <= C_1 exp(−C_2 m)``; ``kind="polynomial"``: ``c_m <= C_1 m^{−C_2}``
    (``C_1 = C_p``, ``C_2 = β_p``). ``C_2`` is the least-squares rate over the modes above
    ``floor · c_1``; ``C_1`` is the smallest constant with which the condition holds for every mode.
    """

    kind: str
    C_1: float
    C_2: float
    modes: int


def fit_eigen_decay(eigenvalues: np.ndarray, kind: str, floor: float = 1e-10) -> EigenDecayFit:
    """Fit ``c_m <= C_1 exp(−C_2 m)`` (``"exponential"``) or ``c_m <= C_1 m^{−C_2}`` (``"polynomial"``) to
    decreasing Mercer weights (papers/wgpucb/READING.md §wgpucb:corollary-8-exponential: rate by regression over
    the non-negligible range, ``C_1 = max_m c_m e^{C_2 m}`` resp. ``max_m c_m m^{C_2}`` so that the condition
    holds for all m)."""
    check_choice("kind", kind, ("exponential", "polynomial"))
    c = np.sort(as_vector("eigenvalues", eigenvalues))[::-1]
    c = c[c > check_positive("floor", floor) * c[0]]
    if c.size < 2:
        raise ValueError(f"eigenvalues must hold at least 2 values above floor * c_1, got {c.size}")
    m = np.arange(1.0, c.size + 1)
    z = m if kind == "exponential" else np.log(m)
    rate = -float(np.polyfit(z, np.log(c), 1)[0])
    if not rate > 0:
        raise ValueError(f"eigenvalues must decay: fitted {kind} rate {rate:.4g} <= 0")
    scale = float(np.max(c * np.exp(rate * z)))
    return EigenDecayFit(kind, scale, rate, int(c.size))
