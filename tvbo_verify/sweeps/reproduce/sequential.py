"""Deciding parts of a finding that gather the repetitions their decision needs (:mod:`tvbo_verify.sequential`).

A reproduction's finding is decided at each setting of its free constants by its parts
(:class:`~tvbo_verify.sweeps.reproduce.constants.Part`). A part measured from a few cheap arms — GP-UCB's
a within-run slope of a baseline's regret — may leave its setting to the seed when its runs spread widely. A
:class:`SequentialPart` declares such a part: the arms it is measured from, how it is measured from their
runs at a given interval level, and its sequential design per fidelity. At every setting where no other
part already decides the finding (:func:`settle`), the part is measured again by the design's looks — the
first ``n`` repetitions of the run seed of its arms only (the same streams as the sweep's own repetitions,
paired), its interval at the look's level — and the part of the last look replaces the sweep's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

import numpy as np

from ...fidelity import FIDELITIES
from ...sequential import SequentialDesign, run_sequential
from ..results import SweepResult
from ..spec import Sweep
from .constants import VIOLATED, Part


@dataclass(frozen=True)
class SequentialPart:
    """A part of a finding measured with the repetitions its decision needs.

    Parameters
    ----------
    name
        The part's name (as the reproduction's ``parts`` name it).
    arms
        Labels of the arms it is measured from (only these are rerun with more repetitions).
    measure
        ``(results, rng, level) -> Part``: the part from the sweep results holding those arms, its interval at the
        percentile ``level``.
    designs
        The sequential design per fidelity (``"quick"``, ``"full"``).

    Raises
    ------
    ValueError
        If ``arms`` is empty or a fidelity has no design.

    Examples
    --------
    >>> from tvbo_verify.authoring import SequentialPart, slope_part, within_run_slope
    >>> from tvbo_verify.sequential import SequentialDesign
    >>> def measure(results, rng, level):
    ...     return slope_part("random: linear regret", within_run_slope(results["main"], "random", rng, level=level),
    ...                       below=False)
    >>> part = SequentialPart("random: linear regret", ("random",), measure,
    ...                       {"quick": SequentialDesign(4, 16), "full": SequentialDesign(8, 64)})
    >>> part.designs["quick"].looks()
    (4, 8, 16)
    """

    name: str
    arms: tuple[str, ...]
    measure: Callable[[dict[str, SweepResult], np.random.Generator, float], Part]
    designs: dict[str, SequentialDesign]

    def __post_init__(self) -> None:
        if not self.arms:
            raise ValueError(f"sequential part {self.name!r} must name the arms it is measured from")
        missing = [f for f in FIDELITIES if f not in self.designs]
        if missing:
            raise ValueError(f"sequential part {self.name!r} needs a design for fidelity {', '.join(missing)}")


def only_arms(plan: dict[str, Sweep], arms: tuple[str, ...], reps: int) -> dict[str, Sweep]:
    """The sweeps of ``plan`` that hold some of ``arms``, with those arms only and ``reps`` repetitions."""
    out = {}
    for name, sw in plan.items():
        kept = tuple(a for a in sw.arms if a.label in arms)
        if kept:
            out[name] = replace(sw, arms=kept, reps=reps)
    if not out:
        raise ValueError(f"no sweep of the plan holds the arms {list(arms)}")
    return out


def settle(parts: list[Part], sequential: tuple[SequentialPart, ...], plan: dict[str, Sweep], fidelity: str,
           run: Callable[[dict[str, Sweep]], dict[str, SweepResult]], rng: Callable[[], np.random.Generator]
           ) -> tuple[list[Part], dict[str, Any]]:
    """``parts`` with each sequential part measured by its design, where no other part already fails.

    ``plan``: the setting's sweeps; ``run``: runs a plan (on the run cache, at the run seed); ``rng``: a fresh
    bootstrap generator. Returns the parts and, by part name, the record of the looks (empty when none ran).
    """
    out, records = list(parts), {}
    for sp in sequential:
        where = [i for i, p in enumerate(out) if p.name == sp.name]
        if not where:
            raise ValueError(f"sequential part {sp.name!r} is not a part of the finding: "
                             f"{', '.join(p.name for p in out)}")
        if any(p.verdict == VIOLATED for p in out if p.name != sp.name):
            continue  # another part already fails: the finding is decided whatever this part says
        kept: dict[str, Part] = {}

        def decide(n: int, level: float, sp: SequentialPart = sp, kept: dict[str, Part] = kept
                   ) -> tuple[str, dict[str, Any]]:
            part = sp.measure(run(only_arms(plan, sp.arms, n)), rng(), level)
            kept["part"] = part
            return part.verdict, {"margin": part.margin, "interval": list(part.ci95)}

        record = run_sequential(sp.designs[fidelity], decide)
        out[where[0]] = kept["part"]
        records[sp.name] = record.to_dict()
    return out, records
