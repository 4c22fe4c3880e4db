"""Tests of tvbo_verify.confidence: every β_t against a hand computation, printed vs corrected forms,
conventions and validation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tvbo_verify import confidence as cf
from tvbo_verify.kernels import SquaredExponential

SETTINGS = settings(max_examples=40)
PI2 = math.pi**2


# ---------------------------------------------------------------------------------------------
# wsparq / sparq
# ---------------------------------------------------------------------------------------------
def test_wsparq_beta_hand_computation():
    K = np.array([[1.0, 0.5], [0.5, 1.0]])
    noise = np.array([0.1, 0.3])
    delta, B = 0.05, 2.0
    # |Σ + K| = (1.1)(1.3) - 0.25 ; |Σ| = 0.03
    det_sum = 1.1 * 1.3 - 0.25
    expected = math.sqrt(2 * math.log(2 * math.sqrt(det_sum) / (delta * math.sqrt(0.03)))) + B
    assert cf.beta_wsparq_det_ratio(K, noise, delta, B) == pytest.approx(expected, rel=1e-12)
    assert cf.beta_wsparq_log_det(K, noise, delta, B) == pytest.approx(expected, rel=1e-12)
    ldr = math.log(det_sum / 0.03)
    assert cf.beta_wsparq_from_log_det_ratio(ldr, delta, B) == pytest.approx(expected, rel=1e-12)
    # sparq Thm 3.1 / eq. (26) is the same expression with ‖f_t‖_k in place of B
    assert cf.beta_sparq_det_ratio(K, noise, delta, B) == pytest.approx(expected, rel=1e-12)
    assert cf.beta_sparq_log_det(K, noise, delta, B) == pytest.approx(expected, rel=1e-12)
    assert cf.beta_sparq_from_log_det_ratio(ldr, delta, B) == pytest.approx(expected, rel=1e-12)


@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 25),
    delta=st.floats(1e-6, 1.0),
    B=st.floats(0.0, 10.0),
    hetero=st.booleans(),
)
def test_wsparq_det_ratio_and_log_det_forms_agree(seed, n, delta, B, hetero):
    rng = np.random.default_rng(seed)
    k = SquaredExponential(float(rng.uniform(0.5, 2.0)), float(rng.uniform(0.05, 1.0)))
    X = rng.uniform(size=(n, 1))
    sigma2 = float(rng.uniform(0.05, 1.0))
    noise = sigma2 * (1 + np.arange(n)[::-1] ** rng.uniform(0, 1.5)) if hetero else sigma2
    a = cf.beta_wsparq_det_ratio(k(X), noise, delta, B)
    b = cf.beta_wsparq_log_det(k(X), noise, delta, B)
    assert abs(a - b) <= 1e-10 * max(1.0, abs(b))


def test_det_ratio_form_reports_overflow():
    # the printed determinant form cannot be evaluated when det(Σ) underflows; the log-det form can
    K = np.eye(400)
    with pytest.raises(ValueError, match="log-det form"):
        cf.beta_wsparq_det_ratio(K, 1e-3, 0.1, 1.0)
    assert np.isfinite(cf.beta_wsparq_log_det(K, 1e-3, 0.1, 1.0))


# ---------------------------------------------------------------------------------------------
# tvgpucb
# ---------------------------------------------------------------------------------------------
def test_tvgpucb_theory_betas_hand_computation():
    T, d, r, a, b, delta = 50, 2, 1.5, 2.0, 0.7, 0.1
    eq16 = 2 * math.log(2 * PI2 * T**2 / (3 * delta)) + 2 * d * math.log(
        r * d * b * T**2 * math.sqrt(math.log(2 * d * a * PI2 * T**2 / (3 * delta)))
    )
    eq19 = 2 * math.log(PI2 * T**2 / (2 * delta)) + 2 * d * math.log(
        r * d * b * T**2 * math.sqrt(math.log(d * a * PI2 * T**2 / (2 * delta)))
    )
    assert cf.beta_rgpucb(T, d, r, a, b, delta) == pytest.approx(eq16, rel=1e-13)
    assert cf.beta_tvgpucb(T, d, r, a, b, delta) == pytest.approx(eq19, rel=1e-13)
    # (33) as printed has log(2 d a π_t / δ) inside τ_t, π_t = π² T² / 6
    pit = PI2 * T**2 / 6
    printed = 2 * math.log(3 * pit / delta) + 2 * d * math.log(
        r * d * b * T**2 * math.sqrt(math.log(2 * d * a * pit / delta))
    )
    assert cf.beta_tvgpucb_tau_as_printed(T, d, r, a, b, delta) == pytest.approx(printed, rel=1e-13)


@SETTINGS
@given(
    t=st.integers(1, 10**6),
    d=st.integers(1, 6),
    r=st.floats(0.1, 10.0),
    a=st.floats(0.5, 10.0),
    b=st.floats(0.1, 10.0),
    delta=st.floats(1e-6, 0.99),
)
def test_tvgpucb_general_forms_reproduce_printed_equations(t, d, r, a, b, delta):
    # papers/tvgpucb/READING.md §tvgpucb:eq-19: (34) with π_t = π²t²/6 is (19); 2 log(4 τ_t^d π_t/δ) is (16)
    args = (t, d, r, a, b, delta)
    assert cf.beta_tvgpucb_general(*args) == pytest.approx(cf.beta_tvgpucb(*args), rel=1e-12)
    assert cf.beta_rgpucb_general(*args) == pytest.approx(cf.beta_rgpucb(*args), rel=1e-12)
    # the "2" of (33) gives a smaller width than the consistent "3"
    assert cf.beta_tvgpucb_tau_as_printed(t, d, r, a, b, delta) < cf.beta_tvgpucb(t, d, r, a, b, delta)
    # β_t increases with t (used in (43)-(45))
    assert cf.beta_tvgpucb(t + 1, d, r, a, b, delta) > cf.beta_tvgpucb(t, d, r, a, b, delta)


def test_tvgpucb_practical_beta_and_its_issue():
    assert cf.beta_tvgpucb_practical(5, 0.8, 4.0) == pytest.approx(0.8 * math.log(20.0))
    c1, c2 = cf.TVGPUCB_PRACTICAL_CONSTANTS["temperature"]
    # c₂ = 0.4: β₁, β₂ < 0 and β₃ > 0 (papers/tvgpucb/READING.md §2.7; §3.2)
    assert cf.beta_tvgpucb_practical(1, c1, c2) < 0
    assert cf.beta_tvgpucb_practical(2, c1, c2) < 0
    assert cf.beta_tvgpucb_practical(3, c1, c2) > 0
    assert cf.beta_tvgpucb_practical(1, c1, c2, clip=True) == 0.0
    assert cf.beta_tvgpucb_practical(3, c1, c2, clip=True) == pytest.approx(c1 * math.log(1.2))
    with pytest.raises(ValueError, match="beta must be >= 0"):
        cf.ucb_multiplier(cf.beta_tvgpucb_practical(1, c1, c2), cf.beta_tvgpucb_practical.convention)
    # the typo reading c₂ = 4 is positive from t = 1
    assert cf.beta_tvgpucb_practical(1, c1, cf.TVGPUCB_PRACTICAL_C2_TYPO_READING) > 0


def test_tvgpucb_inner_log_must_be_positive():
    with pytest.raises(ValueError, match=r"argument of the log inside tau_t .* must be > 1 .* got 0\.05\d* at t=1, "
                                         r"d=1, a=0\.01, delta=0\.9: increase a or t, or decrease delta"):
        cf.beta_tvgpucb(1, 1, 1.0, 0.01, 1.0, 0.9)


def test_finite_domain_beta():
    assert cf.beta_finite_domain(7, 50, 0.1) == pytest.approx(2 * math.log(50 * PI2 * 49 / 0.6))


# ---------------------------------------------------------------------------------------------
# bolt
# ---------------------------------------------------------------------------------------------
def test_bolt_beta_hand_computation():
    n, d, L, delta = 7, 3, 2.3, 0.05
    printed = 2 * d * math.log(L * d * n**2 / (6 * delta)) + 4 * math.log(math.pi * n)
    tau = math.ceil(L * d * n**2)
    corrected = 2 * math.log(tau**d * PI2 * n**2 / (6 * delta))
    assert cf.beta_bolt_as_printed(n, d, L, delta) == pytest.approx(printed, rel=1e-13)
    assert cf.beta_bolt_corrected(n, d, L, delta) == pytest.approx(corrected, rel=1e-13)
    assert cf.bolt_tau(n, d, L) == tau
    assert cf.beta_wdbo_practical(10, 3) == pytest.approx(0.6 * math.log(20))


def test_bolt_tau_rounds_up_the_product_not_its_floating_point_error():
    from fractions import Fraction

    assert 0.1 * 3 * 10**2 > 30  # 30.000000000000004
    assert cf.bolt_tau(10, 3, 0.1) == 30.0 and cf.bolt_tau(20, 2, 0.35) == 280.0
    for n, d, L in [(10, 3, 0.1001), (7, 3, 2.3), (1, 1, 1e-9), (5, 2, 0.7), (1300001, 1, 1 / 3)]:  # the last: 5.6e11
        exact = Fraction(L) * d * n * n  # the float L exactly
        assert cf.bolt_tau(n, d, L) == math.ceil(exact)


@SETTINGS
@given(n=st.integers(1, 10**5), d=st.integers(1, 8), L=st.floats(0.01, 100.0), delta=st.floats(1e-6, 0.999))
def test_bolt_printed_vs_corrected(n, d, L, delta):
    printed = cf.beta_bolt_as_printed(n, d, L, delta)
    corrected = cf.beta_bolt_corrected(n, d, L, delta, round_tau=False)
    # papers/bolt/READING.md §5.6: the difference is -2(d-1) log(6δ)
    assert printed - corrected == pytest.approx(-2 * (d - 1) * math.log(6 * delta), abs=1e-9 * max(1.0, abs(printed)))
    tol = 1e-9 * max(1.0, abs(printed))
    if d == 1:
        assert printed == pytest.approx(corrected, abs=tol)
    elif 6 * delta < 1 - 1e-6:
        assert printed > corrected
    elif 6 * delta > 1 + 1e-6:
        assert printed < corrected
    # rounding τ up only increases the corrected width
    assert cf.beta_bolt_corrected(n, d, L, delta) >= corrected - tol


# ---------------------------------------------------------------------------------------------
# wgpucb
# ---------------------------------------------------------------------------------------------
def test_wgpucb_beta_hand_computation():
    ig, delta, B, R, lam = 1.7, 0.1, 2.0, 0.5, 0.8
    expected = B + (R / math.sqrt(lam)) * math.sqrt(2 * math.log(1 / delta) + 2 * ig)
    printed = B + (1 / math.sqrt(lam)) * R * math.sqrt(2 * math.log(1 / delta)) + 2 * ig
    assert cf.beta_wgpucb(ig, delta, B, R, lam) == pytest.approx(expected, rel=1e-13)
    assert cf.beta_wgpucb_as_printed_appendix(ig, delta, B, R, lam) == pytest.approx(printed, rel=1e-13)
    # both readings agree at IG = 0 (β_0) and differ as soon as IG > 0
    beta0 = cf.beta_wgpucb(0.0, delta, B, R, lam)
    assert beta0 == pytest.approx(cf.beta_wgpucb_as_printed_appendix(0.0, delta, B, R, lam))
    assert cf.beta_wgpucb(ig, delta, B, R, lam) != pytest.approx(printed)


def test_igpucb_beta_hand_computation():
    # Chowdhury & Gopalan 2017, Algorithm 1 / Theorem 2: B + R sqrt(2 (gamma_{t-1} + 1 + ln(1/delta)))
    gamma, delta, B, R = 4.5, 0.05, 2.0, 0.3
    expected = 2.0 + 0.3 * math.sqrt(2.0 * (4.5 + 1.0 + math.log(20.0)))
    assert cf.beta_igpucb(gamma, delta, B, R) == pytest.approx(expected, rel=1e-14)
    assert cf.beta_igpucb(0.0, delta, B, 0.0) == B


# ---------------------------------------------------------------------------------------------
# conventions
# ---------------------------------------------------------------------------------------------
MULTIPLIES = {
    "beta_wsparq_det_ratio", "beta_wsparq_log_det", "beta_wsparq_from_log_det_ratio",
    "beta_sparq_det_ratio", "beta_sparq_log_det", "beta_sparq_from_log_det_ratio",
    "beta_wgpucb", "beta_wgpucb_as_printed_appendix", "beta_igpucb",
}


def test_every_beta_declares_its_convention():
    names = [n for n in cf.__all__ if n.startswith("beta_")]
    assert set(names) == set(cf.CONVENTIONS)
    for name in names:
        fn = getattr(cf, name)
        expected = cf.Convention.MULTIPLIES_SIGMA if name in MULTIPLIES else cf.Convention.SQRT
        assert fn.convention is expected, name
        assert cf.CONVENTIONS[name] is expected
        assert expected.value in cf.__doc__


def test_ucb_multiplier():
    assert cf.ucb_multiplier(9.0, "sqrt") == 3.0
    assert cf.ucb_multiplier(9.0, cf.Convention.MULTIPLIES_SIGMA) == 9.0
    assert np.allclose(cf.ucb_multiplier(np.array([4.0, 16.0]), "sqrt"), [2.0, 4.0])
    with pytest.raises(ValueError, match="^convention"):
        cf.ucb_multiplier(1.0, "square")
    with pytest.raises(ValueError, match="^beta"):
        cf.ucb_multiplier(float("nan"), "sqrt")


# ---------------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------------
K2 = np.array([[1.0, 0.2], [0.2, 1.0]])

DELTA_CALLS = {
    "beta_wsparq_det_ratio": (lambda dl: cf.beta_wsparq_det_ratio(K2, 0.1, dl, 1.0), True),
    "beta_wsparq_log_det": (lambda dl: cf.beta_wsparq_log_det(K2, 0.1, dl, 1.0), True),
    "beta_wsparq_from_log_det_ratio": (lambda dl: cf.beta_wsparq_from_log_det_ratio(1.0, dl, 1.0), True),
    "beta_sparq_det_ratio": (lambda dl: cf.beta_sparq_det_ratio(K2, 0.1, dl, 1.0), True),
    "beta_sparq_log_det": (lambda dl: cf.beta_sparq_log_det(K2, 0.1, dl, 1.0), True),
    "beta_sparq_from_log_det_ratio": (lambda dl: cf.beta_sparq_from_log_det_ratio(1.0, dl, 1.0), True),
    "beta_rgpucb": (lambda dl: cf.beta_rgpucb(10, 2, 1.0, 1.0, 1.0, dl), False),
    "beta_rgpucb_general": (lambda dl: cf.beta_rgpucb_general(10, 2, 1.0, 1.0, 1.0, dl), False),
    "beta_tvgpucb": (lambda dl: cf.beta_tvgpucb(10, 2, 1.0, 1.0, 1.0, dl), False),
    "beta_tvgpucb_general": (lambda dl: cf.beta_tvgpucb_general(10, 2, 1.0, 1.0, 1.0, dl), False),
    "beta_tvgpucb_tau_as_printed": (lambda dl: cf.beta_tvgpucb_tau_as_printed(10, 2, 1.0, 1.0, 1.0, dl), False),
    "beta_finite_domain": (lambda dl: cf.beta_finite_domain(10, 5, dl), False),
    "beta_bolt_as_printed": (lambda dl: cf.beta_bolt_as_printed(10, 2, 1.0, dl), False),
    "beta_bolt_corrected": (lambda dl: cf.beta_bolt_corrected(10, 2, 1.0, dl), False),
    "beta_wgpucb": (lambda dl: cf.beta_wgpucb(1.0, dl, 1.0, 1.0, 1.0), False),
    "beta_wgpucb_as_printed_appendix": (lambda dl: cf.beta_wgpucb_as_printed_appendix(1.0, dl, 1.0, 1.0, 1.0), False),
    "beta_igpucb": (lambda dl: cf.beta_igpucb(1.0, dl, 1.0, 1.0), False),
}


@pytest.mark.parametrize("name", sorted(DELTA_CALLS))
@pytest.mark.parametrize("bad", [0.0, -0.1, 1.5, float("nan")])
def test_invalid_delta_raises_naming_delta(name, bad):
    call, _ = DELTA_CALLS[name]
    with pytest.raises(ValueError, match=r"^delta"):
        call(bad)


@pytest.mark.parametrize("name", sorted(DELTA_CALLS))
def test_delta_one_follows_the_catalog(name):
    # (0, 1] for wsparq/sparq (Prop. 2.2, Thm 3.1); (0, 1) for tvgpucb, bolt, wgpucb
    call, closed = DELTA_CALLS[name]
    if closed:
        assert np.isfinite(call(1.0))
    else:
        with pytest.raises(ValueError, match=r"^delta must be in \(0, 1\)"):
            call(1.0)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: cf.beta_wsparq_log_det(K2, 0.1, 0.1, -1.0), "B"),
        (lambda: cf.beta_wsparq_log_det(K2, 0.0, 0.1, 1.0), "noise_var"),
        (lambda: cf.beta_wsparq_log_det(np.ones((2, 3)), 0.1, 0.1, 1.0), "K"),
        (lambda: cf.beta_sparq_log_det(K2, 0.1, 0.1, -1.0), "rkhs_norm"),
        (lambda: cf.beta_wsparq_from_log_det_ratio(-0.5, 0.1, 1.0), "log_det_ratio"),
        (lambda: cf.beta_tvgpucb(0, 2, 1.0, 1.0, 1.0, 0.1), "T"),
        (lambda: cf.beta_tvgpucb(10, 0, 1.0, 1.0, 1.0, 0.1), "d"),
        (lambda: cf.beta_tvgpucb(10, 1.5, 1.0, 1.0, 1.0, 0.1), "d"),
        (lambda: cf.beta_rgpucb(10, 2, 0.0, 1.0, 1.0, 0.1), "r"),
        (lambda: cf.beta_rgpucb(10, 2, 1.0, -1.0, 1.0, 0.1), "a"),
        (lambda: cf.beta_rgpucb(10, 2, 1.0, 1.0, 0.0, 0.1), "b"),
        (lambda: cf.beta_tvgpucb_practical(0, 0.8, 4.0), "t"),
        (lambda: cf.beta_tvgpucb_practical(1, 0.0, 4.0), "c1"),
        (lambda: cf.beta_bolt_as_printed(0, 1, 1.0, 0.1), "n"),
        (lambda: cf.beta_bolt_corrected(5, 1, -1.0, 0.1), "L"),
        (lambda: cf.beta_wgpucb(-1.0, 0.1, 1.0, 1.0, 1.0), "ig"),
        (lambda: cf.beta_wgpucb(1.0, 0.1, -1.0, 1.0, 1.0), "B"),
        (lambda: cf.beta_wgpucb(1.0, 0.1, 1.0, -1.0, 1.0), "R"),
        (lambda: cf.beta_wgpucb(1.0, 0.1, 1.0, 1.0, 0.0), "lam"),
        (lambda: cf.beta_igpucb(-1.0, 0.1, 1.0, 1.0), "gamma"),
        (lambda: cf.beta_igpucb(1.0, 0.1, -1.0, 1.0), "B"),
        (lambda: cf.beta_igpucb(1.0, 0.1, 1.0, -1.0), "R"),
        (lambda: cf.beta_finite_domain(1, 0, 0.1), "domain_size"),
    ],
)
def test_invalid_parameters_raise_value_error_naming_them(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()


def test_the_determinant_ratio_form_refuses_an_overflow_with_one_error_and_no_warning():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a numpy RuntimeWarning before the refusal would fail here
        with pytest.raises(ValueError, match=r"overflows or underflows in float64 .* use the log-det form"):
            cf.beta_wsparq_det_ratio(np.eye(400) * 1e3, 1e-3, 0.1, 1.0)
