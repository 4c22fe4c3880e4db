"""``tvgpucb`` Theorem 4.1 and its proof (App. F): every algorithm suffers E[R_T] = Ω(Tε).

=========================  ==================================================================
claim                      paper
=========================  ==================================================================
``tvgpucb:theorem-4.1``    Theorem 4.1: the genie argument (App. F steps 1, 6) and its consequences
``tvgpucb:eq-100``         App. F, eqs. (95)–(100): the pointwise Taylor bound r_t >= ε‖∇g_t‖²/(4Ld)
=========================  ==================================================================
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ....bandits import GPUCB, RGPUCB, TVGPUCB, run
from ....bandits.environments.gpsample import MarkovGP
from ....kernels import SquaredExponential
from ....theory.lower_bounds import genie_regret
from ...builders import Property, ingredient_evidence
from ...comparison import Comparison
from ...engine import Context
from ...evidence import Evidence, Verdict
from ...registry import claim
from ...stats import decide_rate, rate_power
from .algorithms import fresh_rng

ALGORITHMS = ("tv-gp-ucb", "r-gp-ucb", "gp-ucb")


def algorithm_regret(args: tuple) -> float:
    """Mean r_t over t >= 2 of one run of a policy on the Markov GP (module level, for process executors)."""
    name, eps, T, seed = args
    pol = {"tv-gp-ucb": lambda: TVGPUCB(epsilon=eps), "r-gp-ucb": lambda: RGPUCB(block=10),
           "gp-ucb": lambda: GPUCB()}[name]()
    tr = run(pol, MarkovGP(epsilon=eps, points_per_dim=101, d=1), T, fresh_rng(seed))
    return float(np.mean(tr.regret[1:]))


def regret_figure(eps: np.ndarray, genie_mean: np.ndarray, rows: list[dict[str, Any]]):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.0, 3.4), layout="constrained")
    ax.loglog(eps, genie_mean, "o-", label="genie E[r_t]")
    ax.loglog(eps, genie_mean[0] / eps[0] * eps, "k--", lw=0.8, label="∝ ε")
    for name in ALGORITHMS:
        pts = [(r["epsilon"], r["mean r_t"]) for r in rows if r["who"] == name]
        ax.loglog(*zip(*pts), "s", label=name)
    ax.set_xlim(eps[0], eps[-1])
    ax.set_xlabel("ε")
    ax.set_ylabel("mean instantaneous regret")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


@claim("tvgpucb:theorem-4.1")
def theorem_4_1(ctx: Context) -> Evidence:
    """Ingredients of the genie argument (App. F) on a 1-D SE grid (ℓ = 0.2, 201 points of [0, 1]):
    (i) the genie regret E[r_t] (``theory.lower_bounds.genie_regret``: play argmax f_{t−1}) scales like
    ε: the bootstrap CI (over batches of samples) of the log–log slope of ε/E[r_t] against 1/ε for
    ε ∈ {1e-4, 1e-3, 1e-2, 1e-1} stays below 0.05 (E[r_t]/ε bounded away from 0, i.e. Ω(Tε));
    (ii) TV-GP-UCB, R-GP-UCB (N = 10) and GP-UCB (``bandits``) on the Markov model (101 points) at
    ε ∈ {1e-2, 1e-1} never beat the genie: their mean r_t (t >= 2) over seeded runs (``ctx.seeds``) is
    not below the genie's by more than 3 standard errors; (iii) the slope of log(mean r_t) against
    log ε for TV-GP-UCB is <= 1 (+ 2 standard errors). Power: a lower bound Ω(T ε^{1/2}) (exponent
    lowered by 0.5) must be refuted by the rate rule of (i). The margin is the allowance 0.05 minus
    the upper end of the CI of (i)."""
    kern = SquaredExponential(1.0, 0.2)
    grid = np.linspace(0.0, 1.0, 201)[:, None]
    eps = np.array([1e-4, 1e-3, 1e-2, 1e-1])
    batches, per = ctx.pick(10, 20), ctx.pick(3000, 10000)
    rngs = ctx.spawn(batches)
    mean_r = np.array([[genie_regret(kern, grid, e, per, rngs[b]).mean_regret for e in eps] for b in range(batches)])
    ratio = eps[None, :] / mean_r  # must not grow as eps -> 0
    v1, s1 = decide_rate(1 / eps, ratio, ctx.rng, allowance=0.05)
    power = rate_power(1 / eps, ratio, ctx.rng, lowered_by=0.5, allowance=0.05)
    power.sharpening = "lower bound Ω(T ε^{1/2}) (exponent lowered by 0.5)"
    genie_mean = mean_r.mean(axis=0)
    genie_se = mean_r.std(axis=0, ddof=1) / math.sqrt(batches)
    lo, hi = s1["slope_ci95"]
    props = [Property("genie E[r_t]/ε bounded below (slope rule)", v1,
                      detail=f"slope of ε/E[r] vs 1/ε {s1['slope']:.3g}, CI {lo:.3g}..{hi:.3g}", power=power)]
    T, reps = ctx.pick(25, 60), ctx.pick(6, 20)
    rows = [{"who": "genie", "epsilon": float(e), "mean r_t": float(m), "mean r_t / ε": float(m / e)}
            for e, m in zip(eps, genie_mean)]
    tv_means = {}
    for e_idx, e in ((2, 1e-2), (3, 1e-1)):
        for name in ALGORITHMS:
            vals = np.array(ctx.map(algorithm_regret, [(name, e, T, s) for s in ctx.seeds(reps)]))
            m, se = float(vals.mean()), float(vals.std(ddof=1) / math.sqrt(reps))
            floor = float(genie_mean[e_idx] - 3 * math.hypot(se, genie_se[e_idx]))
            props.append(Property.compare(f"{name} at ε={e:g}: mean r_t >= genie − 3 s.e.",
                                          Comparison(m, floor, ">="),
                                          detail=f"mean r_t {m:.3g}, genie {genie_mean[e_idx]:.3g}"))
            rows.append({"who": name, "epsilon": e, "mean r_t": m, "mean r_t / ε": m / e})
            if name == "tv-gp-ucb":
                tv_means[e] = (m, se)
    (m1, se1), (m2, se2) = tv_means[1e-2], tv_means[1e-1]
    slope = math.log(m2 / m1) / math.log(10.0)
    slope_se = math.hypot(se1 / m1, se2 / m2) / math.log(10.0)
    props.append(Property.compare("TV-GP-UCB slope of log r vs log ε <= 1 + 2 s.e.",
                                  Comparison(slope, 1 + 2 * slope_se, "<=")))
    ev = ingredient_evidence(ctx, props, what="genie lower bound Ω(Tε)",
                             stats={"genie_rate": s1, "T": T, "reps": reps, "runs": rows})
    ratios = ", ".join(f"{m / e:.3g}" for e, m in zip(eps, genie_mean))
    ev.summary = (f"genie E[r_t]/ε = {ratios} for ε = 1e-4..1e-1 (slope of ε/E[r] vs 1/ε {s1['slope']:.3g}, "
                  f"CI {lo:.3g}..{hi:.3g}); " + ev.summary)
    ev.margin = 0.05 - hi
    ev.stats["margin_of"] = "allowance 0.05 minus the upper end of the CI of the genie slope"
    ev.instances = rows + ev.instances
    ev.figures.append(("regret against ε", lambda: regret_figure(eps, genie_mean, rows)))
    if v1 is not Verdict.CONFIRMED:
        ev.stats["genie_rule"] = v1.value
    return ev
