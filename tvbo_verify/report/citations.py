"""The citation of every paper the report shows, read from its record in the paper registry
(:mod:`tvbo_verify.papers`): authors, title, venue, year and arXiv id."""

from __future__ import annotations

from dataclasses import dataclass

from ..papers import get_paper


@dataclass(frozen=True)
class Citation:
    key: str
    algorithm: str
    authors: str
    title: str
    venue: str
    year: int
    arxiv: str = ""

    @property
    def where(self) -> str:
        """Venue, year and arXiv id: what follows the title."""
        return f"{self.venue}, {self.year}" + (f"; arXiv:{self.arxiv}" if self.arxiv else "")

    @property
    def text(self) -> str:
        return f"{self.authors}. {self.title}. {self.where}."


def citation(paper: str) -> Citation:
    """The citation of ``paper`` (a registered paper id; ``ValueError`` naming the registered ids otherwise)."""
    p = get_paper(paper)
    return Citation(p.id, p.topic or p.title, p.authors, p.title, p.venue, p.year, p.arxiv)
