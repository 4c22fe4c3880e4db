"""How :func:`~tvbo_verify.verify.builders.sensitivity_evidence` decides a finding whose comparisons carry their
negative controls at every setting, keeps analogue data undecided and reports a missing extra (a tiny
reproduction on the Markov model of ``tvgpucb``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tvbo_verify.errors import MissingExtraError
from tvbo_verify.papers.tvgpucb.reproductions import BETA, CONTROL
from tvbo_verify.sweeps import RunCache, reproduce
from tvbo_verify.sweeps.reproduce import Finding
from tvbo_verify.sweeps.reproduce.constants import FreeConstant, Part
from tvbo_verify.sweeps.reproduce.registry import Reproduction
from tvbo_verify.sweeps.spec import Arm, Sweep
from tvbo_verify.verify.builders import Property
from tvbo_verify.verify.builders import sensitivity as builder
from tvbo_verify.verify.engine import Context
from tvbo_verify.verify.evidence import Control, Verdict

RULE = 10
#: a constant both methods share (the horizon): a method's own constant is tuned, never swept alone
HORIZON = FreeConstant("horizon", "T", RULE, (6, RULE, 14), (6, RULE, 14), "test",
                       set_sweep=lambda sweep, T: replace(sweep, horizons=(int(T),)), scale="linear")


def tiny_reproduction(parts) -> Reproduction:  # noqa: ANN001 - Finding -> parts
    """TV-GP-UCB, R-GP-UCB and the control on a small Markov model; the finding is the horizon run."""
    env = {"epsilon": 0.05, "points_per_dim": 8, "d": 1}
    arms = (Arm("TV-GP-UCB", "tv-gp-ucb", {"epsilon": 0.05}, BETA), Arm("R-GP-UCB", "r-gp-ucb", {"block": 4}, BETA),
            CONTROL)
    sweeps = {"tiny": Sweep("tiny", arms, "tvgpucb-markov", (RULE,), 2, env_params=env)}

    def analyse(results, rng):
        n = results["tiny"].sweep.horizons[-1]
        return Finding(f"T = {n}", {"T": n})

    def figure(results, finding):
        import matplotlib.pyplot as plt

        return plt.figure()

    return Reproduction(id="tvgpucb:figure-2ab", paper="tvgpucb", title="tiny", setup="tiny", expected="tiny",
                        sweeps=lambda fidelity: sweeps, analyse=analyse, figure=figure, constants=(HORIZON,),
                        parts=parts, own={"TV-GP-UCB": ("epsilon",), "R-GP-UCB": ("block",)})


def holds(control):  # noqa: ANN001 - T -> bool | None
    """Parts: an ordering whose interval holds at every T, its control as ``control(T)`` says."""
    return lambda f: [Part("TV below R", 0.3, (0.1, 0.5), control(f.data["T"]))]


def ordering(control_verdict: Verdict | None) -> Property:
    """The claim's property at the paper's setting: holds by its interval, with or without a control."""
    controls = [] if control_verdict is None else [Control("random vs R", "random below R", control_verdict)]
    return Property("TV below R", Verdict.CONFIRMED, controls=controls, needs_control=True)


def evidence(tmp_path, monkeypatch, parts, decide, **kw):  # noqa: ANN001
    rep = tiny_reproduction(parts)
    monkeypatch.setattr(builder, "get_reproduction", lambda _id: rep)
    ctx = Context("tvgpucb:figure-2ab", cache=RunCache(tmp_path))
    return builder.sensitivity_evidence(ctx, "tvgpucb:figure-2ab", decide, what="tiny", **kw)


def test_a_setting_whose_control_passes_is_undecided_there(tmp_path, monkeypatch):
    ev = evidence(tmp_path, monkeypatch, holds(lambda n: n >= RULE), lambda f: [ordering(Verdict.VIOLATED)])
    record = ev.stats["sensitivity"]
    assert ev.verdict is Verdict.INCONCLUSIVE and ev.stats["verdict_at_paper_setting"] == "confirmed"
    assert record["constants"][0]["verdict"] == ["inconclusive", "confirmed", "confirmed"]
    assert record["constants"][0]["parts"]["TV below R"]["control"] == [False, True, True]
    assert record["statement"] == "horizon: undecided for T ≤ 6, holds for T ≥ 10"
    everywhere = evidence(tmp_path, monkeypatch, holds(lambda n: True), lambda f: [ordering(Verdict.VIOLATED)])
    assert everywhere.verdict is Verdict.CONFIRMED


def test_a_finding_is_not_confirmed_over_the_range_without_a_failed_control(tmp_path, monkeypatch):
    # parts without controls hold everywhere; the claim's ordering has no control that failed
    ev = evidence(tmp_path, monkeypatch, holds(lambda n: None), lambda f: [ordering(None)])
    assert ev.stats["sensitivity"]["verdict"] == "confirmed"
    assert ev.verdict is Verdict.INCONCLUSIVE
    assert "no negative control failed" in ev.summary


def test_properties_and_parts_must_agree_under_the_control_rule(tmp_path, monkeypatch):
    with pytest.raises(RuntimeError, match="properties decide inconclusive .* parts decide confirmed"):
        evidence(tmp_path, monkeypatch, holds(lambda n: True), lambda f: [ordering(Verdict.INCONCLUSIVE)])


def test_analogue_data_stay_undecided_whatever_the_record_measures(tmp_path, monkeypatch):
    fails = lambda f: [Part("TV below R", -0.3, (-0.5, -0.1), True)]  # noqa: E731
    prop = Property("TV below R", Verdict.VIOLATED, controls=[Control("random vs R", "x", Verdict.VIOLATED)],
                    needs_control=True)
    ev = evidence(tmp_path, monkeypatch, fails, lambda f: [prop], analogue="ozone sites for sensors")
    assert ev.stats["sensitivity"]["verdict"] == "violated"
    assert ev.verdict is Verdict.INCONCLUSIVE and ev.counterexample is None
    assert ev.stats["reason"] == "analogue data: ozone sites for sensors"
    assert "measured violated on analogue data (ozone sites for sensors)" in ev.summary
    rows = [r for r in ev.instances if "property" in r]
    assert rows[0]["property"] == "TV below R [analogue data]" and rows[0]["verdict"] == "inconclusive"
    assert rows[0]["detail"].startswith("measured violated on the analogue")
    assert [c.name for c in ev.controls] == ["random vs R"]  # the control is kept in the evidence


def test_a_missing_extra_is_undecided_with_the_install_command(tmp_path, monkeypatch):
    def missing(*args, **kwargs):
        raise MissingExtraError("data", "reading plyr/ozone")

    monkeypatch.setattr(reproduce, "measure", missing)  # what the builders measure a reproduction with
    ev = evidence(tmp_path, monkeypatch, holds(lambda n: True), lambda f: [ordering(Verdict.VIOLATED)])
    assert ev.verdict is Verdict.INCONCLUSIVE and ev.stats["missing_extra"] == "data"
    assert ev.summary.startswith("not measured: ")
