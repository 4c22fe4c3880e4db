"""Atomic file writes that respect the umask.

A file is written to a temporary name in its target folder and moved into place with
:func:`os.replace`, so a reader never sees a half-written file and an interrupted program leaves
either the old file or the new one. :func:`tempfile.mkstemp` creates its file with mode ``0600``;
the file is given the mode a plain ``open(path, "w")`` would give it (``0666`` less the umask)
before it is moved into place.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import IO, Any, Callable


def current_umask() -> int:
    """The process umask (read by setting it and restoring it at once)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: str | os.PathLike[str], write: Callable[[IO[Any]], Any], *, mode: str = "wb") -> Path:
    """Call ``write(fh)`` on a temporary file next to ``path``, then move it to ``path``.

    The temporary file is removed if ``write`` raises (including ``KeyboardInterrupt``).
    Returns ``path`` as a :class:`~pathlib.Path`.
    """
    target = Path(path)
    directory = target.resolve().parent
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, mode) as fh:
            write(fh)
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return target


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    return atomic_write(path, lambda fh: fh.write(text.encode("utf-8")))


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically."""
    return atomic_write(path, lambda fh: fh.write(data))


def safe_name(identifier: str) -> str:
    """A file name for a claim or reproduction id (``wsparq:l-star+corrected`` -> ``wsparq_l-star+corrected``)."""
    return re.sub(r"[^A-Za-z0-9.+-]", "_", identifier)
