"""A click group whose subcommands are imported on first use.

The root command must answer ``--version`` at once (docs/ARCHITECTURE.md §12: under 0.5 s),
while its subcommands pull in numpy, scipy, sympy and the whole claim suite. :class:`LazyGroup`
maps each command name to ``"module:attribute"`` and imports a module only when that command is
run or listed (``--help`` lists every command, so it imports them all).
"""

from __future__ import annotations

import importlib
from typing import Any, Mapping

import click


class LazyGroup(click.Group):
    """A :class:`click.Group` with ``lazy_commands``: name -> ``"package.module:attribute"``.

    Parameters
    ----------
    lazy_commands
        The commands to import on first use (absolute module paths), in the order ``--help`` lists them.
    """

    def __init__(self, *args: Any, lazy_commands: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands: dict[str, str] = dict(lazy_commands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*self.lazy_commands, *(n for n in super().list_commands(ctx) if n not in self.lazy_commands)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in self.lazy_commands:
            return super().get_command(ctx, cmd_name)
        command = self._import(cmd_name)
        self.add_command(command, cmd_name)
        return command

    def _import(self, cmd_name: str) -> click.Command:
        module_name, _, attribute = self.lazy_commands[cmd_name].partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.lazy_commands[cmd_name]} is not a click command")
        return command
