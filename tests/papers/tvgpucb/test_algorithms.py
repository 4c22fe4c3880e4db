"""Helpers of ``tvbo_verify.papers.tvgpucb.checks.algorithms``."""

from __future__ import annotations

import numpy as np

from tvbo_verify.papers.tvgpucb.checks.algorithms import markov_run, reset_policy


def test_markov_run_reproduces_a_run_from_one_seed_sequence_and_keeps_it_for_the_audit():
    seed = np.random.SeedSequence(7).spawn(1)[0]
    played: list = []
    a = markov_run(reset_policy(None, 3), 10, seed, played)
    b = markov_run(reset_policy(None, 3), 10, seed, played)
    assert a.same_run(b) and [p.trace for p in played] == [a, b]


def test_printed_reset_test_never_fires_for_n_1():
    seed = np.random.SeedSequence(1)
    printed = reset_policy("printed t mod N = 1", 1)
    markov_run(printed, 6, seed, [])
    corrected = reset_policy(None, 1)
    markov_run(corrected, 6, seed, [])
    assert printed.resets == [] and corrected.resets == [1, 2, 3, 4, 5, 6]
    ends = reset_policy("block end t mod N = 0", 3)
    markov_run(ends, 7, seed, [])
    assert ends.resets == [3, 6]
