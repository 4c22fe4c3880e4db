"""Claim checks for `tvgpucb` (catalog: spec/tvgpucb.md)."""

from __future__ import annotations
