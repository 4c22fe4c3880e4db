"""``tvgpucb`` App. C.2: how much forgetting can add to the information of one block.

The proof of (21) writes K̃ = K + A with A = K ∘ (D − 1) (eqs. (49)–(51)), bounds A entrywise and in
Frobenius norm (footnote 4, eqs. (52)–(54)), moves the eigenvalues by Mirsky's inequality (Lemma C.1,
eq. (55)) and maximises Σ log(1 + Δ_i) under Σ Δ_i² ≤ Ñ⁴ε² (eq. (61)) to reach Ĩ − I ≤ Ñ³ε (eqs.
(56)–(60)).

===============================  ===========================================================
claim                            paper
===============================  ===========================================================
``tvgpucb:eq-52-54``             footnote 4 and eqs. (52)–(54)
``tvgpucb:lemma-c.1``            Lemma C.1, eq. (55) (Mirsky)
``tvgpucb:eq-60``                eqs. (56)–(60), the increase n³ε as printed
``tvgpucb:eq-60+corrected``      the increase (n/2) log(1 + σ⁻² n^{3/2} ε) with the ½ σ⁻² of (12)
``tvgpucb:eq-61``                eq. (61), the maximiser Δ_i = Ñ²ε as printed
``tvgpucb:eq-61+corrected``      the maximiser Δ_i = Ñ^{3/2}ε
===============================  ===========================================================
"""

from __future__ import annotations

from typing import Any, Iterable

import mpmath
import numpy as np
from scipy import optimize

from ....information import information_gain, tv_information_gain, tv_information_gain_mp
from ....kernels import ForgettingKernel
from ....nystrom import gram_mp
from ... import referee as rf
from ...builders import exact_evidence
from ...comparison import Comparison
from ...engine import Context
from ...evidence import Evidence
from ...registry import claim
from ...statement import Params, Statement
from .information_gain import corrected_block_term, corrected_block_term_mp
from .instances import column, describe_sequence, draw_sequence, se_kernel


# ---------------------------------------------------------------------------------------- (56)–(60)
class InformationIncrease:
    """Ĩ(x_{1:n}) − I(x_{1:n}) of a sequence (``information``), in float and in mpmath."""

    @staticmethod
    def gap(p: Params) -> float:
        X, kern = column(p["X"]), se_kernel(p)
        return tv_information_gain(kern, X, p["noise_var"], p["epsilon"]) - information_gain(kern, X, p["noise_var"])

    @staticmethod
    def gap_mp(p: Params) -> Any:
        X, kern = column(p["X"]), se_kernel(p)
        return (tv_information_gain_mp(kern, X, p["noise_var"], p["epsilon"])
                - tv_information_gain_mp(kern, X, p["noise_var"], 0.0))

    @staticmethod
    def sample(rng: np.random.Generator) -> Params:
        """The class the proof admits: any sequence, n ≥ 2, σ² > 0, ε ∈ (0, 1]. Drawn log-uniformly:
        n = 10^U(0.3, 1.5) (2..31), σ² = 10^U(−5, 1), ε = 10^U(−4, 0)."""
        n = int(round(10 ** rng.uniform(0.3, 1.5)))
        s2, eps = float(10 ** rng.uniform(-5, 1)), float(10 ** rng.uniform(-4, 0))
        return {**draw_sequence(rng, n, s2, eps), "lengthscale": 0.2, "noise_var": s2, "epsilon": eps}

    @staticmethod
    def shrink(p: Params) -> Iterable[Params]:
        return [{**p, "X": p["X"][:k]} for k in (2, 3, 5) if k < len(p["X"])]


class PrintedIncrease(Statement):
    name = "Ĩ(x_1:n) − I(x_1:n) <= n³ε"
    sharpening = "exponent of n lowered by one: n²ε (the spectral bound ‖A‖₂ <= n²ε read as the whole increase)"
    continuous = ("noise_var", "epsilon")
    bounds = {"noise_var": (1e-6, 10.0), "epsilon": (1e-6, 1.0)}
    plot_against = "noise_var"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        n = len(p["X"])
        return Comparison(InformationIncrease.gap(p), n ** (2 if sharpened else 3) * p["epsilon"])

    def hp(self, p: Params) -> Comparison:
        return Comparison(InformationIncrease.gap_mp(p), mpmath.mpf(len(p["X"])) ** 3 * mpmath.mpf(p["epsilon"]))

    def sample(self, rng: np.random.Generator) -> Params:
        return InformationIncrease.sample(rng)

    def shrink(self, p: Params) -> Iterable[Params]:
        return InformationIncrease.shrink(p)

    def describe(self, p: Params) -> dict[str, Any]:
        return describe_sequence(p)


class CorrectedIncrease(PrintedIncrease):
    name = "Ĩ(x_1:n) − I(x_1:n) <= (n/2) log(1 + σ⁻² n^{3/2} ε)"
    sharpening = "the noise factor σ⁻² dropped: (n/2) log(1 + n^{3/2} ε)"

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        bound = corrected_block_term(len(p["X"]), p["epsilon"], 1.0 if sharpened else p["noise_var"])
        return Comparison(InformationIncrease.gap(p), bound)

    def hp(self, p: Params) -> Comparison:
        return Comparison(InformationIncrease.gap_mp(p), corrected_block_term_mp(len(p["X"]), p["epsilon"],
                                                                                  p["noise_var"]))


EQ60_PRINTED = PrintedIncrease()
EQ60_CORRECTED = CorrectedIncrease()

#: the catalog's instance (tvgpucb §8 C11): constant sequence, n = 2, σ² = 0.01, ε = 0.01
EQ60_INSTANCE = {"sequence": "constant", "X": [0.5, 0.5], "lengthscale": 0.2, "noise_var": 0.01, "epsilon": 0.01}


@claim("tvgpucb:eq-60")
def eq_60(ctx: Context) -> Evidence:
    """The exact gap Ĩ(x_{1:n}) − I(x_{1:n}) (``information.tv_information_gain`` and
    ``information_gain``) against the printed per-block increase n³ε, over the class the proof admits:
    constant, random and TV-greedy sequences on [0, 1] (SE ℓ = 0.2) with n = 2..31, σ² = 10^U(−5, 1)
    and ε = 10^U(−4, 0) drawn log-uniformly, then Nelder–Mead over (σ², ε) from the worst instances
    (adversarial minimisation of the relative margin); the catalog's instance (constant, n = 2,
    σ² = ε = 0.01) is evaluated as a fixed instance, and the evidence counts the breaks the search
    found on its own separately. Breaks are refereed in mpmath and shrunk to short sequences. Power:
    the increase with the exponent of n lowered by one, n²ε, must be caught where the printed bound
    holds (halving it is caught too rarely there: where n³ε holds it is loose by more than 2 at
    most instances)."""
    return exact_evidence(ctx, EQ60_PRINTED, n_random=ctx.pick(40, 200), n_starts=ctx.pick(3, 6), maxfev=150,
                          extra=[EQ60_INSTANCE], what="per-block information increase n³ε")


@claim("tvgpucb:eq-60+corrected")
def eq_60_corrected(ctx: Context) -> Evidence:
    """The same instances as ``tvgpucb:eq-60`` (same sampler, same adversarial Nelder–Mead over (σ², ε),
    the catalog's instance) against the noise-aware increase (n/2) log(1 + σ⁻² n^{3/2} ε)
    (``theory.rates.block_bound``, reading ``corrected``). Breaks are refereed in mpmath. Power: the
    bound without its σ⁻² factor must be caught (halving it is not a test: the bound is loose by a
    factor of about 2.7 at the worst instance)."""
    return exact_evidence(ctx, EQ60_CORRECTED, n_random=ctx.pick(40, 200), n_starts=ctx.pick(3, 6), maxfev=150,
                          extra=[EQ60_INSTANCE], what="noise-aware per-block information increase")


# ------------------------------------------------------------------------------------------- (61)
class EigenvalueBudget:
    """The optimisation (61): maximise Σ_i log(1 + Δ_i) subject to Σ_i Δ_i² <= Ñ⁴ε², solved numerically."""

    @staticmethod
    def radius(N: int, epsilon: Any) -> Any:
        return N**2 * epsilon

    @staticmethod
    def maximiser(N: int, epsilon: float) -> np.ndarray:
        """SLSQP from an unequal start (Δ_i ∝ i on half the radius), then Newton on the KKT system
        1/(1 + Δ_i) = 2μΔ_i, Σ Δ_i² = r²; nothing assumes that the entries are equal."""
        r = EigenvalueBudget.radius(N, epsilon)
        x0 = np.arange(1, N + 1, dtype=float)
        x0 *= 0.5 * r / np.linalg.norm(x0)
        res = optimize.minimize(lambda d: -np.sum(np.log1p(d)), x0, jac=lambda d: -1.0 / (1.0 + d), method="SLSQP",
                                bounds=[(0.0, r)] * N, options={"ftol": 1e-15, "maxiter": 500},
                                constraints=[{"type": "ineq", "fun": lambda d: r * r - d @ d, "jac": lambda d: -2 * d}])
        return EigenvalueBudget.newton(res.x, r, np)

    @staticmethod
    def newton(d: Any, r: Any, lib: Any, steps: int = 8) -> Any:
        """Newton steps on the KKT system in float (``lib = np``) or in mpmath (``lib = mpmath``)."""
        n = len(d)
        d = [x for x in d]
        mu = sum(1 / (2 * x * (1 + x)) for x in d) / n
        for _ in range(steps):
            F = [1 / (1 + x) - 2 * mu * x for x in d] + [sum(x * x for x in d) - r * r]
            J = [[(-1 / (1 + d[i]) ** 2 - 2 * mu if i == j else 0) for j in range(n)] + [-2 * d[i]] for i in range(n)]
            J.append([2 * x for x in d] + [0])
            if lib is np:
                step = np.linalg.solve(np.array(J, float), np.array(F, float))
            else:
                step = mpmath.lu_solve(mpmath.matrix(J), mpmath.matrix(F))
            d = [d[i] - step[i] for i in range(n)]
            mu = mu - step[n]
        return np.array(d, float) if lib is np else d


class PrintedMaximiser(Statement):
    """Every entry of the maximiser of (61) equals Ñ²ε (as printed)."""

    name = "argmax of Σ log(1 + Δ_i) s.t. Σ Δ_i² <= Ñ⁴ε² has Δ_i = Ñ²ε"
    sharpening = "printed maximiser halved: Δ_i = Ñ²ε/2"
    plot_against = "N"
    exponent = 2.0

    def stated(self, p: Params, sharpened: bool) -> float:
        value = p["N"] ** self.exponent * p["epsilon"]
        return value / 2 if sharpened else value

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        N, eps = int(p["N"]), p["epsilon"]
        entry = float(EigenvalueBudget.maximiser(N, eps)[int(p["entry"]) % N])
        scale = N**2 * eps
        return Comparison(entry, self.stated(p, sharpened), "==", tol=1e-9 * scale, scale=scale)

    def hp(self, p: Params) -> Comparison:
        N, eps = int(p["N"]), mpmath.mpf(p["epsilon"])
        start = [mpmath.mpf(x) for x in EigenvalueBudget.maximiser(N, p["epsilon"])]
        entry = EigenvalueBudget.newton(start, EigenvalueBudget.radius(N, eps), mpmath, steps=12)[int(p["entry"]) % N]
        scale = N**2 * eps
        return Comparison(entry, mpmath.mpf(N) ** mpmath.mpf(self.exponent) * eps, "==", tol=mpmath.mpf("1e-9") * scale,
                          scale=scale)

    def sample(self, rng: np.random.Generator) -> Params:
        N = int(rng.integers(1, 41))
        return {"N": N, "epsilon": float(10 ** rng.uniform(-4, 0)), "entry": int(rng.integers(N))}

    def shrink(self, p: Params) -> Iterable[Params]:
        return [{**p, "N": N, "entry": 0} for N in (2, 3) if N < p["N"]]


class CorrectedMaximiser(PrintedMaximiser):
    """Every entry of the maximiser of (61) equals Ñ^{3/2}ε."""

    name = "argmax of Σ log(1 + Δ_i) s.t. Σ Δ_i² <= Ñ⁴ε² has Δ_i = Ñ^{3/2}ε"
    sharpening = "exponent lowered by ½: Δ_i = Ñε"
    exponent = 1.5

    def stated(self, p: Params, sharpened: bool) -> float:
        return p["N"] ** (1.0 if sharpened else 1.5) * p["epsilon"]


EQ61_PRINTED = PrintedMaximiser()
EQ61_CORRECTED = CorrectedMaximiser()
#: Ñ = 1, the only block length where the printed maximiser is right
SINGLE_ENTRY = [{"N": 1, "epsilon": e, "entry": 0} for e in (1e-3, 0.1, 1.0)]


@claim("tvgpucb:eq-61")
def eq_61(ctx: Context) -> Evidence:
    """The optimisation problem (61), max Σ_i log(1 + Δ_i) subject to Σ_i Δ_i² <= Ñ⁴ε², is solved
    numerically for Ñ = 1..40 and ε = 10^U(−4, 0): SLSQP from an unequal start, polished by Newton on
    the KKT system (nothing presumes equal entries). A random entry of the maximiser is compared with
    the printed maximiser Δ_i = Ñ²ε (to 1e-9 of Ñ²ε); breaks are refereed by Newton at 50 digits and
    shrunk to Ñ = 2. (The paper's bound (59) stays valid, since |Δ_i| <= ‖A‖₂ <= Ñ²ε; only the stated
    maximiser is wrong; the symbolic derivation is ``theory.derivations`` ``tvgpucb-61``.) Power: the
    printed maximiser halved must be caught where the printed one holds, which is Ñ = 1 only (three
    fixed instances Ñ = 1, ε ∈ {1e-3, 0.1, 1})."""
    return exact_evidence(ctx, EQ61_PRINTED, n_random=ctx.pick(30, 150), n_starts=0, extra=SINGLE_ENTRY,
                          what="maximiser of (61) as printed")


@claim("tvgpucb:eq-61+corrected")
def eq_61_corrected(ctx: Context) -> Evidence:
    """The same numerical maximisers of (61) (same instances as ``tvgpucb:eq-61``) against
    Δ_i = Ñ^{3/2}ε, the point where the constraint is active with equal entries. Breaks are refereed
    by Newton at 50 digits. Power: the exponent lowered by ½, Δ_i = Ñε, must be caught."""
    return exact_evidence(ctx, EQ61_CORRECTED, n_random=ctx.pick(30, 150), n_starts=0, extra=SINGLE_ENTRY,
                          what="maximiser of (61), corrected")


# ------------------------------------------------------------------------------- footnote 4, (52)–(54)
class ForgettingPerturbation(Statement):
    """Three parts: the entry bound of footnote 4, the Frobenius bound (52)–(54) and the double sum (53)."""

    name = "1 − (1 − ε)^{m/2} <= mε; ‖K ∘ (D − 1)‖²_F <= Ñ²(Ñ² − 1)ε²/6; Σ_{i,j} (i − j)² = Ñ²(Ñ² − 1)/6"
    sharpening = ("the linearisation mε/2 of 1 − (1 − ε)^{m/2} read as the entry bound (so ‖A‖²_F <= "
                  "Ñ²(Ñ² − 1)ε²/24), and the double sum taken over pairs i < j only (Ñ²(Ñ² − 1)/12)")
    continuous = ("epsilon",)
    bounds = {"epsilon": (0.0, 1.0)}
    plot_against = "epsilon"

    @staticmethod
    def gram(p: Params) -> np.ndarray:
        if p["matrix"] == "uniform":
            return np.asarray(p["K"], float)
        return se_kernel(p)(column(p["X"]))

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        eps, part = p["epsilon"], p["part"]
        if part == "entry":
            m = int(p["m"])
            return Comparison(1.0 - (1.0 - eps) ** (m / 2.0), m * eps / (2.0 if sharpened else 1.0))
        N = int(p["N"])
        if part == "double-sum":
            total = sum((i - j) ** 2 for i in range(N) for j in range(N))
            return Comparison(float(total), N**2 * (N**2 - 1) / (12.0 if sharpened else 6.0), "==", scale=1.0)
        K = self.gram(p)
        times = np.arange(1, N + 1, dtype=float)
        A = K * (ForgettingKernel(eps).of_lag(times[:, None] - times[None, :]) - 1.0)
        return Comparison(float(np.sum(A * A)), N**2 * (N**2 - 1) * eps**2 / (24.0 if sharpened else 6.0))

    def hp(self, p: Params) -> Comparison:
        eps, part = mpmath.mpf(p["epsilon"]), p["part"]
        if part == "entry":
            m = int(p["m"])
            return Comparison(1 - (1 - eps) ** (mpmath.mpf(m) / 2), m * eps)
        N = int(p["N"])
        if part == "double-sum":
            return Comparison(sum((i - j) ** 2 for i in range(N) for j in range(N)), N**2 * (N**2 - 1) // 6, "==",
                              scale=1)
        if p["matrix"] == "uniform":
            K = rf.mpmat(p["K"])
        else:
            K = mpmath.matrix(gram_mp(se_kernel(p), column(p["X"]), dps=mpmath.mp.dps).tolist())
        rho = mpmath.sqrt(1 - eps)
        total = mpmath.fsum((K[i, j] * ((rho ** abs(i - j) if i != j else 1) - 1)) ** 2
                            for i in range(N) for j in range(N))
        return Comparison(total, N**2 * (N**2 - 1) * eps**2 / 6)

    def sample(self, rng: np.random.Generator) -> Params:
        part = ("entry", "frobenius", "double-sum")[int(rng.integers(3))]
        eps = float(rng.uniform()) if rng.random() < 0.5 else float(10 ** rng.uniform(-4, 0))
        if part == "entry":
            return {"part": part, "m": int(rng.integers(1, 51)), "epsilon": eps}
        N = int(rng.integers(2, 31))
        if part == "double-sum":
            return {"part": part, "N": N, "epsilon": eps}
        if rng.random() < 0.25:  # any symmetric K with entries in [0, 1], as (52) assumes
            U = rng.uniform(0, 1, (N, N))
            K = np.triu(U) + np.triu(U, 1).T
            return {"part": part, "matrix": "uniform", "N": N, "K": K.tolist(), "epsilon": eps}
        seq = draw_sequence(rng, N, 0.01, eps)
        return {"part": part, "matrix": "se", **seq, "N": N, "lengthscale": 0.2, "epsilon": eps}

    def describe(self, p: Params) -> dict[str, Any]:
        return {"part": p["part"], "matrix": p.get("matrix", p.get("sequence", "")), "m or Ñ": p.get("m", p.get("N")),
                "epsilon": p["epsilon"]}


EQ52_54 = ForgettingPerturbation()


@claim("tvgpucb:eq-52-54")
def eq_52_54(ctx: Context) -> Evidence:
    """Three parts on random instances. (a) Footnote 4: 1 − (1 − ε)^{m/2} <= mε for lags m = 1..50 and
    ε ∈ [0, 1] (uniform or log-uniform). (b) (52)–(54): ‖A‖²_F with A = K ∘ (D − 1) (D the forgetting
    matrix, ``kernels.ForgettingKernel``) against Ñ²(Ñ² − 1)ε²/6, for Ñ = 2..30 and K an SE Gram matrix of
    a constant, random or TV-greedy sequence (entries in [0, 1]) or any symmetric matrix with entries
    uniform in [0, 1]. (c) (53): Σ_{i,j} (i − j)² summed in integers equals Ñ²(Ñ² − 1)/6 exactly.
    Nelder–Mead moves ε towards the worst relative margin; breaks are refereed at 50 digits. Power:
    the linearisation mε/2 read as the entry bound (hence ε²/24 for ‖A‖²_F), and the double sum over
    pairs i < j only, must be caught."""
    return exact_evidence(ctx, EQ52_54, n_random=ctx.pick(90, 450), n_starts=ctx.pick(3, 8),
                          what="forgetting perturbation bounds (52)–(54)")


# --------------------------------------------------------------------------------- Lemma C.1, (55)
class Mirsky(Statement):
    """Σ_i (λ_i(U) − λ_i(V))² <= ‖U − V‖²_F for symmetric U, V, eigenvalues sorted alike."""

    name = "Σ_i (λ_i(U) − λ_i(V))² <= ‖U − V‖²_F (sorted eigenvalues, symmetric U, V)"
    sharpening = "the spectral norm for the Frobenius norm: Σ_i (λ_i(U) − λ_i(V))² <= ‖U − V‖²_2"
    continuous = ("U", "V")
    bounds = {"U": (-3.0, 3.0), "V": (-3.0, 3.0)}

    @staticmethod
    def pair(p: Params) -> tuple[np.ndarray, np.ndarray]:
        U, V = np.asarray(p["U"], float), np.asarray(p["V"], float)
        return 0.5 * (U + U.T), 0.5 * (V + V.T)

    def evaluate(self, p: Params, sharpened: bool = False) -> Comparison:
        U, V = self.pair(p)
        lhs = float(np.sum((np.linalg.eigvalsh(U) - np.linalg.eigvalsh(V)) ** 2))
        bound = np.linalg.norm(U - V, 2) ** 2 if sharpened else float(np.sum((U - V) ** 2))
        return Comparison(lhs, float(bound))

    def hp(self, p: Params) -> Comparison:
        U, V = (rf.mpmat(M) for M in (p["U"], p["V"]))
        U, V = (U + U.T) / 2, (V + V.T) / 2
        lu, lv = mpmath.eigsy(U)[0], mpmath.eigsy(V)[0]
        lu, lv = sorted(lu[i] for i in range(U.rows)), sorted(lv[i] for i in range(V.rows))
        W = U - V
        return Comparison(mpmath.fsum((a - b) ** 2 for a, b in zip(lu, lv)),
                          mpmath.fsum(W[i, j] ** 2 for i in range(W.rows) for j in range(W.cols)))

    def sample(self, rng: np.random.Generator) -> Params:
        kind = ("symmetric", "forgetting", "low-rank")[int(rng.integers(3))]
        n = int(rng.integers(2, 7))
        if kind == "symmetric":
            U, V = rng.normal(size=(n, n)), rng.normal(size=(n, n))
        elif kind == "forgetting":  # the paper's use: U = K ∘ D, V = K
            eps = float(10 ** rng.uniform(-3, 0))
            V = se_kernel({})(column(rng.uniform(0, 1, n)))
            t = np.arange(n, dtype=float)
            U = V * ForgettingKernel(eps).of_lag(t[:, None] - t[None, :])
        else:
            V = rng.normal(size=(n, n))
            u = rng.normal(size=n)
            U = V + float(rng.normal()) * np.outer(u, u)
        return {"kind": kind, "U": (0.5 * (U + U.T)).tolist(), "V": (0.5 * (V + V.T)).tolist()}

    def describe(self, p: Params) -> dict[str, Any]:
        return {"kind": p["kind"], "n": len(p["U"])}


LEMMA_C1 = Mirsky()


@claim("tvgpucb:lemma-c.1")
def lemma_c_1(ctx: Context) -> Evidence:
    """Random symmetric pairs of size 2..6: Gaussian matrices, the paper's pair U = K ∘ D, V = K (SE Gram
    of random points, D the forgetting matrix of a random ε) and rank-one perturbations. The sum of
    squared differences of the sorted eigenvalues (``numpy.linalg.eigvalsh``) must not exceed
    ‖U − V‖²_F; Nelder–Mead then moves every entry of U and V towards the worst relative margin.
    Breaks are refereed with mpmath's symmetric eigensolver at 50 digits. Power: the spectral norm in
    place of the Frobenius norm (a misreading of "any unitarily invariant norm": with ‖·‖₂ the lemma
    bounds the largest difference, not the sum of squares) must be caught."""
    return exact_evidence(ctx, LEMMA_C1, n_random=ctx.pick(60, 300), n_starts=ctx.pick(2, 6), maxfev=300,
                          what="Mirsky's inequality (55)")
