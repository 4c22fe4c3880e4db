"""The synthetic benchmarks of bolt App. F at their known optima, and their signal variances."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.bandits.environments.benchmarks import BENCHMARKS, signal_variance

OPTIMA = {
    "Hartmann-3": ([0.114614, 0.555649, 0.852547], -3.86278),
    "Hartmann-6": ([0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573], -3.32237),
    "Shekel": ([4.0, 4.0, 4.0, 4.0], -10.5364),
    "Eggholder": ([512.0, 404.2319], -959.6407),
    "Schwefel": ([420.9687] * 4, 0.0),
    "Ackley": ([0.0] * 4, 0.0),
    "Griewank": ([0.0] * 6, 0.0),
    "Powell": ([0.0] * 4, 0.0),
}


@pytest.mark.parametrize("name", sorted(OPTIMA))
def test_benchmarks_reach_their_known_minima(name):
    z, value = OPTIMA[name]
    b = BENCHMARKS[name]
    assert b(np.array([z]))[0] == pytest.approx(value, abs=2e-4)
    rng = np.random.default_rng(0)
    sample = b(b.low + (b.high - b.low) * rng.uniform(size=(2000, b.dim)))
    assert sample.min() >= value - 1e-6


def test_signal_variance_is_stable_and_checks_dimensions():
    b = BENCHMARKS["Hartmann-3"]
    assert signal_variance(b) == pytest.approx(signal_variance(b, seed=3, log2_points=16), rel=0.01)
    with pytest.raises(ValueError, match="dimension 3"):
        b(np.zeros((1, 4)))
