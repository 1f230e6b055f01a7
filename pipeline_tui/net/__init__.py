"""Shared tables, headless: the Hub that holds every table authoritatively, its protocol, its
client, the replica a session plays on, and a session's CPU priority (docs/shared-tables.md).
Below the ui; the front ends that let players sit at the tables are in ``serve``."""
