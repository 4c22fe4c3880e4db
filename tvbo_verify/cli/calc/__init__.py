"""``tvbo-verify calc ...``: calculators for what the theory prescribes.

Subcommands: ``window``, ``queries``, ``block``, ``discount`` (:mod:`.schedules`), ``nstar``
(:mod:`.nstar`), ``beta`` (:mod:`.beta`), ``gamma`` (:mod:`.gamma`), ``lower-bound bolt|wsparq|tvgpucb``
(:mod:`.lower_bound`), ``regret-bound`` (:mod:`.regret`). Each module is imported only when its command
runs, and imports only what its command needs, so a calculator starts without the rest. The tables are
computed in :mod:`tvbo_verify.theory` (dataclasses); this package only parses options and renders: a
readable table followed by a ``fields:`` legend (units, log bases), ``--json`` for machines (with
``"fields"`` and ``"warnings"``), ``--plot FILE`` (format from the suffix, written atomically before
anything is printed). Bad input gives one line on stderr naming the parameter and exit code 2; an input
the result ignores gives a ``warning:`` line on stderr.
"""

from __future__ import annotations

import click

from ..lazy import LazyGroup

_HERE = __name__
COMMANDS: dict[str, str] = {
    "window": f"{_HERE}.schedules:window_cmd",
    "queries": f"{_HERE}.schedules:queries_cmd",
    "nstar": f"{_HERE}.nstar:nstar_cmd",
    "beta": f"{_HERE}.beta:beta_cmd",
    "gamma": f"{_HERE}.gamma:gamma_cmd",
    "lower-bound": f"{_HERE}.lower_bound:lower_bound",
    "block": f"{_HERE}.schedules:block_cmd",
    "discount": f"{_HERE}.schedules:discount_cmd",
    "regret-bound": f"{_HERE}.regret:regret_bound_cmd",
}
"""Every calculator: name -> ``module:attribute`` of its click command."""


@click.group("calc", cls=LazyGroup, lazy_commands=COMMANDS)
def calc() -> None:
    """Calculators: window schedules, query budgets, n*, beta_t, gamma_T, lower bounds, block lengths,
    discounts and regret bounds. Each table ends with a legend of its fields (units; log = natural log)."""


__all__ = ["COMMANDS", "calc"]
