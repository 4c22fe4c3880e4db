"""The first section of the report, "What fails and why": every claim that does not pass, then every claim whose
verdict contradicts the papers.

Four groups, in this order:

* **does not pass** — every claim the pass rule rejects (an error, a verdict without power, a verdict neither
  expected nor recorded), with the rule's reason: exactly the claims that make ``tvbo-verify report`` exit 1;
* **contradicts the papers' reading** — the measured verdict differs from what the papers lead us to
  expect, and the claim list records that disagreement with its evidence (``disagreement`` starting
  "Measured ..."); the reason is the disagreement's first sentence;
* **false as printed** — errata: statements expected false as printed and measured violated; the reason
  is the evidence summary;
* **unexpected** — a verdict (not an error) that matches neither the expectation nor a recorded
  disagreement; the suite fails on these.

Each row carries a one-line reason, the numbers that decide it (the counterexample's free variables and
both sides, or the measured statistic) and the strength of its evidence (:mod:`.strength`).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from markupsafe import Markup

from ..files import safe_name
from ..verify.claimlist import ClaimRow
from ..verify.comparison import comparison_text
from .pages import paper_page
from .strength import evidence_strength
from .tables import fmt

GROUPS = (
    ("rejected", "Does not pass",
     "Claims the pass rule rejects, with its reason: an error, a verdict without power, or a verdict neither "
     "expected nor recorded. The report exits 1 when this group is not empty."),
    ("contradicts", "Contradicts the papers' reading",
     "The measured verdict differs from what the papers lead us to expect; the claim list records the "
     "disagreement with its evidence."),
    ("erratum", "False as printed (errata)",
     "Statements the catalogs show false as printed, measured violated."),
    ("unexpected", "Unexpected verdicts (not recorded)",
     "A verdict that matches neither the expectation nor a recorded disagreement: the suite fails on these."),
)
#: a one-line reason longer than this is cut at a word (the full text follows it, folded)
REASON_CHARS = 220
#: free variables of a counterexample shown in the table (every one is in the claim's section)
SHOWN_VARIABLES = 6

#: the head of a recorded disagreement: "Measured <verdict>[ at <fidelity> fidelity][, ...], not <expect>"
_HEAD = re.compile(r"^\s*measured\b.*?\bnot\s+[\w-]+[\s,:.]*", re.I | re.S)
_SENTENCE_END = re.compile(r"[.;](?=\s+[A-Z(\"'])")


def group_of(res: dict[str, Any], row: ClaimRow) -> str | None:
    """The group of a claim's result (None: it does not belong in the section)."""
    if not res.get("accepted", res.get("matches", False)):
        return "rejected"
    if res["verdict"] == "error":
        return None
    if not res["matches"]:
        return "contradicts" if res.get("accepted") else "unexpected"
    return "erratum" if res["verdict"] == "violated" and row.expect == "fails-as-printed" else None


#: words whose period does not end a sentence ("App. C.5", "Fig. 3", "i.e. linear")
ABBREVIATIONS = {"app", "eq", "eqs", "fig", "figs", "thm", "lem", "prop", "def", "sec", "alg", "cor", "rem", "tab",
                 "ref", "al", "vs", "cf", "resp", "approx", "i.e", "e.g", "no"}


def _ends_sentence(text: str, i: int) -> bool:
    if not _SENTENCE_END.match(text, i):
        return False
    word = text[:i].rsplit(None, 1)[-1].lstrip("([").lower() if text[:i].strip() else ""
    return word not in ABBREVIATIONS


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` outside brackets (an abbreviation such as "Fig." does not end one)."""
    depth = 0
    for i, ch in enumerate(text):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth == 0 and _ends_sentence(text, i):
            return text[:i + 1].strip()
    return text.strip()


def _asides(text: str) -> list[tuple[int, int]]:
    """Spans of the top-level parenthetical asides of ``text`` (" (...)" after a space, longer than an
    equation number), longest first."""
    spans, depth, start = [], 0, -1
    for i, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0 and start > 0 and text[start - 1] == " " and i - start > 12:
                spans.append((start - 1, i + 1))
    return sorted(spans, key=lambda s: s[0] - s[1])


def one_line(text: str, limit: int = REASON_CHARS) -> str:
    """``text`` in at most ``limit`` characters: long parenthetical asides dropped first (longest first),
    then cut at a word boundary (an ellipsis marks the cut)."""
    text = " ".join(text.split())
    while len(text) > limit:
        spans = _asides(text)
        if not spans:
            break
        a, b = spans[0]
        text = text[:a] + text[b:]
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + " …"


def disagreement_reason(disagreement: str) -> str:
    """What a recorded disagreement says after its "Measured <verdict>, not <expect>" head."""
    rest = _HEAD.sub("", disagreement, count=1).strip()
    if rest.startswith("(") and ")" in rest:  # "(inherits Lemma 10's failure ...). With ..."
        inner, after = rest[1:].split(")", 1)
        if after.lstrip().startswith((".", ":", ";")):
            rest = inner + after
    return rest.strip()


def reason(res: dict[str, Any], row: ClaimRow, group: str) -> tuple[str, str]:
    """(one-line reason, the full text it is taken from)."""
    if group == "rejected":
        full = f"{res.get('reason') or 'not accepted'} — {res.get('summary') or ''}".strip(" —")
    elif group == "contradicts" and row.disagreement:
        full = disagreement_reason(row.disagreement)
    else:
        full = str(res.get("summary") or "")
    line = one_line(first_sentence(full))
    if re.match(r"[a-z][\w-]*:", line):  # it starts with a claim or paper id: keep its case
        return line, full
    return line[:1].upper() + line[1:], full


def _value(v: Any) -> str:
    if isinstance(v, list):
        more = ", …" if len(v) > SHOWN_VARIABLES else ""
        return "[" + ", ".join(_value(x) for x in v[:SHOWN_VARIABLES]) + more + "]"
    return fmt(v)


def _counterexample_numbers(ce: dict[str, Any]) -> list[str]:
    instance = ce.get("instance") or {}
    items = list(instance.items())
    shown = ", ".join(f"{k} = {_value(v)}" for k, v in items[:SHOWN_VARIABLES])
    if len(items) > SHOWN_VARIABLES:
        shown += f", … ({len(items)} variables)"
    lines = [f"at {shown}"] if shown else []
    if isinstance(ce.get("measured"), (int, float)) and isinstance(ce.get("stated"), (int, float)):
        lines.append(comparison_text(ce["measured"], str(ce.get("sense", "<=")), ce["stated"], broken=True))
    hp, digits = ce.get("hp_margin"), ce.get("mp_digits")
    if isinstance(hp, (int, float)) and digits:
        lines.append(f"margin {fmt(hp, 4)} at {digits} digits")
    return lines


def _rate_numbers(stats: dict[str, Any]) -> list[str]:
    lo, hi = stats["slope_ci95"]
    return [f"log–log slope {fmt(stats['slope'], 3)} (95% CI {fmt(lo, 3)}..{fmt(hi, 3)}) against the "
            f"allowance {fmt(stats.get('allowance'), 3)} for x^{fmt(stats.get('exponent'), 3)}"]


def _trial_numbers(stats: dict[str, Any]) -> list[str]:
    lo, hi = stats["ci95"]
    return [f"{stats['successes']}/{stats['n']} runs (frequency {fmt(stats['frequency'], 3)}, 95% CI "
            f"{fmt(lo, 3)}..{fmt(hi, 3)}) against 1 − δ = {fmt(stats.get('target'), 3)}"]


def _property_numbers(stats: dict[str, Any]) -> list[str]:
    named = set(stats.get("failed") or []) | set(stats.get("undecided") or [])
    lines = []
    for r in stats.get("instances") or []:
        if not isinstance(r, dict) or r.get("property") not in named:
            continue
        text = f"{r['property']} ({r.get('verdict')})"
        if isinstance(r.get("measured"), (int, float)) and isinstance(r.get("stated"), (int, float)):
            text += ": " + comparison_text(r["measured"], str(r.get("sense", "<=")), r["stated"],
                                           broken=r.get("verdict") == "violated")
        elif r.get("detail"):
            text += ": " + one_line(str(r["detail"]), 160)
        lines.append(text)
    return lines


def measured_numbers(res: dict[str, Any]) -> list[str]:
    """The numbers that decide the verdict: the counterexample (free variables, both sides, refereed margin),
    the slope and its interval of a rate, the frequency of a probabilistic statement, or the failing and
    undecided properties; the evidence summary when the record holds none of these."""
    ce = res.get("counterexample")
    stats = res.get("stats") or {}
    if isinstance(ce, dict) and "statement" in ce:
        return _counterexample_numbers(ce)
    if isinstance(stats.get("slope_ci95"), list) and "slope" in stats:
        return _rate_numbers(stats)
    if isinstance(stats.get("ci95"), list) and {"successes", "n", "frequency"} <= set(stats):
        return _trial_numbers(stats)
    lines = _property_numbers(stats)
    return lines or [one_line(str(res.get("summary") or ""))]


def failures(rows: Sequence[ClaimRow], by_id: dict[str, dict[str, Any]],
             render: Callable[[str], Markup | None]) -> list[dict[str, Any]]:
    """The groups of the section (see the module docstring), each with its rows in claim-list order.

    ``render(claim_id)`` gives the claim's typeset statement (None when it has none)."""
    items: dict[str, list[dict[str, Any]]] = {key: [] for key, _, _ in GROUPS}
    for row in rows:
        res = by_id.get(row.id)
        if not res:
            continue
        group = group_of(res, row)
        if group is None:
            continue
        line, full = reason(res, row, group)
        items[group].append({"row": row, "res": res, "anchor": safe_name(row.id), "page": paper_page(row.paper),
                             "reason": line,
                             "full_reason": full if full != line else "",
                             "numbers": measured_numbers(res), "strength": evidence_strength(res),
                             "formula": render(row.id)})
    return [{"key": k, "title": t, "text": text, "rows": items[k]} for k, t, text in GROUPS]


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def headline(groups: list[dict[str, Any]], established: int) -> str:
    """"17 results contradict the papers' reading; 35 errata established" (and the unexpected verdicts)."""
    n = {g["key"]: len(g["rows"]) for g in groups}
    text = (f"{_count(n['contradicts'], 'result contradicts', 'results contradict')} the papers' reading; "
            f"{_count(established, 'erratum', 'errata')} established")
    if n.get("rejected"):
        text = (f"{_count(n['rejected'], 'claim does not pass', 'claims do not pass')} (the report exits 1); "
                + text)
    if n["unexpected"]:
        text += f"; {_count(n['unexpected'], 'unexpected verdict', 'unexpected verdicts')}"
    return text
