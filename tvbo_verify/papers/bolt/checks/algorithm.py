"""``bolt`` Algorithm 1 (BOLT, §4): the dataset cap ``n*`` and the Wasserstein removal loop, on one run.

* ``bolt:algorithm-1`` — one seeded run of :class:`tvbo_verify.bandits.BOLT` on the continuous-time
  environment ``bolt-st`` (a separable GP sample whose clock advances by ``R(|D|)`` after every iteration):
  ``n*`` is computed once by eq. (9) (line 2), the dataset grows by one observation per iteration and never
  exceeds ``n*`` after the loop of lines 8–10, and every deleted observation is the one of least
  ``W₂(GP_D, GP_{D∖o})`` (line 9). Deliberately broken variants must be caught.

Reading: READING.md §bolt:algorithm-1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tvbo_verify.authoring import (
    Comparison,
    Context,
    Evidence,
    Property,
    claim,
    play_audited,
    properties_evidence,
)
from tvbo_verify.bandits import BOLT, Trace
from tvbo_verify.bandits.environments import SpatioTemporalGP
from tvbo_verify.divergences import removal_w2_bruteforce
from tvbo_verify.theory.response import n_star

from .plotting import finish, new_axes

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: the simulated clock: c = R(0) = 0.5 s plus a cubic inference cost (n* = 11 with a Matérn-3/2 k_T, l_T = 10)
RESPONSE = "0.5 + 2e-4*n**3"


class RecordingBOLT(BOLT):
    """BOLT that records, at every deletion, the dataset it removed from and the index it removed."""

    def _reset(self) -> None:
        super()._reset()
        self.deletions: list[dict[str, Any]] = []

    def relevance(self, time: float) -> np.ndarray:
        self._last_time = time
        return super().relevance(time)

    def _remove(self, i: int) -> None:
        self.deletions.append({"X": self.X.copy(), "y": self.y.copy(), "time": self._last_time, "removed": int(i)})
        super()._remove(i)


class CapTooLarge(RecordingBOLT):
    """Mutant: the cap one observation too large (``|D| > n* + 1`` triggers the removal)."""

    def _compute_n_star(self, model: Any) -> int:
        return super()._compute_n_star(model) + 1


class OldestFirst(RecordingBOLT):
    """Mutant: line 9 replaced by the oldest observation (a sliding window, as in the proof of Thm 3.8)."""

    def relevance(self, time: float) -> np.ndarray:
        self._last_time = time
        return self.X[:, -1].copy()  # the smallest time is removed


#: the spatio-temporal GP of the runs, as ``make_env`` takes it
ENVIRONMENT = {"response_time": RESPONSE, "d": 2, "points_per_dim": 7, "temporal": "matern32",
               "temporal_lengthscale": 10.0}


def environment() -> SpatioTemporalGP:
    return SpatioTemporalGP(**ENVIRONMENT)


def run_policy(policy: RecordingBOLT, T: int, seed: np.random.SeedSequence) -> Trace:
    """One run of ``policy``, audited (``audit_played_runs``: the GP and its clock against their definition, the
    trace's ledger) before anything reads it."""
    return play_audited(policy, SpatioTemporalGP.name, ENVIRONMENT, T, seed)


def deletion_mismatches(policy: RecordingBOLT) -> tuple[int, int]:
    """Deletions whose index is not the argmin of ``W₂`` recomputed by refits (``removal_w2_bruteforce``)."""
    k = policy.kernel
    bad = 0
    for rec in policy.deletions:
        nodes = policy._quadrature(rec["time"])
        w2 = removal_w2_bruteforce(k(rec["X"]), k(nodes, rec["X"]), k.diag(nodes), rec["y"], policy.problem.noise_var)
        bad += int(rec["removed"] != int(np.argmin(w2)))
    return bad, len(policy.deletions)


def algorithm_properties(policy: RecordingBOLT, trace: Trace, certified: int) -> list[Property]:
    """Lines 2, 7, 8–10 of Algorithm 1 and the clock, measured on one run."""
    T = trace.T
    cap = policy.n_star
    expected = np.minimum(np.arange(1, T + 1), certified)
    sizes = trace.dataset_size
    R = environment().response_time
    clock = np.diff(trace.time)
    predicted = np.array([R(int(n)) for n in sizes[:-1]])
    bad, deletions = deletion_mismatches(policy)
    return [
        Property.compare("line 2: n* is the certified argmax of (9) for R and k_T",
                         Comparison(cap, certified, "=="), detail=f"policy n* = {cap}, certified {certified}"),
        Property.compare("lines 8–10: |D| <= n* after every iteration",
                         Comparison(int(sizes.max()), certified, "<="),
                         sharpened=Comparison(int(sizes.max()), certified - 1, "<="),
                         detail=f"largest dataset {int(sizes.max())}"),
        Property.compare("lines 6–10: |D_t| = min(t, n*) (one observation added, one removed once full)",
                         Comparison(int(np.sum(sizes != expected)), 0, "=="),
                         detail=f"sizes {sizes[:certified + 2].tolist()}..."),
        Property.compare("line 9: every deletion is the argmin of W₂ (recomputed by refits)",
                         Comparison(bad, 0, "=="), detail=f"{deletions} deletions, {bad} not the W₂ argmin"),
        Property.compare("clock: t_{m+1} − t_m = R(|D_m|)",
                         Comparison(float(np.max(np.abs(clock - predicted) / predicted)), 0.0, "==", tol=1e-12),
                         detail=f"R(n) = {RESPONSE}"),
    ]


@claim("bolt:algorithm-1")
def algorithm_1(ctx: Context) -> Evidence:
    """Algorithm 1 (Sec. 4), on one seeded run of ``bandits.BOLT`` on ``bolt-st`` (a GP sample whose simulated clock
    advances by R(|D|)): n* equals the certified argmax of (9) (line 2); |D| never exceeds n*; |D_t| = min(t, n*);
    every deletion is the W₂ argmin recomputed by exact refits (line 9); the clock advances by R(|D|). Power: the cap
    read as |D| < n* must be caught, and two mutants run on the same seed, the cap one too large and oldest-first
    deletion, must be called violated. Full reading: READING.md §bolt:algorithm-1."""
    T = ctx.pick(40, 150)
    seed = ctx.seeds(1)[0]
    env = environment()
    policy = RecordingBOLT()
    trace = run_policy(policy, T, seed)
    certified = n_star(env.response_time.model, policy.k_T).n_star
    props = algorithm_properties(policy, trace, certified)
    mutants = {}
    for name, cls in (("cap one too large", CapTooLarge), ("oldest-first deletion", OldestFirst)):
        mutant = cls()
        mutants[name] = algorithm_properties(mutant, run_policy(mutant, T, seed), certified)
    ev = properties_evidence(ctx, props, what="BOLT Algorithm 1", sharpening="the cap read as |D| < n*",
                             mutants=mutants, stats={"T": T, "n_star": certified, "response": RESPONSE},
                             configuration={"T": T, "response": RESPONSE})
    ev.figures.append(("dataset size of one BOLT run", lambda: size_figure(trace, certified)))
    return ev


def size_figure(trace: Trace, cap: int) -> Figure:
    """``|D_t|`` against the iteration, with the cap ``n*``."""
    fig, ax = new_axes(3.2)
    t = np.arange(1, trace.T + 1)
    ax.step(t, trace.dataset_size, where="post", label="|D_t| (BOLT)")
    ax.axhline(cap, color="tab:red", ls="--", label=f"n* = {cap} (eq. (9))")
    finish(ax, xlabel="iteration t", ylabel="dataset size", xlim=(1, trace.T))
    return fig
