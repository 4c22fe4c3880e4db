"""The report page as a reviewer reads it: what fails and why first, the strength of every verdict's evidence,
one badge per property, a page that opens at once (figures as files, raw arrays summarised), and figures
that read correctly. Rendered from a synthetic but schema-valid results document of real claim ids."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tvbo_verify.report.html import write_pages
from tvbo_verify.report.results import SCHEMA, dump, load_results, run_header
from tvbo_verify.report.strength import evidence_strength
from tvbo_verify.report.trust import counterexample_path, refresh, seal
from tvbo_verify.verify import claim_row

ERRATUM = "wsparq:synthetic-norm-bound"  # fails-as-printed, violated by a refereed exact counterexample
RATE = "wsparq:theorem-3.3"  # recorded disagreement: a rate violated from 3 runs over 0.6 decades
PROPS = "sparq:figure-1"  # recorded disagreement (quick): 1 of 6 properties of a reproduced figure undecided
CONFIRMED = "tvgpucb:theorem-4.1"  # confirmed, matches
UNEXPECTED = "tvgpucb:theorem-4.2"  # expects holds, no recorded verdict: violated would be unexpected
EXACT_DISAGREE = "bolt:n-star"  # recorded disagreement: exact counterexample
TRIALS = "wgpucb:lemma-10"  # recorded disagreement: a frequency, with a negative control

#: the fidelity of the synthetic report: the one at which the claim list records the verdicts used here
FIDELITY = "quick"
POWER = {"sharpening": "bound halved", "caught": True, "detail": "caught"}


def _exact_ce(claim_id: str, instance: dict, measured: float, stated: float, sense: str = "<=") -> dict:
    margin = stated - measured if sense == "<=" else measured - stated
    return {"claim": claim_id, "kind": "exact", "statement": "synthetic statement", "instance": instance,
            "measured": measured, "stated": stated, "sense": sense, "lhs": measured, "rhs": stated, "margin": margin,
            "hp_margin": margin, "mp_digits": 50}


def _rerun(claim_id: str, statistic: dict) -> dict:
    return {"claim": claim_id, "kind": claim_row(claim_id).kind, "rerun": {"fidelity": "quick", "seed": 0},
            "configuration": {"T": 500}, "statistic": statistic}


def _entry(claim_id: str, verdict: str, summary: str, *, stats: dict, counterexample: dict | None = None,
           power: dict | None = POWER, margin: float | None = -1.0, **extra) -> dict:
    base = {"id": claim_id, "verdict": verdict, "summary": summary, "margin": margin, "power": power,
            "counterexample": counterexample, "stats": stats, "runtime_s": 0.1, "figures": [], **extra}
    return seal(refresh(base, FIDELITY))


PROPERTY_ROWS = [{"property": "SparQ-GP-UCB below TV-GP-UCB (final average regret)", "verdict": "inconclusive",
                  "detail": "undecided at B = 20: margin -0.087 of TV-GP-UCB's regret (95% CI -0.226..0.052)"}] + [
    {"property": f"SparQ-GP-UCB below {rival} (final average regret)", "verdict": "confirmed",
     "detail": "ratio of means 0.44"} for rival in ("GP-UCB", "R-GP-UCB", "SW-GP-UCB", "W-GP-UCB")] + [
    {"property": "SparQ-GP-UCB's R_t sublinear", "verdict": "confirmed",
     "detail": "log–log slope of R_t against t over t >= 125: 0.746 (95% CI 0.721..0.778)"}]


def synthetic_doc() -> dict:
    """One results document: an erratum, four recorded disagreements of four kinds, an unexpected verdict and
    a confirmed claim (every paper represented)."""
    claims = [
        _entry(ERRATUM, "violated", "printed normalisation of the synthetic function: broken — the shrunk "
               "counterexample has measured 7.07107 > stated 5: breaks ≤, confirmed at 50 digits.",
               stats={"n": 31, "margin_of": "shrunk counterexample",
                      "instances": [{"n_centres": 7, "t": 1, "lhs": 7.07, "rhs": 5.0, "margin": -2.07}]},
               counterexample=_exact_ce(ERRATUM, {"n_centres": 7, "t": 1}, 7.071065779847545, 5.0)),
        _entry(RATE, "violated", "SparQ-GP-UCB regret on I2 (Theorem 3.3): log–log slope 0.447.",
               stats={"slope": 0.447, "slope_ci95": [0.322, 0.588], "allowance": 0.263, "exponent": 0.5, "n": 3,
                      "resampled": "repetitions", "decades": 0.602, "decades_of": "T", "resolution": 0.45,
                      "x": [float(500 + 60 * i) for i in range(25)]},  # a raw array of 25 numbers
               counterexample=_rerun(RATE, {"slope": 0.447})),
        _entry(PROPS, "inconclusive", "GP-UCB variants: 1 of 6 properties undecided (SparQ-GP-UCB below "
               "TV-GP-UCB at B = 20).",
               stats={"properties": 6, "failed": [], "undecided": [PROPERTY_ROWS[0]["property"]],
                      "finding": "SparQ-GP-UCB has the lowest final average regret.", "instances": PROPERTY_ROWS}),
        _entry(CONFIRMED, "confirmed", "genie lower bound Ω(Tε): all 8 properties hold.",
               stats={"properties": 8, "failed": [], "undecided": []}, margin=0.1),
        _entry(UNEXPECTED, "violated", "Synthetic unexpected break of (17)-(18) at T = 25.",
               stats={"n": 12, "instances": []}, counterexample=_exact_ce(UNEXPECTED, {"T": 25}, 3.0, 2.0)),
        _entry(EXACT_DISAGREE, "violated", "n* search of Recommendation 1: broken.",
               stats={"n": 31}, counterexample=_exact_ce(EXACT_DISAGREE, {"kernel": "rq", "lT": 26.1}, 73, 3, "==")),
        _entry(TRIALS, "violated", "self-normalised noise bound (7): worst configuration ratio <= 1 in 4/30 runs.",
               stats={"n": 30, "successes": 4, "frequency": 4 / 30, "ci95": [0.0376, 0.307], "target": 0.9,
                      "configurations": 6},
               counterexample=_rerun(TRIALS, {"worst_frequency": 4 / 30}),
               controls=[{"name": "random policy", "verdict": "violated", "detail": "0/30 runs"}]),
    ]
    return {"schema": SCHEMA, "run": {**run_header(0, FIDELITY), "finished": "now"}, "claims": claims}


def _figure_svg(title: str) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tvbo_verify.report.figures import to_svg

    def factory():
        fig, ax = plt.subplots(figsize=(4, 2.5))
        ax.plot([1, 2, 3], [3, 1, 2], marker="o")
        ax.set_title(title)
        return fig

    return to_svg(factory)


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    """A report folder: results.json, one real SVG figure per claim, the counterexample files, the pages."""
    out = tmp_path_factory.mktemp("report")
    (out / "figures").mkdir()
    (out / "counterexamples").mkdir()
    doc = synthetic_doc()
    for c in doc["claims"]:
        name = c["id"].replace(":", "_") + "-0.svg"
        (out / "figures" / name).write_text(_figure_svg(c["id"]), encoding="utf-8")
        c["figures"] = [{"title": f"figure of {c['id']}", "file": name}]
        if c["counterexample"]:
            counterexample_path(out, c["id"]).write_text(json.dumps(c["counterexample"]))
    doc["claims"] = [seal(c) for c in doc["claims"]]
    dump(doc, out / "results.json")
    load_results(out / "results.json")  # schema-valid
    assert sorted(write_pages(doc, [], out)) == ["bolt.html", "index.html", "sparq.html", "tvgpucb.html",
                                                 "wgpucb.html", "wsparq.html"]
    return out


def _between(html: str, start: str, end: str) -> str:
    i = html.index(start)
    return html[i:html.index(end, i)]


# -- the strength of the evidence -----------------------------------------------------------------
def test_strength_of_a_refereed_counterexample_and_of_a_short_rate():
    doc = synthetic_doc()
    by_id = {c["id"]: c for c in doc["claims"]}
    s = evidence_strength(by_id[ERRATUM])
    assert s.label == "50-digit counterexample" and not s.weak
    s = evidence_strength(by_id[RATE])
    assert s.label == "3 runs over 0.6 decades of T" and s.weak  # fewer than 5 runs, less than a decade
    assert evidence_strength(by_id[TRIALS]).label == "4/30 trials in the worst of 6 configurations; " \
                                                     "negative control failed"
    assert evidence_strength(by_id[PROPS]).label == "6 properties (1 undecided)"
    assert evidence_strength(by_id[CONFIRMED]).label == "8 properties"


def test_strength_names_missing_power_controls_that_held_and_unrefereed_breaks():
    doc = synthetic_doc()
    entry = {c["id"]: c for c in doc["claims"]}[RATE]
    long_rate = {**entry, "stats": {**entry["stats"], "n": 20, "decades": 2.0}}
    assert evidence_strength(long_rate).label == "20 runs over 2 decades of T" and not evidence_strength(long_rate).weak
    no_power = evidence_strength({**long_rate, "power": None})
    assert no_power.label.endswith("; no power") and no_power.weak
    held = evidence_strength({**long_rate, "controls": [{"name": "fixed arm", "verdict": "confirmed", "detail": ""}]})
    assert "negative control not failed (fixed arm)" in held.label and held.weak
    ce = {**entry["counterexample"]}
    unrefereed = {**entry, "kind": "exact", "counterexample": {"statement": "s", "instance": {}, "hp_margin": None}}
    assert evidence_strength(unrefereed).label == "float64 counterexample, not refereed"
    assert ce  # the record itself is untouched
    assert evidence_strength({"verdict": "error", "stats": {}}).label.startswith("no evidence")


# -- wording of comparisons --------------------------------------------------------------------------
def test_a_broken_comparison_reads_as_broken():
    from tvbo_verify.verify import Comparison
    from tvbo_verify.verify.comparison import comparison_text

    assert comparison_text(7.07, "<=", 5, broken=True) == "measured 7.07 > stated 5: breaks ≤"
    assert comparison_text(3, "<=", 5, broken=False) == "measured 3 ≤ stated 5: holds"
    assert comparison_text(2, ">=", 5, broken=True) == "measured 2 < stated 5: breaks ≥"
    assert comparison_text(73, "==", 3, broken=True) == "measured 73 ≠ stated 3: breaks ="
    assert comparison_text(5 + 1e-12, "<=", 5, broken=False).endswith("holds within the float tolerance")
    assert Comparison(7.07, 5.0).text() == "measured 7.07 > stated 5: breaks ≤"


def test_an_exact_violation_summary_never_reads_as_if_the_statement_held():
    import mpmath

    from tvbo_verify.execution import Executor
    from tvbo_verify.verify import Statement, exact_evidence
    from tvbo_verify.verify.comparison import Comparison
    from tvbo_verify.verify.engine import Context

    st = Statement(name="x <= 1", evaluate=lambda p, sharpened=False: Comparison(p["x"], 1.0),
                   sample=lambda rng: {"x": float(rng.uniform(0.0, 2.0))},
                   hp=lambda p: Comparison(mpmath.mpf(p["x"]), mpmath.mpf(1)), continuous=("x",),
                   bounds={"x": (0.0, 2.0)})
    with Executor() as ex:
        ev = exact_evidence(Context(ERRATUM, "quick", 0, ex), st, n_random=20)
    assert ev.verdict.value == "violated"
    m = re.search(r"measured ([\d.]+) (\S+) stated ([\d.]+): breaks ≤", ev.summary)
    assert m and float(m.group(1)) > float(m.group(3)) and m.group(2) == ">", ev.summary


# -- what fails and why --------------------------------------------------------------------------------
def test_the_page_leads_with_what_fails_and_why(page):
    html = (page / "index.html").read_text()
    first_h2 = re.search(r"<h2[^>]*>(.*?)</h2>", html).group(1)
    assert first_h2 == "What fails and why"
    headline = re.search(r'<p class="headline"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert ("1 claim does not pass (the report exits 1); 4 results contradict the papers&#39; reading; "
            "1 erratum established") in headline
    fails = _between(html, 'id="what-fails"', 'id="coverage-summary"')
    # the claim that makes the report exit 1 comes first, before the findings that pass
    assert fails.index('id="fails-rejected"') < fails.index('id="fails-contradicts"')
    assert UNEXPECTED in _between(fails, 'id="fails-rejected"', 'id="fails-contradicts"')
    contradicts = _between(fails, 'id="fails-contradicts"', 'id="fails-erratum"')
    for cid in (RATE, PROPS, EXACT_DISAGREE, TRIALS):
        assert cid in contradicts, cid
    assert "The printed &#39;simultaneously over all t &gt; 0&#39; fails." in contradicts  # from the claim list
    assert "Holds for power laws R = c + a n^p; fails on the rest of Definition 3.5&#39;s class." in contradicts
    erratum = fails[fails.index('id="fails-erratum"'):]
    assert ERRATUM in erratum and "measured 7.07107 &gt; stated 5: breaks ≤" in erratum
    assert "at n_centres = 7, t = 1" in erratum and "50-digit counterexample" in erratum
    assert CONFIRMED not in fails
    # the numbers and the strength of each row
    assert "4/30 runs (frequency 0.133, 95% CI 0.0376..0.307) against 1 − δ = 0.9" in contradicts
    assert "log–log slope 0.447 (95% CI 0.322..0.588) against the allowance 0.263" in contradicts
    assert '<span class="strength weak" title="strength of the evidence: weak">3 runs over 0.6 decades of T</span>' \
        in contradicts
    assert "measured 73 ≠ stated 3: breaks =" in contradicts
    assert "negative control failed" in contradicts and "6 properties (1 undecided)" in contradicts
    assert contradicts.count('class="formula"') >= 4  # each row shows its statement


def test_every_verdict_shows_its_evidence_and_figures_one_badge_per_property(page):
    html = (page / "index.html").read_text()
    sparq = _between(html, 'id="paper-sparq"', 'id="paper-tvgpucb"')
    row = re.search(r"<tr><td><a href=\"sparq.html#sparq_figure-1\">.*?</tr>", sparq, re.S).group(0)
    assert row.count('class="prop ') == 6 and row.count('class="prop inconclusive"') == 1
    assert 'class="badge inconclusive"' not in row  # not one badge for the figure
    assert "6 properties (1 undecided)" in row
    for cid in (ERRATUM, RATE, CONFIRMED, TRIALS):  # every verdict in the paper tables carries its strength
        link = re.escape(f"{cid.split(':')[0]}.html#{cid.replace(':', '_')}")
        cell = re.search(rf"<tr><td><a href=\"{link}\">.*?</tr>", html, re.S).group(0)
        assert 'class="strength' in cell, cid
    paper = (page / "sparq.html").read_text()
    assert paper.count('class="prop inconclusive"') >= 2  # in the paper's claim table and its section's summary
    details = paper[paper.index('<details class="claim" id="sparq_figure-1"'):]
    assert "6 properties: 1 inconclusive, 5 confirmed" in details[:details.index("</details>")]
    wgpucb = (page / "wgpucb.html").read_text()
    assert "Negative controls:" in wgpucb and "random policy" in wgpucb


def test_the_page_opens_at_once_figures_are_files_and_arrays_summaries(page):
    index = (page / "index.html").read_text()
    assert "<img" not in index and "<details class=\"claim\"" not in index  # claims in detail are on paper pages
    shown = sorted({c["paper"] for c in synthetic_doc()["claims"]})
    assert len(shown) == 5  # the synthetic results hold claims of each of this package's papers
    for paper in shown:
        assert f'href="{paper}.html"' in index
    pages = {p: (page / f"{p}.html").read_text() for p in shown}
    html = "".join([index, *pages.values()])
    n_svg = html.count("<svg")
    assert n_svg == html.count('<svg role="img" class="formula"') + 6  # formulas and each page's shared glyphs
    imgs = re.findall(r'<img loading="lazy" decoding="async" src="([^"]+)"[^>]*width="\d+" height="\d+"', html)
    assert len(imgs) == len(synthetic_doc()["claims"]) and all((page / s).is_file() for s in imgs)
    assert "25 numbers: 500 … 1940 (first 500, last 1940; every value in results.json)" in pages["wsparq"]
    assert "500, 560, 620" not in html.replace(".0", "")
    assert "details class=\"claim\" id=\"wsparq_theorem-3.3\" open" not in html  # sections folded: a short page
    figures = re.findall(r"<figcaption>(.*?)</figcaption>", pages["sparq"], re.S)
    assert any("SparQ-GP-UCB has the lowest final average regret." in f for f in figures)  # finding as caption


# -- in a browser ------------------------------------------------------------------------------------
CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)

PROBE = """<script>
(async () => {
  const imgs = [...document.images];
  imgs.forEach(i => { i.loading = "eager"; });
  await Promise.all(imgs.map(i => i.decode().catch(() => null)));
  imgs.forEach(i => i.setAttribute("data-natural-width", String(i.naturalWidth)));
  document.querySelectorAll("table.fails svg.formula, table.errata svg.formula").forEach(s => {
    s.setAttribute("data-scale", (s.getBoundingClientRect().width / s.width.baseVal.value).toFixed(3));
  });
  document.body.setAttribute("data-probed", "1");
})();
</script></body>"""


def _chromium(*args: str, profile: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
         f"--user-data-dir={profile}", *args], capture_output=True, text=True, timeout=180)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed")
def test_in_a_browser_the_first_screen_lists_every_failure_and_each_paper_shows_a_figure(page, tmp_path):
    doc = load_results(page / "results.json")
    expected = [c for c in doc["claims"] if not c["matches"] or c["verdict"] == "violated"]
    papers = sorted({c["paper"] for c in doc["claims"]})
    doms = {}
    shot = tmp_path / "first-screen.png"
    with tempfile.TemporaryDirectory() as profile:
        for name in ("index", *papers):
            probe = page / f"probe-{name}.html"  # beside the page, so that the figure files resolve
            probe.write_text((page / f"{name}.html").read_text().replace("</body>", PROBE, 1))
            dom = _chromium("--virtual-time-budget=10000", "--dump-dom", probe.resolve().as_uri(), profile=profile)
            assert dom.returncode == 0, dom.stderr[-2000:]
            doms[name] = dom.stdout
            assert 'data-probed="1"' in dom.stdout, f"the probe script did not finish on {name}"
        first = _chromium(f"--screenshot={shot}", "--window-size=1280,900", (page / "index.html").resolve().as_uri(),
                          profile=profile)
    assert first.returncode == 0, first.stderr[-2000:]
    html = doms["index"]
    fails = _between(html, 'id="what-fails"', 'id="coverage-summary"')
    for c in expected:  # every disagreement and erratum, with its reason and the strength of its evidence
        row = re.search(rf'<tr id="fail-{re.escape(c["id"].replace(":", "_"))}".*?</tr>', fails, re.S)
        assert row, c["id"]
        reason = re.search(r'<td class="reason">(.*?)<', row.group(0), re.S).group(1).strip()
        assert len(reason) > 20, (c["id"], reason)
        assert re.search(r'class="strength[^"]*"[^>]*>[^<]+</span>', row.group(0)), c["id"]
    for paper in papers:  # one figure of each paper loads on its page
        widths = [int(w) for w in re.findall(r'<img[^>]*data-natural-width="(\d+)"', doms[paper])]
        assert widths and max(widths) > 0, f"no figure of {paper} loaded: {widths}"
    scales = [float(s) for s in re.findall(r'data-scale="([\d.]+)"', html)]
    assert scales and min(scales) >= 0.99, scales  # formulas in the tables keep their size (they scroll instead)
    import matplotlib.image

    img = matplotlib.image.imread(str(shot))[..., :3]
    red = (img[..., 0] > 0.95) & (img[..., 1] < 0.95) & (img[..., 1] > 0.85)  # the headline's pale red band
    assert red.sum() > 5000, "the headline is not on the first screen"


# -- the ladders behind run-based verdicts ------------------------------------------------------------
def test_each_paper_states_the_ladder_of_its_rates_and_the_sweeps_of_its_experiments_per_fidelity(page):
    wsparq = (page / "wsparq.html").read_text()
    table = _between(wsparq, 'id="ladders-wsparq"', 'id="figures-wsparq"')
    row = re.search(r"<tr><td><a href=\"#wsparq_theorem-3.3\">.*?</tr>", table, re.S).group(0)
    assert "T = 500, 560, …, 1940 (25)" in row and "3 runs" in row and "0.6" in row
    assert "no misreading recorded" in row  # the synthetic record names none: never claimed as separated
    for fidelity in ("quick", "full"):  # the experiment's sweeps, declared per fidelity
        assert re.search(rf"<tr><td>wsparq:figure-2</td><td>{fidelity}</td><td>(\d+)</td>", table)
    quick = re.search(r"<tr><td>wsparq:figure-2</td><td>quick</td><td>(\d+)</td>", table).group(1)
    full = re.search(r"<tr><td>wsparq:figure-2</td><td>full</td><td>(\d+)</td>", table).group(1)
    assert int(full) > int(quick)
