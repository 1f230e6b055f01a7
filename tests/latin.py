"""Finding English left on a Russian screen: every word of Latin letters that is not on a
short list of words that stay Latin in every language (issue 15).

The list, and why each stays Latin:

- the move notation (``docs/notation.md``), the same ASCII in every language: its verbs and
  action names (``act``, ``put-machine``, ``refined2``), barrel, row and tile-half codes made
  of the colour and grade letters (``OL``, ``SH``, ``CL``, ``TT``), market codes (``C-OC``),
  upgrade family codes (``GOV``); a pipe tile's paths as the plain-text table writes them, by
  the compass letters of the edges they join (``EW:S``, as ``docs/architecture.md`` does);
- Roman numerals of upgrade levels (``I``, ``II``, ``III``);
- key names as Textual and the keyboard print them (``Tab``, ``Enter``, ``pgup``, ``super``);
- the program's and file formats' names as typed (``pipeline-tui components``, ``SVG``), and
  each language named in itself in the language menu (``English``);
- names a test gives: players, their initials as the chart marks its lines (``AA``), the key
  and user of a shared table; file and folder names (paths are taken out first).
"""

from __future__ import annotations

import re

from pipeline_tui.data import components as C
from pipeline_tui.i18n import LANGUAGE_NAMES

WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")
CODE = re.compile(r"^(?:[OSTCLMH]{2,3}|C-[OST][CLMH]|[NESW]{2})$")  # colour, grade, compass letters
PATH = re.compile(r"(?:/[\w.+-]+)+/?|[\w.+-]+\.json\b")
ROMAN = {"I", "II", "III", "IV", "V"}
KEYS = {
    "Tab", "Enter", "Esc", "Ctrl", "Shift", "Space", "Up", "Down", "Left", "Right", "PgUp",
    "PgDn", "Home", "End", "Backspace", "Del", "Ins", "ctrl", "shift", "tab", "enter", "esc",
    "escape", "space", "up", "down", "left", "right", "home", "end", "pgup", "pgdn", "super",
    "backspace", "delete",
}  # fmt: skip
PROGRAM = {"pipeline-tui", "components", "SVG", *LANGUAGE_NAMES.values()}
NOTATION = {
    "act", "second", "gov", "take-gov", "run", "run-machine", "put-machine", "order-place",
    "buy", "sell", "contract", "deferred", "loan", "tank", "take-tank", "machine",
    "take-machine", "stack", "pipe", "take-pipe", "place", "upgrade", "flip", "gov-more",
    "refine", "deliver", "fulfil", "pass", "done", "machines", "end", "decline", "start-tank",
    *C.ACTION_TILES, *C.MARKET_ACTIONS, *C.UPGRADE_CODES,
}  # fmt: skip
"""Every word the move notation writes (``engine/moves.py``, ``format_move``)."""


def english_words(text: str, *, names: tuple[str, ...] = (), notation: tuple[str, ...] = ()) -> list[str]:
    """The words of Latin letters in ``text`` that are not on the list (with ``names``, the
    names shown, and their initials doubled), each once, in the order met. ``notation`` are
    whole moves (``buy C-OC#1``), taken out first; so are paths and file names."""
    for move in sorted(notation, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(move)}(?![\w-])", " ", text)
    text = PATH.sub(" ", text)
    initials = {name[0] * 2 for name in names if name}
    allowed = ROMAN | KEYS | PROGRAM | NOTATION | set(names) | initials
    found: list[str] = []
    for word in WORD.findall(text):
        if word in allowed or CODE.match(word) or len(word) == 1 or word in found:
            continue
        found.append(word)
    return found
