"""``calc regret-bound``: the papers' regret bounds at a horizon, against the trivial bound."""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

import click
import numpy as np

from ...theory import regret_table as RT
from ...theory.horizon import BoundCurve, non_vacuity_horizon
from ...theory.rates import REGRET_BOUNDS, regret_bound
from ..params import WHOLE, refuse_together
from .common import emit, finish_axes, ignored_options, json_option, parse_numbers, plot_option, save_plot

if TYPE_CHECKING:
    from pathlib import Path

LIST_FIELDS = {
    "*.ref": "where the paper states the bound",
    "*.formula": "the bound as a function of T, constant 1 (log = natural log)",
    "*.kind": "upper (regret of the paper's algorithm) or lower (every policy)",
    "*.params": "the parameters it needs (-p key=value)",
}


@click.command("regret-bound")
@click.option("--bound", "name", default=None, help="Bound name (see --list).")
@click.option("--list", "list_", is_flag=True, help="List the available bounds.")
@click.option("-T", "--horizon", type=WHOLE, default=1000, show_default=True, help="Horizon T >= 2.")
@click.option("-p", "--param", "params", multiple=True, help="Parameter key=value (repeatable).")
@click.option("--rkhs-bound", type=float, default=1.0, show_default=True,
              help="B with ||f_t||_k <= B (wsparq, sparq, wgpucb): the trivial bound is 2 B T.")
@json_option
@plot_option
@click.pass_context
def regret_bound_cmd(ctx: click.Context, name: str | None, list_: bool, horizon: int, params: tuple[str, ...],
                     rkhs_bound: float, as_json: bool, plot_path: Path | None) -> None:
    """Regret bounds of the five papers as functions of T (orders, constant 1), with the trivial bound of the
    paper's setting; an upper bound above it is vacuous."""
    refuse_together(("--list", list_), ("--bound", name is not None),
                    why="--list prints every bound, --bound evaluates one")
    if list_ or name is None:
        rows = {k: {"ref": b.ref, "formula": b.formula, "kind": b.kind, "params": list(b.params)}
                for k, b in REGRET_BOUNDS.items()}
        if as_json:
            emit(rows, True, "", fields=LIST_FIELDS)
        else:
            for k, v in rows.items():
                click.echo(f"{k:<28} {v['kind']:<6} {v['formula']}  [{', '.join(v['params'])}]  ({v['ref']})")
        return
    table = with_non_vacuity_horizon(RT.regret_bound_table(name, horizon, parse_numbers(params),
                                                          rkhs_bound=rkhs_bound), rkhs_bound)

    def draw(ax):
        Ts, values = RT.regret_bound_curve(name, horizon, table.params)
        ax.loglog(Ts, values, label=f"{table.formula} (constant 1)")
        ax.loglog(Ts, Ts * table.trivial.value / table.horizon, "k:", lw=1, label=f"trivial: {table.trivial.formula}")
        finish_axes(ax, (Ts[0], Ts[-1]), "T", "regret bound")

    save_plot(plot_path, draw)
    rkhs = name.partition(":")[0] in RT.RKHS_PAPERS
    emit(table, as_json, f"Regret bound {name}",
         ignored_options(ctx, ["name", "horizon", "params", *(["rkhs_bound"] if rkhs else [])],
                         "the trivial bound of a GP-sample setting does not involve B"))


def with_non_vacuity_horizon(table: RT.RegretBoundTable, rkhs_bound: float) -> RT.RegretBoundTable:
    """``table`` with, for an upper bound, its non-vacuity horizon: the smallest ``T >= 2`` from which the curve at
    constant 1 stays below the trivial bound of its paper's setting up to ``10^12``
    (:func:`~tvbo_verify.theory.horizon.non_vacuity_horizon`, restarted after each window where it dips
    below and rises again: at small T the log factors of an order-level curve are below 1)."""
    if table.kind != "upper":
        return table
    bound, paper = regret_bound(table.bound), table.bound.partition(":")[0]

    def value(T: float) -> dict[str, float]:
        with np.errstate(all="ignore"):
            v = float(bound(T, **table.params))
        return {table.formula: v if math.isfinite(v) else math.inf}

    curve = BoundCurve(table.bound, value, form="sum",
                       trivial=lambda T: RT.trivial_regret_bound(paper, int(T), rkhs_bound).value)
    found, windows = non_vacuity_horizon(curve, T_min=2), []
    while found.horizon is not None and found.until is not None:
        windows.append(f"{found.horizon}..{found.until}")
        found = non_vacuity_horizon(curve, T_min=found.until + 1)
    text = (f"says something from T = {found.horizon} on" if found.horizon is not None
            else f"vacuous up to T = {found.searched_to:.3g}")
    if windows:
        text += f" (also at T = {', '.join(windows)})"
    return dataclasses.replace(table, non_vacuity_horizon=found.horizon,
                               non_vacuity=f"{text}, against the trivial bound {table.trivial.formula} at constant 1")
