"""An installed paper plugin seen from outside, in fresh processes: a repository with no conftest runs its
claims with ``pytest --tvbo-paper`` (or ``-m``) and writes its report with ``tvbo-verify report --paper``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .demo import PACKAGE, PAPER_ID, install_demo, subprocess_env


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The demo plugin installed (package and metadata on PYTHONPATH) and an empty repository to run in."""
    root = tmp_path_factory.mktemp("site")
    install_demo(root)
    repo = tmp_path_factory.mktemp("repo")
    return root, repo, subprocess_env(root)


def pytest_in(repo: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    cache = repo.parent / f"{repo.name}-cache"
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--claim-executor", "serial",
                           f"--claim-cache={cache}", *args], cwd=repo, env=env, capture_output=True, text=True,
                          timeout=600)


def test_pytest_runs_an_installed_papers_claims_in_a_repository_without_conftest(installed):
    _, repo, env = installed
    by_option = pytest_in(repo, env, "--tvbo-paper", PAPER_ID, "-v")
    assert by_option.returncode == 0, by_option.stdout[-3000:]
    assert "3 passed" in by_option.stdout and "tvbo-verify::demo2024:fixed-arm-rate PASSED" in by_option.stdout
    by_marker = pytest_in(repo, env, "--strict-markers", "-m", f"{PAPER_ID} and exact")
    assert by_marker.returncode == 0 and "2 passed, 1 deselected" in by_marker.stdout, by_marker.stdout[-3000:]


def test_an_unrelated_pytest_run_collects_no_claim_and_a_mistyped_paper_is_a_usage_error(installed):
    _, repo, env = installed
    nothing = pytest_in(repo, env)
    assert nothing.returncode == 5, nothing.stdout[-2000:]  # no tests collected: no claim leaks in uninvited
    typo = pytest_in(repo, env, "--tvbo-paper", "demo2025")
    assert typo.returncode == 4 and "--tvbo-paper: paper must be one of" in typo.stderr and "demo2024" in typo.stderr


def test_a_verdict_that_contradicts_the_claim_list_fails_its_item_with_the_reason(tmp_path):
    changed = tmp_path / "site"
    install_demo(changed)
    csv = changed / PACKAGE / "claims.csv"
    csv.write_text(csv.read_text().replace("demo2024:square,demo2024,Eq. (1),exact,holds",
                                           "demo2024:square,demo2024,Eq. (1),exact,fails-as-printed"))
    repo = tmp_path / "repo"
    repo.mkdir()
    run = pytest_in(repo, subprocess_env(changed), "--tvbo-paper", PAPER_ID, "-k", "square")
    assert run.returncode == 1 and "1 failed, 1 passed" in run.stdout, run.stdout[-3000:]
    assert "demo2024:square: verdict confirmed, expected fails-as-printed: verdict confirmed at quick fidelity is " \
           "neither the expectation" in run.stdout


def test_tvbo_verify_report_and_papers_see_the_installed_paper(installed, tmp_path):
    _, _, env = installed
    out = tmp_path / "report"
    cmd = [sys.executable, "-c", "from tvbo_verify.cli import main; main()"]
    shown = subprocess.run([*cmd, "papers"], env=env, capture_output=True, text=True, timeout=300)
    assert shown.returncode == 0, shown.stderr
    assert re.search(rf"^{PAPER_ID} +3/3 claims implemented, 1 reproductions; from demo-plugin 1.0$", shown.stdout,
                     re.M)
    report = subprocess.run([*cmd, "report", "--paper", PAPER_ID, "--out", str(out), "--executor", "serial",
                             "--cache", str(tmp_path / "cache")], env=env, capture_output=True, text=True, timeout=600)
    assert report.returncode == 0, report.stdout[-3000:] + report.stderr[-3000:]
    verdicts = {c["id"]: c["verdict"] for c in json.loads((out / "results.json").read_text())["claims"]}
    assert verdicts == {"demo2024:square": "confirmed", "demo2024:square-wide": "violated",
                        "demo2024:fixed-arm-rate": "violated"}
    page = (out / "demo2024.html").read_text()
    assert "Claims and checks contributed by the installed package demo-plugin 1.0." in page


def test_time_limit_is_accepted_and_honoured_outside_the_repository(installed):
    _, repo, env = installed
    generous = pytest_in(repo, env, "--tvbo-paper", PAPER_ID, "-k", "square", "--time-limit", "600")
    assert generous.returncode == 0 and "2 passed" in generous.stdout, generous.stdout[-2000:] + generous.stderr
    tight = pytest_in(repo, env, "--tvbo-paper", PAPER_ID, "-k", "square", "--time-limit", "0.001")
    assert tight.returncode == 1 and "ran past its time limit of 0.001 s" in tight.stdout, tight.stdout[-2000:]


def test_claim_cache_with_a_space_is_refused_when_pytest_read_the_wrong_configuration(installed, tmp_path):
    root, _, env = installed
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "pyproject.toml").write_text(f'[tool.pytest.ini_options]\naddopts = "-ra --tvbo-paper {PAPER_ID}"\n')
    cache = tmp_path / "elsewhere" / "cache"
    cache.mkdir(parents=True)

    def collect(*args):
        return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q",
                               *args], cwd=repo, env=env, capture_output=True, text=True, timeout=600)

    spaced = collect("--claim-cache", str(cache))  # pytest looked for its configuration from the cache folder
    assert spaced.returncode == 4, spaced.stdout[-2000:] + spaced.stderr[-2000:]
    assert f"write --claim-cache={cache}" in spaced.stderr and str(repo / "pyproject.toml") in spaced.stderr
    joined = collect(f"--claim-cache={cache}")
    assert joined.returncode == 0 and "3 tests collected" in joined.stdout, joined.stdout[-2000:]
    inside = repo / "cache"
    inside.mkdir()
    assert collect("--claim-cache", str(inside)).returncode == 0  # the same configuration either way: accepted
