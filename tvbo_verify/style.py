"""The geometry every figure of the toolkit shares (reproductions, claim evidence, the report)."""

from __future__ import annotations

__all__ = ["FIGURE_WIDTH"]

#: inches: the width of the report's content, and of every figure drawn for it
FIGURE_WIDTH = 7.5
