"""k-DPP: exact law, closed-form expected residual trace, exact and MCMC samplers against enumeration.

Total-variation threshold used for a sampler with ``n`` independent draws against a law supported on
``m`` subsets: the empirical TV has expectation ``E TV ≤ ½ Σ_s √(p_s(1−p_s)/n) ≤ ½ √(m/n)``
(Jensen, then Cauchy–Schwarz), and it moves by at most ``1/n`` when one draw changes, so McDiarmid
gives ``P(TV ≥ E TV + t) ≤ exp(−2 n t²)``. With ``t = √(ln(1/δ)/(2n))`` and ``δ = 10⁻⁶`` the threshold
``½√(m/n) + t`` is exceeded by a correct sampler with probability ≤ 10⁻⁶. For the MCMC sampler the
target accuracy ε of its iteration count is added (its law is within ε of the k-DPP).
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tvbo_verify.dpp import (
    expected_residual_trace,
    greedy_init,
    kdpp_probability,
    log_elementary_symmetric,
    log_normaliser,
    mcmc_iterations,
    sample_kdpp,
    schur_complements,
    start_log_inv_probability,
    swap_acceptance,
    swap_chain_transition_matrix,
)
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.nystrom import residual_trace


def _kernel_matrix(seed, n=8, lengthscale=0.7):
    rng = np.random.default_rng(seed)
    X = rng.uniform(0, 3, (n, 1))
    return SquaredExponential(1.0, lengthscale)(X)


def _exact_law(K, k):
    subsets = list(itertools.combinations(range(K.shape[0]), k))
    p = np.array([kdpp_probability(K, s) for s in subsets])
    return subsets, p


def _tv(samples, subsets, p):
    index = {s: i for i, s in enumerate(subsets)}
    counts = np.zeros(len(subsets))
    for s in samples:
        counts[index[tuple(int(v) for v in s)]] += 1
    return 0.5 * float(np.abs(counts / len(samples) - p).sum())


def _threshold(m, n, delta=1e-6):
    return 0.5 * math.sqrt(m / n) + math.sqrt(math.log(1 / delta) / (2 * n))


def test_normaliser_is_elementary_symmetric_polynomial_and_law_sums_to_one():
    K = _kernel_matrix(0)
    subsets = list(itertools.combinations(range(8), 3))
    total = sum(np.linalg.det(K[np.ix_(s, s)]) for s in subsets)
    assert math.exp(log_normaliser(K, 3)) == pytest.approx(total, rel=1e-10)
    lam = np.clip(np.linalg.eigvalsh(K), 0, None)
    assert math.exp(log_elementary_symmetric(lam, 3)[3]) == pytest.approx(total, rel=1e-10)
    _, p = _exact_law(K, 3)
    assert p.sum() == pytest.approx(1.0, abs=1e-10)


def test_subsets_with_repeated_inputs_have_probability_zero():
    X = np.array([[0.0], [0.0], [1.0], [2.0], [3.5]])
    K = SquaredExponential(1.0, 1.0)(X)
    assert kdpp_probability(K, [0, 1, 2]) == 0.0
    assert kdpp_probability(K, [0, 2, 3]) > 0.0


@settings(max_examples=20)
@given(seed=st.integers(0, 10_000), n=st.integers(3, 8), k=st.integers(1, 5), ls=st.sampled_from([0.3, 1.0, 3.0]))
def test_expected_residual_trace_closed_form_equals_enumeration(seed, n, k, ls):
    k = min(k, n - 1)
    K = _kernel_matrix(seed, n, ls) + 1e-3 * np.eye(n)  # keep every subset non-singular
    subsets, p = _exact_law(K, k)
    enum = sum(pi * residual_trace(K, s) for pi, s in zip(p, subsets))
    assert expected_residual_trace(K, k) == pytest.approx(enum, rel=1e-8, abs=1e-12)
    # sparq Prop. 8 / Burt et al. Cor. 8 at TV = 0: E tr(K − U) ≤ (k+1) Σ_{m>k} λ_m
    lam = np.sort(np.clip(np.linalg.eigvalsh(K), 0, None))[::-1]
    assert enum <= (k + 1) * lam[k:].sum() * (1 + 1e-9) + 1e-12


def test_schur_complement_product_is_determinant_eq_33():
    K = _kernel_matrix(5, n=20, lengthscale=0.4) + 1e-6 * np.eye(20)
    order = np.random.default_rng(5).permutation(20)[:12]
    assert np.prod(schur_complements(K, order)) == pytest.approx(np.linalg.det(K[np.ix_(order, order)]), rel=1e-8)


def test_greedy_init_is_greedy_determinant_maximisation():
    K = _kernel_matrix(7, n=12)
    picks = greedy_init(K, 5)
    assert len(set(picks.tolist())) == 5
    chosen = []
    for _ in range(5):  # brute-force greedy: maximise det K_{Z ∪ {x}}, ties to the smallest index
        dets = [np.linalg.det(K[np.ix_(chosen + [x], chosen + [x])]) if x not in chosen else -1.0 for x in range(12)]
        chosen.append(int(np.argmax(dets)))
    assert picks.tolist() == chosen


def test_swap_acceptance_matches_determinant_ratio():
    K = _kernel_matrix(2)
    Z, i, j = [0, 3, 5], 3, 6
    Zp = [0, 6, 5]
    ratio = np.linalg.det(K[np.ix_(Zp, Zp)]) / np.linalg.det(K[np.ix_(Z, Z)])
    assert swap_acceptance(K, Z, i, j) == pytest.approx(0.5 * min(1.0, ratio), rel=1e-10)


def test_exact_sampler_matches_enumerated_law_in_total_variation():
    K = _kernel_matrix(1)
    subsets, p = _exact_law(K, 3)
    n = 8000
    samples = sample_kdpp(K, 3, np.random.default_rng(0), size=n)
    assert _tv(samples, subsets, p) <= _threshold(len(subsets), n)
    # power: uniform subsets (a wrong sampler) are rejected by the same threshold
    rng = np.random.default_rng(1)
    uniform = [tuple(sorted(rng.choice(8, 3, replace=False))) for _ in range(n)]
    assert _tv(uniform, subsets, p) > _threshold(len(subsets), n)


def test_mcmc_chains_from_greedy_start_match_enumerated_law_in_total_variation():
    K = _kernel_matrix(1)
    subsets, p = _exact_law(K, 3)
    n, eps = 8000, 0.01
    samples = sample_kdpp(K, 3, np.random.default_rng(2), "mcmc", size=n, eps=eps)
    assert _tv(samples, subsets, p) <= _threshold(len(subsets), n) + eps
    # power: chains far too short to leave the greedy start fail the same test
    short = sample_kdpp(K, 3, np.random.default_rng(3), "mcmc", size=n, n_iter=2)
    assert _tv(short, subsets, p) > _threshold(len(subsets), n) + eps


def test_single_chain_follows_the_vectorised_chain_exactly():
    K = _kernel_matrix(4, n=60, lengthscale=0.3)
    a = sample_kdpp(K, 6, np.random.default_rng(9), "mcmc", n_iter=4000)
    b = sample_kdpp(K, 6, np.random.default_rng(9), "mcmc", n_iter=4000, size=1)
    assert a.tolist() == b[0].tolist()


def test_single_chain_matches_law_in_total_variation():
    K = _kernel_matrix(1)
    subsets, p = _exact_law(K, 3)
    n = 600
    rng = np.random.default_rng(8)
    samples = [sample_kdpp(K, 3, rng, "mcmc") for _ in range(n)]
    assert _tv(samples, subsets, p) <= _threshold(len(subsets), n) + 0.01


def test_default_iterations_follow_the_mixing_bound():
    K = _kernel_matrix(1)
    Z0 = greedy_init(K, 3)
    subsets, p = _exact_law(K, 3)
    pi0 = p[subsets.index(tuple(sorted(Z0.tolist())))]
    assert start_log_inv_probability(K, Z0) == pytest.approx(-math.log(pi0), rel=1e-9)
    expected = math.ceil(8 * 3 * (math.log(100) - math.log(pi0)))
    assert mcmc_iterations(8, 3, -math.log(pi0), 0.01) == expected
    # the greedy start is within (k!)² of the mode: log(1/π(Z₀)) ≤ 2 log k! + log C(N, k)
    assert -math.log(pi0) <= 2 * math.lgamma(4) + math.log(math.comb(8, 3))


def test_log_space_sampler_handles_large_spectra_without_overflow():
    rng = np.random.default_rng(0)
    X = rng.uniform(0, 50, (400, 1))
    K = 1e7 * SquaredExponential(1.0, 1.0)(X)  # e_50(λ) ≈ 1e382: overflows float64 in linear space
    assert np.isfinite(log_normaliser(K, 50))
    Z = sample_kdpp(K, 50, rng)
    assert Z.shape == (50,) and len(set(Z.tolist())) == 50


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda K: sample_kdpp(K, 9, np.random.default_rng(0)), r"k must be <= N = 8"),
        (lambda K: sample_kdpp(K, 0, np.random.default_rng(0)), r"k must be an integer >= 1, got 0"),
        (lambda K: sample_kdpp(K, 2, np.random.default_rng(0), "gibbs"), r"method must be one of \{exact, mcmc\}"),
        (lambda K: sample_kdpp(K - 2 * np.eye(8), 2, np.random.default_rng(0)), r"K must be positive semi-definite"),
        (lambda K: sample_kdpp(K, 2, np.random.default_rng(0), "mcmc", init=[1, 1]), r"init must not repeat"),
        (lambda K: sample_kdpp(K, 2, np.random.default_rng(0), "mcmc", init=[1, 2, 3]), r"init must contain k = 2"),
        (lambda K: kdpp_probability(K, [0, 8]), r"S must be indices in \[0, 7\], got 8"),
        (lambda K: expected_residual_trace(K, 20), r"k must be <= N = 8"),
    ],
)
def test_errors_name_parameter_value_and_range(call, match):
    with pytest.raises(ValueError, match=match):
        call(_kernel_matrix(0))


def test_k_larger_than_rank_is_rejected():
    X = np.array([[0.0], [0.0], [0.0], [1.0]])
    K = SquaredExponential(1.0, 1.0)(X)  # rank 2
    for method in ("exact", "mcmc"):
        with pytest.raises(ValueError, match=r"k must be <= rank\(K\) = 2"):
            sample_kdpp(K, 3, np.random.default_rng(0), method)


def test_swap_chain_transition_matrix_is_stochastic_and_reversible_for_the_kdpp():
    K = _kernel_matrix(6, n=7)
    subsets, P = swap_chain_transition_matrix(K, 3)
    _, p = _exact_law(K, 3)
    assert np.allclose(P.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(P >= -1e-15)
    flow = p[:, None] * P
    assert np.allclose(flow, flow.T, atol=1e-14)  # detailed balance ⇒ the k-DPP is stationary
    # the default chain length is enough: exact TV after n_iter steps from the greedy start ≤ ε
    Z0 = tuple(sorted(greedy_init(K, 3).tolist()))
    n_iter = mcmc_iterations(7, 3, start_log_inv_probability(K, list(Z0)), 0.01)
    law = np.zeros(len(subsets))
    law[subsets.index(Z0)] = 1.0
    law = law @ np.linalg.matrix_power(P, n_iter)
    assert 0.5 * np.abs(law - p).sum() <= 0.01
