"""Parameter validation with messages that name the parameter, its value and the allowed range.

Every public function of the toolkit validates its inputs through these helpers, so that the CLI can
turn a ``ValueError`` into a single line for the user (docs/ARCHITECTURE.md §11).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

_FLOAT_EPS = float(np.finfo(float).eps)


def _fmt(value: Any) -> str:
    if isinstance(value, (np.floating, np.integer)):
        value = value.item()
    if isinstance(value, float):
        return repr(value)
    return str(value)


def check_positive(name: str, value: float) -> float:
    """Return ``value`` as float if it is finite and > 0, else raise ``ValueError``."""
    v = _as_real(name, value)
    if not v > 0:
        raise ValueError(f"{name} must be > 0, got {_fmt(value)}")
    return v


def check_nonnegative(name: str, value: float) -> float:
    """Return ``value`` as float if it is finite and >= 0."""
    v = _as_real(name, value)
    if not v >= 0:
        raise ValueError(f"{name} must be >= 0, got {_fmt(value)}")
    return v


def check_open_interval(name: str, value: float, low: float, high: float, label: str | None = None) -> float:
    """Return ``value`` if ``low < value < high``; ``label`` overrides how the interval is printed."""
    v = _as_real(name, value)
    if not (low < v < high):
        rng = label or f"({low:g}, {high:g})"
        raise ValueError(f"{name} must be in {rng}, got {_fmt(value)}")
    return v


def check_interval(
    name: str,
    value: float,
    low: float,
    high: float,
    *,
    closed_low: bool = True,
    closed_high: bool = True,
) -> float:
    """Return ``value`` if it lies in the interval with the requested closedness."""
    v = _as_real(name, value)
    ok_low = v >= low if closed_low else v > low
    ok_high = v <= high if closed_high else v < high
    if not (ok_low and ok_high):
        rng = f"{'[' if closed_low else '('}{low:g}, {high:g}{']' if closed_high else ')'}"
        raise ValueError(f"{name} must be in {rng}, got {_fmt(value)}")
    return v


def check_int(name: str, value: Any, minimum: int | None = None, *, maximum: int | None = None,
              reason: str = "") -> int:
    """Return ``value`` as int if it is an integer (not bool), at least ``minimum`` and at most ``maximum``;
    ``reason`` (why there is a maximum) is added to the message when the value exceeds it."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        if isinstance(value, (float, np.floating)) and float(value).is_integer():
            value = int(value)
        else:
            raise ValueError(f"{name} must be an integer, got {_fmt(value)}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        low = "" if minimum is None else f"{minimum} <= "
        raise ValueError(f"{name} must be an integer {low}{name} <= {_int_text(maximum, 20)}"
                         f"{reason and f' ({reason})'}, got {_int_text(value, 16)}")
    return value


def _int_text(value: int, digits: int) -> str:
    """``value`` in full up to ``digits`` digits, else in scientific notation (``10**300`` -> ``1.000e+300``).

    >>> _int_text(4611686018427387904, 20), _int_text(10**300, 20), _int_text(-12345, 3)
    ('4611686018427387904', '1.000e+300', '-1.234e+4')
    """
    text = str(abs(value))
    sign = "-" if value < 0 else ""
    return f"{sign}{text}" if len(text) <= digits else f"{sign}{text[0]}.{text[1:4]}e+{len(text) - 1}"


def check_choice(name: str, value: Any, allowed: tuple | list | set) -> Any:
    """Return ``value`` if it is one of ``allowed``."""
    if value not in allowed:
        shown = ", ".join(_fmt(a) for a in allowed)
        raise ValueError(f"{name} must be one of {{{shown}}}, got {_fmt(value)}")
    return value


def as_points(name: str, X: Any, d: int | None = None) -> np.ndarray:
    """Return ``X`` as a finite float array of shape (n, d).

    A 1-D array is read as n points in one dimension. ``d`` (if given) is the required dimension.
    """
    arr = np.asarray(X, dtype=float)
    if arr.ndim == 0:
        arr = arr.reshape(1, 1)
    elif arr.ndim == 1:
        arr = arr[:, None]
    elif arr.ndim != 2:
        raise ValueError(f"{name} must have shape (n, d), got an array with {arr.ndim} dimensions")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite values, got NaN or infinity")
    if d is not None and arr.shape[1] != d:
        raise ValueError(f"{name} must have {d} columns (the input dimension), got shape {arr.shape}")
    return arr


def as_vector(name: str, y: Any, n: int | None = None) -> np.ndarray:
    """Return ``y`` as a finite float vector, of length ``n`` if given."""
    arr = np.asarray(y, dtype=float).reshape(-1)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite values, got NaN or infinity")
    if n is not None and arr.shape[0] != n:
        raise ValueError(f"{name} must have length {n}, got length {arr.shape[0]}")
    return arr


def as_noise(name: str, noise_var: Any, n: int, *, allow_zero: bool = False) -> np.ndarray:
    """Broadcast a scalar or per-observation noise variance to a positive vector of length ``n``."""
    arr = np.asarray(noise_var, dtype=float)
    if arr.ndim == 0:
        arr = np.full(n, float(arr))
    else:
        arr = arr.reshape(-1)
        if arr.shape[0] != n:
            raise ValueError(f"{name} must be a scalar or have length {n}, got length {arr.shape[0]}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite values, got NaN or infinity")
    bad = arr < 0 if allow_zero else arr <= 0
    if np.any(bad):
        worst = float(arr[np.argmax(bad)])
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be {bound}, got {worst!r}")
    return arr


def check_square_psd_shape(name: str, K: Any) -> np.ndarray:
    """Return ``K`` as a finite square symmetric float matrix (symmetry to 1e-8 relative)."""
    arr = np.asarray(K, dtype=float)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite values, got NaN or infinity")
    scale = max(1.0, float(np.max(np.abs(arr)))) if arr.size else 1.0
    if arr.size and np.max(np.abs(arr - arr.T)) > 1e-8 * scale:
        raise ValueError(f"{name} must be symmetric, got max |K - K^T| = {np.max(np.abs(arr - arr.T)):.3g}")
    return arr


def psd_tolerance(eigenvalues: np.ndarray, n: int) -> float:
    """Absolute tolerance below which an eigenvalue of an ``n×n`` float64 PSD matrix counts as zero.

    Rounding perturbs eigenvalues of a symmetric matrix by about ``n · eps · ||K||``; the factor 10 is
    headroom for the accumulation in Gram-matrix assembly.
    """
    scale = float(np.max(np.abs(eigenvalues))) if eigenvalues.size else 0.0
    return 10.0 * max(n, 1) * _FLOAT_EPS * max(scale, 1e-300)


def check_psd(name: str, K: Any, *, vectors: bool = False) -> tuple[np.ndarray, Any]:
    """Validate a symmetric PSD matrix; return ``(K, eigenvalues)`` with eigenvalues ascending.

    With ``vectors=True`` the second item is ``(eigenvalues, eigenvectors)`` from the same single
    decomposition. Raises ``ValueError`` naming ``name`` and its smallest eigenvalue when that
    eigenvalue is below ``-psd_tolerance``.
    """
    K = check_square_psd_shape(name, K)
    if K.size == 0:
        return K, ((np.zeros(0), np.zeros((0, 0))) if vectors else np.zeros(0))
    if vectors:
        w, V = np.linalg.eigh(K)
    else:
        w, V = np.linalg.eigvalsh(K), None
    tol = psd_tolerance(w, K.shape[0])
    if w[0] < -tol:
        raise ValueError(
            f"{name} must be positive semi-definite, got smallest eigenvalue {w[0]:.3g} (< -{tol:.1g})"
        )
    return K, ((w, V) if vectors else w)


def as_index_set(name: str, indices: Any, n: int) -> np.ndarray:
    """Return ``indices`` as a 1-D int array of distinct entries in ``[0, n-1]``."""
    arr = np.asarray(indices)
    if arr.size == 0:
        return np.zeros(0, dtype=int)
    arr = arr.reshape(-1)
    if not np.issubdtype(arr.dtype, np.integer):
        if np.issubdtype(arr.dtype, np.floating) and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
            arr = arr.astype(int)
        else:
            raise ValueError(f"{name} must contain integer indices, got dtype {arr.dtype}")
    arr = arr.astype(int)
    bad = (arr < 0) | (arr >= n)
    if np.any(bad):
        raise ValueError(f"{name} must be indices in [0, {n - 1}], got {int(arr[np.argmax(bad)])}")
    uniq, counts = np.unique(arr, return_counts=True)
    if np.any(counts > 1):
        raise ValueError(f"{name} must not repeat an index, got {int(uniq[np.argmax(counts > 1)])} repeated")
    return arr


def _as_real(name: str, value: Any) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {_fmt(value)}") from None
    if math.isnan(v) or math.isinf(v):
        raise ValueError(f"{name} must be finite, got {_fmt(value)}")
    return v
