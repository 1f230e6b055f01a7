"""Textual's own words that the app shows, marked here so the catalogues carry them.

Textual writes its system commands (the palette's "Theme", "Keys", ...) and the key bindings of
its widgets (an Input's "Move cursor left", a scroll area's "Page Down", ...) in English, as
class attributes and literals of its own. The app shows them through ``_()`` where they are
drawn (``ui/app.py`` for the palette, ``ui/footer.py`` for footers and the keys panel), which
finds their translations only if the strings are extracted: this list is what extraction reads.
``tests/ui/test_textual_words.py`` fails when a Textual upgrade brings a word missing here.
"""

from __future__ import annotations

from ..i18n import N_

SYSTEM_COMMANDS = (
    N_("Theme"),
    N_("Change the current theme"),
    N_("Quit"),
    N_("Quit the application as soon as possible"),
    N_("Keys"),
    N_("Hide the keys and widget help panel"),
    N_("Show help for the focused widget and a summary of available keys"),
    N_("Minimize"),
    N_("Minimize the widget and restore to normal size"),
    N_("Maximize"),
    N_("Maximize the focused widget"),
    N_("Screenshot"),
    N_("Save an SVG 'screenshot' of the current screen"),
)
"""Titles and help of ``App.get_system_commands`` (Textual 8.2.8)."""

PALETTE = (
    N_("Search for commands…"),
    N_("No matches found"),
    N_("palette"),
    N_("Open the command palette"),
)
"""The command palette's prompt and what it says when nothing matches (``ui/app.py``
``GamePalette``), and its key's description and tooltip, which footers and the keys panel show."""

KEY_DESCRIPTIONS = (
    N_("Bottom"),
    N_("Copy selected text"),
    N_("Cursor down"),
    N_("Cursor left"),
    N_("Cursor right"),
    N_("Cursor up"),
    N_("Cut selected text"),
    N_("Delete all to the left"),
    N_("Delete all to the right"),
    N_("Delete character left"),
    N_("Delete character right"),
    N_("Delete left to start of word"),
    N_("Delete right to start of word"),
    N_("Dismiss menu"),
    N_("Down"),
    N_("End"),
    N_("Exit the command palette"),
    N_("First"),
    N_("Focus Next"),
    N_("Focus Previous"),
    N_("Go to bottom"),
    N_("Go to end"),
    N_("Go to start"),
    N_("Go to top"),
    N_("Home"),
    N_("Last"),
    N_("Move cursor left"),
    N_("Move cursor left a word"),
    N_("Move cursor left a word and select"),
    N_("Move cursor left and select"),
    N_("Move cursor right a word"),
    N_("Move cursor right a word and select"),
    N_("Move cursor right and select"),
    N_("Move cursor right or accept the completion suggestion"),
    N_("Next command"),
    N_("Next page"),
    N_("Next tab"),
    N_("Page Down"),
    N_("Page Left"),
    N_("Page Right"),
    N_("Page Up"),
    N_("Page down"),
    N_("Page up"),
    N_("Paste text from the clipboard"),
    N_("Previous command"),
    N_("Previous page"),
    N_("Press button"),
    N_("Previous tab"),
    N_("Quit the app and return to the command prompt."),
    N_("Scroll Down"),
    N_("Scroll End"),
    N_("Scroll Home"),
    N_("Scroll Left"),
    N_("Scroll Right"),
    N_("Scroll Up"),
    N_("Select"),
    N_("Select all"),
    N_("Select line end"),
    N_("Select line start"),
    N_("Show menu"),
    N_("Submit"),
    N_("Toggle"),
    N_("Top"),
    N_("Up"),
)
"""The descriptions of the key bindings of Textual's screens and of the widgets the app uses
(Input, OptionList, DataTable, Checkbox, Select, Button, Tabs, scroll containers, the command
palette): the
keys panel lists every binding of the focused widget, shown or not in the footer."""
