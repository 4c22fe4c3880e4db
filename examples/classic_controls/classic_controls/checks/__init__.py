"""The checks of the claims of the two papers (one module per topic)."""
