"""Claim checks of ``wgpucb``, one module per topic of the paper."""
