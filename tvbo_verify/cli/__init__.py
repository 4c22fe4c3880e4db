"""Command-line interface ``tvbo-verify`` (click).

User mistakes (a ``ValueError`` or a click usage error) become one line on stderr and exit code 2,
never a traceback (docs/ARCHITECTURE.md §11). Subcommands live in one module each and
are registered (by name, imported on first use) in :mod:`tvbo_verify.cli.main`.
"""

from .main import main

__all__ = ["main"]
