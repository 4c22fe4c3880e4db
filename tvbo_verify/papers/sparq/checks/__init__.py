"""Claim checks of ``sparq``, one module per topic of the paper; their readings are READING.md §4."""
