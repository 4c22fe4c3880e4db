"""``tvgpucb`` Algorithms 1 (R-GP-UCB) and 2 (TV-GP-UCB): properties of single short runs.

================================  ==============================================================
claim                             paper
================================  ==============================================================
``tvgpucb:algorithm-1``           Algorithm 1 with the reset test as printed, t mod N = 1
``tvgpucb:algorithm-1+corrected`` Algorithm 1 with the reset test (t − 1) mod N = 0 (READING.md §5.6)
``tvgpucb:algorithm-2``           Algorithm 2, the incremental update of (7)–(8) and its O(t²) cost (Sec. 3)
================================  ==============================================================

Runs are on the Markov model (3)–(4) of ``bandits.environments.MarkovGP`` (a 1-D grid with the SE kernel,
:data:`ENVIRONMENT`) with the practical β_t = 0.8 log(4t) of the synthetic experiments; every run's seed comes
from ``ctx.seeds``. The properties are deterministic given the seed; the readings are READING.md §2.6; §5.6.
"""

from __future__ import annotations

import copy
import math
from time import perf_counter
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from tvbo_verify.authoring import (
    Comparison,
    Context,
    Evidence,
    Property,
    audit_played_runs,
    claim,
    loglog_slope,
    play_recorded,
    properties_evidence,
    to_jsonable,
)
from tvbo_verify.bandits import GPUCB, RGPUCB, TVGPUCB
from tvbo_verify.bandits.environments.gpsample import MarkovGP
from tvbo_verify.bandits.registry import make_env
from tvbo_verify.gp import IncrementalPosterior, tv_posterior
from tvbo_verify.kernels import SquaredExponential

from .instances import finish_axes
from .posterior import PosteriorFormula

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: the test-bed of the algorithm checks
ENVIRONMENT = {"epsilon": 0.05, "points_per_dim": 51, "d": 1, "lengthscale": 0.2, "noise_var": 0.01}


#: the registered name of the Markov model (what ``make_env`` and the run audit build it from)
MARKOV = MarkovGP.name


def markov_params(epsilon: float = ENVIRONMENT["epsilon"], **overrides: Any) -> dict[str, Any]:
    """The test-bed's Markov model with drift ``epsilon`` as ``make_env`` takes it (the run audit realises it again
    from these)."""
    return {**ENVIRONMENT, "epsilon": epsilon, **overrides}


def markov_environment(epsilon: float = ENVIRONMENT["epsilon"]) -> MarkovGP:
    """The test-bed's Markov model, built from :func:`markov_params` as a sweep and the run audit build it."""
    return make_env(MARKOV, markov_params(epsilon))


def markov_run(policy: Any, T: int, seed: np.random.SeedSequence, played: list) -> Any:
    """The trace of one run of ``policy`` on the test-bed's Markov model from a pristine copy of ``seed``; the run is
    appended to ``played`` for the run audit (``audit_played_runs``)."""
    run_ = play_recorded(policy, MARKOV, markov_params(), T, seed)
    played.append(run_)
    return run_.trace


def seed_record(seed: np.random.SeedSequence) -> dict[str, Any]:
    """What reproduces a run's generator: the entropy and spawn key of its seed sequence."""
    return {"entropy": str(seed.entropy), "spawn_key": list(seed.spawn_key)}


# ------------------------------------------------------------------------------------- Algorithm 1
class ResetTest(RGPUCB):
    """R-GP-UCB whose reset test is ``fires(t, N)``: the printed ``t mod N = 1`` or a mutant of it."""

    def __init__(self, block: int, fires: Callable[[int, int], bool], label: str) -> None:
        super().__init__(block=block)
        self.fires = fires
        self.name = f"r-gp-ucb ({label})"

    def select(self, step: int, time: float) -> int:
        if self.fires(step, self.block):
            self.post = self._new_posterior()
            self.resets.append(step)
        return super(RGPUCB, self).select(step, time)


RESET_TESTS: dict[str, Callable[[int, int], bool]] = {
    "printed t mod N = 1": lambda t, N: t % N == 1,
    "block end t mod N = 0": lambda t, N: t % N == 0,
}


def reset_policy(test: str | None, block: int) -> RGPUCB:
    """``bandits.RGPUCB`` (test None: (t − 1) mod N = 0) or the same policy with another reset test."""
    return RGPUCB(block=block) if test is None else ResetTest(block, RESET_TESTS[test], test)


def reset_properties(test: str | None, T: int, blocks: list[int], seed: np.random.SeedSequence, played: list,
                     runs: dict | None = None) -> list[Property]:
    """Properties of Algorithm 1 on one Markov-GP run per block length: resets at t = 1, N + 1, 2N + 1, …
    and only there, ⌈T/N⌉ blocks (sharpened: one block more), the dataset restarting at every block,
    and N >= T identical to GP-UCB (same seed)."""
    props = []
    for N in blocks:
        pol = reset_policy(test, N)
        tr = markov_run(pol, T, seed, played)
        if runs is not None:
            runs[N] = tr.dataset_size.copy()
        starts = list(range(1, T + 1, N))
        props.append(Property.boolean(f"N={N}: resets exactly at t = 1, N + 1, 2N + 1, …", list(pol.resets) == starts,
                                      detail=f"resets at {list(pol.resets)[:6]}{'…' if len(pol.resets) > 6 else ''}"))
        blocks_stated = math.ceil(T / N)
        props.append(Property.compare(f"N={N}: number of blocks = ⌈T/N⌉",
                                      Comparison(len(pol.resets), blocks_stated, "==", scale=1.0),
                                      sharpened=Comparison(len(pol.resets), blocks_stated + 1, "==", scale=1.0)))
        expected = (np.arange(T) % N) + 1
        props.append(Property.boolean(f"N={N}: dataset restarts at every block",
                                      bool(np.array_equal(tr.dataset_size, expected))))
        if N >= T:
            ref = markov_run(GPUCB(), T, seed, played)
            props.append(Property.boolean(f"N={N} >= T: identical to GP-UCB", tr.same_run(ref)))
    return props


def reset_figure(runs: dict[str, dict[int, np.ndarray]], T: int) -> Figure:
    """Dataset size of the posterior over t for each reset test and block length."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(runs), figsize=(8.5, 3.0), layout="constrained", sharey=True)
    for ax, (label, sizes) in zip(np.atleast_1d(axes), runs.items()):
        for N, s in sizes.items():
            if N < T:
                ax.step(np.arange(1, T + 1), s, where="post", label=f"N = {N}")
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("round t")
        ax.set_xlim(1, T)
    np.atleast_1d(axes)[0].set_ylabel("observations in the posterior")
    np.atleast_1d(axes)[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def algorithm_1_evidence(ctx: Context, test: str | None, what: str, mutant_tests: list[str | None]) -> Evidence:
    T = ctx.pick(24, 60)
    blocks = [1, 2, 3, 7, T - 1, T, T + 5]
    seed = ctx.seeds(1)[0]
    sizes: dict[int, np.ndarray] = {}
    played: list = []
    props = reset_properties(test, T, blocks, seed, played, sizes)
    mutants, mutant_sizes = {}, {}
    for m in mutant_tests:
        label = m or "corrected (t − 1) mod N = 0"
        mutant_sizes[label] = {}
        mutants[f"reset test {label}"] = reset_properties(m, T, blocks, seed, played, mutant_sizes[label])
    configuration = {"algorithm": reset_policy(test, 1).name, "reset test": test or "(t − 1) mod N = 0",
                     "T": T, "blocks": blocks, "seed": seed_record(seed),
                     "environment": {"name": "MarkovGP", **ENVIRONMENT},
                     "policy": to_jsonable(reset_policy(test, 1).config())}
    ev = properties_evidence(ctx, props, what=what, sharpening="one block more than ⌈T/N⌉",
                             mutants=mutants, configuration=configuration,
                             stats={"T": T, "blocks": blocks, "configuration": configuration,
                                    "run audit": audit_played_runs(played).summary()})
    runs = {test or "corrected (t − 1) mod N = 0": sizes, **mutant_sizes}
    ev.figures.append(("posterior dataset size over the run", lambda: reset_figure(runs, T)))
    return ev


@claim("tvgpucb:algorithm-1")
def algorithm_1(ctx: Context) -> Evidence:
    """Algorithm 1 with the reset test as printed, t mod N = 1: one seeded run on the Markov model of ``ENVIRONMENT``
    per block length of the check's list (N = 1 included). Resets must fall exactly at t = 1, N + 1, 2N + 1, …, with
    ⌈T/N⌉ blocks, the data restarting at each block, and N ≥ T reproducing GP-UCB. Power: one block more must be
    refuted and the block-end mutant (t mod N = 0) called violated; the corrected test runs on the same seed.
    Reading: READING.md §tvgpucb:algorithm-1."""
    return algorithm_1_evidence(ctx, "printed t mod N = 1", "R-GP-UCB with the printed reset test",
                                ["block end t mod N = 0", None])


@claim("tvgpucb:algorithm-1+corrected")
def algorithm_1_corrected(ctx: Context) -> Evidence:
    """Algorithm 1 with the corrected reset test (t − 1) mod N = 0 (``bandits.RGPUCB``), on the runs and properties of
    ``tvgpucb:algorithm-1``: resets exactly at t = 1, N + 1, 2N + 1, …, ⌈T/N⌉ blocks, the data restarting at each
    block, N ≥ T identical to ``bandits.GPUCB``. Power: the printed test t mod N = 1 and the block-end test
    t mod N = 0, run as mutants on the same seed, must be called violated, and one block more must be refuted.
    Reading: READING.md §tvgpucb:algorithm-1+corrected."""
    return algorithm_1_evidence(ctx, None, "R-GP-UCB with the corrected reset test",
                                ["printed t mod N = 1", "block end t mod N = 0"])


# ------------------------------------------------------------------------------------- Algorithm 2
class UpdateCost:
    """Wall time of one Bayesian update at t observations: TV-GP-UCB's incremental update of (7)–(8),
    GP-UCB's incremental update of (5)–(6), and a refit of (7)–(8) from scratch (``gp.tv_posterior``)."""

    GRID = np.linspace(0.0, 1.0, 25)[:, None]
    NOISE = 0.01

    @classmethod
    def measure(cls, checkpoints: list[int], rng: np.random.Generator, repeats: int = 15) -> dict[str, np.ndarray]:
        kern = SquaredExponential(1.0, ENVIRONMENT["lengthscale"])
        top = max(checkpoints) + 1
        idx, ys = rng.integers(0, cls.GRID.shape[0], top), rng.normal(size=top)
        tv = IncrementalPosterior(kern, cls.GRID, forgetting=ENVIRONMENT["epsilon"], capacity=top)
        static = IncrementalPosterior(kern, cls.GRID, capacity=top)
        out: dict[str, list[float]] = {"tv-gp-ucb update": [], "gp-ucb update": [], "tv refit": []}
        for i in range(top):
            if i in checkpoints:  # time the same next append on copies, interleaved (medians)
                a: list[float] = []
                b: list[float] = []
                for _ in range(repeats):
                    for post, acc in ((tv, a), (static, b)):
                        cp = copy.deepcopy(post)
                        start = perf_counter()
                        cp.append(int(idx[i]), float(ys[i]), cls.NOISE)
                        acc.append(perf_counter() - start)
                refit = []
                for _ in range(3):
                    start = perf_counter()
                    tv_posterior(kern, cls.GRID[idx[:i + 1]], ys[:i + 1], cls.NOISE, cls.GRID, ENVIRONMENT["epsilon"])
                    refit.append(perf_counter() - start)
                out["tv-gp-ucb update"].append(float(np.median(a)))
                out["gp-ucb update"].append(float(np.median(b)))
                out["tv refit"].append(float(min(refit)))
            tv.append(int(idx[i]), float(ys[i]), cls.NOISE)
            static.append(int(idx[i]), float(ys[i]), cls.NOISE)
        return {k: np.asarray(v) for k, v in out.items()}

    @staticmethod
    def properties(t: np.ndarray, update: np.ndarray, reference: np.ndarray, label: str) -> list[Property]:
        """Same order as GP-UCB (no growth of the time ratio) and at most quadratic growth."""
        ratio_slope = loglog_slope(t, update / reference)
        return [Property.compare(f"{label}: slope of log(time / GP-UCB update time) vs log t <= 0.25 (same order)",
                                 Comparison(ratio_slope, 0.25, "<="),
                                 detail=f"time ratios {', '.join(f'{r:.2f}' for r in update / reference)} at t = "
                                        f"{', '.join(str(int(x)) for x in t)}"),
                Property.compare(f"{label}: slope of log(update time) vs log t <= 2.25 (O(t²))",
                                 Comparison(loglog_slope(t, update), 2.25, "<="))]


def posterior_properties(pol: TVGPUCB, epsilon: float) -> list[Property]:
    """The incremental posterior after the run against the batch formula (7)–(8) at three grid points."""
    post = pol.post
    grid = pol.problem.grid
    X, y = grid[post.indices, 0].tolist(), post.y.tolist()
    points = {"last played point": int(post.indices[-1]), "point of largest variance": int(np.argmax(post.var)),
              "grid point 0": 0}
    props = []
    for label, g in points.items():
        for quantity, measured in (("mean", post.mean[g]), ("var", post.var[g])):
            p = {"part": "space-time", "quantity": quantity, "X": X, "y": y, "x_star": float(grid[g, 0]),
                 "lengthscale": ENVIRONMENT["lengthscale"], "noise_var": pol.problem.noise_var, "epsilon": epsilon}
            scale = max(1.0, float(np.max(np.abs(y))))
            props.append(Property.compare(
                f"incremental {quantity} at the {label} = batch (7)–(8)",
                Comparison(float(measured), PosteriorFormula.stated(p), "==", tol=1e-9 * scale, scale=scale),
                sharpened=Comparison(float(measured), PosteriorFormula.stated(p, "index"), "==", tol=1e-9 * scale,
                                     scale=scale)))
    return props


def cost_figure(t: np.ndarray, times: dict[str, np.ndarray]) -> Figure:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.0, 3.4), layout="constrained")
    for label, v in times.items():
        ax.loglog(t, v, marker="o", label=label)
    ax.loglog(t, times["gp-ucb update"][-1] * (t / t[-1]) ** 2, "k:", lw=0.8, label="∝ t² (order only)")
    finish_axes(ax, t, "observations t in the posterior", "seconds per update")
    return fig


@claim("tvgpucb:algorithm-2")
def algorithm_2(ctx: Context) -> Evidence:
    """Algorithm 2 and Sec. 3's cost statement. (i) With ε = 0 TV-GP-UCB plays exactly as GP-UCB (same seed); (ii) after
    a run, its incremental posterior (d_t = √(1−ε) [d_{t−1}; 1]) equals the batch (7)–(8) at a few grid points, mean
    and variance; (iii) the wall time of one update, relative to GP-UCB's, does not grow with t (log–log slope), and
    the time itself grows at most quadratically. Power: the index-shifted batch formula must be refuted by (ii), and
    a mutant refitting (7)–(8) every round must fail (iii). Reading: READING.md §tvgpucb:algorithm-2."""
    T = ctx.pick(30, 80)
    run_seed, eq_seed = ctx.seeds(2)
    played: list = []
    props = [Property.boolean("ε = 0: TV-GP-UCB plays exactly as GP-UCB (same seed)",
                              markov_run(TVGPUCB(epsilon=0.0), T, run_seed, played)
                              .same_run(markov_run(GPUCB(), T, run_seed, played)))]
    pol = TVGPUCB(epsilon=ENVIRONMENT["epsilon"])
    markov_run(pol, T, eq_seed, played)
    audit = audit_played_runs(played)  # the Markov model against its definition, each trace's ledger
    props += posterior_properties(pol, ENVIRONMENT["epsilon"])
    checkpoints = ctx.pick([64, 128, 256, 512], [64, 128, 256, 512, 1024])
    t = np.asarray(checkpoints, float)
    times = UpdateCost.measure(checkpoints, ctx.spawn(1)[0])
    props += UpdateCost.properties(t, times["tv-gp-ucb update"], times["gp-ucb update"], "TV-GP-UCB update")
    mutant = UpdateCost.properties(t, times["tv refit"], times["gp-ucb update"], "refit of (7)–(8)")
    ev = properties_evidence(ctx, props, what="TV-GP-UCB (Algorithm 2)",
                             sharpening="batch formula with the index shifted by one, d_i = (1−ε)^{(t−i)/2}",
                             mutants={"refit (7)–(8) from scratch every round": mutant},
                             stats={"T": T, "checkpoints": checkpoints, "run audit": audit.summary(),
                                    "seconds": {k: v.tolist() for k, v in times.items()},
                                    "seeds": {"runs": seed_record(run_seed), "posterior": seed_record(eq_seed)}})
    ev.figures.append(("update time against t", lambda: cost_figure(t, times)))
    return ev
