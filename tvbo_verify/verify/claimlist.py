"""The claim lists of the registered papers and the expectation map.

Every paper of the registry (:mod:`tvbo_verify.papers`) brings its claim list, a CSV file with the
columns ``id, paper, ref, kind, expect, title, spec, disagreement`` (the five papers of this package share
``claims.csv`` shipped inside it). ``expect`` is the verdict the catalogs lead us to expect;
``disagreement`` records, with its evidence, where a measurement of this toolkit contradicts that
expectation (the check is never bent to match). A disagreement that starts with ``Measured <verdict>``
(confirmed, violated or inconclusive) records the verdict this toolkit measures instead: the suite and
the report accept exactly that verdict for the claim and show the disagreement; any other text (e.g.
``partial: ...``) is a remark on a verdict that matches. Where the fidelities measure differently, each
verdict names its fidelity: ``Measured inconclusive at quick fidelity, violated at full fidelity, not
holds: ...``.

A paper's claims are the rows of its file that name it; every claim id starts with ``<paper>:``, so the
claims of two papers never share an id. ``PAPERS`` (the registered paper ids) is read from the registry
whenever it is asked for.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..papers import CLAIM_COLUMNS, KINDS, REQUIRED_COLUMNS, Paper, get_paper, paper_ids, papers, resource_label
from .evidence import Verdict

__all__ = ["EXPECTED_VERDICT", "KINDS", "ClaimRow", "check_paper", "claim_row", "claim_rows", "matches",
           "paper_rows"]

#: The one place where expectations are mapped to the verdict that matches them.
EXPECTED_VERDICT: dict[str, Verdict] = {
    "holds": Verdict.CONFIRMED,
    "holds-corrected": Verdict.CONFIRMED,
    "fails-as-printed": Verdict.VIOLATED,
    "inconclusive-expected": Verdict.INCONCLUSIVE,
    # a deliberately false statement a package ships to show its checks can fail: reported as a control, never as
    # an erratum of the paper, and it must come out violated (no disagreement may be recorded for it)
    "control": Verdict.VIOLATED,
}


_VERDICT = r"(confirmed|violated|inconclusive)(?:\s+at\s+(quick|full)\s+fidelity)?"
_MEASURED = re.compile(rf"^\s*measured\s+{_VERDICT}(?:\s*,\s*{_VERDICT})?\b", re.IGNORECASE)


@dataclass(frozen=True)
class ClaimRow:
    id: str
    paper: str
    ref: str
    kind: str
    expect: str
    title: str
    spec: str = ""
    disagreement: str = ""

    @property
    def expected_verdict(self) -> Verdict:
        return EXPECTED_VERDICT[self.expect]

    @property
    def is_control(self) -> bool:
        """A deliberately false statement shipped to show the checks can fail (it must come out violated)."""
        return self.expect == "control"

    @property
    def recorded_verdicts(self) -> dict[str | None, Verdict]:
        """The verdicts a recorded disagreement says this toolkit measures, by fidelity (key None: at every
        fidelity); empty when there is no such record."""
        m = _MEASURED.match(self.disagreement)
        if not m:
            return {}
        g = m.groups()
        return {fid.lower() if fid else None: Verdict(v.lower()) for v, fid in (g[0:2], g[2:4]) if v}

    @property
    def recorded_verdict(self) -> Verdict | None:
        """The verdict a recorded disagreement says this toolkit measures at every fidelity (None: no such
        record, or one verdict per fidelity)."""
        return self.recorded_verdicts.get(None)

    def accepts(self, verdict: Verdict | str, fidelity: str | None = None) -> bool:
        """True when ``verdict`` matches the expectation or the disagreement recorded for ``fidelity`` (None:
        for any fidelity); an error never does."""
        if matches(verdict, self.expect):
            return True
        if self.is_control:
            return False
        recorded = self.recorded_verdicts
        if fidelity is None:
            return Verdict(verdict) in recorded.values()
        return Verdict(verdict) is recorded.get(fidelity, recorded.get(None))


def matches(verdict: Verdict | str, expect: str) -> bool:
    """True when ``verdict`` is the one ``expect`` calls for (an error never matches)."""
    if expect not in EXPECTED_VERDICT:
        raise ValueError(f"expect must be one of {', '.join(EXPECTED_VERDICT)}, got {expect!r}")
    return Verdict(verdict) is EXPECTED_VERDICT[expect]


def _parse(text: str, where: str) -> list[ClaimRow]:
    """The rows of one claim-list file; ``ValueError`` naming the file and the row for a missing column, an
    unknown kind or expectation, or an id that does not start with its paper's id."""
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in REQUIRED_COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise ValueError(f"claim list {where} lacks the column(s) {', '.join(missing)} "
                         f"(columns: {', '.join(CLAIM_COLUMNS)})")
    rows = []
    for raw in reader:
        row = ClaimRow(**{k: (raw.get(k) or "").strip() for k in ClaimRow.__dataclass_fields__})
        if row.kind not in KINDS:
            raise ValueError(f"claim list {where}, row {row.id!r}: kind must be one of {', '.join(KINDS)}, "
                             f"got {row.kind!r}")
        if row.expect not in EXPECTED_VERDICT:
            raise ValueError(f"claim list {where}, row {row.id!r}: expect must be one of "
                             f"{', '.join(EXPECTED_VERDICT)}, got {row.expect!r}")
        if row.is_control and row.disagreement:
            raise ValueError(f"claim list {where}, row {row.id!r}: a control must come out violated; it cannot "
                             f"record a disagreement, got {row.disagreement!r}")
        if not row.id.startswith(f"{row.paper}:") or len(row.id) == len(row.paper) + 1:
            raise ValueError(f"claim list {where}, row {row.id!r}: a claim id must be '<paper>:<name>' with its "
                             f"paper column {row.paper!r}")
        rows.append(row)
    return rows


@lru_cache(maxsize=None)
def _file_rows(paper: Paper) -> tuple[ClaimRow, ...]:
    return tuple(_parse(paper.claim_list_text(), resource_label(paper.claims)))


@lru_cache(maxsize=8)
def _index(registered: tuple[Paper, ...]) -> tuple[tuple[ClaimRow, ...], dict[str, ClaimRow]]:
    """Every claim of ``registered`` in registry order (each paper's rows in file order) and by id. A row
    naming a paper that is not registered with that file, or an id listed twice, is an error."""
    by_file: dict[str, set[str]] = {}
    for p in registered:
        by_file.setdefault(resource_label(p.claims), set()).add(p.id)
    rows: list[ClaimRow] = []
    for p in registered:
        file_rows = _file_rows(p)
        where = resource_label(p.claims)
        stray = sorted({r.paper for r in file_rows} - by_file[where])
        if stray:
            raise ValueError(f"claim list {where} names the paper(s) {', '.join(stray)}, which no registered "
                             f"paper declares with that file (registered: {', '.join(p.id for p in registered)})")
        rows.extend(r for r in file_rows if r.paper == p.id)
    by_id: dict[str, ClaimRow] = {}
    for r in rows:
        if r.id in by_id:
            raise ValueError(f"claim id {r.id!r} is listed twice in the claim lists")
        by_id[r.id] = r
    return tuple(rows), by_id


def claim_rows() -> tuple[ClaimRow, ...]:
    """Every claim of every registered paper: the papers in registry order, each one's rows in file order."""
    return _index(papers())[0]


def paper_rows(paper: str) -> tuple[ClaimRow, ...]:
    """The claims of one registered paper, in file order."""
    check_paper(paper)
    return tuple(r for r in claim_rows() if r.paper == paper)


def claim_row(claim_id: str) -> ClaimRow:
    """The row of ``claim_id`` in its paper's claim list; ``ValueError`` naming the id when it is unknown."""
    row = _index(papers())[1].get(claim_id)
    if row is None:
        raise ValueError(f"unknown claim id {claim_id!r} (see `tvbo-verify list`)")
    return row


def check_paper(paper: str) -> str:
    """``paper`` when it is a registered paper id, else ``ValueError`` naming the registered ids."""
    get_paper(paper)
    return paper


def __getattr__(name: str) -> Any:
    if name == "PAPERS":  # read from the registry each time: a paper registered later is listed too
        return paper_ids()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
