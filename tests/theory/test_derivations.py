"""sympy-derived optimisers and exponents agree with numerical minimisation (scipy.optimize)."""

import math

import numpy as np
import pytest
from scipy import optimize

from tvbo_verify.theory import derivations as D


@pytest.fixture(scope="module")
def all_derivations():
    return D.derivations()


@pytest.mark.parametrize("a, T", [(1.5, 1e6), (2.0, 1e4), (4.0, 1e5), (1.1, 500.0)])
def test_l_star_matches_numerical_minimum(a, T):
    def F(L):
        return L**-a + 4 * L / T

    res = optimize.minimize_scalar(lambda u: F(math.exp(u)), bounds=(-5, 20), method="bounded",
                                   options={"xatol": 1e-12})
    L_num = math.exp(res.x)
    L_derived = D.l_star_function()(a, T)
    assert L_derived == pytest.approx(L_num, rel=1e-5)
    printed = (a / 8) ** (1 / (a + 1)) * T ** (1 / (a + 1))
    assert abs(printed - L_num) / L_num > 0.1  # the printed L* is not the minimiser (papers/wsparq/READING.md §5.11)


@pytest.mark.parametrize("a", [1.2, 2.0, 5.0])
def test_t0_matches_root(a):
    t0 = optimize.brentq(lambda T: D.l_star_function()(a, T) - T / 2, 1e-6, 1e6)
    assert D.t0_function()(a) == pytest.approx(t0, rel=1e-8)


def test_agreement_flags(all_derivations):
    assert all_derivations["wsparq-L-star"].agrees is False
    assert all_derivations["wsparq-T0"].agrees is False
    assert all_derivations["wsparq-VT"].agrees is False
    assert all_derivations["tvgpucb-61"].agrees is False
    for name in ("wsparq-F-exponent", "wsparq-n-windows", "wsparq-regret-exponent", "wsparq-query-gap",
                 "tvgpucb-cor41-tv-se-rate", "tvgpucb-cor41-r-se-rate", "tvgpucb-cor41-tv-matern-rate",
                 "tvgpucb-cor41-r-matern-rate", "wgpucb-cor5-rate", "bolt-eps-c-derivative"):
        assert all_derivations[name].agrees is True, name
    for d in all_derivations.values():
        assert isinstance(d.latex, str) and d.latex
        assert d.to_dict()["name"] == d.name


@pytest.mark.parametrize("N, eps", [(10, 1e-3), (50, 1e-4), (4, 0.01)])
def test_tvgpucb_61_maximiser_numerically(N, eps):
    # maximise sum log(1 + D_i) subject to sum D_i^2 <= N^4 eps^2 (SLSQP from a random start)
    rng = np.random.default_rng(0)
    x0 = rng.uniform(0, N**2 * eps / N, size=N)
    cons = {"type": "ineq", "fun": lambda x: N**4 * eps**2 - np.sum(x**2)}
    res = optimize.minimize(lambda x: -np.sum(np.log1p(x)), x0, constraints=[cons], bounds=[(0, None)] * N,
                            method="SLSQP", options={"ftol": 1e-14, "maxiter": 500})
    derived = D.derivation("tvgpucb-61").numeric(N=N, epsilon=eps)
    assert np.allclose(res.x, derived, rtol=1e-3)
    assert abs(derived - N**2 * eps) > 1e-3 * derived  # the printed maximiser N^2 eps is not it


@pytest.mark.parametrize("name, obj", [
    ("tvgpucb-cor41-tv-se", lambda N, e, c: (1 + N**3 * e) / N),
    ("tvgpucb-cor41-r-se", lambda N, e, c: N**-0.5 + math.sqrt(N**3 * e)),
    ("tvgpucb-cor41-tv-matern", lambda N, e, c: (N**c + N**3 * e) / N),
    ("tvgpucb-cor41-r-matern", lambda N, e, c: N ** ((c - 1) / 2) + math.sqrt(N**3 * e)),
    ("tvgpucb-cor41-tv-se-corrected", lambda N, e, c: (1 + N**2.5 * e) / N),
])
def test_block_exponents_match_numerical_argmin(name, obj):
    c = 6 / 11
    eps_grid = np.array([1e-8, 1e-6, 1e-4])
    argmins, values = [], []
    for e in eps_grid:
        res = optimize.minimize_scalar(lambda u: obj(math.exp(u), e, c), bounds=(-5, 40), method="bounded",
                                       options={"xatol": 1e-10})
        argmins.append(math.exp(res.x))
        values.append(res.fun)
    slope_n = np.polyfit(np.log(eps_grid), np.log(argmins), 1)[0]
    slope_v = np.polyfit(np.log(eps_grid), np.log(values), 1)[0]
    block = D.derivation(f"{name}-block").numeric(c=c)
    rate = D.derivation(f"{name}-rate")
    half = "tv" in name.split("-")[2]
    assert slope_n == pytest.approx(block, abs=1e-4)
    assert (slope_v / 2 if half else slope_v) == pytest.approx(rate.numeric(c=c), abs=1e-4)


def test_wgpucb_discount_balance_numerically():
    g, B, T = 10.0, 5.0, 1e6
    def obj(X):
        return g * T * math.sqrt(X) + math.sqrt(g) * B * X**-1.5

    res = optimize.minimize_scalar(lambda u: obj(math.exp(u)), bounds=(-40, 0), method="bounded",
                                   options={"xatol": 1e-12})
    d = D.derivation("wgpucb-cor5-discount")
    # the printed X = g^-1/4 B^1/2 T^-1/2 equals the minimiser up to the constant sqrt(3)
    assert math.exp(res.x) / d.numeric_printed(gammadot=g, B_T=B, T=T) == pytest.approx(math.sqrt(3), rel=1e-4)


def test_vt_constant_numerically():
    d = D.derivation("wsparq-VT")
    for a in (0.5, 1.0, 2.0):
        T = 10**5
        k = np.arange(T, dtype=float)
        vt = T + np.sum(k**a)
        assert vt / T ** (a + 1) == pytest.approx(d.numeric(alpha=a), rel=2e-2)


def test_disk_cache_derives_once_and_survives_a_corrupt_file(tmp_path, monkeypatch):
    monkeypatch.setenv("TVBO_VERIFY_CACHE", str(tmp_path))
    calls = []

    def build():
        calls.append(1)
        return {"value": 3}

    cached = D.disk_cached("unit-test")(build)
    assert cached() == {"value": 3}
    path = D.cache_path("unit-test")
    assert path.parent.parent == tmp_path and path.exists() and D.sp.__version__ in path.name
    cached.cache_clear()  # a new process: only the disk copy is left
    assert cached() == {"value": 3} and len(calls) == 1
    path.write_bytes(b"not a pickle")
    cached.cache_clear()
    assert cached() == {"value": 3} and len(calls) == 2


def test_cache_dir_default_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("TVBO_VERIFY_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert D.cache_dir() == tmp_path / "tvbo_verify"


def test_mpmath_twins_agree_with_the_float_functions():
    import mpmath

    with mpmath.workdps(50):
        assert float(D.l_star_function_mp()(mpmath.mpf(1.5), mpmath.mpf(1e6))) == pytest.approx(
            D.l_star_function()(1.5, 1e6), rel=1e-14)
        assert float(D.t0_function_mp()(mpmath.mpf(3))) == pytest.approx(D.t0_function()(3.0), rel=1e-14)
