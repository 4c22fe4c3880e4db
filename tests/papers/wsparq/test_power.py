"""Run-based and refereed wsparq claims against broken code: the claim must stop being accepted.

Each bug is applied at run time (a patched function, never an edited file); claims with runs get a fresh run
cache, or the healthy runs would be read back.
"""

from __future__ import annotations

import numpy as np

from tvbo_verify import confidence
from tvbo_verify.bandits import policy
from tvbo_verify.execution import Executor
from tvbo_verify.sweeps import RunCache
from tvbo_verify.verify import Verdict, run_claim


def test_posterior_and_width_claim_catches_beta_halved(monkeypatch):
    healthy = run_claim("wsparq:eq-9-12", executor=Executor())
    assert healthy.verdict is Verdict.CONFIRMED
    kk = confidence._kk_beta
    monkeypatch.setattr(confidence, "_kk_beta", lambda ratio, delta, norm: 0.5 * kk(ratio, delta, norm))
    broken = run_claim("wsparq:eq-9-12", executor=Executor())
    # the 50-digit twin reproduces the float comparison, so it keeps the break instead of overruling it
    assert broken.verdict is Verdict.VIOLATED
    assert broken.counterexample is not None and broken.stats["float_breaks"] > 0


def test_proof_chain_catches_exploration_removed(monkeypatch, tmp_path):
    # the UCB rule made greedy (mean + 0 · width): r_t <= 2 β_t σ_{t−1}(x_t) must break on its runs
    monkeypatch.setattr(policy, "ucb_argmax", lambda mean, var, multiplier: int(np.argmax(mean)))
    ev = run_claim("wsparq:eq-15", executor=Executor(), cache=RunCache(tmp_path))
    assert ev.verdict is Verdict.VIOLATED
    failing = [r for r in ev.instances if str(r.get("inequality", "")).startswith("r_t") and "control" not in r
               and r["frequency"] < 0.95]
    assert failing


def test_a_sparse_rate_refutation_whose_contrast_fails_too_is_undecided():
    from tvbo_verify.papers.wsparq.checks.sparse_rates import undecided_unless_contrast_holds
    from tvbo_verify.verify.builders import Property

    rate = Property("R_T − R_⌊T/2⌋ = O(T^0.5)", Verdict.VIOLATED, detail="slope 0.55 above the allowance")
    kept = undecided_unless_contrast_holds(rate, Property.boolean("contrast", True, "GP-UCB confirmed"))
    assert kept is rate
    failing = undecided_unless_contrast_holds(rate, Property.boolean("contrast", False, "GP-UCB violated"))
    assert failing.verdict is Verdict.INCONCLUSIVE and "contrast fails too" in failing.detail
