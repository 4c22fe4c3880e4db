"""Helpers of ``tvbo_verify.papers.tvgpucb.checks.mismatch``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.papers.tvgpucb.checks.mismatch import LEAST_L_TILDE, BlockMismatch, ResolventGap


def test_resolvent_matrices_and_least_l_tilde():
    p = {"X": [0.1, 0.2, 0.5], "lengthscale": 0.2, "noise_var": 0.1, "epsilon": 0.2}
    K, Delta, M_prime = ResolventGap.matrices(p)
    np.testing.assert_array_equal(np.diag(Delta), 0.0)
    assert np.all(Delta <= 0) and np.min(np.linalg.eigvalsh(Delta)) < 0
    A, B = np.linalg.inv(K + 0.1 * np.eye(3)), np.linalg.inv(K + Delta + 0.1 * np.eye(3))
    np.testing.assert_allclose(M_prime, A @ Delta @ B, atol=1e-12)
    assert LEAST_L_TILDE == pytest.approx(2 * math.sqrt(math.log(4 * math.pi**2 / 6)))
    assert BlockMismatch.constant(2, 0.5, 0.1) == pytest.approx((6 + 4) * 8 * 0.1)
