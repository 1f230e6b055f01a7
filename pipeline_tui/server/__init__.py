"""Shared tables: the Hub that holds every table authoritatively, its protocol and its client,
and the SSH front end that lets players sit at them (docs/shared-tables.md)."""
