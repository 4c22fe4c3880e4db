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
    assert data["n_star"] == 38  # the fitted cubic reproduces 0.1 + 1e-6 n^3 (bolt.md §9.2 value)
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


def test_window_answers_for_a_billion_steps_in_about_a_second():
    import time

    start = time.perf_counter()
    data = run_json(["window", "--alpha", "1", "--alpha-tilde", "0.25", "-T", "1e9"])  # as the review typed it
    assert time.perf_counter() - start < 5.0
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
