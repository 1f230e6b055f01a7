"""RemoteGame: a shared table's game as the TableScreen sees it, in a session child.

The Hub holds the authoritative game; this is a replica built from the table's setup and log
(``Joined``) and kept in step with every ``Update``. A move that passes the local checks (your
seat, your turn, the engine's ``why_illegal``) is shown at once and sent to the Hub; the Hub's
next Update confirms it, or its refusal takes it back and the reason is handed to ``on_refused``.
Undo is a request to the Hub (only your own moves, within your own turn: the Hub decides). No
rules live here: the replica is an engine ``Game``.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable, Coroutine

from ..engine.clock import ClockState
from ..engine.errors import IllegalMove, NotationError
from ..engine.game import Game, LogEntry
from ..engine.moves import Move, format_move, parse_move
from ..engine.scoring import Score
from ..engine.setup import SeatKind
from ..engine.state import State
from ..i18n import _
from .client import TableClient
from .protocol import TIME_NOTES, Joined, RuleRefusal, SeatInfo, TableError, Update

REBUILD_AFTER = 8  # undoing more local moves than this rebuilds the replica from the setup


def level_name(kind: str) -> str:
    """A bot kind as players know it: its level (``heuristic`` is "normal") in the language
    spoken. The bots are imported here, when a computer seat is named, not at the session's
    start (a session that never meets one never loads them)."""
    from ..ai import level_of

    return _(level_of(kind))


class RemoteGame:
    """A Game-like replica of a shared table that plays through a ``TableClient``.

    ``on_change(log_changed)`` is called after every Update (``log_changed``: the move log is
    different); ``on_refused(reason)`` when the Hub refuses a move or an undo sent from here.
    Both are called in the client's event loop.
    """

    def __init__(self, client: TableClient, joined: Joined) -> None:
        self.client = client
        self.table_id = joined.table_id
        self.seat: int | None = joined.seat
        self.seats: list[SeatInfo] = list(joined.seats)
        self.setup = joined.setup
        self.colours: list[str] = list(joined.colours)  # a colour name per seat; [] = defaults
        self.hints = joined.hints  # the table's option: hints for the seated players
        self.note = ""
        self.time_note = ""  # the last Update's note when a seat's time ran out ("" otherwise)
        self._game = Game(joined.setup)
        self._replay(joined.moves)
        self._texts: list[str] = list(joined.moves)  # the replica's log in notation
        self._server: list[str] = list(joined.moves)  # the log as the Hub last told it
        self._pending: list[tuple[int, str]] = []  # (log index, notation) sent, not yet confirmed
        self._times: list[int] = list(joined.times)  # a clocked table: each move's game time
        self._game.restamp(self._times)
        self._time = (joined.game_time, time.monotonic(), joined.live)  # the Hub's, when told
        self._tasks: set[asyncio.Task[None]] = set()
        self.on_change: Callable[[bool], None] | None = None
        self.on_refused: Callable[[str], None] | None = None

    # --- the Game interface the TableScreen reads ---
    @property
    def state(self) -> State:
        return self._game.state

    @property
    def moves(self) -> list[Move]:
        return self._game.moves

    @property
    def entries(self) -> list[LogEntry]:
        """The log with the seat and turn of each move (the engine's history)."""
        return self._game.entries

    def movers(self) -> list[int]:
        return self._game.movers()

    @property
    def current_player(self) -> int:
        return self._game.current_player

    def legal_moves(self) -> list[Move]:
        return self._game.legal_moves()

    def why_illegal(self, move: Move) -> str | None:
        return self.why_not_yours() or self._game.why_illegal(move)

    def is_legal(self, move: Move) -> bool:
        return self.why_illegal(move) is None

    def is_over(self) -> bool:
        return self._game.is_over()

    def scores(self) -> list[Score]:
        return self._game.scores()

    def clone(self) -> Game:
        """A local copy of the table as it stands (a plain Game: it plays nothing remotely)."""
        return self._game.clone()

    def state_at(self, count: int) -> State:
        return self._game.state_at(count)

    def can_redo(self) -> bool:
        return False

    # --- the clock (the Hub's stamps; its game time, run on locally between Updates) ---
    def now(self) -> int:
        """The table's game time now, as last told by the Hub and run on here while it runs."""
        told, at, live = self._time
        return told + int((time.monotonic() - at) * 1000) if live else told

    def clock(self) -> ClockState | None:
        """Every seat's clock now (``None`` at a table without one)."""
        return self._game.clock(self.now())

    # --- seats ---
    @property
    def spectator(self) -> bool:
        return self.seat is None

    def my_turn(self) -> bool:
        """Your seat is to act, or a computer seat handed to the players after its bot failed."""
        if self.seat is None or self.is_over():
            return False
        return self.current_player == self.seat or self.handed_back(self.current_player)

    def handed_back(self, seat: int) -> bool:
        """Whether ``seat`` is a computer seat whose bot failed (the seated players play it)."""
        return any(s.seat == seat and s.handed_back for s in self.seats)

    def seat_label(self, seat: int) -> str:
        """``Bo (bob)``, ``Bo (open seat)``, ``Cy (computer, normal)`` (the level players know
        the bot by, in the language spoken)."""
        info = next((s for s in self.seats if s.seat == seat), None)
        name = self.setup.players[seat].name
        if info is None:
            return name
        if info.handed_back:
            return _("{name} (computer seat played by the table)").format(name=name)
        if info.kind != SeatKind.HUMAN:
            return _("{name} (computer, {kind})").format(name=name, kind=level_name(info.kind))
        if info.holder is None:
            return _("{name} (open seat)").format(name=name)
        if info.away:
            return _("{name} ({holder}, out of time: the computer plays)").format(
                name=name, holder=info.holder
            )
        if not info.connected:
            return _("{name} ({holder}, away)").format(name=name, holder=info.holder)
        return _("{name} ({holder})").format(name=name, holder=info.holder)

    def why_not_yours(self) -> str | None:
        """Why this connection may not move now (watching, another seat's turn), or ``None``."""
        if self.is_over():
            return None
        if self.seat is None:
            return _("you are watching this table; spectators cannot move")
        if self.current_player != self.seat and not self.handed_back(self.current_player):
            return _("it is {seat}'s turn, not yours").format(seat=self.seat_label(self.current_player))
        return None

    def turn_line(self) -> str | None:
        """Whose turn it is, for people who are not to move; ``None`` on your own turn."""
        if self.is_over() or self.my_turn():
            return None
        who = self.seat_label(self.current_player)
        if self.seat is None:
            return _("{seat} to play. You are watching.").format(seat=who)
        return _("{seat} to play. You are {name}; wait for your turn.").format(
            seat=who, name=self.setup.players[self.seat].name
        )

    # --- playing ---
    def apply(self, move: Move) -> None:
        """Play ``move`` here and send it to the Hub; IllegalMove (one line) if refused here."""
        reason = self.why_not_yours()
        if reason is not None:
            raise IllegalMove(reason)
        self._game.apply(move)
        text = format_move(move)
        index = len(self._texts)
        self._texts.append(text)
        self._pending.append((index, text))
        self._send(self._move(index, text))

    def undo(self) -> None:
        """Ask the Hub to take back your last move; the Update (or a refusal) follows."""
        reason = self.why_not_yours()
        if reason is not None:
            raise IllegalMove(reason)
        self._send(self._undo())

    def redo(self) -> None:
        raise IllegalMove(_("there is no redo at a shared table"))

    def _send(self, request: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(request)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _move(self, index: int, text: str) -> None:
        try:
            await self.client.move(self.table_id, text)
        except TableError as exc:
            self._pending = [p for p in self._pending if p[0] < index]
            self._sync()
            self._refused(self.move_refusal(exc, text))

    async def _undo(self) -> None:
        try:
            await self.client.undo(self.table_id)
        except TableError as exc:
            self._refused(self.undo_refusal(exc))

    def move_refusal(self, error: TableError, text: str) -> str:
        """Why the Hub refused the move ``text``, in this session's language. A refusal by the
        rules was written in the Hub's language, so it is worked out again here, on the replica
        brought to the Hub's log (where the Hub judged the move); any other refusal travels as
        a message id and is shown as such, and so is a rule refusal the replica cannot explain."""
        if isinstance(error, RuleRefusal):
            try:
                reason = self._game.why_illegal(parse_move(text))
            except NotationError as exc:
                reason = str(exc)
            if reason:
                return reason
        return error.shown()

    def undo_refusal(self, error: TableError) -> str:
        """Why the Hub refused an undo, in this session's language (as :meth:`move_refusal`:
        the rules' reason worked out again on the replica, for the seat to act)."""
        if isinstance(error, RuleRefusal):
            reason = self._game.why_no_undo(self._game.current_player)
            if reason:
                return reason
        return error.shown()

    def _refused(self, reason: str) -> None:
        if self.on_refused is not None:
            self.on_refused(reason)

    async def wait_sent(self) -> None:
        """Until every move and undo sent from here has its answer (tests, leaving a table)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # --- following the Hub ---
    def update(self, update: Update) -> bool:
        """Take an Update for this table; returns whether the move log changed."""
        self.seats = list(update.seats)
        self.note = update.shown_note()  # in this session's language (the Hub sends an id)
        self.time_note = self.note if update.note_id in TIME_NOTES else ""
        self._server = self._server[: update.base] + list(update.moves)
        if self.setup.clock is not None:
            self._times = self._times[: update.base] + list(update.times)
            self._time = (update.game_time, time.monotonic(), update.live)
        changed = self._sync()
        if self.setup.clock is not None:
            self._game.restamp(self._times)
        if self.on_change is not None:
            self.on_change(changed)
        return changed

    def _sync(self) -> bool:
        """Bring the replica to the Hub's log plus the moves sent and not yet confirmed."""
        server = self._server
        pending = [(i, t) for i, t in self._pending if i >= len(server)]
        if pending and pending[0][0] != len(server):
            pending = []  # the table moved on under them: the Hub's answer will say why
        self._pending = pending
        target = server + [t for _, t in pending]
        if target == self._texts:
            return False
        keep = 0
        for ours, theirs in zip(self._texts, target):
            if ours != theirs:
                break
            keep += 1
        try:
            if len(self._texts) - keep > REBUILD_AFTER:
                raise IllegalMove("rebuild")
            while len(self._game.moves) > keep:
                self._game.undo()
            for text in target[keep:]:
                self._game.apply(parse_move(text))
        except IllegalMove:
            try:
                self._replay(target)
                self._game.restamp(self._times)
            except IllegalMove:  # a move sent from here no longer fits: the Hub's log wins
                target, self._pending = list(server), []
                self._replay(target)
        self._texts = list(target)
        return True

    def _replay(self, log: list[str]) -> None:
        """The replica from the setup through ``log`` (IllegalMove if a move does not fit)."""
        game = Game(self.setup)
        for text in log:
            game.apply(parse_move(text))
        self._game = game
