"""Atomic file writes: a reader never sees a half-written file, an interrupted run leaves none.

The content goes to a temporary file in the target's folder and is moved into place with
:func:`os.replace`. The file gets the permissions of a normally created one (``0666 & ~umask``;
``mkstemp`` alone would make it ``0600``).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO, Callable


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: str | Path, content: bytes | str | Callable[[IO], None], *, binary: bool | None = None) -> None:
    """Write ``content`` (bytes, text, or a function writing to an open file) to ``path`` atomically."""
    path = Path(path)
    if binary is None:
        binary = not isinstance(content, str)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8"})) as fh:
            if callable(content):
                content(fh)
            else:
                fh.write(content)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
