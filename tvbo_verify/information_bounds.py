"""Certified brackets of the maximum information gain ``γ_T`` on a finite domain.

``γ_T = max_{x_1..x_T} ½ log det(I + σ⁻² K_T)`` over multisets of ``T`` points of a domain ``D`` (points may
repeat). A regret bound that contains ``γ_T`` says something only where it is below the trivial bound; a
lower bound on ``γ_T`` would make that horizon too early (flattering the theorem), so a bound is evaluated with
an **upper** bound on ``γ_T`` that holds for every set of ``T`` points, certified despite rounding.

Derivation (``F(S) = ½ log det(I + σ⁻² K_S)`` for a multiset ``S``; a multiset with ``n_x`` copies of ``x``
gives ``F = ½ log det(I + σ⁻² N^{1/2} K_D N^{1/2})``, ``N = diag(n)``):

* ``F`` is monotone and submodular, so for the optimal multiset ``O`` (``|O| = T``) and any multiset ``S``,
  ``F(O) <= F(S ∪ O)``; and ``S ∪ O`` has at most ``n_x(S) + T`` copies of each point, so by monotonicity
  ``F(O) <= F(S ⊎ T·D) = ½ log det(I + σ⁻² W^{1/2} K_D W^{1/2})`` with ``W = diag(n(S)) + T I``. This holds for
  every ``S`` (with ``S = ∅`` it is the spectral bound ``½ Σ_i log(1 + T λ_i(K_D)/σ²)``); taking ``S`` the
  greedy prefixes ``S_k`` and the smallest value gives a tight, data-dependent **upper** bound (it is the
  conditional spectral bound ``F(S_k) + ½ log det(I + T σ⁻² K_{D|S_k})`` written as one determinant).
* The continuous relaxation ``g(w) = ½ log det(I + σ⁻² K_D W)`` over ``{w >= 0, Σ w = T}`` is at least ``γ_T``
  (a multiset is an integer ``w``) and concave, so for any feasible ``w`` its maximum is at most
  ``g(w) + T max_i ∂_i g(w) − Σ_i w_i ∂_i g(w)`` (the Frank–Wolfe duality gap), with
  ``∂_i g(w) = ½ σ⁻² Σ_ii(w)``, ``Σ(w) = K − K W^{1/2}(σ² I + W^{1/2} K W^{1/2})⁻¹ W^{1/2} K`` the posterior
  covariance under noise ``σ²/w_i`` at point ``i``. Evaluated at the greedy allocation refined by Frank–Wolfe
  steps, this **upper** bound is usually far tighter than the spectral one; the smaller of the two is reported.
* The greedy multiset ``S_T`` and the relaxed allocation rounded to ``T`` points are feasible choices, so the
  larger of their ``F`` is a **lower** bound.

Both are evaluated in ball arithmetic (python-flint's ``arb``: the kernel entries from the exact float inputs,
the log-determinant by a certified Cholesky), and the ends of the balls are reported: the bracket holds
whatever the rounding. The greedy search itself runs in float64 on a low-rank feature factor of ``K_D``; it only
chooses the sets, which the certified evaluation then scores exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from .validation import as_points, check_choice, check_int, check_positive

__all__ = ["KERNELS", "CertifiedGamma", "GammaUpper", "certified_gamma_ladder", "default_prefixes", "greedy_counts",
           "certified_log_det", "certified_gain",
           "certified_gamma"]

#: the largest precision (bits) the certified evaluation raises to
MAX_PRECISION = 1024
#: kernels written in ball arithmetic: name -> Matérn smoothness (None: squared exponential)
KERNELS: dict[str, float | None] = {"se": None, "matern12": 0.5, "matern32": 1.5, "matern52": 2.5}


@dataclass(frozen=True)
class CertifiedGamma:
    """A certified bracket ``lower <= γ_T <= upper`` (nats) on a finite domain, and how it was obtained."""

    kernel: str
    lengthscale: float
    noise_var: float
    T: int
    points: int
    lower: float
    upper: float
    prefixes: tuple[int, ...] = field(default_factory=tuple)
    best_prefix: int = 0

    @property
    def ratio(self) -> float:
        """``upper / lower`` (how tight the bracket is)."""
        return self.upper / self.lower if self.lower > 0 else math.inf

    def to_dict(self) -> dict[str, Any]:
        return {"kernel": self.kernel, "lengthscale": self.lengthscale, "noise_var": self.noise_var, "T": self.T,
                "points": self.points, "lower": self.lower, "upper": self.upper, "ratio": self.ratio,
                "prefixes": list(self.prefixes), "best_prefix": self.best_prefix}


def _float_gram(kernel: str, X: np.ndarray, lengthscale: float) -> np.ndarray:
    r = np.sqrt(np.maximum(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1), 0.0)) / lengthscale
    nu = KERNELS[kernel]
    if nu is None:
        return np.exp(-0.5 * r * r)
    s = math.sqrt(2 * nu) * r
    poly = {0.5: 1.0, 1.5: 1.0 + s, 2.5: 1.0 + s + s * s / 3.0}[nu]
    return poly * np.exp(-s)


def greedy_counts(K: np.ndarray, noise_var: float, T: int, prefixes: Sequence[int] = ()) -> dict[int, np.ndarray]:
    """The multiplicities of the greedy multiset of ``K``'s domain after ``k`` picks, for ``k`` in ``prefixes``
    and ``T`` (each pick maximises the posterior variance, i.e. the information gained).

    Runs in float64 on the eigen-factor of ``K`` truncated where eigenvalues fall below ``1e-14`` of the largest
    (the sets only; their gains are evaluated exactly elsewhere): ``O(G r)`` a pick.
    """
    lam, U = np.linalg.eigh(K)
    keep = lam > 1e-14 * max(float(lam[-1]), 1e-300)
    Phi = U[:, keep] * np.sqrt(lam[keep])  # K ≈ Φ Φᵀ
    G, r = Phi.shape
    var = np.einsum("ij,ij->i", Phi, Phi)
    Ainv = np.eye(r)
    counts = np.zeros(G, dtype=np.int64)
    want = sorted({int(k) for k in prefixes if 0 <= k <= T} | {T})
    out: dict[int, np.ndarray] = {}
    if 0 in want:
        out[0] = counts.copy()
    for k in range(1, T + 1):
        i = int(np.argmax(var))
        counts[i] += 1
        u = Ainv @ Phi[i]
        denom = noise_var + float(Phi[i] @ u)
        Ainv -= np.outer(u, u) / denom
        proj = Phi @ u
        var = np.maximum(var - proj * proj / denom, 0.0)
        if k in want:
            out[k] = counts.copy()
    return out


def _arb_kernel(kernel: str, X: np.ndarray, lengthscale: float) -> Any:
    """``K_D`` as an ``arb_mat`` from the exact float inputs (every entry a certified ball)."""
    from flint import arb, arb_mat

    nu = KERNELS[kernel]
    ell = arb(float(lengthscale))
    G = X.shape[0]
    rows = []
    for i in range(G):
        row = []
        for j in range(G):
            d2 = arb(0)
            for c in range(X.shape[1]):
                diff = arb(float(X[i, c])) - arb(float(X[j, c]))
                d2 += diff * diff
            if nu is None:
                row.append((-d2 / (2 * ell * ell)).exp())
            else:
                s = arb(2 * nu).sqrt() * d2.sqrt() / ell if i != j else arb(0)
                poly = {0.5: arb(1), 1.5: 1 + s, 2.5: 1 + s + s * s / 3}[nu]
                row.append(poly * (-s).exp())
        rows.append(row)
    return arb_mat(rows)


def certified_log_det(M: Any) -> Any:
    """``log det M`` of a symmetric positive definite ``arb_mat`` as a certified ball."""
    return M.det().log()


def certified_gain(Karb: Any, weights: np.ndarray, noise_var: float) -> Any:
    """``½ log det(I + σ⁻² W^{1/2} K W^{1/2})``, ``W = diag(weights)``, as a certified ball (zero weights drop out)."""
    from flint import arb, arb_mat

    idx = [i for i, w in enumerate(weights) if w > 0]
    if not idx:
        return arb(0)
    s2 = arb(float(noise_var))
    w = [arb(int(weights[i])).sqrt() for i in idx]
    n = len(idx)
    M = arb_mat(n, n)
    for a in range(n):
        for b in range(n):
            M[a, b] = w[a] * Karb[idx[a], idx[b]] * w[b] / s2 + (1 if a == b else 0)
    return certified_log_det(M) / 2


def _relaxed_optimum(K: np.ndarray, noise_var: float, w: np.ndarray, steps: int = 400) -> np.ndarray:
    """A near-maximiser of the concave ``g(w) = ½ log det(I + σ⁻² K W)`` over ``{w >= 0, Σ w = T}`` (float64; the
    result is only a feasible point, whose duality bound is then certified): multiplicative updates
    ``w_i ← w_i ∂_i g / mean_w(∂g)`` (the fixed point has equal gradients on the support) from the greedy
    allocation mixed with a little of the uniform one, so that every point may enter."""
    G = K.shape[0]
    T = float(w.sum())
    w = 0.9 * w.astype(float) + 0.1 * T / G
    diag = np.diag(K)
    for _ in range(steps):
        root = np.sqrt(w)
        B = noise_var * np.eye(G) + root[:, None] * K * root[None, :]
        C = np.linalg.solve(B, root[:, None] * K)
        grad = np.maximum(diag - np.einsum("ij,ij->j", root[:, None] * K, C), 0.0)
        w = w * grad / max(float(w @ grad) / T, 1e-300)
    return w * (T / max(float(w.sum()), 1e-300))


def _rounded(w: np.ndarray, T: int) -> np.ndarray:
    """An integer allocation of ``T`` points close to ``w`` (floors, then the largest remainders)."""
    base = np.floor(w).astype(np.int64)
    left = int(T - base.sum())
    if left > 0:
        base[np.argsort(base - w)[:left]] += 1
    return base


def certified_relaxation_bound(Karb: Any, w: np.ndarray, noise_var: float) -> Any:
    """``g(w) + T max_i ∂_i g(w) − Σ_i w_i ∂_i g(w)`` (module docstring) as a certified ball: an upper bound on
    ``γ_T`` for any feasible ``w`` (``w >= 0``, ``Σ w = T``)."""
    from flint import arb, arb_mat

    G = Karb.nrows()
    s2 = arb(float(noise_var))
    idx = [i for i in range(G) if float(w[i]) > 0]
    root = {i: arb(float(w[i])).sqrt() for i in idx}
    n = len(idx)
    R = arb_mat(n, G)
    for a, i in enumerate(idx):
        for c in range(G):
            R[a, c] = root[i] * Karb[i, c]
    B = arb_mat(n, n)
    for a, i in enumerate(idx):
        for b, j in enumerate(idx):
            B[a, b] = R[a, j] * root[j] + (s2 if a == b else 0)
    Xs = B.solve(R)  # B⁻¹ W^{1/2} K, n × G
    g = (B.det() / s2 ** n).log() / 2  # ½ log det(I + σ⁻² W^{1/2} K W^{1/2}) on the support of w
    grads = []
    for c in range(G):
        quad = arb(0)
        for a in range(n):
            quad += R[a, c] * Xs[a, c]
        grads.append((Karb[c, c] - quad) / (2 * s2))
    T = arb(0)
    for i in idx:
        T += arb(float(w[i]))
    top = max(grads, key=lambda x: float(x.upper()))
    top = arb(float(top.upper()))  # an upper end of the largest gradient, as an exact number
    inner = arb(0)
    for i in idx:
        inner += arb(float(w[i])) * grads[i]
    return g + T * top - inner


def certified_gamma(kernel: str, grid: Any, T: int, *, lengthscale: float, noise_var: float,
                    prefixes: Sequence[int] | None = None, precision: int = 64) -> CertifiedGamma:
    """A certified bracket of ``γ_T`` over the finite domain ``grid`` (``G × d`` points) for a unit-variance
    ``kernel`` (``se``, ``matern12``, ``matern32``, ``matern52``); module docstring for the derivation.

    ``prefixes``: the greedy prefix sizes ``k`` whose bound ``F(S_k ⊎ T·D)`` is evaluated (default: ``0`` and
    ``T·2^{-j}``, ``j = 0..6``); the smallest is the upper bound. Ball arithmetic at ``precision`` bits.

    Examples
    --------
    >>> import numpy as np
    >>> b = certified_gamma("se", np.linspace(0, 1, 15)[:, None], 20, lengthscale=0.2, noise_var=0.01)
    >>> b.lower <= b.upper and b.ratio < 2
    True
    """
    check_choice("kernel", kernel, tuple(KERNELS))
    X = as_points("grid", grid)
    T = check_int("T", T, 1)
    lengthscale = check_positive("lengthscale", lengthscale)
    noise_var = check_positive("noise_var", noise_var)
    if prefixes is None:
        prefixes = default_prefixes(T)
    K = _float_gram(kernel, X, lengthscale)
    sets = greedy_counts(K, noise_var, T, prefixes)
    return _bracket(kernel, X, lengthscale, noise_var, T, K, sets, precision)[0]


def default_prefixes(T: int) -> list[int]:
    """The greedy prefix sizes whose bound is evaluated by default: ``0`` and ``T·2^{-j}``, ``j = 0..6``."""
    return sorted({0} | {max(T >> j, 1) for j in range(7)})


def certified_gamma_ladder(kernel: str, grid: Any, horizons: Sequence[int], *, lengthscale: float, noise_var: float,
                           precision: int = 64) -> dict[int, CertifiedGamma]:
    """:func:`certified_gamma` at every horizon of ``horizons`` (default prefixes), from one greedy sequence (the
    greedy picks do not depend on the horizon, so the sets of every horizon are prefixes of the longest one's)."""
    check_choice("kernel", kernel, tuple(KERNELS))
    X = as_points("grid", grid)
    Ts = sorted({check_int("T", T, 1) for T in horizons})
    K = _float_gram(kernel, X, check_positive("lengthscale", lengthscale))
    noise_var = check_positive("noise_var", noise_var)
    sets = greedy_counts(K, noise_var, Ts[-1], sorted({k for T in Ts for k in default_prefixes(T)}))
    out: dict[int, CertifiedGamma] = {}
    arb_cache: dict[int, Any] = {}
    w = None
    for T in Ts:  # each relaxed allocation warm-starts from the previous one, scaled to T points
        start = None if w is None else w * (T / float(w.sum()))
        b, w = _bracket(kernel, X, lengthscale, noise_var, T, K, {k: sets[k] for k in default_prefixes(T)},
                        precision, start=start, arb_cache=arb_cache)
        out[T] = b
    return out


def _bracket(kernel: str, X: np.ndarray, lengthscale: float, noise_var: float, T: int, K: np.ndarray,
             sets: dict[int, np.ndarray], precision: int, start: np.ndarray | None = None,
             arb_cache: dict[int, Any] | None = None) -> tuple[CertifiedGamma, np.ndarray]:
    """The certified bracket at ``T`` from the greedy multisets ``sets`` (prefix size -> counts; ``T`` among them)
    and the relaxed allocation it used; ``start``: an allocation of ``T`` points to warm-start the relaxation from
    (any feasible point gives a valid bound); ``arb_cache`` keeps the ball kernel per precision."""
    from flint import ctx

    old = ctx.prec
    w = _relaxed_optimum(K, noise_var, sets[T]) if start is None else \
        _relaxed_optimum(K, noise_var, 0.5 * start + 0.5 * sets[T], steps=100)
    try:
        prec = max(int(precision), 53)
        while True:  # raise the precision until the balls are narrow (ill-conditioned designs need more bits)
            ctx.prec = prec
            if arb_cache is None or prec not in arb_cache:
                Karb = _arb_kernel(kernel, X, lengthscale)
                if arb_cache is not None:
                    arb_cache[prec] = Karb
            Karb = arb_cache[prec] if arb_cache is not None else Karb
            lower = max((certified_gain(Karb, c, noise_var) for c in (sets[T], _rounded(w, T))),
                        key=lambda b: float(b.lower()))
            bounds = {k: certified_gain(Karb, sets[k] + T, noise_var) for k in sorted(sets)}
            relaxed = certified_relaxation_bound(Karb, w, noise_var)
            widths = [float(b.rad()) for b in (lower, relaxed, *bounds.values())]
            if max(widths) <= 1e-9 * max(float(abs(lower.mid())), 1.0) or prec >= MAX_PRECISION:
                break
            prec *= 2
    finally:
        ctx.prec = old
    ups = {k: float(b.upper()) for k, b in bounds.items()}
    best = min(ups, key=ups.get)
    upper, how = ups[best], best
    if float(relaxed.upper()) < upper:
        upper, how = float(relaxed.upper()), -1
    return CertifiedGamma(kernel, float(lengthscale), float(noise_var), T, X.shape[0], float(lower.lower()), upper,
                          tuple(sorted(ups)), how), w


#: the largest domain on which :class:`GammaUpper` evaluates certified brackets (their ball arithmetic is cubic)
CERTIFIED_POINTS = 80


class GammaUpper:
    """``T -> `` an upper bound on ``γ_T`` valid for every multiset of ``T`` points of a finite domain, at every
    ``T`` (a non-vacuity horizon evaluates a bound at horizons up to ``10^12``): the smallest of

    * the certified bracket's upper end (:func:`certified_gamma`) at the smallest power of two ``T' >= T`` up to
      ``ladder_max`` (``γ_T <= γ_{T'}``: γ is monotone), on domains of at most :data:`CERTIFIED_POINTS` points;
    * the spectral bound ``½ Σ_i log(1 + T(λ_i + e)/σ²)`` (the bound of the module docstring with ``S = ∅``), with
      ``λ_i`` the float eigenvalues of ``K_D`` (or of its Kronecker factors, ``factors``) and ``e`` a margin above
      their backward error (Weyl: each computed ``λ_i`` is within ``G·‖K‖·2^{-40}`` of an exact one, far above
      LAPACK's error), the sum rounded up by a relative ``10^{-9}``;
    * ``(T/2) log(1 + k̄/σ²)`` (one term per point).

    Every choice errs high: a horizon computed with it errs late, never early. The kernel has unit variance; a
    kernel ``s·k`` with noise ``σ²`` has the γ of ``k`` with noise ``σ²/s``.

    Examples
    --------
    >>> import numpy as np
    >>> g = GammaUpper("se", np.linspace(0, 1, 15)[:, None], lengthscale=0.2, noise_var=0.01)
    >>> certified_gamma("se", np.linspace(0, 1, 15)[:, None], 20, lengthscale=0.2, noise_var=0.01).lower <= g(20)
    True
    """

    def __init__(self, kernel: str, grid: Any, *, lengthscale: float, noise_var: float,
                 factors: Sequence[Any] | None = None, ladder_max: int = 2 ** 12) -> None:
        check_choice("kernel", kernel, tuple(KERNELS))
        self.kernel, self.lengthscale, self.noise_var = kernel, check_positive("lengthscale", lengthscale), \
            check_positive("noise_var", noise_var)
        self.ladder_max = check_int("ladder_max", ladder_max, 1)
        if factors is not None:  # a product grid: K_D = ⊗ K_j, eigenvalues the products of the factors'
            lam = np.ones(1)
            for F in factors:
                X = as_points("factor", F)
                lam = np.outer(lam, np.linalg.eigvalsh(_float_gram(kernel, X, lengthscale))).ravel()
            self.grid = None
        else:
            self.grid = as_points("grid", grid)
            lam = np.linalg.eigvalsh(_float_gram(kernel, self.grid, lengthscale))
        self.points = int(lam.size)
        top = float(np.max(lam))
        self.eigenvalues = np.maximum(lam, 0.0) + self.points * top * 2.0 ** -40
        self.certified = self.grid is not None and self.points <= CERTIFIED_POINTS
        self._ladder: dict[int, float] = {}
        self._values: dict[float, float] = {}

    def certified_at(self, T: int) -> float:
        """The certified upper end at the power of two ``T`` (the whole ladder up to ``ladder_max`` is evaluated at
        the first call, from one greedy sequence)."""
        if not self._ladder:
            top = 1 << max(int(math.ceil(math.log2(self.ladder_max) - 1e-12)), 0)
            ladder = [1 << j for j in range(top.bit_length())]
            self._ladder = {T: b.upper for T, b in certified_gamma_ladder(
                self.kernel, self.grid, ladder, lengthscale=self.lengthscale, noise_var=self.noise_var).items()}
        return self._ladder[T]

    def spectral(self, T: float) -> float:
        return float(0.5 * np.sum(np.log1p(float(T) * self.eigenvalues / self.noise_var))) * (1 + 1e-9)

    def __call__(self, T: float) -> float:
        T = float(T)
        if T in self._values:
            return self._values[T]
        out = 0.0
        if T > 0:
            out = min(self.spectral(T), 0.5 * T * math.log1p(1.0 / self.noise_var))
            if self.certified and T <= self.ladder_max:
                out = min(out, self.certified_at(1 << max(int(math.ceil(math.log2(T) - 1e-12)), 0)))
        self._values[T] = out
        return out
