"""Helpers of ``claims/sparq/kl.py`` and the referee twins they use."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from tvbo_verify import highprecision as rf
from tvbo_verify.divergences import expected_subset_kl
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.lemmas.sparse_kl import VARIATIONAL_CHAIN, VirtualSet
from tvbo_verify.nystrom import gram_mp
from tvbo_verify.verify.stats import DEFAULT_POLICY, Instance


def test_virtual_sets_have_expert_points_among_discarded_distinct_inputs():
    rng = np.random.default_rng(0)
    for _ in range(20):
        p = VirtualSet.sample(rng)
        n, recent = len(p["X"]), p["recent"]
        assert all(0 <= i < n - recent or n == recent for i in p["E"])
        assert len({p["X"][i] for i in p["E"]}) == len(p["E"])
        assert set(VirtualSet.sparse(p)) >= set(p["E"])


def test_shared_subset_kl_twin_agrees_with_the_toolkit_with_repeated_inputs():
    X = np.array([0.0, 0.0, 1.0, 2.5, 2.5, 4.0])
    noise = np.array([0.01, 0.01, 0.02, 0.01, 0.05, 0.01])
    K = SquaredExponential(1.0, 1.0)(X[:, None])
    S = [0, 2, 3]
    locs, loc = np.unique(X, return_inverse=True)
    with mpmath.workdps(40):
        Kd = rf.mpmat(gram_mp(SquaredExponential(1.0, 1.0), locs[:, None], dps=40))
        hp = rf.expected_subset_kl_shared(Kd, loc.tolist(), [mpmath.mpf(v) for v in noise], S)
    assert float(hp) == pytest.approx(expected_subset_kl(K, noise, S, outputs="shared"), rel=1e-8)


@pytest.mark.parametrize("X, part", [([1.0, 2.5, 4.0, 7.0], "draw"), ([0.3, 1.1, 3.0, 5.0, 8.0], "dpp")])
def test_variational_chain_reads_rounding_at_a_complete_expert_set_as_rounding(X, part):
    """With every input an expert point Q = K: both sides of (51)/(54) are 0 and the float values (about 3e-14)
    are rounding of terms of magnitude log det and tr K/σ², which the statement's scale must cover."""
    p = {"X": X, "noise": [0.01] * len(X), "recent": 0, "lengthscale": 0.86 if part == "draw" else 0.51,
         "part": part, "E": list(range(len(X))), "N": len(X)}
    c = VARIATIONAL_CHAIN.evaluate(p)
    assert abs(c.value) < 1e-12 and abs(c.bound) < 1e-12
    assert not Instance(p, c).broken(DEFAULT_POLICY)


def test_variational_chain_scale_leaves_the_halved_bounds_caught():
    p = {"X": [1.0, 2.5, 4.0, 7.0], "noise": [0.01] * 4, "recent": 0, "lengthscale": 1.5, "part": "draw", "E": [1]}
    stated, sharpened = VARIATIONAL_CHAIN.evaluate(p), VARIATIONAL_CHAIN.evaluate(p, sharpened=True)
    assert not Instance(p, stated).broken(DEFAULT_POLICY)
    assert Instance(p, sharpened).broken(DEFAULT_POLICY)


def test_eq_24_fixes_eta_and_delta_before_it_draws_anything():
    """The bound of (24) may not read the measurement: a context that has already drawn refuses the constants."""
    from tvbo_verify.papers.sparq.checks.kl import eq_24, markov_bound
    from tvbo_verify.verify import Context
    from tvbo_verify.verify.comparison import CircularBoundError

    ctx = Context("sparq:eq-24")
    ctx.seeds(1)
    with pytest.raises(CircularBoundError):
        eq_24(ctx)
    assert markov_bound({"eta": 0.1, "delta": 0.05}) == pytest.approx(0.05)  # 2η'/δ with η' = δη/4


def test_sparse_kl_draws_measure_the_posterior_sparq_fits_against_the_pretend_one():
    """At a round of a recorded run, KL[P^s ‖ P^v] is finite, positive and far above η' = δη/4 = 1.25e-3: the
    premise (23) fails on SparQ's own posterior."""
    from tvbo_verify.papers.sparq.checks.kl import sparse_kl_draws

    seed = np.random.SeedSequence(5)
    kl = sparse_kl_draws((seed, 40, 123, 20, 25))
    assert kl.shape == (25,) and np.all(np.isfinite(kl)) and np.all(kl > 0)
    assert np.array_equal(kl, sparse_kl_draws((np.random.SeedSequence(5), 40, 123, 20, 25)))
    assert kl.mean() > 10 * 1.25e-3
