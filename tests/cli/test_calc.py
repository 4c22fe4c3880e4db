"""Tests of ``tvbo-verify calc``: JSON output against independent computations, plots, error paths."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from tvbo_verify.cli.main import main


def run(args):
    result = CliRunner().invoke(main, ["calc", *args])
    return result


def run_json(args):
    result = run([*args, "--json"])
    assert result.exit_code == 0, result.output + result.stderr
    return json.loads(result.stdout)


def test_window_json_against_independent_schedule():
    alpha, at, T = 1.5, 0.3, 2000
    data = run_json(["window", "--alpha", str(alpha), "--alpha-tilde", str(at), "--horizon", str(T)])
    starts, lengths = [], []
    t = 1
    while t <= T:
        L = int(math.floor(t ** (at / alpha))) + 1
        starts.append(t)
        lengths.append(L)
        t += L
    q = math.ceil(6 * math.log(T))
    qpw = [min(q, s) for s in starts]
    assert data["starts"] == starts and data["lengths"] == lengths
    assert data["n_windows"] == len(starts)
    assert data["queries_per_window"] == qpw
    assert data["total_queries"] == sum(qpw)
    assert data["queries_per_step"] == pytest.approx(sum(qpw) / T)


def test_window_plot_written_atomically(tmp_path):
    out = tmp_path / "w.png"
    r = run(["window", "--alpha", "1", "--alpha-tilde", "0.25", "-T", "300", "--plot", str(out)])
    assert r.exit_code == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["w.png"]


def _u2(n, R, kernel, lt):
    tau = np.arange(1, n + 1) * R(n) / lt
    k = {"se": np.exp(-0.5 * tau**2), "matern12": np.exp(-tau),
         "matern32": (1 + math.sqrt(3) * tau) * np.exp(-math.sqrt(3) * tau)}[kernel]
    return float(np.sum(k**2))


@pytest.mark.parametrize("kernel, lt, expr, R", [
    ("matern12", 10.0, "0.1 + 1e-6*n^3", lambda n: 0.1 + 1e-6 * n**3),
    ("se", 60.0, "0.1 + 1e-3*n", lambda n: 0.1 + 1e-3 * n),
    ("matern32", 5.0, "0.2 + 1e-4*n^2", lambda n: 0.2 + 1e-4 * n**2),
])
def test_nstar_json_against_brute_force(kernel, lt, expr, R):
    data = run_json(["nstar", "--response", expr, "--temporal-kernel", kernel, "--temporal-lengthscale", str(lt)])
    vals = [_u2(n, R, kernel, lt) for n in range(1, 2000)]
    best = int(np.argmax(vals)) + 1
    assert data["n_star"] == data["n_star_brute_force"] == data["n_star_hill_climb"] == best
    assert data["u2"] == pytest.approx(vals[best - 1], rel=1e-10)


def test_nstar_from_csv(tmp_path):
    n = np.array([10, 20, 40, 80, 160])
    R = 0.1 + 1e-6 * n**3.0
    f = tmp_path / "times.csv"
    f.write_text("n,R\n" + "\n".join(f"{a},{float(b)!r}" for a, b in zip(n, R)))
    data = run_json(["nstar", "--response-times", str(f), "--temporal-kernel", "matern12",
                     "--temporal-lengthscale", "10"])
    assert data["n_star"] == 38  # the fitted cubic reproduces 0.1 + 1e-6 n^3 (papers/bolt/READING.md §bolt:n-star)
    png = tmp_path / "u.png"
    r = run(["nstar", "--response-times", str(f), "--temporal-kernel", "matern12", "--temporal-lengthscale", "10",
             "--plot", str(png)])
    assert r.exit_code == 0 and png.exists()


def test_queries_json():
    alpha, at, T = 2.0, 0.25, 5000
    data = run_json(["queries", "--alpha", str(alpha), "--alpha-tilde", str(at), "-T", str(T), "--budget", "100"])
    assert data["lower_bound_threshold"] == pytest.approx(T ** (2 / 3))
    starts, t = [], 1
    while t <= T:
        starts.append(t)
        t += int(math.floor(t**0.125)) + 1
    q = math.ceil(6 * math.log(T))
    assert data["experiments_budget"] == sum(min(q, s) for s in starts)
    assert data["sparq_experiments_budget"] == sum(min(q, s) for s in range(1, T + 1))
    assert data["can_be_sufficient"] is False  # 100 < T^(2/3) ~ 292 with alpha > 1 (Thm 5.3)
    assert data["wsparq_query_exponent"] == pytest.approx(1 - at / alpha)
    big = run_json(["queries", "--alpha", str(alpha), "-T", str(T), "--budget", str(10**7)])
    assert big["can_be_sufficient"] is True


def test_beta_json_against_formulas():
    data = run_json(["beta", "--paper", "bolt", "-t", "50", "--d", "2", "--lipschitz", "3", "--delta", "0.05"])
    printed = 2 * 2 * math.log(3 * 2 * 50**2 / (6 * 0.05)) + 4 * math.log(math.pi * 50)
    assert data["betas"]["beta_bolt_as_printed"]["beta"] == pytest.approx(printed)
    assert data["betas"]["beta_bolt_as_printed"]["sigma_multiplier"] == pytest.approx(math.sqrt(printed))
    w = run_json(["beta", "--paper", "wgpucb", "--ig", "2", "--B", "1", "--noise-R", "0.5", "--lam", "2",
                  "--delta", "0.1"])
    expected = 1 + 0.5 / math.sqrt(2) * math.sqrt(2 * math.log(10) + 4)
    assert w["betas"]["beta_wgpucb"]["beta"] == pytest.approx(expected)
    s = run_json(["beta", "--paper", "wsparq", "--log-det-ratio", "3", "--delta", "0.1", "--B", "2"])
    assert s["betas"]["beta_wsparq_from_log_det_ratio"]["beta"] == pytest.approx(math.sqrt(2 * math.log(20) + 3) + 2)


def test_gamma_json():
    data = run_json(["gamma", "--kernel", "se", "-T", "1000", "--d", "2"])
    assert data["gamma_T"] == pytest.approx(math.log(1000) ** 3)
    m = run_json(["gamma", "--kernel", "matern", "--nu", "2.5", "-T", "1000", "--d", "1", "--source", "srinivas"])
    c = 2 / (5 + 2)
    assert m["gamma_T"] == pytest.approx(1000**c * math.log(1000))


def test_lower_bound_bolt_json():
    data = run_json(["lower-bound", "bolt", "--temporal-kernel", "matern12", "--period", "0.5", "--d", "4"])
    F = 2 / math.pi * math.atan(2 * math.pi * 1.0 / (2 * 0.5))
    ks = math.exp(-2.0)
    s2 = 2 * (1 + ks) * (1 - F)
    assert data["spectral_mass_below_nyquist"] == pytest.approx(F)
    assert data["printed"]["sigma_c2"] == pytest.approx(s2)
    from scipy import stats

    s, a = math.sqrt(s2), 2.0
    expected = s * stats.norm.pdf(a / s) - a * stats.norm.cdf(-a / s)
    assert data["printed"]["epsilon_c"] == pytest.approx(expected, rel=1e-9)
    assert data["corrected"]["sigma_c2"] == pytest.approx(2 * (1 - ks) * (1 - F))


def test_lower_bound_wsparq_json():
    alpha, T = 1.5, 10**5
    data = run_json(["lower-bound", "wsparq", "--alpha", str(alpha), "-T", str(T), "--budget", "50"])
    assert data["L_star_derived"] == pytest.approx((alpha * T / 4) ** (1 / (alpha + 1)))
    assert data["L_star_printed"] == pytest.approx((alpha / 8) ** (1 / (alpha + 1)) * T ** (1 / (alpha + 1)))
    L = np.arange(1, T // 2 + 1, dtype=float)
    assert data["L_star_integer_argmin"] == int(L[np.argmin(L**-alpha + 4 * L / T)])
    assert data["T0_derived"] == pytest.approx(2 ** (1 - 1 / alpha) * alpha ** (1 / alpha))
    k = np.arange(T, dtype=float)
    assert data["V_T"] == pytest.approx(T + np.sum(k**alpha))


def test_block_and_discount_json():
    b = run_json(["block", "--epsilon", "1e-4", "-T", "100000"])
    assert b["r_gp_ucb_block_theory"] == 10
    assert b["r_gp_ucb_block_experiments"] == math.ceil(12 * 1e-4**-0.25)
    assert b["tv_analysis_block"] == round(1e-4 ** (-1 / 3))
    d = run_json(["discount", "-T", "10000", "--gamma-dot", "4", "--variation-budget", "9"])
    x = 4**-0.25 * 3 / 100
    assert d["discount"] == pytest.approx(1 - x)
    assert d["c"] == math.ceil(math.log(10000) / x)
    assert d["m_bar"] == math.ceil(math.log(1e12 * 8) / math.log(4 / math.e))


def test_regret_bound_non_vacuity_horizon_against_the_formula():
    # sparq Theorem 3.1's order-level curve, written out here:
    # sqrt(T d log^(d+5) T) sqrt(log(1/δ) + d log^(d+3)(d log T))
    def bound(T, d=1, delta=0.05):
        L = math.log(T)
        return math.sqrt(T * d * L ** (d + 5)) * math.sqrt(math.log(1 / delta) + d * math.log(d * L) ** (d + 3))

    d = run_json(["regret-bound", "--bound", "sparq:thm-3.1", "-T", "1000", "-p", "d=1", "-p", "delta=0.05"])
    h = d["non_vacuity_horizon"]
    assert bound(h) < 2 * h and bound(h - 1) >= 2 * (h - 1)  # the first T below 2BT (B = 1) ...
    assert all(bound(T) < 2 * T for T in np.geomspace(h, 1e12, 200))  # ... from which it stays below
    assert "also at T = 2..3" in d["non_vacuity"]  # where log T < 1 shrinks the curve, reported apart
    wide = run_json(["regret-bound", "--bound", "sparq:thm-3.1", "-T", "1000", "-p", "d=1", "-p", "delta=0.05",
                     "--rkhs-bound", "10"])
    assert wide["non_vacuity_horizon"] < h  # a larger trivial bound 2BT: an earlier horizon
    linear = run_json(["regret-bound", "--bound", "wsparq:thm-3.10-printed", "-p", "alpha_tilde=0.3", "-p", "d=1",
                       "-p", "delta=0.1"])
    assert linear["non_vacuity_horizon"] is None and linear["non_vacuity"].startswith("vacuous up to T = 1e+12")


def test_regret_bound_json():
    d = run_json(["regret-bound", "--bound", "wgpucb:cor-5-known", "-T", "1000", "-p", "gamma_dot=2", "-p", "B_T=3"])
    assert d["value"] == pytest.approx(2**0.875 * 3**0.25 * 1000**0.75)
    assert d["exponent_of_T"] == 0.75
    listing = run_json(["regret-bound", "--list"])
    assert "wsparq:thm-3.10" in listing


@pytest.mark.parametrize("args, needle", [
    (["window", "--alpha", "1", "--alpha-tilde", "0.4", "-T", "10"], "alpha_tilde must be in (0, 1/3), got 0.4"),
    (["window", "--alpha", "0", "--alpha-tilde", "0.25", "-T", "10"], "alpha must be > 0"),
    (["window", "--alpha", "1", "--alpha-tilde", "0.25", "-T", "0"], "horizon"),
    (["nstar", "--response", "-1 + n", "--temporal-kernel", "se", "--temporal-lengthscale", "1"], "R(0)"),
    (["nstar", "--response", "2 - n", "--temporal-kernel", "se", "--temporal-lengthscale", "1"], "strictly increasing"),
    (["nstar", "--response", "n +", "--temporal-kernel", "se", "--temporal-lengthscale", "1"], "could not be parsed"),
    (["nstar", "--response", "open('x')", "--temporal-kernel", "se", "--temporal-lengthscale", "1"], "unsupported"),
    (["nstar", "--response", "1+n", "--temporal-kernel", "cosine", "--temporal-lengthscale", "1"], "--temporal-kernel"),
    (["nstar", "--response-times", "/nonexistent.csv", "--temporal-kernel", "se", "--temporal-lengthscale", "1"],
     "not found"),
    (["block", "--epsilon", "1.5", "-T", "10"], "epsilon must be in (0, 1)"),
    (["lower-bound", "tvgpucb", "--epsilon", "0"], "epsilon"),
    (["gamma", "--kernel", "matern", "-T", "10"], "nu"),
    (["discount", "-T", "100", "--gamma-dot", "1", "--variation-budget", "1e6"], "variation_budget"),
    (["regret-bound", "--bound", "nope"], "bound must be one of"),
    (["queries", "--alpha", "2", "-T", "1"], "horizon"),
])
def test_error_paths(args, needle):
    r = run(args)
    assert r.exit_code == 2
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert needle in lines[0]
    assert "Traceback" not in r.output + r.stderr


def test_nstar_measure_own_hardware():
    data = run_json(["nstar", "--measure", "--measure-sizes", "10,80,200,400", "--observation-time", "0.01",
                     "--temporal-kernel", "matern32", "--temporal-lengthscale", "30"])
    assert data["agree"] and data["n_star"] >= 1
    assert data["measured"]["n"] == [10, 80, 200, 400]
    r = run(["nstar", "--measure", "--response", "1+n", "--temporal-kernel", "se", "--temporal-lengthscale", "1"])
    assert r.exit_code == 2 and "exactly one of" in r.stderr


def test_lower_bound_wsparq_fano_json():
    d = run_json(["lower-bound", "wsparq", "--alpha", "2", "-T", "1000", "--budget", "5", "--gamma", "0.01",
                  "--cells", "8"])
    from tvbo_verify.theory.lower_bounds import c2_constant

    assert d["fano"]["information"] == pytest.approx(c2_constant(2.0) + 5.0)
    assert 0 < d["fano"]["p_err_lower_bound"] < 1
    # eq. (36) only guarantees M(0.01) = 1 bump in the ball of radius B = 5; the eight bumps' exact norm decides
    from tvbo_verify.kernels import SquaredExponential
    from tvbo_verify.theory.lower_bounds import bump_rkhs_norm

    assert d["bump"]["M"] == 1
    assert d["fano"]["rkhs_norm"] == pytest.approx(bump_rkhs_norm(8, 0.01, SquaredExponential(1.0, 0.1)))
    assert d["fano"]["rkhs_norm"] < 5 and d["fano"]["status"] == "ok"
    many = run_json(["lower-bound", "wsparq", "--alpha", "2", "-T", "1000", "--budget", "5", "--gamma", "0.01",
                     "--cells", "16"])  # narrower bumps: norm 664
    assert many["fano"]["rkhs_norm"] > 5 and many["fano"]["status"].startswith("vacuous: the 16 bumps have RKHS norm")
    r = run(["lower-bound", "wsparq", "--cells", "4"])
    assert r.exit_code == 2 and "--cells" in r.stderr


def test_nstar_theorem_3_8():
    from tvbo_verify.confidence import beta_bolt_as_printed

    d = run_json(["nstar", "--response", "0.1 + 1e-6*n^3", "--temporal-kernel", "se", "--temporal-lengthscale", "10",
                  "-T", "1000", "--noise-var", "0.5"])
    ks = math.exp(-0.5)
    b = beta_bolt_as_printed(1000, 1, 1.0, 0.1)
    expected = 2 + math.sqrt(4 * b * 1000 * (1000 - ks**2 * d["u2"] / 1.5))
    assert d["theorem_3_8"]["bound_at_n_star"] == pytest.approx(expected)
    assert d["theorem_3_8"]["bound_at_n_star"] <= d["theorem_3_8"]["bound_at_n_1"]


# --------------------------------------------------------------------------------------------------
# every scale, every input: the items of the calculator review
# --------------------------------------------------------------------------------------------------
def one_error_line(result):
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_window_answers_for_a_billion_steps():
    """Summarised as runs of equal length (its time is measured in benchmarks/bench_calc.py)."""
    data = run_json(["window", "--alpha", "1", "--alpha-tilde", "0.25", "-T", "1e9"])  # as the review typed it
    assert data["starts"] is None and data["n_windows"] == sum(s["count"] for s in data["segments"])
    assert data["n_windows"] == pytest.approx(1e9**0.75 / 0.75, rel=0.01)
    q = math.ceil(6 * math.log(1e9))  # 125 queries per window, capped at the t past inputs
    small, t = [], 1
    while t < q:
        small.append(t)
        t += int(math.floor(t**0.25)) + 1
    assert data["total_queries"] == sum(small) + q * (data["n_windows"] - len(small))


def test_lower_bound_wsparq_refuses_an_overflowing_alpha():
    assert "alpha" in one_error_line(run(["lower-bound", "wsparq", "--alpha", "1e308"]))


@pytest.mark.parametrize("param, needle", [("alpha=-1", "alpha must be > 0"), ("alpha=1e308", "overflows"),
                                           ("zeta=3", "no parameter 'zeta'")])
def test_regret_bound_checks_its_parameters(param, needle):
    args = ["regret-bound", "--bound", "wsparq:prop-2.2", "-p", "d=1", "-p", param]
    if not param.startswith("alpha"):
        args += ["-p", "alpha=1"]
    assert needle in one_error_line(run(args))


def test_queries_with_zero_noise_prints_only_its_error():
    assert "noise_var must be > 0" in one_error_line(run(["queries", "--alpha", "2", "-T", "100", "--noise-var", "0"]))


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".pdf", b"%PDF"), (".svg", b"<?xml")])
def test_plot_uses_the_format_of_its_suffix(tmp_path, suffix, magic):
    out = tmp_path / f"lb{suffix}"
    r = run(["lower-bound", "tvgpucb", "--plot", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[: len(magic)] == magic
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


@pytest.mark.parametrize("target, needle", [("g.jpg", "must end in one of"), ("missing/g.png", "does not exist")])
def test_plot_errors_name_the_option_and_print_nothing_before(tmp_path, target, needle):
    line = one_error_line(run(["gamma", "--kernel", "se", "-T", "100", "--plot", str(tmp_path / target)]))
    assert "--plot" in line and needle in line


def test_vacuous_results_say_so():
    d = run_json(["lower-bound", "wsparq", "--alpha", "2", "-T", "1000", "--budget", "1e6", "--gamma", "0.01",
                  "--cells", "8"])
    assert d["fano"]["p_err_lower_bound"] <= 0 and d["fano"]["status"].startswith("vacuous")
    b = run_json(["lower-bound", "wsparq", "--gamma", "100"])
    assert b["bump"]["M"] < 2 and b["bump"]["status"].startswith("vacuous")
    table = run(["lower-bound", "wsparq", "--gamma", "100"]).stdout
    assert "vacuous" in table


def test_nstar_at_a_huge_lengthscale_is_certified():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = run_json(["nstar", "--response", "0.1 + 1e-6*n^3", "--temporal-kernel", "se", "--temporal-lengthscale",
                      "1e30"])
    assert d["certified"] and d["n_star"] > 10**8 and d["gap"] <= 1e-6


def test_nstar_constant_response_is_infinite_and_explained(tmp_path):
    d = run_json(["nstar", "--response", "0.5", "--temporal-kernel", "matern12", "--temporal-lengthscale", "10"])
    assert d["n_star"] == "inf" and "constant" in d["explanation"]
    png = tmp_path / "c.png"
    r = run(["nstar", "--response", "0.5", "--temporal-kernel", "matern12", "--temporal-lengthscale", "10",
             "--plot", str(png)])
    assert r.exit_code == 0 and png.exists()


def test_nstar_rq_kernel():
    d = run_json(["nstar", "--response", "0.1 + 1e-6*n^3", "--temporal-kernel", "rq", "--temporal-lengthscale", "10"])
    assert d["certified"] and d["agree"]


def test_response_times_on_clean_data_and_unsuitable_fits(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text("n,R\n10,0.1\n20,0.2\n40,0.5\n80,1.5\n")
    for fit in ("lstsq", "nonneg"):
        d = run_json(["nstar", "--response-times", str(f), "--fit", fit, "--temporal-kernel", "matern12",
                      "--temporal-lengthscale", "10"])
        assert d["certified"]
    bad = tmp_path / "bad.csv"
    bad.write_text("n,R\n10,1.0\n20,0.9\n40,0.8\n80,1.2\n")
    line = one_error_line(run(["nstar", "--response-times", str(bad), "--temporal-kernel", "matern12",
                               "--temporal-lengthscale", "10"]))
    assert "--fit nonneg" in line


# --------------------------------------------------------------------------------------------------
# defects of the calculator review: stalls, huge inputs, honest output, start-up
# --------------------------------------------------------------------------------------------------
def test_lower_bound_wsparq_at_a_trillion_steps_answers_without_the_hurwitz_zeta(monkeypatch):
    """It ran for minutes in mpmath's Hurwitz zeta (V_T at T = 10^12)."""
    import mpmath

    def refuse(*args, **kwargs):
        raise AssertionError("Hurwitz zeta called: minutes at large T")

    monkeypatch.setattr(mpmath, "zeta", refuse)
    d = run_json(["lower-bound", "wsparq", "--alpha", "0.001", "-T", "1e12", "--budget", "0.4", "--noise-var",
                  "0.001"])
    monkeypatch.undo()
    T, a = 10**12, 0.001
    with mpmath.workdps(30):  # sum_{k<T} k^a = zeta(-a) + (T-1)^(a+1)/(a+1) + (T-1)^a/2 + a (T-1)^(a-1)/12 + ...
        x = mpmath.mpf(T - 1)
        s = mpmath.zeta(-a) + x ** (a + 1) / (a + 1) + x**a / 2 + a * x ** (a - 1) / 12
    assert d["V_T"] == pytest.approx(0.001 * float(T + s), rel=1e-13)


@pytest.mark.parametrize("args, needle", [
    (["window", "--alpha", "1", "--alpha-tilde", "0.01", "-T", "100000000000000000000"],
     "horizon must be an integer 1 <= horizon <= 4611686018427387904"),
    (["queries", "--alpha", "2", "-T", "100000000000000000000"], "horizon must be an integer 2 <= horizon <= "),
    (["lower-bound", "wsparq", "--gamma", "1e-300", "--cells", "1000000000000"], "cells must be an integer 2 <= "),
    (["lower-bound", "tvgpucb", "--samples", "1000000"], "samples must be an integer 0 <= samples <= 50000"),
    (["block", "--epsilon", "0.1", "-T", "100000000"], "horizon must be an integer 1 <= horizon <= 10000000"),
    (["discount", "-T", "1" + "0" * 400], "horizon must be an integer 2 <= horizon <= "),
    (["regret-bound", "--bound", "tvgpucb:thm-4.1", "-p", "epsilon=0.1", "-T", "1" + "0" * 400], "horizon"),
    (["beta", "--paper", "bolt", "-t", "1" + "0" * 400], "t must be an integer 1 <= t <= "),
    (["gamma", "--kernel", "se", "-T", "1000", "--grid", "1000", "--d", "3"], "grid: T^2 * grid^d"),
    (["window", "--alpha", "1", "--alpha-tilde", "0.2", "-T", "100", "--t1", "1" + "0" * 30],
     "t1 must be an integer 1 <= t1 <= 100"),
    (["gamma", "--kernel", "se", "-T", "2", "--d", "1" + "0" * 400], "'--d'"),
])
def test_huge_inputs_give_one_line_naming_the_parameter_and_its_range(args, needle):
    assert needle in one_error_line(run(args))


def test_block_minimum_uses_the_rate_of_every_block_length():
    from tvbo_verify.theory import rates as Ra

    d = run_json(["block", "--epsilon", "0.3", "-T", "3000", "--kernel", "matern", "--nu", "1.5", "--d", "2"])
    N = np.arange(1, 3001)
    gamma = np.array([Ra.gamma_rate("matern", int(n), 2, nu=1.5, source="srinivas") for n in N])
    printed = (3000 / N + 1) * (gamma + N**3 * 0.3)
    assert d["eq21_printed_min"]["block"] == int(N[np.argmin(printed)])
    assert d["eq21_printed_min"]["bound"] == pytest.approx(float(printed.min()), rel=1e-12)


def test_nstar_at_a_subnormal_spacing_answers():
    """R(n)/l_T below 1e-310 made the closed-form integral 0 and the log a 'math domain error'."""
    d = run_json(["nstar", "--response", "1e-30 + 1e-30*n^0.5", "--temporal-kernel", "matern12",
                  "--temporal-lengthscale", "1e300"])
    assert d["certified"] or d["n_star"] == "inf" or d["n_star"] >= 1


def _paths(data, prefix=""):
    """Every key path of a JSON table, as the legend names them (``a.b``, ``m.*.x``, ``s[].x``)."""
    for key, value in data.items():
        if key in ("fields", "warnings"):
            continue
        path = f"{prefix}{key}"
        yield path
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            for name, item in value.items():
                yield f"{path}.{name}"
                yield from _paths(item, f"{path}.*.")
        elif isinstance(value, dict) and value and not prefix.endswith("params."):
            if key != "params":
                yield from _paths(value, f"{path}.")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            yield from _paths(value[0], f"{path}[].")


EVERY_CALCULATOR = [
    ["window", "--alpha", "1", "--alpha-tilde", "0.25", "-T", "300"],
    ["queries", "--alpha", "2", "-T", "500", "--budget", "40"],
    ["block", "--epsilon", "0.01", "-T", "500", "--kernel", "matern"],
    ["discount", "-T", "1000", "--variation-budget", "2"],
    ["beta", "--paper", "tvgpucb"], ["beta", "--paper", "wgpucb", "--ig", "1"],
    ["gamma", "--kernel", "se", "-T", "50", "--grid", "10"],
    ["regret-bound", "--bound", "wgpucb:cor-5-known", "-p", "gamma_dot=2", "-p", "B_T=3"],
    ["lower-bound", "bolt"],
    ["lower-bound", "wsparq", "--budget", "3", "--gamma", "0.01", "--cells", "4"],
    ["lower-bound", "tvgpucb", "--samples", "20"],
    ["nstar", "--response", "0.1 + 1e-6*n^3", "--temporal-kernel", "se", "--temporal-lengthscale", "10", "-T", "100"],
]


@pytest.mark.parametrize("args", EVERY_CALCULATOR, ids=lambda a: " ".join(a[:2]))
def test_every_output_field_is_defined(args):
    d = run_json(args)
    fields = d["fields"]
    assert "natural" in fields["log"]
    missing = [p for p in _paths(d) if not fields.get(p)]
    assert not missing, missing
    table = run(args).stdout
    assert "fields (log = natural logarithm" in table
    legend = table.split("fields (", 1)[1]
    shown = [k for k, v in d.items() if v is not None and k not in ("fields", "warnings")]
    assert all(f"\n  {key}: " in legend for key in shown), legend


def test_legend_defines_the_rows_of_nested_tables():
    legend = run(["window", "--alpha", "2", "--alpha-tilde", "0.25", "-T", "1e6"]).stdout.split("fields (", 1)[1]
    assert "\n  segments[].count: " in legend and "\n  segments[].length: " in legend
    legend = run(["lower-bound", "bolt"]).stdout.split("fields (", 1)[1]
    assert "\n  printed.log10_epsilon_c: log10" in legend


def test_regret_bound_list_defines_its_fields():
    d = run_json(["regret-bound", "--list"])
    assert set(d["fields"]) >= {"*.ref", "*.formula", "*.kind", "*.params"}


@pytest.mark.parametrize("paper, option", [("wsparq", "--log-det-ratio"), ("sparq", "--log-det-ratio"),
                                           ("wgpucb", "--ig")])
def test_beta_warns_that_it_ignores_t_without_the_data_dependent_term(paper, option):
    r = run(["beta", "--paper", paper, "-t", "7"])
    assert r.exit_code == 0
    warned = [ln for ln in r.stderr.splitlines() if ln.startswith("warning: ")]
    assert any(option in ln and "same for every t" in ln for ln in warned), r.stderr
    assert run_json(["beta", "--paper", paper, "-t", "7"])["warnings"]
    quiet = run_json(["beta", "--paper", paper, option, "2.5"])
    assert quiet["warnings"] == []
    values = {run_json(["beta", "--paper", paper, "-t", str(t), option, str(g)])["betas"].popitem()[1]["beta"]
              for t, g in ((3, 1.0), (3, 4.0))}
    assert len(values) == 2  # the data-dependent term does move beta


def test_options_that_do_not_enter_the_result_are_named_in_a_warning():
    r = run(["beta", "--paper", "bolt", "--lipschitz", "2", "--c1", "0.5"])
    assert r.exit_code == 0 and "warning: --c1 0.5 is ignored" in r.stderr and "--lipschitz" not in r.stderr
    w = run_json(["lower-bound", "wsparq", "--B", "3"])
    assert any("--B 3.0 is ignored" in x for x in w["warnings"])
    f = run_json(["lower-bound", "wsparq", "--gamma", "0.01", "--cells", "4"])
    assert any("N_T = 0" in x for x in f["warnings"])


def test_regret_bound_says_vacuous_above_the_trivial_bound():
    d = run_json(["regret-bound", "--bound", "wsparq:prop-2.2", "-p", "alpha=0.5", "-p", "d=1", "-T", "10000"])
    assert d["trivial"]["value"] == 2 * 10000 and "2 B T" in d["trivial"]["formula"]
    assert d["value"] > d["trivial"]["value"] and d["status"].startswith("vacuous")
    big_B = run_json(["regret-bound", "--bound", "wsparq:prop-2.2", "-p", "alpha=0.5", "-p", "d=1", "-T", "10000",
                      "--rkhs-bound", "1e9"])
    assert not big_B["status"].startswith("vacuous")
    low = run_json(["regret-bound", "--bound", "wgpucb:cor-5-unknown", "-p", "gamma_dot=2", "-p", "B_T=1", "-T",
                    "1e9"])
    assert low["status"].startswith("ok") and low["value"] < low["trivial"]["value"]
    tv = run_json(["regret-bound", "--bound", "tvgpucb:cor-4.1-r-se", "-p", "epsilon=0.1", "-T", "100"])
    assert tv["trivial"]["value"] == 100


def test_gamma_grid_brackets_the_exact_maximum():
    import itertools

    from tvbo_verify.kernels import SquaredExponential

    d = run_json(["gamma", "--kernel", "se", "-T", "3", "--grid", "4", "--lengthscale", "0.3", "--noise-var", "0.1"])
    X = np.linspace(0, 1, 4)[:, None]
    K = SquaredExponential(1.0, 0.3)(X)
    best = max(0.5 * np.linalg.slogdet(np.eye(3) + K[np.ix_(s, s)] / 0.1)[1]
               for s in itertools.product(range(4), repeat=3))
    g = d["grid"]
    assert g["candidates"] == 4 and g["lower"] <= best + 1e-12 <= g["upper"] + 1e-12
    assert g["upper"] == pytest.approx(g["lower"] / (1 - 1 / math.e))


def test_window_plot_covers_the_whole_horizon():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tvbo_verify.cli.calc.schedules import draw_windows
    from tvbo_verify.theory import schedule_summaries as SS

    T = 10**6
    rule = SS.query_rule("experiments")
    table = SS.window_summary(2.0, 0.25, T, rule)
    last = table.segments[-1]
    assert last.length == 6 and last.first_start < 0.4 * T  # floor(t^(1/8)) = 5 from 5^8: the last run starts early
    fig, ax = plt.subplots()
    try:
        draw_windows(ax, table, rule)
        assert ax.get_xlim()[1] >= T
        assert max(line.get_xdata()[-1] for line in ax.get_lines()) >= T
    finally:
        plt.close(fig)


def test_bolt_states_its_log_bases_and_plots_log10():
    d = run_json(["lower-bound", "bolt", "--temporal-kernel", "se", "--period", "1", "--d", "4"])
    for reading in ("printed", "corrected"):
        v = d[reading]
        assert v["log10_epsilon_c"] == pytest.approx(v["ln_epsilon_c"] / math.log(10))
    assert "natural log" in d["fields"]["printed.ln_epsilon_c"] and "log10" in d["fields"]["printed.log10_epsilon_c"]
    from tvbo_verify.theory import lower_bound_tables as LBT

    args = dict(temporal="se", temporal_lengthscale=1.0, lipschitz=1.0, d=4, signal_variance=1.0,
                spatial_lengthscale=1.0)
    assert LBT.bolt_floor_curve(args, "printed", np.array([1.0]))[0] == pytest.approx(d["printed"]["log10_epsilon_c"])


CALC_ONLY = """
import importlib.util, sys, types
spec = importlib.util.find_spec("tvbo_verify")
pkg = types.ModuleType("tvbo_verify.cli")  # the calc group alone, as the lazy root command loads it
pkg.__path__ = [spec.submodule_search_locations[0] + "/cli"]
sys.modules["tvbo_verify.cli"] = pkg
from tvbo_verify.cli.calc import calc
calc.main(sys.argv[1:], standalone_mode=False)
print(sorted(m for m in ("scipy", "sympy", "matplotlib", "tvbo_verify.kernels", "tvbo_verify.information")
             if m in sys.modules))
"""


@pytest.mark.parametrize("args", [["window", "--alpha", "1", "--alpha-tilde", "0.25", "-T", "100"],
                                  ["queries", "--alpha", "2", "-T", "100"], ["block", "--epsilon", "0.1", "-T", "50"],
                                  ["discount", "-T", "100"], ["beta", "--paper", "bolt"],
                                  ["gamma", "--kernel", "se", "-T", "100"], ["lower-bound", "wsparq", "-T", "1e12"],
                                  ["lower-bound", "tvgpucb"],
                                  ["regret-bound", "--bound", "wgpucb:cor-5-unknown", "-p", "gamma_dot=2", "-p",
                                   "B_T=1"]],
                         ids=lambda a: " ".join(a[:2]))
def test_light_calculators_import_no_scipy_sympy_or_kernels(args):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", CALC_ONLY, *args], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout[-300:]


def test_calc_gamma_certified_prints_a_certified_bracket_and_its_ratio():
    import json

    from click.testing import CliRunner

    from tvbo_verify.cli.main import main

    out = CliRunner().invoke(main, ["calc", "gamma", "--kernel", "se", "-T", "200", "--grid", "40", "--certified",
                                    "--json"])
    assert out.exit_code == 0, out.output
    bracket = json.loads(out.output)["certified"]
    assert 0 < bracket["lower"] <= bracket["upper"] and bracket["ratio"] < 1.1
    refused = CliRunner().invoke(main, ["calc", "gamma", "--kernel", "se", "-T", "200", "--certified"])
    assert refused.exit_code == 2 and "--grid" in refused.output


# -- every plot draws the numbers of its table ---------------------------------------------------------------
def _plotted(monkeypatch, tmp_path, args):
    """The table (``--json``) and the lines of the figure drawn with it (``--plot``): label -> (x, y), read back
    from the figure as it is saved."""
    import matplotlib.figure

    drawn = {}
    real_savefig = matplotlib.figure.Figure.savefig

    def savefig(fig, *a, **k):
        for ax in fig.axes:
            for line in ax.get_lines():
                drawn[line.get_label()] = (np.asarray(line.get_xdata(), dtype=float),
                                           np.asarray(line.get_ydata(), dtype=float))
        return real_savefig(fig, *a, **k)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", savefig)
    table = run_json([*args, "--plot", str(tmp_path / "p.png")])
    assert drawn, "no line was drawn"
    return table, drawn


def _value_at(xy, t):
    """The value a step line drawn with ``where="post"`` shows at ``t``."""
    x, y = xy
    return y[np.searchsorted(x, t, side="right") - 1]


def test_window_plot_draws_n_t_from_the_numbers_of_its_table(monkeypatch, tmp_path):
    """The command of the report of the defect: the plot showed N_t = 0 until t = 257 and ended at 4503 while the
    table said N_T = 7619."""
    table, drawn = _plotted(monkeypatch, tmp_path, ["window", "--alpha", "2", "--alpha-tilde", "0.25", "-T", "500"])
    curve = drawn["$N_t$"]
    assert curve[0][-1] == 500 and curve[1][-1] == table["total_queries"] == 7619
    cumulative = np.cumsum(table["queries_per_window"])
    for j, start in enumerate(table["starts"]):
        assert _value_at(curve, start) == cumulative[j]
        if start > 1:
            assert _value_at(curve, start - 1) == (cumulative[j - 1] if j else 0)
    lengths = drawn["window length $t_{j+1}-t_j$"]
    for start, length in zip(table["starts"], table["lengths"]):
        assert _value_at(lengths, start) == length


def test_window_plot_beyond_the_listed_windows_ends_at_the_tables_total(monkeypatch, tmp_path):
    from tvbo_verify.theory import schedule_summaries as SS

    table, drawn = _plotted(monkeypatch, tmp_path, ["window", "--alpha", "1", "--alpha-tilde", "0.25", "-T", "1e9"])
    assert table["starts"] is None  # too many windows to list: the runs of equal windows describe them
    (x, y), = [xy for label, xy in drawn.items() if label.startswith("$N_t$")]
    assert x[-1] == 1e9 and y[-1] == table["total_queries"]
    assert np.all(np.diff(x) >= 0) and np.all(np.diff(y) >= 0)
    rule = SS.query_rule("experiments")
    segments = tuple(SS.WindowSegment(**s) for s in table["segments"])
    points = set(zip(x.tolist(), y.tolist()))
    for seg, total in zip(segments, SS.cumulative_queries(rule, segments, 10**9)):
        assert (float(seg.last_start), float(total)) in points  # N_t at the last start of every run, as summed


def test_queries_plot_ends_at_the_budgets_of_its_table(monkeypatch, tmp_path):
    table, drawn = _plotted(monkeypatch, tmp_path, ["queries", "--alpha", "2", "-T", "500"])
    for label, key in (("W-SparQ, theory Q (57)", "theory_budget"), ("W-SparQ, 6 log T", "experiments_budget"),
                       ("SparQ, 6 log T", "sparq_experiments_budget"),
                       (r"$T^{\alpha/(\alpha+1)}$ (Thm 5.3)", "lower_bound_threshold")):
        x, y = drawn[label]
        assert x[-1] == 500 and y[-1] == pytest.approx(table[key], rel=1e-12), label


def test_regret_bound_and_gamma_plots_pass_through_their_tables_value_at_t(monkeypatch, tmp_path):
    table, drawn = _plotted(monkeypatch, tmp_path, ["regret-bound", "--bound", "wsparq:prop-2.2", "-p", "alpha=2",
                                                    "-p", "d=1", "-T", "500"])
    x, y = drawn[f"{table['formula']} (constant 1)"]
    assert x[-1] == 500 and y[-1] == pytest.approx(table["value"], rel=1e-12)
    x, y = drawn[f"trivial: {table['trivial']['formula']}"]
    assert y[-1] == pytest.approx(table["trivial"]["value"], rel=1e-12)
    table, drawn = _plotted(monkeypatch, tmp_path, ["gamma", "--kernel", "se", "-T", "500"])
    x, y = drawn["$T^a (\\log T)^b$, constant 1"]
    assert x[-1] == 500 and y[-1] == pytest.approx(table["gamma_T"], rel=1e-12)


def test_list_and_bound_together_are_refused_naming_both():
    line = one_error_line(run(["regret-bound", "--list", "--bound", "wsparq:prop-2.2"]))
    assert "--list and --bound cannot be combined" in line


def test_a_missing_paper_of_beta_is_one_line_listing_the_choices():
    line = one_error_line(run(["beta"]))
    assert "Missing option '--paper'" in line and "wsparq, sparq, tvgpucb, bolt, wgpucb" in line


def test_a_limit_of_10_to_the_300_is_printed_in_scientific_notation():
    line = one_error_line(run(["discount", "-T", "1e301"]))
    assert "horizon <= 1.000e+300 (it is used as a float64), got 1.000e+301" in line and len(line) < 160


@pytest.mark.parametrize("content,needle", [
    (b"\x89PNG\r\n\x1a\n\xff\xfe\x00binary", "is not a text CSV file"),
    (b"n,R\n1,0.1\n2\x00,0.2\n", "is not a text CSV file"),
    (b"n,R\n1,0.1\nx,y\n", "line 3 must hold two numbers"),
])
def test_a_response_times_file_that_is_not_a_csv_of_numbers_is_one_line_naming_it(tmp_path, content, needle):
    csv_file = tmp_path / "times.csv"
    csv_file.write_bytes(content)
    line = one_error_line(run(["nstar", "--response-times", str(csv_file), "--temporal-kernel", "se",
                               "--temporal-lengthscale", "1"]))
    assert f"response-times file {csv_file}" in line and needle in line
