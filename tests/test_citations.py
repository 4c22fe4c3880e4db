"""Nothing the project cites lives outside the repository: every document a file names exists in it, and every
section cited (``READING.md §3.2``, ``READING.md §wsparq:eq-9``, ``docs/ARCHITECTURE.md §4``) is a heading
of that document.

A citation is a file name ending in ``.md`` followed by one or more section labels (``§3.2``, ``§3.2; §4``);
a heading's label is its first word without the ``§`` (``## §3.2 Title`` has label ``3.2``, a claim's section
``### wsparq:eq-9`` has label ``wsparq:eq-9``). A bare file name resolves in the citing file's own folder or
an ancestor of it, then at the repository root, in ``docs/`` and in the package (``READING.md`` cited from a
paper's folder is that paper's reading). Inside a reading document, a bare ``§label`` is a section of the
document itself. Every claim of a paper has its section in the paper's reading document, and the ``spec``
column of its claim list cites that document.
"""

from __future__ import annotations

import csv
import re
from functools import lru_cache
from pathlib import Path

import pytest

import tvbo_verify

PACKAGE = Path(tvbo_verify.__file__).resolve().parent
REPO = PACKAGE.parent
#: where citing files are looked for
SCANNED = ("tvbo_verify", "tests", "docs", "benchmarks", "examples", "checks")
SUFFIXES = {".py", ".md", ".csv", ".j2", ".toml", ".txt"}
#: a document name (a path ending in .md), then its section labels
CITATION = re.compile(r"(?P<file>(?<![\w/.-])[\w./-]*[A-Za-z][\w-]*\.md)\b"
                      r"(?P<sections>(?:[\s,;`*–-]*(?:and\s+)?§[0-9A-Za-z](?:[\w.:+-]*\w)?)*)")
#: a section label: starts and ends with a letter or digit (``§3.2``, ``§wsparq:eq-9``, ``§5.1–§5.3`` is two)
LABEL = re.compile(r"§([0-9A-Za-z](?:[\w.:+-]*\w)?)")
HEADING = re.compile(r"^#{1,6}\s+(\S+)", re.M)
READINGS = sorted(PACKAGE.glob("papers/*/READING.md"))


def scanned_files() -> list[Path]:
    """Every file that may cite a document (this test's own examples excepted)."""
    out = [REPO / "README.md"]
    for top in SCANNED:
        out += [p for p in (REPO / top).rglob("*") if p.is_file() and p.suffix in SUFFIXES
                and not any(part.startswith(".") or part in ("__pycache__", "build", "_build") for part in p.parts)]
    return sorted(p for p in out if p.resolve() != Path(__file__).resolve())


def clean(label: str) -> str:
    return label.rstrip(".:")


@lru_cache(maxsize=None)
def labels_of(document: Path) -> frozenset[str]:
    return frozenset(clean(m.group(1).lstrip("§")) for m in HEADING.finditer(document.read_text(encoding="utf-8")))


def resolve(name: str, citing: Path) -> Path | None:
    """The document ``name`` cited from ``citing`` (None when the repository has none)."""
    candidates = [citing.parent / name]
    candidates += [parent / name for parent in citing.parent.parents if REPO in (parent, *parent.parents)]
    candidates += [REPO / name, REPO / "docs" / name, PACKAGE / name]
    return next((c.resolve() for c in candidates if c.is_file()), None)


#: code in a Markdown document (fenced blocks and inline spans): examples, not citations
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def citations(path: Path) -> list[tuple[int, str, list[str]]]:
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".md":  # blank out code, keeping the line numbers
        text = CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    out = []
    for m in CITATION.finditer(text):
        before, after = text[m.start() - 1:m.start()], text[m.end():m.end() + 1]
        if before in ("'", '"') and after == before:  # a file name as data ("READING.md"), not a citation
            continue
        line = text.count("\n", 0, m.start()) + 1
        out.append((line, m.group("file"), [clean(x) for x in LABEL.findall(m.group("sections"))]))
    return out


def test_every_cited_document_and_section_is_in_the_repository():
    problems = []
    for path in scanned_files():
        for line, name, sections in citations(path):
            where = f"{path.relative_to(REPO)}:{line}"
            document = resolve(name, path)
            if document is None:
                problems.append(f"{where}: {name} is not in the repository")
                continue
            missing = [s for s in sections if s not in labels_of(document)]
            if missing:
                problems.append(f"{where}: {name} has no section {', '.join('§' + s for s in missing)}")
    assert not problems, "\n".join(problems)


#: how documents outside the repository were once cited: "catalog §8 A15", "(catalog I1)", "spec §2 [D3.1]",
#: "§7 C4", "§9 item 7" (a reading's own sections are cited by file name and label only)
FOREIGN = re.compile(r"\bcatalog(?:'s)?\s+(?:§|[A-Z]-?\d|item\b)|\bspec\s+§"
                     r"|§\d+(?:\.\d+)*\s+(?:[A-Z]-?[A-Z]?\d+\b|item\s+\d)")


def test_nothing_cites_the_sections_of_a_document_outside_the_repository():
    hits = [f"{path.relative_to(REPO)}:{n}: {line.strip()[:100]}" for path in scanned_files()
            for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
            if FOREIGN.search(line)]
    assert not hits, "\n".join(hits)


def test_nothing_cites_a_file_outside_the_repository():
    hits = [f"{p.relative_to(REPO)}" for p in scanned_files() if "../shared" in p.read_text(encoding="utf-8",
                                                                                             errors="replace")]
    assert not hits, hits


@pytest.mark.parametrize("reading", READINGS, ids=lambda p: p.parent.name)
def test_a_reading_document_cites_only_its_own_sections(reading):
    labels = labels_of(reading)
    text = CITATION.sub(" ", reading.read_text(encoding="utf-8"))  # another document's sections: checked above
    cited = {clean(x) for x in LABEL.findall(text)}
    assert not sorted(cited - labels), f"sections cited but absent: {sorted(cited - labels)}"


@pytest.mark.parametrize("reading", READINGS, ids=lambda p: p.parent.name)
def test_every_claim_has_its_section_and_its_row_cites_the_reading(reading):
    with open(reading.parent / "claims.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    labels = labels_of(reading)
    absent = [r["id"] for r in rows if r["id"] not in labels]
    assert not absent, f"claims without a section in {reading.name}: {absent}"
    uncited = [r["id"] for r in rows if not r["spec"].startswith("READING.md §")]
    assert not uncited, f"rows whose spec does not cite READING.md: {uncited}"


def test_the_scanner_sees_the_sections_of_an_outside_document():
    for text in ("(catalog I1)", "catalog §8 A15", "spec §2 [D3.1]", "see §7 C4", "§9 item 7", "§5.1 C-A1"):
        assert FOREIGN.search(text), text
    for text in ("the catalog of mutants", "READING.md §5.1", "Sec. 5.1 of the paper", "§4.1 synthetic function"):
        assert not FOREIGN.search(text), text


def test_the_citation_scanner_sees_a_missing_document_and_a_missing_section(tmp_path):
    doc = tmp_path / "NOTES.md"
    doc.write_text("# Notes\n\n## §1 One\n\n### demo:claim\n", encoding="utf-8")
    code = tmp_path / "code.py"
    code.write_text('"""See NOTES.md §1 and §demo:claim; NOTES.md §2; ELSEWHERE.md §1."""\n', encoding="utf-8")
    found = citations(code)
    assert [(name, sections) for _, name, sections in found] == [
        ("NOTES.md", ["1", "demo:claim"]), ("NOTES.md", ["2"]), ("ELSEWHERE.md", ["1"])]
    assert labels_of(doc) >= {"1", "demo:claim"} and "2" not in labels_of(doc)
    assert resolve("NOTES.md", code) == doc.resolve() and resolve("ELSEWHERE.md", code) is None
