"""The footer and the keys panel in the language the game speaks now.

Binding descriptions are class attributes, made at import time, so they are marked with ``N_``
and translated here, where they are shown (issue 15: strings built at import time are
translated at display). A live language switch recomposes every footer
(``PipelineApp.switch_language``), and the keys come out in the new language. The keys panel
(the palette's "Keys") translates each description as it draws its table, so it follows a
switch too; Textual's own descriptions are marked in ``ui/textual_words.py``.
"""

from __future__ import annotations

from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, KeyPanel

from ..i18n import _, current_language
from .compat import (
    BindingsTable,
    footer_keys_shown,
    retell_column,
    settle_footer_key,
    show_footer_key_enabled,
)


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


class SteadyFooter(TranslatedFooter):
    """A Footer that rebuilds its keys only when the keys it shows change, and shows their
    descriptions in the current language.

    Textual's Footer recomposes (new widgets, restyled, laid out) on every bindings signal, and
    every focus change sends one. At the table most focus changes (F2/F3 views, escape) leave
    the shown keys as they were, so that rebuild was most of a view switch's repaint time.
    Binding descriptions are English marked with ``N_`` where the bindings are made; they are
    translated here, as the keys are made, and :meth:`relabel` says them again in a language
    switched live.
    """

    DEFAULT_CSS = """
    SteadyFooter.-compact FooterKey.-command-palette { margin-right: 0; }
    """
    """The palette's key to the right edge: the compact footer's margin left a column there
    where the keys under it showed through ("^p paletten", issue 37)."""

    _shown: tuple[object, ...] = ()
    _built: tuple[object, ...] = ()  # the keys shown when the footer's keys were last made

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._cut: set[Widget] = set()  # keys hidden as they did not fit (_fit)

    def compose(self) -> ComposeResult:
        self._built = self._shown_keys(self.screen) if footer_keys_shown(self) else ()
        self._cut = set()
        yield from super().compose()

    async def recompose(self) -> None:
        await super().recompose()
        self.call_after_refresh(self._fit)

    def on_resize(self) -> None:
        for child in self._cut:
            child.display = True
        self._cut = set()
        self.call_after_refresh(self._fit)

    def _fit(self, again: bool = True) -> None:
        """Hide the keys that do not fit whole left of the palette's key, and all after them:
        on a narrow screen the last one showed cut ("f1 Help  f▏^p palette", issue 37). Keys
        not laid out yet are measured after the next frame."""
        keys = list(self.children)
        if any(not key.region for key in keys if key.display):
            if again:
                self.call_after_refresh(self._fit, False)
            return
        right = next((k.region.x for k in keys if k.has_class("-command-palette")), self.region.right)
        over = False
        for key in keys:
            if key.has_class("-command-palette"):
                continue
            over = over or key.region.right > right
            if over and key.display:
                key.display = False
                self._cut.add(key)

    def _shown_keys(self, screen: Screen[Any]) -> tuple[object, ...]:
        return (current_language(),) + tuple(
            ShownKey(binding.key, binding.action, binding.description, enabled, tooltip)
            for key, (_node, binding, enabled, tooltip) in screen.active_bindings.items()
            if binding.show or key == screen.app.COMMAND_PALETTE_BINDING
        )

    def relabel(self) -> None:
        """Say the keys shown in the current language (a language switched live)."""
        super().relabel()
        self._shown = self._shown_keys(self.screen) if self.is_attached else ()

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if self.is_attached and screen is self.screen and screen.app.app_focus:
            shown = self._shown_keys(screen)
            if shown == self._shown and footer_keys_shown(self):
                return
            self._shown = shown
            if footer_keys_shown(self) and self._show_only(shown):
                return
        super().bindings_changed(screen)

    def _show_only(self, shown: tuple[object, ...]) -> bool:
        """Show just the keys of ``shown``, hiding the others and dimming the disabled ones in
        place, when each of them is a key made at the last rebuild and in the same order;
        ``False`` if the keys must be made anew. The table shows its board keys disabled while
        the move prompt has the focus (``TableScreen.active_bindings``): a rebuild each time
        (new keys, restyled, the screen laid out again), twice for every move typed at a seat,
        cost more than the move's own redraw (issue 38)."""
        built = self._built
        if not built or shown[0] != built[0]:  # another language: every key is said anew
            return False
        entries = [entry for entry in shown[1:] if isinstance(entry, ShownKey)]
        wanted = {entry.same() for entry in entries}
        if [e.same() for e in built[1:] if isinstance(e, ShownKey) and e.same() in wanted] != [
            entry.same() for entry in entries
        ]:
            return False
        children = list(self.children)
        if not all(hasattr(child, "action") for child in children):
            return False  # a group of keys: made as Textual makes it
        keys: dict[tuple[object, object], bool] = {(e.key, e.action): e.enabled for e in entries}
        enabled = {
            child: keys.get((getattr(child, "key", None), getattr(child, "action", None)))
            for child in children
        }
        if any((on is not None) != (child.display or child in self._cut) for child, on in enabled.items()):
            for child, on in enabled.items():  # a key comes or goes: all are fitted again
                child.display = on is not None
            self._cut = set()
            self.call_after_refresh(self._fit)
        for child, on in enabled.items():
            if on is not None:
                show_footer_key_enabled(child, on)
        return True


class ShownKey(NamedTuple):
    """A key as the footer shows it."""

    key: str
    action: str
    description: str
    enabled: bool
    tooltip: str

    def same(self) -> tuple[str, str, str, str]:
        """The key but whether it is enabled (the footer dims a key in place)."""
        return self.key, self.action, self.description, self.tooltip
