"""Confidence widths β_t of the five papers, as printed, with corrected forms where a catalog flags an error.

Two UCB conventions occur, and every function states its own (attribute ``convention`` on the
function, and the dictionary :data:`CONVENTIONS`):

* ``"multiplies_sigma"``: ``ucb(x) = μ(x) + β·σ(x)`` — ``wsparq``, ``sparq``, ``wgpucb``;
* ``"sqrt"``: ``ucb(x) = μ(x) + √β·σ(x)`` — ``tvgpucb``, ``bolt``.

:func:`ucb_multiplier` turns a β and its convention into the factor that multiplies σ.

==================================  ===========================================  ==================
function                            source                                       convention
==================================  ===========================================  ==================
beta_wsparq_det_ratio               wsparq eq. (12), printed determinant ratio   multiplies_sigma
beta_wsparq_log_det                 wsparq eq. (12), log-det form (§0)           multiplies_sigma
beta_wsparq_from_log_det_ratio      wsparq eq. (12) from a given log-det ratio   multiplies_sigma
beta_sparq_det_ratio                sparq Thm 3.1 / Prop. 4 eq. (26)             multiplies_sigma
beta_sparq_log_det                  sparq Thm 3.1, log-det form                  multiplies_sigma
beta_sparq_from_log_det_ratio       sparq eq. (26) from a given log-det ratio    multiplies_sigma
beta_rgpucb                         tvgpucb eq. (16) (Thm 4.2, R-GP-UCB)         sqrt
beta_rgpucb_general                 tvgpucb App. D, 2 log(4 τ_t^d π_t / δ)       sqrt
beta_tvgpucb                        tvgpucb eq. (19) (Thm 4.3, TV-GP-UCB)        sqrt
beta_tvgpucb_general                tvgpucb eq. (34) with a general π_t          sqrt
beta_tvgpucb_tau_as_printed         (33) τ_t "2" papers/tvgpucb/READING.md §3.2  sqrt
beta_tvgpucb_practical              tvgpucb §2 "Practical β_t" c₁ log(c₂ t)      sqrt
beta_finite_domain                  tvgpucb §3.7 [derived] 2 log(#D π² t²/6δ)    sqrt
beta_bolt_as_printed                bolt eq. (63)                                sqrt
beta_bolt_corrected                 bolt Lemma D.1, papers/bolt/READING.md §5.6  sqrt
beta_wdbo_practical                 papers/bolt/READING.md §3.9 [W-DBO code]     sqrt
beta_wgpucb                         Alg. 1/Thm 2, papers/wgpucb/READING.md §3.1  multiplies_sigma
beta_wgpucb_as_printed_appendix     App. A, papers/wgpucb/READING.md §2.6        multiplies_sigma
beta_igpucb                         Chowdhury & Gopalan 2017, Alg. 1 / Thm 2     multiplies_sigma
==================================  ===========================================  ==================

Ranges of δ follow each catalog: ``(0, 1]`` for ``wsparq``/``sparq`` (Prop. 2.2, Thm 3.1), ``(0, 1)``
for ``tvgpucb``, ``bolt``, ``wgpucb`` and IGP-UCB.
"""

from __future__ import annotations

import math
from enum import Enum
from typing import Callable, TypeVar

import numpy as np

from .validation import (
    as_noise,
    check_int,
    check_interval,
    check_nonnegative,
    check_open_interval,
    check_positive,
    check_square_psd_shape,
)

__all__ = [
    "Convention",
    "CONVENTIONS",
    "ucb_multiplier",
    "beta_wsparq_det_ratio",
    "beta_wsparq_log_det",
    "beta_wsparq_from_log_det_ratio",
    "beta_sparq_det_ratio",
    "beta_sparq_log_det",
    "beta_sparq_from_log_det_ratio",
    "beta_rgpucb",
    "beta_rgpucb_general",
    "beta_tvgpucb",
    "beta_tvgpucb_general",
    "beta_tvgpucb_tau_as_printed",
    "beta_tvgpucb_practical",
    "TVGPUCB_PRACTICAL_CONSTANTS",
    "TVGPUCB_PRACTICAL_C2_TYPO_READING",
    "beta_finite_domain",
    "beta_bolt_as_printed",
    "beta_bolt_corrected",
    "bolt_tau",
    "beta_wdbo_practical",
    "beta_wgpucb",
    "beta_wgpucb_as_printed_appendix",
    "beta_igpucb",
]


class Convention(str, Enum):
    """How β enters the UCB: ``μ + β σ`` (``MULTIPLIES_SIGMA``) or ``μ + √β σ`` (``SQRT``)."""

    MULTIPLIES_SIGMA = "multiplies_sigma"
    SQRT = "sqrt"


#: Function name -> UCB convention of the β it returns.
CONVENTIONS: dict[str, Convention] = {}

_F = TypeVar("_F", bound=Callable)


def _convention(conv: Convention) -> Callable[[_F], _F]:
    def deco(f: _F) -> _F:
        f.convention = conv  # type: ignore[attr-defined]
        CONVENTIONS[f.__name__] = conv
        return f

    return deco


def ucb_multiplier(beta: float | np.ndarray, convention: Convention | str) -> float | np.ndarray:
    """Return the factor multiplying σ in the UCB: ``β`` (``"multiplies_sigma"``) or ``√β`` (``"sqrt"``).

    Under ``"sqrt"`` a negative β (e.g. the practical ``c₁ log(c₂ t)`` of ``tvgpucb`` with ``c₂ < 1``)
    has no square root: a ``ValueError`` names it; clip with ``beta_tvgpucb_practical(..., clip=True)``.

    Examples
    --------
    >>> from tvbo_verify.confidence import beta_tvgpucb, beta_tvgpucb_practical, ucb_multiplier
    >>> ucb_multiplier(4.0, "sqrt"), ucb_multiplier(4.0, "multiplies_sigma")
    (2.0, 4.0)
    >>> beta_tvgpucb.convention.value  # every beta function carries its convention
    'sqrt'
    >>> ucb_multiplier(beta_tvgpucb_practical(1, 0.8, 0.4), "sqrt")  # 0.8 log(0.4) < 0
    Traceback (most recent call last):
    ...
    ValueError: beta must be >= 0 under the sqrt convention (μ + √β σ), got -0.733...; clip practical schedules ...
    """
    conv = _as_convention(convention)
    arr = np.asarray(beta, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ValueError("beta must be finite, got NaN or infinity")
    if conv is Convention.MULTIPLIES_SIGMA:
        return beta if np.ndim(beta) else float(arr)
    if np.any(arr < 0):
        worst = float(np.min(arr))
        raise ValueError(
            f"beta must be >= 0 under the sqrt convention (μ + √β σ), got {worst!r}; "
            "clip practical schedules with clip=True"
        )
    out = np.sqrt(arr)
    return out if np.ndim(beta) else float(out)


def _as_convention(value: object) -> Convention:
    try:
        return Convention(value)  # type: ignore[arg-type]
    except ValueError:
        allowed = ", ".join(c.value for c in Convention)
        raise ValueError(f"convention must be one of {{{allowed}}}, got {value!r}") from None


# ---------------------------------------------------------------------------------------------
# wsparq / sparq: Kirschner & Krause heteroscedastic width
# ---------------------------------------------------------------------------------------------
def _delta_half_open(delta: float) -> float:
    return check_interval("delta", delta, 0.0, 1.0, closed_low=False, closed_high=True)


def _delta_open(delta: float) -> float:
    return check_open_interval("delta", delta, 0.0, 1.0)


def _kk_beta(log_det_ratio: float, delta: float, norm: float) -> float:
    """``sqrt(2 log(2/δ) + log(|Σ + K| / |Σ|)) + norm`` (Kirschner & Krause 2018, Lemma 7)."""
    return math.sqrt(2.0 * math.log(2.0 / delta) + log_det_ratio) + norm


def _det_ratio_form(K: np.ndarray, noise_var: float | np.ndarray, delta: float, norm: float) -> float:
    K = check_square_psd_shape("K", K)
    noise = as_noise("noise_var", noise_var, K.shape[0])
    with np.errstate(over="ignore", under="ignore"):  # an overflow is refused below, with the form to use instead
        det_sum = float(np.linalg.det(K + np.diag(noise)))
        det_sigma = float(np.prod(noise))
    if not (np.isfinite(det_sum) and det_sum > 0 and det_sigma > 0 and np.isfinite(det_sigma)):
        raise ValueError(
            "the determinant-ratio form of beta overflows or underflows in float64 for this K "
            f"(|Σ+K| = {det_sum:.3g}, |Σ| = {det_sigma:.3g}); use the log-det form"
        )
    return math.sqrt(2.0 * math.log(2.0 * math.sqrt(det_sum) / (delta * math.sqrt(det_sigma)))) + norm


@_convention(Convention.MULTIPLIES_SIGMA)
def beta_wsparq_det_ratio(K: np.ndarray, noise_var: float | np.ndarray, delta: float, B: float) -> float:
    """``wsparq`` eq. (12) as printed: ``β_t = sqrt(2 log(2 |Σ_t + K_tt|^{1/2} / (δ |Σ_t|^{1/2}))) + B``.

    ``K`` is the Gram matrix ``K_tt`` of the data of the posterior that β multiplies (``wsparq`` §6
    item 7), ``noise_var`` the diagonal of ``Σ_t`` (scalar or per observation), ``δ ∈ (0, 1]``,
    ``B >= 0`` the RKHS-norm bound. Determinants are formed explicitly (the printed form); prefer
    :func:`beta_wsparq_log_det` for large ``t``. Convention: ``μ + β σ`` (multiplies_sigma).
    """
    return _det_ratio_form(K, noise_var, _delta_half_open(delta), check_nonnegative("B", B))


@_convention(Convention.MULTIPLIES_SIGMA)
def beta_wsparq_log_det(K: np.ndarray, noise_var: float | np.ndarray, delta: float, B: float) -> float:
    """``wsparq`` eq. (12), log-det form (``papers/wsparq/READING.md`` §3.2):
    ``β_t = sqrt(2 log(2/δ) + log det(Σ_t + K_tt) − log det Σ_t) + B``; multiplies σ.
    The log-det ratio is computed by Cholesky (:func:`tvbo_verify.information.log_det_ratio_from_gram`)."""
    delta = _delta_half_open(delta)
    B = check_nonnegative("B", B)
    from .information import log_det_ratio_from_gram  # (linear algebra only for the Gram forms)

    return _kk_beta(log_det_ratio_from_gram(K, noise_var), delta, B)


@_convention(Convention.MULTIPLIES_SIGMA)
def beta_wsparq_from_log_det_ratio(log_det_ratio: float, delta: float, B: float) -> float:
    """``wsparq`` eq. (12) from a given ``log(|Σ_t + K_tt| / |Σ_t|) >= 0`` (e.g. a bound on ``γ_T``,
    which ``wsparq`` (15) defines without the ½); multiplies σ.

    Examples
    --------
    The printed determinant-ratio form, the log-det form and this one agree:

    >>> import numpy as np
    >>> from tvbo_verify.confidence import beta_wsparq_det_ratio, beta_wsparq_from_log_det_ratio, beta_wsparq_log_det
    >>> from tvbo_verify.information import log_det_ratio_from_gram
    >>> K = np.array([[1.0, 0.5], [0.5, 1.0]])
    >>> noise_var, delta, B = 0.1, 0.1, 1.0
    >>> b = beta_wsparq_from_log_det_ratio(log_det_ratio_from_gram(K, noise_var), delta, B)
    >>> others = beta_wsparq_log_det(K, noise_var, delta, B), beta_wsparq_det_ratio(K, noise_var, delta, B)
    >>> round(b, 4), bool(np.allclose(b, others))
    (4.249, True)
    """
    return _kk_beta(
        check_nonnegative("log_det_ratio", log_det_ratio), _delta_half_open(delta), check_nonnegative("B", B)
    )


@_convention(Convention.MULTIPLIES_SIGMA)
def beta_sparq_det_ratio(K: np.ndarray, noise_var: float | np.ndarray, delta: float, rkhs_norm: float) -> float:
    """``sparq`` Theorem 3.1 / Proposition 4 eq. (26) as printed:
    ``β_t = sqrt(2 log(2 det(Σ^s_t + K^s_tt)^{1/2} / (δ det(Σ^s_t)^{1/2}))) + ‖f_t‖_k``, built from the
    sparse set's matrices; ``δ ∈ (0, 1]``; ``rkhs_norm = ‖f_t‖_k`` (or the bound ``B``, papers/sparq/READING.md §3.2).
    Multiplies σ."""
    return _det_ratio_form(K, noise_var, _delta_half_open(delta), check_nonnegative("rkhs_norm", rkhs_norm))


@_convention(Convention.MULTIPLIES_SIGMA)
def beta_sparq_log_det(K: np.ndarray, noise_var: float | np.ndarray, delta: float, rkhs_norm: float) -> float:
    """``sparq`` Theorem 3.1, log-det form ``sqrt(2 log(2/δ) + log det(I + (Σ^s_t)^{-1} K^s_tt)) + ‖f_t‖_k``;
    multiplies σ."""
    delta = _delta_half_open(delta)
    rkhs_norm = check_nonnegative("rkhs_norm", rkhs_norm)
    from .information import log_det_ratio_from_gram

    return _kk_beta(log_det_ratio_from_gram(K, noise_var), delta, rkhs_norm)


@_convention(Convention.MULTIPLIES_SIGMA)
def beta_sparq_from_log_det_ratio(log_det_ratio: float, delta: float, rkhs_norm: float) -> float:
    """``sparq`` eq. (26) from a given ``log(|Σ^s + K^s| / |Σ^s|)`` (e.g. ``γ_{Q_T}``, (28)); multiplies σ.

    Examples
    --------
    >>> import math
    >>> from tvbo_verify.confidence import beta_sparq_from_log_det_ratio
    >>> round(beta_sparq_from_log_det_ratio(3.0, 0.1, rkhs_norm=1.0), 4)  # sqrt(2 log 20 + 3) + 1
    3.9986
    >>> round(beta_sparq_from_log_det_ratio(0.0, 1.0, 0.0), 4), round(math.sqrt(2 * math.log(2)), 4)  # no data, δ = 1
    (1.1774, 1.1774)
    >>> beta_sparq_from_log_det_ratio(3.0, 0.0, 1.0)
    Traceback (most recent call last):
    ...
    ValueError: delta must be in (0, 1], got 0.0
    """
    return _kk_beta(
        check_nonnegative("log_det_ratio", log_det_ratio),
        _delta_half_open(delta),
        check_nonnegative("rkhs_norm", rkhs_norm),
    )


# ---------------------------------------------------------------------------------------------
# tvgpucb
# ---------------------------------------------------------------------------------------------
def _check_smoothness(d: int, r: float, a: float, b: float) -> tuple[int, float, float, float]:
    return check_int("d", d, 1), check_positive("r", r), check_positive("a", a), check_positive("b", b)


def _tv_beta(t: float, d: int, r: float, b: float, head: float, inner: float, *, a: float, delta: float) -> float:
    """``2 log(head) + 2d log(r d b t² sqrt(log(inner)))`` — the common shape of (16), (19), (34); ``inner``
    (a constant times ``d a π_t / δ``) must exceed 1 for ``τ_t`` to be defined, and the error names the
    parameters that set it."""
    if not inner > 1.0:
        raise ValueError(f"the argument of the log inside tau_t (a constant times d·a·pi_t/delta) must be > 1 so "
                         f"that its log is > 0 (papers/tvgpucb/READING.md §tvgpucb:eq-19), got {inner!r} at t={t}, "
                         f"d={d}, a={a}, delta={delta}: increase a or t, or decrease delta")
    tau = r * d * b * t * t * math.sqrt(math.log(inner))
    if not tau > 0:
        raise ValueError(f"tau_t must be > 0, got {tau!r}")
    return 2.0 * math.log(head) + 2.0 * d * math.log(tau)


def _union_bound_beta(
    t: int, d: int, r: float, a: float, b: float, delta: float, pi_t: float | None, events: int
) -> float:
    """``2 log(m π_t/δ) + 2d log(r d b t² sqrt(log(m d a π_t/δ)))``: the union bound over ``m = events``
    failure events shared by ``tvgpucb`` App. D (m = 4, R-GP-UCB) and eq. (34) (m = 3, TV-GP-UCB)."""
    t = check_int("t", t, 1)
    d, r, a, b = _check_smoothness(d, r, a, b)
    delta = _delta_open(delta)
    pit = math.pi**2 * t * t / 6.0 if pi_t is None else check_positive("pi_t", pi_t)
    return _tv_beta(t, d, r, b, events * pit / delta, events * d * a * pit / delta, a=a, delta=delta)


@_convention(Convention.SQRT)
def beta_rgpucb(T: int, d: int, r: float, a: float, b: float, delta: float) -> float:
    """``tvgpucb`` eq. (16) (Theorem 4.2, R-GP-UCB), as printed:
    ``β_T = 2 log(2π²T²/(3δ)) + 2d log(r d b T² sqrt(log(2 d a π² T²/(3δ))))``.

    ``D ⊂ [0, r]^d``; ``(a, b) = (a₁, b₁)`` of the gradient tail assumption (10); ``δ ∈ (0, 1)``.
    ``β_t`` uses ``T → t`` (global ``t``, not reset at block starts). Convention: ``μ + √β σ`` (sqrt).

    Examples
    --------
    >>> from tvbo_verify.confidence import beta_rgpucb, beta_rgpucb_general
    >>> round(beta_rgpucb(T=100, d=2, r=1.0, a=1.0, b=1.0, delta=0.1), 4)
    71.6987
    >>> round(beta_rgpucb_general(100, 2, 1.0, 1.0, 1.0, 0.1), 4)  # App. D with π_t = π²t²/6
    71.6987
    """
    T = check_int("T", T, 1)
    d, r, a, b = _check_smoothness(d, r, a, b)
    delta = _delta_open(delta)
    pi2 = math.pi**2
    return _tv_beta(T, d, r, b, 2.0 * pi2 * T * T / (3.0 * delta), 2.0 * d * a * pi2 * T * T / (3.0 * delta),
                    a=a, delta=delta)


@_convention(Convention.SQRT)
def beta_rgpucb_general(t: int, d: int, r: float, a: float, b: float, delta: float, pi_t: float | None = None) -> float:
    """``tvgpucb`` App. D: ``β_t = 2 log(4 τ_t^d π_t / δ)`` with ``τ_t = r d t² b₁ sqrt(log(4 d a₁ π_t / δ))``;
    ``π_t`` defaults to ``π²t²/6``, which gives eq. (16) (papers/tvgpucb/READING.md §tvgpucb:eq-19). Sqrt convention."""
    return _union_bound_beta(t, d, r, a, b, delta, pi_t, events=4)


@_convention(Convention.SQRT)
def beta_tvgpucb(T: int, d: int, r: float, a: float, b: float, delta: float) -> float:
    """``tvgpucb`` eq. (19) (Theorem 4.3, TV-GP-UCB), as printed:
    ``β_T = 2 log(π²T²/(2δ)) + 2d log(r d b T² sqrt(log(d a π² T²/(2δ))))``.

    Same parameters as :func:`beta_rgpucb`; ``δ ∈ (0, 1)``. Convention: ``μ + √β σ`` (sqrt). This is
    eq. (34) with ``π_t = π²t²/6`` and the constant 3 inside ``τ_t`` (consistent with ``|D_t|``); the
    text of (33) prints 2 there, see :func:`beta_tvgpucb_tau_as_printed`.

    Examples
    --------
    >>> from tvbo_verify.confidence import beta_tvgpucb, beta_tvgpucb_tau_as_printed
    >>> round(beta_tvgpucb(T=100, d=2, r=1.0, a=1.0, b=1.0, delta=0.1), 4)
    71.0821
    >>> round(beta_tvgpucb_tau_as_printed(100, 2, 1.0, 1.0, 1.0, 0.1), 4)  # the "2" of (33): smaller
    71.0225
    >>> beta_tvgpucb(100, 2, 1.0, 1.0, 1.0, delta=1.0)
    Traceback (most recent call last):
    ...
    ValueError: delta must be in (0, 1), got 1.0
    """
    T = check_int("T", T, 1)
    d, r, a, b = _check_smoothness(d, r, a, b)
    delta = _delta_open(delta)
    pi2 = math.pi**2
    return _tv_beta(T, d, r, b, pi2 * T * T / (2.0 * delta), d * a * pi2 * T * T / (2.0 * delta), a=a, delta=delta)


@_convention(Convention.SQRT)
def beta_tvgpucb_general(
    t: int, d: int, r: float, a: float, b: float, delta: float, pi_t: float | None = None
) -> float:
    """``tvgpucb`` eq. (34): ``β_t = 2 log(3π_t/δ) + 2d log(r d b t² sqrt(log(3 d a π_t/δ)))`` with any
    ``π_t`` (``Σ 1/π_t = 1``); the default ``π_t = π² t² / 6`` gives eq. (19). Sqrt convention."""
    return _union_bound_beta(t, d, r, a, b, delta, pi_t, events=3)


@_convention(Convention.SQRT)
def beta_tvgpucb_tau_as_printed(t: int, d: int, r: float, a: float, b: float, delta: float) -> float:
    """(34) with ``τ_t`` as printed in (33): ``τ_t = r d b t² sqrt(log(2 d a π_t/δ))`` ("2" instead of
    the "3" of ``|D_t|``; ``papers/tvgpucb/READING.md`` §3.2 and §5.7). ``π_t = π²t²/6``. It is smaller than
    the corrected :func:`beta_tvgpucb` (eq. (19)). Sqrt convention."""
    t = check_int("t", t, 1)
    d, r, a, b = _check_smoothness(d, r, a, b)
    delta = _delta_open(delta)
    pit = math.pi**2 * t * t / 6.0
    return _tv_beta(t, d, r, b, 3.0 * pit / delta, 2.0 * d * a * pit / delta, a=a, delta=delta)


#: ``(c₁, c₂)`` of the practical ``β_t = c₁ log(c₂ t)`` in the experiments (``tvgpucb`` §2, §7).
TVGPUCB_PRACTICAL_CONSTANTS: dict[str, tuple[float, float]] = {
    "synthetic": (0.8, 4.0),
    "temperature": (0.8, 0.4),
    "traffic": (0.2, 0.4),
}
#: The typo reading of ``c₂ = 0.4`` for the real-data runs (``papers/tvgpucb/READING.md`` §3.2; §5.7): ``c₂ = 4``.
TVGPUCB_PRACTICAL_C2_TYPO_READING: float = 4.0


@_convention(Convention.SQRT)
def beta_tvgpucb_practical(t: int, c1: float, c2: float, *, clip: bool = False) -> float:
    """Practical ``β_t = c₁ log(c₂ t)`` of the ``tvgpucb`` experiments (§2 "Practical β_t").

    As printed it is negative for ``c₂ t < 1``: with ``c₂ = 0.4`` (temperature, traffic), ``β₁`` and
    ``β₂`` are ``< 0`` and ``√β`` is undefined. ``clip=True`` returns ``max(β_t, 0)``; the other reading
    (``papers/tvgpucb/READING.md`` §3.2; §5.7) is ``c₂ = 4`` (:data:`TVGPUCB_PRACTICAL_C2_TYPO_READING`).
    Constants of the paper: :data:`TVGPUCB_PRACTICAL_CONSTANTS`. Sqrt convention.

    Examples
    --------
    >>> from tvbo_verify.confidence import beta_tvgpucb_practical
    >>> round(beta_tvgpucb_practical(1, 0.8, 0.4), 4), beta_tvgpucb_practical(1, 0.8, 0.4, clip=True)
    (-0.733, 0.0)
    >>> round(beta_tvgpucb_practical(10, 0.8, 4.0), 4)  # synthetic constants: 0.8 log 40
    2.9511
    """
    t = check_int("t", t, 1)
    c1 = check_positive("c1", c1)
    c2 = check_positive("c2", c2)
    beta = c1 * math.log(c2 * t)
    return max(beta, 0.0) if clip else beta


@_convention(Convention.SQRT)
def beta_finite_domain(t: int, domain_size: int, delta: float) -> float:
    """Finite-domain width ``β_t = 2 log(|D| π² t² / (6δ))`` (``papers/tvgpucb/READING.md`` §3.4 [derived, not in the
    paper]; the standard Srinivas et al. finite-``D`` choice). ``δ ∈ (0, 1)``. Sqrt convention.

    Examples
    --------
    >>> import math
    >>> from tvbo_verify.confidence import beta_finite_domain
    >>> round(beta_finite_domain(10, 100, 0.1), 4), round(2 * math.log(100 * math.pi**2 * 10**2 / (6 * 0.1)), 4)
    (24.0213, 24.0213)
    >>> beta_finite_domain(10, 0, 0.1)
    Traceback (most recent call last):
    ...
    ValueError: domain_size must be an integer >= 1, got 0
    """
    t = check_int("t", t, 1)
    n = check_int("domain_size", domain_size, 1)
    delta = _delta_open(delta)
    return 2.0 * math.log(n * math.pi**2 * t * t / (6.0 * delta))


# ---------------------------------------------------------------------------------------------
# bolt
# ---------------------------------------------------------------------------------------------
def _check_bolt(n: int, d: int, L: float, delta: float) -> tuple[int, int, float, float]:
    return check_int("n", n, 1), check_int("d", d, 1), check_positive("L", L), _delta_open(delta)


def bolt_tau(n: int, d: int, L: float, *, round_up: bool = True) -> float:
    """Grid resolution ``τ_n = ⌈L d n²⌉`` of ``bolt`` Lemma D.1 (rounded up, papers/bolt/READING.md §5.6) or ``L d n²``.

    A product within four units in the last place of an integer is that integer before rounding up: ``L``
    given as a decimal (0.1) is not exactly a binary float, and ``0.1 · 3 · 10²`` evaluates to
    ``30.000000000000004``, whose ceiling would be 31.

    Examples
    --------
    >>> bolt_tau(10, 3, 0.1), bolt_tau(10, 3, 0.1001), bolt_tau(10, 3, 0.1, round_up=False)
    (30.0, 31.0, 30.000000000000004)
    """
    n = check_int("n", n, 1)
    d = check_int("d", d, 1)
    L = check_positive("L", L)
    tau = L * d * n * n
    if not round_up:
        return tau
    nearest = round(tau)
    return float(nearest if abs(tau - nearest) <= 4 * math.ulp(tau) else math.ceil(tau))


@_convention(Convention.SQRT)
def beta_bolt_as_printed(n: int, d: int, L: float, delta: float) -> float:
    """``bolt`` eq. (63) as printed: ``β_n = 2d log(L d n² / (6δ)) + 4 log(π n)``.

    ``n`` is the iteration index, ``L`` the Lipschitz constant (Assumption 3.4), ``δ ∈ (0, 1)``.
    It differs from :func:`beta_bolt_corrected` by ``-2(d-1) log(6δ)`` (``papers/bolt/READING.md`` §5.6): equal for
    ``d = 1`` (unrounded ``τ``); for ``d >= 2`` it is ``>=`` the corrected value iff ``6δ <= 1``.
    Convention: ``μ + √β σ`` (sqrt).

    Examples
    --------
    >>> import math
    >>> from tvbo_verify.confidence import beta_bolt_as_printed, beta_bolt_corrected
    >>> round(beta_bolt_as_printed(50, 1, 2.0, 0.1), 4), round(beta_bolt_corrected(50, 1, 2.0, 0.1, round_tau=False), 4)
    (38.283, 38.283)
    >>> gap = beta_bolt_as_printed(50, 3, 2.0, 0.1) - beta_bolt_corrected(50, 3, 2.0, 0.1, round_tau=False)
    >>> round(gap, 4), round(-2 * (3 - 1) * math.log(6 * 0.1), 4)  # d = 3: -2(d-1) log(6δ), papers/bolt/READING.md §5.6
    (2.0433, 2.0433)
    """
    n, d, L, delta = _check_bolt(n, d, L, delta)
    return 2.0 * d * math.log(L * d * n * n / (6.0 * delta)) + 4.0 * math.log(math.pi * n)


@_convention(Convention.SQRT)
def beta_bolt_corrected(n: int, d: int, L: float, delta: float, *, round_tau: bool = True) -> float:
    """``bolt`` Lemma D.1 proof, (65): ``β_n = 2 log(τ_n^d π² n² / (6δ))`` with ``τ_n = ⌈L d n²⌉``
    (``round_tau=False``: ``τ_n = L d n²``, which makes it comparable with (63) term by term;
    ``papers/bolt/READING.md`` §5.6). Computed as ``2d log τ_n + 2 log(π² n² / (6δ))`` (no overflow of ``τ^d``).
    Sqrt convention.

    Examples
    --------
    >>> from tvbo_verify.confidence import beta_bolt_corrected, bolt_tau
    >>> bolt_tau(3, 1, 0.25), bolt_tau(3, 1, 0.25, round_up=False)  # ⌈L d n²⌉ and L d n²
    (3.0, 2.25)
    >>> round(beta_bolt_corrected(3, 1, 0.25, 0.1), 4), round(beta_bolt_corrected(3, 1, 0.25, 0.1, round_tau=False), 4)
    (12.1922, 11.6169)
    """
    n, d, L, delta = _check_bolt(n, d, L, delta)
    tau = bolt_tau(n, d, L, round_up=round_tau)
    return 2.0 * d * math.log(tau) + 2.0 * math.log(math.pi**2 * n * n / (6.0 * delta))


@_convention(Convention.SQRT)
def beta_wdbo_practical(n: int, d: int) -> float:
    """``β = 0.2 d log(2n)`` used by public W-DBO code (papers/bolt/READING.md §3.9, [derived, not from the paper];
    BOLT itself does not state its practical β, papers/bolt/READING.md §2.5). Sqrt convention."""
    n = check_int("n", n, 1)
    d = check_int("d", d, 1)
    return 0.2 * d * math.log(2.0 * n)


# ---------------------------------------------------------------------------------------------
# wgpucb
# ---------------------------------------------------------------------------------------------
def _check_wgpucb(ig: float, delta: float, B: float, R: float, lam: float) -> tuple[float, float, float, float, float]:
    return (
        check_nonnegative("ig", ig),
        _delta_open(delta),
        check_nonnegative("B", B),
        check_nonnegative("R", R),
        check_positive("lam", lam),
    )


@_convention(Convention.MULTIPLIES_SIGMA)
def beta_wgpucb(ig: float, delta: float, B: float, R: float, lam: float) -> float:
    """``wgpucb`` Algorithm 1 step 1 / Theorems 2–3 (best reading, papers/wgpucb/READING.md §3.1):
    ``β_t = B + (R/√λ) sqrt(2 log(1/δ) + 2 IG_t)``.

    ``IG_t`` is the double-weighted gain ``γ̄_t``; the caller chooses what to pass: the realised
    log-det at the played points (:func:`tvbo_verify.information.weighted_information_gain`), the
    Hadamard bound (:func:`tvbo_verify.information.weighted_gain_hadamard_bound`) or the Thm 7 bound.
    ``ig = 0`` gives ``β_0``. ``δ ∈ (0, 1)``, ``B, R >= 0``, ``λ > 0``. Convention: ``μ + β σ``.

    Examples
    --------
    >>> import math
    >>> from tvbo_verify.confidence import beta_wgpucb, beta_wgpucb_as_printed_appendix
    >>> round(beta_wgpucb(0.0, 0.1, B=1.0, R=0.5, lam=1.0), 4), round(1 + 0.5 * math.sqrt(2 * math.log(10)), 4)
    (2.073, 2.073)
    >>> ig, delta, B, R, lam = 5.0, 0.1, 1.0, 0.5, 0.25
    >>> round(beta_wgpucb(ig, delta, B, R, lam), 4), round(beta_wgpucb_as_printed_appendix(ig, delta, B, R, lam), 4)
    (4.8217, 13.146)
    """
    ig, delta, B, R, lam = _check_wgpucb(ig, delta, B, R, lam)
    return B + (R / math.sqrt(lam)) * math.sqrt(2.0 * math.log(1.0 / delta) + 2.0 * ig)


@_convention(Convention.MULTIPLIES_SIGMA)
def beta_wgpucb_as_printed_appendix(ig: float, delta: float, B: float, R: float, lam: float) -> float:
    """``wgpucb`` App. A (and the text after (4)) as printed, parenthesis misplaced (papers/wgpucb/READING.md §2.6):
    ``β_t = B + (1/√λ) R sqrt(2 log(1/δ)) + 2 γ̄_t`` (``2 IG`` outside the root). Theorem 4's printing
    ``sqrt(2 log(1/δ)) + 2 γ̌_t`` has the same shape with ``ig = γ̌_t``. Multiplies σ."""
    ig, delta, B, R, lam = _check_wgpucb(ig, delta, B, R, lam)
    return B + (R / math.sqrt(lam)) * math.sqrt(2.0 * math.log(1.0 / delta)) + 2.0 * ig


# ---------------------------------------------------------------------------------------------
# IGP-UCB (Chowdhury & Gopalan 2017), the stationary baseline the time-varying papers compare with
# ---------------------------------------------------------------------------------------------
@_convention(Convention.MULTIPLIES_SIGMA)
def beta_igpucb(gamma: float, delta: float, B: float, R: float) -> float:
    """IGP-UCB's width: ``β_t = B + R √(2(γ_{t−1} + 1 + ln(1/δ)))``.

    S. R. Chowdhury and A. Gopalan, "On Kernelized Multi-armed Bandits", ICML 2017, Algorithm 1 (IGP-UCB) and
    Theorem 2: for ``‖f‖_k ≤ B`` and ``R``-sub-Gaussian noise, with probability at least ``1 − δ``,
    ``|f(x) − μ_{t−1}(x)| ≤ β_t σ_{t−1}(x)`` for every ``x`` and every ``t ≥ 1`` simultaneously, where ``μ, σ`` are
    the posterior with regulariser ``λ = 1 + η`` (``η = 2/T``) and ``γ_{t−1}`` the maximum information gain after
    ``t − 1`` rounds. The ``+1`` absorbs ``(t − 1) ln(1 + η)/2 ≤ 1`` of the self-normalised bound (the paper's
    Theorem 1), so any upper bound of the information gain of the points actually queried may stand in for
    ``γ_{t−1}`` (a larger value only widens the band).

    Parameters
    ----------
    gamma
        ``γ_{t−1} ≥ 0`` in nats, Srinivas convention ``½ log det(I + λ⁻¹ K)`` (0 before any observation).
    delta
        Failure probability, ``δ ∈ (0, 1)``.
    B
        Bound on the RKHS norm of ``f``, ``B ≥ 0``.
    R
        Sub-Gaussian constant of the noise, ``R ≥ 0`` (Gaussian noise of variance ``σ²``: ``R = σ``).

    Returns
    -------
    float
        ``β_t``, the factor multiplying ``σ_{t−1}`` (convention ``multiplies_sigma``: ``μ + β σ``).

    Examples
    --------
    >>> import math
    >>> from tvbo_verify.confidence import beta_igpucb
    >>> round(beta_igpucb(0.0, 0.1, B=1.0, R=0.1), 6), round(1 + 0.1 * math.sqrt(2 * (1 + math.log(10))), 6)
    (1.257005, 1.257005)
    >>> beta_igpucb(3.0, 1.0, B=1.0, R=0.1)
    Traceback (most recent call last):
    ...
    ValueError: delta must be in (0, 1), got 1.0
    """
    gamma = check_nonnegative("gamma", gamma)
    delta = _delta_open(delta)
    B = check_nonnegative("B", B)
    R = check_nonnegative("R", R)
    return B + R * math.sqrt(2.0 * (gamma + 1.0 + math.log(1.0 / delta)))
