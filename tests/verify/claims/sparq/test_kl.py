"""Helpers of ``claims/sparq/kl.py`` and the referee twins they use."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from tvbo_verify.divergences import expected_subset_kl
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.nystrom import gram_mp
from tvbo_verify.verify import referee as rf
from tvbo_verify.verify.claims.common.sparse_kl import VirtualSet


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
