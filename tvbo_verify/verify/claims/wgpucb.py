"""Claim checks for `wgpucb` (catalog: spec/wgpucb.md)."""

from __future__ import annotations
