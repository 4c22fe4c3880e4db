"""``calc beta``: the confidence widths ``β_t`` of each paper, as printed and corrected."""

from __future__ import annotations

import click

from ...theory import calculators as C
from .common import DIMENSION, emit, ignored_options, json_option


@click.command("beta")
@click.option("--paper", type=click.Choice(C.BETA_PAPERS), required=True)
@click.option("-t", "--t", "t", type=int, default=100, show_default=True, help="Iteration t (or horizon T).")
@click.option("--delta", type=float, default=0.1, show_default=True, help="Failure probability.")
@click.option("--B", "B", type=float, default=1.0, show_default=True, help="RKHS-norm bound (wsparq, sparq, wgpucb).")
@click.option("--log-det-ratio", type=float, default=None,
              help="log|S+K|/|S| of the observed points (wsparq, sparq); without it 0, the value before any "
                   "observation, and beta_t does not depend on t.")
@click.option("--d", type=DIMENSION, default=1, show_default=True, help="Dimension (tvgpucb, bolt).")
@click.option("--r", "r", type=float, default=1.0, show_default=True, help="Domain side r, D in [0, r]^d (tvgpucb).")
@click.option("--a", "a", type=float, default=1.0, show_default=True, help="Gradient-tail constant a_1 (tvgpucb).")
@click.option("--b", "b", type=float, default=1.0, show_default=True, help="Gradient-tail constant b_1 (tvgpucb).")
@click.option("--c1", type=float, default=0.8, show_default=True, help="Practical c1 (tvgpucb).")
@click.option("--c2", type=float, default=4.0, show_default=True, help="Practical c2 (tvgpucb).")
@click.option("--lipschitz", type=float, default=1.0, show_default=True, help="Lipschitz constant L (bolt).")
@click.option("--ig", type=float, default=None,
              help="Information gain IG_t (wgpucb); without it 0 and beta_t does not depend on t.")
@click.option("--noise-R", "noise_R", type=float, default=1.0, show_default=True, help="Sub-Gaussian R (wgpucb).")
@click.option("--lam", type=float, default=1.0, show_default=True, help="Regulariser lambda (wgpucb).")
@json_option
@click.pass_context
def beta_cmd(ctx: click.Context, paper: str, as_json: bool, **params: float | None) -> None:
    """Confidence widths beta_t of each paper (tvbo_verify.confidence), as printed and corrected; logs are
    natural."""
    table = C.beta_table(paper, **params)
    emit(table, as_json, f"beta_t for {paper} (t = {table.t}, delta = {table.delta})",
         ignored_options(ctx, ("paper", *C.BETA_INPUTS[paper]), f"beta_t of {paper} does not depend on it"))
