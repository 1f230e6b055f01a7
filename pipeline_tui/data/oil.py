"""Oil colours and grades, and their one-letter names used across notation and display.

Source: rulebook, "Oil Types & Grades": three types (Teal, Orange, Silver), four grades
(Crude, Low-Grade, Mid-Grade, High-Grade).
"""

from __future__ import annotations

from enum import IntEnum

from ..i18n import N_, _, quoted

COLOUR_LETTERS = "OTS"  # Colour order: Orange, Teal, Silver
GRADE_LETTERS = "CLMH"  # Grade order: Crude, Low, Mid, High
COLOUR_NAMES = (N_("Orange"), N_("Teal"), N_("Silver"))  # translate where shown: _(name)
GRADE_NAMES = (N_("Crude"), N_("Low-Grade"), N_("Mid-Grade"), N_("High-Grade"))
GRADE_WORDS = (N_("Crude"), N_("Low"), N_("Mid"), N_("High"))  # the Tank Farm's rows
EDGE_LETTERS = "NESW"  # a Pipe tile half's edges, as pipe_tiles.json names a Pipe's path


class Colour(IntEnum):
    """The three oil types; a Pipeline only refines oil of its own colour."""

    ORANGE = 0
    TEAL = 1
    SILVER = 2

    @property
    def letter(self) -> str:
        return COLOUR_LETTERS[self]

    @classmethod
    def from_letter(cls, letter: str) -> "Colour":
        try:
            return cls(COLOUR_LETTERS.index(letter.upper()))
        except ValueError:
            raise ValueError(
                _("unknown oil colour {letter} (use O, T or S)").format(letter=quoted(letter))
            ) from None


class Grade(IntEnum):
    """The four grades of oil; each is also a row of the Tank Farm."""

    CRUDE = 0
    LOW = 1
    MID = 2
    HIGH = 3

    @property
    def letter(self) -> str:
        return GRADE_LETTERS[self]

    @classmethod
    def from_letter(cls, letter: str) -> "Grade":
        try:
            return cls(GRADE_LETTERS.index(letter.upper()))
        except ValueError:
            raise ValueError(
                _("unknown oil grade {letter} (use C, L, M or H)").format(letter=quoted(letter))
            ) from None


COLOURS: tuple[Colour, ...] = tuple(Colour)
GRADES: tuple[Grade, ...] = tuple(Grade)


def barrel_code(colour: int, grade: int) -> str:
    """Two letters naming a barrel: colour then grade, e.g. ``TH`` for High-Grade Teal."""
    return COLOUR_LETTERS[colour] + GRADE_LETTERS[grade]


def parse_barrel(code: str) -> tuple[int, int]:
    """Inverse of :func:`barrel_code`.

    >>> parse_barrel("TH")
    (1, 3)
    """
    if len(code) != 2:
        raise ValueError(
            _("a barrel is two letters, colour then grade (like TH), not {code}").format(code=quoted(code))
        )
    return int(Colour.from_letter(code[0])), int(Grade.from_letter(code[1]))
