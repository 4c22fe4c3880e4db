"""Helpers of ``claims/wsparq/confidence.py``."""

import numpy as np

from tvbo_verify.papers.wsparq.checks import confidence as C


def test_band_errors_shapes_and_coverage():
    out = C.band_errors(np.random.SeedSequence(1), 1.0, 0.1, 40, 0.1, 1.0, 5, 11, 200)
    assert out["fixed"].shape == (200, 5) and out["uniform"].shape == (200,)
    assert np.all(out["uniform"] >= out["fixed"].max(axis=1))
    assert np.mean(out["fixed"] <= 1.0) >= 0.95  # the band holds
    assert np.mean(out["fixed"] <= 1 / 3) < 0.95  # a third of it does not


def test_band_errors_are_reproducible_from_the_seed():
    a = C.band_job((np.random.SeedSequence(7), 0.5, 0.5, 10, 0.1, 1.0, 3, 5, 20))
    b = C.band_job((np.random.SeedSequence(7), 0.5, 0.5, 10, 0.1, 1.0, 3, 5, 20))
    assert np.array_equal(a["fixed"], b["fixed"])


def test_ui_run_quantities_and_beta_referee():
    import mpmath

    r = C.ui_gpucb_run(0, 1.0, 0.1, 20)
    assert r.sd_at_choice.shape == (20,) and abs(r.sd_at_choice[0] - 1.0) < 1e-12
    with mpmath.workdps(50):
        assert abs(float(r.beta_mp(7)) - r.beta[6]) < 1e-10
    assert r.static_beta(8) >= r.beta[6] - 1e-12  # adding a point to fixed-noise data raises β


def test_eq_9_12_parts_hold():
    rng = np.random.default_rng(1)
    for _ in range(12):
        p = C.EQ_9_12.sample(rng)
        assert C.EQ_9_12.evaluate(p).margin >= -1e-12, p


def beta_instances(part: str, n: int = 6) -> list[dict]:
    rng = np.random.default_rng(5)
    out = []
    while len(out) < n:
        p = C.EQ_9_12.sample(rng)
        p["part"] = part
        out.append(p)
    return out


def test_eq_9_12_beta_twins_reproduce_the_float_comparison():
    import mpmath

    from tvbo_verify.verify.stats import twin_disagreement

    assert {"beta-log-det", "beta-forms", "beta-floor"} <= set(C.EQ_9_12.PARTS)
    for part in ("beta-log-det", "beta-forms", "beta-floor"):
        for p in beta_instances(part):
            with mpmath.workdps(50):
                assert twin_disagreement(C.EQ_9_12.evaluate(p), C.EQ_9_12.hp(p)) is None, p


def test_eq_9_12_halved_beta_is_a_break_the_referee_keeps(monkeypatch):
    from tvbo_verify import confidence
    from tvbo_verify.verify.stats import Instance, referee

    kk = confidence._kk_beta
    monkeypatch.setattr(confidence, "_kk_beta", lambda ratio, delta, norm: 0.5 * kk(ratio, delta, norm))
    for p in beta_instances("beta-log-det"):
        comparison = C.EQ_9_12.evaluate(p)
        assert Instance(p, comparison.as_float()).relative < -0.3  # β/2 against β
        _, broken = referee(p, C.EQ_9_12.hp, reference=comparison)
        assert broken  # the 50-digit twin confirms the break instead of overruling it
