"""Evidence of an experiment claim, decided from the reproduction of the paper's figure.

The claim runs the reproduction (:mod:`tvbo_verify.sweeps.reproduce`, on the context's run cache, at the
claim's fidelity), turns the measured finding into :class:`Property` items and decides them with
:func:`properties_evidence`; the reproduction's figure becomes the claim's figure and its finding
the claim's statistics. An ordering of two algorithms is established when the paired bootstrap
interval of the difference of final regrets lies below 0, contradicted when it lies above, and
undecided otherwise; its sharpening claims a lower regret by a factor.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ...sweeps.reproduce import Finding, get_reproduction
from ..engine import Context
from ..evidence import Evidence, Power, Verdict
from .properties import Property, properties_evidence


def on_analogue_data(prop: Property) -> Property:
    """A property measured on data that stands in for a paper's unshippable data: reported with what it
    measured, decided as undecided (an analogue can neither confirm nor refute the paper's experiment)."""
    return Property(f"{prop.name} [analogue data]", Verdict.INCONCLUSIVE,
                    detail=f"measured {prop.verdict.value} on the analogue: {prop.detail}", power=prop.power)


def unshipped_data(description: str, stand_in: str) -> Property:
    """The property that keeps a real-data experiment undecided: the paper's data (``description``) are not
    shipped, and ``stand_in`` says what was measured in their place."""
    return Property(f"the paper's data ({description})", Verdict.INCONCLUSIVE, detail=f"analogue data: {stand_in}")


def tracking_text(track: dict[str, Any], arms: str, best: str, rounds: str = "months") -> str:
    """How much an analogue data set tracks: ``"144 plyr/ozone sites over 48 months (13 distinct best sites, the
    best one changes in 60% of months)"`` from the tracking statistics of a real-data environment."""
    return (f"{track['arms']} {arms} over {track['rounds']} {rounds} ({track['distinct_best_arms']} distinct best "
            f"{best}, the best one changes in {track['best_arm_change_fraction']:.0%} of {rounds})")


def ordering_property(name: str, comparison: dict[str, Any], *, factor: float = 3.0) -> Property:
    """"a has lower final regret than b" from :func:`~tvbo_verify.sweeps.reproduce.compare`; power: the
    stronger "a's regret is below b's divided by ``factor``" refuted by the ratio's interval."""
    lo, hi = comparison["difference"]["ci95"]
    verdict = Verdict.CONFIRMED if hi < 0 else Verdict.VIOLATED if lo > 0 else Verdict.INCONCLUSIVE
    r_lo, r_hi = comparison["ratio_ci95"]
    caught = r_lo > 1.0 / factor and verdict is not Verdict.VIOLATED
    detail = (f"{comparison['a']} − {comparison['b']}: mean {comparison['difference']['mean']:.4g}, "
              f"95% CI [{lo:.4g}, {hi:.4g}]; ratio of means {comparison['ratio']:.3g} "
              f"(CI {r_lo:.3g}..{r_hi:.3g})")
    power = Power(f"{comparison['a']}'s regret below 1/{factor:g} of {comparison['b']}'s", caught,
                  f"ratio CI lower end {r_lo:.3g} {'>' if caught else '<='} {1 / factor:.3g}")
    return Property(name, verdict, detail=detail, power=power)


def experiment_evidence(ctx: Context, reproduction_id: str, decide: Callable[[Finding], Sequence[Property]], *,
                        what: str) -> Evidence:
    """Run the reproduction (its runs read from or written to ``ctx.cache``; measured once per report,
    :meth:`~tvbo_verify.verify.engine.Context.reproduction`), decide its properties, attach its figure."""
    rep = get_reproduction(reproduction_id)
    outcome = ctx.reproduction(rep)
    props = list(decide(outcome.finding))
    ev = properties_evidence(ctx, props, what=what,
                             stats={"reproduction": rep.id, "finding": outcome.finding.text,
                                    "measured": outcome.finding.data, "setup": rep.setup,
                                    "data_note": rep.data_note},
                             configuration={"reproduction": rep.id, "fidelity": ctx.fidelity})
    ev.figures.append((rep.title, lambda: rep.figure(outcome.results, outcome.finding)))
    return ev
