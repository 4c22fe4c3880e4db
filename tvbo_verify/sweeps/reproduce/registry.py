"""Reproductions of the papers' figures and tables: declared as data, run on the run cache.

A :class:`Reproduction` names its paper, the set-up and the qualitative finding the paper reports
(in words), the sweeps it needs at each fidelity, how its finding is measured and how its figure is
drawn. :func:`run_reproduction` runs it and writes ``<id>.png``, ``<id>.svg`` and ``<id>.json`` (the
measured finding) into the output folder. Experiment claims are decided from the same measurement.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ...execution import Executor
from ...files import atomic_write, atomic_write_text, safe_name
from ...jsonify import dumps
from ..cache import RunCache
from ..execute import run_sweep
from ..results import SweepResult
from ..spec import Sweep
from .analysis import Finding

FIDELITIES = ("quick", "full")
_REGISTRY: dict[str, "Reproduction"] = {}
_LOADED = False


@dataclass(frozen=True)
class Reproduction:
    """One figure or table of a paper, reproduced."""

    id: str
    paper: str
    title: str
    setup: str
    expected: str
    sweeps: Callable[[str], dict[str, Sweep]]
    analyse: Callable[[dict[str, SweepResult], np.random.Generator], Finding]
    figure: Callable[[dict[str, SweepResult], Finding], Any]
    claims: tuple[str, ...] = ()
    data_note: str = ""

    def plan(self, fidelity: str) -> dict[str, Sweep]:
        if fidelity not in FIDELITIES:
            raise ValueError(f"fidelity must be one of {', '.join(FIDELITIES)}, got {fidelity!r}")
        return self.sweeps(fidelity)

    def runs(self, fidelity: str) -> int:
        return sum(len(s.specs()) for s in self.plan(fidelity).values())


@dataclass
class Outcome:
    """A finished reproduction: its finding, the sweep results and the files written."""

    reproduction: Reproduction
    fidelity: str
    finding: Finding
    results: dict[str, SweepResult]
    seconds: float
    files: dict[str, str] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        r = self.reproduction
        return {"id": r.id, "paper": r.paper, "title": r.title, "fidelity": self.fidelity, "setup": r.setup,
                "expected": r.expected, "claims": list(r.claims), "data_note": r.data_note,
                "finding": self.finding.text, "json": self.finding.data,
                "runs": sum(len(res.traces) for res in self.results.values()), "seconds": self.seconds,
                **self.files}


def register(rep: Reproduction) -> Reproduction:
    if rep.id in _REGISTRY and _REGISTRY[rep.id] is not rep:
        raise ValueError(f"reproduction {rep.id} registered twice")
    _REGISTRY[rep.id] = rep
    return rep


def load_all() -> None:
    """Import every paper module of this package so that its reproductions register."""
    global _LOADED
    if _LOADED:
        return
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.name not in ("registry", "analysis", "figures", "__init__"):
            importlib.import_module(f"{__package__}.{info.name}")
    _LOADED = True


def reproductions(paper: str | None = None) -> list[Reproduction]:
    load_all()
    return [r for r in _REGISTRY.values() if paper is None or r.paper == paper]


def get_reproduction(rep_id: str) -> Reproduction:
    """The reproduction ``rep_id``; ValueError naming the closest ids when unknown."""
    load_all()
    if rep_id in _REGISTRY:
        return _REGISTRY[rep_id]
    close = difflib.get_close_matches(rep_id, list(_REGISTRY), n=3, cutoff=0.4)
    hint = f"; closest: {', '.join(close)}" if close else ""
    raise ValueError(f"unknown reproduction id {rep_id!r}{hint} (see `tvbo-verify reproduce --list`)")


def file_stem(rep_id: str) -> str:
    """The file stem of a reproduction's outputs."""
    return safe_name(rep_id)


def rng_for(rep_id: str, seed: int = 0) -> np.random.Generator:
    """The bootstrap generator of a reproduction (stable across processes)."""
    return np.random.default_rng([zlib.crc32(rep_id.encode()), int(seed)])


def measure(rep: Reproduction, *, cache: RunCache, fidelity: str = "quick", executor: Executor | str = "serial",
            seed: int = 0, progress: bool | None = None) -> Outcome:
    """Run the sweeps of ``rep`` on the run cache ``cache`` and measure its finding; no files written."""
    start = time.perf_counter()
    results = {name: run_sweep(sw, executor=executor, cache=cache, progress=progress)
               for name, sw in rep.plan(fidelity).items()}
    finding = rep.analyse(results, rng_for(rep.id, seed))
    return Outcome(rep, fidelity, finding, results, time.perf_counter() - start)


def run_reproduction(rep: Reproduction | str, out: str | Path, *, cache: RunCache, fidelity: str = "quick",
                     executor: Executor | str = "serial", seed: int = 0, progress: bool | None = None,
                     measured: Outcome | None = None) -> Outcome:
    """Measure ``rep`` and write its figure (PNG and SVG) and finding (JSON) into ``out``; ``measured``: its
    outcome already measured at ``fidelity`` and ``seed`` (drawn instead of measured again)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rep = get_reproduction(rep) if isinstance(rep, str) else rep
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if measured is not None and (measured.reproduction.id, measured.fidelity) != (rep.id, fidelity):
        raise ValueError(f"measured must be an outcome of {rep.id} at fidelity {fidelity}, got "
                         f"{measured.reproduction.id} at {measured.fidelity}")
    outcome = measured or measure(rep, fidelity=fidelity, executor=executor, cache=cache, seed=seed, progress=progress)
    fig = rep.figure(outcome.results, outcome.finding)
    stem = file_stem(rep.id)
    for ext in ("png", "svg"):
        path = out / f"{stem}.{ext}"
        atomic_write(path, lambda fh, ext=ext: fig.savefig(fh, format=ext, dpi=130, bbox_inches="tight"))
        outcome.files[ext] = path.name
    plt.close(fig)
    atomic_write_text(out / f"{stem}.json", dumps(outcome.record(), indent=1) + "\n")
    outcome.files["json"] = f"{stem}.json"
    return outcome
