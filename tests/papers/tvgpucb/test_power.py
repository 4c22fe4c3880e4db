"""Run-based tvgpucb claims against a broken policy: the check must stop being accepted.

TV-GP-UCB with its forgetting factor dropped (the posterior of GP-UCB on the drifting model) and the UCB
rule without its width (greedy) are the bugs the negative controls of these claims stand for; here each
bug is put inside the policy itself and the claim rerun (serially, so the patch reaches every run).
"""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.bandits import gpucb, policy
from tvbo_verify.execution import Executor
from tvbo_verify.sweeps import audit
from tvbo_verify.verify import Verdict, run_claim


def test_calibration_claim_catches_the_forgetting_factor_dropped(monkeypatch):
    healthy = run_claim("tvgpucb:eq-28", executor=Executor())
    assert healthy.verdict is Verdict.CONFIRMED and healthy.controls and all(c.failed for c in healthy.controls)

    reset = gpucb.TVGPUCB._reset

    def never_forgets(self):
        reset(self)
        self.forgetting = None
        self.post = self._new_posterior()

    monkeypatch.setattr(gpucb.TVGPUCB, "_reset", never_forgets)
    broken = run_claim("tvgpucb:eq-28", executor=Executor())
    assert broken.verdict is Verdict.VIOLATED
    assert broken.stats["successes"] < 0.5 * broken.stats["n"]


@pytest.mark.time_limit(600)  # two runs of the claim, each with its searched instance and horizon search
def test_regret_bound_claim_catches_exploration_removed(monkeypatch, tmp_path):
    # the UCB rule made greedy (mean + 0 · width): a fresh run cache, or the healthy runs would be read back
    monkeypatch.setenv("TVBO_VERIFY_CACHE", str(tmp_path))
    monkeypatch.setattr(policy, "ucb_argmax", lambda mean, var, multiplier: int(np.argmax(mean)))
    audited = run_claim("tvgpucb:theorem-4.3", executor=Executor())
    assert audited.verdict is Verdict.ERROR and "does not implement its definition" in audited.summary
    # without the definition audit, the regret rule itself refutes the greedy runs
    monkeypatch.setattr(audit, "require_definitions", lambda sweeps, **kw: [])
    ev = run_claim("tvgpucb:theorem-4.3", executor=Executor())
    assert ev.verdict is Verdict.VIOLATED
    failing = [r for r in ev.instances if r.get("event") == "(39) for all t <= T" and r["frequency"] < 0.9]
    assert failing  # the per-step bound (39) the regret bound is summed from breaks
