"""The table: every public component, the player boards, the move list and the move prompt.

Wide terminals (150 columns and more) show the whole table at once; narrower ones show one view
at a time (F2 Table, F3 Board, F4 Network, F5 Log) beside the move list. The screen holds no
rules: the moves listed are ``game.legal_moves()`` and any refusal is the engine's own message.
One screen serves hot-seat play, a seat at a shared table and the replay viewer: its seat
policy (``seats.py``) says who plays here and how.
"""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.keys import key_to_character
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widgets import Input

from .. import storage
from ..data import components as C
from ..i18n import N_, _, current_language, ngettext
from ..engine import moves as M
from ..text import refusal
from ..engine import (
    FlagRule,
    Game,
    IllegalMove,
    NotationError,
    SeatKind,
    Stage,
    State,
    Turn,
    pipe_tile_taken,
    price,
    why_idle,
    why_illegal,
)
from . import panels
from .clock import TIMEOUT_KIND, ClockBar
from .compat import bind_keys, retitle
from .describe import GROUPS, describe, group_of
from .netgrid import render_tile
from .preview import preview_text
from .network_panel import Ghost, NetworkPanel
from .network_view import NetworkViewScreen
from .reference_screen import CARD_GROUPS, CardsScreen
from .host import host
from .screens import bot_module, level_name
from ..summary import finished_turn, turn_summary
from .seats import HotSeat
from .style import seat_colours, seat_style

from .widgets import (
    Choice,
    MoveList,
    MoveLog,
    MovePrompt,
    StatusBar,
    SteadyFooter,
    TextPanel,
    TooSmall,
    View,
)

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.widget import Widget

    from ..net.remote import RemoteGame

SUMMARY_WIDTH = 38  # a turn summary in the log, wrapped to the log panel of a 160-column table
VIEWS = ("table-view", "board-view", "network-view", "log-view")
A = C.ActionName
ACTION_PANELS: dict[str, str] = {  # the panel to show while an Action is in progress
    A.CRUDE: "market-C",
    A.REFINED1: "market-1",
    A.REFINED2: "market-2",
    A.REFINED3: "market-3",
    A.CONTRACTS: "contracts",
    A.TANKS: "shops",
    A.MACHINES: "shops",
    A.UPGRADES: "upgrades",
    A.GOVERNMENT: "government",
    A.NETWORK: "network-view",
    A.MACHINE: "network-view",
    A.MACHINES_PHASE: "network-view",
    A.MACHINES_EARLY: "network-view",
}
CELL_MOVES = (M.RunNetwork, M.RunMachine, M.PlaceMachine, M.Refine)  # moves naming a cell
Landmarks = tuple[int, int, tuple[int, ...], tuple[int, ...]]
"""What the end of a Round or Year changes (:meth:`TableScreen._landmarks`)."""

BOT_DELAY = 0.3  # seconds before a computer seat moves, so people can follow


class TableScreen(Screen[None]):
    """A game at the table, played as its seat ``policy`` says (hot-seat by default)."""

    # Textual repaints the whole screen when the focus moves; here only the widgets whose focus
    # border changes need it (they repaint themselves), which keeps a view switch cheap at 160x48.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    BINDINGS = [
        Binding("ctrl+z", "undo", N_("Undo"), priority=True),
        Binding("ctrl+y", "redo", N_("Redo"), priority=True),
        Binding("colon", "prompt", N_("Type a move"), key_display=":", priority=True),
        # Priority, as ":" is: the App handles keys in the order typed only while it checks the
        # priority ones; any other key waits in the focused widget's queue, and one that moves
        # the focus or the screen ran after a ":" and a move typed right behind it, which then
        # went astray ("n", escape, ":place ..." placed at the ghost; escape, ":act crude",
        # enter played the list's "pass"; issue 37). Letters and digits go to the prompt
        # while it has the focus (_typed).
        Binding("f2", "view('table-view')", N_("Views"), key_display="F2-F5", priority=True),
        Binding("f3", "view('board-view')", N_("Board"), show=False, priority=True),
        Binding("f4", "view('network-view')", N_("Network"), show=False, priority=True),
        Binding("f5", "view('log-view')", N_("Log"), show=False, priority=True),
        Binding("1", "seat(0)", N_("Boards"), key_display="1-4", priority=True),
        Binding("2", "seat(1)", N_("Board 2"), show=False, priority=True),
        Binding("3", "seat(2)", N_("Board 3"), show=False, priority=True),
        Binding("4", "seat(3)", N_("Board 4"), show=False, priority=True),
        Binding("0", "seat(-1)", N_("Own board"), show=False, priority=True),
        Binding("f6", "scores", N_("Scores"), show=False, priority=True),
        Binding("f8", "cards", N_("Cards"), show=False, priority=True),
        Binding("ctrl+s", "save_as", N_("Save as"), show=False, priority=True),
        Binding("escape", "focus_moves", N_("Move list"), show=False, priority=True),
        Binding("h", "hint", N_("Hint"), show=False, priority=True),
        Binding("n", "network_view", N_("Network view"), show=False, priority=True),
    ]

    def __init__(
        self,
        game: Game | RemoteGame,
        saves_dir: Path | None = None,
        save_name: str | None = None,
        colours: list[str] | None = None,
        policy: HotSeat | None = None,
    ) -> None:
        self.policy = policy or HotSeat()
        super().__init__(classes=self.policy.css_class)
        self.game = game
        bind_keys(self, self.policy.bindings)
        self.colours = seat_colours(colours, len(game.setup.players))  # colour name per seat
        self.saves_dir = None if saves_dir is None else Path(saves_dir)  # where autosaves go
        self.save_name = save_name
        # The moves last written to (or loaded from) the autosave this table continues.
        self.written: list[M.Move] | None = list(game.moves) if save_name else None
        self.seat_shown: int | None = None  # None: follow the player to act
        self.ghost: Ghost | None = None
        self.last_place: dict[int, tuple[int, int]] = {}  # per seat: where its last tile went
        self.mark: tuple[int, int] | None = None  # network cell named by the highlighted move
        self.message: Text | None = None  # shown once, after a move
        self.error: Text | None = None  # the last refusal, shown until a move is made
        self.warned: M.Move | None = None  # a move the shown warning is about
        self.shown_moves: list[M.Move] = []
        self.listing = 0  # bumped whenever the move list is rebuilt
        self.listed: tuple[object, ...] = ()  # (computer to move, legal moves) last put in the list
        self.thinking = False  # a computer seat is choosing its move
        self.bots: dict[int, Any] = {}  # seat -> its bot, kept so it plays out its turn plan
        self.bot_broken = False  # the bot raised: people play the computer seats' moves
        self.advisor: Any = None  # the strongest bot, asked for hints (never plays a seat)
        self.advising = False  # a hint is being worked out
        self.advice: Text | None = None  # the hint shown, until the next move
        self.seen = self._landmarks()  # as last announced (see _announce)
        self.log_lines: list[tuple[tuple[M.Move, int], Text]] = []  # per move: ((move, seat), its log line)
        self.summaries: dict[int, tuple[str, list[Text]]] = {}  # turn end -> summary, log lines
        self.summarised: dict[int, int] = {}  # turn end -> its start, to say it again in a new language
        self.year_ends: dict[int, tuple[str, list[Text]]] = {}  # see _year_end_lines
        self.year_note: Text | None = None  # the Refresh Phase line of the move just played
        self.language = current_language()  # the language the table was last drawn in
        self.view = "table-view"  # the view shown on a narrow terminal
        self.clock_away: set[int] = set()  # seats out of time, played by the computer (hot-seat)
        self.ended_on_time = False  # a time ran out and the setup's rule ended the game
        self.by_id: dict[str, Widget] = {}  # the table's widgets by id, as found (see _panel)
        self.policy.attach(self)

    # --- layout ---
    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield ClockBar(self, id="clock")
        with Horizontal(id="main"):
            with Grid(id="views"):
                with View(id="table-view", classes="view -active"):
                    with Grid(classes="table-grid"):
                        yield TextPanel(id="cross", classes="panel")
                        yield TextPanel(id="market-C", classes="panel")
                        yield TextPanel(id="market-1", classes="panel")
                        yield TextPanel(id="market-2", classes="panel")
                        yield TextPanel(id="market-3", classes="panel")
                        yield TextPanel(id="shops", classes="panel")
                    yield TextPanel(id="contracts", classes="panel")
                    with Grid(classes="table-grid"):
                        yield TextPanel(id="government", classes="panel")
                        yield TextPanel(id="upgrades", classes="panel")
                        yield TextPanel(id="refinement", classes="panel")
                        yield TextPanel(id="valuation", classes="panel")
                with View(id="board-view", classes="view"):
                    yield TextPanel(id="board")
                yield NetworkPanel(id="network-view", classes="view")
                yield MoveLog(id="log-view", classes="view")
            with Vertical(id="side"):
                yield TextPanel(id="hint")
                yield MoveList(id="moves")
                yield MovePrompt(placeholder=_("type a move, e.g. buy C-OC#1"), id="prompt")
        yield SteadyFooter(compact=True)
        yield TooSmall()

    def on_mount(self) -> None:
        """Set up the prompt, title the panels, draw the table and start a computer seat's
        move."""
        prompt = self.query_one("#prompt", Input)
        if not self.policy.prompt:
            prompt.display = False
        if not self.policy.blink:
            prompt.cursor_blink = False
        self._title_panels()
        self.refresh_table()
        self.query_one("#moves", MoveList).focus()
        self.schedule_bot()

    def _title_panels(self) -> None:
        """The panels' titles and the prompt's placeholder, in the current language."""
        titles = {
            "cross": _("Action cross"),
            "contracts": _("Contracts and Orders"),
            "shops": _("Shops"),
            "government": _("Government"),
            "upgrades": _("Upgrades (token, cards left I II III)"),
            "refinement": _("Refinement costs"),
            "valuation": _("Valuation"),
            "log-view": _("Move log"),
            "moves": _(self.policy.moves_title),
        }
        for widget_id, title in titles.items():
            self._title(widget_id, title)
        self.query_one("#prompt", Input).placeholder = _("type a move, e.g. buy C-OC#1")

    def language_changed(self) -> None:
        """Say everything again in the language now chosen (a live switch): the titles, the
        summaries in the log, the move list and every panel."""
        self.language = current_language()
        self._title_panels()
        for end, start in self.summarised.items():
            if end in self.summaries:
                self.summaries[end] = self._summary_lines(start, end)
        self.year_ends = {}
        self.log_lines = []
        self.listed = ()
        self.refresh_table()
        footer = self.query(SteadyFooter)
        if footer:
            footer.first().relabel()

    # --- drawing ---
    @property
    def shown_seat(self) -> int:
        """The board on show: the one asked for, else the player to act's; in a finished game
        (nobody to act) your own, or at a hot seat the first person's, not a computer's."""
        if self.seat_shown is not None:
            return self.seat_shown
        state = self.current_state()
        if state.over:
            own = self.policy.own_board()
            if own is not None:
                return own
            people = [i for i, p in enumerate(self.game.setup.players) if p.kind == SeatKind.HUMAN]
            if people:
                return people[0]
        return state.turn.player

    def current_state(self) -> State:
        """The state on show (the replay viewer shows an earlier one)."""
        return self.policy.state()

    def refresh_table(self) -> None:
        """Redraw everything from the state on show (all of it in a new language, if the
        language has changed since the last redraw)."""
        if self.language != current_language():
            self.language_changed()
            return
        state = self.current_state()
        self.query_one("#status", StatusBar).show_parts(panels.status_parts(state, self.colours))
        self._set("cross", panels.cross(state, self.colours))
        visiting = C.ACTION_MARKET.get(state.turn.action) if state.turn.stage == Stage.ACTION else None
        for key in ("C", "1", "2", "3"):
            self._set(f"market-{key}", panels.market(state, key))
            title = _(C.MARKET_NAMES[key])
            if key == visiting:
                title = _("{market} (visiting)").format(market=title)
            self._title(f"market-{key}", title)
        self._set("contracts", panels.contracts(state))
        self._set("shops", panels.shops(state))
        self._set("government", panels.government(state))
        self._set("upgrades", panels.upgrades(state))
        self._set("refinement", panels.refinement(state))
        self._set("valuation", panels.valuation(state))
        self._refresh_board()
        self._refresh_log()
        # The hint before the move list: at a shared table the list is made after the next
        # frame (call_after_refresh), which wakes the screen; the panels changed before that
        # reach it in time for one frame, and a hint changed after it took a frame of its own.
        self._refresh_hint()
        self._list_moves()

    def _refresh_board(self) -> None:
        """The board on show, with its Pipe Network (and the ghost tile over it) and their
        titles: all that showing another player's board changes."""
        state = self.current_state()
        seat = self.shown_seat
        who = f"{seat + 1}: {state.players[seat].name}"
        self._set("board", panels.board(state, seat, self.colours))
        self._title("board-view", _("Player board {who}").format(who=who))
        self._title("network-view", _("Pipe Network {who}").format(who=who))
        self._refresh_ghost()

    def _list_moves(self) -> None:
        """The move list; a deferred policy (a shared table) makes it in the frame after the
        table: what happened shows first, and at the seat whose turn begins the list (the
        biggest part of its redraw) no longer holds the news back. A choice from the list left
        from before is refused by its listing number."""
        if self.policy.deferred:
            self.call_after_refresh(self._refresh_moves)
        else:
            self._refresh_moves()

    def _title(self, widget_id: str, title: str) -> None:
        """Set a panel's title only when it changed, and repaint only the row it is on:
        Textual repaints a panel whenever its title is set, even to the same text, and all of
        it (a view's title names the player shown, new at every end of a turn)."""
        widget = self._panel(widget_id)
        if widget.border_title != title:
            retitle(widget, title)

    def _set(self, widget_id: str, text: Text) -> None:
        panel = self._panel(widget_id)
        assert isinstance(panel, TextPanel)
        panel.show(text)

    def _panel(self, widget_id: str) -> Widget:
        """The widget of the table with this id, found once (a query parses its selector and
        walks the screen, some twenty times a move in every session at a shared table)."""
        widget = self.by_id.get(widget_id)
        if widget is None:
            widget = self.by_id[widget_id] = self.query_one(f"#{widget_id}")
        return widget

    def moves_shown(self) -> int:
        """How many moves of the log the table is showing (the replay viewer: up to where it
        stands)."""
        return self.policy.moves_shown()

    def _refresh_log(self) -> None:
        """The log, a line per move; lines already made are reused (they depend only on the
        move, its number and who played it)."""
        state = self.current_state()
        made = self.log_lines
        lines: list[tuple[tuple[M.Move, int], Text]] = []
        shown = self.game.entries[: self.moves_shown()]
        for i, (move, seat) in enumerate((entry.move, entry.seat) for entry in shown):
            key = (move, seat)
            if i < len(made) and made[i][0] == key:
                lines.append(made[i])
                continue
            line = Text()
            line.append(f"{i + 1:>4} ", style="dim")
            line.append(f"{state.players[seat].name[:8]:<8}", style=seat_style(self.colours, seat))
            line.append(" ")
            line.append(M.format_move(move))
            lines.append((key, line))
        self.log_lines = lines
        year_ends = self._year_end_lines()
        log: list[Text] = []
        for position, (_key, line) in enumerate(lines, start=1):
            log.append(line)
            if position in self.summaries:
                log.extend(self.summaries[position][1])
            if position in year_ends:
                log.extend(year_ends[position][1])
        self.query_one(MoveLog).set_lines(log or [Text(_("No moves yet."), style="dim")])

    def _year_end_lines(self) -> dict[int, tuple[str, list[Text]]]:
        """For each move of the log that ended a Year, by its position: the line saying who
        got a Penalty marker for an unfinished Contract (rulebook "Refresh Phase", and at the
        end of Year 3 "End of the Game"), and its rows as the log shows them. Worked out from
        the game, so a loaded game and a replay say it too; kept until an undo takes it back."""
        game = self.game
        count = len(game.moves)
        kept = {end: lines for end, lines in self.year_ends.items() if end <= count}
        entries = game.entries
        positions = [i for i in range(1, len(entries)) if entries[i].turn.year != entries[i - 1].turn.year]
        if count and (game.is_over() or game.state.year != entries[-1].turn.year):
            positions.append(count)
        for end in positions:
            if end not in kept and end > 0:
                kept[end] = self._year_end_line(
                    game.state_at(end - 1), game.state_at(end) if end < count else game.state
                )
        self.year_ends = kept
        return kept

    def _year_end_line(self, before: State, after: State) -> tuple[str, list[Text]]:
        """The line for the move between ``before`` and ``after`` that ended a Year."""
        given = [
            f"{was.name} +{now.penalties - was.penalties}"
            for was, now in zip(before.players, after.players)
            if now.penalties > was.penalties
        ]
        penalties = ", ".join(given) or _("none")
        if after.over:
            line = _("End of the game: Penalty markers for unfinished Contracts: {penalties}.").format(
                penalties=penalties
            )
        else:
            line = _(
                "Refresh Phase, Year {year} begins: Penalty markers for unfinished Contracts: {penalties}."
            ).format(year=after.year, penalties=penalties)
        rows = textwrap.wrap(line, SUMMARY_WIDTH, initial_indent="     * ", subsequent_indent="       ")
        style = "bold yellow" if given else "italic"
        return line, [Text(row, style=style) for row in rows]

    def _refresh_ghost(self) -> None:
        """The ghost tile follows the Pipe tile in hand, for the one who may place it here: a
        seat waiting for another (or for a computer) gets none, so its focus stays put, and so
        does the replay viewer, where nobody plays."""
        state = self.current_state()
        hand = state.turn.hand_tile
        panel = self.query_one(NetworkPanel)
        if not self.policy.plays or hand < 0 or self.game.is_over() or self.waiting_for() is not None:
            self.ghost = None
        elif self.ghost is None or self.ghost.tile != hand:
            self.ghost = self._new_ghost(hand)
        if self.ghost is not None:
            ghost = self.ghost
            why = self.game.why_illegal(M.PlaceTile(x=ghost.x, y=ghost.y, rot=ghost.rot))
            self.ghost.legal = why is None
            self.ghost.reason = why or ""
        own = self.shown_seat == state.turn.player
        panel.show(
            state.players[self.shown_seat], self.ghost if own else None, self.mark if own else None, state
        )

    def _new_ghost(self, tile: int) -> Ghost:
        """A ghost on the legal place nearest where the last one was (or the middle)."""
        places = [m for m in self.game.legal_moves() if isinstance(m, M.PlaceTile)]
        x0, y0 = self.last_place.get(self.game.current_player, (0, 0))
        best = min(places, key=lambda m: abs(m.x - x0) + abs(m.y - y0), default=None)
        if best is None:
            return Ghost(tile, x0, y0, 0)
        return Ghost(tile, best.x, best.y, best.rot)

    def _refresh_moves(self) -> None:
        game, state = self.game, self.game.state
        option_list = self.query_one("#moves", MoveList)
        if self.policy.list_moves(option_list):
            return
        waiting = self.waiting_for()
        legal = [] if waiting else game.legal_moves()
        listed = (waiting, tuple(legal))
        if listed == self.listed:  # e.g. showing another board: keep the list and its highlight
            return
        self.listed = listed
        self.shown_moves = legal
        self.listing += 1
        grouped: dict[str, list[int]] = {}
        for index, move in enumerate(legal):
            grouped.setdefault(group_of(move), []).append(index)
        options: list[Choice] = []
        for group in GROUPS:
            if group not in grouped:
                continue
            options.append(Choice(Text(_(group), style="bold underline"), disabled=True))
            for index in grouped[group]:
                move = legal[index]
                prompt = Text(M.format_move(move), style="bold")
                prompt.append("  ")
                prompt.append(describe(move, state), style="dim")
                options.append(Choice(prompt, id=f"m{self.listing}-{index}"))
        option_list.set_options(options)
        first = next((i for i, o in enumerate(options) if not o.disabled), None)
        if first is not None:
            option_list.highlighted = first
        option_list.border_subtitle = waiting or ngettext("{n} legal", "{n} legal", len(legal)).format(
            n=len(legal)
        )

    def waiting_for(self) -> str | None:
        """Why no moves are offered here now ("computer to move"), or ``None``."""
        return self.policy.waiting_for()

    def _refresh_hint(self, move: M.Move | None = None) -> None:
        """The hint panel, what the player asked for first, as the panel has a height it cuts
        at: an error, the hint (``h``), what the highlighted move will do, then the last turn of
        a seat not at this keyboard, then whose turn it is and what to do."""
        hint = self.policy.hint(move)
        if hint is not None:
            self._set("hint", hint)
            return
        state = self.current_state()
        parts: list[Text] = []
        if self.error is not None:
            parts.append(self.error)
        if self.advising:
            parts.append(Text(_("Asking the strongest computer player for a hint..."), style="dim"))
        elif self.advice is not None:
            parts.append(self.advice)
        previewed = False
        if move is not None:
            seen = preview_text(state, move)  # what the highlighted move will do (issue 14)
            if seen is not None:
                parts.append(seen)
            tile = pipe_tile_taken(state, move)
            if tile is not None:
                parts.append(render_tile(tile, 0))
            previewed = seen is not None or tile is not None
        summary = self._summary_now() if self.policy.summary_in_hint else None
        if summary is not None and self.message is None and not self.game.is_over():
            parts.append(Text(summary, style="bold"))
        if self.year_note is not None and not self.game.is_over():
            parts.append(self.year_note)
        if not previewed or self.policy.status_with_preview():
            parts.append(self._status(state))
        self._set("hint", Text("\n").join(parts))

    def _status(self, state: State) -> Text:
        """Whose turn it is and what to do: the game's end, the move just played, a computer
        thinking, the Pipe tile in hand, or the seat to play."""
        out = Text()
        if self.game.is_over():
            out.append(_("The game is over. Press F6 for the scores."), style="bold")
        elif self.message is not None:
            out.append_text(self.message)
        elif self.thinking:
            player = state.players[state.turn.player]
            kind = level_name(self.game.setup.players[player.seat].kind)
            out.append(
                _("{name} (computer, {kind}) is thinking...").format(name=player.name, kind=kind),
                style="bold",
            )
        elif self.ghost is not None:
            ghost = self.ghost
            out.append(_("Pipe tile in hand"), style="bold")
            out.append(" " + _("at {x},{y} r{rot}").format(x=ghost.x, y=ghost.y, rot=ghost.rot) + "\n")
            if ghost.legal:
                out.append(_("OK: may go here. Enter places it."), style="bold green")
            else:
                out.append(
                    "".join(refusal(ghost.reason, _("Not here: "), _("Not here: {area}: "))), style="bold red"
                )
            if self.focused is self.query_one(NetworkPanel):
                out.append("\n" + _("Arrows move, r turns, enter places."), style="dim")
            else:
                out.append(
                    "\n" + _("A place from the list moves it; F4 to move it with arrows and r."), style="dim"
                )
        else:
            player = state.players[state.turn.player]
            if state.turn.stage == Stage.MACHINE:
                why = why_illegal(state, M.RunMachines())
                if why is None:
                    out.append(_("{name}: Machine Phase.").format(name=player.name) + " ", style="bold")
                    out.append(
                        _("Run your Machines (${cost}), or 'end' your turn.").format(
                            cost=price(state, M.RunMachines())
                        ),
                        style="dim",
                    )
                else:  # the engine's reason the move is not offered (it names the Machine Phase)
                    out.append(f"{player.name}: ", style="bold")
                    out.append(why + ". ", style="yellow")
                    out.append(_("'end' your turn."), style="dim")
            else:
                addressed = player.name in (N_("You"), _("You"))  # the tutorial's seat: spoken to
                to_play = _("You to play.") if addressed else _("{name} to play.").format(name=player.name)
                out.append(to_play + " ", style="bold")
                out.append(_("Pick a move, or press : to type one."), style="dim")
        return out

    # --- playing ---
    def play(self, move: M.Move) -> bool:
        """Apply a move; on refusal show the engine's reason. Autosaves after every move."""
        seat = self.game.current_player
        if self.ended_on_time:
            self.show_error(_("the game ended when a time ran out"))
            return False
        try:
            self.game.apply(move)
        except IllegalMove as exc:
            self.show_error(str(exc))
            return False
        if isinstance(move, M.PlaceTile):
            self.last_place[seat] = (move.x, move.y)
        self.message = Text(_("Played: "), style="dim") + Text(M.format_move(move), style="bold")
        self.after_change()
        return True

    def after_change(self) -> None:
        """Redraw after a move or an undo; a deferred policy (a shared table) redraws once the
        loop has run what is ready: a move just played here goes to the server first, and the
        others see it sooner."""
        if self.policy.deferred:
            asyncio.get_running_loop().call_soon(self._after_change)
        else:
            self._after_change()

    def _after_change(self) -> None:
        self.seat_shown = None
        self.mark = None
        self.error = None
        self.advice = None
        year = self.seen[0]
        self._announce()
        self._summarise()
        self.year_note = None
        if self.seen[0] > year:  # this move ended a Year: its Refresh Phase line, until the next move
            end = self._year_end_lines().get(len(self.game.moves))
            if end is not None:
                self.year_note = Text(end[0], style=end[1][0].style)
        self.autosave()
        self.refresh_table()
        self.message = None
        if self.ghost is not None:
            self.action_view("network-view")
        else:
            if self.focused is self.query_one(NetworkPanel):
                self.query_one("#moves", MoveList).focus()
            self._show_action_panel()
        if self.game.is_over():
            host(self).show_scores(self.game)
        self.schedule_bot()

    def _summarise(self) -> None:
        """When the last move finished a turn of a seat not at this keyboard (a computer's, or
        another seat's at a shared table): its one-line summary, in the log after the turn's
        last move, and (at this keyboard, not at a shared table, whose hint keeps its height) in
        the hint."""
        game = self.game
        for end in [end for end in self.summaries if end > len(game.entries)]:
            del self.summaries[end]  # taken back
            self.summarised.pop(end, None)
        turn = finished_turn(game)
        if turn is None or not self.policy.summarises(game.entries[turn[0]].seat):
            return
        self.summaries[turn[1]] = self._summary_lines(*turn)
        self.summarised[turn[1]] = turn[0]
        if self.policy.summary_in_hint:  # a shared table's hint keeps its "Bo played" line
            self.message = Text(self.summaries[turn[1]][0], style="bold")

    def _summary_lines(self, start: int, end: int) -> tuple[str, list[Text]]:
        """The summary of the turn of log positions ``start`` to ``end``: the line, and its rows
        as the log shows them."""
        line = turn_summary(self.game, start, end)
        rows = textwrap.wrap(line, SUMMARY_WIDTH, initial_indent="     = ", subsequent_indent="       ")
        return line, [Text(row, style="italic") for row in rows]

    def _summary_now(self) -> str | None:
        """The summary of the turn just before the one being played, if it was summarised."""
        game = self.game
        latest = max(self.summaries, default=None)
        if latest is None or latest > len(game.entries):
            return None
        if latest < len(game.entries) and game.entries[latest].turn != Turn.of(game.state):
            return None
        return self.summaries[latest][0]

    def _landmarks(self) -> Landmarks:
        """What the end of a Round or Year changes: (Year, Round, each player's Penalty
        markers, each player's Deferred Contracts)."""
        state = self.game.state
        return (
            state.year,
            state.round,
            tuple(p.penalties for p in state.players),
            tuple(sum(held.deferred for held in p.contracts) for p in state.players),
        )

    def _announce(self) -> None:
        """Say when a new Round or Year begins, and what the Refresh Phase did to each player
        (rulebook "Refresh Phase"); an undo back over it says nothing."""
        seen, self.seen = self.seen, self._landmarks()
        state = self.game.state
        if state.over or self.seen[:2] <= seen[:2]:
            return
        names = [p.name for p in state.players]
        if self.seen[0] == seen[0]:
            order = " > ".join(names[s] for s in state.turn_order)
            self.notify(
                _("Round {round} of Year {year} begins. Turn order: {order}.").format(
                    round=state.round, year=state.year, order=order
                ),
                timeout=4,
            )
            return
        penalties = [f"{names[i]} +{now - was}" for i, (was, now) in enumerate(zip(seen[2], self.seen[2]))]
        active = [f"{names[i]} {was}" for i, was in enumerate(seen[3]) if was]
        self.notify(
            _(
                "Refresh Phase. Penalty markers for unfinished Contracts: {penalties}. "
                "Deferred Contracts now Active: {active}. Contracts slid one "
                "column; markets, shops and upgrade tokens refilled."
            ).format(penalties=", ".join(penalties), active=", ".join(active) or _("none")),
            title=_("Year {year} begins").format(year=state.year),
            timeout=12,
        )

    def bot_kind(self) -> str | None:
        """The kind of the computer seat to act, if it plays here (not at a shared table, whose
        server plays it, nor in a replay) and a bot for it is installed (and working)."""
        if not self.policy.plays_bots or self.game.is_over() or self.bot_broken or self.ended_on_time:
            return None
        kind = self.game.setup.players[self.game.current_player].kind
        if self.game.current_player in self.clock_away:
            kind = TIMEOUT_KIND
        ai = bot_module()
        return kind if kind != SeatKind.HUMAN and ai is not None and kind in ai.KINDS else None

    def schedule_bot(self) -> None:
        if self.bot_kind() is not None:
            count = len(self.game.moves)
            self.set_timer(BOT_DELAY, lambda: self._bot_move(count))

    def _bot_move(self, count: int) -> None:
        kind = self.bot_kind()
        if kind is None or len(self.game.moves) != count:
            return
        if not self.is_current:
            self.set_timer(BOT_DELAY, lambda: self._bot_move(count))
            return
        self.thinking = True
        self._refresh_hint()
        table = self.game.clone()
        bot = self._bot_for(self.game.current_player, kind)
        self.run_worker(lambda: self._think(table, bot, count), thread=True, group="bot", exit_on_error=False)

    def _bot_for(self, seat: int, kind: str) -> Any:
        """The seat's bot (one object per seat, so a whole-turn plan is made once a turn)."""
        bot = self.bots.get(seat)
        if bot is None or bot.kind != kind:
            ai = bot_module()
            assert ai is not None  # the seat's kind is a bot's (bot_kind)
            bot = self.bots[seat] = ai.make_bot(kind, seed=self.game.setup.seed)
        return bot

    def _think(self, table: Game, bot: Any, count: int) -> None:
        """In a worker thread: ask the bot, then hand its move to the UI thread."""
        try:
            move = bot.choose(table)
        except Exception as exc:  # a failing bot must not take the table down
            self.app.call_from_thread(self._bot_failed, f"{type(exc).__name__}: {exc}")
            return
        self.app.call_from_thread(self._bot_play, move, count)

    def _bot_play(self, move: M.Move, count: int) -> None:
        self.thinking = False
        if len(self.game.moves) == count:
            self.play(move)
        else:
            self._refresh_hint()

    def _bot_failed(self, reason: str) -> None:
        """Hand the seat to the people at the table for this move."""
        self.thinking = False
        self.bot_broken = True
        self._refresh_moves()
        self.show_error(
            _("the computer player failed ({reason}); play its moves by hand").format(reason=reason)
        )

    # --- the clock (ui/clock.py reads it; docs/clocks.md) ---
    def time_ran_out(self, seat: int) -> None:
        """A seat's time ran out at this keyboard: say so, and apply the setup's rule."""
        setting = self.game.setup.clock
        name = self.game.setup.players[seat].name
        if setting is not None and setting.on_flag == FlagRule.END:
            self.ended_on_time = True
            self.notify(
                _("{name}'s time ran out; the game ends with the scores as they stand").format(name=name)
            )
            host(self).show_scores(self.game)
            return
        self.clock_away.add(seat)
        self.notify(
            _("{name}'s time ran out; the computer plays the seat (b takes it back)").format(name=name)
        )
        self._refresh_moves()
        self.schedule_bot()

    def action_clock_back(self) -> None:
        """b: the seats the computer plays since their time ran out are their players' again."""
        if not self.clock_away:
            self.notify(_("no seat is played by the computer"))
            return
        names = ", ".join(self.game.setup.players[seat].name for seat in sorted(self.clock_away))
        self.clock_away.clear()
        self.notify(_("{names}: back from the computer").format(names=names))
        self._refresh_moves()

    # --- hints ---
    def action_hint(self) -> None:
        """h: ask the strongest bot what it would play now for the seat to act. The move and a
        one-line reason go to the hint panel; nothing is played. The bot thinks in a worker
        thread on a copy of the game, so the table never waits for it."""
        if self._typed("h"):
            return
        ai = bot_module()
        why = self.policy.no_hint()
        if why is None and self.game.is_over():
            why = _("the game is over")
        elif why is None and self.bot_kind() is not None:
            why = _("a computer player is to move")
        elif why is None and (ai is None or not hasattr(ai, "STRONGEST")):
            why = _("no computer player is installed to ask")
        if why is not None:
            self.show_error(why)
            return
        if self.advising:
            return
        assert ai is not None  # else ``why`` said so
        if self.advisor is None:
            self.advisor = ai.make_bot(ai.STRONGEST, seed=self.game.setup.seed)
        log = list(self.game.moves)
        table = self.game.clone()
        advisor = self.advisor
        self.advising = True
        self.error = None
        self._refresh_hint()
        self.run_worker(
            lambda: self._advise(table, advisor, log), thread=True, group="hint", exit_on_error=False
        )

    def _advise(self, table: Game, advisor: Any, log: list[M.Move]) -> None:
        """In a worker thread: ask for the hint, then hand it to the UI thread."""
        try:
            advice = advisor.advise(table)
        except Exception as exc:  # a failing bot must not take the table down
            self.app.call_from_thread(self._advice_failed, f"{type(exc).__name__}: {exc}")
            return
        self.app.call_from_thread(self._show_advice, advice, log)

    def _show_advice(self, advice: Any, log: list[M.Move]) -> None:
        self.advising = False
        if self.game.moves == log:  # still the position it was asked about
            self.advice = Text(_("Hint: "), style="bold cyan") + Text(
                M.format_move(advice.move), style="bold"
            )
            self.advice.append("\n")
            self.advice.append(advice.reason, style="italic")
        self._refresh_hint()

    def _advice_failed(self, reason: str) -> None:
        self.advising = False
        self.error = Text(_("No hint: "), style="bold red") + Text(
            _("the computer player failed ({reason})").format(reason=reason)
        )
        self._refresh_hint()

    def save_meta(self) -> dict[str, Any]:
        """What the UI keeps in a save's meta: the seat colours."""
        return {"colours": list(self.colours)}

    def autosave(self) -> None:
        """Write the game to its own autosave: a file holding another game, or a later point of
        this one, is kept and this line of play goes on in a new file (said once). Only a
        hot-seat table writes: a shared table's server writes it, and a replay writes nothing."""
        if not self.policy.autosaves or self.saves_dir is None:
            return
        assert isinstance(self.game, Game)  # a table that autosaves holds its game
        try:
            path = storage.autosave(self.game, self.saves_dir, self.save_name, self.written, self.save_meta())
        except (storage.SaveError, OSError) as exc:
            self.notify(_("Autosave failed: {error}").format(error=exc), severity="error")
            return
        base = self.save_name or f"{storage.AUTOSAVE_PREFIX}{self.game.setup.seed}.json"
        if path.name != base:
            self.notify(
                _(
                    "{base} holds another game or a later point of this one and is kept; "
                    "this game autosaves to {name}."
                ).format(base=base, name=path.name),
                timeout=10,
            )
        self.save_name = path.name
        self.written = list(self.game.moves)

    def confirmed(self, move: M.Move) -> bool:
        """Whether to play ``move`` now. A run that would refine nothing (the engine says why:
        ``why_idle``) wastes a Main Action or the Machine Phase's price, so the first choice of
        it only warns; the same choice again, while the warning shows, plays it."""
        if self.error is not None and self.warned == move:
            return True
        why = why_idle(self.game.state, move)
        if why is None:
            return True
        self.warned = move
        self.error = Text(_("Nothing to gain: "), style="bold yellow") + Text(
            _("{reason}. Choose it again to play it anyway.").format(reason=why)
        )
        self._refresh_hint()
        return False

    def show_error(self, text: str) -> None:
        head, detail = refusal(text, _("Not allowed: "), _("Not allowed: {area}: "))
        self.error = Text(head, style="bold red") + Text(detail)
        self._refresh_hint()

    @on(MoveList.Selected, "#moves")
    def _option_selected(self, event: MoveList.Selected) -> None:
        self.option_chosen(event.option.id or "")

    @on(MoveList.Highlighted, "#moves")
    def _option_highlighted(self, event: MoveList.Highlighted) -> None:
        if event.by_user and self.error is not None:  # the player has moved on from it
            self.error = None
        self.option_highlighted(event.option.id or "")

    def _listed(self, option_id: str) -> M.Move | None:
        """The move behind an option id ``m<list>-<index>``; ``None`` if the list has changed."""
        listing, _, index = option_id[1:].partition("-")
        if not option_id.startswith("m") or listing != str(self.listing):
            return None
        return self.shown_moves[int(index)]

    def option_chosen(self, option_id: str) -> None:
        """Play the chosen entry; with a tile in hand a placement goes where the ghost shows
        (the list's highlight may be left from before the ghost was moved)."""
        if self.policy.choose(option_id):
            return
        move = self._listed(option_id)
        if isinstance(move, M.PlaceTile) and self.ghost is not None:
            move = M.PlaceTile(x=self.ghost.x, y=self.ghost.y, rot=self.ghost.rot)
        if move is not None and self.confirmed(move):
            self.play(move)

    def option_highlighted(self, option_id: str) -> None:
        move = self._listed(option_id)
        if move is not None:
            if isinstance(move, M.PlaceTile) and self.ghost is not None:
                self.ghost.x, self.ghost.y, self.ghost.rot = move.x, move.y, move.rot
            mark = (move.x, move.y) if isinstance(move, CELL_MOVES) else None
            if isinstance(move, M.PlaceTile) or mark != self.mark:
                self.mark = mark
                self._refresh_ghost()
            self._refresh_hint(move)

    @on(Input.Submitted, "#prompt")
    def _prompt_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip().lstrip(":").strip()
        if not text:
            return
        if self.bot_kind() is not None:
            self.show_error(_("a computer player is to move"))
            return
        try:
            move = M.parse_move(text)
        except NotationError as exc:
            self.show_error(str(exc))
            return
        if not self.confirmed(move):
            return
        if self.play(move):
            event.input.clear()
            if self.ghost is None:  # the keys go back to the table (1-4, F2-F5...)
                self.query_one("#moves", MoveList).focus()

    @on(NetworkPanel.Moved)
    def _ghost_moved(self) -> None:
        self.error = None
        self._refresh_ghost()
        self._refresh_hint()

    def on_descendant_focus(self) -> None:
        """The ghost's hint names the keys of the widget with the focus."""
        if self.ghost is not None:
            self._refresh_hint()

    @on(NetworkPanel.Place)
    def _ghost_place(self) -> None:
        if self.ghost is not None:
            self.play(M.PlaceTile(x=self.ghost.x, y=self.ghost.y, rot=self.ghost.rot))

    # --- keys ---
    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """The keys the footer and the keys panel show. While the move prompt has the focus
        the table's keys it takes as text (the digits of "1-4 Boards") are shown disabled, not
        dropped, so the footer keeps its keys as the prompt takes and leaves the focus: making
        them anew cost more than a move's redraw, twice for every move typed (issue 38)."""
        prompt = self.focused
        if not isinstance(prompt, MovePrompt):
            return super().active_bindings
        with prompt.passing_keys():
            active = super().active_bindings
        return {
            key: shown._replace(enabled=False)
            if shown.node is not prompt and prompt.check_consume_key(key, key_to_character(key))
            else shown
            for key, shown in active.items()
        }

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The policy's hidden actions are neither offered in the footer nor run."""
        return action not in self.policy.hidden

    def _typed(self, text: str) -> bool:
        """While the prompt has the focus, a letter or digit key of the table's is text: put
        it in the prompt (the key's binding is a priority one, so the prompt never saw it)."""
        prompt = self.focused
        if isinstance(prompt, Input):
            prompt.insert_text_at_cursor(text)
            return True
        return False

    def action_policy(self, name: str, args: tuple[object, ...] = ()) -> None:
        """A key of the policy's own (the replay viewer's steps): its ``action_<name>(*args)``
        (one tuple, as Textual passes an action no more arguments than its signature names)."""
        getattr(self.policy, f"action_{name}")(*args)

    def action_undo(self) -> None:
        self.policy.undo()

    def action_redo(self) -> None:
        """Play the undone move again (a shared table refuses: the engine's reason is shown)."""
        try:
            redone = self.game.redo()
        except IllegalMove as exc:
            self.show_error(str(exc))
            return
        if redone is None:
            self.notify(_("Nothing to redo."))
            return
        self.after_change()

    def action_view(self, view: str) -> None:
        self._show_view(view)
        target = self.query_one(f"#{view}")
        if view == "network-view" or self.ghost is None:
            self.set_focus(target)  # Widget.focus would repaint the whole view, look changed or not

    def _show_view(self, view: str) -> None:
        """Make ``view`` the one shown on a narrow terminal. A wide terminal shows every view,
        so there the classes wait for a resize: changing them restyles whole views, which cost
        a shared-table seat most of its redraw time on moves that switch views."""
        self.view = view
        if not self.has_class("-wide"):
            self._apply_view()

    def _apply_view(self) -> None:
        if self.view == "log-view" or self.has_class("-wide"):
            self.query_one(MoveLog).catch_up()  # set while out of sight: drawn as it is shown
        for name in VIEWS:
            self.query_one(f"#{name}").set_class(name == self.view, "-active")
        # On a narrow terminal the move log, when shown, fills the left area, whose bottom rows
        # (the newest lines) a notice would hide for its 4-12 s: notices go to its top then.
        for rack in self.query("#textual-toastrack"):  # none when notifications are off
            rack.set_class(self.view == "log-view" and not self.has_class("-wide"), "-top")

    def on_resize(self) -> None:
        self.call_after_refresh(self._apply_view)

    def _show_action_panel(self) -> None:
        """Bring the panel of the Action in progress into view (on narrow terminals too)."""
        state = self.game.state
        if state.turn.stage != Stage.ACTION:
            return
        panel = ACTION_PANELS.get(state.turn.action)
        if panel is None:
            return
        if panel == "network-view":
            self._show_view(panel)
            return
        self._show_view("table-view")
        widget = self.query_one(f"#{panel}")
        self.call_after_refresh(
            lambda: self.query_one("#table-view").scroll_to_widget(widget, animate=False, top=True)
        )

    def action_focus_moves(self) -> None:
        """Escape: to the move list; leaving the prompt clears it and its refusal."""
        prompt = self.query_one("#prompt", Input)
        if self.focused is prompt or prompt.value:
            prompt.value = ""
            if self.error is not None:
                self.error = None
                self._refresh_hint()
        self.set_focus(self.query_one("#moves", MoveList))  # Widget.focus repaints it whole

    def action_prompt(self) -> None:
        """Open the prompt empty and focused at once. ":" is a priority key, so pressed in the
        prompt it starts a new move instead of joining the old text, and a move typed right
        after it lands in the prompt even when the keys arrive together."""
        prompt = self.query_one("#prompt", Input)
        prompt.value = ""
        if self.error is not None:
            self.error = None
            self._refresh_hint()
        self.set_focus(prompt)

    def action_seat(self, seat: int) -> None:
        """Show board ``seat``; 0 (``seat`` -1) the policy's own board, or follows the player
        to act."""
        if self._typed(str(seat + 1)):
            return
        own = self.policy.own_board()
        if seat < 0 and own is not None:
            seat = own
        if seat >= len(self.game.state.players):
            return
        self.seat_shown = None if seat < 0 else seat
        if self.language != current_language():
            self.refresh_table()  # says everything again in the new language
        else:
            self._refresh_board()  # the rest of the table does not depend on the board shown

    async def action_network_view(self) -> None:
        """The shown seat's Pipe Network on most of the screen (``network_view.py``). Awaited:
        keys typed right after ``n`` go to the view, not to the table under it (issue 37)."""
        if not self._typed("n"):
            await self.app.push_screen(NetworkViewScreen(self))

    def action_scores(self) -> None:
        host(self).show_scores(self.game, self.colours)

    def action_cards(self, group: str = "contracts") -> None:
        """The cards on the table, to read any one in full."""
        self.app.push_screen(CardsScreen(self.current_state(), group))

    def on_click(self, event: events.Click) -> None:
        """A click on the Contracts, Upgrades or Valuation panel opens its cards."""
        widget: DOMNode | None = event.widget
        while widget is not None and widget is not self:
            if widget.id in CARD_GROUPS:
                self.action_cards(widget.id)
                return
            widget = widget.parent

    def action_save_as(self) -> None:
        if self.policy.save_as_refusal is not None:
            self.show_error(_(self.policy.save_as_refusal))
            return
        assert isinstance(self.game, Game)  # a table with Save as holds its game
        host(self).ask_save_as(self.game, self.save_meta())
