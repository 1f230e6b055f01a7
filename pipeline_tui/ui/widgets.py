"""Small widgets shared by several screens."""

from __future__ import annotations

from textual.widgets import Static

MIN_WIDTH, MIN_HEIGHT = 80, 24


class TooSmall(Static):
    """Covers the screen when the terminal is smaller than 80 x 24 (see the breakpoints)."""

    def __init__(self) -> None:
        super().__init__(
            f"The terminal is too small.\n\nPipeline needs at least {MIN_WIDTH} x {MIN_HEIGHT} "
            f"characters; {MIN_WIDTH * 2} x {MIN_HEIGHT * 2} shows the whole table.\n"
            "Enlarge the window, or press ctrl+q to save and quit.",
            classes="too-small",
        )
