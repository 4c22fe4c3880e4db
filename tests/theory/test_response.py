"""Tests of tvbo_verify.theory.response (bolt Definition 3.5, eqs. (8)-(9))."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tvbo_verify.kernels import temporal_kernel
from tvbo_verify.theory import response as Rm


def _u2_independent(n, c, a, p, kernel_name, l):
    R = c + a * n**p
    tau = np.arange(1, n + 1) * R / l
    if kernel_name == "se":
        k = np.exp(-0.5 * tau**2)
    elif kernel_name == "matern12":
        k = np.exp(-tau)
    elif kernel_name == "matern32":
        k = (1 + math.sqrt(3) * tau) * np.exp(-math.sqrt(3) * tau)
    else:
        k = (1 + math.sqrt(5) * tau + 5 * tau**2 / 3) * np.exp(-math.sqrt(5) * tau)
    return float(np.sum(k**2))


@settings(max_examples=25, deadline=None)
@given(
    c=st.floats(0.01, 2.0),
    a=st.floats(1e-7, 1e-2),
    p=st.sampled_from([1, 2, 3]),
    kernel_name=st.sampled_from(["se", "matern12", "matern32", "matern52"]),
    l=st.floats(0.5, 80.0),
    n0=st.integers(0, 400),
)
def test_hill_climb_equals_brute_force(c, a, p, kernel_name, l, n0):
    model = Rm.ResponseModel.from_expression(f"{c!r} + {a!r}*n^{p}")
    res = Rm.n_star(model, temporal_kernel(kernel_name, l), n0=n0)
    assert res.certified
    assert res.n_star_hill_climb == res.n_star_brute_force == res.n_star
    assert res.n_star >= 1
    # independent brute force over the searched range
    vals = [_u2_independent(n, c, a, p, kernel_name, l) for n in range(1, res.searched_up_to + 1)]
    assert int(np.argmax(vals)) + 1 == res.n_star
    assert res.u2 == pytest.approx(max(vals), rel=1e-10)


def test_reference_values_bolt_92():
    # bolt.md §9.2 (l_T = 10, R = 0.1 + 1e-6 n^3): Mat-1/2 38, Mat-3/2 42, Mat-5/2 43, RBF 45
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


def test_measure_response_times_fits_increasing_model():
    sizes = [10, 80, 200, 400]
    ns, secs, model = Rm.measure_response_times(sizes, np.random.default_rng(1), grid_size=50, repeats=1,
                                                observation_time=0.01)
    assert ns.tolist() == sizes and np.all(secs > 0)
    assert float(model(0.0)) >= 0.01
    Rm.validate_response(model, n_max=200)
    res = Rm.n_star(model, temporal_kernel("matern32", 30.0))
    assert res.agree


def test_response_model_pickles():
    import pickle

    m = Rm.ResponseModel.from_expression("0.1 + 1e-6*n^3")
    m2 = pickle.loads(pickle.dumps(m))
    assert float(m2(10.0)) == pytest.approx(0.101) and m2.kind == "expression"
