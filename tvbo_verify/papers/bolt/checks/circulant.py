"""``bolt`` App. B: Gray's circulant approximation of the temporal Gram matrix and its eigenvalues.

* ``bolt:appendix-b`` — eigenvalues of the circulant ``C_n`` are the centred DFT (22) of its first row
  (``c_j = t_j + t_{n−j}``, eq. (23)); ``T_n − C_n`` vanishes in Gray's norm like ``n^{−1/2}`` and the
  sorted spectra approach each other like ``1/n``.
* ``bolt:eq-27`` / ``+corrected`` — the unit phase ``exp(−2πi(j − n/2)) = 1`` of (26)–(27) and the
  eigenvectors (20): true for even ``n`` only (READING.md §5.5).
* ``bolt:eq-28`` / ``+corrected`` — ``λ_j ≈ S_T((j − n/2)/(nc))/c`` (28), which drops the aliasing, against
  the aliased density ``(1/c) Σ_m S_T(ξ_j + m/c)`` (READING.md §5.4).

Unit-variance temporal kernels of unit lengthscale (Matérn-1/2, 3/2, 5/2, SE); ``t_j = jc``.

Readings: READING.md §bolt:appendix-b, §bolt:eq-27, §bolt:eq-27+corrected, §bolt:eq-28, §bolt:eq-28+corrected.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import mpmath
import numpy as np

from tvbo_verify import highprecision as rf
from tvbo_verify.authoring import Comparison, Context, Evidence, Params, Statement, claim, exact_evidence
from tvbo_verify.kernels import StationaryKernel, temporal_kernel
from tvbo_verify.spectral import aliased_spectral_density, spectral_density
from tvbo_verify.theory.circulant import (
    centred_dft_eigenvalues,
    centred_frequencies,
    circulant_first_row,
    circulant_matrix,
    gray_norm,
    mean_sorted_eigenvalue_gap,
    toeplitz_gram,
)

from .plotting import finish, new_axes

if TYPE_CHECKING:
    from matplotlib.figure import Figure

KERNELS = ("matern12", "matern32", "matern52", "se")


def kernel_of(p: Params) -> StationaryKernel:
    return temporal_kernel(p["kT"], 1.0)


def corner_sums(p: Params) -> tuple[float, float]:
    """``Σ_{m>=1} m k_T(cm)`` and ``Σ_{m>=1} m k_T²(cm)``: the mass of the corners ``T_n − C_n`` as ``n → ∞``."""
    m = np.arange(1, int(100.0 / p["c"]) + 60, dtype=float)
    k = kernel_of(p).of_distance(m * p["c"])
    return float(np.sum(m * k)), float(np.sum(m * k * k))


def gray_row_mp(p: Params) -> list[Any]:
    """Gray's first row ``c_0 = 1``, ``c_j = k_T(cj) + k_T(c(n − j))`` in mpmath."""
    k, n, c = kernel_of(p), int(p["n"]), mpmath.mpf(p["c"])
    return [mpmath.mpf(1)] + [rf.kernel_of_distance_mp(k, c * j) + rf.kernel_of_distance_mp(k, c * (n - j))
                              for j in range(1, n)]


def centred_eigenvalues_mp(p: Params) -> list[Any]:
    """The real parts of (22) for Gray's first row, in mpmath."""
    n, row = int(p["n"]), gray_row_mp(p)
    return [mpmath.fsum(row[m] * mpmath.cos(2 * mpmath.pi * (j - mpmath.mpf(n) / 2) * m / n) for m in range(n))
            for j in range(n)]


# ----------------------------------------------------------------------------------- eq. (27)
class UnitPhase(Statement):
    """Part ``phase``: ``exp(−2πi(j − n/2)) = 1``; part ``spectrum``: (22) lists the spectrum of ``C_n``;
    part ``dft-sum``: ``1ᵀQ1 = √n`` with the eigenvectors (20)."""

    even_only: bool = False
    sharpening = "(22) normalised like the eigenvectors (20), λ_j / √n; 1ᵀQ1 read without that normalisation, = n"
    plot_against = "n"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        n, j = int(p["n"]), int(p["j"])
        if p["part"] == "phase":
            phase = np.exp(-2j * np.pi * (j - n / 2))
            return Comparison(float(phase.real), 1.0, "==", tol=1e-9, scale=1.0)
        if p["part"] == "dft-sum":
            jj, ll = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
            total = float(np.sum(np.exp(-2j * np.pi * (jj - n / 2) * ll / n)).real) / math.sqrt(n)
            stated = float(n) if sharpened else math.sqrt(n)
            return Comparison(total, stated, "==", tol=1e-9 * math.sqrt(n), scale=math.sqrt(n))
        row = circulant_first_row(kernel_of(p), p["c"], n)
        spectrum = np.linalg.eigvalsh(circulant_matrix(row))
        stated = np.sort(centred_dft_eigenvalues(row).real)
        if sharpened:
            stated = stated / math.sqrt(n)
        scale = float(np.max(np.abs(spectrum)))
        return Comparison(float(spectrum[j]), float(stated[j]), "==", tol=1e-10 * scale, scale=scale)

    def hp(self, p: Params) -> Comparison:
        n, j = int(p["n"]), int(p["j"])
        if p["part"] == "phase":
            return Comparison(mpmath.cos(2 * mpmath.pi * (j - mpmath.mpf(n) / 2)), 1, "==", tol=mpmath.mpf("1e-9"),
                              scale=1)
        if p["part"] == "dft-sum":
            total = mpmath.fsum(mpmath.cos(2 * mpmath.pi * (a - mpmath.mpf(n) / 2) * b / n)
                                for a in range(n) for b in range(n)) / mpmath.sqrt(n)
            root = mpmath.sqrt(n)
            return Comparison(total, root, "==", tol=mpmath.mpf("1e-9") * root, scale=root)
        # the spectrum of a circulant is the (uncentred) DFT of its first row, exactly
        row = gray_row_mp(p)
        spectrum = sorted(mpmath.fsum(row[m] * mpmath.cos(2 * mpmath.pi * a * m / n) for m in range(n))
                          for a in range(n))
        stated = sorted(centred_eigenvalues_mp(p))
        scale = max(abs(v) for v in spectrum)
        return Comparison(spectrum[j], stated[j], "==", tol=mpmath.mpf("1e-10") * scale, scale=scale)

    def sample(self, rng: np.random.Generator) -> Params:
        part = ("phase", "spectrum", "spectrum", "dft-sum")[int(rng.integers(4))]
        top = {"phase": 2048, "spectrum": 64, "dft-sum": 128}[part]
        n = int(rng.integers(2, top + 1))
        if self.even_only:
            n += n % 2
        return {"part": part, "n": n, "j": int(rng.integers(n)), "kT": KERNELS[int(rng.integers(4))],
                "c": float(10 ** rng.uniform(-1, 0.3))}

    def shrink(self, p: Params) -> list[Params]:
        if p["n"] % 2 == 0:
            return []
        out = [{**p, "n": 3, "j": min(int(p["j"]), 2)}, {**p, "j": 0}]
        if p["n"] > 3:
            out.append({**p, "n": int(p["n"]) - 2, "j": min(int(p["j"]), int(p["n"]) - 3)})
        return out


class PrintedPhase(UnitPhase):
    name = "exp(−2πi(j − n/2)) = 1, (20) are the eigenvectors and (22) the eigenvalues of C_n (any n)"


class EvenPhase(UnitPhase):
    name = "for even n: exp(−2πi(j − n/2)) = 1, (22) lists the spectrum of C_n, 1ᵀQ1 = √n"
    even_only = True


EQ_27 = PrintedPhase()
EQ_27_CORRECTED = EvenPhase()


@claim("bolt:eq-27")
def eq_27(ctx: Context) -> Evidence:
    """Appendix B, Eqs. (26)–(27) with (20) and (22), for every n, odd included: (phase) exp(−2πi(j − n/2)) = 1;
    (spectrum) the sorted eigenvalues of Gray's circulant C_n (``theory.circulant``) equal the sorted real parts of
    the centred DFT (22); (DFT sum) 1ᵀQ1 = √n with the eigenvectors (20). Breaks are refereed in mpmath and shrunk to
    the smallest odd n. Power (even n): (22) normalised like (20), λ_j/√n, and 1ᵀQ1 = n must be caught. Full reading:
    READING.md §bolt:eq-27."""
    return exact_evidence(ctx, EQ_27, n_random=ctx.pick(60, 300), n_starts=0, what="unit phase of (26)–(27)")


@claim("bolt:eq-27+corrected")
def eq_27_corrected(ctx: Context) -> Evidence:
    """The statements of ``bolt:eq-27`` restricted to even n: the phase factor is 1, (22) lists the spectrum of C_n
    and 1ᵀQ1 = √n, which gives (55). Breaks are refereed in mpmath. Power: λ_j/√n and 1ᵀQ1 = n must be caught. Full
    reading: READING.md §bolt:eq-27+corrected."""
    return exact_evidence(ctx, EQ_27_CORRECTED, n_random=ctx.pick(60, 300), n_starts=0,
                          what="circulant identities, even n")


# ------------------------------------------------------------------------------ App. B (19)–(23)
class CirculantApproximation(Statement):
    """Part ``dft``: (22) is the spectrum; ``gray``: ``|T_n − C_n| <= √(2 Σ m k²(cm) / n)``; ``gap``:
    ``mean |λ↓(T_n) − λ↓(C_n)| <= 2 Σ m k(cm) / n``."""

    name = "eig C_n = centred DFT (22); |T_n − C_n| = O(n^-1/2); mean sorted-eigenvalue gap = O(1/n)"
    sharpening = "(22) as λ_j/√n; Gray's norm vanishing like 1/n; the eigenvalue gap vanishing like 1/n²"
    plot_against = "n"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        k, c, n = kernel_of(p), p["c"], int(p["n"])
        if p["part"] == "dft":
            return EQ_27_CORRECTED.evaluate({**p, "part": "spectrum"}, sharpened)
        T, C = toeplitz_gram(k, c, n), circulant_matrix(circulant_first_row(k, c, n))
        first, second = corner_sums(p)
        if p["part"] == "gray":  # Σ (T − C)² = 2 Σ_{m<n} m k²(cm)
            rate = n if sharpened else math.sqrt(n)
            return Comparison(gray_norm(T, C), math.sqrt(2.0 * second) / rate, "<=")
        rate = n * n if sharpened else n  # Σ_i |Δλ_i| <= ||T − C||_* <= Σ_ij |T − C|_ij = 2 Σ_{m<n} m k(cm)
        return Comparison(mean_sorted_eigenvalue_gap(T, C), 2.0 * first / rate, "<=")

    def hp(self, p: Params) -> Comparison:
        if p["part"] == "dft":
            return EQ_27_CORRECTED.hp({**p, "part": "spectrum"})
        k, c, n = kernel_of(p), mpmath.mpf(p["c"]), int(p["n"])
        corner = [rf.kernel_of_distance_mp(k, c * m) for m in range(1, n)]
        if p["part"] == "gray":
            measured = mpmath.sqrt(2 * mpmath.fsum((n - m) * corner[n - m - 1] ** 2 for m in range(1, n)) / n)
            return Comparison(measured, mpmath.sqrt(2 * mpmath.mpf(corner_sums(p)[1]) / n), "<=")
        return self.evaluate(p)

    def sample(self, rng: np.random.Generator) -> Params:
        n = int(rng.choice([16, 32, 64, 128, 256]))
        return {"part": ("dft", "gray", "gap")[int(rng.integers(3))], "n": n, "j": int(rng.integers(n)),
                "kT": KERNELS[int(rng.integers(4))], "c": float(10 ** rng.uniform(-1, 0.3))}


APPENDIX_B = CirculantApproximation()


def gray_figure() -> Figure:
    """Gray's norm and the mean sorted-eigenvalue gap against n (Matérn-1/2, c = 0.5), with their rates."""
    k, c = temporal_kernel("matern12", 1.0), 0.5
    ns = np.array([16, 32, 64, 128, 256, 512])
    gray, gap = [], []
    for n in ns:
        T, C = toeplitz_gram(k, c, int(n)), circulant_matrix(circulant_first_row(k, c, int(n)))
        gray.append(gray_norm(T, C))
        gap.append(mean_sorted_eigenvalue_gap(T, C))
    fig, ax = new_axes()
    ax.loglog(ns, gray, "o-", label="|T_n − C_n| (Gray's norm)")
    ax.loglog(ns, gap, "s-", label="mean |λ↓(T_n) − λ↓(C_n)|")
    ax.loglog(ns, gray[0] * np.sqrt(ns[0] / ns), "k:", label="∝ n^-1/2")
    ax.loglog(ns, gap[0] * ns[0] / ns, "k--", label="∝ 1/n")
    finish(ax, xlabel="n", ylabel="distance", xlim=(ns[0], ns[-1]), title="Matérn-1/2, l_T = 1, c = 0.5")
    return fig


@claim("bolt:appendix-b")
def appendix_b(ctx: Context) -> Evidence:
    """Appendix B, Eqs. (19)–(23): Gray's circulant C_n (the second line of (23)) against the Toeplitz T_n for Matérn
    and SE k_T at even n. (dft) The spectrum of C_n equals the centred DFT (22); (gray) Gray's norm |T_n − C_n| is
    within an explicit bound decaying like n^{−1/2}; (gap) the mean sorted-eigenvalue gap is within one decaying like
    1/n, the derived reading of "vanishes like". Breaks are refereed in mpmath. Power: (22) as λ_j/√n, and both rates
    read one power faster, must be caught. Full reading: READING.md §bolt:appendix-b."""
    ev = exact_evidence(ctx, APPENDIX_B, n_random=ctx.pick(45, 200), n_starts=0, what="circulant approximation")
    ev.figures.append(("Gray's norm and eigenvalue gap against n", gray_figure))
    return ev


# ----------------------------------------------------------------------------------- eq. (28)
class ScaledDensity(Statement):
    """``λ_j`` of (22) against ``S_T(ξ_j)/c`` (printed) or the aliased density (corrected), at one index ``j``."""

    aliased: bool = False
    plot_against = "c"

    @staticmethod
    def eigenvalue(p: Params) -> tuple[float, float]:
        """``Re λ_j`` of (22) and ``max_j Re λ_j``."""
        lam = centred_dft_eigenvalues(circulant_first_row(kernel_of(p), p["c"], int(p["n"]))).real
        return float(lam[int(p["j"])]), float(np.max(lam))

    @staticmethod
    def frequency(p: Params) -> float:
        return float(centred_frequencies(p["c"], int(p["n"]))[int(p["j"])])

    @staticmethod
    def tail(p: Params) -> float:
        """``2 Σ_{l>=n} k_T(cl)``: what the circulant's finite row leaves out of the aliased Fourier series."""
        n, c = int(p["n"]), p["c"]
        lags = np.arange(n, n + int(100.0 / c) + 60, dtype=float)
        return 2.0 * float(np.sum(kernel_of(p).of_distance(lags * c)))

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        lam, top = self.eigenvalue(p)
        xi, c, k = self.frequency(p), p["c"], kernel_of(p)
        plain = float(spectral_density(k, xi)) / c
        if self.aliased:
            stated = plain if sharpened else float(aliased_spectral_density(k, c, xi))
            return Comparison(lam, stated, "==", tol=self.tail(p) + 1e-12 * top, scale=top)
        stated = plain * c if sharpened else plain
        return Comparison(lam, stated, "==", tol=0.01 * top, scale=top)

    def hp(self, p: Params) -> Comparison:
        n, j, row = int(p["n"]), int(p["j"]), gray_row_mp(p)
        lam = mpmath.fsum(row[m] * mpmath.cos(2 * mpmath.pi * (j - mpmath.mpf(n) / 2) * m / n) for m in range(n))
        top = mpmath.mpf(self.eigenvalue(p)[1])  # the tolerance's scale (largest eigenvalue), from float64
        k, c = kernel_of(p), mpmath.mpf(p["c"])
        xi = (int(p["j"]) - mpmath.mpf(int(p["n"])) / 2) / (int(p["n"]) * c)
        if self.aliased:
            return Comparison(lam, rf.aliased_density_mp(k, c, xi), "==", tol=mpmath.mpf(self.tail(p)) + top * 1e-12,
                              scale=top)
        return Comparison(lam, rf.spectral_density_mp(k, xi) / c, "==", tol=top / 100, scale=top)

    def sample(self, rng: np.random.Generator) -> Params:
        kT = KERNELS[int(rng.integers(4))]
        c = float(10 ** rng.uniform(math.log10(0.05), math.log10(2.0)))
        n = int(rng.choice([256, 512]))
        n = max(n, 2 * math.ceil(10.0 / c))  # n c >= 20 lengthscales: the circulant's row has decayed
        edge = max(1, n // 16)
        j = int(rng.integers(n)) if rng.random() < 0.5 else int(rng.choice(
            np.r_[np.arange(edge), np.arange(n - edge, n)]))
        return {"kT": kT, "c": c, "n": n, "j": j}

    def describe(self, p: Params) -> dict[str, Any]:
        return {**p, "xi_j": self.frequency(p)}


class PrintedDensity(ScaledDensity):
    name = "λ_j ≈ S_T((j − n/2)/(nc))/c  (28 as printed; to 1% of max λ, n c >= 20)"
    sharpening = "the factor 1/c of (24)–(28) lost: λ_j ≈ S_T(ξ_j)"
    aliased = False


class AliasedDensity(ScaledDensity):
    name = "|λ_j − (1/c) Σ_m S_T(ξ_j + m/c)| <= 2 Σ_{l>=n} k_T(cl)  (28 with aliasing)"
    sharpening = "the aliasing dropped, as printed: λ_j compared with S_T(ξ_j)/c"
    aliased = True


EQ_28 = PrintedDensity()
EQ_28_CORRECTED = AliasedDensity()


def aliasing_table() -> list[dict[str, float]]:
    """``max_j |λ_j − S_T(ξ_j)/c|`` and against the aliased density for Matérn-1/2, c = 0.5 (READING.md §5.4)."""
    k, c = temporal_kernel("matern12", 1.0), 0.5
    rows = []
    for n in (16, 64, 256, 1024):
        lam = centred_dft_eigenvalues(circulant_first_row(k, c, n)).real
        xi = centred_frequencies(c, n)
        rows.append({"n": n, "printed_max_error": float(np.max(np.abs(lam - spectral_density(k, xi) / c))),
                     "aliased_max_error": float(np.max(np.abs(lam - aliased_spectral_density(k, c, xi, terms=2000))))})
    return rows


def aliasing_figure(rows: list[dict[str, float]]) -> Figure:
    fig, ax = new_axes(3.2)
    ns = [r["n"] for r in rows]
    ax.loglog(ns, [r["printed_max_error"] for r in rows], "o-", label="|λ_j − S_T(ξ_j)/c| (28 as printed)")
    ax.loglog(ns, [max(r["aliased_max_error"], 1e-17) for r in rows], "s-", label="|λ_j − aliased density|")
    finish(ax, xlabel="n", ylabel="max over j", xlim=(ns[0], ns[-1]), title="Matérn-1/2, l_T = 1, c = 0.5")
    return fig


@claim("bolt:eq-28")
def eq_28(ctx: Context) -> Evidence:
    """Appendix B, Eqs. (24)–(28) as printed, in the regime (24)–(25) invoke (n large, the circulant's row decayed):
    the real part of λ_j of (22) for Gray's circulant must equal S_T(ξ_j)/c, ξ_j = (j − n/2)/(nc), within a small
    fraction of the largest eigenvalue (the reading of "≈"); indices are drawn over the band and at its edges. Breaks
    are refereed in mpmath. Reported: the largest error over j against n (``aliasing_table``), which does not vanish.
    Power (small c, where (28) holds): the factor 1/c lost must be caught. Full reading: READING.md §bolt:eq-28."""
    ev = exact_evidence(ctx, EQ_28, n_random=ctx.pick(60, 300), n_starts=0, what="eigenvalues as the density (28)")
    rows = aliasing_table()
    ev.stats["matern12_c05_max_error_over_j"] = rows
    ev.figures.append(("error of (28) against n", lambda: aliasing_figure(rows)))
    return ev


@claim("bolt:eq-28+corrected")
def eq_28_corrected(ctx: Context) -> Evidence:
    """Eq. (28) with the aliasing restored: on the instances of ``bolt:eq-28``, |λ_j − (1/c) Σ_m S_T(ξ_j + m/c)|
    (``spectral.aliased_spectral_density``) must be at most 2 Σ_{l>=n} k_T(cl), the Fourier terms the circulant's
    finite row leaves out, plus round-off. Breaks are refereed in mpmath. Power: the aliasing dropped, as printed,
    must be caught. Full reading: READING.md §bolt:eq-28+corrected."""
    return exact_evidence(ctx, EQ_28_CORRECTED, n_random=ctx.pick(60, 300), n_starts=0,
                          what="eigenvalues as the aliased density")
