"""The title screen: new game, continue, load, replay, the tutorial, rules and quit.

The first screen of every start, so this module imports only what the title draws: the menu
reads the saves folder's file names (``storage``'s folder functions), and the screens it opens
(new game, load, help) and the engine load when chosen (issue 38, point 3: cold start).
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from .. import storage
from ..i18n import N_, _
from .footer import SteadyFooter
from .host import host
from .too_small import TooSmall


class TitleScreen(Screen[None]):
    """New game, continue, load, replay, rules, quit."""

    BINDINGS = [Binding("escape", "app.quit", N_("Quit"))]

    def compose(self) -> ComposeResult:
        with Vertical(id="title-box"):
            yield Static(
                # TRANSLATORS: the game's title as its edition in the language prints it.
                Text(_("PIPELINE"), style="bold")
                + Text("\n" + _("refine oil, build pipe networks"), style="dim"),
                id="title-name",
            )
            yield OptionList(id="title-menu")
        yield SteadyFooter()
        yield TooSmall()

    def on_screen_resume(self) -> None:
        self._fill_menu()

    async def language_changed(self) -> None:
        """Draw the title and its menu again in the language now spoken (issue 15)."""
        await self.recompose()
        self._fill_menu()

    def _fill_menu(self) -> None:
        latest = storage.latest_autosave(host(self).saves_dir)
        menu = self.query_one("#title-menu", OptionList)
        menu.set_options(
            [
                Option(_("New game"), id="new"),
                Option(
                    _("Continue latest autosave ({name})").format(name=latest.name)
                    if latest
                    else _("Continue latest autosave (none)"),
                    id="continue",
                    disabled=latest is None,
                ),
                Option(_("Load a saved game"), id="load"),
                Option(_("Replay a saved game"), id="replay"),
                Option(_("Tutorial: a first game, step by step"), id="tutorial"),
                Option(_("Rules and keys"), id="rules"),
                Option(_("Quit"), id="quit"),
            ]
        )
        menu.highlighted = 0
        menu.focus()

    @on(OptionList.OptionSelected, "#title-menu")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        app = host(self)
        choice = event.option.id
        if choice == "new":
            from .screens import NewGameScreen

            self.app.push_screen(NewGameScreen())
        elif choice == "tutorial":
            app.start_tutorial()
        elif choice == "continue":
            latest = storage.latest_autosave(app.saves_dir)
            if latest is not None:
                app.open_file(latest)
        elif choice in ("load", "replay"):
            from .screens import LoadScreen

            self.app.push_screen(LoadScreen(replay=choice == "replay"))
        elif choice == "rules":
            from .screens import HelpScreen

            self.app.push_screen(HelpScreen())
        elif choice == "quit":
            self.app.exit()
