"""Claim checks of ``tvgpucb``, one module per topic of the paper."""
