"""Shared tables over SSH: the lobby (list, create, join, watch, come back) and its app.

Each SSH session runs :class:`SharedApp` in its own process. The app talks to the server's Hub
through a ``TableClient``; the lobby lists the Hub's tables and a table opens in a
``TableScreen`` with a ``SharedSeat`` over a ``RemoteGame``. The Hub decides who may sit, move
and undo.

Each session speaks its player's language: the one their ssh client asked for, or the one
chosen here (``l`` in the lobby, or the palette), which the Hub remembers for their key and
which the next session starts in (``serve/session.py`` has the order). What the Hub says
(refusals, who joined or left) arrives as a message id and is shown in this session's language.

Correspondence play (issue 40): the tables where it is your turn come first, longest waiting
first, with how long they have waited; a player who connects with turns waiting is told how
many; and ``b`` turns on a bell for when your turn comes (kept for your key, like the language).

Watchers share a screen (issue 38): a session that watches a table it has drawn, holding no
seat at a table still in play, says so (:meth:`SharedApp.sharing_changed`), and ``serve`` may
show that watcher a *stand* instead: one app (``stand=True``) drawing the table for every
watcher alike. A watcher who presses a key gets a session of their own again, opened straight
at the table (``watch=``), with their key kept until the table is shown.
"""

from __future__ import annotations

import contextlib
import gc
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Label, OptionList, Static
from textual.widgets.option_list import Option

from ..engine import GameSetup, SeatKind, format_duration
from ..i18n import (
    ENV_LANG,
    LANGUAGES,
    N_,
    _,
    current_language,
    language_of,
    ngettext,
    set_language,
)
from ..net.client import TableClient
from ..net.protocol import SeatInfo, TableError, TableInfo, Update, table_name
from ..net.remote import RemoteGame
from .app import PipelineApp, Served
from .compat import StyledOnce, preset_breakpoints, share_parsed_css
from .screens import NewGameScreen
from .seats import SharedSeat
from .table_screen import TableScreen
from .widgets import SteadyFooter, TooSmall

if TYPE_CHECKING:
    from textual.dom import DOMNode

REFRESH_SECONDS = 2.0  # the lobby list is read again this often
MAX_HELD = 64  # input events kept while a session opens at a table (serve replays a key or a few)
SharedView = tuple[str, str, str]  # a watched table, the language and the theme it is drawn in
# Input that may change what a watcher's table shows (pointer moves and focus changes do not:
# serve drops those from a watcher sharing a stand's screen).
TOUCHING = (
    events.Key,
    events.MouseDown,
    events.MouseUp,
    events.MouseScrollDown,
    events.MouseScrollUp,
    events.MouseScrollLeft,
    events.MouseScrollRight,
    events.Paste,
)


def shared_app(node: DOMNode) -> SharedApp:
    """The shared table's app a lobby screen is in."""
    app = node.app
    assert isinstance(app, SharedApp)
    return app


def your_turn(info: TableInfo) -> bool:
    """It is your turn at this table (one of your seats is to act)."""
    return not info.over and info.to_act in info.yours


def seat_text(seat: SeatInfo, info: TableInfo) -> str:
    """One seat of a lobby line: ``Ada: you``, ``Bo: bob``, ``Cy: open``, ``Di: computer``.
    "you" is by key (the Hub marks your seats), not by name: two players may share a name."""
    if seat.kind != SeatKind.HUMAN:
        return _("{name}: computer").format(name=seat.name)
    if seat.holder is None:
        return _("{name}: open").format(name=seat.name)
    who = _("you") if seat.seat in info.yours else seat.holder
    if not seat.connected:
        return _("{name}: {who} (away)").format(name=seat.name, who=who)
    return _("{name}: {who}").format(name=seat.name, who=who)


class LobbyScreen(StyledOnce):
    """The server's tables: enter opens a table's seats, w watches, n sets up a new table, l
    switches the language (kept for your key)."""

    DEFAULT_CSS = """
    #lobby-box { padding: 1 2; }
    #tables { height: 1fr; }
    #lobby-error { color: $error; height: auto; }
    #lobby-hints { height: auto; }
    #lobby-bell { height: auto; }
    """

    BINDINGS = [
        Binding("n", "new_table", N_("New table")),
        Binding("h", "toggle_hints", N_("Hints"), show=False),
        Binding("b", "toggle_bell", N_("Bell"), show=False),
        Binding("l", "language", N_("Language")),
        Binding("w", "watch", N_("Watch")),
        Binding("r", "refresh", N_("Refresh")),
        Binding("escape", "app.quit", N_("Quit")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[TableInfo] = []
        self.your_turns: set[str] | None = None  # the tables where it was your turn (None: not read yet)
        self.shown: tuple[str, list[tuple[str, tuple[str, ...]]]] | None = None  # heading, rows
        self.error = ""  # the last error said under the list
        self.errors = 0  # errors said so far: a list asked for before the last one keeps it
        self.listed = False  # a list was shown (the first one keeps an error said before it)

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box"):
            yield Label(_("Shared tables"), id="lobby-heading", classes="heading")
            yield Static(id="lobby-who", classes="dim")
            yield DataTable(id="tables", cursor_type="row", zebra_stripes=True)
            yield Static(id="lobby-error")
            yield Static(
                _("Enter: sit at a seat (or back at yours)   w: watch   n: new table"),
                classes="dim",
            )
            yield Static(id="lobby-hints", classes="dim")
            yield Static(id="lobby-bell", classes="dim")
        yield SteadyFooter()  # its keys made once, not again for each bindings signal
        yield TooSmall()

    def on_mount(self) -> None:
        self._fill()
        self.poll = self.set_interval(REFRESH_SECONDS, self.action_refresh)
        self.action_refresh()

    def _fill(self) -> None:
        """What compose leaves empty: who you are, the list's columns, the hints option."""
        client = shared_app(self).hub_client
        self.query_one("#lobby-who", Static).update(
            _("You are {name} (key {key})").format(name=client.name, key=client.identity)
        )
        table = self.query_one("#tables", DataTable)
        table.add_columns(_("Table"), _("Seats"), _("Year"), _("Round"), _("Moves"), _("State"))
        table.focus()
        self._show_hints_option()
        self._show_bell_option()
        self._say(self.error)  # said before the lobby was drawn (a table it opened at was gone)

    async def language_changed(self) -> None:
        """Draw the lobby again in the language just chosen (the list as last read)."""
        await self.recompose()
        self._fill()
        self.shown = None  # new widgets: the list goes into them
        self.show_tables(self.tables)

    def action_language(self) -> None:
        """l: the next language the game speaks, here and at this key's next session."""
        following = LANGUAGES[(LANGUAGES.index(current_language()) + 1) % len(LANGUAGES)]
        shared_app(self).switch_language(following)

    def on_screen_resume(self) -> None:
        self.poll.resume()
        self.action_refresh()

    def on_screen_suspend(self) -> None:
        """A table (or a dialog) is over the lobby: stop asking for the list. Each poll started
        a worker, and every 2 s that redrew the whole table screen in every session."""
        self.poll.pause()

    @work(exclusive=True, group="lobby-list")
    async def action_refresh(self) -> None:
        if self.app.screen is not self:
            return  # a table is open over the lobby: nothing to show
        tables: list[TableInfo] | TableError
        asked = self.errors
        try:
            tables = await shared_app(self).hub_client.list_tables()
        except TableError as exc:
            tables = exc
        if self.app.screen is not self:  # (is_current also holds behind a table)
            return  # a table opened, or the lobby was left, while the list was on its way
        # the app may be shutting down with the list on its way: its widgets are already gone
        with contextlib.suppress(NoMatches):
            if isinstance(tables, TableError):
                self.show_error(tables.shown())
            else:
                self.show_tables(tables, keep_error=asked != self.errors or not self.listed)

    def show_tables(self, tables: list[TableInfo], keep_error: bool = False) -> None:
        """Show the list (as it was: nothing drawn again); ``keep_error``: the error said
        under it stays (it came after the list was asked for, or before the first list)."""
        table = self.query_one("#tables", DataTable)
        current = self.current()
        waiting = [info for info in tables if your_turn(info)]
        waiting.sort(key=lambda info: -info.waited)  # the longest waiting first
        tables = waiting + [info for info in tables if not your_turn(info)]
        self._turns_waiting({info.id for info in waiting})
        self.tables = tables
        self.listed = True
        heading = _("Shared tables")
        if tables:
            count = ngettext("{n} table", "{n} tables", len(tables)).format(n=len(tables))
            heading = _("{heading}: {count}").format(heading=heading, count=count)
        rows = [(info.id, self._row(info)) for info in tables]
        if (heading, rows) == self.shown:
            return  # the list every 2 s, as it was: nothing to lay out and draw again
        self.shown = (heading, rows)
        table.clear()
        self.query_one("#lobby-heading", Label).update(heading)
        for table_id, row in rows:
            table.add_row(*row, key=table_id)
        if not tables:
            self._say(_("No tables yet: press n to set one up."))
        elif current is not None and current.id in {t.id for t in tables}:
            table.move_cursor(row=table.get_row_index(current.id))
            self._say("")
        else:
            self._say("")
        if keep_error and self.error:
            self._say(self.error)

    def _row(self, info: TableInfo) -> tuple[str, ...]:
        """A table's line in the list."""
        state = _("finished") if info.over else _("in play")
        if your_turn(info):
            state = _("your turn")
            if info.clock:
                state = _("your turn, waiting {time}").format(time=format_duration(info.waited))
        if info.clock:
            state += ", " + info.clock
        return (
            table_name(info.id, info.name),
            ", ".join(seat_text(s, info) for s in info.seats),
            str(info.year),
            str(info.round),
            str(info.moves),
            state + (_(", hints") if info.hints else ""),
        )

    def current(self) -> TableInfo | None:
        table = self.query_one("#tables", DataTable)
        if not self.tables or not 0 <= table.cursor_row < len(self.tables):
            return None
        return self.tables[table.cursor_row]

    def show_error(self, text: str) -> None:
        """Say what went wrong under the list, until the next list asked for after it is
        shown (drawn when the lobby is, if it is not yet)."""
        self.shown = None  # the next list, even as it was, replaces the line
        self.error = text
        self.errors += 1
        with contextlib.suppress(NoMatches):  # not drawn yet: _fill says it
            self._say(text)

    def _say(self, text: str) -> None:
        self.query_one("#lobby-error", Static).update(Text(text, style="red") if text else "")

    @on(DataTable.RowSelected, "#tables")
    def _chosen(self) -> None:
        info = self.current()
        if info is not None:
            self.app.push_screen(SeatScreen(info))

    def action_watch(self) -> None:
        info = self.current()
        if info is not None:
            shared_app(self).join(info.id, None)

    def action_new_table(self) -> None:
        self.app.push_screen(NewGameScreen(computers=False))  # a shared table waits for people

    def action_toggle_hints(self) -> None:
        """h: whether the tables made from here on offer hints (a table's option, chosen when
        it is made and kept with it; off unless turned on here)."""
        app = shared_app(self)
        app.new_table_hints = not app.new_table_hints
        self._show_hints_option()

    def _turns_waiting(self, yours: set[str]) -> None:
        """On the first list: how many tables wait for your move; later, a bell (if asked
        for) when your turn comes at a table."""
        before, self.your_turns = self.your_turns, yours
        if before is None:
            if yours and not shared_app(self).stand:  # a stand's notices are nobody's
                count = len(yours)
                self.notify(
                    ngettext("It is your turn at {n} table.", "It is your turn at {n} tables.", count).format(
                        n=count
                    )
                )
        elif yours - before and shared_app(self).turn_bell:
            self.app.bell()

    def action_toggle_bell(self) -> None:
        """b: a bell when your turn comes at a table (kept for your key by the server)."""
        self._set_bell(not shared_app(self).turn_bell)

    @work(exclusive=True, group="lobby-bell")
    async def _set_bell(self, on: bool) -> None:
        try:
            await shared_app(self).hub_client.set_bell(on)
        except TableError as exc:
            self.show_error(exc.shown())
            return
        with contextlib.suppress(NoMatches):
            self._show_bell_option()

    def _show_bell_option(self) -> None:
        if shared_app(self).turn_bell:
            line = _("b: a bell when your turn comes: on")
        else:
            line = _("b: a bell when your turn comes: off (b turns it on)")
        self.query_one("#lobby-bell", Static).update(line)

    def _show_hints_option(self) -> None:
        if shared_app(self).new_table_hints:
            line = _("h: hints at new tables: on (each player may ask the computer on their turn)")
        else:
            line = _("h: hints at new tables: off (h turns them on)")
        self.query_one("#lobby-hints", Static).update(line)


class SeatScreen(ModalScreen[None]):
    """A table's seats: come back to yours, sit at an open one, or watch."""

    DEFAULT_CSS = """
    SeatScreen { align: center middle; }
    #seat-box { width: 64; height: auto; border: round $accent; padding: 1 2; background: $surface; }
    #seat-menu { height: auto; max-height: 10; }
    """
    BINDINGS = [Binding("escape", "dismiss", N_("Back"))]

    def __init__(self, info: TableInfo) -> None:
        super().__init__()
        self.info = info

    def compose(self) -> ComposeResult:
        with Vertical(id="seat-box"):
            yield Label(table_name(self.info.id, self.info.name), classes="heading")
            yield OptionList(*self.options(), id="seat-menu")

    def options(self) -> list[Option]:
        mine = [s for s in self.info.seats if s.seat in self.info.yours]
        options = []
        for seat in self.info.seats:
            label = _("Seat {number}, {seat}").format(number=seat.seat + 1, seat=seat_text(seat, self.info))
            if seat in mine:
                options.append(
                    Option(_("{seat}: back to your seat").format(seat=label), id=f"seat-{seat.seat}")
                )
            elif seat.kind == SeatKind.HUMAN and seat.holder is None and not mine and not self.info.over:
                options.append(Option(_("{seat}: sit here").format(seat=label), id=f"seat-{seat.seat}"))
            else:
                options.append(Option(label, disabled=True))
        options.append(Option(_("Watch as a spectator"), id="watch"))
        return options

    def on_mount(self) -> None:
        menu = self.query_one("#seat-menu", OptionList)
        menu.highlighted = next(
            i for i in range(menu.option_count) if not menu.get_option_at_index(i).disabled
        )
        menu.focus()

    @on(OptionList.OptionSelected, "#seat-menu")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        choice = event.option.id or ""
        self.dismiss()
        shared_app(self).join(self.info.id, None if choice == "watch" else int(choice.removeprefix("seat-")))


class SharedApp(PipelineApp):
    """Pipeline at a shared table: what an SSH session runs (``pipeline-tui serve``)."""

    BINDINGS = [Binding("f9", "lobby", N_("Lobby"), show=False)]

    def __init__(
        self,
        hub: Path,
        token: str,
        *,
        freeze_memory: bool = False,
        on_watching: Callable[[bool], None] | None = None,
        on_lost: Callable[[], object] | None = None,
        watch: str | None = None,
        theme: str | None = None,
        stand: bool = False,
    ) -> None:
        super().__init__(mode="title", served=Served.SSH)
        share_parsed_css(self)  # what serve's zygote parsed before forking this session
        self.hub = Path(hub)
        self.token = token
        self.freeze_memory = freeze_memory  # see _freeze (a session process of its own only)
        # Told whether this session now watches a table (True) or not: the session process
        # gives the CPU to the players' sessions while it watches (net/priority.py).
        self.on_watching = on_watching
        # Told when the Hub cannot be reached or its connection is lost, as the app starts to
        # exit: the session process makes sure it then ends (serve/session.py).
        self.on_lost = on_lost
        self.client: TableClient | None = None  # connected as the app mounts
        self.remote: RemoteGame | None = None
        self.new_table_hints = False  # the lobby's choice for the tables it makes (h)
        # Opened straight at a table as a spectator, the lobby beneath it: a watcher who shared
        # a stand's screen and pressed a key. Their input waits until that table is shown.
        self.watch_table = watch
        self.held: list[events.InputEvent] | None = [] if watch else None
        self.start_theme = theme  # applied as the app mounts, if it is one of the app's
        # A stand draws a table for the watchers who share its screen: nothing of its own (no
        # bell, no notice of turns, no remembered language); its "watching" says it is drawn.
        self.stand = stand and watch is not None
        self.sharing: str | None = None  # the table said to be watched (sharing_changed)
        self.touched = False  # a key, click or paste since the table was drawn (TOUCHING)

    @property
    def turn_bell(self) -> bool:
        """This player asked for a bell when their turn comes (kept by the Hub for the key)."""
        return self.client is not None and self.client.bell and not self.stand

    def bell(self) -> None:
        """A stand's screen is every watcher's: it rings for nobody."""
        if not self.stand:
            super().bell()

    @property
    def hub_client(self) -> TableClient:
        """The connection to the Hub (made as the app mounts, before any screen asks)."""
        assert self.client is not None
        return self.client

    # Textual hands the Mount event to the handlers that take it; the local app's takes none.
    def on_mount(self, event: events.Mount) -> None:  # type: ignore[override]
        event.prevent_default()  # not the title screen of the local app
        if self.start_theme in self.available_themes:
            self.theme = self.start_theme
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        # in a worker: the app takes the terminal's size meanwhile, so the lobby is laid out
        # for it once, not again (and the screen under it with it) as the size comes after
        self.run_worker(self._connect(), group="connect")

    async def _connect(self) -> None:
        try:
            self.client = await TableClient.connect(self.hub, self.token)
        except (TableError, OSError) as exc:
            self._hub_gone()
            reason = exc.shown() if isinstance(exc, TableError) else exc
            self.exit(return_code=1, message=_("Cannot reach the tables: {reason}").format(reason=reason))
            return
        if self.client.language and not os.environ.get(ENV_LANG) and not self.stand:
            # the lobby's choice for this key comes after PIPELINE_TUI_LANG, before the locale
            set_language(language_of(self.client.language) or current_language())
        self.client.on_update = self._update
        self.client.on_lost = self._lost
        lobby = LobbyScreen()
        preset_breakpoints(lobby, self.size)
        self.push_screen(lobby)
        if self.watch_table is not None:
            self.join(self.watch_table, None)

    async def on_event(self, event: events.Event) -> None:
        """Input waits while the session opens at the table it was started for (``watch``):
        it was typed at that table (serve replays it), not at the lobby shown meanwhile."""
        if self.held is not None and isinstance(event, events.InputEvent) and not event.is_forwarded:
            if len(self.held) < MAX_HELD:
                self.held.append(event)
            return
        if isinstance(event, TOUCHING) and not event.is_forwarded:
            self.touched = True
        await super().on_event(event)

    def _release_input(self, replay: bool) -> None:
        """Let input through; ``replay``: what waited goes to the table now shown (else it is
        dropped: it was meant for a table that could not be opened)."""
        held, self.held = self.held or [], None
        if replay:
            self.touched = self.touched or bool(held)
            for event in held:
                self.post_message(event)

    def _lost(self, reason: str) -> None:
        self._hub_gone()
        self.exit(
            return_code=1,
            message=_("The tables are gone ({reason}); connect again later.").format(reason=_(reason)),
        )

    def _hub_gone(self) -> None:
        if self.on_lost is not None:
            self.on_lost()

    def _update(self, update: Update) -> None:
        if not self.is_running:
            return  # shutting down (the session closed): the table's widgets are going away
        if self.remote is not None and update.table_id == self.remote.table_id:
            self.remote.update(update)

    @work(exclusive=True, group="join")
    async def join(self, table_id: str, seat: int | None) -> None:
        """Sit at ``seat`` of a table (``None``: watch) and open it."""
        await self._join(table_id, seat)

    async def _join(self, table_id: str, seat: int | None) -> None:
        await self._leave()
        try:
            joined = await self.hub_client.join(table_id, seat)
        except TableError as exc:
            self._watching(False)
            self._lobby_error(exc.shown())
            self._release_input(replay=False)
            return
        self._watching(joined.seat is None)
        self.remote = RemoteGame(self.hub_client, joined)
        self._back_to_title()
        self.touched = False
        self.push_screen(TableScreen(self.remote, colours=self.remote.colours or None, policy=SharedSeat()))
        if self.freeze_memory:
            self.call_after_refresh(self._freeze)
        if self.held is not None:
            self.call_after_refresh(self._release_input, True)
        if joined.seat is None:
            self.call_after_refresh(self._drawn_watching, self.remote)

    def _freeze(self) -> None:
        """Put what is alive once the table is drawn (its widgets, the replica) out of the cyclic
        garbage collector's way. Otherwise a full collection walks all of it now and then in the
        middle of a move (about 80 ms at 160 x 50), and the whole table waits for that seat.
        Leaving the table unfreezes it, so nothing of an old table is kept."""
        if self.remote is None:
            return  # left before the table was drawn
        gc.collect()
        gc.freeze()

    def _drawn_watching(self, remote: RemoteGame) -> None:
        """The table this session watches is drawn: see whether it may be shared."""
        if remote is self.remote:
            self.run_worker(self._may_share(remote), group="sharing", exclusive=True)

    async def _may_share(self, remote: RemoteGame) -> None:
        """Say this session watches ``remote``'s table untouched, unless the player holds a seat
        at a table still in play (their turn's bell and notices would not reach a shared
        screen) or has pressed a key or clicked since it was drawn (a shared screen would
        undo what that did). A stand says it as soon as its table is drawn: serve shows it to
        watchers from then on."""
        if not self.stand:
            try:
                tables = await self.hub_client.list_tables()
            except TableError:
                return
            if any(info.yours and not info.over for info in tables) or self.touched:
                return
        if remote is not self.remote:
            return
        self.sharing = remote.table_id
        self.sharing_changed((remote.table_id, current_language(), self.theme))

    def _unshare(self) -> None:
        """What was said of watching holds no more (the table left, the language or theme changed)."""
        if self.sharing is not None:
            self.sharing = None
            self.sharing_changed(None)

    def sharing_changed(self, view: SharedView | None) -> None:
        """Told that this session now only watches a table drawn in a language and theme
        (``view``), or no longer (None). Nothing here: a session process tells serve."""

    def _theme_changed(self, _theme: object) -> None:
        self._unshare()

    def switch_language(self, language: str) -> None:
        self._unshare()
        super().switch_language(language)

    def _watching(self, watching: bool) -> None:
        if self.on_watching is not None:
            self.on_watching(watching)

    async def _leave(self) -> None:
        self._unshare()
        if self.freeze_memory:
            gc.unfreeze()
        remote, self.remote = self.remote, None
        if remote is not None:
            await remote.wait_sent()
            # the table may be gone or the server restarting: then there is nothing to give back
            with contextlib.suppress(TableError):
                await self.hub_client.leave(remote.table_id)

    def _lobby_error(self, text: str) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, LobbyScreen):
                screen.show_error(text)
        self.notify(text, severity="error")

    # A shared table's seats are always SharedSeat: the local app's ``policy`` is not taken.
    def start_game(self, setup: GameSetup, colours: list[str] | None = None) -> None:  # type: ignore[override]
        """The new-game form was filled in: set up the table and sit at its first human seat."""
        self._create(setup, colours)

    @work(exclusive=True, group="join")
    async def _create(self, setup: GameSetup, colours: list[str] | None = None) -> None:
        try:
            table_id = await self.hub_client.create_table(setup, colours=colours, hints=self.new_table_hints)
        except TableError as exc:
            self._lobby_error(exc.shown())
            self._back_to_title()
            return
        seat = next((i for i, p in enumerate(setup.players) if p.kind == SeatKind.HUMAN), None)
        await self._join(table_id, seat)

    @work(exclusive=True, group="join")
    async def action_lobby(self) -> None:
        await self._leave()
        self._watching(False)
        self._back_to_title()

    def action_to_title(self) -> None:
        """The shared app's title screen is the lobby."""
        self.action_lobby()

    def remember(self, language: str) -> None:
        """The Hub keeps the choice for this key: the next session starts in it."""
        self.run_worker(self._remember(language), group="language")

    async def _remember(self, language: str) -> None:
        try:
            await self.hub_client.set_language(language)
        except TableError as exc:
            self.notify(exc.shown(), severity="warning")

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from self.textual_commands(screen)  # theme, keys, quit: not the local games
        yield from self.language_commands()
        yield SystemCommand(_("Rules and keys"), _("The rules in brief and every key"), self.action_help)
        table = self._table()
        if table is not None:
            yield SystemCommand(
                _("Scores"),
                _("The score sheet (a projection until the end)"),
                lambda: self.show_scores(table.game),
            )
            yield SystemCommand(
                _("Undo move"), _("Take back your last move, within your turn"), table.action_undo
            )
            yield SystemCommand(_("Lobby"), _("Leave this table for the lobby"), self.action_lobby)

    async def action_quit(self) -> None:
        await self._leave()
        if self.client is not None:
            await self.client.close()
        self.exit()
