"""Claim checks for `wsparq` (catalog: spec/wsparq.md)."""

from __future__ import annotations
