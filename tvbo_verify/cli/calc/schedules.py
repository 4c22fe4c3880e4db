"""``calc window``, ``queries``, ``block`` and ``discount``: schedules prescribed by the papers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click
import numpy as np

from ...theory import calculators as calc_tables
from ...theory import schedule_summaries as SS
from ...theory.schedules import QueryRule
from ..params import WHOLE
from .common import DIMENSION, emit, finish_axes, ignored_options, json_option, plot_option, save_plot

if TYPE_CHECKING:
    from pathlib import Path

    from matplotlib.axes import Axes

#: The options of :func:`_theory_options` each query rule uses.
_RULE_INPUTS = {
    "experiments": ("no_cap",),
    "log": ("c_q", "d", "no_cap"),
    "theory": ("d", "lengthscale", "signal_variance", "domain_diameter", "noise_var", "eta", "no_cap"),
}


def _theory_options(f):
    for opt in reversed([
        click.option("--d", type=DIMENSION, default=1, show_default=True, help="Input dimension."),
        click.option("--c-q", type=float, default=6.0, show_default=True, help="Constant of 6 log T / c_Q log^d t."),
        click.option("--lengthscale", type=float, default=3.0, show_default=True, help="SE lengthscale (theory rule)."),
        click.option("--signal-variance", type=float, default=0.5, show_default=True, help="M_k^2 (theory rule)."),
        click.option("--domain-diameter", type=float, default=100.0, show_default=True, help="l_q (theory rule)."),
        click.option("--noise-var", type=float, default=0.01, show_default=True, help="sigma^2 (theory rule)."),
        click.option("--eta", type=float, default=0.1, show_default=True, help="KL tolerance eta (theory rule)."),
        click.option("--no-cap", is_flag=True, help="Do not cap Q_t at the t past inputs."),
    ]):
        f = opt(f)
    return f


def _rule(kind: str, o: dict) -> QueryRule:
    return SS.query_rule(kind, c_q=o["c_q"], d=o["d"], lengthscale=o["lengthscale"],
                         signal_variance=o["signal_variance"], domain_diameter=o["domain_diameter"],
                         noise_var=o["noise_var"], eta=o["eta"], cap_at_past=not o["no_cap"])


@click.command("window")
@click.option("--alpha", type=float, required=True, help="UI exponent alpha > 0.")
@click.option("--alpha-tilde", type=float, required=True, help="Window exponent in (0, 1/3).")
@click.option("-T", "--horizon", type=WHOLE, required=True, help="Horizon T >= 1.")
@click.option("--reading", default="floor_plus_one", show_default=True,
              help="floor_plus_one | floor | ceil (eq. (32)).")
@click.option("--t1", type=int, default=1, show_default=True, help="First window start (unspecified in the paper).")
@click.option("--queries", "rule", default="experiments", show_default=True, help="experiments | log | theory.")
@_theory_options
@json_option
@plot_option
@click.pass_context
def window_cmd(ctx: click.Context, alpha: float, alpha_tilde: float, horizon: int, reading: str, t1: int, rule: str,
               as_json: bool, plot_path: Path | None, **theory: Any) -> None:
    """W-SparQ windows of wsparq eq. (32) and the expert queries they trigger (any horizon: windows of equal
    length are summarised as runs; starts are listed up to 10 000 windows). Times are in steps."""
    qr = _rule(rule, theory)
    table = SS.window_summary(alpha, alpha_tilde, horizon, qr, reading=reading, t1=t1)
    save_plot(plot_path, lambda ax: draw_windows(ax, table, qr))
    used = ("alpha", "alpha_tilde", "horizon", "reading", "t1", "rule", *_RULE_INPUTS.get(rule, ()))
    emit(table, as_json, f"W-SparQ windows (wsparq eq. (32)), reading {reading}",
         ignored_options(ctx, used, f"the query rule {rule} does not use it"))


def draw_windows(ax: Axes, table: SS.WindowSummary, rule: QueryRule) -> None:
    """Window length and cumulative queries ``N_t`` against ``t`` over the whole horizon ``[1, T]``."""
    firsts = [float(s.first_start) for s in table.segments]
    lengths = [float(s.length) for s in table.segments]
    xs = np.array([*firsts, float(table.horizon)])  # the last run reaches T: its step is drawn up to T
    steps = np.array([*lengths, lengths[-1]])
    ax.step(xs, steps, where="post", label="window length $t_{j+1}-t_j$")
    grid = np.geomspace(xs[0], xs[-1], 200) if xs[-1] > xs[0] else xs
    ax.plot(grid, grid ** table.ratio, "k--", lw=1, label=r"$t^{\tilde\alpha/\alpha}$")
    ax.set_xlabel("t (steps)")
    ax.set_ylabel("window length (steps)")
    ax.set_xlim(xs[0], max(xs[-1], xs[0] + 1))
    ax2 = ax.twinx()
    ts, ns, exact = SS.queries_curve(rule, table)  # the numbers of the table: it ends at (T, N_T)
    if exact:
        ax2.step(ts, ns, "C1", where="post", label="$N_t$")
    else:
        ax2.plot(ts, ns, "C1", marker=".", ms=3, label="$N_t$ at the first and last start of each run")
    ax2.set_ylabel("cumulative expert queries $N_t$")
    ax.set_title(f"alpha={table.alpha:g}, alpha~={table.alpha_tilde:g}, T={table.horizon:g}")
    ax.legend(loc="upper left", fontsize=7)
    ax2.legend(loc="lower right", fontsize=7)


@click.command("queries")
@click.option("--alpha", type=float, required=True, help="UI exponent alpha > 0.")
@click.option("--alpha-tilde", type=float, default=0.25, show_default=True, help="Window exponent in (0, 1/3).")
@click.option("-T", "--horizon", type=WHOLE, required=True, help="Horizon T >= 2.")
@click.option("--budget", type=float, default=None, help="A query budget N_T to assess.")
@_theory_options
@json_option
@plot_option
@click.pass_context
def queries_cmd(ctx: click.Context, alpha: float, alpha_tilde: float, horizon: int, budget: float | None, as_json: bool,
                plot_path: Path | None, **theory: Any) -> None:
    """Expert-query budgets: theory (sparq eq. (57)) vs experiments (6 log T, natural log) vs the Thm 5.3
    threshold."""
    theory_rule, experiments = _rule("theory", theory), _rule("experiments", theory)
    table = SS.query_budgets(alpha, alpha_tilde, horizon, theory_rule, experiments, budget=budget)

    def draw(ax):
        Ts = np.unique(np.geomspace(10, max(horizon, 11), 12).astype(np.int64))
        rows = [SS.budget_totals(alpha, alpha_tilde, int(T), theory_rule, experiments) for T in Ts]
        curves = (("wsparq_theory", "W-SparQ, theory Q (57)"), ("wsparq_experiments", "W-SparQ, 6 log T"),
                  ("sparq_experiments", "SparQ, 6 log T"), ("threshold", r"$T^{\alpha/(\alpha+1)}$ (Thm 5.3)"))
        for key, label in curves:
            ax.loglog(Ts, [r[key] for r in rows], marker=".", label=label)
        if budget is not None:
            ax.axhline(budget, color="k", lw=1, ls=":", label="given budget")
        finish_axes(ax, (Ts[0], Ts[-1]), "T", "$N_T$")

    save_plot(plot_path, draw)
    emit(table, as_json, "Expert-query budgets (wsparq Thm 3.10 / Thm 5.3, sparq eq. (57))",
         ignored_options(ctx, [p.name for p in ctx.command.params if p.name != "c_q"],
                         "c_Q belongs to the log rule, which this table does not use"))


@click.command("block")
@click.option("--epsilon", type=float, required=True, help="Forgetting epsilon in (0, 1).")
@click.option("-T", "--horizon", type=WHOLE, required=True, help="Horizon T >= 1.")
@click.option("--kernel", "kernel_name", type=click.Choice(["se", "matern"]), default="se", show_default=True)
@click.option("--nu", type=float, default=2.5, show_default=True, help="Matern smoothness.")
@click.option("--d", type=DIMENSION, default=1, show_default=True, help="Dimension.")
@click.option("--noise-var", type=float, default=0.01, show_default=True, help="sigma^2 for the corrected (21).")
@json_option
@plot_option
@click.pass_context
def block_cmd(ctx: click.Context, epsilon: float, horizon: int, kernel_name: str, nu: float, d: int, noise_var: float,
              as_json: bool, plot_path: Path | None) -> None:
    """R-GP-UCB block length and TV-GP-UCB analysis block (tvgpucb Corollary 4.1), with the (21) bound."""
    table = calc_tables.block_table(epsilon, horizon, kernel_name, nu=nu, d=d, noise_var=noise_var)

    def draw(ax):
        for reading in ("printed", "corrected"):
            N, bound = calc_tables.block_bound_curve(epsilon, horizon, kernel_name, nu=nu, d=d, noise_var=noise_var,
                                                     reading=reading)
            ax.loglog(N, bound, label=f"(21) {reading}")
        ax.axvline(table.r_gp_ucb_block_theory, color="k", ls="--", lw=1, label="R-GP-UCB N (theory)")
        finish_axes(ax, (1, max(horizon, 2)), "block length N", r"bound on $\tilde\gamma_T$")

    save_plot(plot_path, draw)
    emit(table, as_json, "Block lengths (tvgpucb Corollary 4.1) and the gamma~_T block bound (21)",
         ignored_options(ctx, [p.name for p in ctx.command.params if p.name != "nu" or kernel_name == "matern"],
                         "the SE kernel has no smoothness nu"))


@click.command("discount")
@click.option("-T", "--horizon", type=WHOLE, required=True, help="Horizon T >= 2.")
@click.option("--variation-budget", type=float, default=None, help="B_T if known.")
@click.option("--gamma-dot", type=float, default=None, help="A-priori bound on gamma_dot_T (default log^(d+1) T).")
@click.option("--d", type=DIMENSION, default=1, show_default=True, help="Dimension (for the default gamma_dot).")
@json_option
@click.pass_context
def discount_cmd(ctx: click.Context, horizon: int, variation_budget: float | None, gamma_dot: float | None, d: int,
                 as_json: bool) -> None:
    """WGP-UCB discount gamma, window c and QFF size m-bar (wgpucb Corollary 5)."""
    table = calc_tables.discount_table(horizon, gamma_dot=gamma_dot, variation_budget=variation_budget, d=d)
    used = ["horizon", "variation_budget", "gamma_dot", *(["d"] if gamma_dot is None else [])]
    emit(table, as_json, "WGP-UCB discount (wgpucb Corollary 5; c and m-bar rounded up)",
         ignored_options(ctx, used, "--d only sets the default --gamma-dot log^(d+1) T"))
