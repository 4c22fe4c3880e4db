"""The mpmath building blocks of the claim referee agree with the float64 toolkit."""

import mpmath
import numpy as np
import pytest

from tvbo_verify import highprecision as rf
from tvbo_verify.divergences import expected_subset_kl
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.nystrom import gram_mp


@pytest.mark.parametrize("outputs", ["fresh", "shared"])
def test_repeated_inputs_twin_matches_float_and_the_plain_twin(outputs):
    kern = SquaredExponential(1.0, 1.0)
    distinct = np.array([[1.0], [2.5], [4.0]])
    rows = [0, 0, 1, 2, 2, 2]
    X = distinct[rows]
    noise = 0.1
    S = [1, 2, 4]
    with mpmath.workdps(50):
        Ku = rf.mpmat(gram_mp(kern, distinct, dps=50))
        twin = rf.expected_subset_kl_repeated(Ku, rows, [mpmath.mpf(noise)] * len(rows), S, shared=outputs == "shared")
    assert float(twin) == pytest.approx(expected_subset_kl(kern(X), noise, S, outputs=outputs), rel=1e-7)
    # without repetitions it is the plain twin
    with mpmath.workdps(50):
        K = rf.mpmat(gram_mp(kern, distinct, dps=50))
        plain = rf.expected_subset_kl_fresh(K, [mpmath.mpf(noise)] * 3, [0, 2])
        same = rf.expected_subset_kl_repeated(K, [0, 1, 2], [mpmath.mpf(noise)] * 3, [0, 2])
        everything = rf.expected_subset_kl_repeated(K, [0, 1, 2], [mpmath.mpf(noise)] * 3, [0, 1, 2], shared=True)
    assert abs(plain - same) < mpmath.mpf(10) ** -40
    assert abs(everything) < mpmath.mpf(10) ** -40  # the subset is everything: same posterior


def test_posterior_and_beta_twins_match_the_toolkit():
    from tvbo_verify.confidence import beta_wsparq_log_det
    from tvbo_verify.gp import posterior_full

    kern = SquaredExponential(1.0, 1.0)
    rng = np.random.default_rng(2)
    X, xs = rng.uniform(0, 10, (6, 1)), np.array([[3.3]])
    y, noise = rng.normal(size=6), 0.1 * (1 + np.arange(6.0)[::-1] ** 1.5)
    post = posterior_full(kern, X, y, noise, xs)
    with mpmath.workdps(50):
        K = rf.mpmat(gram_mp(kern, X, dps=50))
        ks = rf.mpmat(gram_mp(kern, X, xs, dps=50))
        mean, var = rf.posterior_mp(K, ks, mpmath.mpf(1), [mpmath.mpf(v) for v in y], [mpmath.mpf(v) for v in noise])
        beta = rf.beta_wsparq_mp(K, [mpmath.mpf(v) for v in noise], mpmath.mpf("0.1"), 1)
    assert float(mean) == pytest.approx(post.mean[0], rel=1e-12) and float(var) == pytest.approx(post.var[0], rel=1e-10)
    assert float(beta) == pytest.approx(beta_wsparq_log_det(kern(X), noise, 0.1, 1.0), rel=1e-13)
