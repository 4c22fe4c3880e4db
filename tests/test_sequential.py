"""The sequential design of :mod:`tvbo_verify.sequential`: looks, levels, stop rule."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from tvbo_verify.sequential import (
    MAX_DRAWS,
    MIN_DRAWS,
    SequentialDesign,
    bootstrap_draws,
    expanded_level,
    run_sequential,
)


def test_looks_double_up_to_the_cap_and_share_the_level():
    d = SequentialDesign(5, 80)
    assert d.looks() == (5, 10, 20, 40, 80)
    assert d.look_level() == pytest.approx(1 - 0.05 / 5)
    assert SequentialDesign(6, 24).looks() == (6, 12, 24)
    assert SequentialDesign(4, 4).looks() == (4,)
    assert SequentialDesign(3, 10).looks() == (3, 6, 10)


@pytest.mark.parametrize("kwargs, match", [({"start": 1, "cap": 4}, "start"), ({"start": 5, "cap": 4}, "cap"),
                                           ({"start": 2, "cap": 4, "level": 1.0}, "level")])
def test_a_bad_design_is_refused_with_its_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        SequentialDesign(**kwargs)


def test_the_expanded_level_matches_a_student_interval():
    # Hesterberg (2015): z_{1-α'/2} = √(n/(n-1)) t_{n-1, 1-α/2}
    n, level = 5, 0.95
    z = math.sqrt(n / (n - 1)) * stats.t.ppf(0.975, n - 1)
    assert expanded_level(n, level) == pytest.approx(1 - 2 * stats.norm.sf(z))
    assert expanded_level(n, level) > 0.99  # far wider than the nominal 95 % at five repetitions
    assert expanded_level(10_000, level) == pytest.approx(level, abs=1e-3)
    assert expanded_level(1, level) == level


def test_the_expanded_percentile_interval_covers_at_small_samples():
    # the plain percentile bootstrap of a mean over 5 normal draws covers about 82 %, the expanded one about 90 %
    rng = np.random.default_rng(0)
    n, trials, hits, plain = 5, 600, 0, 0
    level = expanded_level(n, 0.95)
    for _ in range(trials):
        x = rng.standard_normal(n)
        means = x[rng.integers(0, n, size=(bootstrap_draws(level), n))].mean(axis=1)
        lo, hi = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
        hits += lo <= 0 <= hi
        plo, phi = np.quantile(means[:500], [0.025, 0.975])
        plain += plo <= 0 <= phi
    assert plain / trials < 0.86 < 0.88 < hits / trials


def test_bootstrap_draws_reach_the_tails():
    assert bootstrap_draws(0.95) == MIN_DRAWS
    assert bootstrap_draws(0.999) == MAX_DRAWS and bootstrap_draws(0.99) == 2000
    assert bootstrap_draws(1.0) == MAX_DRAWS


def test_the_design_stops_at_the_first_decided_look_or_at_the_cap():
    seen = []

    def decide(n, level):
        seen.append((n, level))
        return ("violated" if n >= 20 else "inconclusive"), {"n seen": n}

    record = run_sequential(SequentialDesign(5, 80), decide)
    assert [n for n, _ in seen] == [5, 10, 20] and record.verdict == "violated" and not record.capped
    assert seen[0][1] > seen[1][1] > seen[2][1]  # fewer repetitions, wider interval
    assert record.to_dict()["repetitions"] == 20 and "decided violated at 20" in record.text()

    capped = run_sequential(SequentialDesign(3, 6), lambda n, level: ("inconclusive", {}))
    assert capped.capped and capped.last.n == 6 and "cap of 6" in capped.text()
