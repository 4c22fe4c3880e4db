"""Run-based wgpucb claims against a broken WGP-UCB: the check must stop being accepted.

Each bug is put inside the project's policy (``bandits.window`` / ``bandits.beta``) at run time and the claim rerun
serially with a fresh run cache, so the patch reaches every run and no healthy run is read back: WGP-UCB with its
discount removed (its posterior weights every observation alike, as GP-UCB's does) — the mechanism the paper is
about —, its weights squared (w_s = γ^{−2s}) and Algorithm 1's β_t halved in the policy's own rule.
"""

from __future__ import annotations

from tvbo_verify.bandits import beta as beta_rules
from tvbo_verify.bandits import window
from tvbo_verify.execution import Executor
from tvbo_verify.sweeps.cache import RunCache
from tvbo_verify.verify import Verdict, run_claim


def posterior_discount(monkeypatch, discount):
    """The WGP-UCB posterior computed with ``discount(γ)`` in place of the policy's γ."""
    real = window.WeightedArmPosterior.compute

    def compute(self, idx, y):
        kept = self.discount
        self.discount = discount(kept)
        try:
            return real(self, idx, y)
        finally:
            self.discount = kept

    monkeypatch.setattr(window.WeightedArmPosterior, "compute", compute)


def fewer_theorem_2_runs(monkeypatch):
    """Theorem 2's check with 40 runs per configuration instead of its 200: a bug it catches with 40 it catches with
    more, and the test stays within its time limit."""
    from tvbo_verify.papers.wgpucb.checks import confidence

    monkeypatch.setitem(confidence.THEOREM_2_RUNS, "quick", 40)


def never_forgets(monkeypatch):
    """The discount removed: every observation weighted alike (γ = 1)."""
    posterior_discount(monkeypatch, lambda g: 1.0)


def test_theorem_3_catches_the_discount_removed(monkeypatch, tmp_path):
    never_forgets(monkeypatch)
    ev = run_claim("wgpucb:theorem-3", executor=Executor(), cache=RunCache(tmp_path))
    assert ev.verdict is Verdict.VIOLATED
    refuted = [r for r in ev.instances if r.get("frequency", 1.0) < 0.5 and "control" not in r]
    assert refuted  # the surrogate band of the (healthy) statement fails on the policy's posterior


def test_theorem_2_catches_beta_halved_in_the_policys_rule(monkeypatch, tmp_path):
    real = beta_rules.BetaRule.value

    def halved(self, t, **kw):
        v = real(self, t, **kw)
        return v / 2 if self.kind == "wgpucb" else v

    monkeypatch.setattr(beta_rules.BetaRule, "value", halved)
    fewer_theorem_2_runs(monkeypatch)
    ev = run_claim("wgpucb:theorem-2", executor=Executor(), cache=RunCache(tmp_path))
    assert ev.verdict is Verdict.VIOLATED


def test_lemma_20_catches_the_discount_removed(monkeypatch, tmp_path):
    healthy = run_claim("wgpucb:lemma-20", executor=Executor(), cache=RunCache(tmp_path / "healthy"))
    assert healthy.verdict is Verdict.INCONCLUSIVE  # its whole-run inequality is vacuous on this set-up
    never_forgets(monkeypatch)
    ev = run_claim("wgpucb:lemma-20", executor=Executor(), cache=RunCache(tmp_path / "broken"))
    assert ev.verdict is Verdict.VIOLATED
    per_round = [r for r in ev.instances if str(r.get("event", "")).startswith("r_t <= 2β") and "D_t" not in r["event"]
                 and "control" not in r]
    assert any(r["frequency"] < 0.9 for r in per_round)  # the proof's per-round bound breaks


def test_theorem_2_catches_the_weights_squared(monkeypatch, tmp_path):
    posterior_discount(monkeypatch, lambda g: g * g)  # w_s = γ^{−2s}: the weights squared
    fewer_theorem_2_runs(monkeypatch)
    ev = run_claim("wgpucb:theorem-2", executor=Executor(), cache=RunCache(tmp_path))
    assert ev.verdict is Verdict.VIOLATED
