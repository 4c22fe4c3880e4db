"""Claim checks of ``wsparq``, one module per topic of the paper."""
