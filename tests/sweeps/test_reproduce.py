"""``tvbo-verify reproduce`` and the reproduction registry."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tvbo_verify.cli.main import main
from tvbo_verify.sweeps import RunCache
from tvbo_verify.sweeps.reproduce import get_reproduction, reproductions, run_reproduction


def invoke(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_list_names_every_reproduction_with_its_expected_finding():
    res = invoke("reproduce", "--list", "--json")
    assert res.exit_code == 0
    items = json.loads(res.output)
    assert {i["id"] for i in items} == {r.id for r in reproductions()}
    assert all(i["expected"] and i["setup"] and i["runs_quick"] > 0 for i in items)


def test_unknown_id_is_one_line_with_the_closest_ids_and_exit_2():
    res = CliRunner().invoke(main, ["reproduce", "tvgpucb:figure2ab"])
    assert res.exit_code == 2
    assert "closest: tvgpucb:figure-2ab" in res.output and "Traceback" not in res.output


def test_a_reproduction_writes_figure_and_finding_and_reuses_the_cache(tmp_path):
    cache_dir = tmp_path / "cache"
    out = tmp_path / "out"
    first = run_reproduction("tvgpucb:figure-2ab", out, cache=RunCache(cache_dir))
    record = json.loads((out / "tvgpucb_figure-2ab.json").read_text())
    assert record["finding"] == first.finding.text and record["fidelity"] == "quick"
    assert (out / "tvgpucb_figure-2ab.png").stat().st_size > 0
    assert (out / "tvgpucb_figure-2ab.svg").read_text().lstrip().startswith("<?xml")
    # R-GP-UCB's block-rule constant is tuned on training seeds in every panel; the training runs are cached too
    tuned = record["tuning"]["the paper's setting"]["SE, ε = 0.01"]["R-GP-UCB"]
    assert tuned["candidates"] == [["0.5"], ["1"], ["2"]] and tuned["chosen"] in tuned["candidates"]
    cache = RunCache(cache_dir)
    again = run_reproduction(get_reproduction("tvgpucb:figure-2ab"), out, cache=cache)
    assert cache.stats.misses == 0 and again.finding.data == first.finding.data
