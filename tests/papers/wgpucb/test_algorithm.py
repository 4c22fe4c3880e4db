"""Replay helpers of ``claims/wgpucb/algorithm.py`` (Algorithm 1)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tvbo_verify.confidence import beta_wgpucb
from tvbo_verify.information import weighted_gain_hadamard_bound
from tvbo_verify.papers.wgpucb.checks.algorithm import SETUP, beta_formula, play, properties, replay
from tvbo_verify.verify.evidence import Verdict

SHORT = {**SETUP, "T": 12}


def test_beta_formula_is_the_toolkits_rule_with_the_hadamard_gain():
    for t in (1, 5, 30):
        ig = weighted_gain_hadamard_bound(t, SHORT["lam"], SHORT["discount"], 1.0, "bar")
        assert beta_formula(t, SHORT) == pytest.approx(beta_wgpucb(ig, 0.1, 1.0, 0.1, 0.5), rel=1e-14)
    assert beta_formula(0, SHORT) == pytest.approx(1 + 0.1 / math.sqrt(0.5) * math.sqrt(2 * math.log(10)))


def test_replay_reproduces_the_policy_and_the_mutants_break_it():
    trace, env = play(np.random.SeedSequence(7), SHORT)
    r = replay(trace, env, SHORT)
    assert np.max(r["gap"]) <= 1e-9 and np.max(r["form"]) <= 1e-9
    assert all(p.verdict is Verdict.CONFIRMED for p in properties(trace, env, SHORT))
    lagged = properties(*play(np.random.SeedSequence(7), SHORT, lagged=False), SHORT)
    assert any(p.verdict is Verdict.VIOLATED for p in lagged)
