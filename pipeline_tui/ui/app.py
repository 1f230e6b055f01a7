"""The Textual application: screens, global keys and the command palette.

The palette also switches the language live ("Language: Русский", "Language: English", each
named in itself): every screen on the stack is redrawn in the new language and the choice is
remembered for the next start (:func:`pipeline_tui.i18n.remember_language`; a shared table
remembers it per key on the server instead). Issue 15, point 2.

Where the app runs decides what its palette may do beyond the game (:class:`Served`, issue 36,
point 3): in a browser tab of ``pipeline-tui web`` or an SSH session of ``pipeline-tui serve``
the machine is the server's, so nothing there writes on its disk outside the game's own files.
"""

from __future__ import annotations

import contextlib
import enum
import gc
import inspect
import os
import random
import select
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence, TypeGuard

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.command import CommandPalette
from textual.widgets import Footer

from .. import storage
from ..i18n import LANGUAGE_NAMES, LANGUAGES, N_, _, current_language, remember_language, set_language
from .compat import SayingPalette
from .footer import TranslatedFooter
from .title import TitleScreen

if TYPE_CHECKING:
    from ..engine import ClockSetting, Game, GameSetup
    from ..net.remote import RemoteGame
    from .host import Host
    from .seats import HotSeat
    from .table_screen import TableScreen

# The title is the first screen of every start: the other screens, the table, the engine and
# the bots are imported when first opened, not on the way to it (issue 38, point 3: cold start;
# tests/ui/test_cold_start.py).

MODES = ("title", "new", "load", "replay")
SERVER_GONE_GRACE = 2.0  # seconds a browser tab's app has to quit once its server is gone


def table_screen() -> type[TableScreen]:
    """The table's screen class, imported when first needed: the title does not draw a table
    (issue 38, point 3: cold start)."""
    from .table_screen import TableScreen

    return TableScreen


def is_table(screen: object) -> TypeGuard[TableScreen]:
    """Whether ``screen`` is a table's screen, without importing the table (none was opened if
    its module is not loaded)."""
    module = sys.modules.get(f"{__package__}.table_screen")
    return module is not None and isinstance(screen, module.TableScreen)


class Served(enum.Enum):
    """Whom the app runs for, told by whoever starts it (never guessed from the terminal).

    - ``LOCAL``: the player's own terminal; the machine is theirs, every command is offered.
    - ``WEB``: a browser tab of ``pipeline-tui web`` (``title --served web``); the machine is
      the server's. A screenshot goes to the browser as a download (Textual's web driver), one
      at a time, never to the server's disk; a language chosen holds for the tab and is not
      remembered in the server's settings file. The saves folder is the game's (``web
      --saves``), so saving and loading games stay.
    - ``SSH``: a session of ``pipeline-tui serve`` (``SharedApp``); no screenshot at all (it
      would be written on the server's disk); the language is kept per key by the Hub.

    Quitting ends only the tab's or session's own process, and a theme lives in that process,
    so both stay everywhere.
    """

    LOCAL = "local"
    WEB = "web"
    SSH = "ssh"


SCREENSHOT = "Screenshot"  # Textual's palette command that writes a picture of the screen


class GamePalette(SayingPalette):
    """The command palette in the language the game speaks (its prompt is given to it)."""

    def no_matches(self) -> str:
        return _("No matches found")


class PipelineApp(App[Any]):
    """Pipeline at the terminal: hot-seat play, saves and the score sheet."""

    TITLE = "Pipeline"
    CSS_PATH = "app.tcss"
    HORIZONTAL_BREAKPOINTS = [(0, "-tiny"), (80, "-narrow"), (150, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]
    BINDINGS = [
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),
        Binding("f1", "help", N_("Help")),
        # F7 is listed in the footer only where the footer has room for it (see check_action);
        # the hidden binding after it answers F7 at every width.
        Binding("f7", "reference_listed", N_("Components")),
        Binding("f7", "reference", N_("Components"), show=False),
    ]
    FOOTER_ROOM_FOR_F7 = 150  # columns: a narrower table's footer is full with its own keys

    settle_heap = False
    """Whether to move what the start made out of the garbage collector's way once the first
    screen is drawn (``run_app``; tests leave it)."""

    css_cache: Path | None = None
    """Where to keep the stylesheet parsed for the first screen, once it is drawn (``run_app``,
    ``css_cache``; tests leave it)."""

    def __init__(
        self,
        mode: str = "title",
        players: int | Sequence[str] | None = None,
        seed: int | None = None,
        first_game: bool = False,
        file: str | Path | None = None,
        saves_dir: str | Path | None = None,
        bots: str | None = None,
        clock: ClockSetting | None = None,
        served: Served = Served.LOCAL,
    ) -> None:
        super().__init__()
        self.clock = clock  # a clock for the new game (``new --clock``)
        self.served = served
        self.screenshot_pending = False  # WEB: a screenshot on its way to the browser
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode_name = mode
        self.players = players
        self.seed = seed
        self.first_game = first_game
        self.bots = bots  # a bot kind for every seat after the first, or None
        self.file = Path(file) if file else None
        self.saves_dir = Path(saves_dir) if saves_dir else storage.default_saves_dir()

    def on_mount(self) -> None:
        if self.served is Served.WEB and self.is_web and sys.__stdin__ is not None:
            threading.Thread(
                target=self.end_with_server, args=(sys.__stdin__.fileno(),), name="server-gone", daemon=True
            ).start()
        if self.css_cache is not None:
            self.call_after_refresh(self._keep_parsed_css, self.css_cache)
        if self.settle_heap:
            self.call_after_refresh(self._settle_heap)
        self.push_screen(TitleScreen())
        if self.mode_name == "new":
            if self.players is None:
                from .screens import NewGameScreen

                self.push_screen(NewGameScreen(seed=self.seed, first_game=self.first_game, clock=self.clock))
            else:
                self.start_game(self._setup_from_options())
        elif self.mode_name in ("load", "replay"):
            if self.file is not None:
                self.open_file(self.file, replay=self.mode_name == "replay")
            else:
                from .screens import LoadScreen

                self.push_screen(LoadScreen(replay=self.mode_name == "replay"))

    def end_with_server(self, fd: int) -> None:
        """(A thread of a browser tab's app.) Wait until the server's end of the pipe ``fd``
        (the tab's input) closes, as it does when the server is gone, even killed by SIGKILL;
        then quit, and end the process :data:`SERVER_GONE_GRACE` seconds later if quitting has
        not (its output goes nowhere), so that no tab outlives its server."""
        poller = select.poll()
        poller.register(fd, 0)  # no event asked for: only a hang-up or an error wakes it
        while not poller.poll():
            pass
        timer = threading.Timer(SERVER_GONE_GRACE, os._exit, args=(1,))
        timer.daemon = True
        timer.start()
        with contextlib.suppress(Exception):  # the app has ended meanwhile
            self.call_from_thread(self.exit)

    def _keep_parsed_css(self, path: Path) -> None:
        """Keep on disk what the first screen's stylesheet parsed, for the next start."""
        from . import css_cache

        css_cache.save(self, path)

    def _settle_heap(self) -> None:
        """Collect once and freeze what is left: the objects of the start live for good, so
        full collections stay short during play. After the first frame, not before it: the
        collection is about 10 ms that the title need not wait for (issue 38, point 3). The
        collector, off since ``run_app`` began, is on again from here."""
        gc.collect()
        gc.freeze()
        gc.enable()

    def _setup_from_options(self) -> GameSetup:
        from ..data import PRINTED_EDITION
        from ..engine import GameSetup, PlayerSetup
        from .screens import DEFAULT_NAMES

        if isinstance(self.players, int):
            names: Sequence[str] = DEFAULT_NAMES[: self.players]
        else:
            names = list(self.players or DEFAULT_NAMES[:2])
        seed = self.seed if self.seed is not None else random.randrange(2**31)
        return GameSetup(
            seed=seed,
            players=tuple(
                PlayerSetup(n) if i == 0 or self.bots is None else PlayerSetup(n, self.bots)
                for i, n in enumerate(names)
            ),
            first_game=self.first_game,
            edition=PRINTED_EDITION,
            clock=self.clock,
        )

    # --- navigation ---
    def _back_to_title(self) -> None:
        while len(self.screen_stack) > 2:
            self.pop_screen()

    def start_game(
        self, setup: GameSetup, colours: list[str] | None = None, policy: HotSeat | None = None
    ) -> None:
        """Open the table for a new game (``colours``: a colour name per seat; ``policy``: how
        it is played, hot-seat unless told)."""
        from ..engine import Game

        try:
            game = Game(setup)
        except ValueError as exc:
            self.notify(str(exc), severity="error")
            return
        self._back_to_title()
        self.push_screen(table_screen()(game, self.saves_dir, colours=colours, policy=policy))

    def start_tutorial(self, seed: int | None = None) -> None:
        """The guided first game: the rulebook's first-game setup against one computer player,
        coached through the first Round (ui/tutorial.py)."""
        from .tutorial import Tutorial, tutorial_setup

        seed = seed if seed is not None else random.randrange(2**31)
        self.start_game(tutorial_setup(seed), policy=Tutorial())

    def open_file(self, path: Path, replay: bool = False) -> None:
        """Load a save and open it at the table (or in the replay viewer)."""
        path = Path(path)
        try:
            save = storage.read_save(path)
            game = storage.game_from_save(save, path.name)
        except storage.SaveError as exc:
            self.notify(str(exc), severity="error", timeout=8)
            return
        colours = save.meta.get("colours")
        self._back_to_title()
        if replay:
            from .seats import Replay

            self.push_screen(table_screen()(game, self.saves_dir, colours=colours, policy=Replay()))
        else:
            self.push_screen(
                table_screen()(game, self.saves_dir, save_name=self._autosave_name(path), colours=colours)
            )

    def play_on(self, game: Game, save_name: str, colours: list[str]) -> None:
        """The replay viewer's "play on": a hot-seat table of ``game`` in its place."""
        self.pop_screen()
        self.push_screen(table_screen()(game, self.saves_dir, save_name=save_name, colours=colours))

    def _autosave_name(self, path: Path) -> str | None:
        """Keep writing to an autosave we continue; a named save is never overwritten."""
        path = Path(path)
        in_folder = path.parent.resolve() == self.saves_dir.resolve()
        return path.name if in_folder and path.name.startswith(storage.AUTOSAVE_PREFIX) else None

    def show_scores(self, game: Game | RemoteGame, colours: list[str] | None = None) -> None:
        from .screens import EndScreen

        if not isinstance(self.screen, EndScreen):
            self.push_screen(EndScreen(game, colours))

    def ask_save_as(self, game: Game, meta: dict[str, Any] | None = None) -> None:
        from .screens import SaveAsScreen

        self.push_screen(SaveAsScreen(game, meta))

    def new_game(self) -> None:
        """The new-game form."""
        from .screens import NewGameScreen

        self.push_screen(NewGameScreen())

    def choose_save(self, replay: bool) -> None:
        """The saves folder's list, to load a game or (``replay``) to step through one."""
        from .screens import LoadScreen

        self.push_screen(LoadScreen(replay=replay))

    def action_to_title(self) -> None:
        self._back_to_title()

    def action_help(self) -> None:
        from .screens import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "reference_listed" and is_table(self.screen):
            return self.size.width >= self.FOOTER_ROOM_FOR_F7
        return True

    def on_resize(self) -> None:
        self.refresh_bindings()

    def action_reference_listed(self) -> None:
        self.action_reference()

    def action_reference(self) -> None:
        """Every component table with its source (``pipeline-tui components``): of the edition
        of the game on show, else of the edition new games use."""
        from .reference_screen import ReferenceScreen

        if isinstance(self.screen, ReferenceScreen):
            return
        tables = [s for s in self.screen_stack if is_table(s)]
        if tables:
            self.push_screen(ReferenceScreen(tables[-1].game.setup.edition))
        else:
            self.push_screen(ReferenceScreen())

    def _table(self) -> TableScreen | None:
        """The live game's table, if one is open (the replay viewer is not a live game)."""
        for screen in reversed(self.screen_stack):
            if is_table(screen) and screen.policy.live:
                return screen
        return None

    async def action_quit(self) -> None:
        """Quit from anywhere, saving the game at the table first."""
        table = self._table()
        if table is not None and table.game.moves:
            table.autosave()
        self.exit()

    def action_command_palette(self) -> None:
        """Open the command palette, its prompt in the language spoken."""
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(GamePalette(placeholder=_("Search for commands…"), id="--command-palette"))

    def action_show_help_panel(self) -> None:
        """Show the keys panel (the palette's "Keys"), its descriptions in the language spoken."""
        from textual.widgets import HelpPanel  # Markdown: not on the way to the title

        from .help_panel import TranslatedHelpPanel

        if not self.screen.query(HelpPanel):
            self.screen.mount(TranslatedHelpPanel())

    # --- language ---
    def language_commands(self) -> Iterable[SystemCommand]:
        """One palette command per other language, each named in its own language."""
        for language in LANGUAGES:
            if language != current_language():
                yield SystemCommand(
                    _("Language: {name}").format(name=LANGUAGE_NAMES[language]),
                    _("Speak this language in this tab")
                    if self.served is Served.WEB
                    else _("Speak this language from now on, and at the next start"),
                    lambda language=language: self.switch_language(language),
                )

    def switch_language(self, language: str) -> None:
        """Speak ``language`` now: every screen on the stack is drawn again in it, and the
        choice is remembered for the next start."""
        set_language(language)
        for screen in list(self.screen_stack):
            # in the screen's own context: what its compose binds data to is the screen
            screen.call_next(self.redraw_screen, screen)
        self.refresh_bindings()
        self.remember(language)

    async def redraw_screen(self, screen: Screen[Any]) -> None:
        """Draw ``screen`` again in the current language: its own ``language_changed`` if it has
        one (a screen that keeps state in its widgets), else the table from its state, else a
        fresh compose followed by its ``on_mount``; then its footers (the keys' descriptions)."""
        hook = getattr(screen, "language_changed", None)
        if callable(hook):
            result = hook()
            if inspect.isawaitable(result):
                await result
        elif is_table(screen):
            screen.refresh_table()
        else:
            await screen.recompose()
            mount = getattr(screen, "on_mount", None)
            if callable(mount):
                result = mount()
                if inspect.isawaitable(result):
                    await result
        for footer in screen.query(Footer):
            if isinstance(footer, TranslatedFooter):
                footer.relabel()
            else:
                footer.refresh(recompose=True)

    def remember(self, language: str) -> None:
        """Keep the language for the next start (here: the settings file; not for a browser
        tab, whose settings file would be the server's)."""
        if self.served is Served.WEB:
            return
        try:
            remember_language(language)
        except OSError as exc:
            self.notify(
                _("The language is not remembered for the next start: {reason}").format(
                    reason=exc.strerror or exc
                ),
                severity="warning",
            )

    def textual_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's own palette commands (Theme, Quit, Keys, ...) with their titles and help
        through ``_()`` (marked in ``textual_words.py``) but their own callbacks; Screenshot
        only where it cannot write on a server's disk (:class:`Served`)."""
        for command in App.get_system_commands(self, screen):
            if command.title == SCREENSHOT and self.served is not Served.LOCAL:
                if self.served is Served.WEB:
                    yield SystemCommand(
                        _(SCREENSHOT),
                        _("Download an SVG picture of the screen"),
                        lambda: self.set_timer(0.1, self.screenshot_to_browser),
                    )
                continue
            yield command._replace(title=_(command.title), help=_(command.help))

    def screenshot_to_browser(self) -> None:
        """A browser tab's screenshot, sent to the browser as a download (Textual's web
        driver); one at a time, so a tab that never fetches them cannot pile them up."""
        if self.served is not Served.WEB or not self.is_web:
            # only Textual's web driver sends a file to the browser; any other writes it here
            self.notify(_("A screenshot goes only to a browser."), severity="warning")
            return
        if self.screenshot_pending:
            self.notify(_("A screenshot is still on its way to the browser."), severity="warning")
            return
        self.screenshot_pending = True
        self.deliver_screenshot()

    def on_delivery_complete(self, event: events.DeliveryComplete) -> None:
        self.screenshot_pending = False

    def on_delivery_failed(self, event: events.DeliveryFailed) -> None:
        self.screenshot_pending = False

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette's commands in the language spoken: Textual's own
        (:meth:`textual_commands`), then the game's."""
        yield from self.textual_commands(screen)
        yield from self.language_commands()
        yield SystemCommand(_("New game"), _("Set up a new game"), self.new_game)
        yield SystemCommand(_("Load game"), _("Open a saved game"), lambda: self.choose_save(replay=False))
        yield SystemCommand(
            _("Replay game"), _("Step through a saved game"), lambda: self.choose_save(replay=True)
        )
        yield SystemCommand(_("Rules and keys"), _("The rules in brief and every key"), self.action_help)
        yield SystemCommand(
            _("Components"), _("Every component table with its source"), self.action_reference
        )
        table = self._table()
        if table is not None:
            yield SystemCommand(
                _("Save game as"),
                _("Save this game under a name"),
                table.action_save_as,
            )
            yield SystemCommand(
                _("Scores"),
                _("The score sheet (a projection until the end)"),
                lambda: self.show_scores(table.game),
            )
            yield SystemCommand(_("Undo move"), _("Take back the last move"), table.action_undo)
            yield SystemCommand(_("Redo move"), _("Play the undone move again"), table.action_redo)
        yield SystemCommand(_("Title screen"), _("Back to the title screen"), self.action_to_title)


if TYPE_CHECKING:
    _APP_IS_A_HOST: type[Host] = PipelineApp  # the screens reach the app through ui/host.py
