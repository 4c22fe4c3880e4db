"""Tests of tvbo_verify.theory.response (bolt Definition 3.5, eqs. (8)-(9))."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tvbo_verify.kernels import temporal_kernel
from tvbo_verify.theory import response as Rm


def _u2_independent(n, c, a, p, kernel_name, lt):
    R = c + a * n**p
    tau = np.arange(1, n + 1) * R / lt
    if kernel_name == "se":
        k = np.exp(-0.5 * tau**2)
    elif kernel_name == "matern12":
        k = np.exp(-tau)
    elif kernel_name == "matern32":
        k = (1 + math.sqrt(3) * tau) * np.exp(-math.sqrt(3) * tau)
    else:
        k = (1 + math.sqrt(5) * tau + 5 * tau**2 / 3) * np.exp(-math.sqrt(5) * tau)
    return float(np.sum(k**2))


@settings(max_examples=25)
@given(
    c=st.floats(0.01, 2.0),
    a=st.floats(1e-7, 1e-2),
    p=st.sampled_from([1, 2, 3]),
    kernel_name=st.sampled_from(["se", "matern12", "matern32", "matern52"]),
    lt=st.floats(0.5, 80.0),
    n0=st.integers(0, 400),
)
def test_hill_climb_equals_brute_force(c, a, p, kernel_name, lt, n0):
    model = Rm.ResponseModel.from_expression(f"{c!r} + {a!r}*n^{p}")
    res = Rm.n_star(model, temporal_kernel(kernel_name, lt), n0=n0)
    assert res.certified
    assert res.n_star_hill_climb == res.n_star_brute_force == res.n_star
    assert res.n_star >= 1
    # independent brute force over the searched range
    vals = [_u2_independent(n, c, a, p, kernel_name, lt) for n in range(1, res.searched_up_to + 1)]
    assert int(np.argmax(vals)) + 1 == res.n_star
    assert res.u2 == pytest.approx(max(vals), rel=1e-10)


def test_reference_values_bolt_92():
    # papers/bolt/READING.md §bolt:n-star (l_T = 10, R = 0.1 + 1e-6 n^3): Mat-1/2 38, Mat-3/2 42, Mat-5/2 43, RBF 45
    got = [Rm.n_star_for("0.1 + 1e-6*n^3", k, 10.0).n_star for k in ("matern12", "matern32", "matern52", "se")]
    assert got == [38, 42, 43, 45]


def test_relaxed_maximiser_close_to_n_star():
    model = Rm.ResponseModel.from_expression("0.1 + 1e-6*n^3")
    k = temporal_kernel("matern12", 10.0)
    x = Rm.relaxed_maximiser(model, k, 200.0)
    assert abs(x - Rm.n_star(model, k).n_star) <= 1.0


@pytest.mark.parametrize(
    "text, message",
    [
        ("__import__('os').system('true')", "unsupported construct"),
        ("n.real", "unsupported construct"),
        ("x + n", "only use the variable n"),
        ("1 +", "could not be parsed"),
        ("-1 + n", r"R\(0\) must be > 0"),
        ("n^2", r"R\(0\) must be > 0"),
        ("2 - n", "strictly increasing"),
        ("3", "strictly increasing"),
        ("1 + 20*n^2 - n^3", "strictly increasing"),
        ("2 - 1/(n+1)", "diverge"),
        ("1 + n - n", "strictly increasing"),
    ],
)
def test_definition_3_5_and_parser_errors(text, message):
    with pytest.raises(ValueError, match=message):
        Rm.validate_response(Rm.ResponseModel.from_expression(text), n_max=50)


def test_polynomial_and_cubic_fit():
    model = Rm.ResponseModel.polynomial([0.5, 0.0, 0.0, 2e-6])
    assert float(model(10.0)) == pytest.approx(0.5 + 2e-3)
    n = np.array([10, 20, 40, 80, 160, 320], dtype=float)
    R = 0.05 + 1e-3 * n + 3e-8 * n**3
    fit = Rm.ResponseModel.fit_cubic(n, R)
    assert np.allclose(fit(n), R, rtol=1e-8)
    Rm.validate_response(fit, n_max=1000)
    nn = Rm.ResponseModel.fit_cubic(n, R + np.array([0, 0.01, -0.01, 0, 0.02, 0]), nonnegative=True)
    Rm.validate_response(nn, n_max=1000)
    with pytest.raises(ValueError, match="at least 4 distinct"):
        Rm.ResponseModel.fit_cubic([1, 2, 3], [1, 2, 3])


def test_load_response_times(tmp_path):
    f = tmp_path / "r.csv"
    f.write_text("n,R\n10,0.1\n20,0.2\n")
    n, R = Rm.load_response_times(f)
    assert n.tolist() == [10, 20] and R.tolist() == [0.1, 0.2]
    bad = tmp_path / "bad.csv"
    bad.write_text("n,R\n10,abc\n")
    with pytest.raises(ValueError, match="line 2"):
        Rm.load_response_times(bad)


def test_measure_response_times_fits_increasing_model(monkeypatch):
    # the step is timed on a clock that each posterior advances by 1 ms + 1e-9 n^3 s, so the fit is tested
    # on known growth instead of on the load of the machine running the test
    import types

    from tvbo_verify import gp

    clock = [0.0]
    real = gp.posterior

    def timed_posterior(kernel, X, *args, **kwargs):
        clock[0] += 1e-3 + 1e-9 * len(X) ** 3
        return real(kernel, X, *args, **kwargs)

    monkeypatch.setattr(gp, "posterior", timed_posterior)
    monkeypatch.setattr(Rm, "time", types.SimpleNamespace(perf_counter=lambda: clock[0]))
    sizes = [10, 80, 200, 400]
    ns, secs, model = Rm.measure_response_times(sizes, np.random.default_rng(1), grid_size=50, repeats=5,
                                                observation_time=0.01)
    assert ns.tolist() == sizes and np.allclose(secs, 1e-3 + 1e-9 * np.asarray(sizes, float) ** 3)
    assert float(model(0.0)) >= 0.01
    Rm.validate_response(model, n_max=200)
    res = Rm.n_star(model, temporal_kernel("matern32", 30.0))
    assert res.agree


def test_response_model_pickles():
    import pickle

    m = Rm.ResponseModel.from_expression("0.1 + 1e-6*n^3")
    m2 = pickle.loads(pickle.dumps(m))
    assert float(m2(10.0)) == pytest.approx(0.101) and m2.kind == "expression"


# --------------------------------------------------------------------------------------------------
# n* at every scale (certified search, constant R, RQ kernel, fits that respect Definition 3.5)
# --------------------------------------------------------------------------------------------------
def _independent_log_q(kernel_name, x):
    """log k_T^2 at normalised lag x, written out here independently of the toolkit."""
    if kernel_name == "se":
        return -(x**2)
    if kernel_name == "matern12":
        return -2 * x
    if kernel_name == "matern32":
        s = math.sqrt(3) * x
        return 2 * np.log1p(s) - 2 * s
    if kernel_name == "matern52":
        s = math.sqrt(5) * x
        return 2 * np.log1p(s + s * s / 3) - 2 * s
    return -2 * np.log1p(x**2 / 2)  # RQ, alpha = 1


def _independent_integral(kernel_name):
    """∫_0^∞ k_T^2 at lengthscale 1, by quadrature (the toolkit uses closed forms)."""
    from scipy import integrate

    return integrate.quad(lambda x: math.exp(_independent_log_q(kernel_name, x)), 0, np.inf, limit=500)[0]


@settings(max_examples=25)
@given(
    log10_l=st.floats(0.0, 12.0),
    target=st.integers(3, 600),
    p=st.sampled_from([1, 2, 3]),
    c_frac=st.floats(1e-3, 1.0),
    kernel_name=st.sampled_from(["se", "matern12", "matern32", "matern52", "rq"]),
)
def test_n_star_equals_an_independent_brute_force_at_every_scale(log10_l, target, p, c_frac, kernel_name):
    from scipy import special

    lt = 10.0**log10_l
    a = lt / float(target) ** (p + 1)  # puts n* near `target` whatever the scale of l_T
    c = c_frac * a * target**p
    model = Rm.ResponseModel.from_expression(f"{c!r} + {a!r}*n^{p}")
    res = Rm.n_star(model, temporal_kernel(kernel_name, lt))
    # brute force over n <= N, N grown until its own tail bound sum_i k^2(i R(N)) <= l ∫k^2 / R(N) excludes more
    total = _independent_integral(kernel_name)
    logs: list[float] = []
    while not logs or math.log(lt * total / (c + a * len(logs) ** p)) >= max(logs):
        n = len(logs) + 1
        lags = np.arange(1, n + 1) * (c + a * n**p) / lt
        logs.append(float(special.logsumexp(_independent_log_q(kernel_name, lags))))
    logs_arr = np.array(logs)
    best = int(np.argmax(logs_arr)) + 1
    assert res.certified and res.gap <= 1e-6
    assert math.log(res.u2) == pytest.approx(logs_arr.max(), abs=1e-11)
    assert res.n_star == best or logs_arr[res.n_star - 1] >= logs_arr.max() - 1e-11


def test_n_star_for_huge_lengthscales_is_fast_certified_and_warning_free():
    import time
    import warnings

    model = Rm.ResponseModel.from_expression("0.1 + 1e-6*n^3")
    for name in ("matern12", "se", "rq"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            start = time.perf_counter()
            res = Rm.n_star(model, temporal_kernel(name, 1e30))
            assert time.perf_counter() - start < 20
        assert res.certified and res.gap <= 1e-6 and res.n_star > 10**8
        k = temporal_kernel(name, 1e30)
        for other in (res.n_star - 10**6, res.n_star - 1, res.n_star + 1, res.n_star + 10**6):
            assert Rm.log_u2(other, model, k) <= math.log(res.u2) + 1e-6
    beyond = Rm.n_star(model, temporal_kernel("matern12", 1e100))
    assert not beyond.certified and "not excluded" in beyond.explanation


def test_constant_response_gives_infinite_n_star_with_an_explanation():
    res = Rm.n_star(Rm.ResponseModel.from_expression("0.5"), temporal_kernel("matern12", 10.0))
    assert res.n_star == math.inf and res.certified and "constant" in res.explanation
    limit = sum(math.exp(-2 * i * 0.5 / 10.0) for i in range(1, 5000))
    assert res.u2 == pytest.approx(limit, rel=1e-9)
    capped = Rm.n_star(Rm.ResponseModel.from_expression("0.5"), temporal_kernel("matern12", 10.0), n_cap=300)
    assert capped.n_star == 300 and not capped.certified


def test_rq_kernel_n_star_matches_brute_force():
    model = Rm.ResponseModel.from_expression("0.1 + 1e-6*n^3")
    res = Rm.n_star(model, temporal_kernel("rq", 10.0))
    vals = [sum((1 + (i * (0.1 + 1e-6 * n**3) / 10.0) ** 2 / 2) ** -2 for i in range(1, n + 1)) for n in range(1, 400)]
    assert res.n_star == int(np.argmax(vals)) + 1 and res.agree


def test_fit_on_clean_quadratic_data_is_accepted_by_both_methods():
    n, R = np.array([10.0, 20.0, 40.0, 80.0]), np.array([0.1, 0.2, 0.5, 1.5])
    for nonnegative in (False, True):
        fit = Rm.ResponseModel.fit_cubic(n, R, nonnegative=nonnegative)
        Rm.validate_response(fit)  # the lstsq cubic coefficient -5e-21 used to make R "non-diverging"
        assert np.allclose(fit(n), R, rtol=1e-6)
        assert Rm.n_star(fit, temporal_kernel("matern12", 10.0)).certified


def test_nonnegative_fit_respects_the_constraints_on_decreasing_data():
    n, R = np.array([10.0, 20.0, 40.0, 80.0]), np.array([1.0, 0.9, 0.8, 1.2])
    with pytest.raises(ValueError, match="strictly increasing|diverge"):
        Rm.validate_response(Rm.ResponseModel.fit_cubic(n, R))
    fit = Rm.ResponseModel.fit_cubic(n, R, nonnegative=True)
    coefficients = [float(c) for c in sp_coefficients(fit)]
    assert all(c >= 0 for c in coefficients)
    Rm.validate_response(fit)


def sp_coefficients(model):
    import sympy as sp

    return sp.Poly(model.expr, Rm.N_SYMBOL).all_coeffs()


def test_log_sum_exp_matches_scipy_and_handles_infinities():
    from scipy.special import logsumexp

    from tvbo_verify.theory.response import log_sum_exp

    rng = np.random.default_rng(0)
    for scale in (1.0, 50.0, 800.0):
        v = scale * rng.standard_normal(37) - 700.0
        assert log_sum_exp(v) == pytest.approx(float(logsumexp(v)), rel=1e-14, abs=1e-12)
    assert log_sum_exp(np.array([])) == -np.inf
    assert log_sum_exp(np.array([-np.inf, -np.inf])) == -np.inf
    assert log_sum_exp(np.array([0.0, np.inf])) == np.inf
    assert np.isnan(log_sum_exp(np.array([0.0, np.nan])))


def test_divergence_of_max_min_and_piecewise_response_times_is_decided():
    import sympy as sp

    from tvbo_verify.theory.response import N_SYMBOL as n
    from tvbo_verify.theory.response import ResponseModel, diverges, validate_response

    assert diverges(sp.Max(2 * n, n + 1)) is True
    assert diverges(sp.Min(n + 1, sp.log(n + 2))) is True
    assert diverges(sp.Min(n + 1, sp.Integer(3))) is False
    assert diverges(sp.Max(1 - 1 / (n + 1), sp.Rational(1, 2))) is False
    steps = sp.Piecewise((1 + n, n < 5), (2 * n - 3, True))
    assert diverges(steps) is True
    assert diverges(sp.Piecewise((1 + n, n < 5), (6 - 1 / n, True))) is False
    validate_response(ResponseModel(steps, "expression", "steps"), n_max=50)  # strictly increasing, diverging
    with pytest.raises(ValueError, match=r"diverge"):
        validate_response(ResponseModel(sp.Piecewise((1 + n, n < 5), (6 - 1 / (n + 1), True)), "expression", "x"),
                          n_max=50)


def test_log_constant_increments_are_twice_the_log_kernel_and_stay_finite():
    from tvbo_verify.theory.response import ResponseModel, log_constant_increments, u2

    model = ResponseModel.from_expression("0.3")
    k = temporal_kernel("se", 1.0)
    inc = log_constant_increments(model, k, 5000)
    assert np.all(np.isfinite(inc)) and inc[-1] == pytest.approx(-(5000 * 0.3) ** 2)
    direct = [u2(n + 1, model, k) - u2(n, model, k) for n in range(5)]
    assert np.allclose(np.exp(inc[:5]), direct, rtol=1e-9)
    with pytest.raises(ValueError, match="constant"):
        log_constant_increments(ResponseModel.from_expression("0.3 + n"), k, 10)
