"""Component data: the pipe tiles, markets, shops, Contracts, Orders, upgrades and valuation."""

EDITIONS = (1, 2)
"""The component editions (``editions``): here, so the command line offers them without
loading the components (issue 38, point 3: cold start)."""
PRINTED_EDITION = 2  # what new games use
