"""The keys panel the palette's "Keys" opens. Its own module: Textual's HelpPanel draws
Markdown, whose parser (markdown-it) the title screen does not need (issue 38, point 3)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import HelpPanel, Markdown

from .footer import TranslatedKeyPanel


class TranslatedHelpPanel(HelpPanel):
    """The keys panel the palette's "Keys" opens, in the language the game speaks (its widget
    help part stays empty: no widget of the app has a ``HELP`` text)."""

    def compose(self) -> ComposeResult:
        yield Markdown(id="widget-help")
        yield TranslatedKeyPanel(id="keys-help")
