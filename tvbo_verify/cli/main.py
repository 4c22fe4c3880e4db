"""Root ``tvbo-verify`` command group and the error policy shared by every subcommand."""

from __future__ import annotations

import sys

import click

from .. import __version__
from .calc import calc
from .info import info
from .report import list_claims, replay_cmd, report
from .reproduce import reproduce
from .run import run_command, run_list


class FriendlyGroup(click.Group):
    """A click group that reports user errors as a single stderr line with exit code 2; Ctrl-C exits 130."""

    def main(self, *args, **kwargs):  # type: ignore[override]
        kwargs.setdefault("standalone_mode", False)
        try:
            return super().main(*args, **kwargs)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:  # Ctrl-C (click turns KeyboardInterrupt into Abort)
            click.echo("interrupted", err=True)
            sys.exit(130)
        except click.ClickException as exc:
            click.echo(f"error: {exc.format_message()}", err=True)
            sys.exit(2)
        except (ValueError, FileNotFoundError) as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)


@click.group(cls=FriendlyGroup)
@click.version_option(__version__, prog_name="tvbo-verify")
def main() -> None:
    """Check by computation what the theory of time-varying GP bandit optimisation states."""


for _command in (info, list_claims, report, replay_cmd, reproduce, run_command, run_list, calc):
    main.add_command(_command)
main.add_command(__import__("tvbo_verify.cli.mutants", fromlist=["mutants"]).mutants)
