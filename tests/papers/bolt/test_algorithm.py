"""Helpers of ``bolt:algorithm-1`` (``tvbo_verify.papers.bolt.checks.algorithm``)."""

from __future__ import annotations

import numpy as np

from tvbo_verify.papers.bolt.checks.algorithm import (
    CapTooLarge,
    OldestFirst,
    RecordingBOLT,
    deletion_mismatches,
    run_policy,
)


def test_recorded_deletions_are_the_w2_argmin_and_mutants_differ():
    seed = np.random.SeedSequence(5)
    pol = RecordingBOLT()
    trace = run_policy(pol, 16, seed)
    assert pol.n_star == 11 and trace.dataset_size.max() == 11
    bad, total = deletion_mismatches(pol)
    assert total == 5 and bad == 0
    old = OldestFirst()
    run_policy(old, 16, seed)
    assert deletion_mismatches(old)[0] > 0
    big = CapTooLarge()
    assert run_policy(big, 16, seed).dataset_size.max() == 12
