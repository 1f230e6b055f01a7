"""Seat policies: who plays at the one table screen, and how.

A ``TableScreen`` is made with one policy and asks it who may act now, what undo does, where
moves go, what the footer offers, what the move list and the hint show and whether the game is
saved. :class:`HotSeat` plays every seat at one keyboard, :class:`SharedSeat` one seat of a
shared table (``pipeline-tui serve``) and :class:`Replay` none, stepping through a saved game.
A policy holds no rules: the engine (or the Hub behind a ``RemoteGame``) decides every move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding

from .. import storage
from ..engine import Game, IllegalMove, SeatKind, format_move
from ..engine import moves as M
from ..i18n import N_, _
from .host import host
from .style import seat_style
from .widgets import Choice, MoveList

if TYPE_CHECKING:
    from ..engine import State
    from ..net.remote import RemoteGame
    from .host import Table


class HotSeat:
    """Everyone at this keyboard plays in turn, the bots play the computer seats, and every
    move is autosaved. The other policies change only what differs from this."""

    live = True  # a game is played here: quitting saves it, the palette offers Save as and Undo
    plays = True  # the move list offers the legal moves, and a Pipe tile in hand has a ghost
    plays_bots = True  # the computer seats move here
    autosaves = True
    deferred = False  # redraw once the loop has sent what is ready, the move list a frame later
    summary_in_hint = True  # a summarised turn shows in the hint too, not only in the log
    prompt = True  # the move prompt is shown
    blink = True  # and its cursor blinks
    moves_title = N_("Moves")  # English, translated where shown (as are the bindings')
    # keys beside the table's; one bound here replaces it. b: with a clock, the seats the
    # computer plays since their time ran out are their players' again (TableScreen.action_clock_back)
    bindings: tuple[Binding, ...] = (
        Binding("b", "clock_back", N_("Seats back from the computer"), show=False),
    )
    hidden: frozenset[str] = frozenset()  # the table's actions neither offered nor run here
    save_as_refusal: str | None = None  # why there is no Save as here, if there is none (N_)
    css_class = "-hot-seat"  # the screen's class (app.tcss styles a shared table's own way)

    screen: Table

    def attach(self, screen: Table) -> None:
        """Serve ``screen`` (once, as it is made)."""
        self.screen = screen

    def state(self) -> State:
        """The state on show."""
        return self.screen.game.state

    def moves_shown(self) -> int:
        """How many moves of the log the table shows."""
        return len(self.screen.game.moves)

    def waiting_for(self) -> str | None:
        """Why no moves are offered here now ("computer to move"), or ``None``."""
        return _("computer to move") if self.screen.bot_kind() is not None else None

    def own_board(self) -> int | None:
        """The board key 0 shows; ``None``: the one of the player to act."""
        return None

    def status_with_preview(self) -> bool:
        """Whether the hint's status line (whose turn, what to do) follows a move's preview."""
        return True

    def hint(self, move: M.Move | None) -> Text | None:
        """The hint panel, or ``None`` for the table's own (the player to act, the ghost...)."""
        return None

    def no_hint(self) -> str | None:
        """Why the hint key asks nothing here (one line), or ``None``: it asks for the seat to
        act."""
        return None

    def summarises(self, seat: int) -> bool:
        """Whether a finished turn of ``seat`` is summarised in a line (issue 16): here, the
        computer seats' turns, which nobody at this keyboard played."""
        return self.screen.game.setup.players[seat].kind != SeatKind.HUMAN

    def list_moves(self, option_list: MoveList) -> bool:
        """Fill the move list with entries of the policy's own; ``False``: the legal moves."""
        return False

    def choose(self, option_id: str) -> bool:
        """Take an entry of the policy's own list chosen; ``False``: play the move listed."""
        return False

    def undo(self) -> None:
        """Take back the last move, and any computer moves before it, back to a person's turn."""
        screen, game = self.screen, self.screen.game
        if game.undo() is None:
            screen.notify(_("Nothing to undo."))
            return
        people = any(p.kind == SeatKind.HUMAN for p in game.setup.players)
        while people and screen.bot_kind() is not None and game.moves:
            game.undo()
        screen.after_change()


class SharedSeat(HotSeat):
    """One seat of a shared table over a ``RemoteGame``: the server keeps the table, saves it
    and plays its computer seats; you move only for your own seat, on your own turn, and
    everyone at the table sees each move as it lands."""

    plays_bots = False
    autosaves = False
    deferred = True
    # The hint keeps its height as turns pass (a taller hint lays every session's screen out
    # again); the summaries go to the Move log, whose rows come in with the moves.
    summary_in_hint = False
    # A blinking cursor repaints the prompt twice a second, which over SSH is a stream of output
    # and CPU in every session while nothing happens at the table.
    blink = False
    bindings = (
        Binding("f9", "app.lobby", N_("Lobby")),
        Binding("ctrl+y", "redo", N_("Redo"), show=False, priority=True),
    )
    save_as_refusal = N_("the server keeps this table; there is no Save as at a shared table")
    css_class = "-shared-seat"

    def __init__(self) -> None:
        self.seats_shown: tuple[object, ...] | None = None  # who sits where, as last drawn
        self.my_turn_shown = True  # it was your turn when last drawn (no bell as you sit down)

    def attach(self, screen: Table) -> None:
        super().attach(screen)
        self.remote.on_change = self.table_changed
        self.remote.on_refused = self.refused
        if self.remote.spectator:
            screen.add_class("-watching")  # app.tcss: a watcher's hint keeps its height

    @property
    def remote(self) -> RemoteGame:
        """The shared table's game, as this seat sees it."""
        game = self.screen.game
        # Not "isinstance RemoteGame": the hot-seat app would import the network layer at start-up.
        assert not isinstance(game, Game)
        return game

    def waiting_for(self) -> str | None:
        game = self.remote
        if game.is_over() or game.my_turn():
            return None
        if game.spectator:
            return _("watching")
        return _("{name} to move").format(name=game.state.players[game.current_player].name)

    def own_board(self) -> int | None:
        """Your own board (the one to act's when watching)."""
        return self.remote.seat

    def no_hint(self) -> str | None:
        """Hints are a table option chosen when the table is made, for the seated players on
        their own turn."""
        game = self.remote
        if not game.hints:
            return _("hints are off at this table (chosen when it was made)")
        if game.spectator:
            return _("hints are for the players seated at this table")
        if not game.my_turn():
            return _("a hint is for your own turn")
        return None

    def summarises(self, seat: int) -> bool:
        """Every other seat's turn, computer or person (issue 14 point 5); a spectator's, every
        seat's."""
        return seat != self.remote.seat

    def hint(self, move: M.Move | None) -> Text | None:
        """Whose turn it is, when it is not yours."""
        screen = self.screen
        line = self.remote.turn_line()
        if line is None:
            return None
        out = Text()
        if screen.error is not None:
            out.append_text(screen.error)
            out.append("\n")
        if screen.message is not None:
            out.append_text(screen.message)
            out.append("\n")
        out.append(line, style="bold")
        return out

    def undo(self) -> None:
        """Ask the server to take back your last move (only yours, within your own turn)."""
        try:
            self.screen.game.undo()
        except IllegalMove as exc:
            self.screen.show_error(str(exc))

    def table_changed(self, log_changed: bool) -> None:
        """An Update from the server: redraw, and say what the others did."""
        screen, game = self.screen, self.remote
        if not screen.is_mounted:
            return  # not drawn yet: on_mount draws the table as it is then
        seats, self.seats_shown = self.seats_shown, tuple(game.seats)
        if game.time_note:  # a seat's time ran out: everyone at the table is told
            screen.notify(game.time_note)
        mine = game.my_turn()
        if mine and not self.my_turn_shown and log_changed and getattr(screen.app, "turn_bell", False):
            screen.app.bell()  # your turn has come (the lobby's b: a per-player choice)
        self.my_turn_shown = mine
        if not log_changed:
            if seats != self.seats_shown:  # the Hub confirming a move made here: nothing new
                screen.refresh_table()
            return
        before = len(screen.log_lines)  # the moves drawn so far
        moves = game.moves
        if game.note:
            screen.message = Text(game.note, style="dim")
        elif len(moves) > before:
            name = game.state.players[game.entries[-1].seat].name
            screen.message = Text(_("{name} played: ").format(name=name), style="dim") + Text(
                format_move(moves[-1]), style="bold"
            )
        screen.after_change()

    def refused(self, reason: str) -> None:
        """The server refused a move or undo sent from here; the table is as it says."""
        self.screen.refresh_table()
        self.screen.show_error(reason)


class Replay(HotSeat):
    """The replay viewer: the table as it stood after move ``position`` of a finished or saved
    game; nobody plays, and "play from here" forks the game to a hot-seat table."""

    live = False
    plays = False
    plays_bots = False
    autosaves = False
    prompt = False
    moves_title = N_("Replay: moves")
    css_class = "-replay"
    # The footer shows the main keys and the hint all of them, so the footer fits 80 columns
    # without cutting a word.
    bindings = (
        Binding("left", "policy('step', (-1,))", N_("Step"), key_display="←→", priority=True),
        Binding("right", "policy('step', (1,))", N_("Forward"), show=False, priority=True),
        Binding("home", "policy('jump', (0,))", N_("Start"), show=False, priority=True),
        Binding("end", "policy('jump', (-1,))", N_("End"), show=False, priority=True),
        Binding("y", "policy('round', (1, True))", N_("Next Year"), show=False),
        Binding("r", "policy('round', (1, False))", N_("Next Round"), show=False),
        Binding("Y", "policy('round', (-1, True))", N_("Year back"), show=False),
        Binding("R", "policy('round', (-1, False))", N_("Round back"), show=False),
        Binding("p", "policy('play_from_here')", N_("Play on")),
    )
    hidden = frozenset({"undo", "redo", "prompt", "save_as", "hint"})

    def __init__(self) -> None:
        self.position = 0
        self.rounds: list[tuple[int, int, int]] = []

    def attach(self, screen: Table) -> None:
        super().attach(screen)
        assert isinstance(screen.game, Game)  # a replay is of a game held here
        self.rounds = screen.game.round_starts()

    def state(self) -> State:
        return self.screen.game.state_at(self.position)

    def moves_shown(self) -> int:
        return self.position

    def list_moves(self, option_list: MoveList) -> bool:
        """The log, an entry per position: "Start of the game", then each move."""
        screen, game = self.screen, self.screen.game
        options = [Choice(Text(_("Start of the game"), style="bold"), id="p0")]
        players = game.setup.players
        for i, (move, seat) in enumerate((e.move, e.seat) for e in game.entries):
            line = Text(f"{i + 1:>4} ")
            line.append(f"{players[seat].name[:8]:<8}", style=seat_style(screen.colours, seat))
            line.append(f" {format_move(move)}")
            options.append(Choice(line, id=f"p{i + 1}"))
        option_list.set_options(options)
        option_list.highlighted = self.position
        option_list.border_subtitle = _("move {position} of {moves}").format(
            position=self.position, moves=len(game.moves)
        )
        return True

    def hint(self, move: M.Move | None) -> Text | None:
        game = self.screen.game
        text = Text(
            _("Replay: move {position} of {moves}").format(position=self.position, moves=len(game.moves))
            + "\n",
            style="bold",
        )
        if self.position:
            text.append(format_move(game.moves[self.position - 1]) + "\n")
        state = self.state()
        text.append(_("Year {year} Round {round}").format(year=state.year, round=state.round) + "\n")
        text.append(
            _("left/right step, home/end jump, y/r next Year/Round (Y/R back), p plays on from here"),
            style="dim",
        )
        return text

    def choose(self, option_id: str) -> bool:
        """Enter or a click on an entry stands the replay there (highlighting alone does not)."""
        self.action_jump(int(option_id[1:]))
        return True

    def action_step(self, delta: int) -> None:
        self.action_jump(max(0, min(len(self.screen.game.moves), self.position + delta)))

    def action_jump(self, position: int) -> None:
        self.position = len(self.screen.game.moves) if position < 0 else position
        self.screen.refresh_table()

    def action_round(self, direction: int, year: bool) -> None:
        """Jump to the first move of the next (or previous) Round, or Year."""
        starts = [n for n, _, r in self.rounds if r == 1 or not year]
        if direction > 0:
            target = next((n for n in starts if n > self.position), None)
        else:
            target = next((n for n in reversed(starts) if n < self.position), None)
        if target is None:
            if year:
                text = (
                    _("No later Year in this game.") if direction > 0 else _("No earlier Year in this game.")
                )
            else:
                text = (
                    _("No later Round in this game.")
                    if direction > 0
                    else _("No earlier Round in this game.")
                )
            self.screen.notify(text)
            return
        self.action_jump(target)

    def action_play_from_here(self) -> None:
        screen = self.screen
        fork = Game(screen.game.setup, screen.game.moves[: self.position])
        name = f"{storage.AUTOSAVE_PREFIX}{fork.setup.seed}-from-{self.position}.json"
        host(screen).play_on(fork, name, screen.colours)
