"""Readable HTML for the numbers of a claim: statistics as (nested) tables, instance tables sorted by a
shown column, counterexamples with every free variable, and the margin labelled by what it is.

Nothing here truncates a row or a value a reviewer reads: every row the check produced and every value
in full, so nothing the report shows can hide a contradiction between a claim's title and its own
numbers. Raw arrays (a list of :data:`LONG_ARRAY` or more numbers: a curve, a ladder of sizes) are the
exception: the page shows their length, range and ends, and every value stays in ``results.json``.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Sequence

from markupsafe import Markup, escape

from ..verify.comparison import SENSES, comparison_text

#: columns an instance table is preferably sorted by, in order of preference
SORT_PREFERENCE = ("relative margin", "margin", "frequency")
#: the order of the properties builder's rows (violated first)
VERDICT_ORDER = {"violated": 0, "error": 0, "inconclusive": 1, "confirmed": 2}
#: a list of this many numbers (or more) is shown as a summary; its values stay in results.json
LONG_ARRAY = 20
#: row note that pins the shrunk counterexample above the sorted rows
PINNED_NOTE = "counterexample"  # "counterexample" or "shrunk counterexample"


def fmt(v: Any, digits: int = 6) -> str:
    """A scalar as text: floats with ``digits`` significant digits, everything else as is."""
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return f"{v:.{digits}g}"
    return str(v)


def exact(v: Any) -> str:
    """A scalar with every digit (``repr`` of floats): what a reviewer types to check it by hand."""
    return repr(v) if isinstance(v, float) else fmt(v)


def _scalar(v: Any) -> bool:
    return v is None or isinstance(v, (bool, int, float, str))


def columns(rows: Iterable[dict[str, Any]]) -> list[str]:
    """The union of the rows' keys, in order of first appearance (no column of any row is lost)."""
    cols: list[str] = []
    for r in rows:
        cols.extend(k for k in r if k not in cols)
    return cols


def table(rows: Sequence[dict[str, Any]], *, digits: int = 6, cls: str = "") -> Markup:
    """A table of dict rows over the union of their keys; nested values become sub-tables."""
    cols = columns(rows)
    head = "".join(f"<th>{escape(c)}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{value_html(r.get(c), digits)}</td>" for c in cols) + "</tr>"
                   for r in rows)
    attr = f' class="{escape(cls)}"' if cls else ""
    return Markup(f"<table{attr}><tr>{head}</tr>{body}</table>")


def mapping_table(d: dict[str, Any], *, digits: int = 6, full: bool = False) -> Markup:
    """A two-column key / value table (``full``: floats with every digit)."""
    body = "".join(f"<tr><th>{escape(k)}</th><td>{value_html(v, digits, full=full)}</td></tr>" for k, v in d.items())
    return Markup(f'<table class="kv">{body}</table>')


def _is_number(x: Any) -> bool:
    return x is None or (isinstance(x, (int, float)) and not isinstance(x, bool))


def numbers_in(v: Any) -> list[float] | None:
    """The numbers of a list of numbers, or of a list of such lists (None for anything else)."""
    if not isinstance(v, list) or not v:
        return None
    if all(_is_number(x) for x in v):
        return [float(x) for x in v if x is not None]
    if all(isinstance(x, list) and x and all(_is_number(y) for y in x) for x in v):
        return [float(y) for x in v for y in x if y is not None]
    return None


def array_summary(v: list[Any]) -> str:
    """"2000 numbers: 0.0512 … 0.871 (first 0.871, last 0.0512)" for a raw array (or "3 × 500 array: …")."""
    values = numbers_in(v) or []
    shape = f"{len(v)} × {len(v[0])} array" if v and isinstance(v[0], list) else f"{len(v)} numbers"
    finite = [x for x in values if math.isfinite(x)]
    if not finite:
        return f"{shape}, none finite (every value in results.json)"
    first, last = (v[0][0], v[-1][-1]) if isinstance(v[0], list) else (v[0], v[-1])
    return (f"{shape}: {fmt(min(finite), 4)} … {fmt(max(finite), 4)} (first {fmt(first, 4)}, last {fmt(last, 4)}; "
            "every value in results.json)")


def value_html(v: Any, digits: int = 6, *, full: bool = False) -> Markup:
    """Any JSON value as readable HTML: scalars as text, dicts and lists of dicts as sub-tables, raw arrays
    of :data:`LONG_ARRAY` or more numbers as a one-line summary."""
    numbers = numbers_in(v)
    if numbers is not None and len(numbers) >= LONG_ARRAY:
        return Markup('<span class="array">') + escape(array_summary(v)) + Markup("</span>")
    if isinstance(v, dict):
        return mapping_table(v, digits=digits, full=full) if v else Markup('<span class="muted">(empty)</span>')
    if isinstance(v, list):
        if not v:
            return Markup('<span class="muted">(none)</span>')
        if all(isinstance(x, dict) for x in v):
            return table(v, digits=digits, cls="sub")
        if all(_scalar(x) for x in v):
            text = ", ".join(exact(x) if full else fmt(x, digits) for x in v)
            return Markup(f"[{escape(text)}]")
        return Markup('<ol class="sub">' + "".join(f"<li>{value_html(x, digits, full=full)}</li>" for x in v)
                      + "</ol>")
    text = exact(v) if full else fmt(v, digits)
    if isinstance(v, str) and "\n" in v:
        return Markup(f"<pre>{escape(text)}</pre>")
    return escape(text)


# -- instance tables ------------------------------------------------------------------------------
def _numeric(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return float(v) if math.isfinite(v) else None


def _monotone(values: list[float]) -> str | None:
    if len(values) < 2:
        return None
    if all(a <= b for a, b in zip(values, values[1:])):
        return "ascending"
    if all(a >= b for a, b in zip(values, values[1:])):
        return "descending"
    return None


def _sorted_along(rows: list[dict[str, Any]], col: str) -> str | None:
    if col == "verdict":
        keys = [VERDICT_ORDER.get(str(r.get(col)), 3) for r in rows]
        return "violated first" if _monotone([float(k) for k in keys]) == "ascending" else None
    values = [_numeric(r.get(col)) for r in rows]
    if any(v is None for v in values):
        return None
    return _monotone(values)  # type: ignore[arg-type]


def sort_instances(rows: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], str]:
    """The rows ordered by one displayed column, and a caption naming it.

    A row noted as the shrunk counterexample stays first. The check's own order is kept when it
    already follows a displayed column (preferring the margins and frequencies); otherwise the rows
    are sorted by the relative margin, the margin or the frequency, worst first.
    """
    rows = list(rows)
    pinned = [r for r in rows[:1] if str(r.get("note", "")).endswith(PINNED_NOTE)]
    rest = rows[len(pinned):]
    lead = f"the {pinned[0]['note']} first, then " if pinned else ""
    if len(rest) < 2:
        return pinned + rest, ""
    cols = columns(rest)
    candidates = [c for c in SORT_PREFERENCE if c in cols] + ["verdict"] * ("verdict" in cols) + \
        [c for c in cols if c not in SORT_PREFERENCE and c != "verdict"]
    for col in candidates:
        order = _sorted_along(rest, col)
        if order:
            return pinned + rest, f"{lead}sorted by {col} ({order})"
    for col in SORT_PREFERENCE:
        if col in cols and all(_numeric(r.get(col)) is not None for r in rest):
            worst_high = col == "frequency"
            ordered = sorted(rest, key=lambda r: float(r[col]))
            return pinned + ordered, f"{lead}sorted by {col} (ascending{', worst first' if not worst_high else ''})"
    return pinned + rest, f"{lead}in the order the check produced them (no column orders them)"


# -- the margin -----------------------------------------------------------------------------------
def _close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b), 1e-300)


def margin_label(res: dict[str, Any], rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What the headline margin is, and whether it agrees with the instances shown.

    ``stats["margin_of"]`` (written by the builders) names it: the shrunk counterexample, the worst
    instance, the worst configuration … Without it, the margin is called the worst margin only when
    it is the smallest margin of the rows shown.
    """
    margin = res.get("margin")
    of = (res.get("stats") or {}).get("margin_of")
    shown = [m for m in (_numeric(r.get("margin")) for r in rows) if m is not None]
    note = ""
    if of:
        label = f"Margin of the {of}" if str(of).startswith(("worst", "shrunk", "counterexample")) \
            else f"Margin ({of})"
        if of == "worst instance" and shown and _numeric(margin) is not None \
                and not any(_close(float(margin), m) for m in shown):
            note = "this margin is not among the instances shown"
    elif shown and _numeric(margin) is not None and _close(float(margin), min(shown)):
        label = "Worst margin (of the instances shown)"
    else:
        label = "Margin (as reported by the check)"
        if shown and _numeric(margin) is not None:
            note = f"the smallest margin shown is {fmt(min(shown))}"
    return {"label": label, "value": margin, "note": note}


# -- counterexamples ------------------------------------------------------------------------------
EXACT_FIELDS = ("measured", "sense", "stated", "lhs", "rhs", "margin", "hp_margin", "mp_digits")


def counterexample_view(ce: dict[str, Any]) -> dict[str, Any]:
    """The parts of a stored counterexample a reviewer checks by hand: its free variables in full."""
    if "statement" in ce:
        measured, stated = ce.get("measured"), ce.get("stated")
        reads = ""
        if _numeric(measured) is not None and _numeric(stated) is not None and ce.get("sense") in SENSES:
            hp = _numeric(ce.get("hp_margin"))
            margin = hp if hp is not None else _numeric(ce.get("margin"))
            reads = comparison_text(measured, ce["sense"], stated, broken=margin is not None and margin < 0)
        return {"form": "exact", "statement": ce.get("statement"), "reads": reads,
                "variables": mapping_table(ce.get("instance") or {}, full=True),
                "comparison": mapping_table({k: ce[k] for k in EXACT_FIELDS if k in ce}, full=True)}
    if "rerun" in ce:
        rerun = ce.get("rerun") or {}
        return {"form": "rerun", "rerun": mapping_table(rerun, full=True),
                "variables": mapping_table(ce.get("configuration") or {}, full=True),
                "statistic": mapping_table(ce.get("statistic") or {}, full=True)}
    return {"form": "other", "variables": mapping_table(ce, full=True)}
