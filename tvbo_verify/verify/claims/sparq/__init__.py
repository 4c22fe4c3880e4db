"""Claim checks of ``sparq``, one module per topic of the paper."""
