"""Root ``tvbo-verify`` command group and the error policy shared by every subcommand.

Subcommands are imported on first use (:class:`~tvbo_verify.cli.lazy.LazyGroup`), so ``--version``
answers without loading numpy or the claim suite, and a Ctrl-C during those imports is handled by
the same policy as one during the work itself.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from typing import Any

import click

from .lazy import LazyGroup

COMMANDS: dict[str, str] = {
    "calc": "tvbo_verify.cli.calc:calc",
    "info": "tvbo_verify.cli.info:info",
    "list": "tvbo_verify.cli.report:list_claims",
    "mutants": "tvbo_verify.cli.mutants:mutants",
    "papers": "tvbo_verify.cli.report:list_papers",
    "replay": "tvbo_verify.cli.report:replay_cmd",
    "report": "tvbo_verify.cli.report:report",
    "reproduce": "tvbo_verify.cli.reproduce:reproduce",
    "run": "tvbo_verify.cli.run:run_command",
    "run-list": "tvbo_verify.cli.run:run_list",
}
"""Every subcommand: name -> ``module:attribute`` of its click command."""

INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT), as a shell reports a process ended by SIGINT."""

USER_ERROR = 2
"""Exit code of a refused command (bad input, an unusable path, a missing optional extra, a request larger
than the memory of this machine)."""


def _fail(message: str, code: int) -> None:
    click.echo(message, err=True)
    sys.exit(code)


def one_line(message: str) -> str:
    r"""``message`` on one line: click lists the choices of a missing option one per line, tab-indented.

    >>> one_line("Missing option '--paper'. Choose from:\n\twsparq,\n\tsparq")
    "Missing option '--paper'. Choose from: wsparq, sparq"
    """
    return " ".join(message.split())


class FriendlyGroup(LazyGroup):
    """The root group: a user error is one stderr line with exit code 2; Ctrl-C exits 130 with one line.

    Run as a program (``tvbo-verify ...`` calls the group, :meth:`__call__`), the whole command runs
    inside the handler, including the import of the subcommand, so a ``KeyboardInterrupt`` at any
    moment ends with ``interrupted`` and exit code 130, never a traceback. Invoked in-process
    (:meth:`main`, e.g. by :class:`click.testing.CliRunner` under pytest), Ctrl-C is raised as
    ``KeyboardInterrupt`` to the caller, so that the caller (pytest, hypothesis) stops too.
    """

    def __call__(self, *args, **kwargs):  # type: ignore[override]
        try:
            return self.main(*args, **kwargs)
        except KeyboardInterrupt:
            with contextlib.suppress(ValueError):  # (not the main thread: no signal handlers to set)
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not break the way out
            _fail("interrupted", INTERRUPTED)

    def main(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        kwargs.setdefault("standalone_mode", False)
        try:
            return super().main(*args, **kwargs)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.exceptions.Abort as exc:  # click turns KeyboardInterrupt into Abort
            raise KeyboardInterrupt from exc
        except click.ClickException as exc:
            _fail(f"error: {one_line(exc.format_message())}", USER_ERROR)
        except (ValueError, FileNotFoundError) as exc:
            _fail(f"error: {one_line(str(exc))}", USER_ERROR)
        except MemoryError as exc:  # a request too large for this machine (e.g. -T of a million rounds)
            _fail(f"error: not enough memory: {exc or 'allocation failed'}", USER_ERROR)


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``--version``: read from the installed metadata only when asked (importing it costs ~50 ms)."""
    if not value or ctx.resilient_parsing:
        return
    from .. import __version__

    click.echo(f"tvbo-verify, version {__version__}")
    ctx.exit()


@click.group(cls=FriendlyGroup, lazy_commands=COMMANDS)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and exit.")
def main() -> None:
    """Check by computation what the theory of time-varying GP bandit optimisation states."""
