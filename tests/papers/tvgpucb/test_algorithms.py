"""Helpers of ``tvbo_verify.papers.tvgpucb.checks.algorithms``."""

from __future__ import annotations

import numpy as np

from tvbo_verify.bandits import run
from tvbo_verify.papers.tvgpucb.checks.algorithms import fresh_rng, markov_environment, reset_policy


def test_fresh_rng_reproduces_a_run_from_one_seed_sequence():
    seed = np.random.SeedSequence(7).spawn(1)[0]
    a = run(reset_policy(None, 3), markov_environment(), 10, fresh_rng(seed))
    b = run(reset_policy(None, 3), markov_environment(), 10, fresh_rng(seed))
    assert a.same_run(b)


def test_printed_reset_test_never_fires_for_n_1():
    seed = np.random.SeedSequence(1)
    printed = reset_policy("printed t mod N = 1", 1)
    run(printed, markov_environment(), 6, fresh_rng(seed))
    corrected = reset_policy(None, 1)
    run(corrected, markov_environment(), 6, fresh_rng(seed))
    assert printed.resets == [] and corrected.resets == [1, 2, 3, 4, 5, 6]
    ends = reset_policy("block end t mod N = 0", 3)
    run(ends, markov_environment(), 7, fresh_rng(seed))
    assert ends.resets == [3, 6]
