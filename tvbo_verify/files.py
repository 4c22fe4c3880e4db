"""Atomic file writes that respect the umask, and output folders checked before any work.

A file is written to a temporary name in its target folder and moved into place with
:func:`os.replace`, so a reader never sees a half-written file and an interrupted program leaves
either the old file or the new one. :func:`tempfile.mkstemp` creates its file with mode ``0600``;
the file is given the mode a plain ``open(path, "w")`` would give it (``0666`` less the umask)
before it is moved into place.

:func:`writable_folder` creates an output folder and proves it writable, so that a read-only file
system or a path under an existing file is one clear ``ValueError`` before a command starts;
:func:`removed_if_empty_on_error` takes back folders a failed command created and left empty.

:func:`exclusive_lock` keeps a second writer out of an output while the first one writes it: a lock file
held with a POSIX record lock (:func:`fcntl.lockf`), which the kernel releases when its process ends,
however it ends (a crash or ``kill -9`` leaves no lock that blocks), and which the worker processes a
command forks do not inherit (a worker left running by a killed parent holds nothing).
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Callable, Iterator


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


def writable_folder(path: str | os.PathLike[str], *, role: str = "output folder") -> Path:
    """Create the folder ``path`` (and its parents) and prove that a file can be written in it.

    Parameters
    ----------
    path
        The folder.
    role
        What the folder is for, as the error message names it (``"--out folder"``).

    Returns
    -------
    Path
        ``path`` as a :class:`~pathlib.Path`.

    Raises
    ------
    ValueError
        One line naming the folder and the reason: a read-only file system, no permission, or a part
        of the path that is a file.
    """
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{role} {folder} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".probe")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if isinstance(exc, (NotADirectoryError, FileExistsError)):
            reason = f"{reason} (a part of the path is a file)"
        raise ValueError(f"{role} {folder} is not writable: {reason}") from None
    return folder


@contextmanager
def removed_if_empty_on_error(*folders: str | os.PathLike[str]) -> Iterator[None]:
    """On an exception (including ``KeyboardInterrupt``) inside the block, remove those of ``folders``
    and of their parents that did not exist when the block was entered and are still empty, deepest
    first; then re-raise.

    A command that fails before writing anything then leaves no empty folders behind.
    """
    created: set[Path] = set()
    for folder in folders:
        path = Path(folder).absolute()
        while not os.path.lexists(path) and path != path.parent:
            created.add(path)
            path = path.parent
    try:
        yield
    except BaseException:
        for folder in sorted(created, key=lambda p: len(p.parts), reverse=True):
            try:
                folder.rmdir()  # refuses a folder that is not empty
            except OSError:
                pass
        raise


#: name of the lock file inside a locked output folder (:func:`folder_lock`)
LOCK_NAME = ".tvbo-verify.lock"

_HELD: set[str] = set()
"""Real paths of the lock files this process holds: record locks do not exclude the process that holds them,
and closing any descriptor of a locked file would release its lock, so this process never opens them twice."""


def _try_lock(fd: int) -> bool:
    """Take the exclusive lock of the open file ``fd`` without waiting; False when another process holds it."""
    if sys.platform == "win32":  # pragma: no cover - no fcntl on Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # EAGAIN or EACCES: held by another process
        return False
    return True


def _holder(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        text = ""
    return text or "another process"


@contextmanager
def exclusive_lock(path: str | os.PathLike[str], *, what: str, instead: str = "another folder") -> Iterator[Path]:
    """Hold the lock file ``path`` for the block; a second holder, in this process or another, is refused.

    The file records who holds it (process id, command line, start time) for the message another writer
    gets, and is removed when the block ends. A lock of a process that has ended never blocks: the kernel
    released it with the process.

    Parameters
    ----------
    path
        The lock file (its folder must exist).
    what
        What the lock protects, as the refusal names it (``"--out folder reports/latest"``).
    instead
        What the refusal suggests to write to instead.

    Raises
    ------
    ValueError
        One line: ``what`` is being written by the process named in the lock file.
    """
    lock = Path(path)
    key = os.path.realpath(lock)
    busy = f"{what} is being written by {{}}; wait until it has ended or use {instead}"
    if key in _HELD:
        raise ValueError(busy.format(f"this process (pid {os.getpid()}) already"))
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            raise ValueError(f"{what} cannot be locked: cannot create {lock}: {exc.strerror or exc}") from None
        if not _try_lock(fd):
            os.close(fd)
            raise ValueError(busy.format(f"another tvbo-verify process ({_holder(lock)})"))
        try:  # the previous holder may have removed the file between our open and our lock: lock the new one
            if os.path.samestat(os.fstat(fd), os.stat(lock)):
                break
        except FileNotFoundError:
            pass
        os.close(fd)
    _HELD.add(key)
    try:
        os.ftruncate(fd, 0)
        command = " ".join(["tvbo-verify", *sys.argv[1:]]) if sys.argv else "tvbo-verify"
        os.write(fd, f"pid {os.getpid()}, {command[:200]}, since {time.strftime('%Y-%m-%d %H:%M:%S')}\n"
                 .encode("utf-8", "replace"))
        yield lock
    finally:
        _HELD.discard(key)
        try:
            os.unlink(lock)  # while still locked: a writer waiting on this file sees it gone and retries
        except OSError:
            pass
        os.close(fd)


@contextmanager
def folder_lock(folder: str | os.PathLike[str], *, role: str = "output folder") -> Iterator[Path]:
    """:func:`exclusive_lock` of the output folder ``folder`` (which must exist): its file :data:`LOCK_NAME`."""
    with exclusive_lock(Path(folder) / LOCK_NAME, what=f"{role} {folder}") as lock:
        yield lock
