"""Helpers of ``claims/wsparq/algorithms.py``."""

import numpy as np

from tvbo_verify.dpp import sample_kdpp
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.papers.wsparq.checks import algorithms as A


def test_chi_square_accepts_the_sampler_and_rejects_uniform_subsets():
    rng = np.random.default_rng(4)
    K = SquaredExponential(1.0, 1.0)(np.sort(rng.uniform(0, 5, 8))[:, None])
    subsets, probs = A.kdpp_law(K, 3)
    assert abs(probs.sum() - 1) < 1e-12
    assert A.chi_square_pvalue(sample_kdpp(K, 3, rng, "exact", size=3000), subsets, probs) > 1e-4
    assert A.chi_square_pvalue(A.uniform_subsets(8, 3, 3000, rng), subsets, probs) < 1e-6


def test_distinct_counts():
    assert A.distinct_counts(np.array([3, 3, 5, 3, 7])).tolist() == [1, 1, 2, 2, 3]


def test_virtual_dataset_cases_partition_the_indices():
    p = {"part": "variance", "seed": 0, "alpha": 1.0, "alpha_tilde": 0.25, "T": 30, "t": 23}
    labels, var, _ = A.VIRTUAL.cases(p)
    assert labels.size == 23 and set(labels.tolist()) <= {1, 2, 3} and np.all(var >= 1)
    assert A.VIRTUAL.evaluate(p).margin >= 0
