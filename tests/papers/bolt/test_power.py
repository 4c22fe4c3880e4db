"""Run-based bolt claims against a broken run: the check must stop being confirmed.

Corollary 3.7 (every TVBO algorithm has linear regret) holds because the objective keeps changing while the
learner works. With the bug "the simulated clock does not advance" (the response time computed and dropped),
the objective is the same at every iteration, the algorithms learn it and their regret grows sublinearly:
the lower-rate check must refute Ω(T) instead of confirming it. The patch reaches every run because the claim
runs serially on a fresh run cache.
"""

from __future__ import annotations

import pytest

from tvbo_verify.bandits.environments import SpatioTemporalGP
from tvbo_verify.execution import Executor
from tvbo_verify.sweeps import RunCache
from tvbo_verify.verify import Verdict, run_claim


@pytest.mark.slow  # about a minute: the claim's ten runs of T = 1000 per algorithm, from a fresh cache
def test_corollary_3_7_catches_a_clock_that_does_not_advance(monkeypatch, tmp_path):
    def clock_stopped(self, dataset_size: int = 0) -> None:
        float(self.response_time(int(dataset_size)))  # the response time is computed, and then not added
        self.step += 1
        self._current = None
        self._new_time()

    monkeypatch.setattr(SpatioTemporalGP, "advance", clock_stopped)
    # the rate part only: the floor set-ups of Theorem 3.6 are tested in test_floor.py
    from tvbo_verify.papers.bolt import reproductions as rb
    from tvbo_verify.papers.bolt.reproductions import regret

    monkeypatch.setattr(regret, "FLOOR_SPATIAL_LENGTHSCALES", ())
    monkeypatch.setattr(rb, "FLOOR_SPATIAL_LENGTHSCALES", ())
    ev = run_claim("bolt:corollary-3.7", executor=Executor(), cache=RunCache(tmp_path))
    assert ev.verdict is Verdict.VIOLATED, ev.summary
    assert "GP-UCB: R_T grows linearly (R_T/T does not decay)" in ev.stats["failed"]
    assert ev.power.caught  # the weakened rate Ω(√T) is not refuted: the refutation is not by construction
