"""Claim checks of ``bolt``, one module per topic of the paper."""
