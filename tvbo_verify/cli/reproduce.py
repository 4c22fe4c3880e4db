"""``tvbo-verify reproduce``: list and run the reproductions of the papers' figures and tables."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from .params import fidelity_option, refuse_together


@click.command("reproduce")
@click.argument("ids", nargs=-1)
@click.option("--list", "list_only", is_flag=True, help="List every reproducible figure and table, then exit.")
@click.option("--all", "run_all", is_flag=True, help="Run every reproduction.")
@click.option("--paper", default=None, help="Only the reproductions of this paper (with --list or --all).")
@fidelity_option
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=Path("reports/latest/reproductions"),
              show_default=True, help="Folder for the figures (PNG, SVG) and findings (JSON).")
@click.option("--executor", type=click.Choice(["serial", "process", "dask"]), default="process", show_default=True)
@click.option("--scheduler", default=None, help="Dask scheduler address (with --executor dask).")
@click.option("--cache", "cache_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Run cache folder (default $TVBO_VERIFY_CACHE or ~/.cache/tvbo_verify).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the run cache.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Run seed (>= 0): offsets the root seed of every sweep and seeds the bootstrap intervals.")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON (no progress display).")
def reproduce(ids: tuple[str, ...], list_only: bool, run_all: bool, paper: str | None, fidelity: str, out: Path,
              executor: str, scheduler: str | None, cache_dir: Path | None, no_cache: bool, seed: int,
              as_json: bool) -> None:
    """Run the reproductions IDS (or --all); write OUT/<id>.png, .svg and .json; print the findings."""
    from ..execution import get_executor
    from ..files import writable_folder
    from ..jsonify import dumps
    from ..report.progress import StepCounter
    from ..sweeps.cache import cache_from_options
    from ..sweeps.reproduce import get_reproduction, reproductions, run_reproduction
    from ..verify.claimlist import check_paper

    refuse_together(("--list", list_only), ("reproduction ids", bool(ids)),
                    why="--list lists every reproduction (or those of --paper); give ids without --list to run them")
    refuse_together(("--list", list_only), ("--all", run_all), why="--list runs nothing")
    refuse_together(("--no-cache", no_cache), ("--cache", cache_dir is not None),
                    why="--no-cache uses no run cache, --cache names one")
    if paper is not None:
        check_paper(paper)
    if list_only:
        items = reproductions(paper)
        if as_json:
            click.echo(dumps([{"id": r.id, "paper": r.paper, "title": r.title, "setup": r.setup,
                               "expected": r.expected, "claims": list(r.claims), "runs_quick": r.runs("quick"),
                               "runs_full": r.runs("full")} for r in items], indent=1))
            return
        for r in items:
            click.echo(f"{r.id:<34} {r.title}")
            click.echo(f"{'':<34} expected: {r.expected}")
        click.echo(f"{len(items)} reproductions")
        return
    if run_all and ids:
        raise click.UsageError("give reproduction ids or --all, not both")
    chosen = reproductions(paper) if run_all else [get_reproduction(i) for i in ids]
    if not chosen:
        raise click.UsageError("name at least one reproduction id, or --all (see --list)")
    cache = cache_from_options(cache_dir, no_cache)
    writable_folder(out, role="--out folder")
    records = []
    start = time.perf_counter()
    counter = StepCounter(len(chosen))
    with get_executor(executor, scheduler=scheduler) as ex:
        for rep in chosen:
            outcome = run_reproduction(rep, out, fidelity=fidelity, executor=ex, cache=cache, seed=seed,
                                       progress=False if as_json else None)
            records.append(outcome.record())
            counter.step()
            if not as_json:
                over = outcome.sensitivity
                where = (f" Over the constants the paper leaves open ({over['settings']} settings): {over['verdict']}"
                         f" — {over['statement']}." if over is not None else "")
                click.echo(f"{counter.label()} {rep.id} ({outcome.seconds:.1f} s; {counter.remaining()}): "
                           f"{outcome.finding.text}{where}")
    if as_json:
        click.echo(dumps(records, indent=1))
    else:
        stats = cache.describe()
        click.echo(f"{len(records)} reproductions in {time.perf_counter() - start:.1f} s; runs from cache "
                   f"{stats['hits']}, computed {stats['written'] if cache.enabled else stats['misses']}; "
                   f"figures and findings in {out}", err=False)
    sys.exit(0)
