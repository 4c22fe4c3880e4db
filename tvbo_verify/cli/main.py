"""Root ``tvbo-verify`` command group and the error policy shared by every subcommand."""

from __future__ import annotations

import sys

import click

from .. import __version__


class FriendlyGroup(click.Group):
    """A click group that reports user errors as a single stderr line with exit code 2."""

    def main(self, *args, **kwargs):  # type: ignore[override]
        kwargs.setdefault("standalone_mode", False)
        try:
            return super().main(*args, **kwargs)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            click.echo("error: aborted", err=True)
            sys.exit(2)
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


def register(command: click.Command) -> click.Command:
    """Attach a subcommand to the root group (used by the subcommand modules)."""
    main.add_command(command)
    return command


# Subcommand modules register themselves on import; keep this list in one place.
from . import info  # noqa: E402,F401
from . import report  # noqa: E402,F401
from . import run  # noqa: E402,F401
from . import calc  # noqa: E402,F401
from . import reproduce  # noqa: E402,F401
