"""IGP-UCB's width as a β kind (Chowdhury & Gopalan 2017, Algorithm 1 and Theorem 2):
β_t = B + R √(2(γ_{t−1} + 1 + ln(1/δ))), checked against values computed here from the formula, monotone in t,
validated at construction, and usable by GP-UCB (a run, its trace and its definition audit)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.bandits.beta import BetaRule, igpucb_theory, parse_beta
from tvbo_verify.bandits.definitions import audit
from tvbo_verify.bandits.policy import Problem
from tvbo_verify.bandits.registry import make_env, make_policy
from tvbo_verify.bandits.runner import run
from tvbo_verify.information import grid_gain_bound
from tvbo_verify.kernels import SquaredExponential


def se(X: np.ndarray, Y: np.ndarray, lengthscale: float) -> np.ndarray:
    """Squared exponential of variance 1, written out here."""
    return np.exp(-((X[:, None, 0] - Y[None, :, 0]) ** 2) / (2.0 * lengthscale**2))


def printed(gamma: float, delta: float, B: float, R: float) -> float:
    return B + R * math.sqrt(2.0 * (gamma + 1.0 + math.log(1.0 / delta)))


def test_the_queried_width_is_the_printed_formula_with_the_gain_of_the_queried_points():
    rng = np.random.default_rng(3)
    X = rng.uniform(0, 1, (7, 1))
    lam = 0.05
    K = se(X, X, 0.3)
    gain = 0.5 * np.linalg.slogdet(np.eye(7) + K / lam)[1]  # ½ log det(I + λ⁻¹ K_{t−1}), t − 1 = 7 points
    rule = igpucb_theory(B=2.0, R=0.3, delta=0.05, gamma="queried")
    expected = printed(gain, 0.05, 2.0, 0.3)
    assert rule.value(8, data=lambda: (K, np.full(7, lam))) == pytest.approx(expected, rel=1e-12)
    assert rule.value(8, log_det_ratio=2.0 * gain) == pytest.approx(expected, rel=1e-12)
    assert rule.value(1, data=lambda: (np.zeros((0, 0)), np.zeros(0))) == pytest.approx(printed(0.0, 0.05, 2.0, 0.3))
    assert rule.convention == "multiplies_sigma" and rule.multiplier(8, log_det_ratio=2 * gain)[1] == pytest.approx(
        expected)


def test_the_bound_width_reads_an_upper_bound_of_the_maximum_information_gain_on_the_grid():
    grid = np.linspace(0, 1, 40)[:, None]
    lam = 0.01
    K = se(grid, grid, 0.2)
    mu = np.clip(np.linalg.eigvalsh(K), 0, None)

    def upper(s: int) -> float:  # spectral and Hadamard bounds, written out here
        return min(0.5 * float(np.sum(np.log(1.0 + s * mu / lam))), 0.5 * s * math.log(1.0 + 1.0 / lam))

    pol = make_policy("gp-ucb", {}, igpucb_theory(B=1.0, R=0.1, delta=0.1))
    pol.reset(Problem(grid, SquaredExponential(1.0, 0.2), lam, horizon=50), np.random.default_rng(0))
    bound = pol._gain_bound()
    for t in (1, 2, 5, 20, 50):
        assert pol.beta.value(t, gain_bound=bound) == pytest.approx(printed(upper(t - 1), 0.1, 1.0, 0.1), rel=1e-9)
    # an upper bound: above the information gain of random multisets of t grid points
    rng = np.random.default_rng(1)
    for t in (1, 3, 10, 30):
        for _ in range(5):
            idx = rng.integers(0, 40, t)
            gain = 0.5 * np.linalg.slogdet(np.eye(t) + K[np.ix_(idx, idx)] / lam)[1]
            assert gain <= bound(t) * (1 + 1e-12)


def test_the_width_grows_with_t():
    rule = igpucb_theory(B=1.0, R=0.1, delta=0.1)
    grid = np.linspace(0, 1, 30)[:, None]
    bound = grid_gain_bound(se(grid, grid, 0.2), 0.01)
    values = np.array([rule.value(t, gain_bound=bound) for t in range(1, 300)])
    assert np.all(np.diff(values) >= 0) and values[-1] > values[0]
    # along a run the queried gain can only grow (a static posterior keeps every point)
    env = make_env("gp-sample", {"points_per_dim": 30})
    trace = run(make_policy("gp-ucb", {}, igpucb_theory(B="env", R=0.1, gamma="queried")), env, 60,
                np.random.default_rng(2))
    assert np.all(np.diff(trace.beta) >= -1e-12) and trace.beta[-1] > trace.beta[0]


@pytest.mark.parametrize("gamma", ["bound", "queried"])
def test_a_gp_ucb_run_with_it_is_well_defined(gamma):
    T = 60
    env = make_env("gp-sample", {"points_per_dim": 40, "noise_var": 0.01})
    policy = make_policy("gp-ucb", {"lam": 1.0 + 2.0 / T}, igpucb_theory(B="env", R=0.1, gamma=gamma))
    trace = run(policy, env, T, np.random.default_rng(5))
    assert np.all(np.isfinite(trace.beta)) and np.all(np.isfinite(trace.cumulative))
    B = env.problem_extra()["rkhs_bound"]
    assert policy.config()["beta"]["B"] == pytest.approx(B) and policy.config()["lam"] == pytest.approx(1 + 2 / T)
    assert trace.beta[0] == pytest.approx(printed(0.0, 0.1, B, 0.1))  # γ_0 = 0
    if gamma == "queried":  # β_t from the points the trace played before t, with λ = 1 + 2/T
        t = 25
        X = env.grid[trace.index[: t - 1]]
        gain = 0.5 * np.linalg.slogdet(np.eye(t - 1) + se(X, X, 0.2) / (1 + 2 / T))[1]
        assert trace.beta[t - 1] == pytest.approx(printed(gain, 0.1, B, 0.1), rel=1e-9)
    replay = audit(make_policy("gp-ucb", {}, igpucb_theory(B="env", R=0.1, gamma=gamma)),
                   make_env("gp-sample", {"points_per_dim": 40}), T, 30, np.random.default_rng(0))
    assert replay.audited and replay.reproduces, replay.text()


def test_parameters_are_validated_at_construction():
    with pytest.raises(ValueError, match=r"needs parameter 'R', which is missing; its parameters: B, R, delta; "
                                         r"optional: gamma, B_from"):
        BetaRule("igp-ucb", {"B": 1.0, "delta": 0.1})
    with pytest.raises(ValueError, match="has no parameter 'lam'"):
        BetaRule("igp-ucb", {"B": 1.0, "R": 0.1, "delta": 0.1, "lam": 1.0})
    with pytest.raises(ValueError, match="^gamma must be one of"):
        igpucb_theory(B=1.0, R=0.1, gamma="max")
    with pytest.raises(ValueError, match="^delta"):
        igpucb_theory(B=1.0, R=0.1, delta=1.0)
    with pytest.raises(ValueError, match="^R"):
        igpucb_theory(B=1.0, R=-0.1)
    with pytest.raises(ValueError, match="^B"):
        igpucb_theory(B=-1.0, R=0.1)
    with pytest.raises(ValueError, match="^delta"):
        igpucb_theory(B="env", R=0.1, delta=0.0)  # the other parameters are checked when B comes from the environment
    with pytest.raises(ValueError, match="needs an upper bound of the information gain"):
        igpucb_theory(B=1.0, R=0.1).value(3)
    with pytest.raises(ValueError, match="needs parameter 'delta'"):  # the other kinds name theirs too
        BetaRule("kk", {"B": 1.0})
    resolved = igpucb_theory(B="env", R=0.1).resolve({"rkhs_bound": 2.5})
    assert resolved.params["B"] == 2.5 and resolved.params["B_from"] == "env"


def test_the_command_line_spelling():
    assert parse_beta("igp-ucb:2,0.1") == igpucb_theory(B=2.0, R=0.1)
    assert parse_beta("igp-ucb:env,0.1,0.05:queried") == igpucb_theory(B="env", R=0.1, delta=0.05, gamma="queried")
    with pytest.raises(ValueError, match="igp-ucb:B,R"):
        parse_beta("igp-ucb:2")
