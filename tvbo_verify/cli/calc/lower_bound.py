"""``calc lower-bound bolt|wsparq|tvgpucb``: the ingredients of the three papers' lower bounds.

``bolt`` lives in :mod:`.lower_bound_bolt` (it needs the kernels and spectral densities) and is imported
only when it runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..lazy import LazyGroup
from ..params import WHOLE
from .common import DIMENSION, emit, finish_axes, ignored_options, json_option, plot_option, save_plot

if TYPE_CHECKING:
    from pathlib import Path


@click.group("lower-bound", cls=LazyGroup,
             lazy_commands={"bolt": "tvbo_verify.cli.calc.lower_bound_bolt:lower_bound_bolt"})
def lower_bound() -> None:
    """Lower-bound ingredients: bolt eps_c (Thm 3.6), wsparq section 5 (Fano, L*, T0, V_T), tvgpucb genie."""


@lower_bound.command("wsparq")
@click.option("--alpha", type=float, default=2.0, show_default=True, help="UI exponent.")
@click.option("-T", "--horizon", type=WHOLE, default=1000, show_default=True, help="Horizon, in steps.")
@click.option("--budget", type=float, default=None, help="Number of side queries N_T.")
@click.option("--noise-var", type=float, default=1.0, show_default=True, help="sigma^2.")
@click.option("--gamma", "bump_gamma", type=float, default=None, help="Bump amplitude for M(gamma) of (36).")
@click.option("--B", "B", type=float, default=5.0, show_default=True, help="RKHS bound for M(gamma).")
@click.option("--lengthscale", type=float, default=0.1, show_default=True, help="SE lengthscale for M(gamma).")
@click.option("--d", type=DIMENSION, default=1, show_default=True, help="Dimension for M(gamma).")
@click.option("--cells", type=int, default=None, help="Number M of bump functions for the Fano bound (needs --gamma).")
@json_option
@plot_option
@click.pass_context
def lower_bound_wsparq(ctx: click.Context, alpha: float, horizon: int, budget: float | None, noise_var: float,
                       bump_gamma: float | None, B: float, lengthscale: float, d: int, cells: int | None,
                       as_json: bool, plot_path: Path | None) -> None:
    """wsparq section 5: C2, L*, T0, V_T, S_tau for a budget, M(gamma) of (36) and the Fano bound."""
    if cells is not None and bump_gamma is None:
        raise click.BadParameter("--cells needs --gamma (the bump amplitude)", param_hint="'--cells'")
    from ...theory import lower_bound_tables as LBT

    table = LBT.wsparq_lower_bound_table(alpha, horizon, noise_var=noise_var, budget=budget, bump_gamma=bump_gamma,
                                         B=B, lengthscale=lengthscale, d=d, cells=cells)

    def draw(ax):
        Ls, F = LBT.window_objective_curve(alpha, horizon)
        ax.loglog(Ls, F, label="F(L)")
        ax.axvline(table.L_star_derived, color="k", ls="--", lw=1, label="L* derived")
        ax.axvline(table.L_star_printed, color="C3", ls=":", lw=1, label="L* printed")
        finish_axes(ax, (Ls[0], Ls[-1]), "L (steps)", r"$F(L)=L^{-\alpha}+4L/T$")

    save_plot(plot_path, draw)
    used = ["alpha", "horizon", "budget", "noise_var", "bump_gamma", "cells",
            *(["B", "lengthscale", "d"] if bump_gamma is not None else [])]
    emit(table, as_json, "wsparq section 5 lower-bound ingredients",
         ignored_options(ctx, used, "it enters only M(gamma) of (36) (give --gamma)"))


@lower_bound.command("tvgpucb")
@click.option("--epsilon", type=float, default=0.01, show_default=True, help="Forgetting epsilon in (0, 1).")
@click.option("-T", "--horizon", type=WHOLE, default=1000, show_default=True, help="Horizon, in steps.")
@click.option("--samples", type=int, default=0, show_default=True, help="Monte Carlo genie samples (0: none).")
@click.option("--lengthscale", type=float, default=0.1, show_default=True, help="SE lengthscale of the genie's GP.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the genie samples.")
@json_option
@plot_option
@click.pass_context
def lower_bound_tvgpucb(ctx: click.Context, epsilon: float, horizon: int, samples: int, lengthscale: float, seed: int,
                        as_json: bool, plot_path: Path | None) -> None:
    """tvgpucb Theorem 4.1, E[R_T] = Omega(T eps), with the App. F genie estimate."""
    import numpy as np

    from ...theory import lower_bound_tables as LBT

    table = LBT.tvgpucb_genie_table(epsilon, horizon, samples=samples, lengthscale=lengthscale, seed=seed)

    def draw(ax):
        Ts = np.geomspace(1, max(horizon, 2), 100)
        ax.loglog(Ts, Ts * epsilon, label=r"$T\epsilon$ (order of Thm 4.1, constant 1)")
        if table.genie is not None:
            ax.loglog(Ts, np.maximum(Ts - 1, 1e-300) * table.genie.genie_mean_regret, "C1",
                      label=r"genie $(T-1)\,E[r_t]$")
        finish_axes(ax, (Ts[0], Ts[-1]), "T (steps)", "lower bound on $E[R_T]$")

    save_plot(plot_path, draw)
    used = ["epsilon", "horizon", "samples", *(["lengthscale", "seed"] if samples else [])]
    emit(table, as_json, "tvgpucb Theorem 4.1 (genie, App. F)",
         ignored_options(ctx, used, "it enters only the genie estimate (give --samples N)"))
