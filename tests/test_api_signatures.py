"""The signatures of the authoring API are pinned: a plugin written against them keeps working.

``tests/api_signatures.json`` holds ``inspect.signature`` of every callable that ``tvbo_verify.authoring``
exports and of the public methods of its classes. A test below fails when one of them changes or disappears.

To change a signature: keep the old spelling working (a renamed parameter still accepted under its old name
with a ``DeprecationWarning``, as ``RateMeasurement.from_sweep(name=...)`` is for ``array=``; a new parameter
with a default; a removed name kept as an alias), test the old spelling, then update the pin with
``python tests/test_api_signatures.py --update`` and say in the commit what changed. A method or parameter
added to the API is pinned by the same command (new names do not fail the test; changed ones do).
"""

from __future__ import annotations

import inspect
import json
import re
import sys
from pathlib import Path
from typing import Any

PIN = Path(__file__).with_name("api_signatures.json")
#: the address in the repr of a default that is a function (``<function f at 0x7f...>``): another in every process
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")


def _signature(obj: Any) -> str:
    return ADDRESS.sub(">", str(inspect.signature(obj)))


def _methods(cls: type) -> dict[str, Any]:
    out = {}
    for name, raw in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(raw, (staticmethod, classmethod)):
            raw = raw.__func__
        if inspect.isfunction(raw):
            out[name] = raw
    return out


def signatures() -> dict[str, str]:
    """``name`` or ``Class.method`` → its signature, for every callable of ``tvbo_verify.authoring.__all__``."""
    import tvbo_verify.authoring as authoring

    out: dict[str, str] = {}
    for name in authoring.__all__:
        obj = getattr(authoring, name)
        if inspect.isclass(obj):
            try:
                out[name] = _signature(obj)
            except (TypeError, ValueError):
                out[name] = "<no signature>"
            for method, func in _methods(obj).items():
                out[f"{name}.{method}"] = _signature(func)
        elif callable(obj) and not hasattr(obj, "__origin__"):
            out[name] = _signature(obj)
    return dict(sorted(out.items()))


def test_every_pinned_signature_of_the_authoring_api_is_unchanged():
    pinned = json.loads(PIN.read_text(encoding="utf-8"))
    now = signatures()
    gone = sorted(set(pinned) - set(now))
    changed = {n: {"pinned": pinned[n], "now": now[n]} for n in pinned if n in now and now[n] != pinned[n]}
    assert not gone and not changed, (
        "the authoring API changed: keep the old spelling working with a DeprecationWarning, test it, then run "
        f"`python tests/test_api_signatures.py --update` (module docstring).\nremoved: {gone}\n"
        f"changed: {json.dumps(changed, indent=1, ensure_ascii=False)}")


def test_every_exported_callable_is_pinned():
    import tvbo_verify.authoring as authoring

    pinned = json.loads(PIN.read_text(encoding="utf-8"))
    unpinned = sorted(n for n in authoring.__all__ if n in signatures() and n not in pinned)
    assert not unpinned, f"exported but not pinned: {unpinned}; run `python tests/test_api_signatures.py --update`"


def test_the_renamed_parameter_of_from_sweep_keeps_its_old_spelling():
    import tvbo_verify.authoring as authoring

    parameters = inspect.signature(authoring.RateMeasurement.from_sweep).parameters
    assert parameters["array"].default == "cumulative" and parameters["name"].default is None


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/test_api_signatures.py --update")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    PIN.write_text(json.dumps(signatures(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {PIN}")
