"""Output folders: checked before any work, and taken back when a command fails before writing into them."""

from __future__ import annotations

import os

import pytest

from tvbo_verify.files import atomic_write_text, removed_if_empty_on_error, writable_folder


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
