"""Cholesky-based linear algebra with the project's jitter ladder (docs/ARCHITECTURE.md §8).

No explicit inverse is ever formed. A positive-definite factorisation is attempted first without
jitter, then with ``jitter = r * mean(diag(A))`` for ``r`` in :data:`JITTER_LADDER`; the jitter used
is returned so that it can be recorded in the evidence. Past the last rung :class:`NumericalError`
is raised.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy import linalg as sla
from scipy.linalg.lapack import dpotrf, dtrtrs

from .errors import NumericalError

__all__ = [
    "JITTER_LADDER", "Factor", "stable_cholesky", "logdet_psd", "pivoted_cholesky",
]

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
        """Return ``L^{-1} b`` (forward substitution; LAPACK ``trtrs`` called directly, the factor is square and
        non-singular by construction)."""
        b = np.asarray(b, dtype=float)
        if b.size == 0:
            return np.zeros(b.shape)
        return dtrtrs(self.L, b, lower=1)[0]

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
    if np.all(np.isfinite(A)):  # LAPACK potrf directly (small factors are called every round)
        L, info = dpotrf(A, lower=1, clean=1)
        if info == 0:
            return Factor(L, 0.0)
    else:  # non-finite entries: numpy's own routine decides, as it always did
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


def pivoted_cholesky(diag: np.ndarray, column: Callable[[int], np.ndarray], *, tol: float,
                     max_rank: int) -> np.ndarray | None:
    """Factor ``F`` (``n×r``) of a PSD matrix ``A ≈ F Fᵀ`` by greedy diagonal pivoting, reading columns on demand.

    ``diag`` is the diagonal of ``A`` and ``column(j)`` its ``j``-th column. Pivoting stops once every residual
    diagonal entry of ``A − F Fᵀ`` (itself PSD) is at most ``tol · max(diag)``, so every entry of the residual
    is at most that bound; returns ``None`` if more than ``max_rank`` columns would be needed. Cost
    ``O(n r²)`` and ``r`` columns.
    """
    d = np.array(diag, dtype=float)
    n = d.size
    threshold = tol * float(np.max(d)) if n else 0.0
    F = np.zeros((n, max(int(max_rank), 0)))
    for r in range(F.shape[1] + 1):
        j = int(np.argmax(d)) if n else 0
        if not n or d[j] <= threshold:
            return F[:, :r]
        if r == F.shape[1]:
            return None
        col = (np.asarray(column(j), dtype=float) - F[:, :r] @ F[j, :r]) / np.sqrt(d[j])
        F[:, r] = col
        d -= col * col
        d[j] = 0.0
    return None  # pragma: no cover - the loop returns
