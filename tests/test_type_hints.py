"""Every public function and method of the package states the types of its parameters and its result."""

from __future__ import annotations

import ast
from pathlib import Path

import tvbo_verify

ROOT = Path(tvbo_verify.__file__).parent


def _public_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    found: list[ast.FunctionDef] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            found.append(node)
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            found += [f for f in node.body if isinstance(f, ast.FunctionDef)
                      and (not f.name.startswith("_") or f.name == "__init__")]
    return found


def test_every_public_function_is_annotated():
    missing = []
    for path in sorted(ROOT.rglob("*.py")):
        for f in _public_functions(ast.parse(path.read_text(encoding="utf-8"))):
            named = (*f.args.posonlyargs, *f.args.args, *f.args.kwonlyargs)
            params = [a for a in named if a.arg not in ("self", "cls")]
            params += [a for a in (f.args.vararg, f.args.kwarg) if a is not None]
            if any(a.annotation is None for a in params) or (f.returns is None and f.name != "__init__"):
                missing.append(f"{path.relative_to(ROOT.parent)}:{f.lineno} {f.name}")
    assert not missing, "not annotated:\n" + "\n".join(missing)
