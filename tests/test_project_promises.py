"""README and CI promises: two set-up commands, and CI runs the README's test command verbatim."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _setup_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```(?:bash|sh)?\n(.*?)```", section, flags=re.S)]


def test_readme_has_exactly_two_setup_commands():
    commands = _setup_commands()
    assert len(commands) == 2, commands
    assert commands[0].startswith("pip install -e . && tvbo-verify ")
    assert commands[1] == "pip install -e '.[test]' && pytest"


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert _setup_commands()[1] in ci
    assert "-eq 5" in ci  # "no tests collected" must fail CI


def test_ci_lints_with_ruff_before_the_tests():
    ci = (ROOT / ".ci" / "run").read_text()
    lint = ci.index("ruff check tvbo_verify tests checks benchmarks")
    assert lint < ci.index(_setup_commands()[1])
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    assert any(req.startswith("ruff") for req in extras)
