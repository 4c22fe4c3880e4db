"""Tick labels of logarithmic axes as plain text (``10⁻³``, ``2×10⁴``) instead of mathtext.

matplotlib labels log and symlog axes with mathtext (``$\\mathdefault{10^{-3}}$``) and parses each label
anew for every renderer (its parse cache belongs to one renderer), at some 30 ms a label: a third of the
time of drawing a report's figure went into parsing the same tick labels again. The same numbers
written with Unicode superscripts need no parsing, and an SVG with text kept as text shows them alike.
A label that is not a plain power of ten (or a multiple of one) keeps its mathtext.
"""

from __future__ import annotations

import re
from typing import Any

from matplotlib.ticker import LogFormatterSciNotation

_SUPERSCRIPT = str.maketrans("0123456789-+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺")
_MATH = re.compile(r"^\$\\mathdefault\{(.*)\}\$$")
_POWER = re.compile(r"^(-?)(?:(\d+(?:\.\d+)?)\\times\s*)?(\d+)\^\{([-+]?\d+)\}$")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")


def plain_label(label: str) -> str:
    """``$\\mathdefault{-2\\times10^{-3}}$`` -> ``−2×10⁻³``; a label of another form is returned unchanged."""
    m = _MATH.match(label)
    if not m:
        return label
    body = m.group(1)
    if _NUMBER.match(body):
        return body.replace("-", "\N{MINUS SIGN}")
    p = _POWER.match(body)
    if not p:
        return label
    sign, factor, base, exponent = p.groups()
    text = f"{factor}×" if factor else ""
    return ("\N{MINUS SIGN}" if sign else "") + text + base + exponent.translate(_SUPERSCRIPT)


class PlainLogFormatter(LogFormatterSciNotation):
    """:class:`~matplotlib.ticker.LogFormatterSciNotation` whose labels are :func:`plain_label` text."""

    def __call__(self, x: float, pos: Any = None) -> str:
        return plain_label(super().__call__(x, pos))


def plain_log_ticks(fig: Any) -> Any:
    """``fig`` with the log-axis formatters of every axes turned into :class:`PlainLogFormatter` (in place)."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for formatter in (axis.get_major_formatter(), axis.get_minor_formatter()):
                if type(formatter) is LogFormatterSciNotation:
                    formatter.__class__ = PlainLogFormatter  # same state, plain labels
    return fig
