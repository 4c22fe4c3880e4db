"""``tvbo-verify calc ...``: calculators for what the theory prescribes.

Subcommands: ``window``, ``queries``, ``block``, ``discount`` (:mod:`.schedules`), ``nstar``
(:mod:`.nstar`), ``beta``, ``gamma``, ``lower-bound bolt|wsparq|tvgpucb``, ``regret-bound``
(:mod:`.bounds`). The tables are computed in :mod:`tvbo_verify.theory` (dataclasses); this package
only parses options and renders: a readable table, ``--json`` for machines, ``--plot FILE`` (format
from the suffix, written atomically before anything is printed). Bad input gives one line on stderr
naming the parameter and exit code 2.
"""

from __future__ import annotations

import click

from . import bounds, nstar, schedules


@click.group("calc")
def calc() -> None:
    """Calculators: window schedules, query budgets, n*, beta_t, gamma_T, lower bounds, block lengths,
    discounts and regret bounds."""


for _command in (*schedules.COMMANDS, *nstar.COMMANDS, *bounds.COMMANDS):
    calc.add_command(_command)

__all__ = ["calc"]
