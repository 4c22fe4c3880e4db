"""Cholesky-based linear algebra with the project's jitter ladder (ARCHITECTURE.md, "Numerics").

No explicit inverse is ever formed. A positive-definite factorisation is attempted first without
jitter, then with ``jitter = r * mean(diag(A))`` for ``r`` in :data:`JITTER_LADDER`; the jitter used
is returned so that it can be recorded in the evidence. Past the last rung :class:`NumericalError`
is raised.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg as sla

from .errors import NumericalError

#: Relative jitters tried in order (multiples of the mean diagonal), after a jitter-free attempt.
JITTER_LADDER: tuple[float, ...] = (1e-10, 1e-9, 1e-8, 1e-7, 1e-6)


@dataclass(frozen=True)
class Factor:
    """Lower Cholesky factor ``L`` of ``A + jitter * I`` and the absolute jitter that was needed."""

    L: np.ndarray
    jitter: float

    def solve(self, b: np.ndarray) -> np.ndarray:
        """Solve ``(A + jitter I) x = b``."""
        return sla.cho_solve((self.L, True), b, check_finite=False)

    def half_solve(self, b: np.ndarray) -> np.ndarray:
        """Return ``L^{-1} b`` (forward substitution)."""
        return sla.solve_triangular(self.L, b, lower=True, check_finite=False)

    def logdet(self) -> float:
        """Return ``log det(A + jitter I)``."""
        return 2.0 * float(np.sum(np.log(np.diag(self.L))))


def stable_cholesky(A: np.ndarray, *, name: str = "matrix") -> Factor:
    """Factor the symmetric matrix ``A`` with the jitter ladder.

    Raises :class:`NumericalError` naming ``name`` when even the largest jitter fails.
    """
    A = np.asarray(A, dtype=float)
    n = A.shape[0]
    if n == 0:
        return Factor(np.zeros((0, 0)), 0.0)
    try:
        return Factor(np.linalg.cholesky(A), 0.0)
    except np.linalg.LinAlgError:
        pass
    scale = float(np.mean(np.diag(A)))
    if not np.isfinite(scale) or scale <= 0:
        scale = 1.0
    for rel in JITTER_LADDER:
        jitter = rel * scale
        try:
            return Factor(np.linalg.cholesky(A + jitter * np.eye(n)), jitter)
        except np.linalg.LinAlgError:
            continue
    raise NumericalError(
        f"Cholesky factorisation of {name} ({n}x{n}) failed even with jitter "
        f"{JITTER_LADDER[-1]:g} x mean diagonal ({JITTER_LADDER[-1] * scale:.3g})"
    )


def logdet_psd(A: np.ndarray, *, name: str = "matrix") -> float:
    """Return ``log det A`` for a symmetric positive-definite ``A`` via Cholesky."""
    return stable_cholesky(A, name=name).logdet()
