"""The printed statement of every claim as a formula, rendered offline to inline SVG.

Every registered paper may name a formulas file (:attr:`tvbo_verify.papers.Paper.formulas`; this
package's five share ``statements.csv``) with one row per claim id: ``printed`` is the statement as the
paper prints it (for a ``+corrected`` row: the printed statement its correction replaces) and
``corrected`` the corrected statement (errata and their ``+corrected`` twins; empty elsewhere).
Formulas are matplotlib mathtext (a TeX subset), rendered with glyphs as paths so that the page
needs no font and no network; ``\\`` separates the lines of a formula too long for one.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from functools import lru_cache

from ..papers import papers, resource_label

_HEAD = re.compile(r"^.*?(?=<svg)", re.S)
_META = re.compile(r"<metadata>.*?</metadata>", re.S)
_BACKGROUND = re.compile(r'<g id="patch_1">.*?</g>', re.S)
_GROUP_ID = re.compile(r'<g id="[^"]*"')
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_STYLE = re.compile(r"<defs>\s*<style.*?</style>\s*</defs>", re.S)
_SPACE = re.compile(r">\s+<")
_TRANSLATE = re.compile(r"translate\(([-\d. ]+)\)")
_GLYPH = re.compile(r'<path id="([^"]+)"(?: d="[^"]*")?(?: transform="[^"]*")?/>')
_GLYPH_DEFS = re.compile(r'<defs>\s*(?:<path id="[^"]+"(?: d="[^"]*")?(?: transform="[^"]*")?/>\s*)+</defs>')

FONT_SIZE = 15.0


@dataclass(frozen=True)
class Formula:
    id: str
    printed: str
    corrected: str = ""


@lru_cache(maxsize=None)
def _file_formulas(label: str, text: str) -> dict[str, Formula]:
    out = {}
    for raw in csv.DictReader(io.StringIO(text)):
        row = Formula(**{k: (raw.get(k) or "").strip() for k in Formula.__dataclass_fields__})
        if row.id in out:
            raise ValueError(f"formulas file {label} lists {row.id!r} twice")
        out[row.id] = row
    return out


def formulas() -> dict[str, Formula]:
    """Every formula of the registered papers by claim id (each formulas file read once, even when several
    papers share it)."""
    return _all_formulas(papers())


@lru_cache(maxsize=8)
def _all_formulas(registered: tuple) -> dict[str, Formula]:
    out: dict[str, Formula] = {}
    seen: set[str] = set()
    for p in registered:
        label = "" if p.formulas is None else resource_label(p.formulas)
        if label and label not in seen:
            seen.add(label)
            out.update(_file_formulas(label, p.formulas_text()))
    return out


def formula(claim_id: str) -> Formula | None:
    """The formulas of ``claim_id`` (None when statements.csv has no row for it)."""
    return formulas().get(claim_id)


LINE_BREAK = "\\\\"


def lines(tex: str) -> list[str]:
    """The lines of a formula (split at ``\\``), stripped, empty ones dropped."""
    return [part.strip() for part in tex.split(LINE_BREAK) if part.strip()]


def parse(tex: str) -> None:
    """Raise ``ValueError`` when mathtext cannot typeset a line of ``tex`` (without drawing it)."""
    from matplotlib.mathtext import MathTextParser

    parser = MathTextParser("path")
    for line in lines(tex):
        parser.parse(f"${line}$", dpi=72)


@lru_cache(maxsize=1024)
def _svg(tex: str) -> str:
    """One line typeset by mathtext: glyphs as paths, no background, no element ids but the glyphs'."""
    import matplotlib
    from matplotlib import mathtext
    from matplotlib.font_manager import FontProperties

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "path", "mathtext.fontset": "cm", "svg.hashsalt": "tvbo"}):
        mathtext.math_to_image(f"${tex}$", buf, prop=FontProperties(size=FONT_SIZE), format="svg")
    svg = _META.sub("", _HEAD.sub("", buf.getvalue(), count=1))
    svg = _BACKGROUND.sub("", svg, count=1)
    svg = _GROUP_ID.sub("<g", _STYLE.sub("", _COMMENT.sub("", svg)))
    svg = _TRANSLATE.sub(lambda m: "translate(" + " ".join(_short(v) for v in m.group(1).split()) + ")", svg)
    return _SPACE.sub("><", svg.replace("xlink:href=", "href=")).strip()


def _short(number: str) -> str:
    """A glyph offset with one decimal (the unit is 0.15 pt: far below a pixel)."""
    return f"{float(number):.1f}".removesuffix(".0")


def _tagged(svg: str, label: str, line: str) -> str:
    title = f"<title>{_escape(label + ': ' if label else '')}{_escape(line)}</title>"
    return svg.replace(">", ">" + title, 1).replace("<svg ", '<svg role="img" class="formula" ', 1)


def formula_svg(tex: str, label: str = "") -> str:
    """``tex`` typeset as self-contained inline ``<svg>`` elements, one per line (``label`` and the TeX
    source as their title). A page with many formulas uses :class:`FormulaRenderer` instead."""
    return FormulaRenderer(share_glyphs=False).render(tex, label)


class FormulaRenderer:
    """Typesets the formulas of one page. With ``share_glyphs`` every glyph outline is written once, in
    :meth:`glyphs` (placed at the top of the page), and the formulas refer to it: a page of two hundred
    formulas then weighs a few hundred kilobytes instead of several megabytes."""

    def __init__(self, share_glyphs: bool = True) -> None:
        self.share = share_glyphs
        self._glyphs: dict[str, str] = {}

    def render(self, tex: str, label: str = "") -> str:
        out = []
        for line in lines(tex):
            svg = _svg(line)
            if self.share:
                svg = self._share(svg)
            out.append(_tagged(svg, label, line))
        return '<span class="formula-lines">' + "<br>".join(out) + "</span>"

    def _share(self, svg: str) -> str:
        found = {m.group(1): m.group(0) for m in _GLYPH.finditer(svg)}
        if any(self._glyphs.get(k, v) != v for k, v in found.items()):
            return svg  # a glyph id with another outline: keep this formula self-contained
        self._glyphs.update(found)
        return _GLYPH_DEFS.sub("", svg)

    def glyphs(self) -> str:
        """The shared glyph outlines, as a hidden ``<svg>`` (empty when nothing was rendered)."""
        if not self._glyphs:
            return ""
        paths = "".join(self._glyphs[k] for k in sorted(self._glyphs))
        return ('<svg class="glyphs" width="0" height="0" style="position:absolute" aria-hidden="true" '
                f'xmlns="http://www.w3.org/2000/svg"><defs>{paths}</defs></svg>')


def _escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
