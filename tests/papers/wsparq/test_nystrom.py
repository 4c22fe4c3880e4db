"""Helpers of ``claims/wsparq/nystrom.py``."""

import numpy as np
import pytest

from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.nystrom import residual_diagonal
from tvbo_verify.papers.wsparq.checks import nystrom as N


def test_schur_complement_variances_equal_the_nystrom_residual():
    X = np.random.default_rng(1).uniform(0, 10, (7, 1))
    K = SquaredExponential(1.0, 1.0)(X)
    S = [0, 3, 5]
    assert N.noiseless_posterior_variances(K, S) == pytest.approx(residual_diagonal(K, S), abs=1e-12)
    noisy = N.noisy_posterior_variances(K, S, 0.01)
    assert np.all(noisy >= N.noiseless_posterior_variances(K, S) - 1e-12) and noisy[0] > 0


def test_definition_misreadings_are_material_and_the_statement_holds():
    p = {"part": "full", "X": [1.0, 1.5, 4.0], "S": [0], "lengthscale": 1.0, "variance": 1.0, "perm": [0]}
    assert N.DEFINITION_37.evaluate(p).margin >= 0
    assert N.DEFINITION_37.evaluate(p, sharpened=True).margin < 0
    q = {**p, "part": "trace", "S": [1]}
    assert N.DEFINITION_37.evaluate(q).margin >= 0 and N.DEFINITION_37.evaluate(q, sharpened=True).margin < 0


def test_extended_instance_indices():
    X, S, XA, SA = N.LandmarkInstance.extended({"X": [0.0, 1.0], "S": [1], "A": [5.0, 6.0]})
    assert XA.shape == (4, 1) and SA == [1, 2, 3] and S == [1] and X.shape == (2, 1)
