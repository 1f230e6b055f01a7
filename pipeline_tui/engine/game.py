"""The game object: a seeded setup plus an append-only move log (event sourcing).

Every state is ``fold(apply, moves, initial_state(setup))``. Undo pops the last move and rebuilds
the state from the nearest checkpoint (a snapshot kept every ``CHECKPOINT_EVERY`` moves), which
keeps undo cheap without copying the state on every move. Checkpoints are kept encoded (msgpack
bytes): most are never read back, and encoding is the cheaper half of a copy.

The game also owns its history: each move's :class:`LogEntry` says which seat made it and in
which turn, so who moved, where each Round and turn starts, and whether a seat may take its
move back are answered here (saves hold only the moves: the entries are found again on load).

>>> game = Game(GameSetup.default(players=2, seed=7))
>>> game.apply(game.legal_moves()[0])
>>> len(game.moves), game.undo() is not None, len(game.moves)
(1, True, 0)
"""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple

import msgspec

from . import rules
from ..i18n import N_, _, ngettext
from .errors import IllegalMove
from .moves import Move, format_move, parse_move
from .scoring import Score, final_scores
from .clock import ClockState, GameTime, clock_state
from .setup import GameSetup, initial_state
from .rules.base import SETUP  # Stage.SETUP, as a plain name (see rules.base)
from .state import State, TurnState, clone_state, freeze_state, thaw_state

CHECKPOINT_EVERY = 64  # encoding one costs about a move of play; undo replays at most 63 (0.1-0.6 ms)
NOTHING_TO_UNDO = N_("Undo: there is no move to take back")
NOT_YOUR_TURNS_MOVE = N_("Undo: only your own moves of your current turn can be taken back")


class Turn(NamedTuple):
    """Which turn a move was made in (rulebook "Turn Order": each Round, each seat takes turns
    in order; the Setup's Tank placing counts as turns of its own)."""

    year: int
    round: int
    turn_index: int  # the turn within the Round (State.turn_index)
    seat: int
    setup: bool

    @classmethod
    def of(cls, state: State) -> "Turn":
        t = state.turn
        # tuple.__new__ skips the NamedTuple's Python-level __new__: this runs on every move
        return tuple.__new__(cls, (state.year, state.round, state.turn_index, t.player, t.stage == SETUP))


class LogEntry(NamedTuple):
    """One move of the log, with the seat that made it, the turn it was made in and, in a
    clocked game, the game time it was made at (ms; ``engine.clock``; 0 in a game without)."""

    move: Move
    turn: Turn
    at: int = 0

    @property
    def seat(self) -> int:
        return self.turn.seat


class Game:
    """A game of Pipeline: ``legal_moves()``, ``apply()``, ``undo()``, ``redo()`` and views."""

    def __init__(
        self, setup: GameSetup, moves: Iterable[Move] = (), times: Iterable[int | None] = ()
    ) -> None:
        self.setup = setup
        self.state: State = initial_state(setup)
        self.moves: list[Move] = []
        self._turns: list[Turn] = []  # the turn of each move of the log (shared within a turn)
        self.times: list[int] = []  # each move's game time in ms (engine.clock); 0s unclocked
        self.timer: GameTime | None = None  # a clocked game's time while it is open (the host's)
        self._entries: list[LogEntry] = []  # the log's entries made so far (see entries)
        self._redo: list[Move] = []
        self._first_round = (self.state.year, self.state.round)  # Year and Round before any move
        self._checkpoints: dict[int, bytes] = {0: freeze_state(self.state)}
        self._legal: list[Move] | None = None
        self._turn: tuple[TurnState | None, Turn | None] = (None, None)  # see apply
        for index, move in enumerate(moves):
            try:
                self._push(move, check=True)
            except IllegalMove as exc:
                raise IllegalMove(
                    _("move {n} ({move}): {error}").format(n=index + 1, move=format_move(move), error=exc)
                ) from None
        self.restamp(times)

    def restamp(self, times: Iterable[int | None]) -> None:
        """Give the log's moves their game times (a save's, or a table's): missing or
        decreasing ones take the time before them, so the stamps never go back."""
        given = list(times)
        stamps, last = [], 0
        for index in range(len(self.moves)):
            stamp = given[index] if index < len(given) else None
            if stamp is not None and stamp > last:
                last = stamp
            stamps.append(last)
        self.times = stamps
        self._entries = []

    # --- playing ---
    def legal_moves(self) -> list[Move]:
        """Every move the player to act may make now (empty when the game is over)."""
        if self._legal is None:
            self._legal = rules.legal_moves(self.state)
        return list(self._legal)

    def why_illegal(self, move: Move) -> str | None:
        """Why ``move`` is not allowed now (naming the rule), or ``None`` if it is legal."""
        return rules.why_illegal(self.state, move)

    def is_legal(self, move: Move) -> bool:
        return self.why_illegal(move) is None

    def apply(self, move: Move) -> None:
        """Play a move; raises :class:`IllegalMove` naming the rule broken. Clears redo.

        A move found in the listing already made for this state (:meth:`legal_moves`) is
        played without checking it again: the listing holds exactly the moves the checks
        accept (the property tests compare the two at every state of their games).

        The moves of one turn share its :class:`Turn`, kept with the ``TurnState`` it was made
        from: a turn's seat and Setup flag never change, and the Year, Round and turn index
        change only where a new ``TurnState`` begins the next turn (``rules.turns``)."""
        legal = self._legal
        if legal is None or move not in legal:
            self._push(move, check=True)
        else:  # _push(move, check=False) and _record inlined: bots and random games come here
            state = self.state
            t = state.turn
            kept, turn = self._turn
            if t is not kept or turn is None:
                turn = tuple.__new__(
                    Turn, (state.year, state.round, state.turn_index, t.player, t.stage == SETUP)
                )
                self._turn = (t, turn)
            rules.apply_trusted(state, move)
            moves = self.moves
            moves.append(move)
            self._turns.append(turn)
            self.times.append(self._stamp())
            self._legal = None
            if len(moves) % CHECKPOINT_EVERY == 0:
                self._checkpoints[len(moves)] = freeze_state(state)
        if self._redo:
            self._redo.clear()

    def play(self, text: str) -> Move:
        """Parse a move in text notation and play it; returns the move."""
        move = parse_move(text)
        self.apply(move)
        return move

    def apply_trusted(self, move: Move) -> None:
        """Play a move already known to be legal (from :meth:`legal_moves`), without checking."""
        turn = Turn.of(self.state)
        rules.apply_trusted(self.state, move)
        self._record(move, turn)
        self._redo.clear()

    def _push(self, move: Move, check: bool) -> None:
        turn = Turn.of(self.state)
        if check:
            rules.apply_move(self.state, move)
        else:
            rules.apply_trusted(self.state, move)
        self._record(move, turn)

    def _stamp(self) -> int:
        """The game time for a move made now: the timer's, or the last stamp without one."""
        timer, times = self.timer, self.times
        last = times[-1] if times else 0
        return last if timer is None else max(last, timer.now())

    def _record(self, move: Move, turn: Turn) -> None:
        moves = self.moves
        moves.append(move)
        self._turns.append(turn)
        self.times.append(self._stamp())
        self._legal = None
        if len(moves) % CHECKPOINT_EVERY == 0:
            self._checkpoints[len(moves)] = freeze_state(self.state)

    def undo(self) -> Move | None:
        """Take back the last move (it can be redone); ``None`` if there is nothing to undo."""
        if not self.moves:
            return None
        move = self.moves.pop()
        self._turns.pop()
        self.times.pop()
        del self._entries[len(self.moves) :]
        self._redo.append(move)
        self._rebuild()
        return move

    def redo(self) -> Move | None:
        """Play again the last undone move; ``None`` if there is nothing to redo."""
        if not self._redo:
            return None
        move = self._redo.pop()
        self._push(move, check=False)
        return move

    def can_redo(self) -> bool:
        return bool(self._redo)

    def _rebuild(self) -> None:
        count = len(self.moves)
        for index in [i for i in self._checkpoints if i > count]:
            del self._checkpoints[index]
        base = max(self._checkpoints)
        state = thaw_state(self._checkpoints[base])
        for move in self.moves[base:]:
            rules.apply_trusted(state, move)
        self.state = state
        self._legal = None

    # --- copies and views ---
    def clone(self) -> "Game":
        """An independent copy (same setup, log, state and redo stack)."""
        other = Game.__new__(Game)
        other.setup = self.setup
        other.state = clone_state(self.state)
        other.moves = list(self.moves)
        other._turns = list(self._turns)
        other.times = list(self.times)
        other.timer = None  # a copy (a bot's, a preview's) keeps the stamps but no time runs
        other._entries = list(self._entries)
        other._redo = list(self._redo)
        other._first_round = self._first_round
        other._checkpoints = dict(self._checkpoints)  # bytes: never mutated
        other._legal = None
        other._turn = (None, None)
        return other

    def state_at(self, count: int) -> State:
        """The state after the first ``count`` moves of the log."""
        if not 0 <= count <= len(self.moves):
            raise ValueError(
                ngettext(
                    "the log has {n} move; there is no move {count}",
                    "the log has {n} moves; there is no move {count}",
                    len(self.moves),
                ).format(n=len(self.moves), count=count)
            )
        base = max(i for i in self._checkpoints if i <= count)
        state = thaw_state(self._checkpoints[base])
        for move in self.moves[base:count]:
            rules.apply_trusted(state, move)
        return state

    @property
    def current_player(self) -> int:
        """The seat to act."""
        return self.state.turn.player

    # --- the history ---
    @property
    def entries(self) -> list[LogEntry]:
        """One entry per move of the log: the move, its seat and its turn. Made when asked for
        (the same list, extended with the moves played since): most games never read them,
        and a tuple kept per move is work for the garbage collector."""
        entries = self._entries
        count = len(entries)
        if count < len(self.moves):
            # tuple.__new__ skips the NamedTuple's Python-level __new__, as in Turn.of
            entries += [
                tuple.__new__(LogEntry, triple)
                for triple in zip(self.moves[count:], self._turns[count:], self.times[count:])
            ]
        return entries

    def movers(self) -> list[int]:
        """The seat that made each move of the log."""
        return [turn.seat for turn in self._turns]

    def round_starts(self) -> list[tuple[int, int, int]]:
        """(position, Year, Round) where each Round begins: the number of moves before its first
        one. The Round the game is in now counts, once it has begun; a finished game's does not."""
        starts = [(0, *self._first_round)]
        rounds = [(n, turn.year, turn.round) for n, turn in enumerate(self._turns)]
        if not self.state.over:
            rounds.append((len(self._turns), self.state.year, self.state.round))
        for start in rounds:
            if start[1:] != starts[-1][1:]:
                starts.append(start)
        return starts

    def turn_start(self) -> int:
        """The position where the turn now being played began (its first move's index)."""
        now = Turn.of(self.state)
        turns = self._turns
        start = len(turns)
        while start > 0 and turns[start - 1] == now:
            start -= 1
        return start

    def why_no_undo(self, seat: int) -> str | None:
        """Why ``seat`` may not take back the last move at a shared table (``None``: it may).
        A seat takes back only its own moves of the turn it is still playing."""
        if not self._turns:
            return _(NOTHING_TO_UNDO)
        last = self._turns[-1]
        if last.seat != seat or last != Turn.of(self.state):
            return _(NOT_YOUR_TURNS_MOVE)
        return None

    def is_over(self) -> bool:
        return self.state.over

    # --- the clock ---
    def now(self) -> int:
        """The game time now (ms): the timer's, else the last move's stamp."""
        return self._stamp()

    def clock(self, now: int | None = None) -> ClockState | None:
        """Every seat's clock at game time ``now`` (default :meth:`now`), worked out from the
        setup and the log (``engine.clock``); ``None`` in a game without a clock."""
        setting = self.setup.clock
        if setting is None:
            return None
        current = None
        if not self.state.over:
            turn = Turn.of(self.state)
            current = (turn, turn.seat)
        return clock_state(
            setting,
            len(self.setup.players),
            [(turn, turn.seat) for turn in self._turns],
            self.times,
            current,
            self.now() if now is None else now,
        )

    def scores(self) -> list[Score]:
        """Score breakdowns, best first (final once the game is over; a projection before)."""
        return final_scores(self.state)

    def public_view(self, player: int | None = None) -> dict[str, Any]:
        """What a player at the table can see: no face-down stack order, no seed."""
        return public_view(self.state, player)


def public_view(state: State, player: int | None = None) -> dict[str, Any]:
    """The state as plain data with hidden information removed.

    The pipe stack is face down (only its size shows); Contract stacks are face up, so only the
    top tile and the count show. Nothing in Pipeline is hidden from one player but not another,
    so ``player`` only records whose view it is.
    """
    view: dict[str, Any] = msgspec.to_builtins(state)
    view["pipe_deck"] = {"count": len(state.pipe_deck)}
    view["contract_stacks"] = [
        {"top": stack[-1] if stack else None, "count": len(stack)} for stack in state.contract_stacks
    ]
    view["viewer"] = player
    return view


def replay(setup: GameSetup, moves: Iterable[Move]) -> State:
    """The state reached by playing ``moves`` from the setup, each checked."""
    return Game(setup, moves).state
