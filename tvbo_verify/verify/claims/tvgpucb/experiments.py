"""``tvgpucb`` Section 5 experiments, decided from their reproductions (``sweeps/reproduce/tvgpucb.py``).

* ``tvgpucb:figure-2ab`` — Figures 2a–2b: TV-GP-UCB against R-GP-UCB on the Markov model.
"""

from __future__ import annotations

from ...builders import experiment_evidence, ordering_property
from ...engine import Context
from ...evidence import Evidence
from ...registry import claim


@claim("tvgpucb:figure-2ab")
def figure_2ab(ctx: Context) -> Evidence:
    """Reproduces Figure 2a (``tvbo-verify reproduce tvgpucb:figure-2ab``): the Markov model (3)–(4) on a
    50 × 50 grid, SE kernel l = 0.2, σ² = 0.01, β_t = 0.8 log(4t), ε ∈ {0.001, 0.01, 0.03}; TV-GP-UCB
    with the true ε against R-GP-UCB with N = ⌈min(T, 12 ε^(-1/4))⌉, paired over repetitions (quick:
    T = 200, 8 repetitions; full: T = 500, 100). For each ε the ordering "TV-GP-UCB has lower final
    regret" is established when the paired bootstrap 95% interval of the difference lies below 0,
    contradicted when it lies above 0. Power: the stronger "TV-GP-UCB's regret is below a third of
    R-GP-UCB's" must be refuted by the interval of the ratio of means."""
    def decide(finding):
        return [ordering_property(f"TV-GP-UCB below R-GP-UCB at {name}", comp)
                for name, comp in finding.data["comparisons"].items()]

    return experiment_evidence(ctx, "tvgpucb:figure-2ab", decide, what="TV-GP-UCB against R-GP-UCB (Fig. 2a, SE)")
