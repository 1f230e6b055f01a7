"""Finding English left on a Russian screen: every word of Latin letters that is not on a
short list of words that stay Latin in every language (issue 15).

The list, and why each stays Latin:

- the move notation and its codes (``docs/notation.md``): barrel codes (``OL``, ``SH``, ``TC``),
  market codes (``C-OC``), upgrade family codes (``GOV``), the verbs and words of a move;
- Roman numerals of upgrade levels (``I``, ``II``, ``III``);
- key names as the keyboard prints them (``F1``, ``Tab``, ``Enter``, ``Esc``, ``Ctrl``, ...);
- the command names of the program (``pipeline-tui components``), typed as they are;
- the player names a test gives its seats.
"""

from __future__ import annotations

import re

from pipeline_tui.data import components as C

WORD = re.compile(r"[A-Za-z]+")
BARREL_CODE = re.compile(r"^[OST][CLMH]$")
ROMAN = {"I", "II", "III", "IV", "V"}
KEYS = {
    "F",
    "Tab",
    "Enter",
    "Esc",
    "Ctrl",
    "Shift",
    "Space",
    "Up",
    "Down",
    "Left",
    "Right",
    "PgUp",
    "PgDn",
    "Home",
    "End",
    "Backspace",
    "Del",
    "Ins",
    "ctrl",
    "shift",
    "tab",
    "enter",
    "esc",
    "escape",
    "space",
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
}
PROGRAM = {"pipeline", "tui", "components", "PIPELINE", "ssh", "json"}


def english_words(text: str, *, names: tuple[str, ...] = (), notation: tuple[str, ...] = ()) -> list[str]:
    """The words of Latin letters in ``text`` that are not on the list (with ``names``, the
    player names shown), each once, in the order met. ``notation`` are whole moves as the
    notation writes them (``act refined1``): taken out of the text first, so a notation word
    counts only inside a move, never as a word of a sentence."""
    for move in sorted(notation, key=len, reverse=True):
        text = text.replace(move, " ")
    allowed = ROMAN | KEYS | PROGRAM | set(C.UPGRADE_CODES) | set(names)
    found: list[str] = []
    for word in WORD.findall(text):
        if word in allowed or BARREL_CODE.match(word) or len(word) == 1 or word in found:
            continue
        found.append(word)
    return found
