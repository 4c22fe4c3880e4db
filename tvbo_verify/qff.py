"""Quadrature Fourier features (QFF) of the squared-exponential kernel (Mutný & Krause 2018; ``wgpucb`` §5).

For ``k(x, y) = exp(−‖x − y‖²/(2l²))`` on ``R^d``, Bochner's theorem gives ``k(x, y) = E[cos(ωᵀ(x − y))]``
with ``ω ~ N(0, I/l²)``. Gauss–Hermite quadrature with ``m̄`` nodes per dimension (the roots
``ρ`` of the physicists' Hermite polynomial ``H_m̄``, tensor grid of ``m = m̄^d`` nodes) gives the
``2m`` features of papers/wgpucb/READING.md §2.7::

    φ̌(x)_i = √v(ρ_i) cos(√2/l ρ_iᵀx),   φ̌(x)_{m+i} = √v(ρ_i) sin(√2/l ρ_iᵀx),   i = 1..m,

so that ``k̂(x, y) = φ̌(x)ᵀφ̌(y) = Σ_i v(ρ_i) cos(√2/l ρ_iᵀ(x − y))``. The weight per dimension is

* ``"corrected"`` (the normalised Gauss–Hermite weight, weights summing to 1):
  ``v(ρ) = 2^{m̄−1} m̄! / (m̄² H_{m̄−1}(ρ)²)``;
* ``"printed"`` (``wgpucb`` §5 as printed, ``m̄`` for ``m̄²``): ``m̄`` times the above, so the weights sum
  to ``m̄`` per dimension and ``k̂(x, x) = m̄^d`` (papers/wgpucb/READING.md §5.1).

The weights are evaluated as ``1/(m̄ ψ_{m̄−1}(ρ)²)`` with the normalised Hermite functions
``ψ_k = H_k/√(2^k k!)`` (a stable three-term recurrence, no overflow of ``m̄!``); the nodes are those of
``numpy.polynomial.hermite.hermgauss``. :class:`QuadratureFourierFeatures` builds the features;
:func:`qff_kernel_mp` is the mpmath twin of ``k̂`` (nodes refined by Newton's method at the working
precision).
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache
from typing import Any

import mpmath
import numpy as np
from numpy.polynomial.hermite import hermgauss

from .validation import as_points, check_choice, check_int, check_positive

__all__ = ["QFF_READINGS", "QuadratureFourierFeatures", "hermite_nodes", "qff_weights", "qff_kernel_mp",
           "hermite_nodes_mp", "qff_weights_mp", "qff_error_bound", "qff_error_bound_mp"]

QFF_READINGS: tuple[str, ...] = ("corrected", "printed")


def hermite_nodes(mbar: int) -> np.ndarray:
    """The ``m̄`` roots of the physicists' Hermite polynomial ``H_m̄`` (increasing)."""
    mbar = check_int("mbar", mbar, 1)
    return hermgauss(mbar)[0]


def _normalised_hermite(k: int, x: Any, lib: Any = np) -> Any:
    """``ψ_k(x) = H_k(x)/√(2^k k!)`` by ``ψ_{j+1} = x√(2/(j+1)) ψ_j − √(j/(j+1)) ψ_{j−1}``."""
    one = mpmath.mpf(1) if lib is mpmath else 1.0  # exact coefficients at the working precision
    prev, cur = 0 * x, 1 + 0 * x
    for j in range(k):
        prev, cur = cur, x * lib.sqrt(2 * one / (j + 1)) * cur - lib.sqrt(j * one / (j + 1)) * prev
    return cur


def qff_weights(mbar: int, reading: str = "corrected") -> np.ndarray:
    """The one-dimensional weights ``v(ρ)`` at the nodes of :func:`hermite_nodes` (module docstring)."""
    mbar = check_int("mbar", mbar, 1)
    check_choice("reading", reading, QFF_READINGS)
    psi = _normalised_hermite(mbar - 1, hermite_nodes(mbar))
    v = 1.0 / (mbar * psi**2)  # 2^{m̄−1} m̄!/(m̄² H_{m̄−1}(ρ)²)
    return v * mbar if reading == "printed" else v


def hermite_nodes_mp(mbar: int) -> list:
    """mpmath twin of :func:`hermite_nodes`: Newton's method on ``ψ_m̄`` from the float nodes, at the
    current ``mpmath.mp.dps`` (cached per ``(m̄, dps)``)."""
    return list(_hermite_nodes_mp(check_int("mbar", mbar, 1), mpmath.mp.dps))


@lru_cache(maxsize=64)
def _hermite_nodes_mp(mbar: int, dps: int) -> tuple:
    nodes = []
    for x0 in hermite_nodes(mbar):
        x = mpmath.mpf(x0)
        for _ in range(100):
            f = _normalised_hermite(mbar, x, mpmath)
            df = mpmath.sqrt(2 * mpmath.mpf(mbar)) * _normalised_hermite(mbar - 1, x, mpmath)  # H_m' = 2m H_{m−1}
            step = f / df
            x -= step
            if abs(step) <= mpmath.mpf(10) ** (-dps + 5) * max(1, abs(x)):
                break
        nodes.append(x)
    return tuple(nodes)


def qff_weights_mp(mbar: int, reading: str = "corrected") -> list:
    """mpmath twin of :func:`qff_weights` (current precision, cached per ``(m̄, reading, dps)``)."""
    check_choice("reading", reading, QFF_READINGS)
    return list(_qff_weights_mp(check_int("mbar", mbar, 1), reading, mpmath.mp.dps))


@lru_cache(maxsize=64)
def _qff_weights_mp(mbar: int, reading: str, dps: int) -> tuple:
    out = []
    for x in hermite_nodes_mp(mbar):
        v = 1 / (mbar * _normalised_hermite(mbar - 1, x, mpmath) ** 2)
        out.append(v * mbar if reading == "printed" else v)
    return tuple(out)


class QuadratureFourierFeatures:
    """The ``2m̄^d`` quadrature Fourier features of the SE kernel with lengthscale ``l`` on ``R^d``."""

    def __init__(self, lengthscale: float, mbar: int, d: int = 1, reading: str = "corrected") -> None:
        self.lengthscale = check_positive("lengthscale", lengthscale)
        self.mbar = check_int("mbar", mbar, 1)
        self.d = check_int("d", d, 1)
        self.reading = check_choice("reading", reading, QFF_READINGS)
        nodes, weights = hermite_nodes(self.mbar), qff_weights(self.mbar, reading)
        grid = list(itertools.product(range(self.mbar), repeat=self.d))
        self.nodes = np.array([[nodes[i] for i in idx] for idx in grid])  # (m, d)
        self.weights = np.array([math.prod(weights[i] for i in idx) for idx in grid])  # v(ρ) = Π_j v(ρ_j)

    @property
    def m(self) -> int:
        """Number of nodes ``m = m̄^d``; the feature dimension is ``2m``."""
        return int(self.nodes.shape[0])

    def features(self, X: np.ndarray) -> np.ndarray:
        """``(n, 2m)`` array of ``φ̌(x)`` (cosines first, then sines)."""
        X = as_points("X", X, self.d)
        phase = (math.sqrt(2.0) / self.lengthscale) * X @ self.nodes.T
        root = np.sqrt(self.weights)
        return np.hstack([root * np.cos(phase), root * np.sin(phase)])

    def kernel(self, X: np.ndarray, Y: np.ndarray | None = None) -> np.ndarray:
        """``k̂(x, y) = φ̌(x)ᵀφ̌(y)``."""
        FX = self.features(X)
        return FX @ (FX if Y is None else self.features(Y)).T

    def uniform_error(self, X: np.ndarray) -> tuple[float, int, int]:
        """``max_{i,j} |k(x_i, x_j) − k̂(x_i, x_j)|`` over the rows of ``X`` and the maximising pair."""
        X = as_points("X", X, self.d)
        diff2 = np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=-1)
        err = np.abs(np.exp(-diff2 / (2 * self.lengthscale**2)) - self.kernel(X))
        i, j = np.unravel_index(int(np.argmax(err)), err.shape)
        return float(err[i, j]), int(i), int(j)


def qff_kernel_mp(x: Any, y: Any, lengthscale: float, mbar: int, reading: str = "corrected") -> mpmath.mpf:
    """mpmath twin of :meth:`QuadratureFourierFeatures.kernel` at one pair: ``Σ_i v(ρ_i) cos(√2/l ρ_iᵀ(x − y))``
    over the tensor grid of nodes, at the current precision (inputs taken exactly)."""
    x, y = np.atleast_1d(np.asarray(x, float)), np.atleast_1d(np.asarray(y, float))
    nodes, weights = hermite_nodes_mp(mbar), qff_weights_mp(mbar, reading)
    scale = mpmath.sqrt(2) / mpmath.mpf(lengthscale)
    delta = [mpmath.mpf(a) - mpmath.mpf(b) for a, b in zip(x, y)]
    per_dim = [mpmath.fsum(w * mpmath.cos(scale * r * dj) for r, w in zip(nodes, weights)) for dj in delta]
    return mpmath.fprod(per_dim)  # the tensor sum factorises (the 1-D sums are real and even in ρ)


def qff_error_bound(mbar: int, d: int, lengthscale: float, reading: str = "catalog") -> float:
    """``wgpucb`` Lemma 14 ([15, Lemma 14]): ``ε_m <= d 2^{d−1} (e/(4l²))^{m̄} / (√2 m̄^{m̄})`` (``"catalog"``,
    read in papers/wgpucb/READING.md §5.6) or ``d 2^{d−1} (e/(4l²))^{m̄} / √(2m̄)^{m̄}`` (``"literal"``, as printed);
    the two coincide at ``m̄ = 1``. Evaluated in log space (no overflow of ``m̄^{m̄}``)."""
    mbar = check_int("mbar", mbar, 1)
    d = check_int("d", d, 1)
    l2 = check_positive("lengthscale", lengthscale) ** 2
    check_choice("reading", reading, ("catalog", "literal"))
    root = 0.5 * math.log(2) + mbar * math.log(mbar) if reading == "catalog" else 0.5 * mbar * math.log(2 * mbar)
    return math.exp(math.log(d) + (d - 1) * math.log(2) + mbar * (1 - math.log(4 * l2)) - root)


def qff_error_bound_mp(mbar: int, d: int, lengthscale: float, reading: str = "catalog") -> mpmath.mpf:
    """mpmath twin of :func:`qff_error_bound` (current precision)."""
    check_choice("reading", reading, ("catalog", "literal"))
    m, l2 = mpmath.mpf(mbar), mpmath.mpf(lengthscale) ** 2
    root = mpmath.sqrt(2) * m**m if reading == "catalog" else mpmath.sqrt(2 * m) ** m
    return d * mpmath.mpf(2) ** (d - 1) * (mpmath.e / (4 * l2)) ** m / root
