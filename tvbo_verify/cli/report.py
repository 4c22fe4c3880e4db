"""``tvbo-verify list``, ``report`` and ``replay``: the claim suite from the command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of claims.")
@click.option("--paper", default=None, help="Only the claims of this paper.")
def list_claims(as_json: bool, paper: str | None) -> None:
    """Every claim with id, paper, reference, kind, expectation and whether it is implemented."""
    from ..verify.claimlist import check_paper, claim_rows
    from ..verify.registry import registered

    if paper is not None:
        check_paper(paper)
    impl = registered()
    items = [{"id": r.id, "paper": r.paper, "ref": r.ref, "kind": r.kind, "expect": r.expect,
              "title": r.title, "implemented": r.id in impl, "module": impl[r.id].module if r.id in impl else None}
             for r in claim_rows() if paper is None or r.paper == paper]
    if as_json:
        click.echo(json.dumps(items, indent=1, ensure_ascii=False))
        return
    for it in items:
        mark = "*" if it["implemented"] else " "
        click.echo(f"{mark} {it['id']:<44} {it['kind']:<13} {it['expect']:<22} {it['title']}")
    click.echo(f"{sum(i['implemented'] for i in items)} of {len(items)} claims implemented (*)")


@click.command("report")
@click.argument("claim_ids", nargs=-1)
@click.option("--fidelity", type=click.Choice(["quick", "full"]), default="quick", show_default=True)
@click.option("--paper", "papers", multiple=True, help="Only this paper (repeatable).")
@click.option("--out", type=click.Path(path_type=Path), default=Path("reports/latest"), show_default=True,
              help="Folder for index.html and results.json.")
@click.option("--resume", is_flag=True, help="Keep the claims already in OUT/results.json.")
@click.option("--executor", type=click.Choice(["serial", "process", "dask"]), default="serial", show_default=True,
              help="Where repetitions run.")
@click.option("--scheduler", default=None, help="Dask scheduler address (with --executor dask).")
@click.option("--seed", type=int, default=0, show_default=True, help="Run seed (combined with each claim id).")
def report(claim_ids: tuple[str, ...], fidelity: str, papers: tuple[str, ...], out: Path, resume: bool,
           executor: str, scheduler: str | None, seed: int) -> None:
    """Run the claim checks; write OUT/index.html and OUT/results.json; exit 0 iff all verdicts match."""
    from ..report.runner import run_report, summary_lines

    outcome = run_report(ids=claim_ids, papers=papers, fidelity=fidelity, seed=seed, out=out, resume=resume,
                         executor=executor, scheduler=scheduler, progress=lambda s: click.echo(s, err=True))
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
    from ..verify.engine import replay

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
    res = replay(claim_id, doc)
    click.echo(f"{claim_id}: {res.detail}")
    click.echo(f"float64 margin {res.margin:.6g}" + (f"; mpmath margin {res.hp_margin:.6g}" if res.hp_margin is not None else ""))
    click.echo("violated (reproduced)" if res.violated else "not violated at this instance")
    sys.exit(0 if res.violated else 1)
