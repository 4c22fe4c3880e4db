"""The example plugin of ``examples/classic_controls`` (known results of the classical literature and one
deliberately false statement): every claim gets the verdict its claim list expects, by the pass rule, and
a copy of the package, installed, passes its own ``pytest`` (its tests and its claims)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib

import pytest

from tvbo_verify.sweeps import RunCache
from tvbo_verify.verify import registry, run_claim
from tvbo_verify.verify.claimlist import claim_row, paper_rows
from tvbo_verify.verify.passing import judge_evidence

from .conftest import EXAMPLE
from .demo import subprocess_env, write_dist_info

EXPECTED = {"srinivas2010:lemma-5.4": "confirmed", "srinivas2010:lemma-5.4-constant-dropped": "violated",
            "lattimore2020:etc-rate": "confirmed"}


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("example-cache")


def test_the_example_has_three_claims_of_three_kinds_all_implemented(example_papers):
    rows = [r for p in example_papers for r in paper_rows(p.id)]
    assert {r.id for r in rows} == set(EXPECTED)
    assert {(r.kind, r.expect) for r in rows} == {("exact", "holds"), ("exact", "control"), ("rate", "holds")}
    assert all(registry.get(r.id) is not None for r in rows)


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_each_claim_of_the_example_gets_its_expected_verdict_by_the_pass_rule(example_papers, claim_id, cache):
    ev = run_claim(claim_id, cache=RunCache(cache))
    assert ev.verdict.value == EXPECTED[claim_id], ev.summary
    judgement = judge_evidence(claim_row(claim_id), ev, "quick")
    assert judgement.accepted, judgement.reason
    if claim_id == "lattimore2020:etc-rate":  # the negative control must break the rate the policy keeps
        assert [c.verdict.value for c in ev.controls] == ["violated"] and ev.stats["resolution"] < 1 / 6


def test_an_installed_copy_of_the_example_passes_its_own_pytest(tmp_path, cache):
    copy = tmp_path / "classic_controls"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    project = tomllib.loads((copy / "pyproject.toml").read_text())["project"]
    site = tmp_path / "site"
    write_dist_info(site, project["name"], project["version"], project["entry-points"])
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--claim-executor", "serial",
                           f"--claim-cache={cache}"], cwd=copy, env=subprocess_env(site, copy), capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "6 passed" in done.stdout  # its three tests and its three claims
