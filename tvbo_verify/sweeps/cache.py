"""The content-addressed run cache: one ``.npz`` per run, written atomically, checked on every read.

Location: ``--cache DIR``, else ``$TVBO_VERIFY_CACHE``, else ``$XDG_CACHE_HOME/tvbo_verify`` (default
``~/.cache/tvbo_verify``); runs live in ``runs/<key[:2]>/<key>.npz``. The environment variable only sets
the default location of ``RunCache()``: a cache reaches the code that uses it as an argument (the claim
checks: ``Context.cache``). Each entry holds the trace's
arrays, its metadata as JSON and a SHA-256 checksum over both; an entry that cannot be read or whose
checksum disagrees is corrupt: it is deleted, counted and recomputed, never trusted.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..bandits.runner import Trace
from ..files import atomic_write_bytes, writable_folder
from ..jsonify import dumps

ENV_VAR = "TVBO_VERIFY_CACHE"


def default_cache_dir() -> Path:
    """``$TVBO_VERIFY_CACHE``, else ``$XDG_CACHE_HOME/tvbo_verify``, else ``~/.cache/tvbo_verify``."""
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tvbo_verify"


def _checksum(arrays: dict[str, np.ndarray], meta: str) -> str:
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(name.encode())
        h.update(str(a.dtype).encode())
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    h.update(meta.encode("utf-8"))
    return h.hexdigest()


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0
    corrupt: int = 0
    written: int = 0


class RunCache:
    """Traces of runs by run key, on disk: a sweep, a check and a figure that need the same run share it.

    The key hashes everything that determines a run, including the source of the code that produces it, so
    editing a policy reruns exactly its runs.

    Parameters
    ----------
    directory : str, Path or None
        The cache folder; ``"default"``: ``$TVBO_VERIFY_CACHE``, else the user's cache folder; None: a cache
        that stores nothing and always misses (``--no-cache``).

    Examples
    --------
    >>> from tvbo_verify.authoring import RunCache
    >>> RunCache(None).enabled
    False
    """

    def __init__(self, directory: str | Path | None = "default") -> None:
        if directory == "default":
            directory = default_cache_dir()
        self.directory = None if directory is None else Path(directory).expanduser()
        self.stats = CacheStats()
        self._checked = False

    @property
    def enabled(self) -> bool:
        return self.directory is not None

    def path(self, key: str) -> Path:
        assert self.directory is not None
        return self.directory / "runs" / key[:2] / f"{key}.npz"

    def _unwritable(self, exc: OSError) -> ValueError:
        return ValueError(f"cache directory {self.directory} is not writable ({exc.strerror or exc}); "
                          f"set {ENV_VAR} or pass --cache DIR (or --no-cache)")

    def _ensure_writable(self, folder: Path) -> None:
        try:
            writable_folder(folder, role="cache directory")
        except ValueError as exc:
            raise ValueError(f"{exc}; set {ENV_VAR} or pass --cache DIR (or --no-cache)") from None

    def check_writable(self) -> None:
        """Fail early, with one clear line, when the cache cannot be written."""
        if self.directory is not None and not self._checked:
            self._ensure_writable(self.directory / "runs")
            self._checked = True

    def get(self, key: str) -> Trace | None:
        if self.directory is None:
            self.stats.misses += 1
            return None
        path = self.path(key)
        if not path.exists():
            self.stats.misses += 1
            return None
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = str(data["__meta__"])
                stored = str(data["__checksum__"])
                trace = Trace.from_arrays(data, json.loads(meta))
            if stored != _checksum(trace.arrays(), meta):
                raise ValueError("checksum mismatch")
        except Exception:  # any unreadable or inconsistent entry is recomputed, never trusted
            self.stats.corrupt += 1
            self.stats.misses += 1
            try:
                path.unlink()
            except OSError:
                pass
            return None
        self.stats.hits += 1
        return trace

    def put(self, key: str, trace: Trace) -> None:
        if self.directory is None:
            return
        path = self.path(key)
        arrays = trace.arrays()
        meta = dumps(trace.meta, sort_keys=True)
        buf = io.BytesIO()
        np.savez(buf, __meta__=np.array(meta), __checksum__=np.array(_checksum(arrays, meta)), **arrays)
        try:  # the write itself tells whether the folder is writable: no probe file per run
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(path, buf.getvalue())
        except OSError as exc:
            raise self._unwritable(exc) from None
        self.stats.written += 1

    def describe(self) -> dict[str, Any]:
        return {"directory": str(self.directory) if self.directory else None, **self.stats.__dict__}


def cache_from_options(directory: str | Path | None, disabled: bool) -> RunCache:
    """The run cache a command's ``--cache DIR`` / ``--no-cache`` options ask for: none when ``disabled``,
    else ``directory``, else the default location; proved writable (one clear line otherwise)."""
    if disabled:
        return RunCache(None)
    cache = RunCache(directory) if directory is not None else RunCache()
    cache.check_writable()
    return cache
