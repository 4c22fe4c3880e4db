"""``tvgpucb`` App. D: the mismatch between the time-invariant posterior that R-GP-UCB uses and the true
time-varying posterior of the same block of data (Lemma D.1 and its proof, eqs. (73)–(87)).

==========================  ================================================================
claim                       paper
==========================  ================================================================
``tvgpucb:lemma-d.1``       Lemma D.1 via (81), (82), (87); the printed Δ^(σ) with its L̃ too
``tvgpucb:eq-78``           (78)–(79) as invoked, with the eigenvalue step after (79)
``tvgpucb:eq-78+corrected`` ‖M'‖₂ <= σ⁻⁴ ‖K̃ − K‖₂ <= σ⁻⁴ Ñ²ε by the resolvent identity
==========================  ================================================================

Notation of the proof: for n observations of one block, K its Gram matrix, K̃ = K ∘ D its
time-varying version, M' = (K + σ²I)⁻¹ − (K̃ + σ²I)⁻¹. Exact statements with an mpmath referee; the error in
(78)–(79) is READING.md §5.4.
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import numpy as np

from tvbo_verify.authoring import Comparison, Context, Evidence, Params, Statement, claim, exact_evidence
from tvbo_verify.gp import posterior, tv_posterior, tv_posterior_mp
from tvbo_verify.kernels import ForgettingKernel
from tvbo_verify.nystrom import gram_mp

from .instances import column, describe_sequence, draw_sequence, se_kernel

#: the grid on which the sup over D of Δ^(μ), Δ^(σ) is taken (a sup on the grid is <= the sup over D)
MISMATCH_GRID = np.linspace(0.0, 1.0, 51)[:, None]
#: the least value of L̃_t = (2 + b_0) sqrt(log(4 (1 + a_0) π_t / δ)) of (65): a_0 = b_0 = 0, δ = 1, t = 1
LEAST_L_TILDE = 2.0 * math.sqrt(math.log(4.0 * math.pi**2 / 6.0))
LEMMA_D1_PARTS = ("variance", "sd", "sd as printed", "mean")


class BlockMismatch:
    """Both posteriors of one block of data on the grid, and the proof's constant (3σ⁻² + σ⁻⁴) n³ ε."""

    @staticmethod
    def gaps(p: Params) -> dict[str, tuple[float, int]]:
        """max over the grid (and its argmax) of |σ̃² − σ²|, |σ̃ − σ| and |μ̃ − μ|."""
        kern, X, y, s2, eps = se_kernel(p), column(p["X"]), np.asarray(p["y"], float), p["noise_var"], p["epsilon"]
        mean, var = posterior(kern, X, y, s2, MISMATCH_GRID)
        tv = tv_posterior(kern, X, y, s2, MISMATCH_GRID, eps)
        gaps = {"variance": np.abs(tv.var - var), "sd": np.abs(np.sqrt(tv.var) - np.sqrt(var)),
                "mean": np.abs(tv.mean - mean)}
        return {k: (float(np.max(v)), int(np.argmax(v))) for k, v in gaps.items()}

    @staticmethod
    def gap_mp(p: Params, quantity: str, index: int) -> Any:
        args = (se_kernel(p), column(p["X"]), p["y"], p["noise_var"], MISMATCH_GRID[index:index + 1])
        m0, v0 = tv_posterior_mp(*args, 0.0)
        m1, v1 = tv_posterior_mp(*args, p["epsilon"])
        if quantity == "variance":
            return abs(v1 - v0)
        if quantity == "sd":
            return abs(mpmath.sqrt(v1) - mpmath.sqrt(v0))
        return abs(m1 - m0)

    @staticmethod
    def constant(n: int, noise_var: Any, rate: Any, lib: Any = math) -> Any:
        return (3 / noise_var + 1 / noise_var**2) * n**3 * rate


class PosteriorMismatch(Statement):
    """Lemma D.1 by parts: (81), (82), the printed Δ^(σ) bound, and (87)."""

    name = ("max|σ̃² − σ²| <= (3σ⁻² + σ⁻⁴)n³ε, max|σ̃ − σ| <= sqrt(·) (printed: (·)L̃), "
            "max|μ̃ − μ| <= (σ⁻² + σ⁻⁴)n³ε max|y|")
    sharpening = "ε² in place of ε (the n³ε² term of (77) kept instead of the crude step n³ε² <= n³ε)"
    plot_against = "epsilon"
    continuous = ("noise_var", "epsilon")
    bounds = {"noise_var": (1e-3, 10.0), "epsilon": (1e-4, 0.3)}

    def bound(self, p: Params, rate: Any, lib: Any = math) -> Any:
        n, s2 = len(p["X"]), p["noise_var"]
        if lib is mpmath:
            s2 = mpmath.mpf(s2)
        c = BlockMismatch.constant(n, s2, rate)
        ymax = max(abs(lib.mpf(v)) if lib is mpmath else abs(v) for v in p["y"])
        part = p["part"]
        if part == "variance":
            return c
        if part == "sd":
            return lib.sqrt(c)
        if part == "sd as printed":
            return c * LEAST_L_TILDE
        return (1 / s2 + 1 / s2**2) * n**3 * rate * ymax

    def quantity(self, p: Params) -> str:
        return "sd" if p["part"].startswith("sd") else p["part"]

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        gap = BlockMismatch.gaps(p)[self.quantity(p)][0]
        return Comparison(gap, float(self.bound(p, p["epsilon"] ** 2 if sharpened else p["epsilon"])))

    def hp(self, p: Params) -> Comparison:
        q = self.quantity(p)
        index = BlockMismatch.gaps(p)[q][1]
        return Comparison(BlockMismatch.gap_mp(p, q, index), self.bound(p, mpmath.mpf(p["epsilon"]), mpmath))

    def sample(self, rng: np.random.Generator) -> Params:
        n = int(rng.integers(1, 21))
        s2, eps = float(10 ** rng.uniform(-3, 0.5)), float(10 ** rng.uniform(-4, -0.5))
        return {"part": LEMMA_D1_PARTS[int(rng.integers(4))], **draw_sequence(rng, n, s2, eps),
                "y": rng.normal(size=n).tolist(), "lengthscale": 0.2, "noise_var": s2, "epsilon": eps}

    def describe(self, p: Params) -> dict[str, Any]:
        return {"part": p["part"], **describe_sequence(p)}


LEMMA_D1 = PosteriorMismatch()


@claim("tvgpucb:lemma-d.1")
def lemma_d_1(ctx: Context) -> Evidence:
    """Lemma D.1 and its proof: the gap between R-GP-UCB's time-invariant posterior and the true time-varying one of
    the same block of data. Four parts, each a maximum over ``MISMATCH_GRID`` (a lower bound of the sup over D): (81)
    on the variances, (82) its square root on the sds, the lemma's printed linear Δ^(σ) at the least admissible L̃
    (``LEAST_L_TILDE``), and (87) with L̃ at max|y_i|. Nelder–Mead over (σ², ε), mpmath referee at the arg-max.
    Power: ε² in place of ε must be refuted. Reading: READING.md §tvgpucb:lemma-d.1."""
    return exact_evidence(ctx, LEMMA_D1, n_random=ctx.pick(80, 400), n_starts=ctx.pick(2, 5), maxfev=120,
                          what="posterior mismatch of Lemma D.1")


# ------------------------------------------------------------------------------------- (78)–(80)
class ResolventGap:
    """The matrices of the proof for the instance's block: K, K̃ − K and M'."""

    @staticmethod
    def matrices(p: Params) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        K = se_kernel(p)(column(p["X"]))
        n, s2 = K.shape[0], p["noise_var"]
        t = np.arange(n, dtype=float)
        Delta = K * (ForgettingKernel(p["epsilon"]).of_lag(t[:, None] - t[None, :]) - 1.0)
        M_prime = np.linalg.inv(K + s2 * np.eye(n)) - np.linalg.inv(K + Delta + s2 * np.eye(n))
        return K, Delta, M_prime

    @staticmethod
    def matrices_mp(p: Params) -> tuple[Any, Any, Any]:
        K = mpmath.matrix(gram_mp(se_kernel(p), column(p["X"]), dps=mpmath.mp.dps).tolist())
        n, s2 = K.rows, mpmath.mpf(p["noise_var"])
        rho = mpmath.sqrt(1 - mpmath.mpf(p["epsilon"]))
        Delta = mpmath.matrix(n, n)
        for i in range(n):
            for j in range(n):
                Delta[i, j] = K[i, j] * ((rho ** abs(i - j) if i != j else 1) - 1)
        eye = mpmath.eye(n)
        return K, Delta, (K + s2 * eye) ** -1 - (K + Delta + s2 * eye) ** -1

    @staticmethod
    def spectral_mp(M: Any) -> Any:
        """‖M‖₂ of a symmetric mpmath matrix."""
        S = (M + M.T) / 2
        return max(abs(v) for v in mpmath.eigsy(S)[0])


class ResolventAsInvoked(Statement):
    """(79) and the eigenvalue step after it, which needs λ(K̃ − K) >= 0."""

    name = "‖M'‖₂ <= ‖σ⁻²I − (K̃ − K + σ²I)⁻¹‖₂ <= σ⁻⁴‖K̃ − K‖₂ (Lemma X.1.4 with V = σ⁻²(K̃ − K))"
    sharpening = "(79) without multiplying (78) through by σ⁻²: ‖M'‖₂ <= ‖I − (V + I)⁻¹‖₂"
    plot_against = "noise_var"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        K, Delta, M_prime = ResolventGap.matrices(p)
        s2, n = p["noise_var"], K.shape[0]
        middle = float(np.linalg.norm(np.eye(n) / s2 - np.linalg.inv(Delta + s2 * np.eye(n)), 2))
        if p["part"] == "(79)":
            return Comparison(float(np.linalg.norm(M_prime, 2)), middle * s2 if sharpened else middle)
        return Comparison(middle, float(np.linalg.norm(Delta, 2)) / s2**2)

    def hp(self, p: Params) -> Comparison:
        K, Delta, M_prime = ResolventGap.matrices_mp(p)
        s2, n = mpmath.mpf(p["noise_var"]), K.rows
        middle = ResolventGap.spectral_mp(mpmath.eye(n) / s2 - (Delta + s2 * mpmath.eye(n)) ** -1)
        if p["part"] == "(79)":
            return Comparison(ResolventGap.spectral_mp(M_prime), middle)
        return Comparison(middle, ResolventGap.spectral_mp(Delta) / s2**2)

    def sample(self, rng: np.random.Generator) -> Params:
        n = int(rng.integers(2, 16))
        s2, eps = float(10 ** rng.uniform(-2, 1)), float(10 ** rng.uniform(-4, -0.5))
        part = ("(79)", "eigenvalue step")[int(rng.integers(2))]
        return {"part": part, **draw_sequence(rng, n, s2, eps), "lengthscale": 0.2, "noise_var": s2, "epsilon": eps}

    def describe(self, p: Params) -> dict[str, Any]:
        return {"part": p["part"], **describe_sequence(p)}


class ResolventIdentity(Statement):
    """‖M'‖₂ <= σ⁻⁴‖K̃ − K‖₂ (M' = (K + σ²I)⁻¹ (K̃ − K) (K̃ + σ²I)⁻¹) and ‖K̃ − K‖₂ <= n²ε."""

    name = "‖(K + σ²I)⁻¹ − (K̃ + σ²I)⁻¹‖₂ <= σ⁻⁴‖K̃ − K‖₂ <= σ⁻⁴ n²ε"
    sharpening = ("one resolvent factor lost, ‖M'‖₂ <= σ⁻²‖K̃ − K‖₂; the entry bound read as the norm "
                  "bound, ‖K̃ − K‖₂ <= nε")
    plot_against = "noise_var"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        K, Delta, M_prime = ResolventGap.matrices(p)
        s2, n = p["noise_var"], K.shape[0]
        norm = float(np.linalg.norm(Delta, 2))
        if p["part"] == "resolvent":
            return Comparison(float(np.linalg.norm(M_prime, 2)), norm / (s2 if sharpened else s2**2))
        return Comparison(norm, (n if sharpened else n**2) * p["epsilon"])

    def hp(self, p: Params) -> Comparison:
        K, Delta, M_prime = ResolventGap.matrices_mp(p)
        s2, n = mpmath.mpf(p["noise_var"]), K.rows
        norm = ResolventGap.spectral_mp(Delta)
        if p["part"] == "resolvent":
            return Comparison(ResolventGap.spectral_mp(M_prime), norm / s2**2)
        return Comparison(norm, n**2 * mpmath.mpf(p["epsilon"]))

    def sample(self, rng: np.random.Generator) -> Params:
        p = EQ78.sample(rng)
        return {**p, "part": {"(79)": "resolvent", "eigenvalue step": "spectral"}[p["part"]]}

    def describe(self, p: Params) -> dict[str, Any]:
        return {"part": p["part"], **describe_sequence(p)}


EQ78 = ResolventAsInvoked()
EQ78_CORRECTED = ResolventIdentity()


@claim("tvgpucb:eq-78")
def eq_78(ctx: Context) -> Evidence:
    """App. D, (78)–(79) as invoked: Lemma X.1.4, stated for positive definite U, V, applied with V = σ⁻²(K̃ − K), then
    the eigenvalue step ‖σ⁻²I − (K̃ − K + σ²I)⁻¹‖₂ ≤ σ⁻⁴‖K̃ − K‖₂, which needs λ(K̃ − K) ≥ 0 although K̃ − K (zero
    diagonal) is indefinite. Both parts are measured with ``numpy.linalg`` on blocks of constant, random and
    TV-greedy inputs; referee by mpmath's symmetric eigensolver. Power: (79) without multiplying (78) through by
    σ⁻² must be refuted where (79) holds. Reading: READING.md §tvgpucb:eq-78; §5.4."""
    return exact_evidence(ctx, EQ78, n_random=ctx.pick(40, 200), n_starts=0, what="(78)–(79) as invoked")


@claim("tvgpucb:eq-78+corrected")
def eq_78_corrected(ctx: Context) -> Evidence:
    """What the proof of Lemma D.1 needs from (78)–(80), by the resolvent identity M' = (K + σ²I)⁻¹(K̃ − K)(K̃ + σ²I)⁻¹:
    ‖M'‖₂ ≤ σ⁻⁴‖K̃ − K‖₂ (both resolvents of norm ≤ σ⁻², K̃ = K ∘ D being PSD), and ‖K̃ − K‖₂ ≤ n²ε by (54). Both
    are measured on the blocks of ``tvgpucb:eq-78`` and refereed in mpmath. Power: one resolvent factor lost (σ⁻²
    for σ⁻⁴) and the entry bound nε read as the norm bound must be refuted.
    Reading: READING.md §tvgpucb:eq-78+corrected."""
    return exact_evidence(ctx, EQ78_CORRECTED, n_random=ctx.pick(40, 200), n_starts=0,
                          what="resolvent bound via the resolvent identity")
