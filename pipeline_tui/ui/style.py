"""Colours and small text helpers shared by the panels.

Colour is never the only carrier of meaning: every barrel and pipe also shows its letter
(O, T, S) and every grade its letter (C, L, M, H).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

# the letter tables, from the one place that holds them (the panels import them from here)
from ..data.oil import COLOUR_LETTERS
from ..data.oil import GRADE_LETTERS as GRADE_LETTERS
from ..data.oil import GRADE_WORDS as GRADE_WORDS
from ..i18n import N_

OIL_LETTERS = COLOUR_LETTERS
OIL_STYLES = ("bold #ff8c1a", "bold #19c3c3", "bold #c8c8d2")  # orange, teal, silver
EMPTY = "dim"


def barrel(colour: int, grade: int | None = None) -> Text:
    """A barrel as its letter(s) in the oil colour, e.g. ``T`` or ``TH``."""
    code = OIL_LETTERS[colour] + ("" if grade is None else GRADE_LETTERS[grade])
    return Text(code, style=OIL_STYLES[colour])


def barrels(pairs: Iterable[tuple[int, int | None]]) -> Text:
    """Several barrels ``(colour, grade)`` separated by spaces."""
    return Text(" ").join(barrel(c, g) for c, g in pairs)


def dollars(amount: int) -> str:
    return f"-${-amount}" if amount < 0 else f"${amount}"


# Seat colours: names offered on the new-game screen (kept in a save's meta, so English there;
# marked N_ to be translated where they are shown) and their styles. None of them is an oil
# colour, so a seat never reads as a barrel.
SEAT_COLOURS = {
    N_("red"): "#ff5f5f",
    N_("blue"): "#5f87ff",
    N_("green"): "#5fd75f",
    N_("magenta"): "#d75fd7",
    N_("yellow"): "#ffd75f",
}
DEFAULT_SEAT_COLOURS = ("red", "blue", "green", "magenta")


def seat_colours(names: object, seats: int) -> list[str]:
    """Colour names per seat: ``names`` when they are known and distinct, else the defaults."""
    if (
        isinstance(names, (list, tuple))
        and len(names) == seats
        and all(isinstance(n, str) and n in SEAT_COLOURS for n in names)
        and len(set(names)) == seats
    ):
        return list(names)
    return list(DEFAULT_SEAT_COLOURS[:seats])


def seat_style(colours: list[str] | None, seat: int) -> str:
    """The style of a seat's name and worker marks (plain when no colours are given)."""
    if not colours or seat >= len(colours):
        return ""
    return SEAT_COLOURS[colours[seat]]
