"""The footer in the language the game speaks now.

Binding descriptions are class attributes, made at import time, so they are marked with ``N_``
and translated here, where they are shown (issue 15: strings built at import time are
translated at display). A live language switch recomposes every footer
(``PipelineApp.switch_language``), and the keys come out in the new language.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer

from ..i18n import _


class TranslatedFooter(Footer):
    """Textual's Footer with each key's description through ``_()``. The keys are known by
    their ``description`` (Textual's FooterKey is not public, see ``compat.py``)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._english: WeakKeyDictionary[Widget, str] = WeakKeyDictionary()  # key -> description

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            description = getattr(widget, "description", None)
            if isinstance(description, str) and description:
                self._english[widget] = description
                setattr(widget, "description", _(description))
            yield widget

    def relabel(self) -> None:
        """Say the keys shown in the current language, in place (a language switched live)."""
        for widget, description in list(self._english.items()):
            setattr(widget, "description", _(description))
            widget.refresh(layout=True)
