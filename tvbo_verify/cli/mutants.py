"""``tvbo-verify mutants``: run the catalog of plausible bugs against the claims and print the kill matrix."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .params import fidelity_option


def _catalog_lines() -> list[str]:
    from ..mutants.catalog import CATALOG

    lines = [f"{'mutant':<40} {'layer':<12} {'target':<62} bug"]
    for m in CATALOG:
        mark = " [equivalent]" if m.is_equivalent else ""
        lines.append(f"{m.name:<40} {m.layer:<12} {m.target:<62} {m.description}{mark}")
    lines.append(f"{len(CATALOG)} mutants, {sum(m.is_equivalent for m in CATALOG)} argued equivalent")
    return lines


@click.command("mutants")
@click.option("--paper", "papers", multiple=True, help="Only claims of this paper may kill (repeatable).")
@click.option("--kind", "kinds", multiple=True, help="Only claims of this kind may kill (repeatable).")
@click.option("--mutant", "names", multiple=True, help="Only this mutant of the catalog (repeatable).")
@click.option("--subset", "subset_name", default=None,
              help="A named short run (e.g. 'ci'): its mutants, each tried only on the cheap claims named for it.")
@click.option("--list", "list_only", is_flag=True, help="Print the catalog and exit.")
@click.option("--exhaustive", is_flag=True, help="Run every candidate claim of every mutant (full kill matrix).")
@click.option("--json", "as_json", is_flag=True, help="Print the results document as JSON.")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), default=Path("reports/mutants.json"),
              show_default=True, help="Results document (written after every mutant).")
@fidelity_option
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Run seed of every claim.")
@click.option("--budget", type=click.FloatRange(min=1.0), default=600.0, show_default=True,
              help="Seconds one mutant may take before it is reported timed out.")
@click.option("--wall-budget", type=click.FloatRange(min=1.0), default=None,
              help="Seconds the whole run may take (unmutated baselines included); the mutants left when it ends "
                   "are reported 'not run', never killed.")
@click.option("--probe-workers", type=click.IntRange(min=1, max=64), default=1, show_default=True,
              help="Processes measuring the unmutated claims at once (each mutant's candidates are measured "
                   "together before it runs; 1: one at a time, as each is needed).")
@click.option("--reuse", "earlier", multiple=True, type=click.Path(path_type=Path, dir_okay=False),
              help="An earlier results file (repeatable): its claim runtimes order the candidates, and a mutation "
                   "results file of the same code gives its unmutated outcomes and profiles. OUT is always read.")
def mutants(papers: tuple[str, ...], kinds: tuple[str, ...], names: tuple[str, ...], subset_name: str | None,
            list_only: bool,
            exhaustive: bool, as_json: bool, out: Path, fidelity: str, seed: int, budget: float,
            wall_budget: float | None, probe_workers: int, earlier: tuple[Path, ...]) -> None:
    """Apply each mutant at run time, rerun the claims that can notice it (fresh run cache), and report which
    claims kill it; exit 0 iff every selected mutant that is not argued equivalent is killed (a survivor, a mutant
    that timed out, was not run, does not apply or that no claim reaches: exit 1)."""
    from ..mutants.analysis import select_mutants, selected_claims
    from ..mutants.harness import Settings
    from ..mutants.subsets import subset

    select_mutants(names)  # unknown names, choices and budgets fail here, before anything runs
    selected_claims(papers, kinds)
    settings = Settings(fidelity=fidelity, seed=seed, budget_s=budget, exhaustive=exhaustive,
                        wall_budget_s=wall_budget, probe_workers=probe_workers)
    if subset_name is not None:
        select_mutants(tuple(subset(subset_name)))
    if list_only:
        for line in _catalog_lines():
            click.echo(line)
        return
    from ..files import exclusive_lock, removed_if_empty_on_error, writable_folder
    from ..mutants.analysis import analyse
    from ..mutants.results import render, unkilled
    from ..report.results import git_revision

    out = Path(out)
    with removed_if_empty_on_error(out.parent):  # the --out file is checked (and locked) before any mutant runs
        writable_folder(out.parent, role=f"folder of --out {out}:")
        with exclusive_lock(out.parent / f".{out.name}.lock", what=f"--out file {out}", instead="another --out"):
            doc = analyse(names=names, papers=papers, kinds=kinds, settings=settings, out=out, git=git_revision(),
                          subset_name=subset_name, earlier=earlier, progress=lambda s: click.echo(s, err=True))
    if as_json:
        click.echo(json.dumps(doc, indent=1))
    else:
        for line in render(doc):
            click.echo(line)
        click.echo(f"results: {out}")
    sys.exit(1 if unkilled(doc) else 0)
