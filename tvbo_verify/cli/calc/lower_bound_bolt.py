"""``calc lower-bound bolt``: the regret floor ``ε_c`` of ``bolt`` Theorem 3.6, printed and corrected."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ...kernels import TEMPORAL_KERNELS
from .common import DIMENSION, emit, finish_axes, json_option, plot_option, save_plot

if TYPE_CHECKING:
    from pathlib import Path


@click.command("bolt")
@click.option("--temporal-kernel", type=click.Choice(TEMPORAL_KERNELS), default="matern12", show_default=True,
              help="k_T.")
@click.option("--temporal-lengthscale", type=float, default=1.0, show_default=True, help="l_T, in seconds.")
@click.option("--period", type=float, default=1.0, show_default=True, help="c = R(0), seconds per observation.")
@click.option("--lipschitz", type=float, default=1.0, show_default=True, help="Lipschitz constant L.")
@click.option("--d", type=DIMENSION, default=1, show_default=True, help="Dimension.")
@click.option("--signal-variance", type=float, default=1.0, show_default=True, help="lambda.")
@click.option("--spatial-lengthscale", type=float, default=1.0, show_default=True, help="SE k_S lengthscale.")
@json_option
@plot_option
def lower_bound_bolt(temporal_kernel: str, temporal_lengthscale: float, period: float, lipschitz: float, d: int,
                     signal_variance: float, spatial_lengthscale: float, as_json: bool,
                     plot_path: Path | None) -> None:
    """bolt Theorem 3.6 regret floor eps_c (eqs. (4)-(5)), printed and corrected; ln and log10 of eps_c."""
    import numpy as np

    from ...theory import lower_bound_tables as LBT

    args = dict(temporal=temporal_kernel, temporal_lengthscale=temporal_lengthscale, lipschitz=lipschitz, d=d,
                signal_variance=signal_variance, spatial_lengthscale=spatial_lengthscale)
    table = LBT.bolt_floor_table(period=period, **args)

    def draw(ax):
        freqs = np.geomspace(0.1 / period, 10.0 / period, 30)
        for reading in ("printed", "corrected"):
            ax.semilogx(freqs, LBT.bolt_floor_curve(args, reading, freqs), label=reading)
        finish_axes(ax, (freqs[0], freqs[-1]), "sampling frequency 1/c (Hz)", r"$\log_{10}\epsilon_c$")

    save_plot(plot_path, draw)
    emit(table, as_json, "bolt Theorem 3.6 regret floor eps_c (eqs. (4)-(5))")
