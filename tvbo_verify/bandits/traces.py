"""Traces of runs and their files: ``rep_NNNN.npz`` (arrays) plus ``rep_NNNN.json`` (metadata).

:class:`Trace` holds one run. Each file is written atomically (:func:`tvbo_verify.files.atomic_write`:
a temporary name in the same directory moved into place with :func:`os.replace`, mode from the umask),
so a reader never sees a half-written file and an interrupted run keeps every repetition that
finished. The JSON is written last: a repetition counts as finished when its JSON exists.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..files import atomic_write
from ..jsonify import dumps

__all__ = [
    "Trace", "trace_paths", "save_trace", "load_trace", "finished_reps", "DamagedTrace", "read_trace",
]


@dataclass
class Trace:
    """One run: per-round arrays (length ``T``) and JSON metadata.

    ``index``/``x``: the played grid index and point; ``y``: the observation; ``regret``: ``r_t =
    max f_t − f_t(x_t)`` (exact on the grid); ``cumulative``: ``R_t``; ``expert_queries``: cumulative
    expert queries ``N_t``; ``dataset_size``: observations in the posterior after round ``t``;
    ``beta``: β_t used to choose ``x_t``; ``time``: the environment clock; ``seconds``: wall time of
    the round spent in the policy (``select`` + ``observe``); ``max_regret``: ``max f_t − min f_t`` over the
    environment's grid, the most regret any policy could incur in round ``t`` (so ``Σ_t max_regret`` is the
    trivial bound on ``R_T`` of this run; None in traces recorded before it existed).
    """

    index: np.ndarray
    x: np.ndarray
    y: np.ndarray
    regret: np.ndarray
    cumulative: np.ndarray
    expert_queries: np.ndarray
    dataset_size: np.ndarray
    beta: np.ndarray
    time: np.ndarray
    seconds: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)
    max_regret: np.ndarray | None = None

    ARRAYS = ("index", "x", "y", "regret", "cumulative", "expert_queries", "dataset_size", "beta", "time", "seconds")
    #: per-round arrays a trace may lack (older files and cache entries)
    OPTIONAL_ARRAYS = ("max_regret",)

    @classmethod
    def from_arrays(cls, data: Any, meta: dict[str, Any]) -> "Trace":
        """A trace from a mapping of arrays (an ``.npz`` file) holding every array of :attr:`ARRAYS` and any of
        :attr:`OPTIONAL_ARRAYS`."""
        names = set(getattr(data, "files", data))
        arrays = {name: data[name] for name in cls.ARRAYS}
        arrays.update({name: data[name] for name in cls.OPTIONAL_ARRAYS if name in names})
        return cls(**arrays, meta=meta)

    @property
    def T(self) -> int:
        return int(self.index.shape[0])

    def arrays(self) -> dict[str, np.ndarray]:
        """Every per-round array the trace holds (optional ones only when present)."""
        out = {name: getattr(self, name) for name in self.ARRAYS}
        out.update({name: getattr(self, name) for name in self.OPTIONAL_ARRAYS if getattr(self, name) is not None})
        return out

    @property
    def trivial_bound(self) -> np.ndarray:
        """``Σ_{s<=t} (max f_s − min f_s)``, t = 1..T: the most cumulative regret any policy could incur on this
        run; ValueError when the trace does not record ``max_regret``."""
        if self.max_regret is None:
            raise ValueError("the trace records no max_regret (recorded since numerics version 3); rerun it")
        return np.cumsum(self.max_regret)

    def same_run(self, other: "Trace") -> bool:
        """Equal in everything but wall-clock seconds (determinism and executor checks)."""
        mine, theirs = self.arrays(), other.arrays()
        return mine.keys() == theirs.keys() and all(
            np.array_equal(mine[n], theirs[n], equal_nan=True) for n in mine if n != "seconds")


def trace_paths(out_dir: str, rep: int) -> tuple[str, str]:
    stem = os.path.join(out_dir, f"rep_{rep:04d}")
    return stem + ".npz", stem + ".json"


def save_trace(trace: Trace, out_dir: str, rep: int) -> tuple[str, str]:
    """Write one repetition atomically; returns the two paths."""
    os.makedirs(out_dir, exist_ok=True)
    npz, meta = trace_paths(out_dir, rep)
    atomic_write(npz, lambda fh: np.savez(fh, **trace.arrays()))
    atomic_write(meta, lambda fh: fh.write(dumps(trace.meta, indent=2)), mode="w")
    return npz, meta


def load_trace(out_dir: str, rep: int) -> Trace:
    npz, meta = trace_paths(out_dir, rep)
    with open(meta) as fh:
        info = json.load(fh)
    with np.load(npz) as data:
        return Trace.from_arrays(data, info)


class DamagedTrace(ValueError):
    """A repetition's file that cannot be read back whole: ``path`` names it, the message says why."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path} is damaged: {reason}")
        self.path, self.reason = path, reason


def read_trace(out_dir: str, rep: int) -> Trace:
    """:func:`load_trace`, every failure to read the files back whole a :class:`DamagedTrace` naming the file.

    A truncated or bit-flipped ``.npz`` fails its zip checksums (every array is read to its end); a ``.json``
    that is not a JSON object, and arrays that are missing or of unequal lengths, are damage too.
    """
    npz, meta = trace_paths(out_dir, rep)
    try:
        with open(meta, encoding="utf-8") as fh:
            info = json.load(fh)
    except (OSError, ValueError) as exc:
        raise DamagedTrace(meta, _reason(exc)) from None
    if not isinstance(info, dict):
        raise DamagedTrace(meta, f"a JSON object was expected, got {type(info).__name__}")
    try:
        with np.load(npz, allow_pickle=False) as data:
            trace = Trace.from_arrays(data, info)
    except Exception as exc:  # whatever a damaged archive raises (BadZipFile, EOFError, zlib.error)
        raise DamagedTrace(npz, _reason(exc)) from None
    lengths = {name: len(a) for name, a in trace.arrays().items()}
    if len(set(lengths.values())) != 1:
        raise DamagedTrace(npz, f"arrays of unequal lengths {lengths}")
    return trace


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def finished_reps(out_dir: str) -> list[int]:
    """Repetitions whose files are complete in ``out_dir``."""
    if not os.path.isdir(out_dir):
        return []
    reps = []
    for name in os.listdir(out_dir):
        if name.startswith("rep_") and name.endswith(".json") and name[4:-5].isdigit():
            rep = int(name[4:-5])
            if os.path.exists(trace_paths(out_dir, rep)[0]):
                reps.append(rep)
    return sorted(reps)

