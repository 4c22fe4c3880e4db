"""``bolt`` Figures 1–2: the regret floor ε_c against the sampling frequency (closed form and measured floors),
and n* against kernel smoothness and response-time growth (closed form, BOLT's cap, windows around n*)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from tvbo_verify.authoring import Arm, Finding, Reproduction, Sweep, SweepResult, register_reproduction
from tvbo_verify.bandits import wdbo_practical
from tvbo_verify.kernels import SquaredExponential, temporal_kernel
from tvbo_verify.theory.lower_bounds import bolt_regret_floor
from tvbo_verify.theory.response import ResponseModel, n_star

from .common import (
    BOLT_ST,
    N_STAR,
    RESPONSE,
    budget_regret,
    certified_n_star,
    compare_values,
    horizon_for,
    quick,
    summary,
    trend,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# -------------------------------------------------------------------------------------------- Figure 1
FIG1_KERNELS = ("matern12", "matern32", "matern52", "se", "rq")
#: the ordering Figure 1 shows at fixed c (rough to smooth)
FIG1_ORDER = ("matern12", "matern32", "matern52", "se")
FIG1_FREQUENCIES = tuple(float(f) for f in np.geomspace(0.01, 10.0, 31))
RUN_FREQUENCIES = (0.5, 2.0, 8.0)
#: the largest −log10 ε_c drawn: a floor below 1e-30 is far below any measurable regret (the smooth kernels' floors
#: reach 1e-200 within the frequency range, which a linear axis of a logarithm cannot show next to the rough ones)
FIG1_DEPTH = 30.0
FIFO_FLOOR = "FIFO GP-UCB (20 most recent)"


def figure_1_curves() -> dict[str, list[float]]:
    """``log ε_c`` on the paper's instance: d = 4, L = l_S = l_T = λ = 1, k_S = SE (not stated; READING.md §3.2)."""
    spatial = SquaredExponential(1.0, 1.0)
    return {k: [bolt_regret_floor(temporal_kernel(k, 1.0), 1.0 / f, lipschitz=1.0, d=4, spatial=spatial).log_epsilon_c
                for f in FIG1_FREQUENCIES] for k in FIG1_KERNELS}


def floor_env(kernel: str, frequency: float) -> dict[str, Any]:
    """``bolt-st`` with d = 1 (30 points), l_T = 1 s and a constant sampling period 1/frequency."""
    return {"d": 1, "points_per_dim": 30, "temporal": kernel, "temporal_lengthscale": 1.0,
            "response_time": repr(1.0 / frequency), "temporal_nugget": 1e-9}


def figure_1_sweeps(fidelity: str) -> dict[str, Sweep]:
    T, reps = quick(fidelity, (100, 4), (200, 20))
    return {f"{k} @ {f:g} Hz": Sweep(f"bolt figure 1 floor {k} {f:g} Hz",
                                     (Arm(FIFO_FLOOR, "fifo-gp-ucb", {"size": 20}, wdbo_practical()),),
                                     "bolt-st", (T,), reps, env_params=floor_env(k, f))
            for k in FIG1_ORDER for f in RUN_FREQUENCIES}


def steady_regret(result: SweepResult, label: str) -> np.ndarray:
    """Per repetition: the mean per-step regret over the second half of the run (the floor)."""
    r = result.series(label, "regret")
    return r[:, r.shape[1] // 2:].mean(axis=1)


def figure_1_analyse(results: dict[str, SweepResult], rng: np.random.Generator) -> Finding:
    curves = figure_1_curves()
    logf = np.log10(FIG1_FREQUENCIES)
    slopes = {k: float(np.max(np.diff(np.asarray(v) / math.log(10)) / np.diff(logf))) for k, v in curves.items()}
    gaps = {f"{a} > {b}": float(np.min(np.asarray(curves[a]) - np.asarray(curves[b])))
            for a, b in zip(FIG1_ORDER, FIG1_ORDER[1:])}
    floors = {k: {f: steady_regret(results[f"{k} @ {f:g} Hz"], FIFO_FLOOR) for f in RUN_FREQUENCIES}
              for k in FIG1_ORDER}
    measured = {k: {f"{f:g} Hz": summary(v, rng) for f, v in fl.items()} for k, fl in floors.items()}
    steps = {k: {f"{hi:g} Hz below {lo:g} Hz": compare_values(f"{hi:g} Hz", fl[hi], f"{lo:g} Hz", fl[lo], rng,
                                                                 paired=False)
                 for lo, hi in zip(RUN_FREQUENCIES, RUN_FREQUENCIES[1:])} for k, fl in floors.items()}
    trends = {k: trend(RUN_FREQUENCIES, [fl[f] for f in RUN_FREQUENCIES], rng) for k, fl in floors.items()}
    order_at = {f"{f:g} Hz": sorted(FIG1_ORDER, key=lambda k: -floors[k][f].mean()) for f in RUN_FREQUENCIES}
    text = ("Closed form (d = 4, L = l_S = l_T = λ = 1): the flattest log–log slope of ε_c against 1/c over "
            f"0.01–10 Hz is {max(slopes.values()):.3g} (negative: decreasing for every kernel); the smallest gap of "
            "log ε_c between neighbours of the order Matérn-1/2 > 3/2 > 5/2 > RBF is "
            f"{min(gaps.values()):.3g}. Runs: the steady per-step regret of FIFO GP-UCB falls from "
            + "; ".join(f"{k} {measured[k][f'{RUN_FREQUENCIES[0]:g} Hz']['mean']:.3g} to "
                        f"{measured[k][f'{RUN_FREQUENCIES[-1]:g} Hz']['mean']:.3g}" for k in FIG1_ORDER)
            + f" between {RUN_FREQUENCIES[0]:g} and {RUN_FREQUENCIES[-1]:g} Hz (log–log slopes "
            + ", ".join(f"{k} {t['slope']:.2f} [{t['ci95'][0]:.2f}, {t['ci95'][1]:.2f}]" for k, t in trends.items())
            + "); order of the measured floors, "
              "largest first: " + "; ".join(f"{f}: {' > '.join(o)}" for f, o in order_at.items()) + ".")
    return Finding(text, {"frequencies": list(FIG1_FREQUENCIES), "log_epsilon_c": curves, "flattest_slope": slopes,
                          "smallest_gap": gaps, "measured_floor": measured, "frequency_steps": steps,
                          "floor_trend": trends, "measured_order": order_at})


def figure_1_figure(results: dict[str, SweepResult], finding: Finding) -> Figure:
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(7.5, 3.6), layout="constrained")
    freqs = np.asarray(finding.data["frequencies"])
    for k, v in finding.data["log_epsilon_c"].items():
        depth = -np.asarray(v) / math.log(10)
        deep = depth > FIG1_DEPTH
        shown = np.where(np.cumsum(deep) <= 1, np.minimum(depth, FIG1_DEPTH), np.nan)  # up to where it leaves
        line, = left.plot(freqs, shown, label=k)
        if np.any(deep):  # the floor falls below 10^-FIG1_DEPTH: mark where it leaves the axes
            left.plot([freqs[np.argmax(deep)]], [FIG1_DEPTH], marker="^", color=line.get_color(), clip_on=False)
    left.set_xscale("log")
    left.set_xlim(freqs[0], freqs[-1])
    left.set_ylim(0.0, FIG1_DEPTH)  # −log10 ε_c is already a logarithm: a linear axis
    left.set_xlabel("sampling frequency 1/c (Hz)")
    left.set_ylabel("−log10 ε_c (larger: smaller floor)")
    left.text(0.02, 0.97, f"▲ ε_c < 1e−{FIG1_DEPTH:g} beyond", transform=left.transAxes, fontsize=7, va="top")
    left.set_title("ε_c of (4)–(5): d = 4, L = l_S = l_T = λ = 1", fontsize=8)
    left.legend(fontsize=7, title="k_T", title_fontsize=7)
    for k, row in finding.data["measured_floor"].items():
        m = np.array([row[f"{f:g} Hz"]["mean"] for f in RUN_FREQUENCIES])
        ci = np.array([row[f"{f:g} Hz"]["ci95"] for f in RUN_FREQUENCIES]).T
        right.errorbar(RUN_FREQUENCIES, m, yerr=[m - ci[0], ci[1] - m], marker="o", capsize=3, label=k)
    right.set_xscale("log")
    right.set_xlim(RUN_FREQUENCIES[0] / 1.3, RUN_FREQUENCIES[-1] * 1.3)
    right.set_xlabel("sampling frequency 1/c (Hz)")
    right.set_ylabel("steady per-step regret (95% CI)")
    right.set_title("FIFO GP-UCB on bolt-st, d = 1, l_T = 1 s", fontsize=8)
    right.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="k_T", title_fontsize=7)
    return fig


register_reproduction(Reproduction(
    id="bolt:figure-1",
    paper="bolt",
    title="Regret floor against the sampling frequency (Figure 1)",
    setup=("Closed form: ε_c of (4)–(5) for Matérn-1/2, 3/2, 5/2, RBF and RQ k_T at 31 frequencies 0.01–10 Hz, "
           "d = 4, L = l_S = l_T = λ = 1, k_S = RBF (unstated in the paper). Runs: FIFO GP-UCB keeping the 20 most "
           "recent observations (β = 0.2 d log(2n)) on bolt-st with d = 1 (30 grid points), l_S = 0.2, l_T = 1 s and "
           "a constant sampling period c, 1/c ∈ {0.5, 2, 8} Hz; per-step regret averaged over the second half "
           "(quick: T = 100, 4 repetitions; full: T = 200, 20)."),
    expected="ε_c decreases as 1/c grows, for every kernel, and at fixed c Matérn-1/2 > 3/2 > 5/2 > RBF.",
    sweeps=figure_1_sweeps, analyse=figure_1_analyse, figure=figure_1_figure, claims=("bolt:figure-1",),
))


# -------------------------------------------------------------------------------------------- Figure 2
FIG2_LENGTHSCALES = (1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0)
#: left panel: R(n) ∈ O(n³) (READING.md §bolt:figure-2); right panel: R growing like n, n², n³ with a common (c, a)
FIG2_CUBIC = "0.1 + 1e-6*n**3"
FIG2_GROWTH = {"n": "0.1 + 1e-3*n", "n²": "0.1 + 1e-3*n**2", "n³": "0.1 + 1e-3*n**3"}
#: the reference grid's coefficients, one per growth order (reported: the ordering there depends on them)
FIG2_CATALOG = {"n": "0.1 + 1e-3*n", "n²": "0.1 + 1e-4*n**2", "n³": "0.1 + 1e-6*n**3"}
FIG2_CONSTANT = "0.1"
FIG2_GROWTH_KERNELS = ("se", "matern12")
WINDOW_SIZES = {"n*/4": max(1, round(N_STAR / 4)), "n*": N_STAR, "4n*": 4 * N_STAR}
WINDOW_BOLT = "BOLT (R fitted from the clock)"
#: simulated seconds of the window comparison (the paper runs 600 s per benchmark)
WINDOW_BUDGET = {"quick": 150.0, "full": 600.0}


def figure_2_curves() -> dict[str, Any]:
    """n* of (9) (certified search) for every panel of Figure 2 and the constant-R increments."""
    from tvbo_verify.theory.response import log_constant_increments

    left = {k: [certified_n_star(FIG2_CUBIC, k, lt) for lt in FIG2_LENGTHSCALES] for k in FIG1_KERNELS}
    right = {k: {g: [certified_n_star(r, k, lt) for lt in FIG2_LENGTHSCALES] for g, r in FIG2_GROWTH.items()}
             for k in FIG2_GROWTH_KERNELS}
    catalog = {g: [certified_n_star(r, "se", lt) for lt in FIG2_LENGTHSCALES] for g, r in FIG2_CATALOG.items()}
    constant = {}
    for k in FIG1_KERNELS:
        kt = temporal_kernel(k, 10.0)
        res = n_star(ResponseModel.from_expression(FIG2_CONSTANT), kt)
        inc = log_constant_increments(ResponseModel.from_expression(FIG2_CONSTANT), kt, 10_000)
        constant[k] = {"n_star": res.n_star, "method": res.method,
                       "smallest log increment": float(inc.min()), "increments finite": bool(np.all(np.isfinite(inc)))}
    return {"lengthscales": list(FIG2_LENGTHSCALES), "cubic": left, "growth": right, "catalog_coefficients": catalog,
            "constant": constant}


def window_sweeps(fidelity: str) -> dict[str, Sweep]:
    """FIFO windows of n*/4, n* and 4n* and BOLT on ``bolt-st``, each run long enough to cover the budget."""
    budget, reps = WINDOW_BUDGET[fidelity], quick(fidelity, 6, 20)
    beta = wdbo_practical()
    out = {}
    for name, size in WINDOW_SIZES.items():
        T = horizon_for(budget, RESPONSE, lambda m, s=size: min(m, s))
        out[f"window {name}"] = Sweep(f"bolt n* window {name}", (Arm(f"FIFO GP-UCB, n = {name} = {size}", "fifo-gp-ucb",
                                                                      {"size": size}, beta),),
                                      "bolt-st", (T,), reps, env_params=BOLT_ST)
    T = horizon_for(budget, RESPONSE, lambda m: min(m, N_STAR))
    out["window BOLT"] = Sweep("bolt n* window BOLT", (Arm(WINDOW_BOLT, "bolt", {"response": "clock"}, beta),),
                               "bolt-st", (T,), reps, env_params=BOLT_ST)
    return out


def figure_2_sweeps(fidelity: str) -> dict[str, Sweep]:
    return window_sweeps(fidelity)


def window_budget(bolt_horizon: int) -> float:
    """The budget a window sweep was built for, read back from BOLT's horizon."""
    for budget in WINDOW_BUDGET.values():
        if horizon_for(budget, RESPONSE, lambda m: min(m, N_STAR)) == bolt_horizon:
            return budget
    raise ValueError(f"no window budget gives BOLT the horizon {bolt_horizon}")


def window_analyse(results: dict[str, SweepResult], rng: np.random.Generator) -> dict[str, Any]:
    budget = window_budget(results["window BOLT"].sweep.horizons[-1])
    values: dict[str, dict[str, np.ndarray]] = {}
    for name, res in results.items():
        if not name.startswith("window"):
            continue
        label = res.sweep.arms[0].label
        pairs = np.array([budget_regret(tr, budget) for tr in res.runs(label)])
        values[label] = {"per iteration": pairs[:, 0], "per unit time": pairs[:, 1]}
    star = f"FIFO GP-UCB, n = n* = {N_STAR}"
    comparisons = {reading: {other: compare_values(star, values[star][reading], other, values[other][reading], rng)
                             for other in values if other != star}
                   for reading in ("per iteration", "per unit time")}
    caps = [tr.meta["policy"]["n_star_history"] for tr in results["window BOLT"].runs(WINDOW_BOLT)]
    sizes = [int(tr.dataset_size[10:].max()) for tr in results["window BOLT"].runs(WINDOW_BOLT)]
    means = {lab: {r: summary(v, rng) for r, v in vals.items()} for lab, vals in values.items()}
    return {"budget": budget, "means": means,
            "comparisons": comparisons, "bolt_n_star_history": caps, "bolt_largest_size_after_fit": sizes,
            "n_star": N_STAR}


def figure_2_analyse(results: dict[str, SweepResult], rng: np.random.Generator) -> Finding:
    curves = figure_2_curves()
    window = window_analyse(results, rng)
    left = curves["cubic"]
    smooth_order = all(left["matern12"][i] <= left["matern32"][i] <= left["matern52"][i] <= left["se"][i]
                       for i in range(len(FIG2_LENGTHSCALES)))
    largest = {lt: max(FIG1_KERNELS, key=lambda k: left[k][i]) for i, lt in enumerate(FIG2_LENGTHSCALES)}
    comp = window["comparisons"]["per iteration"]
    text = (f"n* (R = {FIG2_CUBIC}) at l_T = {FIG2_LENGTHSCALES[0]:g} … {FIG2_LENGTHSCALES[-1]:g}: "
            + "; ".join(f"{k} {v[0]} … {v[-1]}" for k, v in left.items())
            + f". Matérn-1/2 <= 3/2 <= 5/2 <= RBF at every l_T: {smooth_order}; largest n*: "
            + ", ".join(f"l_T = {lt:g}: {k}" for lt, k in largest.items())
            + ". RBF, R = 0.1 + 1e-3 n^p: "
            + "; ".join(f"{g}: {v[0]} … {v[-1]}" for g, v in curves["growth"]["se"].items())
            + "; reference-grid coefficients (1e-3 n, 1e-4 n², 1e-6 n³): "
            + "; ".join(f"{g}: {v[0]} … {v[-1]}" for g, v in curves["catalog_coefficients"].items())
            + f". Constant R = {FIG2_CONSTANT}: n* = "
            + ", ".join(f"{k} {c['n_star']}" for k, c in curves["constant"].items())
            + f". Runs on bolt-st (n* = {N_STAR}), average regret within {window['budget']:g} s per iteration: "
            + ", ".join(f"{lab} {m['per iteration']['mean']:.3g}" for lab, m in window["means"].items())
            + "; n* window minus other: " + ", ".join(
                f"{c['b'].split(', ')[-1]}: {c['difference']['mean']:+.3g} [{c['difference']['ci95'][0]:+.3g}, "
                f"{c['difference']['ci95'][1]:+.3g}]" for c in comp.values())
            + f"; BOLT's n* in the runs: {sorted({n for h in window['bolt_n_star_history'] for n in h})}.")
    return Finding(text, {**curves, "smoothness_order_holds": smooth_order, "largest": {str(k): v for k, v in
                                                                                         largest.items()},
                          "window": window})


def figure_2_figure(results: dict[str, SweepResult], finding: Finding) -> Figure:
    import matplotlib.pyplot as plt

    fig, (left, mid, right) = plt.subplots(1, 3, figsize=(7.5, 3.4), layout="constrained")
    lts = finding.data["lengthscales"]
    for k, v in finding.data["cubic"].items():
        left.plot(lts, v, marker="o", ms=3, label=k)
    left.set_title(f"R = {FIG2_CUBIC}", fontsize=8)
    for g, v in finding.data["growth"]["se"].items():
        mid.plot(lts, v, marker="o", ms=3, label=f"R ∈ O({g})")
    mid.set_title("RBF k_T, R = 0.1 + 1e-3 n^p; constant R: n* = ∞", fontsize=8)
    for ax in (left, mid):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lts[0], lts[-1])
        ax.set_xlabel("temporal lengthscale l_T (s)")
        ax.set_ylabel("n* of (9)")
        ax.legend(fontsize=6)
    w = finding.data["window"]
    labels = list(w["means"])
    m = [w["means"][lab]["per iteration"]["mean"] for lab in labels]
    ci = np.array([w["means"][lab]["per iteration"]["ci95"] for lab in labels]).T
    right.errorbar(range(len(labels)), m, yerr=[np.subtract(m, ci[0]), ci[1] - m], fmt="o", capsize=3)
    short = [lab.replace("FIFO GP-UCB, ", "FIFO ").replace(" (R fitted from the clock)", "") for lab in labels]
    right.set_xticks(range(len(labels)), short, rotation=30, fontsize=6)
    right.set_xlim(-0.5, len(labels) - 0.5)
    right.set_ylabel(f"average regret within {w['budget']:g} s")
    right.set_title(f"bolt-st, n* = {w['n_star']} (95% CI)", fontsize=8)
    return fig


register_reproduction(Reproduction(
    id="bolt:figure-2",
    paper="bolt",
    title="n* against kernel smoothness and response-time growth (Figure 2), and windows around n*",
    setup=(f"Closed form: n* of (9) by certified search for Matérn-1/2, 3/2, 5/2, RBF and RQ k_T with R = {FIG2_CUBIC} "
           f"(left), and for RBF and Matérn-1/2 k_T with R = 0.1 + 1e-3 n^p, p = 1, 2, 3, and R = {FIG2_CONSTANT} "
           f"(right), l_T = 1 … 100 s. Runs: bolt-st (d = 2, 15 × 15, Matérn-3/2 l_T = 10 s, R(n) = {RESPONSE} s, "
           f"n* = {N_STAR}); FIFO GP-UCB with n = n*/4, n*, 4n* and BOLT fitting R from the clock, β = 0.2 d log(2n), "
           "average regret within a budget of 150 s (quick, 6 repetitions) or 600 s (full, 20)."),
    expected="Slower-growing R gives larger n*, constant R gives n* = ∞, smoother kernels give larger n*; a window "
             "of n* beats n*/4 and 4n* (qualitative; READING.md §bolt:figure-2).",
    sweeps=figure_2_sweeps, analyse=figure_2_analyse, figure=figure_2_figure, claims=("bolt:figure-2",),
))
