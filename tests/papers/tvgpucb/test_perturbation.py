"""Helpers of ``tvbo_verify.papers.tvgpucb.checks.perturbation``."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from tvbo_verify.information import information_gain, tv_information_gain
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.papers.tvgpucb.checks.instances import column
from tvbo_verify.papers.tvgpucb.checks.perturbation import (
    EQ60_PRINTED,
    EigenvalueBudget,
    ForgettingPerturbation,
    InformationIncrease,
    Mirsky,
)


def test_information_increase_is_the_gain_difference_and_the_printed_bound_breaks_at_n_2():
    p = {"sequence": "constant", "X": [0.5, 0.5], "lengthscale": 0.2, "noise_var": 0.01, "epsilon": 0.01}
    k = SquaredExponential(1.0, 0.2)
    gap = tv_information_gain(k, column(p["X"]), 0.01, 0.01) - information_gain(k, column(p["X"]), 0.01)
    assert InformationIncrease.gap(p) == pytest.approx(gap) == pytest.approx(0.2019026783449056, rel=1e-12)
    assert EQ60_PRINTED.instance(p).margin < 0
    # the sampler admits the whole class: small noise and small n are drawn
    rng = np.random.default_rng(1)
    draws = [InformationIncrease.sample(rng) for _ in range(200)]
    assert min(d["noise_var"] for d in draws) < 1e-4 and min(len(d["X"]) for d in draws) == 2


@pytest.mark.parametrize("N,eps", [(1, 0.3), (2, 1e-3), (9, 0.05), (30, 1.0)])
def test_maximiser_of_61_has_equal_entries_n_to_the_three_halves_eps(N, eps):
    d = EigenvalueBudget.maximiser(N, eps)
    np.testing.assert_allclose(d, N**1.5 * eps, rtol=1e-10)
    with mpmath.workdps(50):
        hp = EigenvalueBudget.newton([mpmath.mpf(x) for x in d], N**2 * mpmath.mpf(eps), mpmath, steps=6)
        assert abs(hp[0] - mpmath.mpf(N) ** 1.5 * mpmath.mpf(eps)) < mpmath.mpf(10) ** -40


def test_double_sum_part_is_exact_and_frobenius_part_holds():
    st = ForgettingPerturbation()
    for N in (2, 5, 17):
        c = st.evaluate({"part": "double-sum", "N": N, "epsilon": 0.1})
        assert c.value == c.bound
    c = st.evaluate({"part": "frobenius", "matrix": "uniform", "N": 3, "K": np.ones((3, 3)).tolist(), "epsilon": 1.0})
    assert c.value == pytest.approx(6.0) and c.bound == pytest.approx(12.0)


def test_mirsky_pair_is_symmetrised():
    U, V = Mirsky.pair({"U": [[1.0, 2.0], [0.0, 1.0]], "V": [[0.0, 0.0], [0.0, 0.0]]})
    np.testing.assert_array_equal(U, U.T)
    assert U[0, 1] == 1.0
