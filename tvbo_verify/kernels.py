"""Covariance functions used by the five papers.

* :class:`SquaredExponential`, :class:`Matern` (ν ∈ {1/2, 3/2, 5/2}), :class:`RationalQuadratic`:
  stationary isotropic (scalar lengthscale) or ARD (one lengthscale per dimension) kernels,
  ``k(x, x') = variance * rho(r)`` with ``r = ||(x - x') / lengthscale||``.
  Forms: ``tvgpucb`` eqs. (1)–(2), ``wsparq`` §1.2 (SE with ``M_k^2``), ``bolt`` §1.4.
* :class:`LinearKernel`: ``variance · xᵀx'`` (``wgpucb`` Remark 1, D-LinUCB).
* :class:`ForgettingKernel`: the TV-GP-UCB temporal factor ``(1-ε)^{|t-t'|/2}`` (``tvgpucb`` eq. (22),
  ``sparq`` eq. (8)).
* :class:`SpatioTemporalKernel`: ``λ k_S(x, x') k_T(t, t')`` (``bolt`` Assumption 3.2); its inputs carry
  time in the last column.

Temporal correlation functions of ``bolt`` are the same families in one dimension with unit
variance; their spectral densities are in :mod:`tvbo_verify.spectral`.

Calling ``k(X, Y)`` returns the ``(n, m)`` Gram matrix for ``X`` of shape ``(n, d)`` and ``Y`` of shape
``(m, d)``; ``k(X)`` means ``k(X, X)``; ``k.diag(X)`` returns the ``n`` prior variances.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import mpmath
import numpy as np
from scipy.spatial.distance import cdist

from .validation import as_points, check_choice, check_interval, check_positive

__all__ = [
    "SUPPORTED_NU", "Kernel", "StationaryKernel", "SquaredExponential", "Matern", "RationalQuadratic", "Sinc",
    "LinearKernel", "ForgettingKernel", "SpatioTemporalKernel", "temporal_kernel", "TEMPORAL_KERNELS",
    "KERNEL_NAMES", "kernel_by_name", "kernel_name", "resolve_kernel",
]

SUPPORTED_NU: tuple[float, ...] = (0.5, 1.5, 2.5)


class Kernel(ABC):
    """A positive semi-definite covariance function on R^d."""

    @abstractmethod
    def __call__(self, X: np.ndarray, Y: np.ndarray | None = None) -> np.ndarray:
        """Return the Gram matrix ``[k(x_i, y_j)]``."""

    @abstractmethod
    def diag(self, X: np.ndarray) -> np.ndarray:
        """Return ``[k(x_i, x_i)]`` without forming the Gram matrix."""

    @property
    @abstractmethod
    def max_variance(self) -> float:
        """An upper bound on ``k(x, x)`` over the whole input space (``M_k^2`` / ``k̄``)."""


class StationaryKernel(Kernel):
    """``variance * rho(||(x - x') / lengthscale||)`` with a radial profile ``rho``, ``rho(0) = 1``."""

    def __init__(self, variance: float = 1.0, lengthscale: float | np.ndarray = 1.0) -> None:
        self.variance = check_positive("variance", variance)
        ls = np.asarray(lengthscale, dtype=float)
        if ls.ndim > 1:
            raise ValueError(f"lengthscale must be a scalar or a 1-D array, got shape {ls.shape}")
        for value in np.atleast_1d(ls):
            check_positive("lengthscale", value)
        self.lengthscale = float(ls) if ls.ndim == 0 else ls.copy()

    # -- profile -----------------------------------------------------------------------------
    @abstractmethod
    def rho(self, r: np.ndarray) -> np.ndarray:
        """Unit-variance radial profile of the scaled distance ``r >= 0``."""

    @abstractmethod
    def rho_mp(self, r2: "mpmath.mpf") -> "mpmath.mpf":
        """The same profile in mpmath arithmetic, as a function of the *squared* scaled distance."""

    def of_distance(self, tau: np.ndarray | float) -> np.ndarray:
        """Return ``k`` as a function of the (unscaled) distance ``tau`` (isotropic kernels only)."""
        if np.ndim(self.lengthscale) != 0:
            raise ValueError("of_distance needs a scalar lengthscale, got a per-dimension lengthscale")
        tau = np.abs(np.asarray(tau, dtype=float))
        return self.variance * self.rho(tau / self.lengthscale)

    # -- Gram matrices ---------------------------------------------------------------------------
    def _scaled(self, name: str, X: np.ndarray, d: int | None = None) -> np.ndarray:
        pts = as_points(name, X, d)
        if np.ndim(self.lengthscale) == 1 and pts.shape[1] != np.size(self.lengthscale):
            raise ValueError(
                f"{name} must have {np.size(self.lengthscale)} columns to match the per-dimension "
                f"lengthscale, got shape {pts.shape}"
            )
        return pts / self.lengthscale

    def distance(self, X: np.ndarray, Y: np.ndarray | None = None) -> np.ndarray:
        """Scaled Euclidean distances ``||(x_i - y_j) / lengthscale||``."""
        A = self._scaled("X", X)
        B = A if Y is None else self._scaled("Y", Y, A.shape[1])
        return cdist(A, B, "euclidean")

    def __call__(self, X: np.ndarray, Y: np.ndarray | None = None) -> np.ndarray:
        K = self.variance * self.rho(self.distance(X, Y))
        if Y is None:
            K = 0.5 * (K + K.T)
        return K

    def diag(self, X: np.ndarray) -> np.ndarray:
        return np.full(as_points("X", X).shape[0], self.variance)

    @property
    def max_variance(self) -> float:
        return self.variance

    def __repr__(self) -> str:
        return f"{type(self).__name__}(variance={self.variance!r}, lengthscale={self.lengthscale!r})"


class SquaredExponential(StationaryKernel):
    """``k(x, x') = variance * exp(-||x - x'||^2 / (2 l^2))`` (``tvgpucb`` eq. (1), ``wsparq`` §1.2).

    Examples
    --------
    >>> import numpy as np
    >>> from tvbo_verify.kernels import SquaredExponential
    >>> k = SquaredExponential(variance=2.0, lengthscale=0.5)
    >>> round(float(k([[0.0]], [[0.5]])[0, 0]), 4)  # 2 exp(-1/2): one lengthscale apart
    1.2131
    >>> k(np.zeros((3, 2))).shape, k.diag(np.zeros((3, 2))).tolist()
    ((3, 3), [2.0, 2.0, 2.0])
    """

    def rho(self, r: np.ndarray) -> np.ndarray:
        return np.exp(-0.5 * np.square(r))

    def rho_mp(self, r2: "mpmath.mpf") -> "mpmath.mpf":
        return mpmath.exp(-r2 / 2)


class Matern(StationaryKernel):
    """Matérn kernel for ν ∈ {1/2, 3/2, 5/2} (``tvgpucb`` eq. (2) and its closed forms, ``bolt`` §1.4).

    ν = 1/2: ``exp(-r)``; ν = 3/2: ``(1 + √3 r) exp(-√3 r)``; ν = 5/2:
    ``(1 + √5 r + 5 r²/3) exp(-√5 r)``, with ``r = ||x - x'|| / l``.

    Examples
    --------
    >>> from tvbo_verify.kernels import Matern
    >>> m = Matern(1.5, lengthscale=2.0)
    >>> round(float(m([[0.0]], [[1.0]])[0, 0]), 4), round(float(m.of_distance(1.0)), 4)  # (1 + √3/2) e^{-√3/2}
    (0.7849, 0.7849)
    >>> Matern(2.0)
    Traceback (most recent call last):
    ...
    ValueError: nu must be one of {0.5, 1.5, 2.5}, got 2.0
    """

    def __init__(self, nu: float, variance: float = 1.0, lengthscale: float | np.ndarray = 1.0) -> None:
        self.nu = float(check_choice("nu", float(nu) if _is_number(nu) else nu, SUPPORTED_NU))
        super().__init__(variance, lengthscale)

    def rho(self, r: np.ndarray) -> np.ndarray:
        r = np.asarray(r, dtype=float)
        if self.nu == 0.5:
            return np.exp(-r)
        if self.nu == 1.5:
            s = np.sqrt(3.0) * r
            return (1.0 + s) * np.exp(-s)
        s = np.sqrt(5.0) * r
        return (1.0 + s + s * s / 3.0) * np.exp(-s)

    def rho_mp(self, r2: "mpmath.mpf") -> "mpmath.mpf":
        r = mpmath.sqrt(r2)
        if self.nu == 0.5:
            return mpmath.exp(-r)
        s = mpmath.sqrt(3 if self.nu == 1.5 else 5) * r
        poly = 1 + s if self.nu == 1.5 else 1 + s + s * s / 3
        return poly * mpmath.exp(-s)

    def __repr__(self) -> str:
        return f"Matern(nu={self.nu!r}, variance={self.variance!r}, lengthscale={self.lengthscale!r})"


class RationalQuadratic(StationaryKernel):
    """``k(x, x') = variance * (1 + r² / (2 alpha))^{-alpha}`` with ``r = ||x - x'|| / l`` (``bolt`` §1.4)."""

    def __init__(self, alpha: float = 1.0, variance: float = 1.0, lengthscale: float | np.ndarray = 1.0) -> None:
        self.alpha = check_positive("alpha", alpha)
        super().__init__(variance, lengthscale)

    def rho(self, r: np.ndarray) -> np.ndarray:
        return np.power(1.0 + np.square(r) / (2.0 * self.alpha), -self.alpha)

    def rho_mp(self, r2: "mpmath.mpf") -> "mpmath.mpf":
        a = mpmath.mpf(self.alpha)
        return (1 + r2 / (2 * a)) ** (-a)

    def __repr__(self) -> str:
        return (
            f"RationalQuadratic(alpha={self.alpha!r}, variance={self.variance!r}, "
            f"lengthscale={self.lengthscale!r})"
        )


class Sinc(StationaryKernel):
    """Band-limited correlation ``k(x, x') = variance * sinc(r) = variance * sin(π r)/(π r)``, ``r = ||x − x'||/l``.

    Its spectral density is ``l`` on ``|ξ| <= 1/(2l)`` and 0 beyond (band ``B = 1/(2l)``): the compactly
    supported spectrum of ``bolt``'s remark after Corollary 3.7 (``k_T(τ) = sinc(2Bτ)``, papers/bolt/READING.md
    §bolt:compact-spectrum). It is positive definite but takes negative values, not one of Assumption 3.3's kernels.
    """

    def rho(self, r: np.ndarray) -> np.ndarray:
        return np.sinc(np.asarray(r, dtype=float))

    def rho_mp(self, r2: "mpmath.mpf") -> "mpmath.mpf":
        return mpmath.sincpi(mpmath.sqrt(r2))


class LinearKernel(Kernel):
    """``k(x, x') = variance · xᵀx'`` (``wgpucb`` Remark 1: WGP-UCB with it is D-LinUCB).

    Not stationary and unbounded on R^d: ``max_variance`` is ``inf``.
    """

    def __init__(self, variance: float = 1.0) -> None:
        self.variance = check_positive("variance", variance)

    def __call__(self, X: np.ndarray, Y: np.ndarray | None = None) -> np.ndarray:
        A = as_points("X", X)
        B = A if Y is None else as_points("Y", Y, A.shape[1])
        return self.variance * (A @ B.T)

    def diag(self, X: np.ndarray) -> np.ndarray:
        A = as_points("X", X)
        return self.variance * np.einsum("ij,ij->i", A, A)

    @property
    def max_variance(self) -> float:
        return float("inf")

    def __repr__(self) -> str:
        return f"LinearKernel(variance={self.variance!r})"


class ForgettingKernel(Kernel):
    """TV-GP-UCB temporal correlation ``(1 - ε)^{|t - t'| / 2}`` on time indices (``tvgpucb`` eq. (22)).

    ``ε = 0`` gives the constant kernel (static function), ``ε = 1`` the identity on distinct times,
    with the convention ``0^0 = 1`` (``tvgpucb`` §1.5, edge cases).

    Examples
    --------
    >>> from tvbo_verify.kernels import ForgettingKernel
    >>> ForgettingKernel(0.19).of_lag([0, 1, 2]).round(4).tolist()  # 0.81^{lag/2}
    [1.0, 0.9, 0.81]
    >>> ForgettingKernel(1.0)([[1.0], [2.0]]).tolist()  # ε = 1: distinct times are independent
    [[1.0, 0.0], [0.0, 1.0]]
    """

    def __init__(self, epsilon: float) -> None:
        self.epsilon = check_interval("epsilon", epsilon, 0.0, 1.0)

    def of_lag(self, lag: np.ndarray | float) -> np.ndarray:
        """Return ``(1 - ε)^{|lag| / 2}`` elementwise (``0^0 = 1``)."""
        lag = np.abs(np.asarray(lag, dtype=float))
        if self.epsilon == 1.0:
            return (lag == 0).astype(float)
        return np.exp(0.5 * lag * np.log1p(-self.epsilon))

    def __call__(self, X: np.ndarray, Y: np.ndarray | None = None) -> np.ndarray:
        t = as_points("t", X, 1)[:, 0]
        s = t if Y is None else as_points("t'", Y, 1)[:, 0]
        return self.of_lag(t[:, None] - s[None, :])

    def diag(self, X: np.ndarray) -> np.ndarray:
        return np.ones(as_points("t", X, 1).shape[0])

    @property
    def max_variance(self) -> float:
        return 1.0

    def __repr__(self) -> str:
        return f"ForgettingKernel(epsilon={self.epsilon!r})"


class SpatioTemporalKernel(Kernel):
    """Separable kernel ``λ k_S(x, x') k_T(t, t')`` (``bolt`` Assumption 3.2, ``tvgpucb`` §1.2).

    Inputs are arrays of shape ``(n, d + 1)``: spatial coordinates first, time in the last column.
    ``spatial`` and ``temporal`` should be correlation functions (unit variance); ``signal_variance``
    is λ.
    """

    def __init__(self, spatial: Kernel, temporal: Kernel, signal_variance: float = 1.0) -> None:
        self.spatial = spatial
        self.temporal = temporal
        self.signal_variance = check_positive("signal_variance", signal_variance)

    @staticmethod
    def _split(name: str, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        pts = as_points(name, X)
        if pts.shape[1] < 2:
            raise ValueError(f"{name} must have at least 2 columns (space..., time), got shape {pts.shape}")
        return pts[:, :-1], pts[:, -1:]

    def __call__(self, X: np.ndarray, Y: np.ndarray | None = None) -> np.ndarray:
        xs, xt = self._split("X", X)
        if Y is None:
            return self.signal_variance * self.spatial(xs) * self.temporal(xt)
        ys, yt = self._split("Y", Y)
        return self.signal_variance * self.spatial(xs, ys) * self.temporal(xt, yt)

    def diag(self, X: np.ndarray) -> np.ndarray:
        xs, xt = self._split("X", X)
        return self.signal_variance * self.spatial.diag(xs) * self.temporal.diag(xt)

    @property
    def max_variance(self) -> float:
        return self.signal_variance * self.spatial.max_variance * self.temporal.max_variance

    def __repr__(self) -> str:
        return (
            f"SpatioTemporalKernel(spatial={self.spatial!r}, temporal={self.temporal!r}, "
            f"signal_variance={self.signal_variance!r})"
        )


def temporal_kernel(name: str, lengthscale: float) -> StationaryKernel:
    """Unit-variance temporal correlation function by name: ``se``, ``matern12``, ``matern32``,
    ``matern52`` or ``rq`` (``bolt`` §1.4, kernels of Figures 1–2)."""
    check_choice("temporal kernel", name, TEMPORAL_KERNELS)
    if name == "rq":
        return RationalQuadratic(1.0, 1.0, lengthscale)
    return kernel_by_name(name, lengthscale=lengthscale)


TEMPORAL_KERNELS: tuple[str, ...] = ("se", "matern12", "matern32", "matern52", "rq")

#: Stationary kernels selectable by name (environments, policies, the command line).
KERNEL_NAMES: tuple[str, ...] = ("se", "matern12", "matern32", "matern52")
_MATERN_NU = {"matern12": 0.5, "matern32": 1.5, "matern52": 2.5}


def kernel_by_name(name: str, *, variance: float = 1.0, lengthscale: float | np.ndarray = 1.0) -> StationaryKernel:
    """``se`` (squared exponential) or ``matern12`` / ``matern32`` / ``matern52`` (ν = 1/2, 3/2, 5/2).

    Unknown names raise ``ValueError`` listing the choices (``tvgpucb`` §7.1 uses SE and Matérn-5/2,
    ``bolt`` §6.2 Matérn-5/2 and -3/2).

    Examples
    --------
    >>> from tvbo_verify.kernels import kernel_by_name, kernel_name
    >>> k = kernel_by_name("matern52", lengthscale=0.2)
    >>> k, kernel_name(k)
    (Matern(nu=2.5, variance=1.0, lengthscale=0.2), 'matern52')
    >>> kernel_by_name("rbf")
    Traceback (most recent call last):
    ...
    ValueError: kernel must be one of {se, matern12, matern32, matern52}, got rbf
    """
    check_choice("kernel", name, KERNEL_NAMES)
    if name == "se":
        return SquaredExponential(variance, lengthscale)
    return Matern(_MATERN_NU[name], variance, lengthscale)


def kernel_name(kernel: Kernel) -> str | None:
    """Inverse of :func:`kernel_by_name`: the name of a SE or Matérn kernel, ``None`` for any other kernel."""
    if type(kernel) is SquaredExponential:
        return "se"
    if type(kernel) is Matern:
        return {0.5: "matern12", 1.5: "matern32", 2.5: "matern52"}[kernel.nu]
    return None


def resolve_kernel(kernel: "Kernel | str", *, variance: float = 1.0, lengthscale: float | np.ndarray = 1.0) -> Kernel:
    """A kernel object as given, or built by :func:`kernel_by_name` from its name."""
    if isinstance(kernel, Kernel):
        return kernel
    if not isinstance(kernel, str):
        raise ValueError(f"kernel must be a Kernel or one of {{{', '.join(KERNEL_NAMES)}}}, got {kernel!r}")
    return kernel_by_name(kernel, variance=variance, lengthscale=lengthscale)


def _is_number(value: object) -> bool:
    try:
        float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return True
