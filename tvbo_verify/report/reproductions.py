"""Reproductions of the papers' figures, shown per paper in the report (their image files beside the page).

A reproduction is one JSON record in ``OUT/reproductions/*.json``::

    {"id": "sparq:figure-1", "paper": "sparq", "title": "...", "fidelity": "quick",
     "svg": "<svg ...>" | "sparq_figure-1.svg",     # inline SVG or a file next to the record
     "png": "sparq_figure-1.png",                    # alternative to "svg" (a file next to the record)
     "finding": "measured ordering ... (text)",
     "json": {...},                                  # the measured finding, shown as tables
     "setup": "...", "expected": "...", "data_note": "...", "claims": [...]}   # optional, shown when present

Records that cannot be shown are listed as problems in the report, never dropped silently.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..papers import paper_ids
from .figures import figure_view, unique_ids

FOLDER = "reproductions"
#: optional text fields of a record shown with the figure, in this order
DESCRIPTION = (("setup", "Set-up"), ("expected", "Expected (the paper)"), ("data_note", "Data"))
REQUIRED = ("id", "paper", "title", "fidelity", "finding")
_HEAD = re.compile(r"^.*?(?=<svg)", re.S)
_UNSAFE = re.compile(r"<script\b.*?</script\s*>|<foreignObject\b.*?</foreignObject\s*>", re.S | re.I)
_EVENT = re.compile(r"\son[a-z]+\s*=\s*(\"[^\"]*\"|'[^']*')", re.I)
_EXTERNAL = re.compile(r"""(href\s*=\s*["'])(?!#|data:)[^"']*(["'])""", re.I)


def clean_svg(svg: str) -> str:
    """An SVG safe to inline in a self-contained page: no prolog, scripts, handlers or external links."""
    svg = _HEAD.sub("", svg, count=1)
    svg = _UNSAFE.sub("", svg)
    svg = _EVENT.sub("", svg)
    return _EXTERNAL.sub(r"\1#\2", svg)


def _image(rec: dict[str, Any], folder: Path) -> dict[str, Any]:
    """The record's figure: inline SVG markup (an ``svg`` string holding the drawing), else the SVG or PNG
    file beside the record, loaded by the page; ValueError naming what is missing."""
    svg = rec.get("svg")
    if isinstance(svg, str) and "<svg" in svg:
        return {"inline": clean_svg(svg)}
    name = svg if isinstance(svg, str) and svg else rec.get("png")
    if not isinstance(name, str) or not name:
        raise ValueError("the record has neither 'svg' nor 'png'")
    path = folder / name
    kind = "svg" if name == svg else "png"
    if not path.is_file():
        raise ValueError(f"{kind} file {name!r} not found next to the record")
    if kind == "png":
        with open(path, "rb") as fh:
            if not fh.read(8).startswith(b"\x89PNG"):
                raise ValueError(f"{name!r} is not a PNG file")
    return figure_view(folder.parent, folder.name, name, str(rec.get("title", "")))


def load_reproductions(out: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The reproduction records of ``out/reproductions`` ready to render, and one problem line per
    record that cannot be shown. Records are sorted by paper (claim-list order) and id."""
    folder = Path(out) / FOLDER
    if not folder.is_dir():
        return [], []
    records, problems = [], []
    order = paper_ids()
    for path in sorted(folder.glob("*.json")):
        try:
            rec = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            problems.append(f"{path.name}: not readable JSON ({type(exc).__name__})")
            continue
        if not isinstance(rec, dict):
            problems.append(f"{path.name}: not a JSON object")
            continue
        missing = [k for k in REQUIRED if not isinstance(rec.get(k), str) or not rec.get(k)]
        if missing:
            problems.append(f"{path.name}: missing {', '.join(missing)}")
            continue
        if rec["paper"] not in order:
            problems.append(f"{path.name}: unknown paper {rec['paper']!r}")
            continue
        try:
            image = _image(rec, folder)
        except (OSError, ValueError) as exc:
            problems.append(f"{path.name}: {exc}")
            continue
        measured = rec.get("json")
        if "inline" in image:
            image["inline"] = unique_ids(image["inline"], f"r{len(records)}-")
        claims = rec.get("claims")
        records.append({"id": rec["id"], "paper": rec["paper"], "title": rec["title"], "fidelity": rec["fidelity"],
                        "finding": rec["finding"], "image": image,
                        "json": measured if isinstance(measured, (dict, list)) else None, "file": path.name,
                        "description": [(label, str(rec[key])) for key, label in DESCRIPTION
                                        if isinstance(rec.get(key), str) and rec[key].strip()],
                        "claims": [str(c) for c in claims] if isinstance(claims, list) else []})
    records.sort(key=lambda r: (order.index(r["paper"]), r["id"]))
    return records, problems
