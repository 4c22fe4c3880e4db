"""``tvbo-verify run ALGO --env ENV -T ... --reps ... --out DIR``: seeded regret traces and a regret plot.

Writes ``DIR/rep_NNNN.npz`` + ``.json`` per repetition (as each finishes, atomically), ``DIR/run.json``
(configuration, status and summary) and ``DIR/regret.png`` (mean ± one standard deviation of the
cumulative regret over repetitions, with the order of the paper's bound overlaid where one exists).
Every option is checked before anything is written, so a refused command leaves no ``run.json``; an
``--out`` that cannot be written (a read-only file system, a path under a file) is one error line with
exit code 2. ``run.json`` says ``"finished"`` only once every trace and ``regret.png`` exist. An
interrupted run (Ctrl-C: exit 130) keeps the finished repetitions and records ``"interrupted"`` in
``run.json``; ``--resume`` runs only the missing ones, and only in a folder whose ``run.json`` records this
configuration and whose repetitions are of this run (a damaged repetition is run again, saying so). While a
run writes its folder, a second writer of that folder is refused (:func:`~tvbo_verify.files.folder_lock`).
Files are created with the umask's mode.
"""

from __future__ import annotations

import json
import os

import click

from ..errors import MissingExtraError
from ..files import atomic_write, atomic_write_text, folder_lock, removed_if_empty_on_error, writable_folder
from ..jsonify import dumps
from ..validation import check_choice, check_int
from .params import WHOLE

# numpy, matplotlib and the bandits package are imported inside the commands: listing the commands
# (``tvbo-verify --help``) imports this module and should not wait for them.


def _write_run_json(path: str, data: dict) -> None:
    atomic_write_text(path, dumps(data, indent=2))


def _read_record(run_json: str) -> dict:
    """The ``config`` of the run record ``run_json``; ``ValueError`` naming the file when it is unreadable."""
    try:
        with open(run_json, encoding="utf-8") as fh:
            record = json.load(fh)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else f"not valid JSON ({exc})"
        raise ValueError(f"run record {run_json} cannot be read: {str(reason)[:160]}; the repetitions beside it "
                         "cannot be resumed: use another --out") from None
    if not isinstance(record, dict) or not isinstance(record.get("config"), dict):
        raise ValueError(f"run record {run_json} holds no configuration; the repetitions beside it cannot be "
                         "resumed: use another --out")
    return record["config"]


def _kept_repetitions(out_dir: str, config: dict, resume: bool, policy_name: str | None, env_name: str) -> list[int]:
    """The finished repetitions of ``out_dir`` that this run keeps (``--resume``), each read back whole.

    A folder is resumed only by the run that wrote it: its ``run.json`` must exist and hold this configuration
    (``reps`` aside), and every kept repetition must be one of that run (algorithm, environment, ``T``, seed and
    index in its own record). Anything else is one error line naming the difference; a repetition whose files
    are damaged (truncated, bit-flipped) is said on stderr and run again.
    """
    from ..bandits.traces import DamagedTrace, finished_reps, read_trace

    present = finished_reps(out_dir)
    if not present:
        return []
    if not resume:
        raise click.ClickException(f"{out_dir} already holds {len(present)} repetitions; use --resume or another "
                                   "--out")
    run_json = os.path.join(out_dir, "run.json")
    if not os.path.exists(run_json):
        raise ValueError(f"--out folder {out_dir} holds {len(present)} repetitions but no run.json saying which run "
                         "wrote them; they cannot be resumed: use another --out")
    previous = _read_record(run_json)
    wanted = json.loads(dumps(config))
    differences = [f"{key} {previous.get(key)!r} (this command: {value!r})" for key, value in wanted.items()
                   if key != "reps" and previous.get(key) != value]
    if differences:
        raise ValueError(f"--out folder {out_dir} holds the repetitions of another run: "
                         f"{', '.join(differences)}; use another --out")
    kept = []
    for rep in (r for r in present if r < config["reps"]):
        try:
            trace = read_trace(out_dir, rep)
        except DamagedTrace as exc:
            click.echo(f"warning: {exc}; repetition {rep} is run again", err=True)
            continue
        meta = trace.meta
        found = {"algorithm": (meta.get("policy") or {}).get("name"),
                 "environment": (meta.get("env") or {}).get("name"), "T": meta.get("T"),
                 "seed": meta.get("seed_entropy"), "repetition": meta.get("rep"), "rounds": trace.T}
        expected = {"algorithm": policy_name, "environment": env_name, "T": config["T"], "seed": str(config["seed"]),
                    "repetition": rep, "rounds": config["T"]}
        wrong = [f"{key} {found[key]!r}, not {value!r}" for key, value in expected.items() if found[key] != value]
        if wrong:
            raise ValueError(f"{trace_file(out_dir, rep)} is a repetition of another run ({', '.join(wrong)}); "
                             "use another --out")
        kept.append(rep)
    return kept


def trace_file(out_dir: str, rep: int) -> str:
    """The record (``.json``) of repetition ``rep`` in ``out_dir``."""
    from ..bandits.traces import trace_paths

    return trace_paths(out_dir, rep)[1]


def _summary(traces: list) -> dict:
    """Final regret (mean, sd), expert queries, dataset size and time per step over the repetitions."""
    import numpy as np

    final = np.array([t.cumulative[-1] for t in traces])
    return {
        "final_regret_mean": float(final.mean()),
        "final_regret_sd": float(final.std()),
        "expert_queries_mean": float(np.mean([t.expert_queries[-1] for t in traces])),
        "dataset_size_final_mean": float(np.mean([t.dataset_size[-1] for t in traces])),
        "seconds_per_step_mean": float(np.mean([t.seconds.mean() for t in traces])),
        "policy": traces[0].meta.get("policy"),
        "env_config": traces[0].meta.get("env"),
    }


def _plot(traces: list, algo: str, env_name: str, d: int, params: dict, path: str) -> None:
    import matplotlib
    import numpy as np

    from ..bandits.registry import rate_shape

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..sweeps.reproduce.figures import ORDER_ONLY, fit_order

    R = np.array([t.cumulative for t in traces])
    T = np.arange(1, R.shape[1] + 1)
    mean, sd = R.mean(axis=0), R.std(axis=0)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(T, mean, label=f"{algo} (mean of {R.shape[0]})")
    ax.fill_between(T, mean - sd, mean + sd, alpha=0.25, label="± 1 sd")
    shape = rate_shape(algo, T, d, params)
    if shape is not None and mean[-1] > 0:
        g, label = shape
        ax.plot(T, fit_order(mean, g), "k--", lw=1, label=f"order of the bound, {label} ({ORDER_ONLY})")
    ax.set_xlim(T[0], T[-1])
    ax.set_xlabel("round t")
    ax.set_ylabel("cumulative regret $R_t$")
    ax.set_title(f"{algo} on {env_name}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    try:
        atomic_write(path, lambda fh: fig.savefig(fh, dpi=120, format="png"))
    finally:
        plt.close(fig)


@click.command("run")
@click.argument("algo")
@click.option("--env", "env_name", required=True, help="Environment name (see tvbo-verify run-list).")
@click.option("-T", "--horizon", "T", type=WHOLE, required=True, help="Rounds per repetition (1 to 10^6).")
@click.option("--reps", type=int, default=1, show_default=True, help="Repetitions (>= 1).")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Output directory.")
@click.option("--executor", default="process", show_default=True, help="serial | process | dask")
@click.option("--scheduler", default=None, help="Dask scheduler address (with --executor dask).")
@click.option("--workers", type=int, default=None, help="Processes for --executor process.")
@click.option("--seed", type=int, default=0, show_default=True, help="Root seed (SeedSequence).")
@click.option("--beta", "beta_spec", default=None,
              help="const:V[:sqrt|multiplies_sigma], log:C1,C2, finite:DELTA, kk:B[,DELTA], wdbo, tvgpucb[:DELTA], "
                   "rgpucb[:DELTA], bolt:L[,DELTA], igp-ucb:B,R[,DELTA][:bound|queried] (default: the algorithm's own)")
@click.option("-p", "--param", "params", multiple=True, help="Algorithm parameter key=value (repeatable).")
@click.option("-e", "--env-param", "env_params", multiple=True,
              help="Environment parameter key=value (repeatable); kernel=NAME[:LENGTHSCALE] with NAME in se, "
                   "matern12, matern32, matern52, rq.")
@click.option("--expert-noise", type=float, default=None, help="Expert noise variance (default: the environment's).")
@click.option("--expert-budget", type=int, default=None, help="Total expert queries allowed per repetition.")
@click.option("--resume", is_flag=True, help="Keep finished repetitions in --out and run only the missing ones.")
@click.option("--no-plot", is_flag=True, help="Skip regret.png.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def run_command(algo: str, env_name: str, T: int, reps: int, out_dir: str, executor: str, scheduler: str | None,
                workers: int | None, seed: int, beta_spec: str | None, params: tuple[str, ...],
                env_params: tuple[str, ...], expert_noise: float | None, expert_budget: int | None, resume: bool,
                no_plot: bool, quiet: bool) -> None:
    """Run ALGO on an environment for several seeded repetitions and write traces and a regret plot."""
    from ..bandits.beta import parse_beta
    from ..bandits.registry import make_env, make_policy, parse_params
    from ..bandits.runner import MAX_HORIZON, MAX_HORIZON_REASON, run_many
    from ..bandits.traces import finished_reps, load_trace
    from ..execution import EXECUTORS, get_executor

    T = check_int("T", T, 1, maximum=MAX_HORIZON, reason=MAX_HORIZON_REASON)
    reps = check_int("reps", reps, 1)
    check_int("seed", seed, 0)
    check_choice("executor", executor, EXECUTORS)
    if workers is not None and (isinstance(workers, bool) or workers < 1):
        raise click.BadParameter(f"must be an integer >= 1, got {workers}", param_hint="'--workers'")
    if expert_budget is not None:
        check_int("expert budget", expert_budget, 0)
    beta = parse_beta(beta_spec) if beta_spec else None
    algo_params, env_kw = parse_params(params), parse_params(env_params)
    policy = make_policy(algo, algo_params, beta)
    env = make_env(env_name, env_kw)
    config = {"algorithm": algo, "env": env_name, "T": T, "reps": reps, "seed": seed, "beta": beta_spec,
              "params": algo_params, "env_params": env_kw, "expert_noise_var": expert_noise,
              "expert_budget": expert_budget}
    run_json = os.path.join(out_dir, "run.json")
    options = {"expert_noise_var": expert_noise, "expert_budget": expert_budget}
    plot_path = os.path.join(out_dir, "regret.png")
    with removed_if_empty_on_error(out_dir):
        writable_folder(out_dir, role="--out folder")
        with folder_lock(out_dir, role="--out folder"):
            done = _kept_repetitions(out_dir, config, resume, policy.config().get("name"), env.name)
            ex = get_executor(executor, workers=workers, scheduler=scheduler)
            _write_run_json(run_json, {"command": "run", "config": config, "status": "running"})
            try:
                if os.path.exists(plot_path):  # a plot of an earlier run no longer describes this one
                    os.unlink(plot_path)
                with ex:
                    run_many(policy, env, T, reps, seed=seed, executor=ex, out_dir=out_dir, progress=not quiet,
                             skip=done, **options)
                traces = [load_trace(out_dir, r) for r in range(reps)]
                summary = _summary(traces)
                if not no_plot:
                    _plot(traces, algo, env_name, int(env.grid.shape[1]), algo_params, plot_path)
            except BaseException as exc:
                status = "interrupted" if isinstance(exc, KeyboardInterrupt) else "failed"
                _write_run_json(run_json, {"command": "run", "config": config, "status": status,
                                           "finished_reps": finished_reps(out_dir)})
                raise
            _write_run_json(run_json, {"command": "run", "config": config, "status": "finished",
                                       "summary": summary})  # every file exists
    click.echo(f"{algo} on {env_name}: R_T = {summary['final_regret_mean']:.4g} ± {summary['final_regret_sd']:.2g} "
               f"over {reps} repetitions (T = {T}); expert queries {summary['expert_queries_mean']:.4g}; "
               f"traces in {out_dir}")


@click.command("run-list")
@click.option("--describe", "describe", multiple=True, metavar="ENV",
              help="Also measure how much there is to track on ENV (repeatable; 'all' for every environment).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def run_list(describe: tuple[str, ...], as_json: bool) -> None:
    """List the algorithms and environments accepted by ``tvbo-verify run``.

    For the real-data environments (and those named by --describe) it measures, on one realisation of
    their horizon, the number of distinct best arms and the fraction of rounds where the best arm
    changes — a tracking problem needs both well above trivial.
    """
    from ..bandits.registry import ALGORITHMS, ENVIRONMENTS, REAL_DATA_ENVIRONMENTS, environment_info, load_plugin_names

    load_plugin_names()  # the policies and environments of installed paper plugins are listed too

    names = list(ENVIRONMENTS) if "all" in describe else list(dict.fromkeys(REAL_DATA_ENVIRONMENTS + describe))
    rows = []
    for name in names:
        try:
            rows.append(environment_info(name))
        except MissingExtraError as exc:  # the optional data packages are missing
            rows.append({"name": name, "unavailable": str(exc)})
    if as_json:
        click.echo(dumps({"algorithms": list(ALGORITHMS), "environments": list(ENVIRONMENTS), "tracking": rows},
                         indent=1))
        return
    click.echo("algorithms:   " + ", ".join(ALGORITHMS))
    click.echo("environments: " + ", ".join(ENVIRONMENTS))
    if rows:
        click.echo(f"{'environment':<16}{'arms':>6}{'rounds':>8}{'distinct best arms':>20}{'best arm changes':>18}")
        for r in rows:
            if "unavailable" in r:
                click.echo(f"{r['name']:<16}  {r['unavailable']}")
                continue
            click.echo(f"{r['name']:<16}{r['arms']:>6}{r['rounds']:>8}{r['distinct_best_arms']:>20}"
                       f"{r['best_arm_change_fraction']:>17.0%}")
