"""The paper registry: every paper whose statements the toolkit checks is one registered :class:`Paper`.

A paper is a record: its id, its full citation (authors, title, venue, year, arXiv id), its claim
list (a CSV file with the columns of the project's own ``claims.csv``), the modules holding its
``@claim`` checks, and optionally a file of formulas (the printed statements, for the report) and
modules registering reproductions of its figures. The papers of this package (one folder each,
``tvbo_verify/papers/<id>/``) and the papers of every installed package register through one entry-point
group, ``tvbo_verify.papers``, in the same way::

    # pyproject.toml of a package that contributes a paper
    [project.entry-points."tvbo_verify.papers"]
    srinivas2010 = "classic_controls.paper:SRINIVAS2010"

Every list of papers in the toolkit — the claim list, the report's sections and citations, the
formulas, the command line's ``--paper`` and the pytest markers — is read from this registry
(:func:`papers`); none keeps a list of its own. :func:`register_paper` adds a paper at run time (a
notebook, a test) through the same checks.

This module is light on purpose (no numpy, nothing of the claim engine): the pytest plugin reads the
paper ids on every start-up, and spawned worker processes look up a plugin's policies through
:func:`import_paper_modules`. The entry point of a paper should name a module that is just as light
(the record only; the checks live in the modules the record names and are imported when needed).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
import threading
import warnings
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any, Iterable, Sequence, Union

from ..registry import Registry

__all__ = [
    "ENTRY_POINT_GROUP", "KINDS", "CLAIM_COLUMNS", "REQUIRED_COLUMNS", "Resource", "read_resource", "resource_label",
    "Paper", "papers", "paper_ids", "get_paper", "paper_origin", "is_builtin", "load_problems", "register_paper",
    "unregister_paper", "import_paper_modules", "paper_module_files", "BUILTIN_ORIGIN", "RUNTIME_ORIGIN",
]

#: the entry-point group through which installed packages contribute papers
ENTRY_POINT_GROUP = "tvbo_verify.papers"
#: the package whose entry points are this package's own papers (a failure to load one is an error, not a warning)
OWN_PACKAGE = "tvbo_verify."
#: the kinds of claim a claim list may name (one evidence builder each)
KINDS = ("exact", "probabilistic", "rate", "ingredient", "algorithm", "experiment")
#: the columns of a claim list; ``spec`` and ``disagreement`` may be left out or empty
CLAIM_COLUMNS = ("id", "paper", "ref", "kind", "expect", "title", "spec", "disagreement")
REQUIRED_COLUMNS = CLAIM_COLUMNS[:6]

_ID = re.compile(r"^[a-z][a-z0-9_]*(?:-[a-z0-9_]+)*$")
_MODULE = re.compile(r"^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*$")
_ARXIV = re.compile(r"^(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$")

#: where a file of a paper is: a path, an ``importlib.resources`` object (anything with ``read_text``)
#: or a ``(package, file name)`` pair read with :mod:`importlib.resources` when first needed
Resource = Union[str, "os.PathLike[str]", tuple[str, str], Any]


def read_resource(resource: Resource, what: str) -> str:
    """The text of ``resource`` (see :data:`Resource`); ``ValueError`` naming ``what`` when it cannot be read."""
    try:
        if isinstance(resource, tuple):
            from importlib import resources

            package, name = resource
            return resources.files(package).joinpath(name).read_text(encoding="utf-8")
        if isinstance(resource, (str, os.PathLike)):
            return Path(resource).read_text(encoding="utf-8")
        return resource.read_text(encoding="utf-8")
    except (OSError, ImportError, UnicodeDecodeError) as exc:
        raise ValueError(f"{what} {resource_label(resource)} cannot be read: {type(exc).__name__}: {exc}") from None


def resource_label(resource: Resource) -> str:
    """How a resource is named in messages (``package/file`` or the path)."""
    if isinstance(resource, tuple):
        return "/".join(resource)
    return str(resource)


def _is_resource(value: Any) -> bool:
    if isinstance(value, tuple):
        return len(value) == 2 and all(isinstance(v, str) and v for v in value)
    return isinstance(value, (str, os.PathLike)) or callable(getattr(value, "read_text", None))


def _module_names(name: str, value: Any) -> tuple[str, ...]:
    items = (value,) if isinstance(value, str) else tuple(value)
    bad = [m for m in items if not isinstance(m, str) or not _MODULE.match(m)]
    if bad:
        raise ValueError(f"{name} must be dotted module names, got {bad!r}")
    return items


@dataclass(frozen=True)
class Paper:
    """One paper whose statements the toolkit checks.

    Parameters
    ----------
    id
        Short lower-case id (letters, digits, ``_``, single ``-``), e.g. ``"srinivas2010"``. Every claim
        id of the paper starts with ``<id>:``; the id names the paper's report page, its pytest marker
        and its ``--paper`` value.
    authors
        All authors, as printed (``"A, B and C"``) or as a sequence of names.
    title, venue
        The title and where it appeared (journal, proceedings with volume and pages, or a preprint).
    year
        Year of the version checked.
    claims
        The claim list: a CSV file with the columns ``id, paper, ref, kind, expect, title`` (and
        optionally ``spec, disagreement``) of the project's ``claims.csv``; a path, an
        ``importlib.resources`` object or a ``(package, file name)`` pair.
    modules
        Modules (or packages, walked) whose import registers the paper's ``@claim`` checks.
    arxiv
        arXiv identifier (``"0912.3995"``), empty when there is none.
    topic
        One line on what the paper is about, shown after its id in the report.
    formulas
        Optional CSV ``id, printed, corrected`` of the statements as mathtext formulas (report).
    reproductions
        Optional modules whose import registers reproductions of the paper's figures.

    Examples
    --------
    >>> from pathlib import Path
    >>> p = Paper(id="demo2024", authors=("A. Author", "B. Author"), title="A Title", venue="A Venue",
    ...           year=2024, claims=Path("claims.csv"), modules=("demo.claims",), arxiv="2401.00001")
    >>> p.citation
    'A. Author and B. Author. A Title. A Venue, 2024. arXiv:2401.00001.'
    """

    id: str
    authors: str | Sequence[str]
    title: str
    venue: str
    year: int
    claims: Resource
    modules: Sequence[str] = ()
    arxiv: str = ""
    topic: str = ""
    formulas: Resource | None = None
    reproductions: Sequence[str] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not _ID.match(self.id):
            raise ValueError(f"paper id must be lower-case letters, digits, '_' and single '-' starting with a "
                             f"letter, got {self.id!r}")
        authors = self.authors
        if not isinstance(authors, str):
            names = [str(a).strip() for a in authors]
            authors = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""
            object.__setattr__(self, "authors", authors)
        for name in ("authors", "title", "venue"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"paper {self.id}: {name} must be a non-empty string, got {value!r}")
        if isinstance(self.year, bool) or not isinstance(self.year, int) or not 1900 <= self.year <= 2100:
            raise ValueError(f"paper {self.id}: year must be an integer in [1900, 2100], got {self.year!r}")
        if not isinstance(self.arxiv, str) or (self.arxiv and not _ARXIV.match(self.arxiv)):
            raise ValueError(f"paper {self.id}: arxiv must be an arXiv identifier like '0912.3995' or empty, "
                             f"got {self.arxiv!r}")
        if not _is_resource(self.claims):
            raise ValueError(f"paper {self.id}: claims must be a path, a resource or a (package, file) pair, "
                             f"got {self.claims!r}")
        if self.formulas is not None and not _is_resource(self.formulas):
            raise ValueError(f"paper {self.id}: formulas must be a path, a resource or a (package, file) pair, "
                             f"got {self.formulas!r}")
        object.__setattr__(self, "modules", _module_names(f"paper {self.id}: modules", self.modules))
        object.__setattr__(self, "reproductions", _module_names(f"paper {self.id}: reproductions",
                                                                self.reproductions))

    @property
    def citation(self) -> str:
        """The full citation: authors, title, venue, year and arXiv id."""
        text = f"{self.authors}. {self.title}. {self.venue}, {self.year}."
        return f"{text} arXiv:{self.arxiv}." if self.arxiv else text

    def claim_list_text(self) -> str:
        """The text of the paper's claim list."""
        return read_resource(self.claims, f"claim list of paper {self.id}")

    def formulas_text(self) -> str | None:
        """The text of the paper's formulas file (None when it has none)."""
        return None if self.formulas is None else read_resource(self.formulas, f"formulas of paper {self.id}")


# -- the registry -----------------------------------------------------------------------------------
def _paper_registry() -> Registry:
    return Registry("paper", describe=lambda p: _STATE.origins.get(p.id, "?"))


@dataclass
class _Registry:
    papers: Registry = field(default_factory=_paper_registry)
    origins: dict[str, str] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)
    discovered: bool = False


_STATE = _Registry()
_LOCK = threading.RLock()
BUILTIN_ORIGIN = "tvbo-verify"
RUNTIME_ORIGIN = "registered at run time"


def _entry_points() -> list[EntryPoint]:
    return list(entry_points(group=ENTRY_POINT_GROUP))


def _origin(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return f"{dist.name} {dist.version}" if dist is not None else ep.value


def _records(obj: Any, where: str) -> list[Paper]:
    """The papers an entry point provides: a :class:`Paper`, a sequence of them or a function returning either."""
    if callable(obj) and not isinstance(obj, Paper):
        obj = obj()
    items = [obj] if isinstance(obj, Paper) else list(obj) if isinstance(obj, (list, tuple)) else [obj]
    bad = [type(x).__name__ for x in items if not isinstance(x, Paper)]
    if bad or not items:
        raise ValueError(f"{where} must provide a Paper (or a sequence of them), got {', '.join(bad) or 'nothing'}")
    return items


def _add(paper: Paper, origin: str) -> None:
    _STATE.papers.register(paper.id, paper)
    _STATE.origins.setdefault(paper.id, origin)


def _discover() -> None:
    """Load every entry point of :data:`ENTRY_POINT_GROUP` once: this package's papers first, then those of
    other packages, each group by paper id. A plugin that fails to load is left out with a warning, and its
    problem is quoted when its paper is asked for; one of this package's own is an installation error."""
    builtin: list[tuple[Paper, str]] = []
    plugins: list[tuple[Paper, str]] = []
    for ep in _entry_points():
        own = ep.value.split(":")[0].startswith(OWN_PACKAGE)
        try:
            found = _records(ep.load(), f"entry point {ep.name} = {ep.value}")
        except Exception as exc:  # a broken plugin must not take the toolkit down with it
            if own:
                raise RuntimeError(f"the installed metadata of tvbo-verify names the paper entry point {ep.name} = "
                                   f"{ep.value}, which cannot be loaded ({type(exc).__name__}: {exc}); the install "
                                   "is out of date: reinstall the package (pip install -e .)") from exc
            problem = f"entry point {ep.name} = {ep.value} ({_origin(ep)}) failed: {type(exc).__name__}: {exc}"
            _STATE.problems[ep.name] = problem
            warnings.warn(f"tvbo-verify: paper plugin left out: {problem}", RuntimeWarning, stacklevel=3)
            continue
        (builtin if own else plugins).extend((p, BUILTIN_ORIGIN if own else _origin(ep)) for p in found)
    if not builtin:
        raise RuntimeError("the installed metadata of tvbo-verify registers none of its papers (entry-point group "
                           f"{ENTRY_POINT_GROUP}); the install is out of date: reinstall the package "
                           "(pip install -e .)")
    for paper, origin in sorted(builtin, key=lambda item: item[0].id) + sorted(plugins, key=lambda item: item[0].id):
        _add(paper, origin)


def _ensure() -> None:
    with _LOCK:
        if not _STATE.discovered:
            _STATE.discovered = True
            try:
                _discover()
            except BaseException:
                _STATE.discovered = False
                _STATE.papers.clear()
                _STATE.origins.clear()
                raise


def papers() -> tuple[Paper, ...]:
    """Every registered paper: this package's own by id, then installed plugins by id, then those added by
    :func:`register_paper`, in that order."""
    _ensure()
    return tuple(_STATE.papers.values())


def paper_ids() -> tuple[str, ...]:
    """The ids of :func:`papers`, in the same order."""
    return tuple(p.id for p in papers())


def get_paper(paper_id: str) -> Paper:
    """The registered paper ``paper_id``; ``ValueError`` naming the registered ids (and, for a plugin that
    failed to load, its problem) otherwise."""
    _ensure()
    found = _STATE.papers.get(paper_id)
    if found is not None:
        return found
    problem = _STATE.problems.get(paper_id)
    hint = f"; {problem}" if problem else ""
    raise ValueError(_STATE.papers.unknown(paper_id) + hint)


def paper_origin(paper_id: str) -> str:
    """Where a paper comes from: ``"tvbo-verify"`` for this package's own, the distribution (name and
    version) of a plugin, or :data:`RUNTIME_ORIGIN`."""
    get_paper(paper_id)
    return _STATE.origins[paper_id]


def is_builtin(paper_id: str) -> bool:
    """True for the papers this package ships."""
    return paper_origin(paper_id) == BUILTIN_ORIGIN


def load_problems() -> dict[str, str]:
    """Entry points that failed to load, by entry-point name, with what went wrong."""
    _ensure()
    return dict(_STATE.problems)


def register_paper(paper: Paper) -> Paper:
    """Register ``paper`` at run time (the entry-point group ``tvbo_verify.papers`` is the way for an installed
    package).

    Registering the same record again does nothing; another record under a registered id is refused.

    Parameters
    ----------
    paper : Paper
        The paper's record.

    Returns
    -------
    Paper
        ``paper`` itself, registered.

    Raises
    ------
    ValueError
        When another record is registered under the same id.

    Examples
    --------
    >>> from tvbo_verify.papers import paper_ids, unregister_paper
    >>> demo = Paper(id="demo2024", authors="A. Author", title="A Title", venue="A Venue", year=2024,
    ...              claims="claims.csv")
    >>> register_paper(demo) is demo and "demo2024" in paper_ids()
    True
    >>> unregister_paper("demo2024")
    """
    if not isinstance(paper, Paper):
        raise ValueError(f"paper must be a Paper, got {type(paper).__name__}")
    _ensure()
    with _LOCK:
        _add(paper, RUNTIME_ORIGIN)
    return paper


def unregister_paper(paper_id: str) -> None:
    """Remove a paper added by :func:`register_paper` (installed papers cannot be removed)."""
    if paper_origin(paper_id) != RUNTIME_ORIGIN:
        raise ValueError(f"paper {paper_id!r} comes from {paper_origin(paper_id)}; only papers registered at run "
                         "time can be removed")
    with _LOCK:
        del _STATE.papers[paper_id]
        del _STATE.origins[paper_id]


# -- the modules a paper names ----------------------------------------------------------------------
def _walk(name: str) -> Iterable[str]:
    module = importlib.import_module(name)
    yield name
    path = getattr(module, "__path__", None)
    if path is not None:
        for info in pkgutil.walk_packages(path, prefix=f"{name}."):
            yield info.name


_IMPORTED: set[tuple[str, str]] = set()


def import_paper_modules(what: str = "modules", only: Iterable[str] | None = None) -> None:
    """Import the claim modules (``what="modules"``) or the reproduction modules (``"reproductions"``) of
    every registered paper (or of the paper ids ``only``), packages walked; each paper's once per process.

    Importing a claim module registers its checks, statements and any policy or environment it registers.
    A plugin module that cannot be imported is a ``ValueError`` naming the paper and the module.
    """
    if what not in ("modules", "reproductions"):
        raise ValueError(f"what must be 'modules' or 'reproductions', got {what!r}")
    chosen = papers() if only is None else tuple(get_paper(p) for p in only)
    for paper in chosen:
        key = (paper.id, what)
        if key in _IMPORTED:
            continue
        for name in getattr(paper, what):
            try:
                for module in _walk(name):
                    importlib.import_module(module)
            except ImportError as exc:
                if is_builtin(paper.id):
                    raise
                raise ValueError(f"the {what} of paper {paper.id} ({paper_origin(paper.id)}) cannot be imported: "
                                 f"{name}: {type(exc).__name__}: {exc}") from exc
        _IMPORTED.add(key)


def paper_module_files(paper_id: str, what: str = "modules") -> dict[str, Path]:
    """The source file of every claim module (``what="modules"``) or reproduction module of a registered
    paper, by module name, packages walked (the modules are imported). A tool that follows imports from the
    claims to the code they use (the mutation harness) starts from these for a paper of another package."""
    import_paper_modules(what, [paper_id])
    out: dict[str, Path] = {}
    for name in getattr(get_paper(paper_id), what):
        for module in _walk(name):
            origin = getattr(importlib.import_module(module), "__file__", None)
            if origin:
                out[module] = Path(origin)
    return out
