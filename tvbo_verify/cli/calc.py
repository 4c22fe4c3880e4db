"""``tvbo-verify calc ...``: calculators for what the theory prescribes.

Subcommands: ``window``, ``queries``, ``nstar``, ``beta``, ``gamma``, ``lower-bound``, ``block``,
``discount``, ``regret-bound``. Each prints a readable table, ``--json`` prints machine-readable JSON,
and ``--plot FILE.png`` (where a curve helps) writes a figure atomically (temporary file, then rename).
Bad input gives one line on stderr naming the parameter and exit code 2.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from typing import Any, Callable

import click
import numpy as np

from ..jsonify import dumps
from .main import register


# --------------------------------------------------------------------------------------------------
# output helpers
# --------------------------------------------------------------------------------------------------
def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, np.ndarray)):
        seq = list(value)
        if len(seq) > 8:
            head = ", ".join(_fmt(v) for v in seq[:4])
            tail = ", ".join(_fmt(v) for v in seq[-2:])
            return f"[{head}, ..., {tail}] ({len(seq)} values)"
        return "[" + ", ".join(_fmt(v) for v in seq) + "]"
    return str(value)


def _emit(data: dict, as_json: bool, title: str, keys: list[str] | None = None) -> None:
    if as_json:
        click.echo(dumps(data, indent=2))
        return
    click.echo(title)
    click.echo("-" * len(title))
    shown = keys if keys is not None else list(data)
    width = max(len(k) for k in shown)
    for k in shown:
        v = data[k]
        if isinstance(v, dict):
            click.echo(f"{k:>{width}}:")
            for kk, vv in v.items():
                click.echo(f"{'':>{width}}   {kk}: {_fmt(vv)}")
        else:
            click.echo(f"{k:>{width}}: {_fmt(v)}")


def _save_plot(path: str, draw: Callable[[Any], None]) -> None:
    """Draw on a fresh Agg figure and write it to ``path`` atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise click.BadParameter(f"directory does not exist: {directory}", param_hint="'--plot'")
    fig, ax = plt.subplots(figsize=(6, 4))
    try:
        draw(ax)
        fig.tight_layout()
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".png")
        os.close(fd)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        try:
            fig.savefig(tmp, dpi=120, format="png")
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    finally:
        plt.close(fig)


def _params(pairs: tuple[str, ...]) -> dict[str, float]:
    out: dict[str, float] = {}
    for p in pairs:
        if "=" not in p:
            raise click.BadParameter(f"expected key=value, got {p!r}", param_hint="'--param'")
        k, v = p.split("=", 1)
        try:
            out[k.strip()] = float(v)
        except ValueError:
            raise click.BadParameter(f"value of {k.strip()} must be a number, got {v!r}", param_hint="'--param'") from None
    return out


json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
plot_option = click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None, help="Write a PNG figure.")


@register
@click.group("calc")
def calc() -> None:
    """Calculators: window schedules, query budgets, n*, beta_t, gamma_T, lower bounds, block lengths,
    discounts and regret bounds."""


# --------------------------------------------------------------------------------------------------
# window / queries
# --------------------------------------------------------------------------------------------------
def _query_rule(kind: str, c_q: float, d: int, lengthscale: float, signal_variance: float, domain_diameter: float,
                noise_var: float, eta: float, cap: bool):
    from ..theory import schedules as S

    constants = S.theory_query_constants(lengthscale, signal_variance, domain_diameter, d) if kind == "theory" else None
    return S.QueryRule(kind, c_q=c_q, d=d, eta=eta, noise_var=noise_var, constants=constants, cap_at_past=cap)


def _theory_options(f):
    for opt in reversed(
        [
            click.option("--d", type=int, default=1, show_default=True, help="Input dimension."),
            click.option("--c-q", type=float, default=6.0, show_default=True, help="Constant of 6 log T / c_Q log^d t."),
            click.option("--lengthscale", type=float, default=3.0, show_default=True, help="SE lengthscale (theory rule)."),
            click.option("--signal-variance", type=float, default=0.5, show_default=True, help="M_k^2 (theory rule)."),
            click.option("--domain-diameter", type=float, default=100.0, show_default=True, help="l_q (theory rule)."),
            click.option("--noise-var", type=float, default=0.01, show_default=True, help="sigma^2 (theory rule)."),
            click.option("--eta", type=float, default=0.1, show_default=True, help="KL tolerance eta (theory rule)."),
            click.option("--no-cap", is_flag=True, help="Do not cap Q_t at the t past inputs."),
        ]
    ):
        f = opt(f)
    return f


@calc.command("window")
@click.option("--alpha", type=float, required=True, help="UI exponent alpha > 0.")
@click.option("--alpha-tilde", type=float, required=True, help="Window exponent in (0, 1/3).")
@click.option("-T", "--horizon", type=int, required=True, help="Horizon T >= 1.")
@click.option("--reading", default="floor_plus_one", show_default=True, help="floor_plus_one | floor | ceil (eq. (32)).")
@click.option("--t1", type=int, default=1, show_default=True, help="First window start (unspecified in the paper).")
@click.option("--queries", "rule", default="experiments", show_default=True, help="experiments | log | theory.")
@_theory_options
@json_option
@plot_option
def window_cmd(alpha, alpha_tilde, horizon, reading, t1, rule, d, c_q, lengthscale, signal_variance, domain_diameter,
               noise_var, eta, no_cap, as_json, plot_path) -> None:
    """W-SparQ windows of wsparq eq. (32) and the expert queries they trigger."""
    from ..theory import schedules as S

    sched = S.window_schedule(alpha, alpha_tilde, horizon, reading=reading, t1=t1)
    qr = _query_rule(rule, c_q, d, lengthscale, signal_variance, domain_diameter, noise_var, eta, not no_cap)
    budget = S.window_query_budget(sched, qr)
    r = sched.ratio
    data = {
        "alpha": sched.alpha,
        "alpha_tilde": sched.alpha_tilde,
        "horizon": sched.horizon,
        "reading": reading,
        "query_rule": rule,
        "n_windows": sched.n_windows,
        "n_windows_asymptotic": horizon ** (1 - r) / (1 - r) if r < 1 else None,
        "total_queries": budget.total,
        "queries_per_step": budget.per_step,
        "starts": sched.starts,
        "lengths": sched.lengths,
        "queries_per_window": budget.queries,
    }
    _emit(data, as_json, f"W-SparQ windows (wsparq eq. (32)), reading {reading}")
    if plot_path:
        def draw(ax):
            ax.step(sched.starts, sched.lengths, where="post", label="window length $t_{j+1}-t_j$")
            ax.plot(sched.starts, sched.starts.astype(float) ** r, "k--", lw=1, label=r"$t^{\tilde\alpha/\alpha}$")
            ax.set_xlabel("t")
            ax.set_ylabel("window length")
            ax2 = ax.twinx()
            ax2.plot(sched.starts, np.cumsum(budget.queries), "C1", label="$N_t$")
            ax2.set_ylabel("cumulative expert queries $N_t$")
            ax.set_title(f"alpha={alpha}, alpha~={alpha_tilde}")
            ax.legend(loc="upper left", fontsize=7)
            ax2.legend(loc="lower right", fontsize=7)
        _save_plot(plot_path, draw)


@calc.command("queries")
@click.option("--alpha", type=float, required=True, help="UI exponent alpha > 0.")
@click.option("--alpha-tilde", type=float, default=0.25, show_default=True, help="Window exponent in (0, 1/3).")
@click.option("-T", "--horizon", type=int, required=True, help="Horizon T >= 2.")
@click.option("--budget", type=float, default=None, help="A query budget N_T to assess.")
@_theory_options
@json_option
@plot_option
def queries_cmd(alpha, alpha_tilde, horizon, budget, d, c_q, lengthscale, signal_variance, domain_diameter, noise_var,
                eta, no_cap, as_json, plot_path) -> None:
    """Expert-query budgets: theory (sparq eq. (57)) vs experiments (6 log T) vs the Thm 5.3 threshold."""
    from ..theory import rates as Ra
    from ..theory import schedules as S
    from ..validation import check_int

    check_int("horizon", horizon, minimum=2)
    cap = not no_cap
    theory = _query_rule("theory", c_q, d, lengthscale, signal_variance, domain_diameter, noise_var, eta, cap)
    exper = _query_rule("experiments", c_q, d, lengthscale, signal_variance, domain_diameter, noise_var, eta, cap)

    def budgets(T: int) -> dict[str, float]:
        sched = S.window_schedule(alpha, alpha_tilde, T)
        return {
            "wsparq_theory": S.window_query_budget(sched, theory).total,
            "wsparq_experiments": S.window_query_budget(sched, exper).total,
            "sparq_theory": S.sparq_query_budget(T, theory).total,
            "sparq_experiments": S.sparq_query_budget(T, exper).total,
            "threshold": S.lower_bound_query_threshold(alpha, T),
        }

    b = budgets(horizon)
    data: dict[str, Any] = {
        "alpha": alpha,
        "alpha_tilde": alpha_tilde,
        "horizon": horizon,
        "theory_budget": b["wsparq_theory"],
        "experiments_budget": b["wsparq_experiments"],
        "sparq_theory_budget": b["sparq_theory"],
        "sparq_experiments_budget": b["sparq_experiments"],
        "lower_bound_threshold": b["threshold"],
        "threshold_applies": alpha > 1,
        "wsparq_query_exponent": 1 - alpha_tilde / alpha,
        "threshold_exponent": alpha / (alpha + 1),
        "exponent_gap": 1 / (alpha + 1) - alpha_tilde / alpha,
        "theory_queries_at_T": theory.count(horizon, horizon),
        "experiments_queries_per_window": exper.count(horizon, horizon),
        "sparq_kept_recent_at_T": int(S.sparq_kept_ages(horizon).size),
    }
    if budget is not None:
        reg = Ra.query_regime(budget, horizon, alpha, alpha_tilde, b["wsparq_theory"])
        data["budget"] = budget
        data["can_be_sufficient"] = reg.can_be_sufficient
        data["table_2_column"] = reg.column
        data["verdict"] = reg.verdict
    _emit(data, as_json, "Expert-query budgets (wsparq Thm 3.10 / Thm 5.3, sparq eq. (57))")
    if plot_path:
        Ts = np.unique(np.geomspace(10, horizon, 12).astype(int))
        rows = [budgets(int(T)) for T in Ts]

        def draw(ax):
            for key, label in (("wsparq_theory", "W-SparQ, theory Q (57)"), ("wsparq_experiments", "W-SparQ, 6 log T"),
                               ("sparq_experiments", "SparQ, 6 log T"), ("threshold", r"$T^{\alpha/(\alpha+1)}$ (Thm 5.3)")):
                ax.loglog(Ts, [r[key] for r in rows], marker=".", label=label)
            if budget is not None:
                ax.axhline(budget, color="k", lw=1, ls=":", label="given budget")
            ax.set_xlabel("T")
            ax.set_ylabel("$N_T$")
            ax.legend(fontsize=7)
        _save_plot(plot_path, draw)


# --------------------------------------------------------------------------------------------------
# nstar
# --------------------------------------------------------------------------------------------------
@calc.command("nstar")
@click.option("--response", "response_expr", default=None, help="R(n) as an expression in n, e.g. '0.1 + 1e-6*n^3'.")
@click.option("--response-times", "response_file", type=click.Path(dir_okay=False), default=None,
              help="CSV of measured (n, R) pairs; a cubic is fitted.")
@click.option("--fit", type=click.Choice(["lstsq", "nonneg"]), default="lstsq", show_default=True,
              help="Cubic fit for --response-times (nonneg: non-negative coefficients, increasing).")
@click.option("--measure", is_flag=True, help="Time this machine's own GP-UCB step and fit R(n) (non-negative cubic).")
@click.option("--measure-sizes", default="25,100,200,400,600", show_default=True, help="Dataset sizes timed by --measure.")
@click.option("--observation-time", type=float, default=0.0, show_default=True,
              help="With --measure: seconds to observe f, added to every timing (c = R(0) of Definition 3.5).")
@click.option("--temporal-kernel", type=click.Choice(["se", "matern12", "matern32", "matern52"]), required=True)
@click.option("--temporal-lengthscale", type=float, required=True, help="Temporal lengthscale l_T > 0 (seconds).")
@click.option("--n0", type=int, default=1, show_default=True, help="Start of the hill-climb.")
@click.option("-T", "--horizon", type=int, default=None, help="Also evaluate Theorem 3.8's bound (7) at this T.")
@click.option("--d", type=int, default=1, show_default=True, help="Theorem 3.8: dimension.")
@click.option("--lipschitz", type=float, default=1.0, show_default=True, help="Theorem 3.8: Lipschitz constant L.")
@click.option("--delta", type=float, default=0.1, show_default=True, help="Theorem 3.8: failure probability.")
@click.option("--noise-var", type=float, default=0.01, show_default=True, help="Theorem 3.8: sigma_0^2.")
@click.option("--spatial-lengthscale", type=float, default=1.0, show_default=True, help="Theorem 3.8: SE k_S lengthscale.")
@json_option
@plot_option
def nstar_cmd(response_expr, response_file, fit, measure, measure_sizes, observation_time, temporal_kernel,
              temporal_lengthscale, n0, horizon, d, lipschitz, delta, noise_var, spatial_lengthscale, as_json,
              plot_path) -> None:
    """Optimal dataset size n* = argmax ||u_n||^2 (bolt eq. (9)) by hill-climb and brute force."""
    from ..kernels import temporal_kernel as make_kernel
    from ..theory import response as Rm

    if sum(x is not None and x is not False for x in (response_expr, response_file, measure or None)) != 1:
        raise click.BadParameter("give exactly one of --response, --response-times or --measure", param_hint="'--response'")
    measured = None
    if measure:
        try:
            sizes = [int(s) for s in measure_sizes.split(",") if s.strip()]
        except ValueError:
            raise click.BadParameter(f"expected comma-separated integers, got {measure_sizes!r}",
                                     param_hint="'--measure-sizes'") from None
        ns, secs, model = Rm.measure_response_times(sizes, np.random.default_rng(0), observation_time=observation_time)
        measured = {"n": ns, "seconds": secs}
    elif response_expr is not None:
        model = Rm.ResponseModel.from_expression(response_expr)
    else:
        n_obs, r_obs = Rm.load_response_times(response_file)
        model = Rm.ResponseModel.fit_cubic(n_obs, r_obs, nonnegative=fit == "nonneg")
    kernel = make_kernel(temporal_kernel, temporal_lengthscale)
    res = Rm.n_star(model, kernel, n0=n0)
    relaxed = Rm.relaxed_maximiser(model, kernel, 2.0 * res.n_star + 10.0)
    data = {
        "n_star": res.n_star,
        "n_star_hill_climb": res.n_star_hill_climb,
        "n_star_brute_force": res.n_star_brute_force,
        "agree": res.agree,
        "u2": res.u2,
        "R_at_n_star": float(model(float(res.n_star))),
        "relaxed_maximiser": relaxed,
        "certified": res.certified,
        "searched_up_to": res.searched_up_to,
        "n0": n0,
        "response": model.describe(),
        "temporal_kernel": temporal_kernel,
        "temporal_lengthscale": temporal_lengthscale,
    }
    if measured is not None:
        data["measured"] = measured
    if horizon is not None:
        from ..kernels import SquaredExponential
        from ..theory.lower_bounds import bolt_upper_bound

        ksd = float(SquaredExponential(1.0, spatial_lengthscale).of_distance(math.sqrt(d)))
        bound = lambda u: bolt_upper_bound(horizon, u, d=d, lipschitz=lipschitz, delta=delta, noise_var=noise_var,
                                           ks_diameter=ksd)
        data["theorem_3_8"] = {
            "horizon": horizon,
            "k_S(sqrt d)": ksd,
            "bound_at_n_star": bound(res.u2),
            "bound_at_n_1": bound(Rm.u2(1, model, kernel)),
            "bound_without_data_term": bound(0.0),
        }
    _emit(data, as_json, "Optimal dataset size n* (bolt eq. (9))")
    if not res.agree and not as_json:
        click.echo("note: hill-climb and brute force disagree; n* is the brute-force value", err=True)
    if plot_path:
        n_max = min(res.searched_up_to, max(3 * res.n_star, 20))
        curve = res.curve[: n_max + 1]

        def draw(ax):
            ax.plot(np.arange(curve.size), curve, label=r"$\|u_n\|_2^2$")
            ax.axvline(res.n_star, color="k", ls="--", lw=1, label=f"n* = {res.n_star}")
            ax.set_xlabel("dataset size n")
            ax.set_ylabel(r"$\sum_{i\leq n} k_T^2(iR(n))$")
            ax.set_title(model.describe(), fontsize=8)
            ax.legend(fontsize=7)
        _save_plot(plot_path, draw)


# --------------------------------------------------------------------------------------------------
# beta / gamma
# --------------------------------------------------------------------------------------------------
@calc.command("beta")
@click.option("--paper", type=click.Choice(["wsparq", "sparq", "tvgpucb", "bolt", "wgpucb"]), required=True)
@click.option("-t", "--t", "t", type=int, default=100, show_default=True, help="Iteration t (or horizon T).")
@click.option("--delta", type=float, default=0.1, show_default=True, help="Failure probability.")
@click.option("--B", "B", type=float, default=1.0, show_default=True, help="RKHS-norm bound (wsparq, sparq, wgpucb).")
@click.option("--log-det-ratio", type=float, default=0.0, show_default=True, help="log|Sigma+K|/|Sigma| (wsparq, sparq).")
@click.option("--d", type=int, default=1, show_default=True, help="Dimension (tvgpucb, bolt).")
@click.option("--r", "r", type=float, default=1.0, show_default=True, help="Domain side r, D in [0, r]^d (tvgpucb).")
@click.option("--a", "a", type=float, default=1.0, show_default=True, help="Gradient-tail constant a_1 (tvgpucb).")
@click.option("--b", "b", type=float, default=1.0, show_default=True, help="Gradient-tail constant b_1 (tvgpucb).")
@click.option("--c1", type=float, default=0.8, show_default=True, help="Practical c1 (tvgpucb).")
@click.option("--c2", type=float, default=4.0, show_default=True, help="Practical c2 (tvgpucb).")
@click.option("--lipschitz", type=float, default=1.0, show_default=True, help="Lipschitz constant L (bolt).")
@click.option("--ig", type=float, default=0.0, show_default=True, help="Information gain IG_t (wgpucb).")
@click.option("--noise-R", "noise_R", type=float, default=1.0, show_default=True, help="Sub-Gaussian constant R (wgpucb).")
@click.option("--lam", type=float, default=1.0, show_default=True, help="Regulariser lambda (wgpucb).")
@json_option
def beta_cmd(paper, t, delta, B, log_det_ratio, d, r, a, b, c1, c2, lipschitz, ig, noise_R, lam, as_json) -> None:
    """Confidence widths beta_t of each paper (tvbo_verify.confidence), as printed and corrected."""
    from .. import confidence as C

    calls: list[tuple[str, Callable[[], float]]] = []
    if paper == "wsparq":
        calls = [("beta_wsparq_from_log_det_ratio", lambda: C.beta_wsparq_from_log_det_ratio(log_det_ratio, delta, B))]
    elif paper == "sparq":
        calls = [("beta_sparq_from_log_det_ratio", lambda: C.beta_sparq_from_log_det_ratio(log_det_ratio, delta, B))]
    elif paper == "tvgpucb":
        calls = [
            ("beta_tvgpucb", lambda: C.beta_tvgpucb(t, d, r, a, b, delta)),
            ("beta_tvgpucb_tau_as_printed", lambda: C.beta_tvgpucb_tau_as_printed(t, d, r, a, b, delta)),
            ("beta_rgpucb", lambda: C.beta_rgpucb(t, d, r, a, b, delta)),
            ("beta_tvgpucb_practical", lambda: C.beta_tvgpucb_practical(t, c1, c2)),
        ]
    elif paper == "bolt":
        calls = [
            ("beta_bolt_as_printed", lambda: C.beta_bolt_as_printed(t, d, lipschitz, delta)),
            ("beta_bolt_corrected", lambda: C.beta_bolt_corrected(t, d, lipschitz, delta)),
        ]
    else:
        calls = [
            ("beta_wgpucb", lambda: C.beta_wgpucb(ig, delta, B, noise_R, lam)),
            ("beta_wgpucb_as_printed_appendix", lambda: C.beta_wgpucb_as_printed_appendix(ig, delta, B, noise_R, lam)),
        ]
    values = {}
    for name, fn in calls:
        beta = fn()
        conv = C.CONVENTIONS[name]
        mult = C.ucb_multiplier(beta, conv) if (conv is C.Convention.MULTIPLIES_SIGMA or beta >= 0) else None
        values[name] = {"beta": beta, "convention": conv.value, "sigma_multiplier": mult}
    data = {"paper": paper, "t": t, "delta": delta, "betas": values}
    if as_json:
        _emit(data, True, "")
        return
    click.echo(f"beta_t for {paper} (t = {t}, delta = {delta})")
    click.echo("-" * 40)
    for name, v in values.items():
        m = "n/a" if v["sigma_multiplier"] is None else f"{v['sigma_multiplier']:.6g}"
        click.echo(f"{name:>34}: beta = {v['beta']:.6g}  ({v['convention']}; sigma multiplier {m})")


@calc.command("gamma")
@click.option("--kernel", "kernel_name", type=click.Choice(["se", "matern"]), required=True)
@click.option("-T", "--horizon", type=int, required=True, help="T >= 1.")
@click.option("--d", type=int, default=1, show_default=True, help="Input dimension.")
@click.option("--nu", type=float, default=None, help="Matern smoothness (required for matern).")
@click.option("--source", type=click.Choice(["vakili", "srinivas"]), default="vakili", show_default=True)
@json_option
@plot_option
def gamma_cmd(kernel_name, horizon, d, nu, source, as_json, plot_path) -> None:
    """Order-level gamma_T = O(T^a log^b T) (tvbo_verify.information; constants are not known)."""
    from ..information import gamma_rate_bound, gamma_rate_exponents

    a, b = gamma_rate_exponents(kernel_name, d, nu, source)
    data = {
        "kernel": kernel_name,
        "horizon": horizon,
        "d": d,
        "nu": nu,
        "source": source,
        "exponent_T": a,
        "exponent_log": b,
        "gamma_T": gamma_rate_bound(kernel_name, horizon, d, nu=nu, source=source),
    }
    _emit(data, as_json, "Maximum information gain rate (up to a constant)")
    if plot_path:
        Ts = np.unique(np.geomspace(2, max(horizon, 3), 60).astype(int))

        def draw(ax):
            ax.loglog(Ts, [gamma_rate_bound(kernel_name, int(T), d, nu=nu, source=source) for T in Ts])
            ax.set_xlabel("T")
            ax.set_ylabel(r"$T^a \log^b T$")
            ax.set_title(f"gamma_T order, {kernel_name} ({source})")
        _save_plot(plot_path, draw)


# --------------------------------------------------------------------------------------------------
# lower bounds
# --------------------------------------------------------------------------------------------------
@calc.command("lower-bound")
@click.option("--paper", type=click.Choice(["bolt", "wsparq", "tvgpucb"]), required=True)
@click.option("--temporal-kernel", type=click.Choice(["se", "matern12", "matern32", "matern52", "rq"]), default="matern12",
              show_default=True, help="bolt: k_T.")
@click.option("--temporal-lengthscale", type=float, default=1.0, show_default=True, help="bolt: l_T.")
@click.option("--period", type=float, default=1.0, show_default=True, help="bolt: c = R(0), seconds per observation.")
@click.option("--lipschitz", type=float, default=1.0, show_default=True, help="bolt: Lipschitz constant L.")
@click.option("--d", type=int, default=1, show_default=True, help="Dimension.")
@click.option("--signal-variance", type=float, default=1.0, show_default=True, help="bolt: lambda.")
@click.option("--spatial-lengthscale", type=float, default=1.0, show_default=True, help="bolt: SE k_S lengthscale.")
@click.option("--alpha", type=float, default=2.0, show_default=True, help="wsparq: UI exponent.")
@click.option("-T", "--horizon", type=int, default=1000, show_default=True, help="wsparq/tvgpucb: horizon.")
@click.option("--budget", type=float, default=None, help="wsparq: number of side queries N_T.")
@click.option("--noise-var", type=float, default=1.0, show_default=True, help="wsparq: sigma^2.")
@click.option("--gamma", "bump_gamma", type=float, default=None, help="wsparq: bump amplitude for M(gamma) of (36).")
@click.option("--B", "B", type=float, default=5.0, show_default=True, help="wsparq: RKHS bound for M(gamma).")
@click.option("--cells", type=int, default=None, help="wsparq: number M of bump functions for the Fano bound (needs --gamma).")
@click.option("--lengthscale", type=float, default=0.1, show_default=True, help="wsparq: SE lengthscale for M(gamma); tvgpucb: grid kernel.")
@click.option("--epsilon", type=float, default=0.01, show_default=True, help="tvgpucb: forgetting epsilon in (0, 1).")
@click.option("--samples", type=int, default=0, show_default=True, help="tvgpucb: Monte Carlo genie samples (0: none).")
@click.option("--seed", type=int, default=0, show_default=True, help="tvgpucb: seed of the genie samples.")
@json_option
@plot_option
def lower_bound_cmd(paper, temporal_kernel, temporal_lengthscale, period, lipschitz, d, signal_variance,
                    spatial_lengthscale, alpha, horizon, budget, noise_var, bump_gamma, B, cells, lengthscale, epsilon,
                    samples, seed, as_json, plot_path) -> None:
    """Lower-bound ingredients: bolt eps_c (Thm 3.6), wsparq section 5 (Fano, L*, T0, V_T), tvgpucb genie."""
    from ..theory import lower_bounds as LB

    if paper == "bolt":
        from ..kernels import SquaredExponential
        from ..kernels import temporal_kernel as make_kernel

        kt = make_kernel(temporal_kernel, temporal_lengthscale)
        ks = SquaredExponential(1.0, spatial_lengthscale)
        out = {}
        for reading in ("printed", "corrected"):
            f = LB.bolt_regret_floor(kt, period, lipschitz=lipschitz, d=d, signal_variance=signal_variance, spatial=ks,
                                     reading=reading)
            out[reading] = {"sigma_c2": f.sigma_c2, "epsilon_c": f.epsilon_c, "log_epsilon_c": f.log_epsilon_c}
        data = {
            "paper": "bolt",
            "period": period,
            "frequency": 1.0 / period,
            "spectral_mass_below_nyquist": LB.spectral_mass_below_nyquist(kt, period),
            "printed": out["printed"],
            "corrected": out["corrected"],
            "note": "corrected: 2 lambda (1 - k_S(sqrt d))(1 - F_T(1/2c)) at separation sqrt(d); 0 at separation 0",
        }
        _emit(data, as_json, "bolt Theorem 3.6 regret floor eps_c (eqs. (4)-(5))")
        if plot_path:
            freqs = np.geomspace(0.1 / period, 10.0 / period, 30)

            def draw(ax):
                for reading in ("printed", "corrected"):
                    vals = [LB.bolt_regret_floor(kt, 1.0 / f, lipschitz=lipschitz, d=d, signal_variance=signal_variance,
                                                 spatial=ks, reading=reading).log_epsilon_c / math.log(10) for f in freqs]
                    ax.semilogx(freqs, vals, label=reading)
                ax.set_xlabel("sampling frequency 1/c (Hz)")
                ax.set_ylabel(r"$\log_{10}\epsilon_c$")
                ax.legend(fontsize=7)
            _save_plot(plot_path, draw)
        return

    if paper == "wsparq":
        w = LB.window_lengths(alpha, horizon)
        data: dict[str, Any] = {
            "paper": "wsparq",
            "alpha": alpha,
            "horizon": horizon,
            "C2": LB.c2_constant(alpha, noise_var),
            "main_information": LB.main_information(horizon, alpha, noise_var),
            "L_star_printed": w.l_star_printed,
            "L_star_derived": w.l_star_derived,
            "L_star_integer_argmin": w.l_star_integer,
            "T0_printed": w.t0_printed,
            "T0_derived": w.t0_derived,
            "F_at_L_star": w.f_at_l_star,
            "threshold": w.threshold,
            "threshold_applies": alpha > 1,
            "V_T": LB.cumulative_variance(horizon, alpha, noise_var),
            "V_T_asymptotic_printed": LB.cumulative_variance_asymptotic(horizon, alpha, noise_var, reading="printed"),
            "V_T_asymptotic_derived": LB.cumulative_variance_asymptotic(horizon, alpha, noise_var, reading="derived"),
        }
        if budget is not None:
            data["budget"] = budget
            data["S_tau_bound"] = budget / noise_var * w.f_at_l_star
        if bump_gamma is not None:
            bc = LB.bump_count(bump_gamma, B, lengthscale, d)
            data["bump"] = {"M": bc.M, "h0": bc.h0, "zeta": bc.zeta, "log_argument": bc.log_argument}
        if cells is not None:
            if bump_gamma is None:
                raise click.BadParameter("--cells needs --gamma (the bump amplitude)", param_hint="'--cells'")
            fb = LB.fano_bounded_queries(cells, bump_gamma, alpha, budget or 0.0, noise_var)
            data["fano"] = {"M": fb.M, "K": fb.kl_per_unit_information, "information": fb.information,
                            "p_err_lower_bound": fb.p_err_lower_bound}
        _emit(data, as_json, "wsparq section 5 lower-bound ingredients")
        if plot_path:
            Ls = np.unique(np.geomspace(1, max(2, horizon // 2), 200).astype(int))

            def draw(ax):
                ax.loglog(Ls, [LB.window_objective(float(L), alpha, horizon) for L in Ls], label="F(L)")
                ax.axvline(w.l_star_derived, color="k", ls="--", lw=1, label="L* derived")
                ax.axvline(w.l_star_printed, color="C3", ls=":", lw=1, label="L* printed")
                ax.set_xlabel("L")
                ax.set_ylabel(r"$F(L)=L^{-\alpha}+4L/T$")
                ax.legend(fontsize=7)
            _save_plot(plot_path, draw)
        return

    from ..validation import check_open_interval

    check_open_interval("epsilon", epsilon, 0.0, 1.0)
    data = {
        "paper": "tvgpucb",
        "epsilon": epsilon,
        "horizon": horizon,
        "order": "E[R_T] = Omega(T eps) (Theorem 4.1); constant not explicit",
        "T_times_epsilon": horizon * epsilon,
    }
    if samples:
        from ..kernels import SquaredExponential

        g = LB.genie_regret(SquaredExponential(1.0, lengthscale), np.linspace(0.0, 1.0, 201), epsilon, samples,
                            np.random.default_rng(seed))
        data["genie_mean_regret"] = g.mean_regret
        data["genie_stderr"] = g.stderr
        data["genie_ratio"] = g.ratio
        data["genie_lower_bound_on_R_T"] = (horizon - 1) * g.mean_regret
    _emit(data, as_json, "tvgpucb Theorem 4.1 (genie, App. F)")


# --------------------------------------------------------------------------------------------------
# block / discount / regret-bound
# --------------------------------------------------------------------------------------------------
@calc.command("block")
@click.option("--epsilon", type=float, required=True, help="Forgetting epsilon in (0, 1).")
@click.option("-T", "--horizon", type=int, required=True, help="Horizon T >= 1.")
@click.option("--kernel", "kernel_name", type=click.Choice(["se", "matern"]), default="se", show_default=True)
@click.option("--nu", type=float, default=2.5, show_default=True, help="Matern smoothness.")
@click.option("--d", type=int, default=1, show_default=True, help="Dimension.")
@click.option("--noise-var", type=float, default=0.01, show_default=True, help="sigma^2 for the corrected (21).")
@json_option
@plot_option
def block_cmd(epsilon, horizon, kernel_name, nu, d, noise_var, as_json, plot_path) -> None:
    """R-GP-UCB block length and TV-GP-UCB analysis block (tvgpucb Corollary 4.1), with the (21) bound."""
    from ..theory import rates as Ra
    from ..theory import schedules as S

    bl = S.block_lengths(epsilon, horizon, kernel_name, nu=nu, d=d)
    gamma_of = np.vectorize(lambda n: Ra.gamma_rate(kernel_name, int(n), d, nu=nu if kernel_name == "matern" else None,
                                                   source="srinivas"))
    n_star_p, v_p = Ra.block_bound_minimum(horizon, epsilon, gamma_of, noise_var=noise_var, reading="printed")
    n_star_c, v_c = Ra.block_bound_minimum(horizon, epsilon, gamma_of, noise_var=noise_var, reading="corrected")
    data = {
        "epsilon": epsilon,
        "horizon": horizon,
        "kernel": kernel_name,
        "c": bl.c,
        "r_gp_ucb_block_theory": bl.r_gp_ucb_theory,
        "r_gp_ucb_block_experiments": bl.r_gp_ucb_experiments,
        "tv_analysis_block": bl.tv_analysis,
        "tv_analysis_block_corrected": bl.tv_analysis_corrected,
        "block_exponent_r": -bl.r_exponent,
        "block_exponent_tv": -bl.tv_exponent,
        "eq21_printed_min": {"block": n_star_p, "bound": v_p},
        "eq21_corrected_min": {"block": n_star_c, "bound": v_c},
        "gamma_N": "order-level gamma_N (Srinivas et al.), constant 1",
    }
    _emit(data, as_json, "Block lengths (tvgpucb Corollary 4.1) and the gamma~_T block bound (21)")
    if plot_path:
        N = np.arange(1, horizon + 1, dtype=float)

        def draw(ax):
            for reading in ("printed", "corrected"):
                ax.loglog(N, Ra.block_bound(horizon, N, epsilon, gamma_of(N), noise_var=noise_var, reading=reading),
                          label=f"(21) {reading}")
            ax.axvline(bl.r_gp_ucb_theory, color="k", ls="--", lw=1, label="R-GP-UCB N (theory)")
            ax.set_xlabel("block length N")
            ax.set_ylabel(r"bound on $\tilde\gamma_T$")
            ax.legend(fontsize=7)
        _save_plot(plot_path, draw)


@calc.command("discount")
@click.option("-T", "--horizon", type=int, required=True, help="Horizon T >= 2.")
@click.option("--variation-budget", type=float, default=None, help="B_T if known.")
@click.option("--gamma-dot", type=float, default=None, help="A-priori bound on gamma_dot_T (default log^(d+1) T).")
@click.option("--d", type=int, default=1, show_default=True, help="Dimension (for the default gamma_dot).")
@json_option
def discount_cmd(horizon, variation_budget, gamma_dot, d, as_json) -> None:
    """WGP-UCB discount gamma, window c and QFF size m-bar (wgpucb Corollary 5)."""
    from ..information import gamma_rate_bound
    from ..theory import schedules as S
    from ..validation import check_int

    check_int("horizon", horizon, minimum=2)
    g = gamma_dot if gamma_dot is not None else gamma_rate_bound("se", horizon, d)
    ch = S.wgpucb_discount(horizon, g, variation_budget)
    data = {
        "horizon": horizon,
        "gamma_dot": g,
        "variation_budget": variation_budget,
        "known_budget": ch.known_budget,
        "discount": ch.discount,
        "one_minus_discount": 1.0 - ch.discount,
        "c": ch.c,
        "c_exact": ch.c_exact,
        "m_bar": ch.m_bar,
        "m_bar_exact": ch.m_bar_exact,
        "regret_order": ch.regret_order,
    }
    _emit(data, as_json, "WGP-UCB discount (wgpucb Corollary 5; c and m-bar rounded up)")


@calc.command("regret-bound")
@click.option("--bound", "name", default=None, help="Bound name (see --list).")
@click.option("--list", "list_", is_flag=True, help="List the available bounds.")
@click.option("-T", "--horizon", type=int, default=1000, show_default=True, help="Horizon T >= 2.")
@click.option("-p", "--param", "params", multiple=True, help="Parameter key=value (repeatable).")
@json_option
@plot_option
def regret_bound_cmd(name, list_, horizon, params, as_json, plot_path) -> None:
    """Regret bounds of the five papers as functions of T (orders; constants unknown)."""
    from ..theory import rates as Ra

    if list_ or name is None:
        rows = {k: {"ref": b.ref, "formula": b.formula, "kind": b.kind, "params": list(b.params)}
                for k, b in Ra.REGRET_BOUNDS.items()}
        if as_json:
            _emit(rows, True, "")
        else:
            for k, v in rows.items():
                click.echo(f"{k:<28} {v['kind']:<6} {v['formula']}  [{', '.join(v['params'])}]  ({v['ref']})")
        return
    b = Ra.regret_bound(name)
    kv = _params(params)
    from ..validation import check_int

    check_int("horizon", horizon, minimum=2)
    value = float(b(float(horizon), **kv))
    data = {
        "bound": name,
        "ref": b.ref,
        "formula": b.formula,
        "kind": b.kind,
        "horizon": horizon,
        "params": kv,
        "value": value,
        "exponent_of_T": b.exponent_of_T(**kv),
        "note": "order-level curve, constant 1",
    }
    _emit(data, as_json, f"Regret bound {name}")
    if plot_path:
        Ts = np.geomspace(2, max(3, horizon), 100)

        def draw(ax):
            ax.loglog(Ts, b(Ts, **kv), label=b.formula)
            ax.loglog(Ts, Ts, "k:", lw=1, label="T")
            ax.set_xlabel("T")
            ax.set_ylabel("bound")
            ax.legend(fontsize=7)
        _save_plot(plot_path, draw)
