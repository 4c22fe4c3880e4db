"""Claim checks, one module per paper; importing a module registers its checks."""
