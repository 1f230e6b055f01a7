"""Colours and small text helpers shared by the panels.

Colour is never the only carrier of meaning: every barrel and pipe also shows its letter
(O, T, S) and every grade its letter (C, L, M, H).
"""

from __future__ import annotations

from rich.text import Text

OIL_STYLES = ("bold #ff8c1a", "bold #19c3c3", "bold #c8c8d2")  # orange, teal, silver
OIL_LETTERS = "OTS"
GRADE_LETTERS = "CLMH"
GRADE_WORDS = ("Crude", "Low", "Mid", "High")
EMPTY = "dim"


def barrel(colour: int, grade: int | None = None) -> Text:
    """A barrel as its letter(s) in the oil colour, e.g. ``T`` or ``TH``."""
    code = OIL_LETTERS[colour] + ("" if grade is None else GRADE_LETTERS[grade])
    return Text(code, style=OIL_STYLES[colour])


def barrels(pairs) -> Text:
    """Several barrels ``(colour, grade)`` separated by spaces."""
    return Text(" ").join(barrel(c, g) for c, g in pairs)


def dollars(amount: int) -> str:
    return f"-${-amount}" if amount < 0 else f"${amount}"
