"""The footer in the language the game speaks now.

Binding descriptions are class attributes, made at import time, so they are marked with ``N_``
and translated here, where they are shown (issue 15: strings built at import time are
translated at display). A live language switch recomposes every footer
(``PipelineApp.switch_language``), and the keys come out in the new language.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer

from ..i18n import _


class TranslatedFooter(Footer):
    """Textual's Footer with each key's description through ``_()``. The keys are known by
    their ``description`` (Textual's FooterKey is not public, see ``compat.py``)."""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            description = getattr(widget, "description", None)
            if isinstance(description, str) and description:
                setattr(widget, "description", _(description))
            yield widget
