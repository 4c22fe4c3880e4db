"""The ladder rule of rate claims counts decades of the size the claim is about, not of its transform."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.verify import Context, RateMeasurement, Verdict, rate_evidence, run_claim

SLOT = "wsparq:assumption-1"


def _polylog_ladder(**size):
    T = np.array([2.0**k for k in range(4, 13)])  # 2.4 decades of T, 0.48 decades of log T
    x = np.log(T)
    return RateMeasurement(x=x, measured=np.vstack([0.3 * x**2, 0.5 * x**2]), exponent=2.0, random=False,
                           label="γ_T", xlabel="log T", **size)


def test_decades_are_counted_in_the_declared_size():
    assert _polylog_ladder().decades == pytest.approx(np.log10(np.log(4096) / np.log(16)))
    m = _polylog_ladder(size=2.0 ** np.arange(4, 13), size_label="T")
    assert m.decades == pytest.approx(np.log10(256)) and m.size_name == "T"
    with pytest.raises(ValueError, match="size must be 9 increasing"):
        _polylog_ladder(size=np.arange(9, 0, -1.0))


def test_full_ladder_accepts_a_rate_in_log_t_over_enough_decades_of_t():
    ctx = Context(SLOT, fidelity="full")
    with pytest.raises(ValueError, match="1.5 decades of log T, got 9 spanning 0.48"):
        rate_evidence(ctx, _polylog_ladder(), lowered_by=1.0, what="x")
    ev = rate_evidence(ctx, _polylog_ladder(size=2.0 ** np.arange(4, 13), size_label="T"), lowered_by=1.0, what="x")
    assert ev.verdict is Verdict.CONFIRMED and "2.4 decades of T" in ev.summary
    assert ev.stats["decades_of"] == "T"


def test_remark_5_is_decided_at_full_fidelity():
    ev = run_claim("wgpucb:remark-5", fidelity="full")
    assert ev.verdict is not Verdict.ERROR, ev.summary
    assert ev.stats["decades_of"] == "T" and ev.stats["decades"] >= 1.5


@pytest.mark.parametrize("fidelity", ["quick", "full"])
@pytest.mark.parametrize("start", [10, 100, 500, 1000, 3000, 30_000, 123_457])
def test_rate_horizons_are_integers_the_ladder_rule_accepts(fidelity, start):
    from tvbo_verify.verify.builders import rate_horizons
    from tvbo_verify.verify.builders.rate import LADDER

    horizons = rate_horizons(start, fidelity)
    sizes, decades = LADDER[fidelity]
    assert len(horizons) == sizes and horizons[0] == start and all(isinstance(h, int) for h in horizons)
    assert list(horizons) == sorted(set(horizons))
    # at least the decades, and no more than rounding up the top one by one adds
    assert decades <= np.log10(horizons[-1] / start) <= np.log10((start * 10**decades + 1) / start)
