"""The footer and the keys panel in the language the game speaks now.

Binding descriptions are class attributes, made at import time, so they are marked with ``N_``
and translated here, where they are shown (issue 15: strings built at import time are
translated at display). A live language switch recomposes every footer
(``PipelineApp.switch_language``), and the keys come out in the new language. The keys panel
(the palette's "Keys") translates each description as it draws its table, so it follows a
switch too; Textual's own descriptions are marked in ``ui/textual_words.py``.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer, KeyPanel

from ..i18n import _
from .compat import BindingsTable, retell_column, settle_footer_key


class TranslatedFooter(Footer):
    """Textual's Footer with each key's description through ``_()``. The keys are known by
    their ``description`` (Textual's FooterKey is not public, see ``compat.py``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._english: WeakKeyDictionary[Widget, str] = WeakKeyDictionary()  # key -> description
        self._english_tips: WeakKeyDictionary[Widget, str] = WeakKeyDictionary()  # key -> tooltip

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            settle_footer_key(widget, self.compact)
            description = getattr(widget, "description", None)
            if isinstance(description, str) and description:
                self._english[widget] = description
                setattr(widget, "description", _(description))
            if isinstance(widget.tooltip, str) and widget.tooltip:  # shown when the mouse rests
                self._english_tips[widget] = widget.tooltip
                widget.tooltip = _(widget.tooltip)
            yield widget

    def relabel(self) -> None:
        """Say the keys shown in the current language, in place (a language switched live)."""
        for widget, description in list(self._english.items()):
            setattr(widget, "description", _(description))
            widget.refresh(layout=True)
        for widget, tip in list(self._english_tips.items()):
            widget.tooltip = _(tip)


class TranslatedBindingsTable(BindingsTable):
    """The keys panel's table with each description through ``_()``: Textual's table reads the
    English descriptions of the screen's active bindings; this one says them in the language
    spoken when it is drawn, and Textual draws it again whenever the bindings change."""

    def render_bindings_table(self) -> Table:
        table = super().render_bindings_table()
        shown: dict[str, Text] = {}  # a description as Textual writes it -> as said here
        for _node, binding, _enabled, _tooltip in self.screen.active_bindings.values():
            tip = binding.tooltip  # what Textual's table adds after the description, dimmed
            english = " ".join(part for part in (binding.description, tip) if part)
            said = Text(_(binding.description) if binding.description else "", end="")
            if tip:
                said.append((" " if binding.description else "") + _(tip), "dim")
            shown[english] = said

        def retold(cell: RenderableType) -> RenderableType:
            if isinstance(cell, Text) and cell.plain in shown:
                said = shown[cell.plain].copy()
                said.style = cell.style
                return said
            return cell

        retell_column(table, 1, retold)
        return table


class TranslatedKeyPanel(KeyPanel):
    """Textual's KeyPanel with :class:`TranslatedBindingsTable`."""

    def compose(self) -> ComposeResult:
        yield TranslatedBindingsTable(shrink=True, expand=False)
