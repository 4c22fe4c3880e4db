"""Statements shared by claims of several papers (e.g. Burt et al.'s transfer bounds)."""
