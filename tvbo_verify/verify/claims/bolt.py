"""Claim checks for `bolt` (catalog: spec/bolt.md)."""

from __future__ import annotations
