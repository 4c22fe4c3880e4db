"""Render ``index.html`` from results.json data with jinja2: one page that opens at once and works offline.

The page leads with what the papers get wrong (:mod:`.failures`), shows the strength of the evidence of
every verdict (:mod:`.strength`) and one badge per property (:mod:`.badges`). Formulas are inline SVG
sharing their glyph outlines; figures are the SVG files beside the page (``figures/``,
``reproductions/``), loaded lazily with their box reserved; raw arrays are summarised (their values
stay in ``results.json``). CSS is inline and nothing is loaded from the network.
"""

from __future__ import annotations

import shlex
from collections import Counter
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from ..files import safe_name
from ..papers import RUNTIME_ORIGIN, is_builtin, paper_ids, paper_origin
from ..sweeps.reproduce import reproductions as registered_reproductions
from ..verify.claimlist import ClaimRow, claim_rows
from ..verify.registry import get
from .badges import property_tally, property_verdicts
from .citations import citation
from .coverage import CHECKED, coverage, coverage_text, established, scope_of
from .failures import failures, headline
from .figures import figure_view
from .formulas import FormulaRenderer, formula
from .ladders import experiment_ladders, rate_ladders
from .pages import INDEX, paper_page
from .panel import theory_vs_practice
from .reproductions import load_reproductions
from .results import write_atomic
from .strength import evidence_strength
from .tables import counterexample_view, fmt, margin_label, sort_instances, table, value_html
from .trust import counterexample_path

HIDDEN_STATS = ("instances", "traceback", "notes")


def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("tvbo_verify.report", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = fmt
    env.filters["value"] = value_html
    env.filters["coverage"] = coverage_text
    return env


# -- errata ---------------------------------------------------------------------------------------
ERRATA_GROUPS = (
    ("established", "Established errata",
     "Violated as printed, with a counterexample refereed at 50+ digits or a replayable run configuration."),
    ("unrefereed", "Violated, not yet established",
     "The check calls the printed statement violated but stored no refereed or replayable counterexample."),
    ("not-violated", "Checked, not violated",
     "The check measured the statement and did not find it violated (a disagreement with the expectation)."),
    ("unchecked", "Not yet checked", "No verdict yet: the check is not implemented, not run, or raised an error."),
)


def _status(claim_id: str, by_id: dict[str, dict]) -> str:
    if claim_id in by_id:
        return by_id[claim_id]["verdict"]
    return "not run" if get(claim_id) is not None else "not implemented"


def _errata_group(res: dict[str, Any] | None, out: Path) -> str:
    if established(res, out):
        return "established"
    if not res or res["verdict"] not in CHECKED:
        return "unchecked"
    return "unrefereed" if res["verdict"] == "violated" else "not-violated"


def errata(rows: list[ClaimRow], by_id: dict[str, dict], out: Path, math: "Formulas") -> list[dict]:
    """Statements expected false as printed, grouped by what the checks established."""
    all_ids = {r.id: r for r in claim_rows()}
    items: dict[str, list[dict]] = {key: [] for key, _, _ in ERRATA_GROUPS}
    for r in rows:
        if r.expect != "fails-as-printed":
            continue
        corr = all_ids.get(r.id + "+corrected")
        res = by_id.get(r.id)
        f = formula(r.id)
        items[_errata_group(res, out)].append({
            "printed": r, "printed_result": res, "printed_status": _status(r.id, by_id),
            "printed_strength": evidence_strength(res) if res else None,
            "printed_formula": math.render(f.printed, r.id) if f and f.printed else None,
            "corrected_formula": math.render(f.corrected, r.id + " (corrected)") if f and f.corrected else None,
            "citation": citation(r.paper).text,
            "corrected": corr, "corrected_result": by_id.get(corr.id) if corr else None,
            "corrected_status": _status(corr.id, by_id) if corr else "",
        })
    return [{"key": k, "title": t, "text": text, "rows": items[k]} for k, t, text in ERRATA_GROUPS]


class Formulas:
    """The formulas of one page (glyph outlines shared, see :class:`FormulaRenderer`); a formula mathtext
    cannot typeset is shown as its TeX source and listed as a problem (never dropped)."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.renderer = FormulaRenderer()

    def render(self, tex: str, label: str) -> Markup:
        try:
            return Markup(self.renderer.render(tex, label))
        except Exception as exc:
            self.problems.append(f"{label}: {type(exc).__name__}: {exc}")
            return Markup('<code class="tex">') + tex + Markup("</code>")

    def glyphs(self) -> Markup:
        return Markup(self.renderer.glyphs())


# -- one claim ------------------------------------------------------------------------------------
FIGURES = "figures"


def _figures(out: Path, res: dict[str, Any]) -> list[dict[str, Any]]:
    """The figures the record lists, each as a file beside the page or with the reason it cannot be shown."""
    shown = []
    for fig in res.get("figures") or []:
        title = str(fig.get("title", ""))
        if not fig.get("file"):
            shown.append({"title": title, "src": None, "problem": f"not drawn: {fig.get('problem', 'unknown')}"})
            continue
        shown.append(figure_view(out, FIGURES, str(fig["file"]), title))
    return shown


def _claim(r: ClaimRow, res: dict[str, Any] | None, out: Path, math: Formulas) -> dict[str, Any]:
    spec = get(r.id)
    f = formula(r.id)
    view: dict[str, Any] = {
        "row": r, "res": res, "anchor": safe_name(r.id), "page": paper_page(r.paper), "implemented": spec is not None,
        "method": spec.method if spec else "", "citation": citation(r.paper).text,
        "printed": math.render(f.printed, r.id) if f and f.printed else None,
        "corrected": math.render(f.corrected, r.id + " (corrected)") if f and f.corrected else None,
    }
    if not res:
        return view
    stats = res.get("stats") or {}
    instances, order = sort_instances(stats.get("instances") or [])
    ce = res.get("counterexample")
    ce_file = counterexample_path(out, r.id)
    props = property_verdicts(res)
    figures = _figures(out, res)
    if figures and isinstance(stats.get("finding"), str):  # a reproduced figure: its finding is its caption
        figures[-1]["caption"] = stats["finding"]
    view.update({
        "strength": evidence_strength(res), "properties": props, "tally": property_tally(props),
        "instances": table(instances) if instances else None, "order": order,
        "margin": margin_label(res, instances),
        "stats": value_html({k: v for k, v in stats.items() if k not in HIDDEN_STATS}),
        "notes": list(stats.get("notes") or []),
        "traceback": stats.get("traceback"),
        "figures": figures,
        "counterexample": counterexample_view(ce) if isinstance(ce, dict) else None,
        "replay": f"tvbo-verify replay {shlex.quote(r.id)} {shlex.quote(str(ce_file))}" if ce_file.is_file() else "",
        "replay_missing": isinstance(ce, dict) and not ce_file.is_file(),
    })
    return view


def _origin_note(paper: str) -> str:
    """Where a paper that this package does not ship comes from (empty for its own)."""
    if is_builtin(paper):
        return ""
    origin = paper_origin(paper)
    if origin == RUNTIME_ORIGIN:
        return "Paper registered at run time (tvbo_verify.papers.register_paper)."
    return f"Claims and checks contributed by the installed package {origin}."


def render_pages(doc: dict, rows: list[ClaimRow], out: Path) -> dict[str, str]:
    """Every page of the report by file name: ``index.html`` (what fails and why, coverage, each paper's
    claim table, errata, theory versus practice) and one page per paper with each claim in detail and
    the reproductions of its figures; the claims in ``rows`` and every claim with a result in ``doc``."""
    out = Path(out)
    by_id = {c["id"]: c for c in doc["claims"]}
    wanted = {r.id for r in rows} | set(by_id)
    shown = [r for r in claim_rows() if r.id in wanted]
    every = list(claim_rows())
    reproductions, repro_problems = load_reproductions(out)
    all_reproductions = registered_reproductions()
    env = _env()
    pages: dict[str, str] = {}
    papers = []
    for p in paper_ids():
        prow = [r for r in shown if r.paper == p]
        repro = [x for x in reproductions if x["paper"] == p]
        if not prow and not repro:
            continue
        math = Formulas()  # each page carries the glyph outlines of its own formulas
        claims = [_claim(r, by_id.get(r.id), out, math) for r in prow]
        ladders = {"rates": [{**row, "anchor": safe_name(row["claim"])}
                             for row in rate_ladders(c["res"] for c in claims if c["res"])],
                   "experiments": experiment_ladders(x for x in all_reproductions if x.paper == p)}
        view = {"key": p, "cite": citation(p), "origin": _origin_note(p), "ladders": ladders,
                "counts": Counter(_status(r.id, by_id) for r in prow),
                "claims": claims, "coverage": coverage([r for r in every if r.paper == p], by_id, out),
                "reproductions": repro,
                "mismatches": sum(1 for c in claims if c["res"] and not c["res"].get("accepted", c["res"]["matches"])),
                "disagreements": sum(1 for c in claims if c["res"] and not c["res"]["matches"]
                                     and c["res"].get("accepted"))}
        papers.append(view)
        pages[paper_page(p)] = env.get_template("paper.html.j2").render(
            run=doc["run"], p=view, repro_problems=[x for x in repro_problems if x.startswith(p)],
            mutation=doc.get("mutation"),
            formula_problems=math.problems, glyphs=math.glyphs())
    math = Formulas()
    shown_papers = {r.paper for r in shown}
    errata_groups = errata([r for r in every if r.paper in shown_papers], by_id, out, math)

    def statement(claim_id: str) -> Markup | None:
        f = formula(claim_id)
        return math.render(f.printed, claim_id) if f and f.printed else None

    in_shown_papers = [r for r in every if r.paper in shown_papers]
    cover = coverage(in_shown_papers, by_id, out, scope_of(in_shown_papers, every))
    fails = failures(shown, by_id, statement)
    pages[INDEX] = env.get_template("index.html.j2").render(
        run=doc["run"], papers=papers, total=Counter(c["verdict"] for c in doc["claims"]),
        mutation=doc.get("mutation"),
        n_claims=len(doc["claims"]), n_match=sum(c["matches"] for c in doc["claims"]), coverage=cover,
        n_accepted=sum(bool(c.get("accepted", c["matches"])) for c in doc["claims"]),
        headline=headline(fails, cover["established"]), failures=fails,
        errata=errata_groups, repro_problems=repro_problems,
        panel=theory_vs_practice(doc["claims"]) if any(is_builtin(p["key"]) for p in papers) else None,
        formula_problems=math.problems, glyphs=math.glyphs(),
    )
    return pages


def render_index(doc: dict, rows: list[ClaimRow], out: Path) -> str:
    """``index.html`` of :func:`render_pages`."""
    return render_pages(doc, rows, out)[INDEX]


def write_pages(doc: dict, rows: list[ClaimRow], out: Path) -> list[str]:
    """Write every page of :func:`render_pages` into ``out`` atomically (the paper pages first, ``index.html``
    last) and remove the page of a paper this report no longer shows; the file names written."""
    out = Path(out)
    pages = render_pages(doc, rows, out)
    for name in sorted(pages, key=lambda n: n == INDEX):
        write_atomic(out / name, pages[name])
    for p in paper_ids():
        stale = out / paper_page(p)
        if paper_page(p) not in pages and stale.is_file():
            stale.unlink()
    return list(pages)
