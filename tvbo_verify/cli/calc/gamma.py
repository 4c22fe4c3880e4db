"""``calc gamma``: the order of the maximum information gain ``γ_T`` and, on a grid, its greedy bracket."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ...theory import gamma_table as G
from ..params import WHOLE
from .common import DIMENSION, emit, finish_axes, ignored_options, json_option, plot_option, save_plot

if TYPE_CHECKING:
    from pathlib import Path


@click.command("gamma")
@click.option("--kernel", "kernel_name", type=click.Choice(G.GRID_KERNELS), required=True)
@click.option("-T", "--horizon", type=WHOLE, required=True, help="T >= 1.")
@click.option("--d", "--dim", "d", type=DIMENSION, default=1, show_default=True, help="Input dimension d.")
@click.option("--nu", type=float, default=None, help="Matern smoothness (required for matern).")
@click.option("--source", type=click.Choice(["vakili", "srinivas"]), default="vakili", show_default=True)
@click.option("--grid", type=int, default=None,
              help="Also bracket gamma_T greedily on N grid points per dimension of [0, 1]^d.")
@click.option("--lengthscale", type=float, default=0.2, show_default=True, help="Kernel lengthscale (with --grid).")
@click.option("--noise-var", type=float, default=0.01, show_default=True, help="Noise variance (with --grid).")
@click.option("--certified", is_flag=True,
              help="With --grid: a certified bracket lower <= gamma_T(grid) <= upper (ball arithmetic), and its ratio.")
@json_option
@plot_option
@click.pass_context
def gamma_cmd(ctx: click.Context, kernel_name: str, horizon: int, d: int, nu: float | None, source: str,
              grid: int | None, lengthscale: float, noise_var: float, certified: bool, as_json: bool,
              plot_path: Path | None) -> None:
    """gamma_T = O(T^a log^b T) (constants unknown) and, with --grid, lower <= gamma_T(grid) <= upper by the
    greedy rule (tvbo_verify.information.max_information_gain); nats, natural log."""
    table = G.gamma_table(kernel_name, horizon, d=d, nu=nu, source=source, grid=grid, lengthscale=lengthscale,
                          noise_var=noise_var, certified=certified)

    def draw(ax):
        import numpy as np

        from ...information_rates import gamma_rate_bound

        Ts = np.unique(np.geomspace(2, max(horizon, 3), 60).astype(int))
        ax.loglog(Ts, [gamma_rate_bound(kernel_name, int(T), d, nu=nu, source=source) for T in Ts],
                  label="$T^a (\\log T)^b$, constant 1")
        if table.grid is not None:
            ax.plot([horizon, horizon], [table.grid.lower, table.grid.upper], "C1", marker="_", ms=12,
                    label="greedy bracket on the grid at T")
        finish_axes(ax, (Ts[0], Ts[-1]), "T", r"$\gamma_T$ (nats)")
        ax.set_title(f"gamma_T order, {kernel_name} ({source})")

    save_plot(plot_path, draw)
    used = ["kernel_name", "horizon", "d", "nu", "source", "grid", "certified",
            *(["lengthscale", "noise_var"] if grid else [])]
    emit(table, as_json, "Maximum information gain gamma_T (order up to a constant; bracket on a grid)",
         ignored_options(ctx, used, "it enters only the grid bracket (give --grid N)"))
