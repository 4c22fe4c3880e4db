"""Trace files: ``rep_NNNN.npz`` (arrays) plus ``rep_NNNN.json`` (metadata), written atomically.

Each file is written to a temporary name in the same directory and moved into place with
:func:`os.replace`, so a reader never sees a half-written file and an interrupted run keeps every
repetition that finished. The JSON is written last: a repetition counts as finished when its JSON exists.
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

import numpy as np

from ..jsonify import dumps

from .runner import Trace


def _atomic_write(path: str, write: Any, mode: str = "wb") -> None:
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=os.path.basename(path))
    try:
        with os.fdopen(fd, mode) as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def trace_paths(out_dir: str, rep: int) -> tuple[str, str]:
    stem = os.path.join(out_dir, f"rep_{rep:04d}")
    return stem + ".npz", stem + ".json"


def save_trace(trace: Trace, out_dir: str, rep: int) -> tuple[str, str]:
    """Write one repetition atomically; returns the two paths."""
    os.makedirs(out_dir, exist_ok=True)
    npz, meta = trace_paths(out_dir, rep)
    _atomic_write(npz, lambda fh: np.savez(fh, **trace.arrays()))
    _atomic_write(meta, lambda fh: fh.write(dumps(trace.meta, indent=2)), mode="w")
    return npz, meta


def load_trace(out_dir: str, rep: int) -> Trace:
    npz, meta = trace_paths(out_dir, rep)
    with np.load(npz) as data:
        arrays = {name: data[name] for name in Trace.ARRAYS}
    with open(meta) as fh:
        return Trace(**arrays, meta=json.load(fh))


def finished_reps(out_dir: str) -> list[int]:
    """Repetitions whose files are complete in ``out_dir``."""
    if not os.path.isdir(out_dir):
        return []
    reps = []
    for name in os.listdir(out_dir):
        if name.startswith("rep_") and name.endswith(".json"):
            rep = int(name[4:-5])
            if os.path.exists(trace_paths(out_dir, rep)[0]):
                reps.append(rep)
    return sorted(reps)

