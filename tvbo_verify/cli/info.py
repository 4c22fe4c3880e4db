"""``tvbo-verify info``: the toolkit's version and the core numerics it offers."""

from __future__ import annotations

import json
import platform

import click


@click.command("info")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def info(as_json: bool) -> None:
    """Print the version, the numerical policy and the platform."""
    import numpy as np
    import scipy

    from .. import __version__
    from ..linalg import JITTER_LADDER

    data = {
        "version": __version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "jitter_ladder": list(JITTER_LADDER),
    }
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        for key, value in data.items():
            click.echo(f"{key:>14}: {value}")
