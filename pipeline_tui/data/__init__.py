"""Component data: the pipe tiles, markets, shops, Contracts, Orders, upgrades and valuation."""
