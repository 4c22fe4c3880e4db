"""The fidelities a claim is checked at, and what a claim of each kind costs at quick fidelity.

``quick`` sizes every measurement so that the whole report runs in minutes on a laptop; ``full`` sizes it
as the claim's recipe asks (longer ladders, more repetitions, finer grids). A check picks its sizes with
``ctx.pick(quick, full)``; nothing else in the toolkit distinguishes the two.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

__all__ = ["FIDELITIES", "DEFAULT_FIDELITY", "check_fidelity", "pick", "KIND_SECONDS", "expected_seconds"]

#: every fidelity, cheapest first
FIDELITIES: tuple[str, ...] = ("quick", "full")
DEFAULT_FIDELITY = "quick"

#: rough seconds of one claim of each kind at quick fidelity, used only where no earlier runtime of the claim is
#: known, to order work and estimate the time left (never to decide anything): the medians per kind of a quick
#: report (seed 0, two busy cores)
KIND_SECONDS: dict[str, float] = {"exact": 1.0, "algorithm": 1.5, "probabilistic": 6.0, "ingredient": 8.0,
                                  "experiment": 25.0, "rate": 70.0}


def check_fidelity(fidelity: str) -> str:
    """``fidelity`` if it is one of :data:`FIDELITIES`; ``ValueError`` naming the choices otherwise.

    >>> check_fidelity("full")
    'full'
    >>> check_fidelity("fast")
    Traceback (most recent call last):
    ...
    ValueError: fidelity must be one of quick, full, got 'fast'
    """
    if fidelity not in FIDELITIES:
        raise ValueError(f"fidelity must be one of {', '.join(FIDELITIES)}, got {fidelity!r}")
    return fidelity


def pick(fidelity: str, quick: T, full: T) -> T:
    """``quick`` at quick fidelity, ``full`` at full fidelity (what :meth:`Context.pick` does for a check).

    Parameters
    ----------
    fidelity : str
        ``"quick"`` or ``"full"``.
    quick, full : Any
        The values at each fidelity.

    Returns
    -------
    Any
        ``quick`` or ``full``.

    Raises
    ------
    ValueError
        For an unknown fidelity.

    Examples
    --------
    >>> pick("full", 20, 200)
    200
    """
    return quick if check_fidelity(fidelity) == "quick" else full


def expected_seconds(kind: str, measured: float | None = None) -> float:
    """The seconds to expect of a claim of ``kind``: its ``measured`` runtime when known, else
    :data:`KIND_SECONDS` (the costliest kind's for an unknown kind)."""
    if measured is not None:
        return float(measured)
    return KIND_SECONDS.get(kind, max(KIND_SECONDS.values()))
