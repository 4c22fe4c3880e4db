"""Helpers of ``claims/sparq/posteriors.py`` and the referee twins they use."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from tvbo_verify import highprecision as rf
from tvbo_verify.divergences import titsias_elbo
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.nystrom import gram_mp
from tvbo_verify.papers.sparq.checks.posteriors import HETEROSCEDASTIC, GpInstance


def test_reference_and_mpmath_posteriors_agree_with_the_toolkit():
    p = HETEROSCEDASTIC.sample(np.random.default_rng(4))
    m, v = GpInstance.mean_var(p)
    rm, rv = GpInstance.reference(p, np.asarray(p["noise"]))
    with mpmath.workdps(40):
        hm, hv = GpInstance.mean_var_mp(p)
    assert (m, v) == pytest.approx((rm, rv), rel=1e-7, abs=1e-10)
    assert (m, v) == pytest.approx((float(hm), float(hv)), rel=1e-8, abs=1e-12)


def test_explicit_elbo_equals_the_collapsed_bound():
    rng = np.random.default_rng(5)
    X = rng.uniform(0, 10, 7)
    y, noise = rng.normal(size=7), 10 ** rng.uniform(-2, 0, 7)
    kern = SquaredExponential(1.0, 1.5)
    S = [1, 4, 6]
    with mpmath.workdps(40):
        ref = rf.explicit_titsias_elbo(rf.mpmat(gram_mp(kern, X[:, None], dps=40)), [mpmath.mpf(v) for v in y],
                                       [mpmath.mpf(v) for v in noise], S)
    assert float(ref) == pytest.approx(titsias_elbo(kern(X[:, None]), y, noise, S), rel=1e-9)
