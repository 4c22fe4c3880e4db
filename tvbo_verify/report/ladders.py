"""The horizons and repetitions behind each run-based verdict, and why they suffice or do not.

A rate is decided from the slope of log R_T over a ladder of horizons; it can tell the claimed exponent from
the nearest misreading only when the slope's resolution (its allowance plus the width of its interval) is
below their gap. Each measured slope's record in ``results.json`` holds its ladder (``x``), its sample
(``n``, ``resampled``), the decades it spans, its ``resolution`` and the exponents it had to be separated from
(``separated_from``, ``unresolved``): :func:`rate_ladders` reads them into one row per slope.

An experiment is decided from the sweeps of its reproduction (:mod:`tvbo_verify.sweeps.reproduce`), which
are declared per fidelity: :func:`experiment_ladders` states, for both fidelities, the horizons, the
repetitions, the runs per setting and the settings of the free constants, so a reader sees what ``--fidelity
full`` adds without running it.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from .strength import _number

#: keys of a record of one measured slope (written by :mod:`tvbo_verify.verify.builders.rate`)
SLOPE_KEYS = ("x", "resolution")


def _slopes(stats: Any, label: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every record of a measured slope inside ``stats``, with the key it was found under (``""`` at the top)."""
    if isinstance(stats, dict):
        if all(k in stats for k in SLOPE_KEYS):
            yield label, stats
            return
        for key, value in stats.items():
            yield from _slopes(value, str(key))
    elif isinstance(stats, list):
        for value in stats:
            yield from _slopes(value, label)


def _horizons(x: Any) -> str:
    values = [v for v in (x if isinstance(x, list) else []) if _number(v) is not None]
    if not values:
        return "?"
    shown = [f"{v:g}" for v in values]
    return ", ".join(shown) if len(shown) <= 4 else f"{shown[0]}, {shown[1]}, …, {shown[-1]} ({len(shown)})"


def _why(rec: dict[str, Any]) -> tuple[str, bool]:
    """What the slope had to separate, the smallest gap, and whether its resolution is below it."""
    exponent, resolution = _number(rec.get("exponent")), _number(rec.get("resolution"))
    others = {name: _number(v) for name, v in (rec.get("separated_from") or {}).items()}
    others = {name: v for name, v in others.items() if v is not None}
    if exponent is None or resolution is None or not others:
        return "no misreading recorded to separate from", False
    name, nearest = min(others.items(), key=lambda kv: abs(kv[1] - exponent))
    gap = abs(nearest - exponent)
    resolved = resolution < gap
    verb = "separates" if resolved else "cannot separate"
    return (f"resolution {resolution:.3g} {verb} {exponent:g} from {nearest:g} ({name}; gap {gap:.3g})"
            + ("" if resolved else f": needs a resolution below {gap:.3g}, a longer ladder or more runs")), resolved


def rate_ladders(claims: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per measured slope of ``claims`` (entries of ``results.json``).

    >>> entry = {"id": "p:rate", "stats": {"x": [100, 1000], "n": 5, "resampled": "repetitions", "decades": 1.0,
    ...          "exponent": 0.5, "resolution": 0.2, "separated_from": {"linear regret": 1.0}}}
    >>> row = rate_ladders([entry])[0]
    >>> row["horizons"], row["sample"], row["resolved"]
    ('100, 1000', '5 runs', True)
    >>> row["why"]
    'resolution 0.2 separates 0.5 from 1 (linear regret; gap 0.5)'
    """
    rows = []
    for entry in claims:
        for label, rec in _slopes(entry.get("stats")):
            n = rec.get("n")
            unit = "runs" if str(rec.get("resampled", "")).startswith("repetitions") else "instances"
            why, resolved = _why(rec)
            decades = _number(rec.get("decades"))
            rows.append({"claim": entry.get("id", "?"), "label": label, "horizons": _horizons(rec.get("x")),
                         "of": rec.get("decades_of") or "T",
                         "decades": "?" if decades is None else f"{decades:.2g}",
                         "sample": f"{n} {unit}" if isinstance(n, int) else "?", "why": why, "resolved": resolved})
    return rows


def experiment_ladders(reproductions: Iterable[Any], fidelities: tuple[str, ...] = ("quick", "full")
                       ) -> list[dict[str, Any]]:
    """For each reproduction and fidelity: the horizons and repetitions of its sweeps at the paper's setting,
    the runs of that setting, and the settings of its free constants (each one more copy of those sweeps, the
    runs they share with it aside).

    ``reproductions`` are :class:`tvbo_verify.sweeps.reproduce.registry.Reproduction` objects."""
    from ..sweeps.reproduce.constants import settings

    rows = []
    for rep in reproductions:
        for fidelity in fidelities:
            plan = rep.plan(fidelity)
            horizons = sorted({T for sweep in plan.values() for T in sweep.horizons})
            reps = sorted({sweep.reps for sweep in plan.values()})
            rows.append({"reproduction": rep.id, "fidelity": fidelity, "claims": list(rep.claims),
                         "horizons": _horizons(horizons),
                         "repetitions": "–".join(str(r) for r in (reps[0], reps[-1]) if r) if len(reps) > 1
                         else str(reps[0]),
                         "settings": 1 + len(settings(rep.constants, fidelity)),
                         "sequential": "; ".join(f"{part.name}: up to {part.designs[fidelity].cap} repetitions in "
                                                 f"looks of {', '.join(map(str, part.designs[fidelity].looks()))}"
                                                 for part in rep.sequential),
                         "runs_per_setting": sum(len(sweep.specs()) for sweep in plan.values())})
    return rows
