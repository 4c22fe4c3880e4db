"""Rendering, plots and options shared by the ``calc`` subcommands.

A table is a dataclass from :mod:`tvbo_verify.theory`; ``--json`` prints it through the package's one
JSON converter (:func:`tvbo_verify.jsonify.dumps`: non-finite numbers as ``"nan"``/``"inf"``).
Every table is followed by a ``fields:`` legend defining each row shown (units, log bases; the
definitions are the ``FIELDS`` of the table's dataclasses), and ``--json`` carries the same
definitions under ``"fields"``. A result that ignores an input because of a default, or an option that
does not enter the result, gives a ``warning: ...`` line on stderr and an entry of ``"warnings"``.
A figure is drawn and written (atomically, in the format of the file's suffix) before anything is
printed, so an error never follows output on stdout.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any, Callable, Iterable

import click
from click.core import ParameterSource

from ...files import atomic_write
from ...jsonify import dumps, to_jsonable

#: Figure formats ``--plot`` writes, by file suffix.
PLOT_FORMATS: tuple[str, ...] = ("png", "pdf", "svg")


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, dict):
        return ", ".join(f"{k} = {_fmt(v)}" for k, v in value.items())
    if isinstance(value, list):
        if len(value) > 8:
            head = ", ".join(_fmt(v) for v in value[:4])
            tail = ", ".join(_fmt(v) for v in value[-2:])
            return f"[{head}, ..., {tail}] ({len(value)} values)"
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    return str(value)


#: Largest input dimension ``--d`` (the formulas raise logs and constants to powers of ``d``).
MAX_DIMENSION = 10_000
#: Option type of every ``--d``: an integer in ``[1, MAX_DIMENSION]``.
DIMENSION = click.IntRange(1, MAX_DIMENSION)

#: Said once above every legend.
LOG_NOTE = "log = natural logarithm unless a field says log10 or another base"


def field_definitions(table: Any) -> dict[str, str]:
    """Dotted field name -> definition, from the ``FIELDS`` of ``table`` and of the dataclasses it holds
    (``name.*.field`` for a mapping of dataclasses, ``name[].field`` for a sequence of them)."""
    out: dict[str, str] = {}
    _describe(table, "", out)
    return out


def _describe(obj: Any, prefix: str, out: dict[str, str]) -> None:
    defs = getattr(type(obj), "FIELDS", {})
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        out[prefix + f.name] = defs.get(f.name, "")
        if dataclasses.is_dataclass(value):
            _describe(value, f"{prefix}{f.name}.", out)
        elif isinstance(value, dict) and value and all(dataclasses.is_dataclass(v) for v in value.values()):
            for key in value:
                out[f"{prefix}{f.name}.{key}"] = defs.get(f"{f.name}.{key}", "")
            _describe(next(iter(value.values())), f"{prefix}{f.name}.*.", out)
        elif isinstance(value, (tuple, list)) and value and dataclasses.is_dataclass(value[0]):
            _describe(value[0], f"{prefix}{f.name}[].", out)


def _shown(data: Any, path: str) -> bool:
    """Whether the row ``path`` of ``field_definitions`` has a value in ``data`` (the JSON form)."""
    for part in path.replace("[]", "").split("."):
        if part == "*":
            return True
        if isinstance(data, list):  # a sequence of rows: its first row stands for all
            data = data[0] if data else None
        if not isinstance(data, dict) or data.get(part) is None:
            return False
        data = data[part]
    return True


def emit(table: Any, as_json: bool, title: str, warnings: Iterable[str] = (),
         fields: dict[str, str] | None = None) -> None:
    """Print ``table`` (a dataclass or a dict) as JSON or as an aligned table with its legend; ``None`` rows
    are left out. Warnings (the table's own ``warnings`` and ``warnings``) go to stderr as ``warning: ...``
    lines, and into the JSON under ``"warnings"``; ``fields`` overrides the definitions of a plain dict."""
    data = to_jsonable(table)
    notes = [*data.pop("warnings", ()), *warnings]
    definitions = fields if fields is not None else field_definitions(table) if dataclasses.is_dataclass(table) else {}
    definitions = {k: v for k, v in definitions.items() if k != "warnings"}
    if as_json:
        click.echo(dumps({**data, "warnings": notes, "fields": {"log": LOG_NOTE, **definitions}}, indent=2))
    else:
        _print_table(data, title)
        legend = {k: v for k, v in definitions.items() if _shown(data, k)}
        if legend:
            click.echo(f"fields ({LOG_NOTE}):")
            for key, text in legend.items():
                click.echo(f"  {key}: {text}")
    for note in notes:
        click.echo(f"warning: {note}", err=True)


def ignored_options(ctx: click.Context, used: Iterable[str], because: str) -> list[str]:
    """A warning for every option given on the command line that is not in ``used`` (it does not enter the
    result, ``because``)."""
    keep = {*used, "as_json", "plot_path"}
    out = []
    for param in ctx.command.params:
        if param.name in keep or ctx.get_parameter_source(param.name) is not ParameterSource.COMMANDLINE:
            continue
        option = max(param.opts, key=len)
        given = option if getattr(param, "is_flag", False) else f"{option} {ctx.params[param.name]}"
        out.append(f"{given} is ignored: {because}")
    return out


def _print_table(data: dict[str, Any], title: str) -> None:
    click.echo(title)
    click.echo("-" * len(title))
    rows = {k: v for k, v in data.items() if v is not None}
    width = max(len(k) for k in rows)
    for key, value in rows.items():
        if isinstance(value, dict) and value:
            click.echo(f"{key:>{width}}:")
            for k, v in value.items():
                if v is not None:
                    click.echo(f"{'':>{width}}   {k}: {_fmt(v)}")
        else:
            click.echo(f"{key:>{width}}: {_fmt(value)}")


def check_plot_path(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """``--plot`` callback: the folder must exist and the suffix name a supported format."""
    if value is None:
        return None
    path = Path(value)
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in PLOT_FORMATS:
        raise click.BadParameter(f"{value!r} must end in one of {', '.join('.' + f for f in PLOT_FORMATS)} "
                                 "(the figure is written in the format of its suffix)", ctx, param)
    folder = path.resolve().parent
    if not folder.is_dir():
        raise click.BadParameter(f"folder {str(folder)!r} of {value!r} does not exist", ctx, param)
    if not os.access(folder, os.W_OK):
        raise click.BadParameter(f"folder {str(folder)!r} of {value!r} is not writable", ctx, param)
    if path.is_dir():
        raise click.BadParameter(f"{value!r} is a folder, not a file", ctx, param)
    return path


def save_plot(path: Path | None, draw: Callable[[Any], None]) -> None:
    """Draw on a fresh figure and write it to ``path`` atomically in the format of its suffix."""
    if path is None:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    try:
        draw(ax)
        fig.tight_layout()
        fmt = path.suffix.lower().lstrip(".")
        try:
            atomic_write(path, lambda fh: fig.savefig(fh, dpi=120, format=fmt))
        except OSError as exc:
            raise click.BadParameter(f"cannot write {str(path)!r}: {exc.strerror or exc}",
                                     param_hint="'--plot'") from None
    finally:
        plt.close(fig)


def finish_axes(ax: Any, xlim: tuple[float, float], xlabel: str, ylabel: str, *, legend: bool = True) -> None:
    """Axes that end where the data end, labelled, with a small legend."""
    low, high = float(xlim[0]), float(xlim[1])
    ax.set_xlim(low, high if high > low else low + 1.0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if legend:
        ax.legend(fontsize=7)


def parse_numbers(pairs: tuple[str, ...], option: str = "--param") -> dict[str, float]:
    """``key=value`` pairs with numeric values (``-p alpha=2``)."""
    out: dict[str, float] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"expected key=value, got {pair!r}", param_hint=f"'{option}'")
        try:
            out[key.strip()] = float(value)
        except ValueError:
            raise click.BadParameter(f"value of {key.strip()} must be a number, got {value!r}",
                                     param_hint=f"'{option}'") from None
    return out


json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
plot_option = click.option("--plot", "plot_path", default=None, callback=check_plot_path, metavar="FILE",
                           help="Write a figure; the suffix (.png, .pdf, .svg) sets the format.")
