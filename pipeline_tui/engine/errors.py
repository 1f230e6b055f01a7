"""Typed errors of the engine. Each message is one line a player can read."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the rules do not allow now. The message names the rule broken."""


class NotationError(ValueError):
    """Text that is not a move in our notation."""
