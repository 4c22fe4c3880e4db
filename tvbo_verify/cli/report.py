"""``tvbo-verify papers``, ``list``, ``report`` and ``replay``: the claim suite from the command line.

Every ``--paper`` takes the id of a registered paper (``tvbo-verify papers``): this package's five and those
of any installed package that registers papers (:mod:`tvbo_verify.papers`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from click.core import ParameterSource

from .params import fidelity_option, refuse_together


@click.command("papers")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of papers.")
def list_papers(as_json: bool) -> None:
    """Every registered paper: id, citation, the package it comes from, its claims and reproductions."""
    from ..papers import load_problems, paper_origin, papers
    from ..sweeps.reproduce import reproductions
    from ..verify.claimlist import paper_rows
    from ..verify.registry import registered

    items = []
    for p in papers():
        rows = paper_rows(p.id)
        items.append({"id": p.id, "citation": p.citation, "topic": p.topic, "origin": paper_origin(p.id),
                      "claims": len(rows), "implemented": len(registered(p.id)),
                      "reproductions": [r.id for r in reproductions(p.id)]})
    if as_json:
        click.echo(json.dumps(items, indent=1, ensure_ascii=False))
        return
    for it in items:
        click.echo(f"{it['id']:<14} {it['implemented']}/{it['claims']} claims implemented, "
                   f"{len(it['reproductions'])} reproductions; from {it['origin']}")
        click.echo(f"{'':<14} {it['citation']}")
    for name, problem in load_problems().items():
        click.echo(f"not loaded: {problem}", err=True)


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of claims.")
@click.option("--paper", default=None, help="Only the claims of this registered paper (see `tvbo-verify papers`).")
def list_claims(as_json: bool, paper: str | None) -> None:
    """Every claim with id, paper, reference, kind, expectation and whether it is implemented."""
    from ..verify.claimlist import claim_rows, paper_rows
    from ..verify.registry import registered

    rows = claim_rows() if paper is None else paper_rows(paper)
    impl = registered(paper)
    items = [{"id": r.id, "paper": r.paper, "ref": r.ref, "kind": r.kind, "expect": r.expect,
              "title": r.title, "implemented": r.id in impl, "module": impl[r.id].module if r.id in impl else None}
             for r in rows]
    if as_json:
        click.echo(json.dumps(items, indent=1, ensure_ascii=False))
        return
    for it in items:
        mark = "*" if it["implemented"] else " "
        click.echo(f"{mark} {it['id']:<44} {it['kind']:<13} {it['expect']:<22} {it['title']}")
    click.echo(f"{sum(i['implemented'] for i in items)} of {len(items)} claims implemented (*)")


@click.command("report")
@click.argument("claim_ids", nargs=-1)
@fidelity_option
@click.option("--paper", "papers", multiple=True,
              help="Only this registered paper (repeatable; see `tvbo-verify papers`).")
@click.option("--out", type=click.Path(path_type=Path), default=Path("reports/latest"), show_default=True,
              help="Folder for index.html and results.json.")
@click.option("--resume", is_flag=True,
              help="Keep the claims of OUT/results.json whose record passes its checks (digest, counterexample "
                   "file replayed, figures present); rerun the others.")
@click.option("--executor", type=click.Choice(["serial", "process", "dask"]), default="process", show_default=True,
              help="Where the claims run: in this process, one worker process per core, or on a Dask cluster "
                   "(the verdicts do not depend on it).")
@click.option("--scheduler", default=None,
              help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 (with --executor dask; without it a local "
                   "cluster of one worker per core is started).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Run seed (combined with each claim id), >= 0.")
@click.option("--no-reproductions", is_flag=True, help="Skip the reproductions of the papers' figures.")
@click.option("--cache", "cache_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Run cache folder (default $TVBO_VERIFY_CACHE or ~/.cache/tvbo_verify).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the run cache (nor reuse any result).")
@click.option("--fresh", is_flag=True,
              help="Recompute every claim and reproduction, even those an earlier report computed with the same "
                   "code, libraries, fidelity and seed (the run cache is still used).")
@click.option("--mutants", "mutants_file", type=click.Path(path_type=Path, dir_okay=False),
              default=Path("reports/mutants.json"), show_default=True,
              help="Results of `tvbo-verify mutants`: the mutants each claim kills (shown if measured on this code).")
@click.option("--claim-budget", "claim_budget_s", type=float, default=None,
              help="CPU seconds each claim may use before it is stopped and reported as an error [default: 900 at "
                   "quick fidelity, 14400 at full; 0: no bound; not enforced on a Dask cluster].")
@click.pass_context
def report(ctx: click.Context, claim_ids: tuple[str, ...], fidelity: str, papers: tuple[str, ...], out: Path,
           resume: bool, executor: str, scheduler: str | None, seed: int, no_reproductions: bool,
           cache_dir: Path | None, no_cache: bool, fresh: bool, mutants_file: Path,
           claim_budget_s: float | None) -> None:
    """Run the claim checks and the reproductions of the papers' figures; write OUT/index.html and
    OUT/results.json; exit 0 iff every verdict passes (the expectation or a recorded disagreement, and power
    shown for a confirmed or violated verdict)."""
    from ..report.mutation import check_mutants_file
    from ..report.runner import run_report, summary_lines
    from ..sweeps.cache import cache_from_options

    if scheduler is not None and executor != "dask":
        raise ValueError(f"--scheduler needs --executor dask, got --executor {executor}")
    refuse_together(("--fresh", fresh), ("--resume", resume),
                    why="--resume keeps the claims of OUT/results.json, --fresh recomputes every claim")
    refuse_together(("--no-cache", no_cache), ("--cache", cache_dir is not None),
                    why="--no-cache uses no run cache, --cache names one")
    check_mutants_file(mutants_file, required=ctx.get_parameter_source("mutants_file") is ParameterSource.COMMANDLINE)

    cache = cache_from_options(cache_dir, no_cache)  # handed to every claim check and reproduction
    outcome = run_report(ids=claim_ids, papers=papers, fidelity=fidelity, seed=seed, out=out, resume=resume,
                         executor=executor, scheduler=scheduler, progress=lambda s: click.echo(s, err=True),
                         reproduce=not no_reproductions, cache=cache, fresh=fresh,
                         mutants=mutants_file, claim_budget_s=claim_budget_s)
    for line in summary_lines(outcome):
        click.echo(line)
    sys.exit(0 if outcome.ok else 1)


@click.command("replay")
@click.argument("claim_id")
@click.argument("file", type=click.Path(path_type=Path))
def replay_cmd(claim_id: str, file: Path) -> None:
    """Re-evaluate the stored counterexample FILE of CLAIM_ID (a counterexample or a results.json).

    Exit 0 when the violation is reproduced, 1 when the instance no longer breaks the statement.
    """
    from ..verify.claimlist import claim_row
    from ..verify.engine import replay

    claim_row(claim_id)  # an unknown id is named before the file is read
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read {file}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ValueError(f"{file} is not valid JSON") from None
    if isinstance(doc, dict) and "claims" in doc and "schema" in doc:
        found = [c for c in doc["claims"] if isinstance(c, dict) and c.get("id") == claim_id]
        if not found or not found[0].get("counterexample"):
            raise ValueError(f"{file} holds no counterexample for {claim_id}")
        doc = found[0]["counterexample"]
    try:
        res = replay(claim_id, doc)
    except ValueError as exc:
        raise ValueError(f"{file}: {exc}") from None
    for line in counterexample_lines(doc):
        click.echo(line)
    click.echo(f"{claim_id}: {res.detail}")
    margins = [f"{name} margin {value:.6g}" for name, value in (("float64", res.margin), ("mpmath", res.hp_margin))
               if isinstance(value, (int, float))]
    if margins:
        click.echo("; ".join(margins))
    click.echo("violated (reproduced)" if res.violated else "not violated at this instance")
    sys.exit(0 if res.violated else 1)


def _value(v: object) -> str:
    return repr(v) if isinstance(v, float) else json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict)) \
        else str(v)


def counterexample_lines(ce: dict) -> list[str]:
    """Every free variable of a stored counterexample, one per line, floats with all their digits: an
    exact counterexample's statement and instance, or a rerun record's fidelity, seed and configuration."""
    if not isinstance(ce, dict):
        return []
    if "statement" in ce:
        lines = [f"statement: {ce['statement']}", "instance:"]
        lines += [f"  {k} = {_value(v)}" for k, v in (ce.get("instance") or {}).items()]
        lines.append(f"stored: measured {_value(ce.get('measured'))} {ce.get('sense', '')} "
                     f"stated {_value(ce.get('stated'))}")
        return lines
    if "rerun" in ce:
        rerun = ce.get("rerun") or {}
        lines = [f"rerun: fidelity {rerun.get('fidelity')}, seed {rerun.get('seed')}", "configuration:"]
        lines += [f"  {k} = {_value(v)}" for k, v in (ce.get("configuration") or {}).items()] or ["  (none)"]
        lines += ["statistic:"] + [f"  {k} = {_value(v)}" for k, v in (ce.get("statistic") or {}).items()]
        return lines
    return []
