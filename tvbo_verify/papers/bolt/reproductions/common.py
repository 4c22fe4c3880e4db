"""What every ``bolt`` reproduction shares: the ``bolt-st`` set-up, time budgets on the simulated clock,
comparisons and trends of per-repetition values, and runs replayed on their environment."""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np

from tvbo_verify.authoring import SweepResult, bootstrap_mean_ci, pick
from tvbo_verify.bandits.runner import Trace
from tvbo_verify.kernels import temporal_kernel
from tvbo_verify.theory.response import ResponseModel, n_star

RESPONSE = "0.5 + 2e-4*n**3"
BOLT_ST = {"d": 2, "points_per_dim": 15, "temporal": "matern32", "temporal_lengthscale": 10.0,
           "response_time": RESPONSE}
#: Lipschitz constant given to the β of (63) (Assumption 3.4) and the δ of Lemma D.1 / Theorem 3.8
LIPSCHITZ, DELTA = 40.0, 0.1


def quick(fidelity: str, small: Any, large: Any) -> Any:
    """``small`` at quick fidelity, ``large`` at full fidelity."""
    return pick(fidelity, small, large)


def certified_n_star(response: str, temporal: str, lengthscale: float) -> int:
    """``n*`` of eq. (9) by the certified search of :func:`tvbo_verify.theory.response.n_star`."""
    return int(n_star(ResponseModel.from_expression(response), temporal_kernel(temporal, lengthscale)).n_star)


N_STAR = certified_n_star(RESPONSE, BOLT_ST["temporal"], BOLT_ST["temporal_lengthscale"])


# ------------------------------------------------------------------------------------ time budgets
#: the most iterations :func:`horizon_for` counts (a response time of microseconds against a budget of hours)
MAX_ITERATIONS = 10_000_000


def horizon_for(budget: float, response: str, sizes: Callable[[int], int]) -> int:
    """Iterations after which the simulated clock has passed ``budget`` seconds when the dataset holds at
    least ``sizes(m)`` observations after iteration ``m`` (``R`` increases, so a larger dataset only
    reaches the budget sooner): the horizon that covers the budget for every such run (at most
    :data:`MAX_ITERATIONS`)."""
    R = ResponseModel.from_expression(response)
    clock, m = 0.0, 1
    while clock < budget:
        if m > MAX_ITERATIONS:
            raise ValueError(f"budget must be reached within {MAX_ITERATIONS} iterations of R(n) = {response}, "
                             f"got {budget:g} s ({clock:.3g} s after {MAX_ITERATIONS})")
        clock += float(R(float(sizes(m))))
        m += 1
    return m


def budget_regret(trace: Trace, budget: float) -> tuple[float, float]:
    """Average regret over the first ``budget`` simulated seconds of a run, read two ways (READING.md §3.9):
    per iteration (mean of ``r_m`` over the iterations started before the budget) and per unit of time
    (``Σ r_m (min(t_{m+1}, budget) − t_m) / (budget − t_1)``, the decision of iteration ``m`` standing until
    the next one)."""
    t, r = trace.time, trace.regret
    if t[-1] < budget:
        raise ValueError(f"the run ends at {t[-1]:.4g} s, before the budget of {budget:g} s")
    m = int(np.sum(t < budget))
    ends = np.minimum(t[1:m + 1], budget)
    return float(r[:m].mean()), float(np.sum(r[:m] * (ends - t[:m])) / (budget - t[0]))


def compare_values(a: str, va: np.ndarray, b: str, vb: np.ndarray, rng: np.random.Generator, *,
                   paired: bool = True) -> dict[str, Any]:
    """``a − b`` of per-repetition values with a bootstrap 95% interval, and the ratio of means with its
    interval, in the form of :func:`~tvbo_verify.sweeps.reproduce.compare` (paired by repetition, or
    resampled independently when the two come from different environments)."""
    va, vb = np.asarray(va, float), np.asarray(vb, float)
    B = 2000
    ia = rng.integers(0, va.size, size=(B, va.size))
    ib = ia if paired else rng.integers(0, vb.size, size=(B, vb.size))
    if paired:
        mean, lo, hi = bootstrap_mean_ci(va - vb, rng)
    else:
        diffs = va[ia].mean(axis=1) - vb[ib].mean(axis=1)
        mean, lo, hi = float(va.mean() - vb.mean()), float(np.quantile(diffs, 0.025)), float(np.quantile(diffs, 0.975))
    ratios = va[ia].mean(axis=1) / np.maximum(vb[ib].mean(axis=1), 1e-300)
    return {"a": a, "b": b, "difference": {"mean": mean, "ci95": [lo, hi], "n": int(va.size)},
            "mean_a": float(va.mean()), "mean_b": float(vb.mean()), "ratio": float(va.mean() / max(vb.mean(), 1e-300)),
            "ratio_ci95": [float(np.quantile(ratios, 0.025)), float(np.quantile(ratios, 0.975))], "paired": paired}


def trend(x: Sequence[float], groups: Sequence[np.ndarray], rng: np.random.Generator, B: int = 2000) -> dict[str, Any]:
    """Log–log slope of the group means against ``x`` (one group of repetitions per ``x``, from different
    environments) with a bootstrap 95% interval that resamples the repetitions of every group."""
    lx = np.log(np.asarray(x, float))

    def slope(means: np.ndarray) -> np.ndarray:
        ly = np.log(np.maximum(means, 1e-300))
        return ((lx - lx.mean()) * (ly - ly.mean(axis=-1, keepdims=True))).sum(axis=-1) / ((lx - lx.mean()) ** 2).sum()

    est = float(slope(np.array([g.mean() for g in groups])))
    boots = np.column_stack([g[rng.integers(0, g.size, size=(B, g.size))].mean(axis=1) for g in groups])
    s = slope(boots)
    return {"slope": est, "ci95": [float(np.quantile(s, 0.025)), float(np.quantile(s, 0.975))],
            "x": list(map(float, x))}


def summary(values: np.ndarray, rng: np.random.Generator) -> dict[str, Any]:
    mean, lo, hi = bootstrap_mean_ci(values, rng)
    return {"mean": mean, "ci95": [lo, hi], "n": int(np.size(values))}


# ---------------------------------------------------------------------- runs replayed on the environment
def environment_values(result: SweepResult, label: str, T: int, rep: int) -> tuple[Any, np.ndarray]:
    """The environment of one run and ``f(·, t_m)`` on its grid at every iteration (T × G), replayed from the
    run's seed and dataset sizes (the clock advances by ``R(|D|)``, exactly as in the run)."""
    from tvbo_verify.bandits.registry import make_env

    spec = result.sweep.spec(label, T, rep)
    trace = result.trace(label, T, rep)
    env = make_env(spec.environment, dict(spec.env_params))
    env_rng = np.random.default_rng(spec.seed_sequence()).spawn(4)[0]
    env.reset(env_rng, T)
    F = np.empty((T, env.grid.shape[0]))
    for m in range(T):
        if m:
            env.advance(int(trace.dataset_size[m - 1]))
        F[m] = env.values()
    if not np.allclose(F.max(axis=1) - F[np.arange(T), trace.index], trace.regret, rtol=1e-10, atol=1e-12):
        raise ValueError(f"replaying {label} (rep {rep}) does not reproduce its regret")
    return env, F


def grid_slope(values: np.ndarray, points_per_dim: int, d: int) -> float:
    """Largest ``|f(x) − f(x')| / ‖x − x'‖`` between grid neighbours along an axis, over every row of ``values``."""
    h = 1.0 / (points_per_dim - 1)
    cube = values.reshape((values.shape[0],) + (points_per_dim,) * d)
    return float(max(np.abs(np.diff(cube, axis=a + 1)).max() for a in range(d)) / h)


def chosen_sigma(env: Any, trace: Trace, size: int | None) -> np.ndarray:
    """``σ_D(x_m, t_m)`` at every iteration, the policy's exact posterior rebuilt from the trace: FIFO GP-UCB
    (``size``: ``D`` holds the ``size`` observations before ``m``, spatio-temporal kernel) or GP-UCB (``None``:
    every earlier observation, the spatial kernel the environment tells, time ignored). One Gram matrix of
    the run, sliced per iteration: ``σ² = k(z_m, z_m) − k_Dᵀ (K_D + σ₀² I)⁻¹ k_D``."""
    from scipy.linalg import cho_factor, cho_solve

    from tvbo_verify.authoring import single_threaded_blas

    kernel, X = (env.st_kernel, np.column_stack([trace.x, trace.time])) if size else (env.kernel, trace.x)
    K = kernel(X)
    out = np.empty(trace.T)
    with single_threaded_blas():  # many small solves: threads only add overhead
        for m in range(trace.T):
            lo = max(0, m - size) if size else 0
            k = K[lo:m, m]
            var = K[m, m] if m == 0 else K[m, m] - k @ cho_solve(
                cho_factor(K[lo:m, lo:m] + env.noise_var * np.eye(m - lo)), k)
            out[m] = math.sqrt(max(float(var), 0.0))
    return out


def make_bolt_env() -> Any:
    from tvbo_verify.bandits.registry import make_env

    return make_env("bolt-st", dict(BOLT_ST))
