"""The pages of a report folder: ``index.html`` (what fails and why, coverage, each paper's claim table,
errata, theory versus practice) and one page per paper (its claims in detail, the reproductions of its
figures), linked to each other by relative addresses so that the folder works offline."""

from __future__ import annotations

INDEX = "index.html"


def paper_page(paper: str) -> str:
    """The file name of a paper's page."""
    return f"{paper}.html"
