"""Helpers of ``tvbo_verify.papers.tvgpucb.checks.instances``."""

from __future__ import annotations

import numpy as np

from tvbo_verify.information import exact_max_information_gain
from tvbo_verify.kernels import SquaredExponential
from tvbo_verify.papers.tvgpucb.checks.instances import column, draw_sequence, exact_gamma, sequence_instance


def test_sequences_have_the_drawn_kind_and_length():
    rng = np.random.default_rng(0)
    for _ in range(20):
        p = draw_sequence(rng, 7, 0.01, 0.05)
        assert len(p["X"]) == 7 and p["sequence"] in ("constant", "random", "greedy")
        if p["sequence"] == "constant":
            assert len(set(p["X"])) == 1
    q = sequence_instance(rng)
    assert 2 <= len(q["X"]) <= 30 and 1e-3 <= q["noise_var"] <= 10**0.3


def test_exact_gamma_is_the_toolkit_enumeration():
    k = SquaredExponential(1.0, 0.2)
    dom = (0.0, 0.3)
    assert exact_gamma(dom, 0.2, 0.05, 3) == exact_max_information_gain(k, column(dom), 3, 0.05).value
