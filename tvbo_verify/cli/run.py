"""``tvbo-verify run ALGO --env ENV -T ... --reps ... --out DIR``: seeded regret traces and a regret plot.

Writes ``DIR/rep_NNNN.npz`` + ``.json`` per repetition (as each finishes, atomically), ``DIR/run.json``
(configuration and summary) and ``DIR/regret.png`` (mean ± one standard deviation of the cumulative
regret over repetitions, with the order of the paper's bound overlaid where one exists). An
interrupted run keeps the finished repetitions; ``--resume`` runs only the missing ones.
"""

from __future__ import annotations

import json
import os
import tempfile

import click
import numpy as np

from ..validation import check_choice, check_int
from .main import register


def _atomic_json(path: str, data: dict) -> None:
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".tmp-")
    with os.fdopen(fd, "w") as fh:
        json.dump(data, fh, indent=2, default=str)
    os.replace(tmp, path)


def _plot(traces: list, algo: str, env_name: str, d: int, params: dict, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..bandits.registry import rate_shape

    R = np.array([t.cumulative for t in traces])
    T = np.arange(1, R.shape[1] + 1)
    mean, sd = R.mean(axis=0), R.std(axis=0)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(T, mean, label=f"{algo} (mean of {R.shape[0]})")
    ax.fill_between(T, mean - sd, mean + sd, alpha=0.25, label="± 1 sd")
    shape = rate_shape(algo, T, d, params)
    if shape is not None and mean[-1] > 0:
        g, label = shape
        ax.plot(T, g * (mean[-1] / g[-1]), "k--", lw=1, label=f"bound order {label}, scaled at T")
    ax.set_xlabel("round t")
    ax.set_ylabel("cumulative regret $R_t$")
    ax.set_title(f"{algo} on {env_name}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".tmp-", suffix=".png")
    os.close(fd)
    fig.savefig(tmp, dpi=120)
    plt.close(fig)
    os.replace(tmp, path)


@register
@click.command("run")
@click.argument("algo")
@click.option("--env", "env_name", required=True, help="Environment name (see tvbo-verify run-list).")
@click.option("-T", "--horizon", "T", type=int, required=True, help="Rounds per repetition (>= 1).")
@click.option("--reps", type=int, default=1, show_default=True, help="Repetitions (>= 1).")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Output directory.")
@click.option("--executor", default="process", show_default=True, help="serial | process | dask")
@click.option("--scheduler", default=None, help="Dask scheduler address (with --executor dask).")
@click.option("--workers", type=int, default=None, help="Processes for --executor process.")
@click.option("--seed", type=int, default=0, show_default=True, help="Root seed (SeedSequence).")
@click.option("--beta", "beta_spec", default=None, help="const:V[:sqrt|multiplies_sigma], log:C1,C2, finite:DELTA, kk:B[,DELTA], wdbo, tvgpucb[:DELTA], "
              "rgpucb[:DELTA] (default: the algorithm's own)")
@click.option("-p", "--param", "params", multiple=True, help="Algorithm parameter key=value (repeatable).")
@click.option("-e", "--env-param", "env_params", multiple=True, help="Environment parameter key=value (repeatable).")
@click.option("--expert-noise", type=float, default=None, help="Expert noise variance (default: the environment's).")
@click.option("--expert-budget", type=int, default=None, help="Total expert queries allowed per repetition.")
@click.option("--resume", is_flag=True, help="Keep finished repetitions in --out and run only the missing ones.")
@click.option("--no-plot", is_flag=True, help="Skip regret.png.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def run_command(algo, env_name, T, reps, out_dir, executor, scheduler, workers, seed, beta_spec, params, env_params,
                expert_noise, expert_budget, resume, no_plot, quiet) -> None:
    """Run ALGO on an environment for several seeded repetitions and write traces and a regret plot."""
    from ..bandits.beta import parse_beta
    from ..execution import EXECUTORS, get_executor
    from ..bandits.registry import make_env, make_policy, parse_params
    from ..bandits.runner import run_many
    from ..bandits.traces import finished_reps, load_trace

    T = check_int("T", T, 1)
    reps = check_int("reps", reps, 1)
    check_int("seed", seed, 0)
    check_choice("executor", executor, EXECUTORS)
    if expert_budget is not None:
        check_int("expert budget", expert_budget, 0)
    beta = parse_beta(beta_spec) if beta_spec else None
    algo_params, env_kw = parse_params(params), parse_params(env_params)
    policy = make_policy(algo, algo_params, beta)
    env = make_env(env_name, env_kw)
    config = {"algorithm": algo, "env": env_name, "T": T, "reps": reps, "seed": seed, "beta": beta_spec,
              "params": algo_params, "env_params": env_kw, "expert_noise_var": expert_noise,
              "expert_budget": expert_budget}
    os.makedirs(out_dir, exist_ok=True)
    done = [r for r in finished_reps(out_dir) if r < reps]
    run_json = os.path.join(out_dir, "run.json")
    if done and not resume:
        raise click.ClickException(f"{out_dir} already holds {len(done)} repetitions; use --resume or another --out")
    if done and os.path.exists(run_json):
        with open(run_json) as fh:
            previous = json.load(fh).get("config", {})
        if {k: v for k, v in previous.items() if k != "reps"} != {k: v for k, v in config.items() if k != "reps"}:
            raise click.ClickException(f"{out_dir} holds a run with a different configuration; use another --out")
    _atomic_json(run_json, {"config": config, "status": "running"})
    options = {"expert_noise_var": expert_noise, "expert_budget": expert_budget}
    ex = get_executor(executor, workers=workers, scheduler=scheduler)
    run_many(policy, env, T, reps, seed=seed, executor=ex, out_dir=out_dir, progress=not quiet, skip=done, **options)
    traces = [load_trace(out_dir, r) for r in range(reps)]
    final = np.array([t.cumulative[-1] for t in traces])
    summary = {
        "final_regret_mean": float(final.mean()),
        "final_regret_sd": float(final.std()),
        "expert_queries_mean": float(np.mean([t.expert_queries[-1] for t in traces])),
        "dataset_size_final_mean": float(np.mean([t.dataset_size[-1] for t in traces])),
        "seconds_per_step_mean": float(np.mean([t.seconds.mean() for t in traces])),
        "policy": traces[0].meta.get("policy"),
        "env_config": traces[0].meta.get("env"),
    }
    _atomic_json(run_json, {"config": config, "status": "finished", "summary": summary})
    if not no_plot:
        _plot(traces, algo, env_name, int(env.grid.shape[1]), algo_params, os.path.join(out_dir, "regret.png"))
    click.echo(f"{algo} on {env_name}: R_T = {summary['final_regret_mean']:.4g} ± {summary['final_regret_sd']:.2g} "
               f"over {reps} repetitions (T = {T}); expert queries {summary['expert_queries_mean']:.4g}; "
               f"traces in {out_dir}")


@register
@click.command("run-list")
def run_list() -> None:
    """List the algorithms and environments accepted by ``tvbo-verify run``."""
    from ..bandits.registry import ALGORITHMS, ENVIRONMENTS

    click.echo("algorithms:   " + ", ".join(ALGORITHMS))
    click.echo("environments: " + ", ".join(ENVIRONMENTS))
