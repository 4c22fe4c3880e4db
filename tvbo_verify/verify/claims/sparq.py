"""Claim checks for `sparq` (catalog: spec/sparq.md)."""

from __future__ import annotations
