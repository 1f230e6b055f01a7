"""The cover over a screen whose terminal is smaller than the game needs.

Its own module, as the title imports it and not the table's widgets (``ui.widgets``, issue 38,
point 3: cold start).
"""

from __future__ import annotations

from textual.widgets import Static

from ..i18n import _

MIN_WIDTH, MIN_HEIGHT = 80, 24


class TooSmall(Static):
    """Covers the screen when the terminal is smaller than 80 x 24 (see the breakpoints), in
    the language of the moment it is drawn."""

    def __init__(self) -> None:
        super().__init__(classes="too-small")

    def render(self) -> str:
        return _(
            "The terminal is too small.\n\nPipeline needs at least {width} x {height} "
            "characters; {wide} x {high} shows the whole table.\n"
            "Enlarge the window, or press ctrl+q to save and quit."
        ).format(width=MIN_WIDTH, height=MIN_HEIGHT, wide=MIN_WIDTH * 2, high=MIN_HEIGHT * 2)
