"""The paper registry: records, discovery through the entry-point group, claim lists of registered papers."""

from __future__ import annotations

import importlib.metadata as md
import warnings
from pathlib import Path

import pytest

from tvbo_verify import papers
from tvbo_verify.papers import Paper, get_paper, paper_ids, register_paper, unregister_paper
from tvbo_verify.report.citations import citation
from tvbo_verify.report.formulas import formula
from tvbo_verify.verify.claimlist import check_paper, claim_row, claim_rows, paper_rows

from .demo import PACKAGE, forget_modules, install_demo, write_dist_info

#: this package's papers: the entry points of the group that name its own modules, by id
BUILTIN = sorted(ep.name for ep in md.entry_points(group=papers.ENTRY_POINT_GROUP)
                 if ep.value.startswith("tvbo_verify."))
HEADER = "id,paper,ref,kind,expect,title\n"


def record(claims: Path | str = "claims.csv", **fields) -> Paper:
    base = {"id": "note2024", "authors": "A. Author", "title": "A Note", "venue": "Nowhere", "year": 2024}
    return Paper(claims=claims, **{**base, **fields})


@pytest.mark.parametrize("field, value, message", [
    ("id", "Note", "paper id must be lower-case"),
    ("id", "a--b", "paper id must be lower-case"),
    ("year", 1850, "year must be an integer in \\[1900, 2100\\], got 1850"),
    ("year", "2024", "year must be an integer"),
    ("arxiv", "arXiv:0912.3995", "arxiv must be an arXiv identifier"),
    ("title", " ", "title must be a non-empty string"),
    ("claims", 42, "claims must be a path, a resource or a \\(package, file\\) pair"),
    ("modules", ("not a module",), "modules must be dotted module names"),
])
def test_a_paper_record_refuses_a_bad_field_naming_it(field, value, message):
    with pytest.raises(ValueError, match=message):
        record(**{field: value})


def test_the_citation_has_authors_title_venue_year_and_arxiv():
    p = record(authors=("N. One", "T. Two", "T. Three"), arxiv="0912.3995v4")
    assert p.citation == "N. One, T. Two and T. Three. A Note. Nowhere, 2024. arXiv:0912.3995v4."
    assert record().citation == "A. Author. A Note. Nowhere, 2024."
    cite = citation("tvgpucb")
    assert cite.year == 2016 and cite.arxiv == "1601.06650" and "2016; arXiv:1601.06650." in cite.text


def test_this_packages_papers_come_first_in_the_order_they_are_defined():
    assert list(paper_ids()[:len(BUILTIN)]) == BUILTIN
    assert all(papers.is_builtin(p) for p in BUILTIN)
    assert [r.paper for r in claim_rows()][:1] == BUILTIN[:1]
    assert sum(len(paper_rows(p)) for p in BUILTIN) == len([r for r in claim_rows() if r.paper in BUILTIN])
    assert formula("wsparq:lemma-3.8") is not None  # the shared statements file of the five papers


@pytest.fixture
def fresh(monkeypatch):
    """An empty registry that discovers again (the real one is restored after the test)."""
    monkeypatch.setattr(papers, "_STATE", papers._Registry())
    return monkeypatch


def _own_entry_points() -> list[md.EntryPoint]:
    return [ep for ep in md.entry_points(group=papers.ENTRY_POINT_GROUP) if ep.value.startswith("tvbo_verify.")]


def test_installed_plugins_are_discovered_after_this_packages_papers_by_id_and_a_broken_one_is_left_out(
        fresh, tmp_path, monkeypatch):
    root = install_demo(tmp_path)
    (root / "second_plugin.py").write_text(
        "from pathlib import Path\nfrom tvbo_verify.papers import Paper\n"
        "ALPHA = Paper(id='alpha1999', authors='A', title='T', venue='V', year=1999, claims=Path('x.csv'))\n")
    (root / "broken_plugin.py").write_text("raise ImportError('missing dependency')\n")
    write_dist_info(root, "second-plugin", "2.0", {papers.ENTRY_POINT_GROUP: {
        "alpha1999": "second_plugin:ALPHA", "broken": "broken_plugin:PAPER"}})
    monkeypatch.syspath_prepend(str(root))
    found = [ep for d in md.distributions(path=[str(root)]) for ep in d.entry_points
             if ep.group == papers.ENTRY_POINT_GROUP]
    fresh.setattr(papers, "_entry_points", lambda: _own_entry_points() + found)
    with pytest.warns(RuntimeWarning, match="paper plugin left out: entry point broken"):
        ids = paper_ids()
    assert list(ids) == BUILTIN + ["alpha1999", "demo2024"]
    assert papers.paper_origin("demo2024") == "demo-plugin 1.0" and not papers.is_builtin("demo2024")
    with pytest.raises(ValueError, match="got 'broken'; entry point broken = broken_plugin:PAPER .* ImportError"):
        get_paper("broken")
    for module in (PACKAGE, "second_plugin", "broken_plugin"):
        forget_modules(module)


def test_an_install_whose_metadata_lists_none_of_this_packages_papers_says_to_reinstall(fresh):
    fresh.setattr(papers, "_entry_points", lambda: [])
    with pytest.raises(RuntimeError, match=r"registers none of its papers .* reinstall the package"):
        paper_ids()


def test_an_install_whose_metadata_names_a_moved_record_says_which_and_to_reinstall(fresh):
    stale = md.EntryPoint("wsparq", "tvbo_verify.no_such_module:WSPARQ", papers.ENTRY_POINT_GROUP)
    fresh.setattr(papers, "_entry_points", lambda: [stale])
    with pytest.raises(RuntimeError, match=r"wsparq = tvbo_verify.no_such_module:WSPARQ, which cannot be loaded "
                                           r"\(ModuleNotFoundError.*reinstall the package"):
        paper_ids()


def test_registering_at_run_time_checks_the_id_and_only_run_time_papers_can_be_removed(tmp_path):
    p = register_paper(record(tmp_path / "claims.csv"))
    try:
        assert register_paper(record(tmp_path / "claims.csv")) is not None  # the same record again: nothing changes
        with pytest.raises(ValueError, match="paper name 'note2024' is taken by registered at run time"):
            register_paper(record(tmp_path / "other.csv"))
        assert papers.paper_origin(p.id) == papers.RUNTIME_ORIGIN
    finally:
        unregister_paper(p.id)
    assert "note2024" not in paper_ids()
    with pytest.raises(ValueError, match="only papers registered at run time can be removed"):
        unregister_paper("bolt")


@pytest.mark.parametrize("text, message", [
    ("id,paper,kind,expect,title\nnote2024:a,note2024,exact,holds,t\n", "lacks the column\\(s\\) ref"),
    (HEADER + "note2024:a,note2024,r,lemma,holds,t\n", "kind must be one of exact, probabilistic"),
    (HEADER + "note2024:a,note2024,r,exact,true,t\n", "expect must be one of holds"),
    (HEADER + "a,note2024,r,exact,holds,t\n", "a claim id must be '<paper>:<name>'"),
    (HEADER + "other:a,other,r,exact,holds,t\n", "names the paper\\(s\\) other, which no registered paper declares"),
    (HEADER + "note2024:a,note2024,r,exact,holds,t\nnote2024:a,note2024,r,exact,holds,t\n", "listed twice"),
])
def test_a_claim_list_with_a_mistake_is_refused_naming_the_file_and_the_row(tmp_path, text, message):
    (tmp_path / "claims.csv").write_text(text)
    p = register_paper(record(tmp_path / "claims.csv"))
    try:
        with pytest.raises(ValueError, match=message):
            claim_rows()
    finally:
        unregister_paper(p.id)


def test_a_registered_papers_claims_are_found_by_id_and_an_unknown_paper_is_named(tmp_path):
    (tmp_path / "claims.csv").write_text(HEADER + "note2024:a,note2024,Eq. 1,exact,holds,t\n")
    p = register_paper(record(tmp_path / "claims.csv"))
    try:
        assert claim_row("note2024:a").ref == "Eq. 1" and [r.id for r in paper_rows("note2024")] == ["note2024:a"]
        assert check_paper("note2024") == "note2024" and citation("note2024").text.startswith("A. Author. A Note.")
    finally:
        unregister_paper(p.id)
    with pytest.raises(ValueError, match="unknown claim id 'note2024:a'"):
        claim_row("note2024:a")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="paper must be one of bolt, .*got 'note2024'"):
            check_paper("note2024")


def test_a_plugin_whose_checks_cannot_be_imported_is_named_in_one_error(tmp_path):
    (tmp_path / "claims.csv").write_text(HEADER + "note2024:a,note2024,r,exact,holds,t\n")
    p = register_paper(record(tmp_path / "claims.csv", modules=("no_such_package_of_checks",)))
    try:
        with pytest.raises(ValueError, match="the modules of paper note2024 \\(registered at run time\\) cannot be "
                                             "imported: no_such_package_of_checks: ModuleNotFoundError"):
            papers.import_paper_modules("modules", ["note2024"])
    finally:
        unregister_paper(p.id)
