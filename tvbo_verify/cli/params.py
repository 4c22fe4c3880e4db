"""Option types shared by the subcommands."""

from __future__ import annotations

import math
from typing import Any

import click

from ..fidelity import DEFAULT_FIDELITY, FIDELITIES


class WholeNumber(click.ParamType):
    """An integer that may be written in scientific notation (``-T 1e9``); ``1.5`` and ``nan`` are refused."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None,  # type: ignore[override]
                ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        try:
            return int(text)
        except ValueError:
            pass
        try:
            number = float(text)
        except ValueError:
            self.fail(f"{value!r} is not an integer", param, ctx)
        if not math.isfinite(number) or number != math.floor(number):
            self.fail(f"{value!r} is not an integer", param, ctx)
        return int(number)


WHOLE = WholeNumber()


#: ``--fidelity quick|full`` of every command that runs claims or reproductions
fidelity_option = click.option("--fidelity", type=click.Choice(FIDELITIES), default=DEFAULT_FIDELITY,
                               show_default=True)


def refuse_together(*given: tuple[str, bool], why: str = "") -> None:
    """One usage error naming every option in ``given`` (``(option, was it given)`` pairs) when more than one
    was given: options that contradict each other are never resolved silently.

    >>> refuse_together(("--fresh", True), ("--resume", False))
    >>> refuse_together(("--fresh", True), ("--resume", True), why="one keeps what the other recomputes")
    Traceback (most recent call last):
    ...
    click.exceptions.UsageError: --fresh and --resume cannot be combined: one keeps what the other recomputes
    """
    named = [option for option, present in given if present]
    if len(named) > 1:
        raise click.UsageError(f"{', '.join(named[:-1])} and {named[-1]} cannot be combined{why and f': {why}'}")
