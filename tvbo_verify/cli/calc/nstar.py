"""``calc nstar``: the optimal dataset size ``n*`` of ``bolt`` eq. (9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ...kernels import TEMPORAL_KERNELS
from ...theory import nstar_table as N
from ..params import WHOLE
from .common import DIMENSION, emit, finish_axes, ignored_options, json_option, plot_option, save_plot

if TYPE_CHECKING:
    from pathlib import Path


def _sizes(text: str) -> list[int]:
    try:
        return [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise click.BadParameter(f"expected comma-separated integers, got {text!r}", param_hint="'--measure-sizes'") \
            from None


@click.command("nstar")
@click.option("--response", "response_expr", default=None, help="R(n) as an expression in n, e.g. '0.1 + 1e-6*n^3'.")
@click.option("--response-times", "response_file", type=click.Path(dir_okay=False), default=None,
              help="CSV of measured (n, R) pairs; a cubic is fitted.")
@click.option("--fit", type=click.Choice(N.FITS), default="lstsq", show_default=True,
              help="Cubic fit for --response-times (nonneg: non-negative coefficients, increasing).")
@click.option("--measure", is_flag=True, help="Time this machine's own GP-UCB step and fit R(n) (non-negative cubic).")
@click.option("--measure-sizes", default="25,100,200,400,600", show_default=True,
              help="Dataset sizes timed by --measure.")
@click.option("--observation-time", type=float, default=0.0, show_default=True,
              help="With --measure: seconds to observe f, added to every timing (c = R(0) of Definition 3.5).")
@click.option("--temporal-kernel", type=click.Choice(TEMPORAL_KERNELS), required=True)
@click.option("--temporal-lengthscale", type=float, required=True, help="Temporal lengthscale l_T > 0 (seconds).")
@click.option("--n0", type=int, default=1, show_default=True, help="Start of the hill-climb.")
@click.option("-T", "--horizon", type=WHOLE, default=None, help="Also evaluate Theorem 3.8's bound (7) at this T.")
@click.option("--d", type=DIMENSION, default=1, show_default=True, help="Theorem 3.8: dimension.")
@click.option("--lipschitz", type=float, default=1.0, show_default=True, help="Theorem 3.8: Lipschitz constant L.")
@click.option("--delta", type=float, default=0.1, show_default=True, help="Theorem 3.8: failure probability.")
@click.option("--noise-var", type=float, default=0.01, show_default=True, help="Theorem 3.8: sigma_0^2.")
@click.option("--spatial-lengthscale", type=float, default=1.0, show_default=True,
              help="Theorem 3.8: SE k_S lengthscale.")
@json_option
@plot_option
@click.pass_context
def nstar_cmd(ctx: click.Context, response_expr: str | None, response_file: str | None, fit: str, measure: bool,
              measure_sizes: str, observation_time: float, temporal_kernel: str, temporal_lengthscale: float, n0: int,
              horizon: int | None, d: int, lipschitz: float, delta: float, noise_var: float,
              spatial_lengthscale: float, as_json: bool, plot_path: Path | None) -> None:
    """Optimal dataset size n* = argmax ||u_n||^2 (bolt eq. (9)): certified search and the paper's hill-climb.

    A constant R(n) gives n* = infinity (||u_n||^2 grows with n); l_T may be as large as 1e300."""
    if sum((response_expr is not None, response_file is not None, bool(measure))) != 1:
        raise click.BadParameter("give exactly one of --response, --response-times or --measure",
                                 param_hint="'--response'")
    model, measured = N.response_model(expression=response_expr, times_file=response_file, fit=fit,
                                       measure_sizes=_sizes(measure_sizes) if measure else None,
                                       observation_time=observation_time)
    table, res = N.nstar_table(model, temporal_kernel, temporal_lengthscale, n0=n0, horizon=horizon, d=d,
                               lipschitz=lipschitz, delta=delta, noise_var=noise_var,
                               spatial_lengthscale=spatial_lengthscale, measured=measured)

    def draw(ax):
        ns, values = N.u2_samples(res, model, temporal_kernel, temporal_lengthscale)
        ax.plot(ns, values, label=r"$\|u_n\|_2^2$")
        if table.n_star != float("inf"):
            ax.axvline(table.n_star, color="k", ls="--", lw=1, label=f"n* = {table.n_star}")
        finish_axes(ax, (ns[0], ns[-1]), "dataset size n", r"$\sum_{i\leq n} k_T^2(iR(n))$", legend=False)
        ax.set_title(model.describe(), fontsize=8)
        ax.legend(fontsize=7)

    save_plot(plot_path, draw)
    used = ["response_expr", "response_file", "measure", "temporal_kernel", "temporal_lengthscale", "n0", "horizon",
            *(["fit"] if response_file is not None else []),
            *(["measure_sizes", "observation_time"] if measure else []),
            *(["d", "lipschitz", "delta", "noise_var", "spatial_lengthscale"] if horizon is not None else [])]
    emit(table, as_json, "Optimal dataset size n* (bolt eq. (9))",
         ignored_options(ctx, used, "--fit goes with --response-times, --measure-sizes and --observation-time with "
                                    "--measure, the Theorem 3.8 options with -T"))
    if not as_json and table.n_star_hill_climb is not None and not table.agree:
        click.echo("note: hill-climb and the certified search disagree; n* is the certified value", err=True)
