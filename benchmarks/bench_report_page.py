"""How fast a report page opens: size of ``index.html``, what it inlines, and the time to its first screen.

Target (the report opens at once): ``index.html`` under 3 MB, first screen under 2 s, the folder works
offline. For every page of the report folder ``OUT`` (written by ``tvbo-verify report --out OUT``:
``index.html`` and one page per paper) this prints

* its size, the inline ``<svg>`` elements that are figures (formulas and their shared glyphs excepted)
  and the raw arrays (lists of 20+ numbers) left in it; the number and size of the figure files;
* the time to its first screen in headless Chromium: the wall time of ``--screenshot`` of the page (a
  1280 × 900 window: parse, layout, the first screen's lazy images, paint) minus that of a blank page,
  median of ``--repeat`` runs each, and the time from navigation start to the end of parsing measured
  by a copy of the page with a one-line probe script.

Measures, never asserts. Needs ``chromium`` on the PATH for the timings.

    python benchmarks/bench_report_page.py OUT [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

RAW_ARRAY = re.compile(r"\[(?:\s*-?[\d.eE+-]+\s*,){19,}\s*-?[\d.eE+-]+\s*\]")
PROBE = ('<script>document.documentElement.setAttribute("data-parsed-ms", String(Math.round(performance.now())));'
         "</script></body>")


def page_facts(out: Path, name: str) -> dict:
    """Size of one page and what it inlines."""
    html = (out / name).read_text(encoding="utf-8")
    svgs = html.count("<svg")
    formulas = html.count('<svg role="img" class="formula"') + html.count('<svg class="glyphs"')
    return {"bytes": len((out / name).read_bytes()), "inline_figure_svgs": svgs - formulas, "formula_svgs": formulas,
            "raw_arrays": len(RAW_ARRAY.findall(html)), "images_loaded_lazily": html.count('loading="lazy"')}


def folder_facts(out: Path) -> dict:
    figures = [p for sub in ("figures", "reproductions") for p in (out / sub).glob("*") if p.suffix in (".svg", ".png")]
    return {"figure_files": len(figures), "figure_files_bytes": sum(p.stat().st_size for p in figures)}


def _chromium(chromium: str, *args: str) -> float:
    with tempfile.TemporaryDirectory() as profile:
        start = time.perf_counter()
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
                        f"--user-data-dir={profile}", *args], capture_output=True, text=True, timeout=300, check=False)
        return time.perf_counter() - start


def first_screen(chromium: str, out: Path, name: str, repeat: int) -> dict:
    """Seconds to the first screen of ``out/name`` (screenshot wall time minus a blank page's) and the
    milliseconds from navigation start to the end of parsing."""
    with tempfile.TemporaryDirectory() as tmp:
        blank = Path(tmp) / "blank.html"
        blank.write_text("<!DOCTYPE html><title>blank</title><p>blank</p>", encoding="utf-8")
        shot = Path(tmp) / "shot.png"
        page, empty = [], []
        for _ in range(repeat):
            empty.append(_chromium(chromium, f"--screenshot={shot}", "--window-size=1280,900", blank.as_uri()))
            page.append(_chromium(chromium, f"--screenshot={shot}", "--window-size=1280,900",
                                  (out / name).resolve().as_uri()))
    probe = out / f".probe-timing-{name}"
    probe.write_text((out / name).read_text(encoding="utf-8").replace("</body>", PROBE, 1), encoding="utf-8")
    try:
        with tempfile.TemporaryDirectory() as profile:
            dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                  f"--user-data-dir={profile}", "--dump-dom", probe.resolve().as_uri()],
                                 capture_output=True, text=True, timeout=300, check=False).stdout
    finally:
        probe.unlink()
    parsed = re.search(r'data-parsed-ms="(\d+)"', dom)
    return {"screenshot_s": statistics.median(page), "blank_screenshot_s": statistics.median(empty),
            "first_screen_s": statistics.median(page) - statistics.median(empty),
            "parsed_ms": int(parsed.group(1)) if parsed else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path, help="a report folder holding index.html")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    pages = sorted(p.name for p in args.out.glob("*.html") if not p.name.startswith("."))
    facts: dict = {"folder": folder_facts(args.out)}
    for name in sorted(pages, key=lambda n: n != "index.html"):
        facts[name] = page_facts(args.out, name)
        if chromium:
            facts[name].update(first_screen(chromium, args.out, name, max(1, args.repeat)))
    if args.json:
        print(json.dumps(facts, indent=1))
        return
    for section, values in facts.items():
        print(section + ": " + ", ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}"
                                         for k, v in values.items()))

if __name__ == "__main__":
    main()
