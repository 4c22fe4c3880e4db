"""The project's claim list (``claims.csv`` shipped inside the package) and the expectation map.

Columns: ``id, paper, ref, kind, expect, title, spec, disagreement``. ``expect`` is the verdict the
catalogs lead us to expect; ``disagreement`` records, with its evidence, where a measurement of this
toolkit contradicts that expectation (the check is never bent to match). A disagreement that
starts with ``Measured <verdict>`` (confirmed, violated or inconclusive) records the verdict this
toolkit measures instead: the suite and the report accept exactly that verdict for the claim and
show the disagreement; any other text (e.g. ``partial: ...``) is a remark on a verdict that matches.
Where the fidelities measure differently, each verdict names its fidelity:
``Measured inconclusive at quick fidelity, violated at full fidelity, not holds: ...``.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .evidence import Verdict

PAPERS = ("wsparq", "sparq", "tvgpucb", "bolt", "wgpucb")
KINDS = ("exact", "probabilistic", "rate", "ingredient", "algorithm", "experiment")

#: The one place where expectations are mapped to the verdict that matches them.
EXPECTED_VERDICT: dict[str, Verdict] = {
    "holds": Verdict.CONFIRMED,
    "holds-corrected": Verdict.CONFIRMED,
    "fails-as-printed": Verdict.VIOLATED,
    "inconclusive-expected": Verdict.INCONCLUSIVE,
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
        recorded = self.recorded_verdicts
        if fidelity is None:
            return Verdict(verdict) in recorded.values()
        return Verdict(verdict) is recorded.get(fidelity, recorded.get(None))


def matches(verdict: Verdict | str, expect: str) -> bool:
    """True when ``verdict`` is the one ``expect`` calls for (an error never matches)."""
    if expect not in EXPECTED_VERDICT:
        raise ValueError(f"expect must be one of {', '.join(EXPECTED_VERDICT)}, got {expect!r}")
    return Verdict(verdict) is EXPECTED_VERDICT[expect]


@lru_cache(maxsize=1)
def claim_rows() -> tuple[ClaimRow, ...]:
    """Every row of the project's claim list, in file order."""
    text = resources.files(__package__).joinpath("claims.csv").read_text(encoding="utf-8")
    rows = []
    for raw in csv.DictReader(text.splitlines()):
        row = ClaimRow(**{k: (raw.get(k) or "").strip() for k in ClaimRow.__dataclass_fields__})
        if row.expect not in EXPECTED_VERDICT or row.kind not in KINDS or row.paper not in PAPERS:
            raise ValueError(f"claims.csv row {row.id!r} has an invalid paper, kind or expect")
        rows.append(row)
    return tuple(rows)


def claim_row(claim_id: str) -> ClaimRow:
    """The row of ``claim_id``; ``ValueError`` naming the id when it is unknown."""
    for row in claim_rows():
        if row.id == claim_id:
            return row
    raise ValueError(f"unknown claim id {claim_id!r} (see `tvbo-verify list`)")


def check_paper(paper: str) -> str:
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    return paper
