"""Output folders: checked before any work, and taken back when a command fails before writing into them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tvbo_verify.files import LOCK_NAME, atomic_write_text, folder_lock, removed_if_empty_on_error, writable_folder


def test_writable_folder_creates_the_path_and_names_a_file_in_the_way(tmp_path):
    assert writable_folder(tmp_path / "a" / "b").is_dir()
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ValueError, match=rf"output folder {blocker} is a file, not a folder"):
        writable_folder(blocker)
    with pytest.raises(ValueError, match=r"is not writable: .*a part of the path is a file"):
        writable_folder(blocker / "sub", role="--out folder")
    assert not [p for p in tmp_path.rglob(".probe*")]


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root ignores folder permissions")
def test_writable_folder_refuses_a_read_only_folder(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    try:
        with pytest.raises(ValueError, match=rf"{locked} is not writable"):
            writable_folder(locked)
    finally:
        locked.chmod(0o700)


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_folders_a_failed_block_created_and_left_empty_are_removed(tmp_path, error):
    existing = tmp_path / "existing"
    existing.mkdir()
    new = tmp_path / "new" / "deeper"
    kept = tmp_path / "kept"
    with pytest.raises(error):
        with removed_if_empty_on_error(existing, new, kept):
            for folder in (new, kept):
                folder.mkdir(parents=True)
            atomic_write_text(kept / "results.json", "{}")
            raise error
    assert existing.is_dir()  # was there before
    assert not (tmp_path / "new").exists()  # created (with its parent) and left empty
    assert (kept / "results.json").exists()  # holds what was finished


def test_folders_stay_when_the_block_succeeds(tmp_path):
    with removed_if_empty_on_error(tmp_path / "out"):
        (tmp_path / "out").mkdir()
    assert (tmp_path / "out").is_dir()


# -- one writer per output -----------------------------------------------------------------------------------
HOLDER = """
import multiprocessing, sys, time
from tvbo_verify.files import folder_lock

def worker():
    time.sleep(120)

if __name__ == "__main__":
    with folder_lock(sys.argv[1], role="--out folder"):
        if sys.argv[2] == "fork":  # a worker forked while the lock is held, as a process pool's are
            multiprocessing.get_context("fork").Process(target=worker, daemon=False).start()
        print("locked", flush=True)
        time.sleep(120)
"""


def _holder(tmp_path, folder, mode="plain"):
    script = tmp_path / "holder.py"
    script.write_text(HOLDER)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, str(script), str(folder), mode], stdout=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    assert proc.stdout.readline().strip() == "locked"
    return proc


@pytest.mark.parametrize("mode", ["plain", "fork"])
def test_a_folder_lock_refuses_a_second_writer_and_dies_with_its_process(tmp_path, mode):
    folder = tmp_path / "out"
    folder.mkdir()
    proc = _holder(tmp_path, folder, mode)
    try:
        with pytest.raises(ValueError, match=rf"--out folder {folder} is being written by another tvbo-verify "
                                             rf"process \(pid {proc.pid}, "):
            with folder_lock(folder, role="--out folder"):
                pass
        os.kill(proc.pid, signal.SIGKILL)  # a crash: no clean-up runs, the lock file stays behind
        proc.wait(timeout=30)
        assert (folder / LOCK_NAME).exists()
        time.sleep(0.1)
        with folder_lock(folder, role="--out folder"):  # a stale lock (and a forked worker still alive) never blocks
            pass
        assert not (folder / LOCK_NAME).exists()
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the holder if still alive and its forked worker (its group)
        except ProcessLookupError:
            pass
        proc.wait(timeout=30)


def test_a_folder_lock_is_not_taken_twice_by_one_process_and_is_released_after_an_error(tmp_path):
    with pytest.raises(RuntimeError):
        with folder_lock(tmp_path):
            with pytest.raises(ValueError, match="being written by this process"):
                with folder_lock(tmp_path):
                    pass
            assert (tmp_path / LOCK_NAME).exists()  # the refused second taker did not release the first
            raise RuntimeError
    with folder_lock(tmp_path):
        pass
