"""docs/plugins.md is true: the package it writes, file by file, installs as a plugin whose claims pass
``pytest`` and get the verdicts its claim list expects in ``tvbo-verify report``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

TUTORIAL = Path(__file__).resolve().parents[2] / "docs" / "plugins.md"
FILE = re.compile(r"\*\*`my-paper/([^`]+)`\*\*\n\n```[a-z]*\n(.*?)```", re.S)
FILES = {"pyproject.toml", "my_paper/__init__.py", "my_paper/paper.py", "my_paper/claims.csv",
         "my_paper/READING.md", "my_paper/formulas.csv", "my_paper/bandits.py", "my_paper/checks/__init__.py",
         "my_paper/checks/lemmas.py", "my_paper/checks/regret.py"}


def test_the_tutorial_gives_every_file_of_its_package():
    assert set(dict(FILE.findall(TUTORIAL.read_text(encoding="utf-8")))) == FILES


def test_the_package_of_the_tutorial_passes_its_pytest_and_its_report(tmp_path):
    from .demo import subprocess_env, write_dist_info

    package = tmp_path / "my-paper"
    for name, text in FILE.findall(TUTORIAL.read_text(encoding="utf-8")):
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text, encoding="utf-8")
    project = tomllib.loads((package / "pyproject.toml").read_text())["project"]
    write_dist_info(tmp_path / "site", project["name"], project["version"], project["entry-points"])
    env = subprocess_env(tmp_path / "site", package)
    cache = tmp_path / "cache"
    tests = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--claim-executor", "serial",
                            f"--claim-cache={cache}"], cwd=package, env=env, capture_output=True, text=True,
                           timeout=900)
    assert tests.returncode == 0 and "3 passed" in tests.stdout, tests.stdout[-4000:] + tests.stderr[-2000:]
    report = subprocess.run([sys.executable, "-c", "from tvbo_verify.cli import main; main()", "report", "--paper",
                             "mypaper2025", "--out", str(tmp_path / "report"), "--executor", "serial", "--cache",
                             str(cache)], cwd=package, env=env, capture_output=True, text=True, timeout=900)
    assert report.returncode == 0, report.stdout[-3000:] + report.stderr[-3000:]
    doc = json.loads((tmp_path / "report" / "results.json").read_text())
    assert {c["id"]: c["verdict"] for c in doc["claims"]} == {
        "mypaper2025:lemma-2": "confirmed", "mypaper2025:eq-7": "violated", "mypaper2025:theorem-1": "confirmed"}
