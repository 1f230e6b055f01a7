"""Small widgets shared by several screens."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer, Static

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


class SteadyFooter(Footer):
    """A Footer that rebuilds its keys only when the keys it shows change.

    Textual's Footer recomposes (new widgets, restyled, laid out) on every bindings signal, and
    every focus change sends one. At the table most focus changes (F2/F3 views, escape) leave
    the shown keys as they were, so that rebuild was most of a view switch's repaint time.
    """

    _shown: tuple = ()

    def _shown_keys(self, screen: Screen) -> tuple:
        return tuple(
            (binding.key, binding.action, binding.description, enabled, tooltip)
            for key, (_node, binding, enabled, tooltip) in screen.active_bindings.items()
            if binding.show or key == screen.app.COMMAND_PALETTE_BINDING
        )

    def bindings_changed(self, screen: Screen) -> None:
        if self.is_attached and screen is self.screen and screen.app.app_focus:
            shown = self._shown_keys(screen)
            if shown == self._shown and self._bindings_ready:
                return
            self._shown = shown
        super().bindings_changed(screen)
