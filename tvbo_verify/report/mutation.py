"""Which mutants each claim kills, for the report: read from the results of ``tvbo-verify mutants``.

The mutation harness (:mod:`tvbo_verify.mutants`) writes its kill matrix to ``reports/mutants.json``
(``tvbo-verify mutants --out``). A report shows, for every claim the harness tried, the mutants whose bug
made that claim's verdict stop being accepted, and on the index the score of the run. A matrix measured on
other code says nothing about this code, so it is shown only when its ``code_digest`` equals the digest
of the running source (:func:`tvbo_verify.mutants.results.code_digest`); otherwise the report says
that it is stale and shows no kills.

Examples
--------
>>> from pathlib import Path
>>> mutation_view(Path("no/such/mutants.json")) is None
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: where ``tvbo-verify mutants`` writes its results by default
DEFAULT_MUTANTS = Path("reports/mutants.json")


def check_mutants_file(path: Path | None, *, required: bool = False) -> None:
    """Refuse, before a report starts, a mutation results file that exists but is not one (``ValueError``, one line
    naming the file); a missing file is refused only when ``required`` (named on the command line).

    >>> check_mutants_file(Path("no/such/mutants.json"))
    """
    if path is None:
        return
    path = Path(path)
    if not path.exists():
        if required:
            raise ValueError(f"--mutants file {path} does not exist (write it with `tvbo-verify mutants --out {path}`)")
        return
    try:
        doc = json.loads(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise ValueError(f"--mutants file {path} cannot be read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError(f"--mutants file {path} is not JSON; give the results file of `tvbo-verify mutants`") \
            from None
    if not isinstance(doc, dict) or doc.get("kind") != "mutants" or not isinstance(doc.get("claims"), dict):
        raise ValueError(f"--mutants file {path} is not a results file of `tvbo-verify mutants` (no kind 'mutants' "
                         "with claims)")


def mutation_view(path: Path | None) -> dict[str, Any] | None:
    """What the report shows of the mutation results in ``path`` (None when there are none):

    ``file``, ``current`` (measured on this code), ``git``, ``finished``, ``fidelity``, ``seed``, the
    ``score`` record and, only when ``current``, per claim id ``kills`` (mutants killed by a verdict that
    stopped being accepted, then those killed by an error only) and ``tried_by`` (how many mutants ran it).
    """
    if path is None:
        return None
    from ..mutants.results import code_digest, load

    doc = load(Path(path))
    if not doc or doc.get("kind") != "mutants" or not isinstance(doc.get("claims"), dict):
        return None
    run = doc.get("run", {})
    current = run.get("code_digest") == code_digest()
    claims = doc["claims"] if current else {}
    return {"file": str(path), "current": current, "git": run.get("git"), "finished": run.get("finished"),
            "fidelity": run.get("fidelity"), "seed": run.get("seed"), "score": doc.get("score", {}),
            "kills": {cid: [*c.get("kills", []), *(f"{m} (error)" for m in c.get("error_kills", []))]
                      for cid, c in claims.items()},
            "tried_by": {cid: int(c.get("tried_by", 0)) for cid, c in claims.items()}}
