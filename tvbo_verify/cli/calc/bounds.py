"""``calc beta``, ``gamma``, ``lower-bound bolt|wsparq|tvgpucb`` and ``regret-bound``."""

from __future__ import annotations

import click
import numpy as np

from ...information import gamma_rate_bound
from ...kernels import TEMPORAL_KERNELS
from ...theory import calculators as C
from ...theory import lower_bound_tables as LBT
from ...theory.rates import REGRET_BOUNDS
from ..params import WHOLE
from .common import emit, finish_axes, json_option, parse_numbers, plot_option, save_plot


@click.command("beta")
@click.option("--paper", type=click.Choice(C.BETA_PAPERS), required=True)
@click.option("-t", "--t", "t", type=int, default=100, show_default=True, help="Iteration t (or horizon T).")
@click.option("--delta", type=float, default=0.1, show_default=True, help="Failure probability.")
@click.option("--B", "B", type=float, default=1.0, show_default=True, help="RKHS-norm bound (wsparq, sparq, wgpucb).")
@click.option("--log-det-ratio", type=float, default=0.0, show_default=True, help="log|S+K|/|S| (wsparq, sparq).")
@click.option("--d", type=int, default=1, show_default=True, help="Dimension (tvgpucb, bolt).")
@click.option("--r", "r", type=float, default=1.0, show_default=True, help="Domain side r, D in [0, r]^d (tvgpucb).")
@click.option("--a", "a", type=float, default=1.0, show_default=True, help="Gradient-tail constant a_1 (tvgpucb).")
@click.option("--b", "b", type=float, default=1.0, show_default=True, help="Gradient-tail constant b_1 (tvgpucb).")
@click.option("--c1", type=float, default=0.8, show_default=True, help="Practical c1 (tvgpucb).")
@click.option("--c2", type=float, default=4.0, show_default=True, help="Practical c2 (tvgpucb).")
@click.option("--lipschitz", type=float, default=1.0, show_default=True, help="Lipschitz constant L (bolt).")
@click.option("--ig", type=float, default=0.0, show_default=True, help="Information gain IG_t (wgpucb).")
@click.option("--noise-R", "noise_R", type=float, default=1.0, show_default=True, help="Sub-Gaussian R (wgpucb).")
@click.option("--lam", type=float, default=1.0, show_default=True, help="Regulariser lambda (wgpucb).")
@json_option
def beta_cmd(paper, as_json, **params) -> None:
    """Confidence widths beta_t of each paper (tvbo_verify.confidence), as printed and corrected."""
    table = C.beta_table(paper, **params)
    emit(table, as_json, f"beta_t for {paper} (t = {table.t}, delta = {table.delta})")


@click.command("gamma")
@click.option("--kernel", "kernel_name", type=click.Choice(["se", "matern"]), required=True)
@click.option("-T", "--horizon", type=WHOLE, required=True, help="T >= 1.")
@click.option("--d", type=int, default=1, show_default=True, help="Input dimension.")
@click.option("--nu", type=float, default=None, help="Matern smoothness (required for matern).")
@click.option("--source", type=click.Choice(["vakili", "srinivas"]), default="vakili", show_default=True)
@json_option
@plot_option
def gamma_cmd(kernel_name, horizon, d, nu, source, as_json, plot_path) -> None:
    """Order-level gamma_T = O(T^a log^b T) (tvbo_verify.information; constants are not known)."""
    table = C.gamma_table(kernel_name, horizon, d=d, nu=nu, source=source)

    def draw(ax):
        Ts = np.unique(np.geomspace(2, max(horizon, 3), 60).astype(int))
        ax.loglog(Ts, [gamma_rate_bound(kernel_name, int(T), d, nu=nu, source=source) for T in Ts])
        finish_axes(ax, (Ts[0], Ts[-1]), "T", r"$T^a \log^b T$", legend=False)
        ax.set_title(f"gamma_T order, {kernel_name} ({source})")

    save_plot(plot_path, draw)
    emit(table, as_json, "Maximum information gain rate (up to a constant)")


# --------------------------------------------------------------------------------------------------
# lower bounds, one subcommand per paper
# --------------------------------------------------------------------------------------------------
@click.group("lower-bound")
def lower_bound() -> None:
    """Lower-bound ingredients: bolt eps_c (Thm 3.6), wsparq section 5 (Fano, L*, T0, V_T), tvgpucb genie."""


@lower_bound.command("bolt")
@click.option("--temporal-kernel", type=click.Choice(TEMPORAL_KERNELS), default="matern12", show_default=True,
              help="k_T.")
@click.option("--temporal-lengthscale", type=float, default=1.0, show_default=True, help="l_T.")
@click.option("--period", type=float, default=1.0, show_default=True, help="c = R(0), seconds per observation.")
@click.option("--lipschitz", type=float, default=1.0, show_default=True, help="Lipschitz constant L.")
@click.option("--d", type=int, default=1, show_default=True, help="Dimension.")
@click.option("--signal-variance", type=float, default=1.0, show_default=True, help="lambda.")
@click.option("--spatial-lengthscale", type=float, default=1.0, show_default=True, help="SE k_S lengthscale.")
@json_option
@plot_option
def lower_bound_bolt(temporal_kernel, temporal_lengthscale, period, lipschitz, d, signal_variance,
                     spatial_lengthscale, as_json, plot_path) -> None:
    """bolt Theorem 3.6 regret floor eps_c (eqs. (4)-(5)), printed and corrected."""
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


@lower_bound.command("wsparq")
@click.option("--alpha", type=float, default=2.0, show_default=True, help="UI exponent.")
@click.option("-T", "--horizon", type=WHOLE, default=1000, show_default=True, help="Horizon.")
@click.option("--budget", type=float, default=None, help="Number of side queries N_T.")
@click.option("--noise-var", type=float, default=1.0, show_default=True, help="sigma^2.")
@click.option("--gamma", "bump_gamma", type=float, default=None, help="Bump amplitude for M(gamma) of (36).")
@click.option("--B", "B", type=float, default=5.0, show_default=True, help="RKHS bound for M(gamma).")
@click.option("--lengthscale", type=float, default=0.1, show_default=True, help="SE lengthscale for M(gamma).")
@click.option("--d", type=int, default=1, show_default=True, help="Dimension for M(gamma).")
@click.option("--cells", type=int, default=None, help="Number M of bump functions for the Fano bound (needs --gamma).")
@json_option
@plot_option
def lower_bound_wsparq(alpha, horizon, budget, noise_var, bump_gamma, B, lengthscale, d, cells, as_json,
                       plot_path) -> None:
    """wsparq section 5: C2, L*, T0, V_T, S_tau for a budget, M(gamma) of (36) and the Fano bound."""
    if cells is not None and bump_gamma is None:
        raise click.BadParameter("--cells needs --gamma (the bump amplitude)", param_hint="'--cells'")
    table = LBT.wsparq_lower_bound_table(alpha, horizon, noise_var=noise_var, budget=budget, bump_gamma=bump_gamma,
                                         B=B, lengthscale=lengthscale, d=d, cells=cells)

    def draw(ax):
        Ls, F = LBT.window_objective_curve(alpha, horizon)
        ax.loglog(Ls, F, label="F(L)")
        ax.axvline(table.L_star_derived, color="k", ls="--", lw=1, label="L* derived")
        ax.axvline(table.L_star_printed, color="C3", ls=":", lw=1, label="L* printed")
        finish_axes(ax, (Ls[0], Ls[-1]), "L", r"$F(L)=L^{-\alpha}+4L/T$")

    save_plot(plot_path, draw)
    emit(table, as_json, "wsparq section 5 lower-bound ingredients")


@lower_bound.command("tvgpucb")
@click.option("--epsilon", type=float, default=0.01, show_default=True, help="Forgetting epsilon in (0, 1).")
@click.option("-T", "--horizon", type=WHOLE, default=1000, show_default=True, help="Horizon.")
@click.option("--samples", type=int, default=0, show_default=True, help="Monte Carlo genie samples (0: none).")
@click.option("--lengthscale", type=float, default=0.1, show_default=True, help="SE lengthscale of the genie's GP.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the genie samples.")
@json_option
@plot_option
def lower_bound_tvgpucb(epsilon, horizon, samples, lengthscale, seed, as_json, plot_path) -> None:
    """tvgpucb Theorem 4.1, E[R_T] = Omega(T eps), with the App. F genie estimate."""
    table = LBT.tvgpucb_genie_table(epsilon, horizon, samples=samples, lengthscale=lengthscale, seed=seed)

    def draw(ax):
        Ts = np.geomspace(1, max(horizon, 2), 100)
        ax.loglog(Ts, Ts * epsilon, label=r"$T\epsilon$ (order of Thm 4.1, constant 1)")
        if table.genie is not None:
            ax.loglog(Ts, np.maximum(Ts - 1, 1e-300) * table.genie.genie_mean_regret, "C1",
                      label=r"genie $(T-1)\,E[r_t]$")
        finish_axes(ax, (Ts[0], Ts[-1]), "T", "lower bound on $E[R_T]$")

    save_plot(plot_path, draw)
    emit(table, as_json, "tvgpucb Theorem 4.1 (genie, App. F)")


# --------------------------------------------------------------------------------------------------
# regret bounds
# --------------------------------------------------------------------------------------------------
@click.command("regret-bound")
@click.option("--bound", "name", default=None, help="Bound name (see --list).")
@click.option("--list", "list_", is_flag=True, help="List the available bounds.")
@click.option("-T", "--horizon", type=WHOLE, default=1000, show_default=True, help="Horizon T >= 2.")
@click.option("-p", "--param", "params", multiple=True, help="Parameter key=value (repeatable).")
@json_option
@plot_option
def regret_bound_cmd(name, list_, horizon, params, as_json, plot_path) -> None:
    """Regret bounds of the five papers as functions of T (orders; constants unknown)."""
    if list_ or name is None:
        rows = {k: {"ref": b.ref, "formula": b.formula, "kind": b.kind, "params": list(b.params)}
                for k, b in REGRET_BOUNDS.items()}
        if as_json:
            emit(rows, True, "")
        else:
            for k, v in rows.items():
                click.echo(f"{k:<28} {v['kind']:<6} {v['formula']}  [{', '.join(v['params'])}]  ({v['ref']})")
        return
    table = C.regret_bound_table(name, horizon, parse_numbers(params))

    def draw(ax):
        Ts, values = C.regret_bound_curve(name, horizon, table.params)
        ax.loglog(Ts, values, label=table.formula)
        ax.loglog(Ts, Ts, "k:", lw=1, label="T")
        finish_axes(ax, (Ts[0], Ts[-1]), "T", "bound")

    save_plot(plot_path, draw)
    emit(table, as_json, f"Regret bound {name}")


COMMANDS = (beta_cmd, gamma_cmd, lower_bound, regret_bound_cmd)
